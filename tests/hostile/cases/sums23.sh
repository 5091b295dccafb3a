# Rank summaries and the diff's report.json as data from a stranger
# (issue 23, defects 4, 8 and 12). Each check failed on 4b5cd73: wrapped
# counts and a "nan" merged with exit 0, a summary given twice counted as
# two ranks, summary strings outside --max-memory (534 MB under 64M), a
# forged iteration drawn at cx="-2147483584", and the diff's waterfall scale
# overflowing int64 (UBSan: diff_model.c:601).
# shellcheck shell=bash

"$SDPERF" summarize "$ROOT/examples/image-dit-1card" -o r0.json -q ||
	bad sums23_summarize "sdperf summarize failed"

python3 - <<'PY'
import copy, json, os
src = json.load(open("r0.json"))
def put(name, d):
    os.makedirs(os.path.dirname(name), exist_ok=True)
    open(name, "w").write(json.dumps(d, separators=(",", ":")))
def rank(i):
    d = copy.deepcopy(src)
    r = d["part"]["ranks"][0]
    r["id"], r["id_source"], r["dir"] = i, "profiler_info", "rank%d" % i
    return d
# 4a: two ranks of 2^64 - 16 kernels each: the sum wrapped (kernels =
# 18446744073709551584, every category 100%)
big = "18446744073709551600"
for i in range(2):
    d = rank(i)
    d["part"]["kernels"] = big
    for st in d["part"]["stages"]:
        st["kernels"] = big
        for c in st["cat"]:
            c["count"] = big
    put("wrap/r%d.json" % i, d)
# 4a: one kernel type of 2^64 - 16 kernels in each of two ranks: the
# merged type table's count wrapped
for i in range(2):
    d = rank(i)
    d["part"]["stages"][0]["top"][0]["count"] = big
    put("wrapt/r%d.json" % i, d)
# 4b: a string where a number belongs became a NaN, then a bare nan
d = rank(0)
d["part"]["iters"]["outlier_factor"] = "nan"
put("nan/r0.json", d)
# 4c: one summary under two names (a copy) and the same name twice
put("dup/r0.json", rank(0))
put("dup/copy.json", rank(0))
# 4c: a folder of 25 summaries given twice
for i in range(25):
    put("folder/r%02d.json" % i, rank(i))
# 8: 60 summaries each holding 1.5 MB of version strings
for i in range(60):
    d = rank(i)
    for k in ("torch_npu_version", "cann_version", "profiler_level",
              "aic_metrics", "chip"):
        d["part"]["ranks"][0][k] = "x" * (300 << 10)
    put("big/r%03d.json" % i, d)
# 12a: an iteration 2^61 ns before the first, 2^61 ns long
d = rank(0)
v = d["part"]["iters"]["v"]
v[1]["start_ns"] = str(-(1 << 61))
v[1]["dur_ns"] = str(-(1 << 61))
put("iters/r0.json", d)
PY

# 4a: the sum past 2^64 - 1 is an error naming the file and the member
bounded sums23_counts_checked 3 200 30 \
	"wrap/r1.json: part.kernels: 18446744073709551600, summed over the summaries read so far, passes 18446744073709551615" -- \
	timeout 120 "$SDPERF" report wrap -o out-wrap -f json -q

bounded sums23_type_counts_checked 3 200 30 \
	"wrapt/r1.json: part.stages: a kernel type's count, summed over the summaries read so far, passes 18446744073709551615" -- \
	timeout 120 "$SDPERF" report wrapt -o out-wrapt -f json -q

# 4b: "nan" as a string is no number, named by its member
bounded sums23_nan_refused 3 200 30 \
	"nan/r0.json: part.iters.outlier_factor: not a number, got '\"nan\"'" -- \
	timeout 120 "$SDPERF" report nan -o out-nan -f json -q

# 4c: the same summary three times (a path twice, a copy) is one rank, and
# the report says so (the kernels are the one summary's)
bounded sums23_dup_once 0 200 30 '' -- \
	timeout 120 "$SDPERF" report dup/r0.json dup/r0.json dup/copy.json \
	-o out-dup -f json,md -q
if python3 - out-dup/report.json r0.json <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))["part"]
assert len(r["ranks"]) == 1, len(r["ranks"])
assert r["profile"]["kernels"] == one["kernels"], r["profile"]["kernels"]
dups = [w for w in r["warnings"] if w["code"] == "duplicate_summary"]
assert len(dups) == 2, dups
PY
	if grep -q "is the same rank summary as" out-dup/report.md; then
		ok sums23_dup_warned
	else
		bad sums23_dup_warned "no warning in report.md"
	fi
else
	bad sums23_dup_once_counted "not one rank with two duplicate_summary warnings"
fi

# 4c: a folder given twice: 25 ranks, 25 files given again, the first 20
# named one warning each, then one warning for the 5 more
bounded sums23_dup_folder 0 200 30 '' -- \
	timeout 120 "$SDPERF" report folder folder -o out-folder -f json -q
