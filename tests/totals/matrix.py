#!/usr/bin/env python3
"""communication_matrix.json read on its own (json module only): per rank
file, per step and section (p2p, collective), HCCL's "Total Op Info" when
the section has it, else the aggregated layout's "<kind>-total@<group>"
entries, else every operation; summed over the steps by (src rank, dst
rank, transport). Compared with report.json's ranks[].links (size in MB to
1e-3, time in us to 1 ns a step, bandwidth = MB / ms).

usage: matrix.py REPORT_JSON
"""
import collections
import glob
import json
import os
import sys

rep = json.load(open(sys.argv[1]))
bad = 0
for rank in rep["ranks"]:
    files = glob.glob(os.path.join(rank["dir"], "**", "communication_matrix.json"),
                      recursive=True)
    if len(files) != 1:
        print("FAIL rank %d: %d matrix files" % (rank["id"], len(files)))
        bad += 1
        continue
    doc = json.load(open(files[0]))
    size = collections.Counter()
    time = collections.Counter()
    for step in doc.values():
        for sec in ("p2p", "collective"):
            ops = step.get(sec, {})
            if "Total Op Info" in ops:
                use = [ops["Total Op Info"]]
            elif any("-total@" in k for k in ops):
                use = [v for k, v in ops.items() if "-total@" in k]
            else:
                use = list(ops.values())
            for op in use:
                for link, e in op.items():
                    s, d = (int(x) for x in link.split("-"))
                    key = (s, d, e.get("Transport Type", "unknown"))
                    size[key] += e.get("Transit Size(MB)", 0)
                    time[key] += e.get("Transit Time(ms)", 0)
    got = {(k["src"], k["dst"], k["transport"]): k for k in rank["links"]}
    if rank["links_total"] != len(size) or len(got) != min(len(size), 256):
        print("FAIL rank %d: %d links, expected %d" % (rank["id"], len(got), len(size)))
        bad += 1
    for key in size:
        k = got.get(key)
        ok = (k is not None and abs(k["size_mb"] - size[key]) <= 0.0015 and
              abs(k["time_us"] - time[key] * 1000) <= 0.002 * len(doc) + 0.0015)
        if ok and time[key] > 0:
            ok = abs(k["bandwidth_gbps"] - size[key] / time[key]) <= 0.0015
        print("%-4s rank %d link %s: %s (expected %.3f MB, %.3f us)" %
              ("ok" if ok else "FAIL", rank["id"], key, k, size[key],
               time[key] * 1000))
        bad += not ok
sys.exit(1 if bad else 0)
