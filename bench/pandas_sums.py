#!/usr/bin/python3
"""Baseline for bench/run.sh: the same per-category sums sdperf computes,
done the usual Python way (pandas read_csv + groupby), using sdperf's own
built-in rules so both sides classify alike."""
import fnmatch
import json
import re
import sys

import pandas as pd


def load_rules(path):
    rules = json.load(open(path))
    cls = []
    for entry in rules["classify"]:
        for glob in entry["types"]:
            cls.append((re.compile(fnmatch.translate(glob), re.I), entry["category"]))
    return cls, {c.upper() for c in rules["comm_cores"]}


def main():
    csv_path, rules_path = sys.argv[1], sys.argv[2]
    cls, comm_cores = load_rules(rules_path)
    df = pd.read_csv(csv_path, usecols=["Name", "Type", "Accelerator Core", "Duration(us)"],
                     dtype={"Name": str, "Type": str, "Accelerator Core": str},
                     keep_default_na=False)
    df["Duration(us)"] = pd.to_numeric(df["Duration(us)"], errors="coerce")
    key = df["Type"].where(df["Type"] != "N/A", df["Name"])

    def classify(t):
        for rx, cat in cls:
            if rx.match(t):
                return cat
        return "Other"

    cats = {t: classify(t) for t in key.unique()}
    cat = key.map(cats)
    cat = cat.where(~df["Accelerator Core"].str.upper().isin(comm_cores), "Comm")
    sums = df["Duration(us)"].groupby(cat).sum()
    for name, us in sums.sort_index().items():
        print(f"{name:8s} {us:16.3f} us")


if __name__ == "__main__":
    main()