if python3 - out-folder/report.json <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
w = r["warnings"]
assert len(r["ranks"]) == 25, len(r["ranks"])
assert sum(x["code"] == "duplicate_summary" for x in w) == 20
more = [x for x in w if x["code"] == "duplicate_summary_more"]
assert len(more) == 1 and more[0]["message"].startswith("5 more"), more
PY
	ok sums23_dup_folder_warnings_capped
else
	bad sums23_dup_folder_warnings_capped "not 25 ranks, 20 + 1 warnings"
fi

# 8: the strings a summary holds are charged to --max-memory: the budget
# stops the merge with its message, far below the 534 MB it reached
bounded sums23_strings_budget 3 200 30 \
	"more memory than --max-memory allows (limit 64 MiB" -- \
	timeout 120 "$SDPERF" report big -o out-big -f json -q --max-memory 64M

# 12a: a forged iteration is drawn at the plot's edge, not at x -2^31
bounded sums23_iters_on_plot 0 200 30 '' -- \
	timeout 120 "$SDPERF" report iters -o out-iters -f json,html -q
if grep -Eq '(cx|cy|x|y)="-[0-9]{4,}' out-iters/report.html; then
	bad sums23_iters_no_far_negative "a coordinate far left of the plot" \
		"$(grep -Eo '(cx|cy|x|y)="-[0-9]{4,}"' out-iters/report.html | head -3)"
else
	ok sums23_iters_no_far_negative
fi

# 12b: a forged report.json whose kernel types sum past int64 (1,100 types
# of 9e12 us, each within the reader's range): the waterfall's scale
# overflowed (2 * (hi - lo)); no scale holds such a sum, so no waterfall
"$SDPERF" report "$ROOT/examples/image-dit-1card" -o side -f json -q
python3 - <<'PY'
import json
d = json.load(open("side/report.json"))
t0 = d["stages"]["dit"]["top_kernels"][0]
d["stages"]["dit"]["top_kernels"] = [
    dict(t0, type="K%d" % i, total_us=9.0e12) for i in range(1100)]
json.dump(d, open("forged.json", "w"))
PY
bounded sums23_diff_waterfall 0 200 30 '' -- \
	timeout 120 "$SDPERF" diff forged.json side/report.json -o out-diff \
	-f json,html -q
if grep -q 'class="chart waterfall' out-diff/diff.html; then
	bad sums23_diff_no_waterfall "a waterfall drawn from a sum past int64"
else
	ok sums23_diff_no_waterfall
fi

# review: a negative zero where a double belongs reached the reader's
# figures as -0 ("a full iteration taking -0x the median" in report.md);
# it is shown as the zero it equals (the summary keeps -0 exactly:
# unit_ranksum round-trips it)
python3 - <<'PY'
import json
d = json.load(open("r0.json"))
d["part"]["iters"]["outlier_factor"] = -0.0
import os; os.makedirs("negzero", exist_ok=True)
json.dump(d, open("negzero/r0.json", "w"))
PY
bounded sums23_negzero 0 200 30 '' -- \
	timeout 120 "$SDPERF" report negzero -o out-negzero -f json,md -q
if grep -q -- '-0×' out-negzero/report.md || grep -q -- '"outlier_factor": *-0' out-negzero/report.json; then
	bad sums23_negzero_shown_as_zero "a -0 in the report" "$(grep -o -- '.\{30\}-0×' out-negzero/report.md)"
else
	ok sums23_negzero_shown_as_zero
fi

# review: a member given twice ("kernels": 99999, "kernels": 1454) was read
# as its first (cJSON) while Python's json and jq take the last: one file,
# two readings. It is refused, the member named.
python3 - <<'PY'
import os
s = open("r0.json").read()
d = s.replace('"kernels":', '"kernels":99999,"kernels":', 1)
assert d != s
os.makedirs("dupkey", exist_ok=True)
open("dupkey/r0.json", "w").write(d)
PY
bounded sums23_dup_member 3 200 30 \
	"dupkey/r0.json: part.inputs.0.kernels: given twice" -- \
	timeout 120 "$SDPERF" report dupkey -o out-dupkey -f json -q

# ---- review: a report.json given to diff with a member given twice
# ("kernels": 99999 before the real one): JSON readers disagree on which
# is meant (cJSON the first, Python and jq the last); refused, naming it,
# as a summary's is
python3 - "$ROOT/examples/image-dit-1card/report/report.json" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('"kernels":')
open("dupkey_a.json", "w").write(s)
open("dupkey_b.json", "w").write(s[:i] + '"kernels": 99999, ' + s[i:])
PY
bounded sums23_diff_dup_member 3 64 20 'profile.kernels: given twice' -- \
	"$SDPERF" diff dupkey_a.json dupkey_b.json -o dupkey_out -q
