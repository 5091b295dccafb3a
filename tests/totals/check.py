#!/usr/bin/env python3
"""The profiler's own totals as a check (issue 22 §2): sdperf's
ranks[].totals_check against figures this script computes on its own from
the raw files (csv module and decimal arithmetic only, no sdperf code):

* the kernels' compute union, exposed communication (Comm kernels covered
  by no other kernel) and idle time (each Step Id's run of kernels, first
  start to last end, minus the two) from kernel_details.csv;
* step_trace_time.csv's Computing, Communication(Not Overlapped) and Free
  summed over the steps;
* op_statistic.csv's Total Time(us) and Count summed;
* whether each comparison is within the tolerance assets/rules.json gives
  ("totals"), in points of the steps' total time (of op_statistic's own
  figure for op_statistic).

usage: check.py SDPERF RULES_JSON CASE_DIR... (each CASE_DIR holds
report.json, and may hold rules.json (the --rules file the case ran
with: its "totals" tolerances replace the built-in ones) and a file
'expect' of python lines run with r =
report.json, t = the computed figures per rank id, check = the check
function)
"""
import csv
import glob
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

RULES = json.load(open(sys.argv[2]))["totals"]
failures = []


def check(what, ok, detail=""):
    print("%-4s %s %s" % ("ok" if ok else "FAIL", what, detail))
    if not ok:
        failures.append(what)


def ns(text):
    return int((Decimal(text.strip()) * 1000).quantize(Decimal(1), ROUND_HALF_UP))


def read_csv(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    head = [h.strip() for h in rows[0]]
    return [dict(zip(head, r)) for r in rows[1:] if len(r) == len(head)]


def union(iv):
    iv = sorted(iv)
    out = []
    for a, b in iv:
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def inter(x, y):
    i = j = t = 0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if b > a:
            t += b - a
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return t


def kernel_figures(path):
    """compute union, exposed comm, idle (ns) and kernel count, time."""
    comp, comm, runs = [], [], []
    ks = []
    for r in read_csv(path):
        a, d = ns(r["Start Time(us)"]), ns(r["Duration(us)"])
        core = r.get("Accelerator Core", "").strip()
        ks.append((a, a + d, r.get("Step Id", "").strip(), core == "HCCL"))
    ks.sort(key=lambda k: k[0])
    for a, b, step, is_comm in ks:
        (comm if is_comm else comp).append((a, b))
        if runs and runs[-1][2] == step:
            runs[-1][1] = max(runs[-1][1], b)
        else:
            runs.append([a, b, step])
    cu, mu = union(comp), union(comm)
    c = sum(b - a for a, b in cu)
    m = sum(b - a for a, b in mu)
    exposed = m - inter(cu, mu)
    span = sum(b - a for a, b, _ in runs)
    return {"computing": c, "comm_not_overlapped": exposed,
            "free": max(span - c - exposed, 0), "count": len(ks),
            "time": sum(b - a for a, b, _, _ in ks)}


def step_figures(path):
    t = {"computing": 0, "comm_not_overlapped": 0, "free": 0}
    for r in read_csv(path):
        t["computing"] += ns(r["Computing"])
        t["comm_not_overlapped"] += ns(r["Communication(Not Overlapped)"])
        t["free"] += ns(r["Free"])
    return t


def opstat_figures(path):
    rows = read_csv(path)
    return {"time": sum(ns(r["Total Time(us)"]) for r in rows),
            "count": sum(int(r["Count"]) for r in rows)}


def near(got_us, want_ns, tol_ns):
    return abs(Decimal(str(got_us)) * 1000 - want_ns) <= tol_ns


def data_dir(rank):
    """The folder of the rank's kernel_details.csv (the rank's folder as
    report.json names it, or its ASCEND_PROFILER_OUTPUT)."""
    for d in (rank["dir"], os.path.join(rank["dir"], "ASCEND_PROFILER_OUTPUT")):
        if os.path.exists(os.path.join(d, "kernel_details.csv")):
            return d
    return None


def check_case(case):
    rep = json.load(open(os.path.join(case, "report.json")))
    rules = dict(RULES)
    if os.path.exists(os.path.join(case, "rules.json")):  # --rules given
        rules.update(json.load(open(os.path.join(case, "rules.json")))["totals"])
    t = {}
    for rank in rep["ranks"]:
        d = data_dir(rank)
        if d is None:
            continue
        name = "%s rank %s" % (os.path.basename(case), rank["id"])
        kf = kernel_figures(os.path.join(d, "kernel_details.csv"))
        st = os.path.join(d, "step_trace_time.csv")
        op = os.path.join(d, "op_statistic.csv")
        checks = {c["figure"]: c for c in rank["totals_check"]}
        fig = {"kernels": kf}
        if os.path.exists(st):
            sf = step_figures(st)
            fig["steps"] = sf
            base = sf["computing"] + sf["comm_not_overlapped"] + sf["free"]
            for f in ("computing", "comm_not_overlapped", "free"):
                c = checks.get(f)
                check("%s %s present" % (name, f), c is not None)
                if c is None:
                    continue
                # HCCL durations are cut to the ns, not rounded: 1 ns a
                # kernel at most
                check("%s %s kernels" % (name, f),
                      near(c["kernels_us"], kf[f], 1 + kf["count"]),
                      "%s vs %s ns" % (c["kernels_us"], kf[f]))
                check("%s %s profiler" % (name, f),
                      near(c["profiler_us"], sf[f], 1),
                      "%s vs %s ns" % (c["profiler_us"], sf[f]))
                pts = abs(kf[f] - sf[f]) * 100 / base
                want = pts <= rules[f]
                check("%s %s passed=%s" % (name, f, want),
                      c["passed"] == want, "%.3f points" % pts)
        if os.path.exists(op):
            of = opstat_figures(op)
            fig["opstat"] = of
            c = checks.get("op_statistic_time")
            check("%s op_statistic_time" % name, c is not None and
                  near(c["profiler_us"], of["time"], 1) and
                  near(c["kernels_us"], kf["time"], 1 + kf["count"]),
                  str(c and (c["kernels_us"], c["profiler_us"])))
            c = checks.get("op_statistic_count")
            check("%s op_statistic_count" % name, c is not None and
                  c["profiler"] == of["count"] and
                  c["kernels"] == kf["count"],
                  str(c and (c["kernels"], c["profiler"])))
        t[rank["id"]] = fig
    exp = os.path.join(case, "expect")
    if os.path.exists(exp):
        code = open(exp).read()
        exec(compile(code, exp, "exec"),
             {"r": rep, "t": t, "check": check, "case": os.path.basename(case)})


for case in sys.argv[3:]:
    check_case(case)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
