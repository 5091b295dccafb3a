# Issue 23, the db reader and the lone trace: ids checked against what
# they claim, no sentinel ids, a flow join that is no product of its
# tables, and trace kernels told by their Task Type. Expected figures are
# hand-checked arithmetic on the rows written here.
SAMPLE_DB="$ROOT/tests/data/samples/msinsight-alexnet-2rank-2025-db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
python3 - "$SAMPLE_DB" <<'PY'
import shutil, sqlite3, sys
S = ("CREATE TABLE STRING_IDS (id INTEGER,value TEXT);"
     "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
     "globalTaskId INTEGER,taskType INTEGER);"
     "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER,"
     "taskType INTEGER,opType INTEGER);"
     "CREATE TABLE PYTORCH_API (startNs TEXT,endNs TEXT,connectionId INTEGER,"
     "name INTEGER,type INTEGER);"
     "CREATE TABLE CONNECTION_IDS (id INTEGER,connectionId INTEGER);")

def db(path, strings):
    c = sqlite3.connect(path)
    c.executescript(S)
    c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", strings)
    return c

# defect 3: 10 kernels, task 4's TASK row written twice (10 rows read as
# 11 kernels before)
c = db("dup10.db", [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE")])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, 2)",
              [(1000 * i, 1000 * i + 500, i) for i in range(10)] +
              [(4000, 4500, 4)])
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
              ((i,) for i in range(10)))
c.commit()
# 4,096 TASK and 4,096 COMPUTE_TASK_INFO rows of one id: 16.8 M kernels
# from a 100 KB file before
c = db("fanout.db", [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE")])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, 7, 2)",
              ((10 * i, 10 * i + 5) for i in range(4096)))
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, 7, 2, NULL)",
              ((),) * 4096)
c.commit()
# a COMPUTE_TASK_INFO id twice, TASK's ids all once
c = db("dup_compute.db", [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE")])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, 2)",
              ((1000 * i, 1000 * i + 500, i) for i in range(10)))
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
              ((i,) for i in list(range(10)) + [6]))
c.commit()
# a name id twice in STRING_IDS (which name is the kernel's?), and a
# collective's opId twice in COMMUNICATION_OP
c = db("dup_string.db", [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE"),
                         (1, "aclnnMul_MulAiCore_Mul")])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, 2)",
              ((1000 * i, 1000 * i + 500, i) for i in range(10)))
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
              ((i,) for i in range(10)))
c.executescript("CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs "
                "INTEGER,endNs INTEGER,connectionId INTEGER,opId INTEGER,"
                "opType INTEGER);"
                "INSERT INTO COMMUNICATION_OP VALUES (1, 20000, 21000, 0, 5, "
                "NULL), (1, 22000, 23000, 0, 5, NULL);"
                "DELETE FROM STRING_IDS WHERE value = 'aclnnMul_MulAiCore_Mul';")
c.commit()
shutil.copy("dup_string.db", "dup_op.db")
c = sqlite3.connect("dup_string.db")
c.execute("DELETE FROM COMMUNICATION_OP WHERE startNs = 22000")
c.execute("INSERT INTO STRING_IDS VALUES (1, 'aclnnMul_MulAiCore_Mul')")
c.commit()
# the real sample with one of its kernels' TASK rows written twice
shutil.copy(sys.argv[1], "sample_dup.db")
c = sqlite3.connect("sample_dup.db")
c.execute("INSERT INTO TASK SELECT * FROM TASK WHERE globalTaskId = "
          "(SELECT min(globalTaskId) FROM COMPUTE_TASK_INFO)")
print(c.execute("SELECT min(globalTaskId) FROM COMPUTE_TASK_INFO").fetchone()[0],
      file=open("sample_dup.id", "w"))
c.commit()

# defect 6: ids that were the reader's markers. 10 kernels of 500 ns, their
# taskType (COMPUTE_TASK_INFO and TASK) the STRING_IDS id -2, which holds
# AI_CORE: all compute, Vector (Add), 5 us; none Comm. And 10 kernels
# whose opType is the id -1, holding MatMulV2: their type is MatMulV2
# (category MatMul), not the name's Add.
for path, tt, op, strings in (
        ("id_m2.db", -2, None, [(1, "aclnnAdd_AddAiCore_Add"), (-2, "AI_CORE")]),
        ("id_m1.db", 2, -1, [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE"),
                             (-1, "MatMulV2")])):
    c = db(path, strings)
    c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, ?)",
                  ((1000 * i, 1000 * i + 500, i, tt) for i in range(10)))
    c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, ?, ?)",
                  ((i, tt, op) for i in range(10)))
    c.commit()

