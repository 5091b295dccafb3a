#!/bin/sh
# Streamed trace_view.json read speed: generates a ~2 GB trace with
# sdperf-gen (markers, flows, Overlap Analysis), then times `wc -l` and
# trace_bench on the same file, each run twice; the second (warm page
# cache) run is reported. trace_bench times its two passes itself: the
# first (Overlap Analysis, marker ranges: every trace) and the second
# (flows mapped to the markers: only traces with markers). The file is
# deleted afterwards.
#
#   bench/trace.sh [BUILD_DIR]        (default: build)
#   env: BENCH_DIR (default /tmp), TRACE_BYTES (default 2000000000),
#        TRACE_FORM (array | object, default array)
set -eu

BUILD=${1:-build}
GEN=$BUILD/tools/gen/sdperf-gen
BENCH=$BUILD/bench/trace_bench
BYTES=${TRACE_BYTES:-2000000000}
FORM=${TRACE_FORM:-array}
PARENT=${BENCH_DIR:-/tmp}

for b in "$GEN" "$BENCH"; do
	[ -x "$b" ] || { echo "trace.sh: $b missing: build first" >&2; exit 2; }
done

# room on disk for the file (+10%), and enough RAM to keep it cached
need_kb=$((BYTES / 1024 * 11 / 10))
avail_kb=$(df -Pk "$PARENT" | awk 'NR == 2 { print $4 }')
if [ "$avail_kb" -lt "$need_kb" ]; then
	echo "trace.sh: $PARENT has $avail_kb KiB free, needs $need_kb" >&2
	exit 2
fi
mem_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ "$mem_kb" -gt "$need_kb" ] ||
	echo "trace.sh: note: $mem_kb KiB RAM available: the file may not stay cached" >&2

DIR=$(mktemp -d "$PARENT/sdperf-trace-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM

"$GEN" -o "$DIR/gen" --files trace --no-truth --markers \
	--trace-form "$FORM" --trace-target-bytes "$BYTES" 2>"$DIR/gen.log"
FILE=$(ls "$DIR"/gen/*/ASCEND_PROFILER_OUTPUT/trace_view.json | head -n 1)
SIZE=$(stat -c %s "$FILE")

# seconds of the second of two runs of "$@" (stdout kept in $DIR/out)
time2() {
	"$@" >"$DIR/out"
	t0=$(date +%s.%N)
	"$@" >"$DIR/out"
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

WC_S=$(time2 wc -l "$FILE")
time2 "$BENCH" "$FILE" >/dev/null
TB_OUT=$(cat "$DIR/out")
# KEY from line LINE (1: trace_collect, 2: map_markers) of trace_bench
field() { echo "$TB_OUT" | sed -n "${2:-1}p" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
mb() { echo "$1" | awk '{ printf "%.1f", $1 / 1024 }'; }

echo "trace_view.json: $SIZE bytes, form $FORM, $(field events) events," \
	"$(field markers) stage markers, $(field flows) flows"
printf '%-32s %9s %9s %9s %10s\n' pass seconds MB/s cpu_s maxrss_MB
printf '%-32s %9s %9.1f %9s %10s\n' "wc -l" "$WC_S" \
	"$(echo "$SIZE $WC_S" | awk '{ print $1 / 1e6 / $2 }')" - -
printf '%-32s %9s %9s %9s %10s\n' "1: overlap, markers (collect)" \
	"$(field seconds)" "$(field MB/s)" "$(field cpu_seconds)" \
	"$(mb "$(field maxrss_kb)")"
if [ -n "$(field seconds 2)" ]; then
	printf '%-32s %9s %9s %9s %10s\n' "2: flows -> markers (map)" \
		"$(field seconds 2)" "$(field MB/s 2)" - \
		"$(mb "$(field maxrss_kb 2)")"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "trace_bench: $TB_OUT"
