#!/usr/bin/env python3
"""Conformance matrix: every real capture in tests/data/samples, read every
way the capture allows (the text folder, its trace_view.json files alone,
its SQLite db), must give the same profile.

For each capture and reading the matrix prints: kernels, kernel time, the
time of each category, exposed communication (share of the stages' wall
time), the memory peaks, and what sdperf says the profile is. Readings of
one capture must agree:
  - kernel count equal;
  - kernel time and each category's time within 0.01%;
  - exposed communication within 0.5 points;
  - memory peaks equal (where both readings have the figure).
Every reading's kernel count and kernel time are also checked against the
raw files, read here with the csv / json / sqlite3 modules (no sdperf
code): kernel_details.csv rows with as many fields as the header, the
Ascend Hardware events of a trace that the task-type table counts as
kernels plus the HCCL operations, the db's COMPUTE_TASK_INFO and
COMMUNICATION_OP rows.

usage: matrix.py SDPERF DATA_DIR TMP_DIR
"""
import csv
import glob
import gzip
import json
import os
import sqlite3
import subprocess
import sys
from decimal import Decimal

SDPERF, DATA, TMP = sys.argv[1:4]
CATS = ["FA", "MatMul", "Conv", "Vector", "Comm", "Other"]
failures = []


def fail(what):
    failures.append(what)
    print("FAIL " + what)


# ---- independent readings of the raw files --------------------------------