# defect 7: 100,000 launches, connections and tasks that all share one
# connection id (the three-table product was 10^15 rows), and 100,000
# that do not; one "transformer" marker over them all
def flows(path, n, same):
    c = db(path, [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE"),
                  (3, "transformer")])
    k = (lambda i: 7) if same else (lambda i: i)
    c.executemany("INSERT INTO TASK VALUES (?, ?, ?, ?, 2)",
                  ((10**6 + 1000 * i, 10**6 + 1000 * i + 500, k(i), i)
                   for i in range(n)))
    c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
                  ((i,) for i in range(n)))
    c.executemany("INSERT INTO PYTORCH_API VALUES (?, ?, ?, 1, 50001)",
                  ((str(1000 * i + 10), str(1000 * i + 20), k(i))
                   for i in range(n)))
    c.executemany("INSERT INTO CONNECTION_IDS VALUES (?, ?)",
                  ((k(i), k(i)) for i in range(n)))
    c.execute("INSERT INTO PYTORCH_API VALUES ('0', ?, NULL, 3, 50001)",
              (str(1000 * n + 100),))
    c.commit()
flows("flows_same.db", 100000, True)
flows("flows_uniq.db", 100000, False)

# defect 5: a trace alone. Kernels named "Other" and "MYKERNEL" with Task
# Type AI_CORE (100 us and 200 us) count; "Other" without a Task Type
# (400 us) is a runtime task by the name rule; EVENT_RECORD with its Task
# Type (800 us) is none. Kernel time: 300 us, 2 kernels.
import json
ev = [{"ph": "M", "name": "process_name", "pid": 7,
       "args": {"name": "Ascend Hardware"}},
      {"ph": "X", "name": "Other", "pid": 7, "tid": 2, "ts": "1000.000",
       "dur": 100, "args": {"Task Type": "AI_CORE"}},
      {"ph": "X", "name": "MYKERNEL", "pid": 7, "tid": 2, "ts": "1200.000",
       "dur": 200, "args": {"Task Type": "AI_CORE"}},
      {"ph": "X", "name": "Other", "pid": 7, "tid": 2, "ts": "1500.000",
       "dur": 400},
      {"ph": "X", "name": "EVENT_RECORD", "pid": 7, "tid": 2,
       "ts": "2000.000", "dur": 800, "args": {"Task Type": "EVENT_RECORD"}}]
json.dump(ev, open("lone.json", "w"))
PY

# ---- 3: duplicate ids are refused, naming the table, the column and the id
bounded db23_dup_task 3 100 30 'dup10.db: TASK.globalTaskId 4 appears 2 times' -- \
	"$SDPERF" report dup10.db -o o_dup10 -q -f json
[ ! -e o_dup10 ] && ok db23_dup_task_writes_nothing || bad db23_dup_task_writes_nothing
bounded db23_fanout 3 100 30 'fanout.db: TASK.globalTaskId 7 appears 4096 times' -- \
	"$SDPERF" report fanout.db -o o_fanout -q -f json
bounded db23_dup_compute 3 100 30 'dup_compute.db: COMPUTE_TASK_INFO.globalTaskId 6 appears 2 times' -- \
	"$SDPERF" report dup_compute.db -o o_dupc -q -f json
bounded db23_dup_string 3 100 30 'dup_string.db: STRING_IDS.id 1 appears 2 times' -- \
	"$SDPERF" report dup_string.db -o o_dups -q -f json
bounded db23_dup_op 3 100 30 'dup_op.db: COMMUNICATION_OP.opId 5 appears 2 times' -- \
	"$SDPERF" report dup_op.db -o o_dupo -q -f json
bounded db23_sample_dup 3 200 30 "sample_dup.db: TASK.globalTaskId $(cat sample_dup.id) appears 2 times" -- \
	"$SDPERF" report sample_dup.db -o o_sdup -q -f json

