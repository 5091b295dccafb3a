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
	--expect '[id^="verdict-"]=4'   # matmul_quant, fa_quant_sparse, vector_fusion, comm_overlap
	--expect '#summary=1'
	--expect 'table.stages=1'
	--expect 'svg=2'
	--expect 'a[href^="https://gitcode.com/Ascend/MindIE-SD"]=1'
	# the collection check: one rank, 2 timed steps and no memory data
	# (gaps few_steps, no_memory), each with its code, and the snippet
	--expect 'nav a[href="#collection"]=1'
	--expect '#collection table.collection tbody tr=1'
	--expect '#collection li.gap pre.fix code=2'
	--expect '#gap-few_steps pre.fix code:has-text("torch_npu.profiler.schedule(wait=0, warmup=2, active=5, repeat=1)")=1'
	--expect '#gap-no_memory pre.fix code:has-text("profile_memory=True")=1'
	--expect '#collection details.snippet pre.fix code:has-text("tensorboard_trace_handler")=1'
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
# On a 390 px phone and on paper (check_layout.mjs): no sideways page
# scroll, no text under 11 px, pages within the content's own count plus
# 15%, no page ending with a heading. PDF and phone screenshot in OUT_DIR.
layout() {
	echo "== layout: $1"
	node "$HERE/check_layout.mjs" "$1" "$2" || STATUS=1
}
layout "$WORK/report/report.html" "$WORK/report/layout"

# The Chinese report too, once the binary has a --lang option.
HELP=$("$BIN" --help 2>&1 || true)
if grep -q -- '--lang' <<<"$HELP"; then
	if render "$WORK/report-zh" --lang zh; then
		echo "== report.html (zh): $WORK/report-zh/report.html"
		node "$HERE/check_report.mjs" "$WORK/report-zh/report.html" "$WORK/report-zh" \
			--lang zh "${EXPECTS[@]}" || STATUS=1
		layout "$WORK/report-zh/report.html" "$WORK/report-zh/layout"
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
		--expect '[id^="verdict-"]=6' --expect '#verdict-rank_imbalance.fired=1'
		--expect 'svg=4'
		--expect 'table.collection tbody tr=4'
	)
	for lang in en zh; do
		if PROFILE=$WORK/gen4 render "$WORK/report-gen4-$lang" --lang "$lang"; then
			echo "== report.html (4 ranks, $lang): $WORK/report-gen4-$lang/report.html"
			node "$HERE/check_report.mjs" "$WORK/report-gen4-$lang/report.html" \
				"$WORK/report-gen4-$lang" --lang "$lang" "${MULTI[@]}" || STATUS=1
			if [ "$lang" = en ]; then
				layout "$WORK/report-gen4-en/report.html" "$WORK/report-gen4-en/layout"
			fi
		else
			STATUS=1
		fi
	done
else
	echo "skipped: multi-rank report (no sdperf-gen with --straggler at $GEN)"
