#!/usr/bin/env python3
"""Seeds for fuzz_db (tests/fuzz/fuzz_db.c): row scripts in its format
(first byte even) and a tiny database image (first byte odd), plus the
regression inputs it found. Usage: seed_db.py OUT_DIR"""
import os
import sqlite3
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def small(k): return bytes([((k + 4) << 3) | 1])
def time(t): return bytes([7, t & 255])
NULL = b"\x00"
T = {n: i for i, n in enumerate(["TASK","COMPUTE_TASK_INFO","COMMUNICATION_OP","COMMUNICATION_TASK_INFO","STRING_IDS","STEP_TIME","OVERLAP_ANALYSIS","PYTORCH_API","CONNECTION_IDS","MSTX_EVENTS","RANK_DEVICE_MAP","ENUM_HCCL_TRANSPORT_TYPE","ENUM_HCCL_LINK_TYPE","ENUM_API_TYPE","MEMORY_RECORD","NPU_MEM"])}
def row(t, *vals): return bytes([T[t]]) + b"".join(vals)
s = b"\x00"
for i in range(4):
    s += row("TASK", time(10*i), time(10*i+5), small(i), small(i), small(1))
    s += row("COMPUTE_TASK_INFO", small(0), small(i), small(1), small(2))
    s += row("PYTORCH_API", time(10*i), time(10*i+3), small(i), small(0), small(-4))
    s += row("CONNECTION_IDS", small(i), small(i))
s += row("PYTORCH_API", time(0), time(60), NULL, small(5), NULL)
s += row("COMMUNICATION_OP", small(6), time(50), time(60), small(9), small(1), small(3))
s += row("TASK", time(50), time(55), small(9), small(20), small(3))
s += row("COMMUNICATION_TASK_INFO", small(10), small(20), small(10), small(0), small(0), small(8), small(1), small(1))
s += row("STEP_TIME", small(0), time(0), time(100))
s += row("OVERLAP_ANALYSIS", small(0), time(0), time(5))
s += row("MEMORY_RECORD", small(9), time(1), time(50), time(60))
s += row("NPU_MEM", small(8), time(70), time(2))
open(os.path.join(out, "script-all"), "wb").write(s)
# the collisions: a duplicated task id, taskType -2, opType -1
d = b"\x00" + row("TASK", time(0), time(5), small(0), small(1), small(-2)) + row("TASK", time(6), time(9), small(0), small(1), small(1)) + row("COMPUTE_TASK_INFO", small(0), small(1), small(-2), small(-1))
open(os.path.join(out, "script-dup"), "wb").write(d)
d = b"\x00" + row("TASK", time(0), time(5), small(0), small(1), small(-2)) + row("COMPUTE_TASK_INFO", small(0), small(1), small(-2), small(-1))
open(os.path.join(out, "script-sentinel"), "wb").write(d)
# a tiny database image
p = os.path.join(out, "tiny.tmp")
if os.path.exists(p): os.unlink(p)
c = sqlite3.connect(p)
c.execute("PRAGMA page_size=512")
c.executescript("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
 "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, connectionId INTEGER, globalTaskId INTEGER, taskType INTEGER);"
 "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, taskType INTEGER, opType INTEGER);"
 "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER, opId INTEGER PRIMARY KEY, opType INTEGER);"
 "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, connectionId INTEGER, name INTEGER, type INTEGER);"
 "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
 "INSERT INTO STRING_IDS VALUES (0,'aclnnAdd_AddAiCore_Add'),(1,'AI_CORE'),(2,'Add'),(3,'hcom_allReduce_'),(5,'transformer');"
 "INSERT INTO TASK VALUES (1000,1500,1,1,1),(2000,2600,2,2,1);"
 "INSERT INTO COMPUTE_TASK_INFO VALUES (0,1,1,2),(0,2,1,2);"
 "INSERT INTO COMMUNICATION_OP VALUES (3,3000,3900,3,1,3);"
 "INSERT INTO PYTORCH_API VALUES ('900','950',1,0,50001),('1900','1950',2,0,50001),('800','4000',NULL,5,50001);"
 "INSERT INTO CONNECTION_IDS VALUES (1,1),(2,2);")
c.commit(); c.close()
open(os.path.join(out, "image-tiny"), "wb").write(b"\x01" + open(p, "rb").read())
os.unlink(p)
# regression: a collective's task times of opposite extremes overflowed the
# HCCL sums (input/hccl.c, UBSan), found by fuzz_db
open(os.path.join(out, "regress-hccl-overflow"), "wb").write(bytes.fromhex(
    "000007000705dfd6eefff8fa000000000000000007092129290100000000070921092129290100000000070921292901d2d2d2d2d2d2d2d2d2d263000000000000012b0000070921292901d2d2d2d2d2d23bffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd23bffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd2d2d2d2636f6e6e65d2d2d2d2d2d2dcd2d2d2d2d2d2d2d2d2d2d2d2d2d2d24848436cd2d2d2d2d263ffffffffffffffffffffffffffffffffffffffffffffffd2d2d2d2636f6e6e65d2d2d2d2d2d2dcd2d2d2d2d2d2d2d2d2d2d2d2d2d2d24848436cd2d2d2d2d2636f6e6e65d2d25f676174686572d0d2d2d2d2d2636f6e6e65d2292901d2d2d2d2d2d2d2d2d2d2636f6e6e65d2d2d2d20000070921292901d2d2d2d2d2d23bd2d2d2d2636f6e6e65d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d233d2d2d2d2d2636f6e6e65d2d2d2d2d2d2d2d2d2d2d2d2ffd2d2d2616c6c5f676174686572d2d2d2d2d2d2636f6e6e65d2d2d2d2d2d2d2d200076321291119"))