# ---- 6: ids -2 and -1 are ids like any other
bounded db23_tasktype_m2 0 100 30 '' -- "$SDPERF" report id_m2.db -o o_m2 -q -f json
python3 - o_m2/report.json <<'PY' && ok db23_tasktype_m2_not_comm || bad db23_tasktype_m2_not_comm
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["kernels"] == 10, d["profile"]["kernels"]
cats = {k: sum(s["categories"][k]["time_us"] for s in d["stages"].values())
        for k in ("Comm", "Vector")}
assert cats == {"Comm": 0.0, "Vector": 5.0}, cats
PY
bounded db23_optype_m1 0 100 30 '' -- "$SDPERF" report id_m1.db -o o_m1 -q -f json
python3 - o_m1/report.json <<'PY' && ok db23_optype_m1_typed || bad db23_optype_m1_typed
import json, sys
d = json.load(open(sys.argv[1]))
top = [k for s in d["stages"].values() for k in s.get("top_kernels", [])]
assert [(k["type"], k["category"], k["count"]) for k in top] == [("MatMulV2", "MatMul", 10)], top
PY

# ---- 7: the flow join in O(n log n): 100,000 rows sharing one id give one
# link (one (op, connection) pair), 100,000 distinct ones give 100,000
bounded db23_flows_same 0 300 30 '' -- timeout 120 "$SDPERF" report flows_same.db -o o_fs -q -f json
bounded db23_flows_uniq 0 300 30 '' -- timeout 120 "$SDPERF" report flows_uniq.db -o o_fu -q -f json
python3 - o_fs/report.json o_fu/report.json <<'PY' && ok db23_flows_counted || bad db23_flows_counted
import json, sys
same, uniq = (json.load(open(p))["ranks"][0]["markers"] for p in sys.argv[1:3])
assert [(m["name"], m["method"], m["flows"]) for m in same] == [("transformer", "flows", 1)], same
assert [(m["name"], m["method"], m["flows"]) for m in uniq] == [("transformer", "flows", 100000)], uniq
# the first task starts at 1 ms (10^6 ns), the last at 1 ms + 99,999 us
assert (uniq[0]["device_start_us"], uniq[0]["device_end_us"]) == (1000.0, 100999.0), uniq
assert same[0]["device_start_us"] == 1000.0, same
PY

# ---- 5: a lone trace's kernels by Task Type, not by the case of names
bounded db23_lone_trace 0 100 30 '' -- "$SDPERF" report lone.json -o o_lone -q -f json
python3 - o_lone/report.json <<'PY' && ok db23_lone_trace_task_type || bad db23_lone_trace_task_type
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["kernels"] == 2, d["profile"]["kernels"]
t = sum(s["kernel_time_us"] for s in d["stages"].values())
assert t == 300.0, t
PY

# ---- 3 (review): an id spelled twice ('4' and 4, '04', '4.0') in a column
# declared without INTEGER affinity groups apart in the duplicate check, but
# SQLite's join converts it to the other column's 4: 10 TASK rows made 13
# kernels (and 10 COMPUTE_TASK_INFO rows plus "06" and "6.0" made 12), exit 0.
# An id is an integer: the spellings join nothing and are counted unjoined.
python3 - <<'PY'
import sqlite3
def mk(path, task_col, comp_col, task_extra, comp_extra):
    c = sqlite3.connect(path)
    c.executescript(
        "CREATE TABLE STRING_IDS (id INTEGER,value TEXT);"
        "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,connectionId "
        "INTEGER,globalTaskId %s,taskType INTEGER);"
        "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId %s,"
        "taskType INTEGER,opType INTEGER);" % (task_col, comp_col))
    c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)",
                  [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE")])
    c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, 2)",
                  [(1000 * i, 1000 * i + 500, i) for i in range(10)] +
                  [(4000, 4500, v) for v in task_extra])
    c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
                  [(i,) for i in range(10)] + [(v,) for v in comp_extra])
    c.commit()
mk("spell_task.db", "", "INTEGER", ["4", "04", "4.0"], [])
mk("spell_compute.db", "INTEGER", "", [], ["06", "6.0"])
PY
for s in task compute; do
	bounded "db23_spelled_$s" 0 100 30 '' -- \
		"$SDPERF" report "spell_$s.db" -o "o_spell_$s" -q -f json
	python3 - "o_spell_$s/report.json" <<'PY' && ok "db23_spelled_${s}_not_multiplied" || bad "db23_spelled_${s}_not_multiplied"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["kernels"] == 10, d["profile"]["kernels"]
