#!/usr/bin/env bash
# Submits the analysis of a run to Slurm: a job array of one
# `sdperf summarize` per rank, at most MAX_PARALLEL at a time, then the
# merge, which starts when every task of the array has succeeded.
#   submit.sh RUN_DIR OUT_DIR [MAX_PARALLEL]      (default 64)
# OUT_DIR must be on a file system that the compute nodes share. It
# receives ranks.txt (task i analyses line i + 1), summaries/rank-i.json,
# logs/ and report/. SBATCH_ARGS adds options to both sbatch calls (e.g.
# "--partition=cpu --account=perf").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=${1:?usage: submit.sh RUN_DIR OUT_DIR [MAX_PARALLEL]}
out=${2:?usage: submit.sh RUN_DIR OUT_DIR [MAX_PARALLEL]}
max=${3:-64}

mkdir -p "$out/summaries" "$out/logs"
out=$(cd "$out" && pwd)
"$here/../list-ranks.sh" "$run" >"$out/ranks.txt"
n=$(wc -l <"$out/ranks.txt")
[ "$n" -gt 0 ] || { echo "submit.sh: no rank folder in $run" >&2; exit 1; }

# the map: tasks 0 .. n-1, at most max running at once per array. Slurm
# refuses arrays larger than its MaxArraySize (1001 by default: indexes
# 0-1000), so the tasks go in arrays of at most SLURM_ARRAY_CHUNK (default
# 1000), each told the offset of its first task.
chunk=${SLURM_ARRAY_CHUNK:-1000}
ids=()
for ((off = 0; off < n; off += chunk)); do
	count=$((n - off < chunk ? n - off : chunk))
	# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
	id=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((count - 1))%$max" \
		--output="$out/logs/summarize-$off-%a.log" \
		"$here/summarize.sbatch" "$out" "$off")
	ids+=("${id%%;*}") # "JOBID;CLUSTER" on a federation
done
# the reduce: only when every task of every array succeeded
deps=$(IFS=:; echo "${ids[*]}")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$deps" \
	--output="$out/logs/merge.log" "$here/merge.sbatch" "$out")
echo "submitted: $n summaries as job array(s) ${ids[*]}, the merge as job ${merge%%;*}"
