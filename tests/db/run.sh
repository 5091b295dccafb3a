#!/usr/bin/env bash
# The SQLite db export end to end: a corpus of broken dbs made from the
# real sample (truncated, header smashed, random pages, not a db, missing
# tables and columns, bad rows), each asserted (exit code, message naming
# the file, no report written, or the warning it must give); a db locked
# by a writer and one still being written; the real sample read from a
# read-only folder with its -shm/-wal beside it, untouched; and, on runs
# from the generator, the db and the text export of one profile giving the
# same numbers.
# Usage: tests/db/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLE=$ROOT/tests/data/samples/msinsight-alexnet-2rank-2025-db
DB1=$SAMPLE/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

# refuse NAME FILE 'message' : exit 3, the message (which names FILE), and
# no report folder
refuse() {
	local name=$1 file=$2 msg=$3 rc
	"$SDPERF" report "$file" -o "out_$name" -q >"$T/.out" 2>"$T/.err"
	rc=$?
	if [ "$rc" -ne 3 ]; then
		bad "$name" "exit $rc, expected 3" "$(head -3 "$T/.err")"
	elif ! grep -qF -- "$file: $msg" "$T/.err"; then
		bad "$name" "stderr lacks: $file: $msg" "got: $(head -3 "$T/.err")"
	elif [ -e "out_$name" ]; then
		bad "$name" "a report folder was written on error"
	else
		ok "$name"
	fi
}

# warns NAME FILE CODE [REASON] : exit 0 and a warning CODE (REASON) in
# report.json that names FILE
warns() {
	local name=$1 file=$2 code=$3 reason=${4:-}
	if ! "$SDPERF" report "$file" -o "out_$name" -q -f json 2>"$T/.err"; then
		bad "$name" "failed" "$(head -3 "$T/.err")"
		return
	fi
	python3 - "out_$name/report.json" "$file" "$code" "$reason" <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
path, code, reason = sys.argv[2:5]
w = [w for w in d["warnings"] if w["code"] == code and
     (not reason or w.get("reason") == reason or reason in w["message"])]
assert w, [(x["code"], x["message"]) for x in d["warnings"]]
assert all(x["file"] == path for x in w), w
PY
		ok "$name" || bad "$name" "no warning $code $reason"
}

# ---- the corpus --------------------------------------------------------
python3 - "$DB1" <<'PY' || bad corpus "could not build the corpus"
import random, shutil, sqlite3, sys
src = sys.argv[1]
data = open(src, "rb").read()
page = 4096

def w(name, b):
    open(name, "wb").write(b)

def variant(name, sql):
    shutil.copy(src, name)
    c = sqlite3.connect(name)
    c.executescript(sql)
    c.commit()
    c.close()

