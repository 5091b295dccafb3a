#!/usr/bin/env bash
# One large node: every rank of RUN_DIR summarised JOBS at a time (GNU
# parallel, or xargs -P where parallel is missing), then the summaries
# merged into one report.
#   parallel.sh RUN_DIR OUT_DIR [JOBS]      (JOBS: default, the cores)
# Writes OUT_DIR/ranks.txt, OUT_DIR/summaries/rank-N.json (N: the line of
# ranks.txt, from 0) and OUT_DIR/report/. SDPERF names the binary (default:
# sdperf on PATH); SDPERF_REPORT_ARGS adds options to the merge (e.g.
# "-f json"). A task that fails may simply be run again: its summary is
# written all or nothing, the same bytes each time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=${1:?usage: parallel.sh RUN_DIR OUT_DIR [JOBS]}
out=${2:?usage: parallel.sh RUN_DIR OUT_DIR [JOBS]}
jobs=${3:-$(nproc)}
sdperf=${SDPERF:-sdperf}
export SDPERF=$sdperf

mkdir -p "$out/summaries"
"$here/list-ranks.sh" "$run" >"$out/ranks.txt"
n=$(wc -l <"$out/ranks.txt")
[ "$n" -gt 0 ] || { echo "parallel.sh: no rank folder in $run" >&2; exit 1; }

# the map: one sdperf summarize per rank, -j 1 each (JOBS tasks share the
# cores); task i summarises line i + 1 of ranks.txt into rank-i.json
export OUT=$out
awk '{ print NR - 1 "\t" $0 }' "$out/ranks.txt" >"$out/tasks.txt"
if command -v parallel >/dev/null && [ -z "${SDPERF_USE_XARGS:-}" ]; then
	# shellcheck disable=SC2016 # expanded by each task's shell
	parallel --will-cite --halt soon,fail=1 -j "$jobs" --colsep '\t' \
		'"$SDPERF" summarize {2} -j 1 -q -o "$OUT/summaries/rank-{1}.json"' \
		:::: "$out/tasks.txt"
else
	# shellcheck disable=SC2016 # expanded by each task's shell
	xargs -P "$jobs" -n 1 -d '\n' sh -c \
		'exec "$SDPERF" summarize "${1#*	}" -j 1 -q -o "$OUT/summaries/rank-${1%%	*}.json"' \
		sh <"$out/tasks.txt"
fi

# the reduce: one report from the summaries
# shellcheck disable=SC2086 # SDPERF_REPORT_ARGS is a list of options
"$sdperf" report "$out/summaries" -o "$out/report" ${SDPERF_REPORT_ARGS:-}
