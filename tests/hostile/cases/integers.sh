# Signed-integer overflow (issue 11, defect 4): sums and differences of
# times that left int64. In a plain build they were silently wrong numbers
# (a stage 55 years long, negative kernel times, bars at x="-4"), which the
# checks below read from the reports; in a sanitizer build UBSan stops the
# run (-fno-sanitize-recover=all), which fails the exit code.
# shellcheck shell=bash

# No duration in report.json (a *_us key; start_us / end_us are instants:
# their difference counts) is negative or past MAX_US; no SVG shape of
# report.html starts left of its chart.
sane_reports() { # DIR MAX_US
	python3 - "$1" "$2" <<'PY'
import json, re, sys
d, limit = sys.argv[1], float(sys.argv[2])
r = json.load(open(d + "/report.json"))
def walk(v, path):
    if isinstance(v, dict):
        if "start_us" in v and "end_us" in v:
            span = v["end_us"] - v["start_us"]
            assert 0 <= span <= limit, "%s span = %r" % (path, span)
        for k, x in v.items():
            if k not in ("start_us", "end_us"):
                walk(x, path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s.%d" % (path, i))
    elif isinstance(v, (int, float)) and not isinstance(v, bool) and \
            path.endswith("_us"):
        assert 0 <= v <= limit, "%s = %r" % (path, v)
walk(r, "")
html = open(d + "/report.html", encoding="utf-8").read()
bad = re.findall(r'(?:x|width)="-[0-9]', html)
assert not bad, bad[:5]
PY
}

# One corrupt row, Start Time 0 among epoch times: its stage spanned 55
# years (a terminal column of "1778579413.822 s", a text encoder wall time
# of 1.7e15 us). Now the row is skipped with a warning naming line and value.
EX=$ROOT/examples/image-dit-1card
mkdir -p zero/ASCEND_PROFILER_OUTPUT
python3 - "$(ls "$EX"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv)" \
	zero/ASCEND_PROFILER_OUTPUT/kernel_details.csv <<'PY'
import sys
lines = open(sys.argv[1], newline="").read().split("\n")
f = lines[500].split(",")
f[9] = "0\t"  # Start Time(us) of line 501
lines[500] = ",".join(f)
open(sys.argv[2], "w", newline="").write("\n".join(lines))
PY
bounded start_time_zero 0 200 30 '' -- \
	timeout 120 "$SDPERF" report zero -o out-zero -f json,html,md -q
if sane_reports out-zero 1e9 &&
	python3 - out-zero/report.json <<'PY'; then
import json, sys
w = json.load(open(sys.argv[1]))["warnings"]
assert any(x["code"] == "skipped_row" and x["line"] == 501 and
           x.get("reason") == "implausible_time" and "'0.000'" in x["message"]
           for x in w), w
PY
	ok start_time_zero_skipped_and_named
else
	bad start_time_zero_skipped_and_named \
		"a time out of range, or no implausible_time warning for line 501"
fi
# and with --strict it is an error naming the file, line and value
bounded start_time_zero_strict 3 200 30 \
	"kernel_details.csv:501: column 10 'Start Time(us)': implausible" -- \
	timeout 120 "$SDPERF" report zero -o out-zero-strict -f json -q --strict

# Two ranks of 20k DiT kernels six days long each (plausible next to each
# other): every sum of kernel time passes 2^63 ns per rank and per run. The
# sums saturate instead of wrapping to negative times (stage, category and
# type sums, the loop anchor's weight, the cluster's merge, the stacked
# bars' pixels).
python3 - <<'PY'
import os
day = 86400 * 10**6
for rank in range(2):
    d = "long/rank%d_ascend_pt/ASCEND_PROFILER_OUTPUT" % rank
    os.makedirs(d, exist_ok=True)
    with open(d + "/kernel_details.csv", "w") as f:
        f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),"
                "Duration(us)\n")
        for i in range(20000):
            f.write("1,k,%s,AI_CORE,%d.000,%d.000\n"
                    % ("FlashAttentionScore" if i % 3 else "MatMulV3",
                       1700000000000000 + i, 6 * day))