w("not_a_db.db", b"Step Id,Name,Type\r\n" * 40)
w("empty.db", b"")
w("short.db", data[:60])
w("truncated.db", data[: len(data) // 2])
b = bytearray(data); b[0:16] = b"SQLite format 4\0"; w("magic.db", bytes(b))
b = bytearray(data); b[16:18] = b"\x12\x34"; w("page_size.db", bytes(b))
random.seed(10)
b = bytearray(data)
for p in random.sample(range(1, len(data) // page), 25):
    b[p * page:(p + 1) * page] = bytes(random.randrange(256) for _ in range(page))
w("random_pages.db", bytes(b))
b = bytearray(data)
b[page:len(data)] = bytes(len(data) - page)  # every page but the first
w("zeroed.db", bytes(b))
variant("no_task.db", "DROP TABLE TASK;")
variant("task_view.db", "ALTER TABLE TASK RENAME TO T2; CREATE VIEW TASK AS SELECT * FROM T2;")
variant("no_start.db", "ALTER TABLE TASK RENAME COLUMN startNs TO beginNs;")
variant("no_strings.db", "DROP TABLE STRING_IDS;")
variant("no_kernels.db", "DELETE FROM COMPUTE_TASK_INFO; DELETE FROM COMMUNICATION_OP;")
variant("no_compute.db", "DROP TABLE COMPUTE_TASK_INFO;")
variant("no_overlap.db", "DROP TABLE OVERLAP_ANALYSIS;")
variant("no_steps.db", "DROP TABLE STEP_TIME;")
variant("no_comm_tasks.db", "DROP TABLE COMMUNICATION_TASK_INFO;")
variant("no_api.db", "DROP TABLE PYTORCH_API;")
variant("unjoined.db", "DELETE FROM TASK WHERE globalTaskId IN (7, 8, 9);")
variant("bad_rows.db",
        "UPDATE TASK SET endNs = startNs - 5 WHERE globalTaskId = 3;"
        "UPDATE TASK SET startNs = 'abc' WHERE globalTaskId = 4;"
        "UPDATE COMPUTE_TASK_INFO SET name = 99999999 WHERE globalTaskId = 5;")
shutil.copy(src, "writing.db"); w("writing.db-journal", b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))
shutil.copy(src, "wal.db"); w("wal.db-wal", b"\x37\x7f\x06\x82" + bytes(60))
# what PERSIST journal mode leaves after a finished write: not hot
shutil.copy(src, "persist.db"); w("persist.db-journal", bytes(512))
w("analysis.db", open(src.replace("ascend_pytorch_profiler_0.db", "analysis.db"), "rb").read())
PY

refuse not_a_db not_a_db.db "not an SQLite database (it starts with 'Step Id,Name,Type"
refuse empty empty.db "not an SQLite database (it starts with '')"
refuse short short.db "truncated: 60 bytes, shorter than an SQLite header"
refuse truncated truncated.db "truncated: its header says 856064 bytes, the file has 428032"
refuse magic magic.db "not an SQLite database (it starts with 'SQLite format 4"
refuse page_size page_size.db "not an SQLite database (file is not a database"
refuse random_pages random_pages.db "corrupt SQLite database (database disk image is malformed"
refuse zeroed zeroed.db "corrupt SQLite database"
refuse no_task no_task.db "no TASK table: not a torch_npu profiler db"
refuse task_view task_view.db "no TASK table"
refuse no_start no_start.db "table TASK has no column 'startNs' (columns: beginNs, endNs"
refuse no_strings no_strings.db "no STRING_IDS table: the kernel names cannot be resolved"
refuse no_kernels no_kernels.db "no kernels: COMPUTE_TASK_INFO and COMMUNICATION_OP have no usable rows"
refuse analysis_db analysis.db "no TASK table: not a torch_npu profiler db"
refuse writing writing.db "being written, or a write was interrupted: writing.db-journal is beside it"
refuse wal wal.db "being written: wal.db-wal holds changes not yet in the file"
"$SDPERF" report persist.db -o out_persist -q -f json 2>"$T/.err" &&
	ok persisted_journal_is_no_writer || bad persisted_journal_is_no_writer "$(cat "$T/.err")"
warns no_compute no_compute.db db_gap compute_kernels
warns no_overlap no_overlap.db db_gap overlap_analysis
warns no_steps no_steps.db db_gap steps
warns no_comm_tasks no_comm_tasks.db db_gap "no COMMUNICATION_TASK_INFO table"
warns no_api no_api.db db_gap markers
warns unjoined unjoined.db db_unjoined
warns bad_rows bad_rows.db skipped_rows
python3 - out_bad_rows/report.json <<'PY' && ok bad_rows_listed || bad bad_rows_listed
import json, sys
d = json.load(open(sys.argv[1]))
m = [w["message"] for w in d["warnings"] if w["code"] == "skipped_row"]
assert len(m) == 3, m
assert "COMPUTE_TASK_INFO row 3: column 'endNs': not a time in ns at or after startNs" in m[0], m
assert "row 4: column 'startNs': not a time in ns: 'abc'" in m[1], m
assert "row 5: column 'name': not an id of STRING_IDS: '99999999'" in m[2], m
assert d["profile"]["kernels"] == 188, d["profile"]["kernels"]
PY
"$SDPERF" report bad_rows.db -o out_strict -q --strict 2>"$T/.err"
[ $? -eq 3 ] && grep -qF "bad_rows.db: COMPUTE_TASK_INFO row 3: column 'endNs'" "$T/.err" &&
	[ ! -e out_strict ] && ok bad_rows_strict || bad bad_rows_strict "$(cat "$T/.err")"

# ---- a writer holding the db ---------------------------------------------
hold() { # FILE JOURNAL_MODE: a writer holds FILE until killed
	python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode=" + sys.argv[2])
c.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(60)
' "$1" "$2" >"hold_$1.out" &
	HOLDER=$!
	for _ in $(seq 100); do grep -q held "hold_$1.out" 2>/dev/null && return; sleep 0.05; done
}
cp "$DB1" locked_wal.db && chmod u+w locked_wal.db
hold locked_wal.db WAL
refuse locked_wal locked_wal.db "locked by another process that is writing it"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
cp "$DB1" locked_rollback.db && chmod u+w locked_rollback.db
hold locked_rollback.db DELETE
refuse locked_rollback locked_rollback.db "locked by another process that is writing it"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
"$SDPERF" report locked_rollback.db -o out_unlocked -q -f json &&
	ok unlocked_reads || bad unlocked_reads

# ---- the real sample from a read-only folder, -shm/-wal beside it ---------
mkdir -p ro && cp -r "$SAMPLE/level1" ro/ && chmod -R a-w ro
before=$(cd ro && find . -type f -exec sha256sum {} + | sort)
"$SDPERF" report ro/level1 -o out_ro -q -f json 2>"$T/.err" && ok read_only_folder ||
	bad read_only_folder "$(cat "$T/.err")"
after=$(cd ro && find . -type f -exec sha256sum {} + | sort)
[ "$before" = "$after" ] && [ "$(find ro -type f | wc -l)" -eq 8 ] &&
	ok sample_untouched || bad sample_untouched "files changed or appeared in ro/"
chmod -R u+w ro

# ---- one profile in both exports: the same numbers ------------------------
A="--seed 15 --steps 3 --iters 6 --blocks 8 --video --ranks 2 --comm alltoall
   --comm-overlap 0.3 --text-encoder clip --markers"
# shellcheck disable=SC2086
"$GEN" -o gen_text $A --export text --self-check 2>gen.log &&
	"$GEN" -o gen_db $A --export db --self-check 2>>gen.log &&
	"$GEN" -o gen_both $A --export both --self-check 2>>gen.log &&
	ok generate || bad generate "$(tail -5 gen.log)"
"$SDPERF" report gen_text -o out_text -q -f json &&
	"$SDPERF" report gen_db -o out_db -q -f json &&
	"$SDPERF" report gen_both -o out_both -q -f json &&
	"$SDPERF" report gen_both/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv \
		-o out_both_csv -q -f json && ok reports || bad reports
python3 - out_db/report.json out_text/report.json <<'PY' && ok db_equals_text ||
import json, sys
db, text = (json.load(open(p)) for p in sys.argv[1:3])
SKIP = {"path", "dir", "files", "inputs", "export", "warnings", "read",
        "events", "rank_dir", "id_source", "kernel_source", "steps_source",
        "collection", "provenance"}
diffs = []

def cmp(path, x, y):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            # the totals check names its export (checked below)
            if k not in SKIP and not (k == "source" and "totals_check" in path):
                cmp(path + "." + k, x.get(k), y.get(k))
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            cmp("%s[%d]" % (path, i), p, q)
    elif x != y:
        diffs.append((path, x, y))

cmp("", db, text)
assert not diffs, diffs[:10]
# and it is not vacuous: the run has what is being compared
r = db["ranks"][0]
assert r["export"]["used"] == "db" and "export" not in text["ranks"][0]
# the sources differ by design: each rank says which export it came from
for a, b in zip(db["ranks"], text["ranks"]):
    assert (a["kernel_source"], a["steps_source"]) == ("db", "db"), a["id"]
    assert (b["kernel_source"], b["steps_source"]) == (
        "kernel_details", "step_trace_time"), b["id"]
assert r["communication"]["collectives"]["all_to_all"]["count"] > 0
# the profiler's totals: the db's STEP_TIME split, the text's step_trace_time
for a, b in zip(db["ranks"], text["ranks"]):
    assert {c["source"] for c in a["totals_check"] if c["figure"] == "computing"} == {"db_step_time"}
    assert {c["source"] for c in b["totals_check"] if c["figure"] == "computing"} == {"step_trace_time"}
assert r["markers"] and r["markers"][0]["method"] == "flows", r["markers"][:1]
assert r["trace"]["overlap_found"] and len(r["steps"]) == 3
assert db["stages"]["dit"]["kernel_time_us"] > 0
# the collection check tells the same collection from either export; the
# generator's db has no TASK_PMU_INFO, so AI Core metrics are the one
# fact that differs (the text export's PMU columns have them)
cd, ct = db["collection"], text["collection"]
for k in ("profiler_level", "cpu", "steps", "timed_steps",
          "warmup_steps_before", "shapes", "memory"):
    assert cd[k] == ct[k], (k, cd[k], ct[k])
assert (cd["export"], ct["export"]) == ("db", "text")
assert (cd["aic_metrics"], ct["aic_metrics"]) == (False, True)
assert [r["cpu_source"] for r in cd["ranks"]] == ["db", "db"], cd["ranks"]
print("db and text: %d ranks, %d kernels, identical figures" %
      (len(db["ranks"]), db["profile"]["kernels"]))
PY
	bad db_equals_text
python3 - out_both/report.json out_both_csv/report.json out_db/report.json <<'PY' &&
import json, sys
both, csv, db = (json.load(open(p)) for p in sys.argv[1:4])
# a folder with both exports is read from the db; the kernel_details.csv
# given as PATH from the text files, the db beside it reported unused
assert all(r["export"]["used"] == "db" for r in both["ranks"]), both["ranks"][0]["export"]
assert all(r["export"]["used"] == "text" for r in csv["ranks"]), csv["ranks"][0]["export"]
assert both["stages"] == db["stages"]
PY
	ok both_exports_rule || bad both_exports_rule
# diff and check take a db run like any other
"$SDPERF" diff gen_db gen_text -o out_diff -q -f json && python3 - out_diff/diff.json <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
for name, st in d["stages"].items():
    if st["in_base"] and st["in_new"]:
        assert st["kernel_time_us"]["delta"] == 0, (name, st["kernel_time_us"])
        assert st["exposed_comm_us"]["delta"] == 0, (name, st["exposed_comm_us"])
assert d["stages"]["dit"]["in_base"]
PY
	ok diff_db_text || bad diff_db_text
"$SDPERF" check gen_db --no-verdicts --max dit.fa.share=0.99 >"$T/.out" 2>&1 &&
	grep -q "0 failed" "$T/.out" && ok check_db || bad check_db "$(cat "$T/.out")"

finish
