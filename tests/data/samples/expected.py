#!/usr/bin/env python3
"""Independent figures for tests/unit/test_samples.c.

Reads each sample kernel_details.csv with Python's csv module (which handles
the quoted shape fields) and prints, per file: physical lines, data rows,
rows skipped (field count differs from the header, or Start Time/Duration is
not a number), kept kernels, the sum of Duration in integer nanoseconds, and
per category (classified with assets/rules.json) the kernel count and time.

This is a second implementation written from FORMATS.md and rules.json, not a
port of src/: decimal.Decimal for the times, fnmatch for the globs.

  python3 tests/data/samples/expected.py            (from the repo root)
"""
import csv
import decimal
import fnmatch
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

SAMPLES = [
  "msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
  "msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
  "paddleocrvl-910b-decode-2026/kernel_details.csv",
  "mstt-test-resources/compute_advice_data/kernel_details.csv",
  "mstt-test-resources/advisor_backend_compute_advice/kernel_details.csv",
  "msinsight-gpt3-testdata-2023/test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
  "mstt-test-resources/resource/test.csv",
]
CATS = ["FA", "MatMul", "Conv", "Vector", "Comm", "Other"]


def us_to_ns(text):
  """'1736413971558972.912\\t' -> 1736413971558972912, half up below 1 ns."""
  t = text.strip(" \t\r\n")
  if not re.fullmatch(r"[0-9]*\.?[0-9]*", t) or not re.search(r"[0-9]", t):
    return None
  d = decimal.Decimal(t) * 1000
  return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def type_from_name(name):
  """FORMATS.md's Name -> Type table, for Level0 rows whose Type is N/A.
  A clearing helper (X_MemSet, atomic_memset-*) is MemSet, as Level1 says."""
  if name.endswith("_MemSet") and len(name) > 7 or name.startswith("atomic_memset"):
    return "MemSet"
  if name.startswith("aclnn") and "_" in name[5:]:
    return name.rsplit("_", 1)[1] or name
  if name.startswith("aclnn"):
    name = name[5:]
  if name.startswith("trans_"):
    name = name[6:]
  m = re.fullmatch(r"(.+?)((?:_[0-9]+)+)", name)
  if m and m.group(1):
    name = m.group(1)
  if "_" not in name:
    m = re.fullmatch(r"(.*[^0-9])([0-9]+)", name)
    if m:
      name = m.group(1) + (m.group(2)[0] if m.group(1).endswith("V") else "")
  return name


def api_from_name(name):
  """aclnn<Api>_<Impl>_<OpType> -> aclnn<Api>; '' for other names."""
  m = re.match(r"(aclnn[A-Za-z0-9]+)_.", name)
  return m.group(1) if m else ""


def classify(rules, typ, core, name=""):
  if core and core.upper() in [c.upper() for c in rules["comm_cores"]]:
    return "Comm"
  by_type = "Other"
  for entry in rules["classify"]:
    if any(fnmatch.fnmatchcase(typ.lower(), p.lower()) for p in entry["types"]):
      by_type = entry["category"]
      break
  api = api_from_name(name)
  for entry in rules.get("classify_apis", []) if api else []:
    if not any(fnmatch.fnmatchcase(api.lower(), p.lower()) for p in entry["apis"]):
      continue
    if "types" in entry and not any(
        fnmatch.fnmatchcase(typ.lower(), p.lower()) for p in entry["types"]):
      continue
    return entry["category"]
  return by_type


def figures(path, rules):
  raw = open(path, "rb").read()
  with open(path, newline="", encoding="utf-8-sig") as f:
    rows = list(csv.reader(f))
  head, data = rows[0], rows[1:]
  col = {h.lower(): i for i, h in enumerate(head)}
  out = {"lines": raw.count(b"\n") + (0 if raw.endswith(b"\n") else 1),
           "rows": len(data), "skipped": 0, "kernels": 0, "total_ns": 0,
           "cat": {c: [0, 0] for c in CATS}, "skipped_lines": []}
  line = 1
  for r in data:
    line += 1  # no multi-line fields in these files
    start = us_to_ns(r[col["start time(us)"]]) if len(r) == len(head) else None
    dur = us_to_ns(r[col["duration(us)"]]) if len(r) == len(head) else None
    if start is None or dur is None:
      out["skipped"] += 1
      out["skipped_lines"].append(line)
      continue
    typ = r[col["type"]].strip()
    if typ in ("", "N/A"):
      typ = type_from_name(r[col["name"]])
    core = r[col["accelerator core"]].strip()
    core = "" if core == "N/A" else core
    cat = classify(rules, typ, core, r[col["name"]])
    out["kernels"] += 1
    out["total_ns"] += dur
    out["cat"][cat][0] += 1
    out["cat"][cat][1] += dur
  return out


def main():
  rules = json.load(open(os.path.join(ROOT, "assets", "rules.json")))
  for rel in SAMPLES:
    f = figures(os.path.join(HERE, rel), rules)
    print(rel)
    print("  lines %(lines)d rows %(rows)d skipped %(skipped)d kernels "
              "%(kernels)d total_ns %(total_ns)d skipped_lines %(skipped_lines)s" % f)
    for c in CATS:
      print("  %-6s count %4d ns %d" % (c, f["cat"][c][0], f["cat"][c][1]))
  return 0


if __name__ == "__main__":
  sys.exit(main())
