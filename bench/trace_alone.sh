#!/bin/sh
# A trace read alone (no kernel_details.csv): how fast sdperf turns a big
# trace_view.json into a report. Generates a trace with sdperf-gen, then
# times, each run twice on the same warm file (the second run is
# reported), `wc -l`, trace_bench --trace-only (the one streamed pass:
# kernels, Overlap Analysis spans, step and marker ranges, flows) and
# `sdperf report TRACE --format json` end to end (the pass, the analysis,
# report.json), with peak RSS. The file is deleted afterwards.
#
#   bench/trace_alone.sh [BUILD_DIR]      (default: build)
#   env: BENCH_DIR (default /tmp), TRACE_BYTES (default 2000000000),
#        GEN_ARGS (default "--markers": ProfilerStep ranges, stage
#        markers, a flow per kernel; "--npu-only" gives the guide's trace,
#        kernel events and Overlap Analysis only)
set -eu

BUILD=${1:-build}
GEN=$BUILD/tools/gen/sdperf-gen
BENCH=$BUILD/bench/trace_bench
SDPERF=$BUILD/src/sdperf
BYTES=${TRACE_BYTES:-2000000000}
ARGS=${GEN_ARGS:---markers}
PARENT=${BENCH_DIR:-/tmp}

for b in "$GEN" "$BENCH" "$SDPERF"; do
	[ -x "$b" ] || { echo "trace_alone.sh: $b missing: build first" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "trace_alone.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

need_kb=$((BYTES / 1024 * 11 / 10))
avail_kb=$(df -Pk "$PARENT" | awk 'NR == 2 { print $4 }')
if [ "$avail_kb" -lt "$need_kb" ]; then
	echo "trace_alone.sh: $PARENT has $avail_kb KiB free, needs $need_kb" >&2
	exit 2
fi

DIR=$(mktemp -d "$PARENT/sdperf-trace-alone.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM

# shellcheck disable=SC2086
"$GEN" -o "$DIR/gen" --files trace --no-truth --no-profiler-info $ARGS \
	--trace-target-bytes "$BYTES" 2>"$DIR/gen.log"
FILE=$(ls "$DIR"/gen/*/ASCEND_PROFILER_OUTPUT/trace_view.json | head -n 1)
SIZE=$(stat -c %s "$FILE")

# "seconds maxrss_kb" of the second of two runs of "$@" (stdout in $DIR/out)
time2() {
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$@" >"$DIR/out"
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$@" >"$DIR/out"
	tail -n 1 "$DIR/time"
}
mbs() { echo "$SIZE $1" | awk '{ printf "%.1f", $1 / 1e6 / $2 }'; }
mb() { echo "$1" | awk '{ printf "%.1f", $1 / 1024 }'; }

set -- $(time2 wc -l "$FILE")
WC_S=$1
set -- $(time2 "$BENCH" --trace-only "$FILE")
TB_S=$1 TB_RSS=$2
TB_OUT=$(cat "$DIR/out")
field() { echo "$TB_OUT" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
set -- $(time2 "$SDPERF" report "$FILE" -o "$DIR/report" --format json --quiet)
SD_S=$1 SD_RSS=$2

echo "trace_view.json: $SIZE bytes ($ARGS), $(field events) events," \
	"$(field kernels) kernel events, $(field spans) Overlap Analysis" \
	"spans, $(field ranges) ranges, $(field flows) flows"
printf '%-34s %9s %9s %10s\n' run seconds MB/s maxrss_MB
printf '%-34s %9s %9s %10s\n' "wc -l" "$WC_S" "$(mbs "$WC_S")" -
printf '%-34s %9s %9s %10s\n' "trace_bench --trace-only (pass)" "$TB_S" \
	"$(mbs "$TB_S")" "$(mb "$TB_RSS")"
printf '%-34s %9s %9s %10s\n' "sdperf report --format json" "$SD_S" \
	"$(mbs "$SD_S")" "$(mb "$SD_RSS")"
echo "pass: $(field cpu_seconds) s CPU, $(field Mkernels/s) M kernels/s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "trace_bench: $TB_OUT"
