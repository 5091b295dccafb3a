#!/usr/bin/env python3
"""Plants secrets in every string field sdperf reads of one input kind
(tests/redact/run.sh, issue 23), in every position inside a name: at its
start, its end and its middle, glued by '_', '-' and '.'.

Usage: plant23.py KIND FOLDER HOST USER IPV4 IPV6 GROUP ABSPATH
  KIND text: each rank's kernel_details.csv (kernel names and types),
       profiler_info*.json (torch_npu_version, cann_version),
       communication.json (its operators' names);
  KIND db: the SQLite export's STRING_IDS (kernel names and types),
       META_DATA SCHEMA_VERSION, NPU_INFO and HOST_INFO (made when
       missing; its host, zqdbhostdelta, also in a kernel type);
  KIND trace: trace_view.json's device kernels' names (a lone trace:
       their types come from their names).
Each kernel planted is made the slowest of its file, so that the report's
kernel tables list it."""
import glob
import json
import os
import sqlite3
import sys


def names(host, user, ipv4, ipv6, group, path):
    """Kernel types, each a secret in another position and glue."""
    return [
        "%s_FusedBlockA" % ipv4,          # start, '_'
        "FusedBlockB-%s-x" % ipv6,        # middle, '-'
        "FusedBlockC.%s" % host,          # end, '.'
        "AllReduce_%s_grp" % group,       # middle, '_'
        "FusedBlockD_%s" % path,          # end, '_' (a path)
        "%s-FusedBlockE" % user,          # start, '-'
        "hcom_allReduce__%s_1" % host,    # middle, '_'
        "FusedBlockG_%s" % host.upper(),  # end, '_', in capitals
    ]


def text(folder, host, user, ipv4, ipv6, group, path):
    types = names(host, user, ipv4, ipv6, group, path)
    for p in glob.glob(os.path.join(folder, "**", "kernel_details.csv"),
                       recursive=True):
        raw = open(p, "rb").read().decode()
        lines = raw.split("\r\n")
        head = lines[0].split(",")
        nm, ty = head.index("Name"), head.index("Type")
        du = head.index("Duration(us)")
        row = lines[1].split(",")
        extra = []
        for i, t in enumerate(types):
            r = list(row)
            r[nm], r[ty], r[du] = t + "_" + str(i), t, "%.1f" % (5000 - i)
            extra.append(",".join(r))
        lines[2:2] = extra
        open(p, "wb").write("\r\n".join(lines).encode())
    for p in glob.glob(os.path.join(folder, "**", "profiler_info*.json"),
                       recursive=True):
        d = json.load(open(p))
        d["torch_npu_version"] = "2.1.0+%s@%s" % (user, ipv4)
        d["cann_version"] = "%s_8.0.RC2" % ipv6
        json.dump(d, open(p, "w"))
    for p in glob.glob(os.path.join(folder, "**", "communication.json"),
                       recursive=True):
        d = json.load(open(p))
        for step in d.values():
            for kind in ("collective", "p2p"):
                ops = step.get(kind) or {}
                for op in list(ops):
                    if op == "Total Op Info":
                        continue
                    ops[op.replace("@", "_%s@" % group, 1)] = ops.pop(op)
        json.dump(d, open(p, "w"))


# the db's own host (HOST_INFO), named nowhere else but in a kernel type
DB_HOST = "zqdbhostdelta"


def db(folder, host, user, ipv4, ipv6, group, path):
    types = ["FusedBlockF_%s" % DB_HOST] + names(host, user, ipv4, ipv6,
                                                  group, path)
    for p in glob.glob(os.path.join(folder, "**", "*.db"), recursive=True):
        c = sqlite3.connect(p)
        tables = {r[0] for r in c.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        # the longest kernels: their names and types become secrets
        rows = c.execute(
            "SELECT c.name, c.opType FROM COMPUTE_TASK_INFO c JOIN TASK t "
            "ON t.globalTaskId = c.globalTaskId GROUP BY c.opType "
            "ORDER BY SUM(t.endNs - t.startNs) DESC").fetchall()
        for (name_id, type_id), t in zip(rows, types):
            c.execute("UPDATE STRING_IDS SET value = ? WHERE id = ?",
                      (t + "_k", name_id))
            c.execute("UPDATE STRING_IDS SET value = ? WHERE id = ?",
                      (t, type_id))
        if "META_DATA" not in tables:
            c.execute("CREATE TABLE META_DATA (name TEXT, value TEXT)")
        c.execute("DELETE FROM META_DATA WHERE name = 'SCHEMA_VERSION'")
        c.execute("INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', ?)",
                  ("1.0.0-%s.%s" % (user, ipv4),))
        if "NPU_INFO" not in tables:
            c.execute("CREATE TABLE NPU_INFO (id INTEGER, name TEXT)")
        c.execute("DELETE FROM NPU_INFO")
        c.execute("INSERT INTO NPU_INFO VALUES (0, ?)",
                  ("Ascend910B-%s_%s" % (host, ipv6),))
        if "HOST_INFO" not in tables:
            c.execute("CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT)")
        c.execute("DELETE FROM HOST_INFO")
        c.execute("INSERT INTO HOST_INFO VALUES ('3538958389648580163', ?)",
                  (DB_HOST,))
        c.commit()
        c.close()


def trace(folder, host, user, ipv4, ipv6, group, path):
    types = names(host, user, ipv4, ipv6, group, path)
    for p in glob.glob(os.path.join(folder, "**", "trace_view.json"),
                       recursive=True):
        d = json.load(open(p))
        ev = d if isinstance(d, list) else d["traceEvents"]
        dev = [e for e in ev if e.get("ph") == "X" and
               "Task Type" in (e.get("args") or {})]
        # the longest kernel names: each renamed, every event of it
        total = {}
        for e in dev:
            total[e["name"]] = total.get(e["name"], 0) + float(e["dur"])
        longest = sorted(total, key=lambda n: -total[n])[:len(types)]
        new = dict(zip(longest, types))
        for e in dev:
            if e["name"] in new:
                e["name"] = new[e["name"]]
        json.dump(d, open(p, "w"))


def main():
    kind, folder = sys.argv[1], sys.argv[2]
    {"text": text, "db": db, "trace": trace}[kind](folder, *sys.argv[3:9])


if __name__ == "__main__":
    main()
