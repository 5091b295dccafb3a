# Memory (issue 11, defect 1): small inputs that claimed gigabytes. Each
# attack is built here, small, and must stay within a peak RSS that follows
# the README's memory model (32 bytes per kernel plus fixed caps), or be
# refused as an input error (exit 3) naming the file and what was too big.
EX="$ROOT/examples/image-dit-1card/synth-node_1000_20260512095011733_ascend_pt/ASCEND_PROFILER_OUTPUT"
# Sanitizer builds run 10-50 times slower and their RSS is not checked:
# the same attacks, an eighth of the size.
SHIFT=0
[ -n "$SANITIZED" ] && SHIFT=3
export SHIFT

# rank DIR: a rank folder with the example's kernels (the attack adds the
# rest)
rank() {
	mkdir -p "$1/ASCEND_PROFILER_OUTPUT"
	cp "$EX/kernel_details.csv" "$1/ASCEND_PROFILER_OUTPUT/"
}

# The kernel table: 2^23 + 1 rows of "K,1,1" (6 bytes each, 48 MiB, 200 KB
# gzipped), one past a power of two where doubling growth costs most.
# 32 B x 8.4 M = 268 MB at most, plus the process.
mkdir -p k11/ASCEND_PROFILER_OUTPUT
python3 - k11/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz <<'PY'
import gzip, os, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"Name,Start Time(us),Duration(us)\n")
    f.write(b"K,1,1\n" * ((2**23 >> int(os.environ["SHIFT"])) + 1))
PY
bounded k11_rows 0 300 60 '' -- "$SDPERF" report k11 -o o-k11 -q -f json
# the same under --max-memory: refused at the kernel table, exit 3
bounded k11_max_memory 3 120 60 'kernel table' -- \
	"$SDPERF" report k11 -o o-k11m -q -f json --max-memory $((64 >> SHIFT))M
# under ulimit -v the default budget is half of it: an input error, not an
# abort (exit 134). Sanitizers reserve more address space than any limit.
if [ -z "$SANITIZED" ]; then
	bounded k11_ulimit 3 300 60 '--max-memory' -- bash -c \
		'ulimit -v 400000; exec "$0" report k11 -o o-k11u -q -f json' \
		"$SDPERF"
fi

# Rows in descending time order: the sort needs a buffer, an eighth of
# the table. 4 M rows: at most 32 B each.
mkdir -p desc/ASCEND_PROFILER_OUTPUT
python3 - desc/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz <<'PY'
import gzip, os, sys
n = 4_000_000 >> int(os.environ["SHIFT"])
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"Name,Start Time(us),Duration(us)\n")
    f.write(b"".join(b"K,%d,1\n" % (n - i) for i in range(n)))
PY
bounded descending_rows 0 160 60 '' -- "$SDPERF" report desc -o o-desc -q -f json

# A Step Id that flips every row: a segment per kernel. The analysis uses
# them all, the report lists 10,000.
mkdir -p flip/ASCEND_PROFILER_OUTPUT
python3 - flip/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz <<'PY'
import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"Step Id,Name,Start Time(us),Duration(us)\n")
    f.write(b"".join(b"%d,K,%d,1\n" % (i % 2, i) for i in range(200_000)))
PY
bounded flipping_steps 0 100 60 '' -- "$SDPERF" report flip -o o-flip -q
python3 - o-flip/report.json <<'PY' && ok flipping_steps_listed || bad flipping_steps_listed "segments not capped"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["segments"]) == 10000 and d["segments_total"] == 200000, (len(d["segments"]), d["segments_total"])
assert any(w["code"] == "segments_unlisted" for w in d["warnings"])
PY

# 300,000 distinct kernel types with 200-byte names: refused at 65,536
# (70,000 in sanitizer builds).
mkdir -p types/ASCEND_PROFILER_OUTPUT
python3 - types/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz <<'PY'
import gzip, os, sys
pad = b"x" * 200
n = 70_000 if int(os.environ["SHIFT"]) else 300_000
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"Name,Type,Start Time(us),Duration(us)\n")
    f.write(b"".join(b"k,T%d%s,%d,1\n" % (i, pad, i) for i in range(n)))
PY
bounded many_types 3 100 60 'distinct kernel types' -- \
	"$SDPERF" report types -o o-types -q -f json