PY
bounded huge_kernel_sums 0 300 30 '' -- \
	timeout 120 "$SDPERF" report long -o out-long -f json,html -q
if sane_reports out-long 1e16; then
	ok huge_kernel_sums_saturate
else
	bad huge_kernel_sums_saturate "a negative or wrapped time"
fi

# diff: 2,000 entries of one kernel type at the largest time report.json
# allows (9e12 us): their sum passes 2^63 ns.
python3 - "$EX/report/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = dict(d["stages"]["dit"]["top_kernels"][0], total_us=9e12)
d["stages"]["dit"]["top_kernels"] = [t] * 2000
json.dump(d, open("huge.json", "w"))
PY
bounded diff_type_sum 0 200 30 '' -- \
	timeout 120 "$SDPERF" diff huge.json huge.json -o out-hdiff -f json -q
if python3 - out-hdiff/diff.json <<'PY'; then
import json, sys
def walk(v, path):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s.%d" % (path, i))
    elif isinstance(v, (int, float)) and not isinstance(v, bool) and \
            path.endswith("_us") and "delta" not in path:
        assert v >= 0, "%s = %r" % (path, v)
walk(json.load(open(sys.argv[1])), "")
PY
	ok diff_type_sum_not_negative
else
	bad diff_type_sum_not_negative "a type time wrapped to negative"
fi

# step_trace_time.csv with steps of 127 years: Computing + Not overlapped +
# Free passes 2^63 ns. The device-idle share is still Free's share (1/3).
small=$(ls "$EX"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
mkdir -p centuries_ascend_pt/ASCEND_PROFILER_OUTPUT
cp "$small" centuries_ascend_pt/ASCEND_PROFILER_OUTPUT/
python3 - centuries_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv <<'PY'
import sys
v = 4 * 10**15  # us: three of them pass 2^63 ns
with open(sys.argv[1], "w") as f:
    f.write("Step,Computing,Communication(Not Overlapped),Overlapped,"
            "Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive)\n")
    for i in range(4):
        f.write("%d,%d,%d,0,%d,%d,%d,0,0\n" % (i, v, v, v, v, v))
PY
bounded step_time_sum 0 200 30 '' -- \
	timeout 120 "$SDPERF" report centuries_ascend_pt -o out-centuries -f json -q
if python3 - out-centuries/report.json <<'PY'; then
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["verdicts"]
     if x["id"] == "host_bound"][0]
assert v["applicable"] and 33.0 < v["value_pct"] < 34.0, v
PY
	ok step_time_sum_share
else
	bad step_time_sum_share "host_bound is not Free's third of the step"
fi

# trace_view.json: a value nested 2^31 brackets deep, skipped by the
# scanner, overflowed its int depth counter (a 2 MB gzip). A plain build
# wraps without a visible effect, so this runs where UBSan watches, and
# only when asked (SDPERF_HOSTILE_SLOW=1): 2 GiB are inflated and scanned,
# about 40 s of CPU under ASan.
if [ -n "$SANITIZED" ] && [ -n "${SDPERF_HOSTILE_SLOW:-}" ]; then
	mkdir -p deep_ascend_pt/ASCEND_PROFILER_OUTPUT
	cp "$small" deep_ascend_pt/ASCEND_PROFILER_OUTPUT/
	python3 - deep_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz <<'PY'
import gzip, sys
block = gzip.compress(b"[" * (64 << 20), compresslevel=9)
with open(sys.argv[1], "wb") as f:  # gzip members, read as one stream
    f.write(gzip.compress(b'{"traceEvents":[{"ph":"M","name":"x","pid":1,'
                          b'"tid":0,"args":{}}],"other":'))
    for _ in range(33):  # 2.06 GiB of '['
        f.write(block)
PY
	bounded trace_nesting_2e31 0 300 600 '' -- \
		"$SDPERF" report deep_ascend_pt -o out-deep -f json -q
fi