def csv_kernels(path):
    """Rows with as many fields as the header (a short row is skipped, as
    the profiler's own tools skip it); Duration summed in us."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    head, n, total = rows[0], 0, Decimal(0)
    dur = head.index("Duration(us)")
    for r in rows[1:]:
        if len(r) != len(head):
            continue
        try:
            d = Decimal(r[dur].strip())
        except Exception:
            continue
        n += 1
        total += d
    return n, float(total)


# Task types the profiler writes into kernel_details.csv (docs/task-types.md)
KERNEL_TASK_TYPES = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV",
                     "AI_CPU", "DSA_SQE", "KERNEL_AICORE", "KERNEL_AIVEC",
                     "KERNEL_MIX_AIC", "KERNEL_MIX_AIV", "KERNEL_AICPU",
                     "FFTS_PLUS", "WRITE_BACK", "INVALID"}


def trace_kernels(paths):
    """Ascend Hardware X events that are kernels (by Task Type where the
    event has an informative one, else by name: not an all-capitals task
    label, "Other" or "MemcopyAsync"), plus the HCCL process's hcom_*
    operations."""
    n, total = 0, Decimal(0)
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            ev = json.load(f)
        if isinstance(ev, dict):
            ev = ev["traceEvents"]
        names = {e["pid"]: e.get("args", {}).get("name") for e in ev
                 if e.get("ph") == "M" and e.get("name") == "process_name"}
        for e in ev:
            if e.get("ph") != "X":
                continue
            proc, name = names.get(e.get("pid")), e.get("name", "")
            if proc == "Ascend Hardware":
                tt = e.get("args", {}).get("Task Type")
                # older generations write "Other" for every AI Core kernel
                # and runtime task alike: there only the name tells
                if tt is not None and tt.lower() != "other":
                    keep = tt in KERNEL_TASK_TYPES
                else:
                    label = all(c.isupper() or c.isdigit() or c == "_"
                                for c in name) and any(c.isupper() for c in name)
                    keep = not (label or name in ("Other", "MemcopyAsync"))
            elif proc in ("HCCL", "Communication"):
                keep = name.lower().startswith("hcom_")
            else:
                keep = False
            if keep:
                n += 1
                total += Decimal(str(e["dur"]))
    return n, float(total)


def db_kernels(paths):
    n, total = 0, 0
    for path in paths:
        c = sqlite3.connect("file:%s?mode=ro&immutable=1" % path, uri=True)
        try:
            for q in ("SELECT count(*), sum(t.endNs - t.startNs) FROM "
                      "COMPUTE_TASK_INFO c JOIN TASK t ON "
                      "t.globalTaskId = c.globalTaskId",
                      "SELECT count(*), sum(endNs - startNs) FROM "
                      "COMMUNICATION_OP"):
                cnt, ns = c.execute(q).fetchone()
                n += cnt
                total += ns or 0
        finally:
            c.close()
    return n, total / 1e3


# ---- the captures and their readings ----------------------------------------

def rank_outputs(run):
    return sorted(glob.glob(os.path.join(DATA, run, "*", "ASCEND_PROFILER_OUTPUT")))


def text_run(run):
    kd = [os.path.join(o, "kernel_details.csv") for o in rank_outputs(run)]
    return ("text", [os.path.join(DATA, run)], lambda: sum_pairs(map(csv_kernels, kd)))


def trace_run(run):
    tv = [glob.glob(os.path.join(o, "trace_view.json*"))[0] for o in rank_outputs(run)]
    return ("trace alone", tv, lambda: trace_kernels(tv))


def db_run(run):
    dbs = [glob.glob(os.path.join(o, "ascend_pytorch_profiler*.db"))[0]
           for o in rank_outputs(run)]
    return ("db", [os.path.join(DATA, run)], lambda: db_kernels(dbs))


def text_file(rel):
    p = os.path.join(DATA, rel)
    return ("text", [p], lambda: csv_kernels(p))


def trace_file(rel):
    p = os.path.join(DATA, rel)
    return ("trace alone", [p], lambda: trace_kernels([p]))


def sum_pairs(pairs):
    n, t = 0, 0.0
    for a, b in pairs:
        n += a
        t += b
    return n, t


CAPTURES = [
    ("alexnet-2024-level0", [text_run("msinsight-alexnet-2rank-2024/level0"),
                             trace_run("msinsight-alexnet-2rank-2024/level0")]),
    ("alexnet-2024-level1", [text_run("msinsight-alexnet-2rank-2024/level1"),
                             trace_run("msinsight-alexnet-2rank-2024/level1")]),
    ("alexnet-2025-db-level0", [db_run("msinsight-alexnet-2rank-2025-db/level0")]),
    ("alexnet-2025-db-level1", [db_run("msinsight-alexnet-2rank-2025-db/level1")]),
    ("gpt3-2023", [text_run("msinsight-gpt3-testdata-2023")]),
    ("paddleocr-2026", [text_file("paddleocrvl-910b-decode-2026/kernel_details.csv")]),
    ("mstt-compute-advice", [text_file("mstt-test-resources/compute_advice_data/kernel_details.csv")]),
    ("mstt-advisor-backend", [text_file("mstt-test-resources/advisor_backend_compute_advice/kernel_details.csv")]),
    ("mstt-old-level0", [text_file("mstt-test-resources/resource/test.csv")]),
    ("mstt-timeline-trace", [trace_file("mstt-test-resources/timeline_advice/trace_view.json.gz")]),
]


def figures(rep):
    st = rep["stages"].values()
    wall = sum(s["wall_time_us"] for s in st)
    exposed = sum(s["communication"]["exposed_us"] for s in st)
    mem = rep.get("memory", {})
    return {
        "kernels": rep["profile"]["kernels"],
        "time": sum(s["kernel_time_us"] for s in st),
        "cats": {c: sum(s["categories"][c]["time_us"] for s in st) for c in CATS},
        "exposed_pct": 100.0 * exposed / wall if wall else 0.0,
        "mem": {k: mem.get(k) for k in ("peak_allocated_mb", "peak_reserved_mb",
                                        "peak_device_mb")},
        "workload": (rep.get("workload") or {}).get("kind", "-"),
        "stages": ",".join(k for k, s in rep["stages"].items() if s["kernels"]),
    }


def run(label, reading, paths, i):
    out = os.path.join(TMP, "%s-%d" % (label, i))
    p = subprocess.run([SDPERF, "report", *paths, "-o", out, "-f", "json",
                        "-q", "-j", "2"], capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s %s: sdperf exit %d: %s" % (label, reading, p.returncode,
                                            p.stderr.strip()[:300]))
        return None
    with open(os.path.join(out, "report.json")) as f:
        return figures(json.load(f))


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9) + 0.0015


def mb(v):
    return "-" if v is None else "%.2f" % v


print("%-24s %-11s %7s %13s  %s  %7s  %-23s %-9s %s" % (
    "capture", "reading", "kernels", "kernel us", " ".join("%9s" % c for c in CATS),
    "exp %", "mem MB alloc/resv/dev", "workload", "stages"))
for label, readings in CAPTURES:
    got = []
    for i, (reading, paths, raw) in enumerate(readings):
        f = run(label, reading, paths, i)
        if f is None:
            continue
        m = f["mem"]
        print("%-24s %-11s %7d %13.3f  %s  %7.2f  %-23s %-9s %s" % (
            label, reading, f["kernels"], f["time"],
            " ".join("%9.1f" % f["cats"][c] for c in CATS), f["exposed_pct"],
            "/".join(mb(m[k]) for k in ("peak_allocated_mb", "peak_reserved_mb",
                                         "peak_device_mb")),
            f["workload"], f["stages"]))
        n, t = raw()
        if f["kernels"] != n:
            fail("%s %s: %d kernels, the raw files have %d" % (label, reading, f["kernels"], n))
        if not close(f["time"], t, 1e-4):
            fail("%s %s: kernel time %.3f us, the raw files %.3f us" % (label, reading, f["time"], t))
        got.append((reading, f))
    for (ra, a), (rb, b) in zip(got, got[1:]):
        pair = "%s: %s vs %s" % (label, ra, rb)
        if a["kernels"] != b["kernels"]:
            fail("%s kernels %d vs %d" % (pair, a["kernels"], b["kernels"]))
        if not close(a["time"], b["time"], 1e-4):
            fail("%s kernel time %.3f vs %.3f" % (pair, a["time"], b["time"]))
        for c in CATS:
            if not close(a["cats"][c], b["cats"][c], 1e-4):
                fail("%s %s %.3f vs %.3f" % (pair, c, a["cats"][c], b["cats"][c]))
        if abs(a["exposed_pct"] - b["exposed_pct"]) > 0.5:
            fail("%s exposed comm %.2f%% vs %.2f%%" % (pair, a["exposed_pct"], b["exposed_pct"]))
        for k in a["mem"]:
            if a["mem"][k] is not None and b["mem"][k] is not None and \
                    abs(a["mem"][k] - b["mem"][k]) > 0.0015:
                fail("%s %s %.3f vs %.3f" % (pair, k, a["mem"][k], b["mem"][k]))
        if a["workload"] != b["workload"] or a["stages"] != b["stages"]:
            fail("%s what the profile is: %s [%s] vs %s [%s]" % (
                pair, a["workload"], a["stages"], b["workload"], b["stages"]))

if failures:
    print("conformance: %d disagreement(s)" % len(failures))
    sys.exit(1)
print("conformance: every reading of every capture agrees")
