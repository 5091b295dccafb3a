#!/usr/bin/env bash
# Benchmark (not a test): sdperf on a 1 GB Level1 kernel_details.csv, beside
# `wc -l` on the same file and a pandas script doing the same category sums.
# Prints throughput (MB/s), the ratios and peak RSS.
#   bench/run.sh [BUILD_DIR] [SIZE_BYTES]      (defaults: build-bench, 1 GB)
# Needs: a Release build (made here if missing), python3-pandas (Debian).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
size=${2:-1000000000}
work=$root/bench/out
mkdir -p "$work"

for need in /usr/bin/time /usr/bin/python3; do
	[ -x "$need" ] || { echo "bench: $need missing: apt-get install -y time python3-pandas" >&2; exit 1; }
done
/usr/bin/python3 -c 'import pandas' 2>/dev/null ||
	{ echo "bench: pandas missing: apt-get install -y python3-pandas" >&2; exit 1; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSDPERF_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
csv=$(ls "$work"/gen/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv 2>/dev/null | head -n 1 || true)
if [ -z "$csv" ] || [ "$(stat -c %s "$csv")" -lt "$size" ]; then
	rm -rf "$work/gen"
	echo "generating a ${size}-byte Level1 kernel_details.csv ..."
	"$build/tools/gen/sdperf-gen" -o "$work/gen" --files kernels --no-truth \
		--variant level1-2026 --target-bytes "$size" --comm alltoall --ranks 1 \
		--seed 7 >/dev/null 2>&1
	csv=$(ls "$work"/gen/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
fi
bytes=$(stat -c %s "$csv")
rows=$(($(wc -l <"$csv") - 1))
echo "input: $csv"
echo "       $bytes bytes, $rows kernels"
cat "$csv" >/dev/null # same warm page cache for every contender

measure() { # label, command...: prints "label seconds peak_kb"
	local label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$work/$label.time" "$@" >/dev/null 2>"$work/$label.err" || {
		echo "$label failed:" >&2
		cat "$work/$label.err" >&2
		exit 1
	}
	echo "$label $(tail -n 1 "$work/$label.time")"
}

# one thread, as the targets below say (bench/parallel.sh measures -j 2)
r_sd=$(measure sdperf "$build/src/sdperf" report "$csv" -o "$work/report" --format json --quiet -j 1)
r_wc=$(measure wc wc -l "$csv")
r_pd=$(measure pandas /usr/bin/python3 "$root/bench/pandas_sums.py" "$csv" "$root/assets/rules.json")

python3 - "$bytes" "$rows" "$r_sd" "$r_wc" "$r_pd" <<'PY'
import sys
size = int(sys.argv[1])
kernels = int(sys.argv[2])
runs = [a.split() for a in sys.argv[3:]]
t = {r[0]: float(r[1]) for r in runs}
m = {r[0]: int(r[2]) for r in runs}
print(f"{'tool':8s} {'seconds':>8s} {'MB/s':>8s} {'peak RSS':>10s} {'RSS/input':>9s}")
for name in ("sdperf", "wc", "pandas"):
    mbs = size / 1e6 / t[name] if t[name] > 0 else float("inf")
    print(f"{name:8s} {t[name]:8.2f} {mbs:8.0f} {m[name]/1024:8.1f}MB {m[name]*1024/size*100:8.1f}%")
print(f"sdperf / wc -l time: {t['sdperf']/max(t['wc'],1e-3):.1f}x;  pandas / sdperf time: {t['pandas']/t['sdperf']:.1f}x")
ok_speed = size / 1e6 / t["sdperf"] >= 250
# the memory model (README "Memory"): 32 bytes per kernel + the process
ok_mem = m["sdperf"] * 1024 <= 32 * kernels + 16e6
print(f"sdperf peak RSS per kernel: {m['sdperf'] * 1024 / kernels:.1f} bytes")
print(f"targets: >= 250 MB/s: {'met' if ok_speed else 'MISSED'};  peak RSS <= 32 B x kernels + 16 MB: {'met' if ok_mem else 'MISSED'}")
PY