# trace_view.json: 40 distinct marker-like names of 4 MiB each (160 KB
# gzipped). Names that long are no stage markers: not cached, not copied.
rank names
python3 - names/ASCEND_PROFILER_OUTPUT/trace_view.json.gz <<'PY'
import gzip, os, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"[")
    for i in range(40 >> int(os.environ["SHIFT"])):
        f.write(b'{"ph": "X", "cat": "cpu_op", "pid": 1, "tid": 1, '
                b'"ts": "1778579413780197", "dur": 5, "name": "vae_%d' % i)
        f.write(b"x" * (4 << 20))
        f.write(b'"},')
    f.write(b'{"ph": "i", "name": "end", "pid": 1, "ts": "1"}]')
PY
bounded marker_names 0 100 60 '' -- "$SDPERF" report names -o o-names -q -f json

# 300,000 "vae_N" cpu_op markers (1.7 MB gzipped): all set the stages,
# the report lists 200 and says so.
rank markers
NMARK=$((300000 >> SHIFT))
python3 - markers/ASCEND_PROFILER_OUTPUT/trace_view.json.gz "$NMARK" <<'PY'
import gzip, sys
n, t0 = int(sys.argv[2]), 1778579413780197000
with gzip.open(sys.argv[1], "wt", compresslevel=1) as f:
    f.write("[")
    for i in range(n):
        ts = t0 + i * 300_000_000 // n
        f.write('{"name":"vae_%d","ph":"X","cat":"cpu_op","pid":1,"tid":1,'
                '"ts":"%d.%03d","dur":5},' % (i, ts // 1000, ts % 1000))
    f.write('{"name":"end","ph":"i","pid":1,"tid":1,"ts":"1"}]')
PY
bounded markers_300k 0 120 60 '' -- \
	"$SDPERF" report markers -o o-markers -q -f json,md,pdf
python3 - o-markers/report.json "$NMARK" <<'PY' && ok markers_listed || bad markers_listed "markers not capped"
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
assert len(r["markers"]) == 200 and r["markers_total"] == int(sys.argv[2]), (len(r["markers"]), r["markers_total"])
assert r["stage_source"] == "markers_time", r["stage_source"]
PY

# communication.json.gz: 20 MB of numbers (20 KB gzipped) in a member the
# reader skips, then the same inside one operation (over its 256 KiB).
rank comm
python3 - comm/ASCEND_PROFILER_OUTPUT/communication.json.gz <<'PY'
import gzip, os, sys
with gzip.open(sys.argv[1], "wb") as f:
    f.write(b'{"step1": {"collective": {"Total Op Info": {"x": [')
    f.write(b"0," * (10_000_000 >> int(os.environ["SHIFT"])))
    f.write(b'0]}, "hcom_allReduce__1_0_1": {"Communication Time Info": '
            b'{"Elapse Time(ms)": 1.5}}}}}')
PY
bounded comm_skipped 0 100 60 '' -- "$SDPERF" report comm -o o-comm -q -f json
rank commop
python3 - commop/ASCEND_PROFILER_OUTPUT/communication.json.gz <<'PY'
import gzip, os, sys
with gzip.open(sys.argv[1], "wb") as f:
    f.write(b'{"step1": {"collective": {"hcom_allReduce__1_0_1": {"x": [')
    f.write(b"0," * (10_000_000 >> int(os.environ["SHIFT"])))
    f.write(b'0]}}}}')
PY
bounded comm_one_op 3 100 60 'larger than 256 KiB (the limit for one operation' -- \
	"$SDPERF" report commop -o o-commop -q -f json

# report.json: 30 MB of numbers in a member check and diff do not read.
python3 - "$ROOT/examples/image-dit-1card/report/report.json" big.json <<'PY'
import os, sys
text = open(sys.argv[1]).read().lstrip()
assert text[0] == "{"
n = 15_000_000 >> int(os.environ["SHIFT"])
with open(sys.argv[2], "w") as f:
    f.write('{"junk": [' + "0," * n + '0], ' + text[1:])
PY
bounded report_json_check 0 150 60 '' -- \
	"$SDPERF" check big.json --no-verdicts --max dit.fa.share=1
bounded report_json_baseline 0 150 60 '' -- \
	"$SDPERF" check "$ROOT/examples/image-dit-1card/report/report.json" \
	--no-verdicts --baseline big.json
bounded report_json_diff 0 200 60 '' -- \
	"$SDPERF" diff big.json big.json -o o-diff -q -f json

# The other readers charge the same budget and cut the same lists: a
# trace read alone (its kernel table, through the same reserve and fit as
# kernel_details.csv's) and a db export (COMPUTE_TASK_INFO's rows, sized at
# once), each refused under a small --max-memory, naming the file.
python3 - alone.json.gz <<'PY'
import gzip, os, sys
n = (1 << 21) >> int(os.environ["SHIFT"])
with gzip.open(sys.argv[1], "wt", compresslevel=1) as f:
    f.write('[{"ph":"M","name":"process_name","pid":7,'
            '"args":{"name":"Ascend Hardware"}}')
    for i in range(n):
        f.write(',{"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":7,'
                '"ts":"%d.000","dur":0.5}' % i)
    f.write(']')
PY
bounded trace_alone_max_memory 3 120 60 'alone.json.gz: kernel table' -- \
	"$SDPERF" report alone.json.gz -o o-alone -q -f json \
	--max-memory $((16 >> SHIFT))M
[ ! -e o-alone ] && ok trace_alone_max_memory_writes_nothing ||
	bad trace_alone_max_memory_writes_nothing
python3 - big.db steps.db <<'PY'
import sqlite3, sys
S = ("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
     "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,globalTaskId INTEGER,"
     "connectionId INTEGER);"
     "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER "
     "PRIMARY KEY,taskType INTEGER,opType INTEGER);"
     "CREATE TABLE STEP_TIME (id INTEGER,startNs INTEGER,endNs INTEGER);")
def db(path, n, steps):
    c = sqlite3.connect(path)
    c.executescript(S)
    c.execute("INSERT INTO STRING_IDS VALUES (1, 'aclnnAdd_AddAiCore_Add')")
    c.execute("INSERT INTO STRING_IDS VALUES (2, 'AI_CORE')")
    c.executemany("INSERT INTO TASK VALUES (?, ?, ?, 0)",
                  ((1000 * i, 1000 * i + 500, i) for i in range(n)))
    c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (1, ?, 2, NULL)",
                  ((i,) for i in range(n)))
    c.executemany("INSERT INTO STEP_TIME VALUES (?, ?, ?)",
                  ((i, 1000 * i, 1000 * i + 900) for i in range(steps)))
    c.commit()
db(sys.argv[1], 1 << 19, 0)  # refused at once: no smaller under ASan
db(sys.argv[2], 3000, 3000)
PY
bounded db_max_memory 3 120 60 'big.db: COMPUTE_TASK_INFO: kernel table' -- \
	"$SDPERF" report big.db -o o-bigdb -q -f json --max-memory 4M
[ ! -e o-bigdb ] && ok db_max_memory_writes_nothing ||
	bad db_max_memory_writes_nothing
# a step per kernel: all 3,000 analysed, the first 2,000 listed
bounded db_steps_3k 0 100 60 '' -- "$SDPERF" report steps.db -o o-steps -q -f json
python3 - o-steps/report.json <<'PY' && ok db_steps_listed || bad db_steps_listed "db steps not capped"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
assert r["steps_source"] == "db" and r["steps_total"] == 3000, (r["steps_source"], r["steps_total"])
assert len(r["steps"]) == 2000, len(r["steps"])
assert any(w["code"] == "steps_unlisted" for w in d["warnings"])
PY

# 3,000 stage markers in a trace read alone: all set the stages, the
# report lists 200 and says so, as for kernel_details.csv with a trace.
python3 - marked.json <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('[{"ph":"M","name":"process_name","pid":7,'
            '"args":{"name":"Ascend Hardware"}}')
    for i in range(3000):
        f.write(',{"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":7,'
                '"ts":"%d.000","dur":0.5}' % (10 * i + 1))
        f.write(',{"ph":"X","name":"vae_%d","cat":"cpu_op","pid":5,'
                '"ts":"%d.000","dur":5}' % (i, 10 * i))
    f.write(']')
PY
bounded trace_alone_markers 0 100 60 '' -- "$SDPERF" report marked.json -o o-marked -q -f json
python3 - o-marked/report.json <<'PY' && ok trace_alone_markers_listed || bad trace_alone_markers_listed "markers not capped"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
assert len(r["markers"]) == 200 and r["markers_total"] == 3000, (len(r["markers"]), r["markers_total"])
assert r["markers"][0]["name"] == "vae_0" and r["markers"][199]["name"] == "vae_199"
assert any(w["code"] == "markers_unlisted" for w in d["warnings"])
PY