fi
# The comparison report (sdperf diff) of the example pair, in English and
# in Chinese, and of a hostile pair; checked by check_diff.mjs. The texts
# come from assets/i18n/*.json; 1.47 = 143.91 ms / 97.94 ms, the DiT wall
# times of the two examples' single-run reports.
# diff_render OUTDIR BASE NEW [ARGS...]: diff.html into OUTDIR, 0 or 1.
diff_render() {
	local out=$1 base=$2 new=$3 rc=0
	shift 3
	rm -rf "$out"
	"$BIN" diff "$base" "$new" -o "$out" -f html --quiet "$@" \
		>"$out.stdout" 2>"$out.stderr" || rc=$?
	if [ "$rc" -ne 0 ] || [ ! -s "$out/diff.html" ]; then
		echo "FAIL sdperf diff $base $new -f html${*:+ $*} exited $rc:" >&2
		sed 's/^/    | /' "$out.stderr" >&2
		return 1
	fi
}
if grep -q 'sdperf diff' <<<"$HELP"; then
	DIFF_BASE=$ROOT/examples/image-dit-1card
	DIFF_NEW=$ROOT/examples/image-dit-1card-tuned
	DIFF_COMMON=(
		--count '.speedup=3' --count 'table.diff-stages tbody tr=3'
		--count 'table.verdict-changes tbody tr=10' --count 'tr.vc-cleared=1'
		--count 'ul.promises li=3'
		--expect 'svg.diff-chart rect.c-FA=4' --expect 'svg.diff-chart rect.c-MatMul=6'
		--count 'ul.type-list.removed li=1' --count 'ul.type-list.added li=4'
		--text 'ul.type-list.removed li code' 'FlashAttentionScore'
		--text 'ul.type-list.added li code' 'AdaBlockSparseAttention'
		--count 'a[href^="http"]=0'
	)
	DIFF_EN=(
		--text '.speedup.faster .factor' '1.47× faster'
		--row 'table.verdict-changes tbody tr' 'fa_quant_sparse' 'Cleared'
		--row 'table.verdict-changes tbody tr' 'matmul_quant' 'Not fired'
		--row 'table.verdict-changes tbody tr' 'vae_parallel' 'Still fired'
		--text '#promise-fa_quant_sparse' 'Attention dominates the DiT: promised −9.7–14.5% end to end; measured −15.0% (154.20 ms → 131.02 ms per step)'
		--row 'table.diff-stages tbody tr' 'DiT (transformer)' '1.47× faster'
		--row 'table.diff-stages tbody tr' 'VAE' '0.99×: within 2%'
		--row 'table.diff-stages tbody tr' 'Text encoder' '1.00×: within 2%'
		--row 'table.diff-types tbody tr' 'FlashAttentionScore removed' 'DiT (transformer)'
		--row 'table.diff-types tbody tr' 'AdaBlockSparseAttention added' 'DiT (transformer)'
	)
	DIFF_ZH=(
		--text '.speedup.faster .factor' '1.47×，更快'
		--row 'table.verdict-changes tbody tr' 'fa_quant_sparse' '已消除'
		--row 'table.verdict-changes tbody tr' 'DiT 以注意力为主' '已消除'
		--row 'table.verdict-changes tbody tr' 'matmul_quant' '均未触发'
		--row 'table.diff-stages tbody tr' 'DiT（Transformer）' '1.47×，更快'
		--row 'table.diff-stages tbody tr' '文本编码器' '1.00×：变化在 2% 以内'
		--row 'table.diff-types tbody tr' 'FlashAttentionScore 移除' 'DiT（Transformer）'
		--row 'table.diff-types tbody tr' 'AdaBlockSparseAttention 新增' 'DiT（Transformer）'
	)
	if diff_render "$WORK/diff-en" "$DIFF_BASE" "$DIFF_NEW"; then
		echo "== diff.html (en): $WORK/diff-en/diff.html"
		node "$HERE/check_diff.mjs" "$WORK/diff-en/diff.html" "$WORK/diff-en" \
			--lang en "${DIFF_COMMON[@]}" "${DIFF_EN[@]}" || STATUS=1
		layout "$WORK/diff-en/diff.html" "$WORK/diff-en/layout"
	else
		STATUS=1
	fi
	if diff_render "$WORK/diff-zh" "$DIFF_BASE" "$DIFF_NEW" --lang zh; then
		echo "== diff.html (zh): $WORK/diff-zh/diff.html"
		node "$HERE/check_diff.mjs" "$WORK/diff-zh/diff.html" "$WORK/diff-zh" \
			--lang zh "${DIFF_COMMON[@]}" "${DIFF_ZH[@]}" || STATUS=1
	else
		STATUS=1
	fi
	# Hostile pair, written here: markup as kernel types (one only in the
	# base, one only in the new run), a common MatMulV3 (500.5 -> 400.5 µs)
	# and a 192-character type name without a space in both.
	long=LongFusedOperator$(printf '_Part%02d' $(seq 0 24))
	head='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
	mkdir -p "$WORK/hostile-base" "$WORK/hostile-new"
	cat >"$WORK/hostile-base/kernel_details.csv" <<-EOF
		$head
		1,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1767225600000000.000,500.5,0,8
		1,"<script>alert(1)</script>","<script>alert(1)</script>",AI_CORE,1767225600000503.000,300.5,0,8
		1,$long,$long,AI_VECTOR_CORE,1767225600000806.000,100.5,0,8
	EOF
	cat >"$WORK/hostile-new/kernel_details.csv" <<-EOF
		$head
		1,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1767225600000000.000,400.5,0,8
		1,"<img src=x onerror=alert(1)>","<img src=x onerror=alert(1)>",AI_CORE,1767225600000403.000,200.5,0,8
		1,$long,$long,AI_VECTOR_CORE,1767225600000606.000,150.5,0,8
	EOF
	if diff_render "$WORK/diff-hostile" "$WORK/hostile-base/kernel_details.csv" \
		"$WORK/hostile-new/kernel_details.csv"; then
		echo "== diff.html (hostile names): $WORK/diff-hostile/diff.html"
		node "$HERE/check_diff.mjs" "$WORK/diff-hostile/diff.html" "$WORK/diff-hostile" --lang en \
			--count 'img=0' --count '[onerror]=0' --count 'script=1' --count 'script[src]=0' \
			--text 'ul.type-list.removed li code' '<script>alert(1)</script>' \
			--text 'ul.type-list.added li code' '<img src=x onerror=alert(1)>' \
			--row 'table.diff-types tbody tr' '<script>alert(1)</script> removed' '300.5 µs' \
			--row 'table.diff-types tbody tr' '<img src=x onerror=alert(1)> added' '200.5 µs' \
			--row 'table.diff-types tbody tr' 'MatMulV3' '−100.0 µs' \
			--row 'table.diff-types tbody tr' "$long" '+50.0 µs' || STATUS=1
	else
		STATUS=1
	fi
else
	echo "skipped: comparison report (no sdperf diff in $BIN --help)"
fi
exit "$STATUS"