t = sum(s["kernel_time_us"] for s in d["stages"].values())
assert t == 5.0, t
PY
done

# ---- bounds (review): STRING_IDS values are up to 1 MiB each, and the
# reader's id -> string cache (4,096 slots) kept a copy of each outside
# --max-memory: 120 TASK rows of distinct 1 MiB task types (unknown ones,
# left out of the kernels) held 130 MB under --max-memory 64M. Long values
# are no longer cached.
python3 - <<'PY'
import sqlite3
c = sqlite3.connect("long_types.db")
c.executescript(
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
    "globalTaskId INTEGER,taskType INTEGER);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER,"
    "taskType INTEGER,opType INTEGER);")
n = 120
c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)",
              [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE")] +
              [(10 + i, "T%d_" % i + "x" * ((1 << 20) - 20))
               for i in range(n)])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, ?)",
              [(1000 * i, 1000 * i + 500, i, 10 + i) for i in range(n)] +
              [(1000 * n, 1000 * n + 500, n, 2)])
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
              ((i,) for i in range(n + 1)))
c.commit()
PY
bounded db23_long_strings_bounded 0 90 30 '' -- \
	"$SDPERF" report long_types.db -o o_long -q -f json --max-memory 64M
rm -f long_types.db

# ---- bounds (review): 100,000 TASK rows of one unknown 1 MiB task type:
# each row fetched and copied the whole name again (1 MiB a row, 100 GB
# in all: 7 s before, growing with the rows); its class and its name as
# the tally keeps it (64 bytes) are now remembered once per id.
python3 - <<'PY'
import sqlite3
c = sqlite3.connect("one_long_type.db")
c.executescript(
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
    "globalTaskId INTEGER,taskType INTEGER);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER,"
    "taskType INTEGER,opType INTEGER);")
n = 100000
c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)",
              [(1, "aclnnAdd_AddAiCore_Add"), (2, "AI_CORE"),
               (3, "T_" + "x" * ((1 << 20) - 20))])
c.executemany("INSERT INTO TASK VALUES (?, ?, 0, ?, ?)",
              [(1000 * i, 1000 * i + 500, i, 3) for i in range(n)] +
              [(1000 * n, 1000 * n + 500, n, 2)])
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
              ((i,) for i in range(n + 1)))
c.commit()
PY
bounded db23_long_type_rows_fast 0 100 3 '' -- \
	"$SDPERF" report one_long_type.db -o o_long1 -q -f json --max-memory 64M
python3 - o_long1/report.json <<'PY' && ok db23_long_type_one_kernel || bad db23_long_type_one_kernel
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["kernels"] == 1, d["profile"]["kernels"]
PY

# ---- 3 (review): COMMUNICATION_TASK_INFO holds one row per HCCL task
# (its globalTaskId a TASK's); the real sample with every row written twice
# doubled the wait, transit and sync times and every transport's size and
# time (HCCS 427.596 -> 855.192 MB), exit 0, no warning. Now refused.
cp "$SAMPLE_DB" comm_dup.db
python3 - comm_dup.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO COMMUNICATION_TASK_INFO SELECT * FROM "
          "COMMUNICATION_TASK_INFO")
c.commit()
# the smallest id is the one GROUP BY meets first
open("comm_dup.id", "w").write(str(c.execute(
    "SELECT min(globalTaskId) FROM COMMUNICATION_TASK_INFO").fetchone()[0]))
PY
bounded db23_dup_comm_task 3 200 30 "comm_dup.db: COMMUNICATION_TASK_INFO.globalTaskId $(cat comm_dup.id) appears 2 times" -- \
	"$SDPERF" report comm_dup.db -o o_cdup -q -f json

# ---- bounds (review): the HCCL enum tables are read whole (4,096 rows at
# most) and each name was copied outside --max-memory, up to 1 MiB each:
# the real sample with 120 link-type names of 1 MiB held 130 MB under
# --max-memory 64M. A name longer than any the profiler writes is left out.
cp "$SAMPLE_DB" long_enum.db
python3 - long_enum.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executemany("INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (?, ?)",
              ((100 + i, "L%d_" % i + "x" * ((1 << 20) - 20))
               for i in range(120)))
c.commit()
PY
bounded db23_long_enum_bounded 0 90 30 '' -- \
	"$SDPERF" report long_enum.db -o o_lenum -q -f json --max-memory 64M
rm -f long_enum.db
