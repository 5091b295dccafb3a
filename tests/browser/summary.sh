#!/usr/bin/env bash
# The executive summary on the first screen (1280x800) and on a phone,
# fired findings as cards, passing checks one line each (issue 13 §1, §6),
# checked by check_summary.mjs on the HTML report of examples/image-dit-1card
# in English and Chinese: it fires fa_quant_sparse, vae_parallel and
# text_encoder; the lead rank's span is 308.41 ms over 2 steps, and the top
# action is vae_parallel, the largest expected gain (issue 13 §2).
#
#   bash tests/browser/summary.sh SDPERF_BINARY
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 SDPERF_BINARY" >&2
	exit 2
fi
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXAMPLE=$ROOT/examples/image-dit-1card

# shellcheck source=deps.sh
. "$HERE/deps.sh"
browser_deps

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-summary.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

STATUS=0
"$BIN" report "$EXAMPLE" -o "$WORK/en" --format html --quiet
echo "== summary (en): $WORK/en/report.html"
# 3 fired, 7 passing: matmul_quant, vector_fusion, comm_overlap, host_bound,
# rank_imbalance, memory_headroom (both not applicable) and cache (the loop
# is 46.8% of end to end)
node "$HERE/check_summary.mjs" "$WORK/en/report.html" --fired 3 --passing 7 \
	--text '#summary .sum-e2e=154.20 ms per profiler step (2 steps, 308.41 ms in all; 2 pipeline calls, 154.20 ms each)' \
	--text '#summary .sum-findings=3 findings' \
	--text '#summary .sum-split=Stage split, per profiler step' \
	--text '#summary .sum-legend=DiT 71.96 ms · 47.4%' \
	--text '#summary .sum-top=The VAE is a large share of end to end (39.2% > 30.0%) · Estimated gain: end to end 154.2 ms → 124.5–134.4 ms per step (−12.9–19.3%)' \
	--text '#verdict-vae_parallel .gain=Estimated gain: VAE 59.5 ms → 29.7–39.6 ms' \
	--text '#summary .sum-trust=fair — Level1, 2 timed steps after 3 warm-up, 2 warnings' \
	--text '#verdict-comm_overlap summary=Exposed communication in the DiT' || STATUS=1
"$BIN" report "$EXAMPLE" -o "$WORK/zh" --format html --lang zh --quiet
echo "== summary (zh): $WORK/zh/report.html"
node "$HERE/check_summary.mjs" "$WORK/zh/report.html" --fired 3 --passing 7 \
	--text '#summary .sum-split=阶段占比（每个采集步骤）' \
	--text '#summary .sum-findings=3 项发现' \
	--text '#summary .sum-top=预计收益（估算）：端到端每步 154.2 ms → 124.5–134.4 ms（减少 12.9–19.3%）' \
	--text '#verdict-comm_overlap summary=DiT 中未被掩盖的通信' || STATUS=1
exit "$STATUS"
