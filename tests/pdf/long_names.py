#!/usr/bin/env python3
"""Writes a kernel_details.csv with 300 kernel types whose names are 90 to
160 characters long, for the PDF's multi-page table test."""
import os
import sys

out = sys.argv[1]
os.makedirs(os.path.dirname(out), exist_ok=True)
t = 1767225600000000
with open(out, "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\r\n")
    for step in range(1, 3):
        for i in range(300):
            name = f"LongFusedOperator{i:03d}_" + "QuantBatchMatmulAddRmsNormSwiGlu" * (2 + i % 4)
            f.write(f"{step},{name},{name},AI_CORE,{t}.000\t,{10 + i % 50}.25\r\n")
            t += 80
