#!/usr/bin/env bash
# One kernel_details.csv read on several threads (issue 16 §1): report.json
# and the messages are byte for byte the same for -j 1, 2 and 7, on a
# generated Level1 file (46 columns, AI Core metrics) large enough for 7
# chunks: clean; with a malformed row in a late chunk (its line number
# exact in the warning, and in the --strict error); with a quoted field
# holding newlines across the middle of the rows, where two chunks would
# meet (the read falls back to one thread) and inside a chunk of seven;
# and under --max-memory: the smallest budget one thread accepts is
# accepted by every -j (chunks that do not fit fall back to one thread),
# and 1 MiB less fails with the same message.
# Usage: tests/parallel/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
# the generation time in report.json's provenance: fixed, as for any
# byte-for-byte comparison of reports
export SOURCE_DATE_EPOCH=1767225600

# the file: 8.7 MB of rows, so 7 chunks of at least 1 MiB (CSVSPLIT_MIN_CHUNK)
"$GEN" -o gen --files kernels --variant level1-2026 --target-bytes 8000000 \
	--comm alltoall --ranks 1 --seed 3 >/dev/null 2>&1 || {
	bad generate "sdperf-gen failed"
	finish
	exit
}
src=$(ls gen/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
[ "$(head -n 1 "$src" | tr "," "\n" | wc -l)" -ge 46 ] && ok columns_46 ||
	bad columns_46 "$(head -n 1 "$src" | tr ',' '\n' | wc -l) columns"

# variant NAME: a profile folder NAME/ with an edited copy of the file
variant() { # NAME PYTHON: PYTHON edits bytes d (the file), prints a note
	mkdir -p "$1/ASCEND_PROFILER_OUTPUT"
	python3 - "$src" "$1/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$2" \
		>"$1.note" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
exec(sys.argv[3])
open(sys.argv[2], "wb").write(d)
PY
}

# runs -j 1, 2 and 7 on NAME (extra ARGS), expecting exit CODE; compares
# report.json (when written) and stderr with -j 1's, byte for byte: each
# run writes to the same NAME.out (moved away after), as the command line
# in report.json's provenance names it (and leaves -j out)
same_for_every_j() { # NAME CODE ARGS...
	local name=$1 code=$2 j rc
	shift 2
	for j in 1 2 7; do
		rm -rf "$name.out"
		"$SDPERF" report "$name" -o "$name.out" -f json -q -j "$j" "$@" \
			2>"$name.j$j.err"
		rc=$?
		[ ! -d "$name.out" ] || mv "$name.out" "$name.j$j"
		[ "$rc" -eq "$code" ] || {
			bad "$name -j $j" "exit $rc, expected $code: $(head -3 "$name.j$j.err")"
			return 1
		}
	done
	for j in 2 7; do
		if ! cmp -s "$name.j1.err" "$name.j$j.err"; then
			bad "$name -j $j" "stderr differs from -j 1's" \
				"$(diff "$name.j1.err" "$name.j$j.err" | head -5)"
		elif [ "$code" -eq 0 ] &&
			! cmp -s "$name.j1/report.json" "$name.j$j/report.json"; then
			bad "$name -j $j" "report.json differs from -j 1's" \
				"$(diff "$name.j1/report.json" "$name.j$j/report.json" | head -5)"
		else
			ok "$name -j $j same as -j 1"
		fi
	done
}

variant clean 'print("as generated")'
same_for_every_j clean 0

# a Duration that is not a number, 90% of the way in: the last chunk of 2
# and of 7; its line is printed (1-based, the header is line 1)
variant late_bad '
lines = d.split(b"\n")
i = len(lines) * 9 // 10
f = lines[i].split(b",")
assert b"\"" not in b",".join(f[:11]), "quotes before Duration"
f[10] = b"abc"
lines[i] = b",".join(f)
d = b"\n".join(lines)
print(i + 1)'
line=$(cat late_bad.note)
same_for_every_j late_bad 0
python3 - "late_bad.j2/report.json" "$line" <<'PY' && ok late_bad_line || bad late_bad_line "no warning at line $line"
import json, sys
w = [w for w in json.load(open(sys.argv[1]))["warnings"] if w["code"] == "skipped_row"]
assert len(w) == 1 and w[0]["line"] == int(sys.argv[2]), w
assert w[0]["message"] == "column 11 'Duration(us)': not a number: 'abc'", w
PY
same_for_every_j late_bad 3 --strict
grep -q "kernel_details.csv:$line: column 11 'Duration(us)': not a number: 'abc' (--strict)" \
	late_bad.j7.err && ok late_bad_strict_line ||
	bad late_bad_strict_line "$(cat late_bad.j7.err)"

# the middle of the rows, where -j 2 would cut (csvsplit.c: the first line
# end at or after the byte before the middle), inside a quoted Input Shapes
# field made of newlines; the row keeps its length, so the middle stays
variant quoted_nl '
h = d.index(b"\n") + 1
mid = h + (len(d) - h) // 2 - 1
rs = d.rfind(b"\n", 0, mid) + 1
re_ = d.index(b"\n", mid) + 1
row = d[rs:re_]
cut = 0
for _ in range(15):
	cut = row.index(b",", cut) + 1
assert b"\"" not in row[:cut], "quotes before Input Shapes"
tail = b"," * (d[:h].count(b",") - 15) + b"\r\n"
m = len(row) - cut - 2 - len(tail)
new = row[:cut] + b"\"" + b"\n" * m + b"\"" + tail
assert len(new) == len(row) and mid < rs + cut + m, ("the middle is not inside the field", mid - rs, cut, m)
d = d[:rs] + new + d[re_:]
print(m)'
same_for_every_j quoted_nl 0
python3 - "quoted_nl.j1/report.json" "clean.j1/report.json" "$(cat quoted_nl.note)" <<'PY' && ok quoted_nl_rows || bad quoted_nl_rows "the row with newlines was not read as one"
import json, sys
a = json.load(open(sys.argv[1]))["inputs"][0]
b = json.load(open(sys.argv[2]))["inputs"][0]
assert a["rows"] == b["rows"] and a["kernels"] == b["kernels"], (a, b)
PY

# --max-memory: 200,000 short rows (a 6.4 MB kernel table), the budget in
# MiB steps from 6 up to the first that -j 1 accepts
mkdir -p short/ASCEND_PROFILER_OUTPUT
python3 - short/ASCEND_PROFILER_OUTPUT/kernel_details.csv <<'PY'
import sys
types = ["MatMulV3", "Add", "Cast", "FlashAttentionScore", "Mul", "Conv2D"]
t = 1700000000000000
with open(sys.argv[1], "w") as f:
    f.write("Name,Type,Accelerator Core,Start Time(us),Duration(us)\n")
    for i in range(200000):
        f.write(f"k{i},{types[i * 7 % 6]},AI_CORE,{t}.125,{i % 50 + 1}.250\n")
        t += i % 50 + 3
PY
fit=""
for m in $(seq 6 40); do
	if "$SDPERF" report short -o short.fit -f json -q -j 1 --max-memory "${m}M" \
		2>/dev/null; then
		fit=$m
		break
	fi
done
if [ -z "$fit" ]; then
	bad max_memory "-j 1 fits in no budget up to 40 MiB"
else
	same_for_every_j short 0 --max-memory "${fit}M"
	same_for_every_j short 3 --max-memory "$((fit - 1))M"
	grep -q "more memory than --max-memory allows" short.j7.err &&
		ok "short -j 7 over budget" || bad "short -j 7 over budget" "$(cat short.j7.err)"
fi

finish
