#!/usr/bin/env bash
# Lists the rank folders of a run, one per line, sorted: the folders named
# *_ascend_pt and those holding an ASCEND_PROFILER_OUTPUT folder, up to 4
# levels below RUN_DIR (as sdperf's discovery searches). Task i of a job
# array analyses line i + 1.
#   list-ranks.sh RUN_DIR > ranks.txt
set -euo pipefail
run=${1:?usage: list-ranks.sh RUN_DIR}
{
	find "$run" -maxdepth 4 -type d -name '*_ascend_pt' -print
	find "$run" -maxdepth 5 -type d -name ASCEND_PROFILER_OUTPUT |
		sed 's#/ASCEND_PROFILER_OUTPUT$##'
} | LC_ALL=C sort -u
