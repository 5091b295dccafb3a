# The collection check's reading made hostile: what it looks for is absent
# (so every row or event is looked at), or its inputs are absurd. Each
# outcome must stay bounded and say what the files say.
S=1
[ -n "$SANITIZED" ] && S=20

# profiler_info with absurd settings: schedule numbers out of range, of
# the wrong type or nested, 100,000 activities, a long export list
mkdir -p info/ASCEND_PROFILER_OUTPUT
python3 - "$S" <<'PY'
import json, sys
n = 100000 // int(sys.argv[1])
info = {"config": {
    "common_config": {
        "activities": ["ProfilerActivity.NPU"] * n + [{"x": 1}, 7, None],
        "schedule": {"wait": 1e300, "warmup": -2, "active": "5",
                     "skip_first": {"a": [1]}, "_repeat": 3},
        "record_shapes": "yes", "profile_memory": 1},
    "experimental_config": {"_profiler_level": "Level9",
                            "_aic_metrics": "\u0000\u202e",
                            "_export_type": ["text"] * n + [[], 5]}},
    "rank_id": 0}
json.dump(info, open("info/profiler_info_0.json", "w"))
PY
printf 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n3,MatMulV3,MatMulV3,AI_CORE,1767225600000000.000\t,100.5,0,20\r\n' \
	>info/ASCEND_PROFILER_OUTPUT/kernel_details.csv
bounded collection_absurd_info 0 200 30 '' -- "$SDPERF" report info -o o1 -q -f json
python3 - o1/report.json <<'PY' && ok collection_absurd_info_facts || bad collection_absurd_info_facts "$(head -c 600 o1/report.json)"
import json, sys
r = json.load(open(sys.argv[1]))["collection"]["ranks"][0]
# unknown level and values of the wrong type are not taken; the data decide
assert r["profiler_level"] == "Level0" and r["profiler_level_source"] == "kernel_details", r
assert r["cpu"] is False and r["cpu_source"] == "profiler_info", r
assert r["shapes"] is None and r["memory"] is False, r
assert r["warmup_steps_before"] == 0, r  # only _repeat was a number
PY

# a trace read alone with a million operators, none with Input Dims, each
# with args to walk, and a million NPU MEM counters: one pass, bounded
python3 - "$S" <<'PY'
import sys
n = 1000000 // int(sys.argv[1])
with open("ops.json", "w") as f:
    f.write('[{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}},')
    f.write('{"ph":"M","name":"process_name","pid":9,"args":{"name":"NPU MEM"}},')
    for i in range(n):
        f.write('{"ph":"X","name":"aten::add","pid":5,"tid":5,"ts":"%d","dur":1,'
                '"cat":"cpu_op","args":{"Sequence number":%d,"Fwd thread id":0,'
                '"Input type":["float"]}},' % (10 * i, i))
        f.write('{"ph":"C","name":"APP/HBM","pid":9,"ts":"%d","args":{"KB":1}},' % (10 * i))
    f.write('{"ph":"X","name":"Add1","pid":7,"ts":"5","dur":1}]')
PY
bounded collection_trace_ops 0 300 120 '' -- "$SDPERF" report ops.json -o o2 -q -f json
python3 - o2/report.json <<'PY' && ok collection_trace_ops_facts || bad collection_trace_ops_facts "$(head -c 600 o2/report.json)"
import json, sys
r = json.load(open(sys.argv[1]))["collection"]["ranks"][0]
assert (r["cpu"], r["shapes"], r["memory"]) == (True, False, True), r
PY

# a text rank whose trace has a million framework operators without Input
# Dims: at most 256 of them are parsed for it, and shapes stay unknown
mkdir -p txt/ASCEND_PROFILER_OUTPUT
cp info/ASCEND_PROFILER_OUTPUT/kernel_details.csv txt/ASCEND_PROFILER_OUTPUT/
cp ops.json txt/ASCEND_PROFILER_OUTPUT/trace_view.json
bounded collection_text_trace_ops 0 300 120 '' -- "$SDPERF" report txt -o o3 -q -f json
python3 - o3/report.json <<'PY' && ok collection_text_trace_ops_facts || bad collection_text_trace_ops_facts "$(head -c 600 o3/report.json)"
import json, sys
r = json.load(open(sys.argv[1]))["collection"]["ranks"][0]
assert r["shapes"] is None and r["memory"] is True, r  # NPU MEM APP/ counters
PY

# a db whose PYTORCH_API has a million rows and no input shape, and whose
# kernels' inputShapes are all N/A: each "is there a row" query reads its
# table once, no more
python3 - "$S" <<'PY'
import sqlite3, sys
n = 1000000 // int(sys.argv[1])
c = sqlite3.connect("noshapes.db")
c.executescript(
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,globalTaskId INTEGER,"
    "connectionId INTEGER);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER "
    "PRIMARY KEY,taskType INTEGER,opType INTEGER,inputShapes INTEGER);"
    "CREATE TABLE PYTORCH_API (startNs TEXT,endNs TEXT,globalTid INTEGER,"
    "connectionId INTEGER,name INTEGER,inputShapes INTEGER,type INTEGER);")
c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)",
              [(1, "MatMulV3"), (2, "AI_CORE"), (3, "N/A"), (4, "aten::mm")])
c.executemany("INSERT INTO TASK VALUES (?, ?, ?, 0)",
              ((1000 + 10 * i, 1005 + 10 * i, i) for i in range(1, 1001)))
c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, 1, 3)",
              ((i,) for i in range(1, 1001)))
c.executemany("INSERT INTO PYTORCH_API VALUES (?, ?, 1, NULL, 4, NULL, 50001)",
              ((str(10 * i), str(10 * i + 5)) for i in range(n)))
c.commit()
PY
bounded collection_db_no_shapes 0 300 120 '' -- "$SDPERF" report noshapes.db -o o4 -q -f json
python3 - o4/report.json <<'PY' && ok collection_db_no_shapes_facts || bad collection_db_no_shapes_facts "$(head -c 600 o4/report.json)"
import json, sys
r = json.load(open(sys.argv[1]))["collection"]["ranks"][0]
assert (r["cpu"], r["shapes"], r["memory"], r["aic_metrics"]) == (True, False, False, False), r
assert r["shapes_source"] == "db", r
PY
