#!/usr/bin/env bash
# Browser end-to-end test of sdperf's HTML report: renders
# examples/image-dit-1card with --format html, then checks report.html in
# headless Chromium (check_report.mjs: both with and without JavaScript,
# network blocked, expected elements, <html lang>, no console errors, a
# screenshot that is not blank, <details> expanded in print media).
#
#   bash tests/browser/run.sh SDPERF_BINARY
#
# Until the HTML renderer lands, a binary that answers --format html with
# exit 2 and "unknown or unavailable format" makes this print
# "skipped: no html renderer yet" and exit 0; anything else that goes
# wrong fails. Environment: SDPERF_CHROMIUM (default /usr/bin/chromium);
# SDPERF_BROWSER_KEEP=DIR keeps the report and screenshots in DIR.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 SDPERF_BINARY" >&2
	exit 2
fi
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXAMPLE=$ROOT/examples/image-dit-1card

# What the report of examples/image-dit-1card must hold (at least).
EXPECTS=(
	--expect '.verdict-card=4'   # matmul_quant, fa_quant_sparse, vector_fusion, comm_overlap
	--expect 'table.stages=1'
	--expect 'svg=2'
	--expect 'a[href^="https://gitcode.com/Ascend/MindIE-SD"]=1'
)

# shellcheck source=deps.sh
. "$HERE/deps.sh"
browser_deps

if [ -n "${SDPERF_BROWSER_KEEP:-}" ]; then
	WORK=$SDPERF_BROWSER_KEEP
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-browser.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi

# render OUTDIR [EXTRA-ARGS...]: the HTML report of $EXAMPLE (or of
# $PROFILE when set) into OUTDIR; returns 0 ok, 3 no HTML renderer (skip),
# 1 failure.
render() {
	local out=$1 rc=0
	shift
	rm -rf "$out"
	"$BIN" report "${PROFILE:-$EXAMPLE}" -o "$out" --format html --quiet "$@" \
		>"$out.stdout" 2>"$out.stderr" || rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'unknown or unavailable format' "$out.stderr"; then
		return 3
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL sdperf report --format html${*:+ $*} exited $rc:" >&2
		sed 's/^/    | /' "$out.stderr" >&2
		return 1
	fi
	if [ ! -s "$out/report.html" ]; then
		echo "FAIL sdperf report --format html${*:+ $*} wrote no $out/report.html" >&2
		ls -l "$out" >&2 || true
		return 1
	fi
}

rc=0
render "$WORK/report" || rc=$?
if [ "$rc" -eq 3 ]; then
	echo "skipped: no html renderer yet"
	exit 0
fi
[ "$rc" -eq 0 ] || exit 1

STATUS=0
echo "== report.html (en): $WORK/report/report.html"
node "$HERE/check_report.mjs" "$WORK/report/report.html" "$WORK/report" \
	--lang en "${EXPECTS[@]}" || STATUS=1

# The Chinese report too, once the binary has a --lang option.
HELP=$("$BIN" --help 2>&1 || true)
if grep -q -- '--lang' <<<"$HELP"; then
	if render "$WORK/report-zh" --lang zh; then
		echo "== report.html (zh): $WORK/report-zh/report.html"
		node "$HERE/check_report.mjs" "$WORK/report-zh/report.html" "$WORK/report-zh" \
			--lang zh "${EXPECTS[@]}" || STATUS=1
	else
		STATUS=1
	fi
fi
# Operator names that are HTML, quotes and Markdown must stay text: no
# script runs, no dialog opens, nothing is fetched.
if PROFILE=$ROOT/tests/data/hostile render "$WORK/report-hostile"; then
	echo "== report.html (hostile names): $WORK/report-hostile/report.html"
	node "$HERE/check_report.mjs" "$WORK/report-hostile/report.html" \
		"$WORK/report-hostile" --lang en --expect 'table.top code=6' || STATUS=1
else
	STATUS=1
fi
# A generated four-card run (sdperf-gen, built beside the binary): the
# multi-rank sections must be there, in both languages.
GEN=$(dirname "$BIN")/../tools/gen/sdperf-gen
if [ -x "$GEN" ] && "$GEN" --help 2>&1 | grep -q -- '--straggler'; then
	"$GEN" -o "$WORK/gen4" --ranks 4 --comm alltoall --straggler 2=1.3 \
		--markers >"$WORK/gen4.log" 2>&1 || { cat "$WORK/gen4.log" >&2; STATUS=1; }
	MULTI=(
		--expect '#ranks=1' --expect 'table.ranks tbody tr=4'
		--expect 'table.ranks tr.slowest=1' --expect '#collectives=1'
		--expect '#overlap=1' --expect '#steps=1' --expect 'table.markers=1'
		--expect 'table.rank-inputs tbody tr=4'
		--expect '.verdict-card=6' --expect '#verdict-rank_imbalance.fired=1'
		--expect 'svg=4'
	)
	for lang in en zh; do
		if PROFILE=$WORK/gen4 render "$WORK/report-gen4-$lang" --lang "$lang"; then
			echo "== report.html (4 ranks, $lang): $WORK/report-gen4-$lang/report.html"
			node "$HERE/check_report.mjs" "$WORK/report-gen4-$lang/report.html" \
				"$WORK/report-gen4-$lang" --lang "$lang" "${MULTI[@]}" || STATUS=1
		else
			STATUS=1
		fi
	done
else
	echo "skipped: multi-rank report (no sdperf-gen with --straggler at $GEN)"
fi
exit "$STATUS"
