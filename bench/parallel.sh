#!/usr/bin/env bash
# Benchmark (not a test): one large Level1 kernel_details.csv (2026 header,
# AI Core metrics on: 47 columns) on 1 and 2 threads, end to end
# (`sdperf report --format json`), the scaling measured with taskset on 1
# and on 2 cores; each run REPEAT times, the best wall time kept, with the
# CPU time (user + system) beside it.
#   bench/parallel.sh [BUILD_DIR] [SIZE_BYTES]   (defaults: build-bench, 1 GB)
# With CALLGRIND_BYTES=N (e.g. 50000000), also counts instructions with
# valgrind's callgrind on an N-byte file of the same shape, per thread for
# -j 2: a measure that holds on a loaded machine, where wall times do not.
# Needs: /usr/bin/time (Debian `time`), taskset (util-linux), valgrind for
# CALLGRIND_BYTES.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
size=${2:-1000000000}
repeat=${REPEAT:-3}
work=$root/bench/out
mkdir -p "$work"

[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing: apt-get install -y time" >&2; exit 1; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSDPERF_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
sdperf=$build/src/sdperf

gen() { # DIR BYTES: a generated Level1 file; prints its path
	local csv
	csv=$(ls "$1"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv 2>/dev/null | head -n 1 || true)
	if [ -z "$csv" ] || [ "$(stat -c %s "$csv")" -lt "$2" ]; then
		rm -rf "$1"
		"$build/tools/gen/sdperf-gen" -o "$1" --files kernels --no-truth \
			--variant level1-2026 --target-bytes "$2" --comm alltoall \
			--ranks 1 --seed 7 >/dev/null 2>&1
		csv=$(ls "$1"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
	fi
	echo "$csv"
}

csv=$(gen "$work/gen" "$size")
bytes=$(stat -c %s "$csv")
echo "input: $csv"
echo "       $bytes bytes, $(head -n 1 "$csv" | tr ',' '\n' | wc -l) columns, load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$csv" >/dev/null # a warm page cache for every run

run() { # LABEL CMD...: best of REPEAT, "label wall cpu"
	local label=$1 best="" i t
	shift
	for ((i = 0; i < repeat; i++)); do
		/usr/bin/time -f '%e %U %S' -o "$work/par.time" "$@" \
			-o "$work/par-$label" --format json --quiet 2>"$work/par.err" || {
			cat "$work/par.err" >&2
			exit 1
		}
		t=$(awk '{printf "%.2f %.2f", $1, $2 + $3}' "$work/par.time")
		if [ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN{exit !(a < b)}'; then
			best=$t
		fi
	done
	echo "$label $best"
}

results=(
	"$(run j1 "$sdperf" report "$csv" -j 1)"
	"$(run j2 "$sdperf" report "$csv" -j 2)"
	"$(run cpu0 taskset -c 0 "$sdperf" report "$csv")"
	"$(run cpu01 taskset -c 0,1 "$sdperf" report "$csv")"
)
for l in j2 cpu0 cpu01; do
	# the provenance names the output folder and the time: left out
	cmp -s <(grep -v '"command_line":\|"generated":' "$work/par-j1/report.json") \
		<(grep -v '"command_line":\|"generated":' "$work/par-$l/report.json") ||
		{ echo "bench: report.json of $l differs from -j 1's" >&2; exit 1; }
done

python3 - "$bytes" "${results[@]}" <<'PY'
import sys
size = int(sys.argv[1])
r = {a.split()[0]: (float(a.split()[1]), float(a.split()[2])) for a in sys.argv[2:]}
names = {"j1": "-j 1", "j2": "-j 2", "cpu0": "taskset -c 0 (1 core)",
         "cpu01": "taskset -c 0,1 (2 cores)"}
print(f"{'run':26s} {'wall s':>7s} {'MB/s':>7s} {'CPU s':>7s}")
for k in ("j1", "j2", "cpu0", "cpu01"):
    w, c = r[k]
    print(f"{names[k]:26s} {w:7.2f} {size / 1e6 / w:7.0f} {c:7.2f}")
s = r["j1"][0] / r["j2"][0]
t = r["cpu0"][0] / r["cpu01"][0]
mbs = size / 1e6 / r["j2"][0]
print(f"-j 2 / -j 1: {s:.2f}x;  2 cores / 1 core: {t:.2f}x")
print(f"targets: >= 1.8x: {'met' if s >= 1.8 else 'MISSED'};  "
      f">= 450 MB/s with 2 threads: {'met' if mbs >= 450 else 'MISSED'}")
PY

if [ -n "${CALLGRIND_BYTES:-}" ]; then
	command -v valgrind >/dev/null || { echo "bench: valgrind missing" >&2; exit 1; }
	small=$(gen "$work/gen-callgrind" "$CALLGRIND_BYTES")
	rm -f "$work"/cg.j1* "$work"/cg.j2*
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.j1" \
		"$sdperf" report "$small" -j 1 -o "$work/cg-j1" -f json -q 2>/dev/null
	valgrind --tool=callgrind --separate-threads=yes \
		--callgrind-out-file="$work/cg.j2" \
		"$sdperf" report "$small" -j 2 -o "$work/cg-j2" -f json -q 2>/dev/null
	python3 - "$(stat -c %s "$small")" "$work"/cg.j1* -- "$work"/cg.j2* <<'PY'
import sys
def total(path): # callgrind's count, or None for the empty base file
    for line in open(path):
        if line.startswith("totals:"):
            return int(line.split()[1])
args = sys.argv[2:]
cut = args.index("--")
one = sum(t for t in map(total, args[:cut]) if t)
threads = [t for t in map(total, args[cut + 1:]) if t]
size = int(sys.argv[1])
print(f"callgrind, {size} bytes: -j 1 {one / 1e6:.0f} M instructions "
      f"({one / size:.1f} per byte); -j 2 threads "
      + ", ".join(f"{t / 1e6:.0f} M" for t in threads)
      + f" (sum {sum(threads) / 1e6:.0f} M)")
print(f"speed-up bound from instructions: {one / max(threads):.2f}x "
      "(-j 1's instructions over the busiest thread's)")
PY
fi
