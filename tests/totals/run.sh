#!/usr/bin/env bash
# The profiler's own totals as a check, and the files nothing reads (issue
# 22 §2, §1): real samples (GPT-3: exposed communication far below
# step_trace_time.csv's; PaddleOCR: kernel_details.csv truncated, 6% of
# Computing, op_statistic.csv's 550 kernels against 49; AlexNet: all
# agree), generated profiles (all agree, text and db; one with its
# kernel_details.csv truncated; a 2-rank run with the Overlap Analysis),
# planted unused files (a FIFO among them: discovery must not open it),
# the rules' tolerance, a bad op_statistic.csv and a bad rules value.
# Expected figures: tests/totals/check.py from the raw files. The FIFO and
# the dangling link are not regular files: not listed, never opened.
# Usage: tests/totals/run.sh SDPERF SDPERF_GEN SAMPLES RULES_JSON
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
SAMPLES=$(realpath "$3")
RULES=$(realpath "$4")
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../testlib.sh
. "$HERE/../testlib.sh"

report() { # CASE PROFILE ARGS...: CASE/report.json
	local c=$1 p=$2
	shift 2
	if timeout 120 "$SDPERF" report "$p" -o "$c" -f json,md,html -q "$@" \
		2>"$c.err"; then
		ok "$c: sdperf ran"
	else
		bad "$c: sdperf failed" "$(head -3 "$c.err")"
	fi
}
expect() { # CASE: python lines for check.py from stdin
	cat >"$1/expect"
}

# ---- real samples ----------------------------------------------------------
report gpt3 "$SAMPLES/msinsight-gpt3-testdata-2023"
expect gpt3 <<'PY'
check("gpt3 trust low", r["summary"]["trust"]["level"] == "low")
check("gpt3 totals disagree",
      r["summary"]["trust"]["profiler_totals_agree"] is False)
for k in r["ranks"]:
    c = {x["figure"]: x for x in k["totals_check"]}
    check("gpt3 rank %d exposed comm mismatch" % k["id"],
          not c["comm_not_overlapped"]["passed"])
    want = "%.2f ms" % (t[k["id"]]["steps"]["comm_not_overlapped"] / 1e6)
    got = "%.2f ms" % (t[k["id"]]["kernels"]["comm_not_overlapped"] / 1e6)
    ws = [w["message"] for w in r["warnings"]
          if w.get("reason") == "not_overlapped" and
          w["message"].startswith("rank %d:" % k["id"])]
    check("gpt3 rank %d warning names %s against %s" % (k["id"], got, want),
          len(ws) == 1 and want in ws[0] and got in ws[0] and
          "use the kernels" in ws[0], str(ws))
PY
report paddle "$SAMPLES/paddleocrvl-910b-decode-2026"
expect paddle <<'PY'
check("paddle trust low", r["summary"]["trust"]["level"] == "low")
k = r["ranks"][0]
c = {x["figure"]: x for x in k["totals_check"]}
f = t[k["id"]]
cover = round(100 * f["kernels"]["computing"] / f["steps"]["computing"])
missing = "%.2f ms" % ((f["steps"]["computing"] - f["kernels"]["computing"]) / 1e6)
check("paddle kernels cover %d%% of Computing" % cover, cover == 6)
ws = [w["message"] for w in r["warnings"] if w.get("reason") == "computing_missing"]
check("paddle warning: cover %d%%, %s missing" % (cover, missing),
      len(ws) == 1 and ("cover %d%%" % cover) in ws[0] and
      (missing + " of kernel time missing") in ws[0], str(ws))
check("paddle op_statistic 550 kernels against 49",
      c["op_statistic_count"]["profiler"] == 550 and
      c["op_statistic_count"]["kernels"] == 49 and
      not c["op_statistic_count"]["passed"])
check("paddle op_statistic names MatMul",
      c["op_statistic_time"].get("worst_type") == "MatMul")
# shares of 6% of the kernels are not the run's: no category finding
# fires or passes on them, and no gain is estimated from their span
v = {x["id"]: x for x in r["verdicts"]}
for i in ("matmul_quant", "fa_quant_sparse", "vector_fusion", "comm_overlap"):
    check("paddle %s n/a: totals_kernels" % i,
          not v[i]["applicable"] and not v[i]["fired"] and
          v[i]["na_code"] == "totals_kernels", str(v[i].get("na_code")))
check("paddle no gain estimated",
      all(x.get("gain") is None for x in r["verdicts"]))
check("paddle op_statistic.csv not listed as unused",
      "op_statistic.csv" not in k["unused_files"])
md = open(case + "/report.md").read()
check("paddle md: the check line and the trust reason",
      "disagree with the profiler's own totals" in md and
      ("cover %d%%" % cover) in md)
PY
report alexnet "$SAMPLES/msinsight-alexnet-2rank-2024/level1"
expect alexnet <<'PY'
check("alexnet totals agree", r["summary"]["trust"]["profiler_totals_agree"] is True)
check("alexnet no totals warning",
      not [w for w in r["warnings"] if w["code"] == "totals_mismatch"])
