#!/usr/bin/env bash
# Task types (docs/task-types.md), end to end on generated runs: a 2-card
# run with all-gather collectives in the newer trace generation
# (sdperf-gen --trace-generation 2025: every Ascend Hardware event with its
# Task Type, HCCL's task level (Notify Record / Memcpy / Reduce Inline /
# Notify Wait) on the Ascend Hardware process over each collective, and an
# AI Core kernel named in capitals, TENSOR_INIT, a kernel in the truth), each
# rank's trace_view.json read alone. Kernel count and kernel time per
# stage and category, and exposed communication, against the generator's
# ground truth; an injected task type no table knows named in a warning
# with its count and time (the generator's: one 1 us event a step), in
# report.json, Markdown and HTML, en and zh; the same run in the 2024
# generation gives the same figures (the name rule); in the db export, a
# compute row whose TASK.taskType no table knows is left out and named.
# Usage: tests/tasktype/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
STEPS=3
gen() { # OUT ARGS...
	"$GEN" -o "$1" --seed 11 --steps $STEPS --iters 3 --blocks 4 --ranks 2 \
		--comm allgather --comm-overlap 0.3 --subtasks "${@:2}" 2>/dev/null ||
		bad "$1" "sdperf-gen failed"
}
# LABEL PROFILE RANK OUTDIR [ARGS]: the rank's trace alone
lone() {
	local tv
	tv=$(grep -l "\"src rank\": $3," "$2"/*/ASCEND_PROFILER_OUTPUT/trace_view.json)
	"$SDPERF" report "$tv" -o "$4" -j 2 -q -f json,md,html "${@:5}" \
		2>"$4.err" || bad "$1" "sdperf report failed: $(head -3 "$4.err")"
}
# LABEL REPORT TRUTH: every stage's kernels, kernel time, each category's
# count and time, exposed communication, as the ground truth has them
truth() {
	if python3 - "$2/report.json" "$3" <<'PY' 2>"$1.err"; then
import json, sys
d = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))
for st, ts in t["stages"].items():
    s = d["stages"][st]
    assert s["kernels"] == ts["kernels"], (st, s["kernels"], ts["kernels"])
    assert abs(s["kernel_time_us"] - ts["kernel_time_us"]) < 0.01, (st, s["kernel_time_us"], ts["kernel_time_us"])
    for cat, tc in ts["categories"].items():
        c = s["categories"][cat]
        assert c["count"] == tc["count"], (st, cat, c["count"], tc["count"])
        assert abs(c["time_us"] - tc["time_us"]) < 0.01, (st, cat, c["time_us"], tc["time_us"])
    e = s.get("communication", {}).get("exposed_us", 0.0)
    assert abs(e - ts["exposed_comm_us"]) <= 0.001 * max(ts["exposed_comm_us"], 1), (st, e, ts["exposed_comm_us"])
assert t["stages"]["dit"]["exposed_comm_us"] > 0
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$1.err")"
	fi
}

gen g25 --trace-generation 2025 --unknown-task-type NEW_TASK_X
gen g24
# the 2025 trace has what the test is about: HCCL's task level on Ascend
# Hardware with its Task Types, and the kernel named in capitals with its
if grep -q '"name": "Notify Wait", "pid": [0-9]*, "tid": 3,.*"Task Type": "Notify Wait"' \
	g25/*/ASCEND_PROFILER_OUTPUT/trace_view.json &&
	grep -q '"name": "TENSOR_INIT", .*"Task Type": "AI_CORE"' \
		g25/*/ASCEND_PROFILER_OUTPUT/trace_view.json; then
	ok gen_2025_writes_task_types
else
	bad gen_2025_writes_task_types "no Notify Wait or TENSOR_INIT with its Task Type"
fi
for rank in 0 1; do
	lone "r25_$rank" g25 "$rank" "r25_$rank"
	truth "trace_2025_rank${rank}_matches_truth" "r25_$rank" "g25/ground_truth/rank$rank.json"
	lone "r24_$rank" g24 "$rank" "r24_$rank"
	truth "trace_2024_rank${rank}_matches_truth" "r24_$rank" "g24/ground_truth/rank$rank.json"
done

# the injected type: one warning naming it, STEPS events of 1 us each
if python3 - r25_0/report.json "$STEPS" <<'PY' 2>unknown.err; then
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
w = [x for x in d["warnings"] if x["code"] == "unknown_task_type"]
assert len(w) == 1, w
m = w[0]["message"]
assert "'NEW_TASK_X'" in m and ("%d device tasks" % n) in m and ("%.3f ms" % (n / 1000)) in m, m
assert w[0]["file"].endswith("trace_view.json"), w[0]
PY
	ok unknown_type_warned_in_json
else
	bad unknown_type_warned_in_json "$(tail -3 unknown.err)"
fi
grep -q "$STEPS device tasks of task type 'NEW_TASK_X' (read from the trace's \"Task Type\"), 0.00$STEPS ms" r25_0/report.md &&
	ok unknown_type_warned_in_md || bad unknown_type_warned_in_md
grep -q "NEW_TASK_X&#39; (read from the trace" r25_0/report.html &&
	ok unknown_type_warned_in_html || bad unknown_type_warned_in_html
lone r25_zh g25 0 r25_zh --lang zh
grep -q "任务类型为 'NEW_TASK_X'（读自 trace 的 \"Task Type\"）的 $STEPS 个设备任务共 0.00$STEPS ms" r25_zh/report.md &&
	ok unknown_type_warned_in_zh || bad unknown_type_warned_in_zh
# the 2024 generation's trace carries no unknown type: no warning
grep -q unknown_task_type r24_0/report.json &&
	bad no_unknown_type_warning_2024 || ok no_unknown_type_warning_2024

# The db export of a 2025 run: one compute row's TASK.taskType set to a
# type no table knows (a new STRING_IDS entry): that row is left out and
# named (reason db), with its time from the db itself; the other kernels
# are the truth's.
gen gdb --trace-generation 2025 --export db
db=$(ls gdb/*/ASCEND_PROFILER_OUTPUT/*.db | head -1)
truth_json=gdb/ground_truth/rank$(python3 -c "import re,sys; print(re.search(r'_(\d+)\.db$', sys.argv[1]).group(1))" "$db").json
if python3 - "$db" >gdb.row 2>gdb.err <<'PY'; then
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
new = c.execute("SELECT max(id) + 1 FROM STRING_IDS").fetchone()[0]
c.execute("INSERT INTO STRING_IDS VALUES (?, 'NEW_DB_TYPE')", (new,))
gid, s, e = c.execute("SELECT t.globalTaskId, t.startNs, t.endNs FROM TASK t "
                      "JOIN COMPUTE_TASK_INFO ci ON ci.globalTaskId = t.globalTaskId "
                      "ORDER BY t.startNs LIMIT 1").fetchone()
c.execute("UPDATE TASK SET taskType = ? WHERE globalTaskId = ?", (new, gid))
c.commit()
print("%.3f" % ((e - s) / 1e6))
PY
	"$SDPERF" report "$db" -o rdb -q -f json 2>rdb.err || bad db_unknown_type "sdperf report failed: $(head -3 rdb.err)"
	if python3 - rdb/report.json "$truth_json" "$(cat gdb.row)" <<'PY' 2>dbw.err; then
import json, sys
d = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))
w = [x for x in d["warnings"] if x["code"] == "unknown_task_type"]
assert len(w) == 1 and w[0]["reason"] == "db", w
m = w[0]["message"]
assert "1 device task of task type 'NEW_DB_TYPE'" in m and ("%s ms" % sys.argv[3]) in m, m
got = sum(s["kernels"] for s in d["stages"].values())
want = sum(s["kernels"] for s in t["stages"].values())
assert got == want - 1, (got, want)
PY
		ok db_unknown_type_left_out_and_named
	else
		bad db_unknown_type_left_out_and_named "$(tail -3 dbw.err)"
	fi
else
	bad db_unknown_type_left_out_and_named "$(tail -3 gdb.err)"
fi

finish
