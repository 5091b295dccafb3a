#!/usr/bin/env bash
# Benchmark (not a test): the reduce of a cluster run. Generates RANKS rank
# summaries (default 1,024) by scaled copies: SRC generated ranks of the
# generator's default pipeline size (5 profiler steps, 8 denoising
# iterations, 12 blocks, all-to-all communication) are summarised, each
# timed (the map's per-task time and peak RSS), then copied under new rank
# ids until there are RANKS. Then times the merge, `sdperf report` on the
# folder of summaries, as report.json alone and as the whole report set,
# with /usr/bin/time (seconds and peak RSS).
#   bench/cluster.sh [BUILD_DIR] [RANKS] [SRC]   (build-bench, 1024, 8)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
ranks=${2:-1024}
src=${3:-8}
work=$root/bench/out/cluster
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing: apt-get install -y time" >&2; exit 1; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSDPERF_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
sdperf=$build/src/sdperf
rm -rf "$work"
mkdir -p "$work/summaries"

echo "generating $src ranks ..."
"$build/tools/gen/sdperf-gen" -o "$work/run" --ranks "$src" --comm alltoall \
	--no-truth --seed 11 >/dev/null 2>&1
du -sb "$work/run" | awk -v n="$src" '{ printf "run: %d bytes, %.1f MB per rank\n", $1, $1 / n / 1e6 }'

echo "the map: sdperf summarize per rank (seconds, peak RSS)"
i=0
for d in "$work"/run/*_ascend_pt; do
	/usr/bin/time -f '%e %M' -o "$work/task$i.time" \
		"$sdperf" summarize "$d" -j 1 -q -o "$work/src-$i.json"
	read -r secs kb <"$work/task$i.time"
	printf '  rank %d: %s s, %s KB, summary %s bytes\n' "$i" "$secs" "$kb" \
		"$(stat -c %s "$work/src-$i.json")"
	i=$((i + 1))
done

echo "scaling to $ranks summaries ..."
python3 - "$work" "$src" "$ranks" <<'PY'
import json, os, sys
work, src, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
texts = [open(os.path.join(work, "src-%d.json" % k)).read() for k in range(src)]
for r in range(ranks):
    d = json.loads(texts[r % src])
    rk = d["part"]["ranks"][0]
    rk["id"] = r
    rk["dir"] = "%s/copy-%d" % (rk["dir"], r)
    d["part"]["rank_dir"] = rk["dir"]
    with open(os.path.join(work, "summaries", "rank-%d.json" % r), "w") as f:
        f.write(json.dumps(d, separators=(",", ":"), ensure_ascii=False))
PY
du -sb "$work/summaries" | awk -v n="$ranks" '{ printf "summaries: %d bytes, %.1f KB each\n", $1, $1 / n / 1e3 }'
cat "$work"/summaries/*.json >/dev/null # a warm page cache

measure() { # label, arguments of sdperf report
	local label=$1
	shift
	echo "+ sdperf report $work/summaries $*"
	/usr/bin/time -f '%e %M' -o "$work/$label.time" \
		"$sdperf" report "$work/summaries" -q -o "$work/$label" "$@"
	read -r secs kb <"$work/$label.time"
	printf '%-12s %s s, peak RSS %s KB\n' "$label" "$secs" "$kb"
}
echo "the reduce: sdperf report on $ranks summaries"
measure json -f json
measure all