for k in r["ranks"]:
    c = {x["figure"]: x for x in k["totals_check"]}
    check("alexnet rank %d overlap analysis checked" % k["id"],
          c.get("overlap_analysis", {}).get("passed") is True)
md = open(case + "/report.md").read()
check("alexnet md says the check passed",
      "the kernels agree with the profiler's own totals" in md)
PY

# ---- generated -------------------------------------------------------------
"$GEN" -o g1 --steps 3 --iters 4 --blocks 4 2>/dev/null
out=$(echo g1/*_ascend_pt/ASCEND_PROFILER_OUTPUT)
# files sdperf does not read; the FIFO would hang a reader that opens it
: >"$out/l2_cache.csv"
: >"$out/operator_details.csv"
: >"$out/analysis.db"
: >"$out/api_statistic.csv"
mkfifo "$out/host_events.fifo"
ln -s /nonexistent "$out/dangling.json"
report gen g1
expect gen <<'PY'
check("gen totals agree", r["summary"]["trust"]["profiler_totals_agree"] is True)
check("gen trust not low", r["summary"]["trust"]["level"] != "low")
check("gen no totals warning",
      not [w for w in r["warnings"] if w["code"] == "totals_mismatch"])
u = r["ranks"][0]["unused_files"]
check("gen unused files listed by name", u == ["analysis.db",
      "api_statistic.csv", "l2_cache.csv", "operator_details.csv"], str(u))
md = open(case + "/report.md").read()
check("gen md lists them", "api_statistic.csv" in md and
      "the kernels agree with the profiler's own totals" in md)
PY

# the same profile, kernel_details.csv cut to its header and first 6% rows
cp -r g1 g1cut
rm -f g1cut/*_ascend_pt/ASCEND_PROFILER_OUTPUT/{l2_cache.csv,operator_details.csv,analysis.db,api_statistic.csv,dangling.json,host_events.fifo}
kd=$(echo g1cut/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
rows=$(($(wc -l <"$kd") - 1))
head -n $((1 + rows * 6 / 100)) "$kd" >"$kd.tmp" && mv "$kd.tmp" "$kd"
report gencut g1cut
expect gencut <<'PY'
check("gencut trust low", r["summary"]["trust"]["level"] == "low")
f = t[0]
cover = round(100 * f["kernels"]["computing"] / f["steps"]["computing"])
ws = [w["message"] for w in r["warnings"] if w.get("reason") == "computing_missing"]
check("gencut warning: kernels cover %d%%" % cover,
      len(ws) == 1 and ("cover %d%%" % cover) in ws[0], str(ws))
PY

"$GEN" -o g2 --steps 3 --iters 4 --blocks 4 --ranks 2 --comm alltoall 2>/dev/null
report gen2 g2
expect gen2 <<'PY'
check("gen2 totals agree", r["summary"]["trust"]["profiler_totals_agree"] is True)
for k in r["ranks"]:
    c = {x["figure"]: x for x in k["totals_check"]}
    check("gen2 rank %d exposed comm > 0 and agrees" % k["id"],
          t[k["id"]]["kernels"]["comm_not_overlapped"] > 0 and
          c["comm_not_overlapped"]["passed"] and c["overlap_analysis"]["passed"])
PY

# the db export beside the text files (the same profile to the ns): the
# db's STEP_TIME split is checked; the figures come from the text files
"$GEN" -o g3 --steps 3 --iters 4 --blocks 4 --ranks 2 --comm allgather \
	--export both 2>/dev/null
report gendb g3
expect gendb <<'PY'
for k in r["ranks"]:
    src = {x["source"] for x in k["totals_check"]}
    check("gendb rank %d checked against the db" % k["id"],
          "db_step_time" in src and k["kernel_source"] == "db", str(src))
check("gendb totals agree", r["summary"]["trust"]["profiler_totals_agree"] is True)
PY

# the rules' tolerance decides: 100 points pass everything
cat >loose.json <<'EOF2'
{"extends": "builtin", "totals": {"computing": 100, "free": 100,
 "op_statistic_time": 100, "op_statistic_count": 100}}
EOF2
report loose "$SAMPLES/paddleocrvl-910b-decode-2026" --rules loose.json
cp loose.json loose/rules.json # check.py's tolerances for this case
expect loose <<'PY'
check("loose: within the rules' tolerance",
      r["summary"]["trust"]["profiler_totals_agree"] is True and
      not [w for w in r["warnings"] if w["code"] == "totals_mismatch"])
PY

# the Overlap Analysis cross-check decides trust too: with no tolerance,
# the ns the two measures differ by on AlexNet (Overlap Analysis spans
# against kernel intervals) are a mismatch, and the warning says which
# figure the report uses
cat >strict.json <<'EOF2'
{"extends": "builtin", "totals": {"overlap_analysis": 0}}
EOF2
report strictoa "$SAMPLES/msinsight-alexnet-2rank-2024/level1" --rules strict.json
if python3 - strictoa/report.json <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
w = [w["message"] for w in r["warnings"] if w["code"] == "overlap_mismatch"]
oa = [c for k in r["ranks"] for c in k["totals_check"]
      if c["figure"] == "overlap_analysis"]
print(w[:1], r["summary"]["trust"])
sys.exit(0 if (w and "use the kernel intervals" in w[0] and
               r["summary"]["trust"]["level"] == "low" and
               r["summary"]["trust"]["profiler_totals_agree"] is False and
               any(not c["passed"] for c in oa)) else 1)
PY
	ok "Overlap Analysis mismatch: warned, trust low"
else
	bad "Overlap Analysis mismatch"
fi

# a bad op_statistic.csv: a warning naming file, line, column and value
cp -r "$SAMPLES/paddleocrvl-910b-decode-2026" badop
sed -i '3s/^6,\([^,]*\),\([^,]*\),[0-9]*,/6,\1,\2,abc,/' badop/op_statistic.csv
report badop badop
if python3 - badop/report.json <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
w = [w for w in r["warnings"] if w["code"] == "opstat_unreadable"]
want = "op_statistic.csv:3: column 4 'Count': not a count: 'abc'"
ok = len(w) == 1 and want in w[0]["message"]
print(w)
sys.exit(0 if ok else 1)
PY
	ok "bad op_statistic.csv named with line, column and value"
else
	bad "bad op_statistic.csv message"
fi

# a bad tolerance in the rules file
printf '{"extends": "builtin", "totals": {"free": -1}}\n' >neg.json
if "$SDPERF" report g1 -o neg -f json -q --rules neg.json 2>neg.err; then
	bad "negative tolerance accepted"
elif grep -q "totals.free" neg.err; then
	ok "negative tolerance refused: $(head -1 neg.err)"
else
	bad "negative tolerance message" "$(cat neg.err)"
fi

# communication_matrix.json: the links against an independent reading
# (tests/totals/matrix.py) on both layouts; bad values named
for c in gpt3 alexnet; do
	if python3 "$HERE/matrix.py" "$c/report.json"; then
		ok "$c: rank-to-rank links as the raw files sum"
	else
		bad "$c: rank-to-rank links (see above)"
	fi
	if grep -q "Rank-to-rank links" "$c/report.md" &&
		grep -q 'id="links"' "$c/report.html"; then
		ok "$c: the link table in Markdown and HTML"
	else
		bad "$c: no link table"
	fi
done
cp -r "$SAMPLES/msinsight-gpt3-testdata-2023" badmx
m=badmx/test_rank_0/ASCEND_PROFILER_OUTPUT/communication_matrix.json
sed -i '0,/"Transit Size(MB)": 20.97152/s//"Transit Size(MB)": "abc"/' "$m"
m1=badmx/test_rank_1/ASCEND_PROFILER_OUTPUT/communication_matrix.json
sed -i '0,/"1-9"/s//"1-x9"/' "$m1"
report badmx badmx
if python3 - badmx/report.json <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
w = [w["message"] for w in r["warnings"] if w["code"] == "matrix_unreadable"]
print(w)
ok = (len(w) == 2 and
      any("test_rank_0/ASCEND_PROFILER_OUTPUT/communication_matrix.json: "
          "step2/p2p/hcom_send__822_0@13337953553061386822/0-0/Transit Size(MB): "
          "expected a number, got '\"abc\"'" in m for m in w) and
      any("/1-x9: not a link 'src-dst' of two rank ids" in m for m in w))
sys.exit(0 if ok else 1)
PY
	ok "bad communication_matrix.json values named"
else
	bad "bad communication_matrix.json messages"
fi

# more unread files than discovery looks at one by one (4,096): the count
# is still all of them; a kernel file given as PATH is read, not unused
cp -r g1 gmany
rm -f gmany/*_ascend_pt/ASCEND_PROFILER_OUTPUT/{l2_cache.csv,operator_details.csv,analysis.db,api_statistic.csv,dangling.json,host_events.fifo}
(cd gmany/*_ascend_pt/ASCEND_PROFILER_OUTPUT && for i in $(seq 1 5000); do : >"extra$i.txt"; done)
report many gmany
expect many <<'PY'
check("many: all 5000 unread files counted",
      r["ranks"][0]["unused_files_total"] == 5000,
      str(r["ranks"][0]["unused_files_total"]))
check("many: 64 named", len(r["ranks"][0]["unused_files"]) == 64)
PY
mkdir -p given
cp "$SAMPLES/mstt-test-resources/resource/test.csv" given/
: >given/notes.txt
report given given/test.csv
expect given <<'PY'
check("given: the kernel file given as PATH is not unread",
      r["ranks"][0]["unused_files"] == ["notes.txt"],
      str(r["ranks"][0]["unused_files"]))
PY

for c in gpt3 paddle alexnet gen gencut gen2 gendb loose many given; do
	[ -f "$c/report.json" ] && cases+=("$c")
done
if python3 "$HERE/check.py" "$SDPERF" "$RULES" "${cases[@]}"; then
	ok "figures against the raw files"
else
	bad "figures against the raw files (see above)"
fi
finish
