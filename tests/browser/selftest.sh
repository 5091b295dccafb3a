#!/usr/bin/env bash
# Self-test of check_report.mjs, needing no sdperf binary: the good fixture
# must pass; the leaky, collapsed-on-paper and blank fixtures, a wrong
# --lang and an unmet --expect must each fail, on the check meant.
#
#   bash tests/browser/selftest.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=deps.sh
. "$HERE/deps.sh"
browser_deps

OUT=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-browser-selftest.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
FIX=$HERE/fixtures
PASS=0
FAILED=0

result() { # ok?, message, log
	if [ "$1" = ok ]; then
		echo "ok $2"
		PASS=$((PASS + 1))
	else
		echo "FAIL $2"
		[ -n "${3:-}" ] && sed 's/^/    | /' "$3"
		FAILED=$((FAILED + 1))
	fi
}

# expect_run NAME WANT_RC PATTERN FIXTURE [ARGS...]: runs the checker on
# fixtures/FIXTURE; wants exit code WANT_RC and, if PATTERN is not empty,
# an output line matching it (extended regex).
expect_run() {
	local name=$1 want=$2 pattern=$3 fixture=$4 rc=0
	shift 4
	node "$HERE/check_report.mjs" "$FIX/$fixture" "$OUT/$name" "$@" >"$OUT/$name.log" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && { [ -z "$pattern" ] || grep -Eq -- "$pattern" "$OUT/$name.log"; }; then
		result ok "$name (exit $rc)"
	else
		result fail "$name: exit $rc, want $want${pattern:+ and a line matching /$pattern/}" "$OUT/$name.log"
	fi
}

EXPECTS=(--expect .verdict-card=4 --expect table.stages=1 --expect svg=2
	--expect 'a[href^="https://gitcode.com/Ascend/MindIE-SD"]=1' --expect details=2)

# the PNG decoder, on synthetic images
if node "$HERE/png_selftest.mjs" >"$OUT/png.log" 2>&1; then
	result ok "png decoder ($(tail -n1 "$OUT/png.log"))"
else
	result fail "png decoder" "$OUT/png.log"
fi

# the good fixture passes every check, in both passes
expect_run sample 0 '^[0-9]+ passed, 0 failed$' sample.html --lang en "${EXPECTS[@]}"
if [ -s "$OUT/sample/report.png" ]; then
	result ok "sample: report.png written"
else
	result fail "sample: no $OUT/sample/report.png"
fi
# ...and the checker itself decodes the screenshot it wrote
if node "$HERE/png_selftest.mjs" "$OUT/sample/report.png" >"$OUT/png2.log" 2>&1; then
	result ok "sample: report.png decodes"
else
	result fail "sample: report.png decodes" "$OUT/png2.log"
fi

# a page loading an external stylesheet, script, image and a sibling file
expect_run leaky 1 '^FAIL \[js\] no request but the page itself' leaky.html --lang en
if grep -q 'blocked: .*https://img.example.invalid/logo.png' "$OUT/leaky.log" &&
	grep -q 'blocked: .*https://cdn.example.invalid/chart.js' "$OUT/leaky.log" &&
	grep -q 'blocked: .*fixtures/sample-missing.png' "$OUT/leaky.log" &&
	grep -q 'blocked: fetch https://telemetry.example.invalid/hit' "$OUT/leaky.log" &&
	grep -q '^FAIL \[nojs\] no request but the page itself' "$OUT/leaky.log"; then
	result ok "leaky: every outside request listed, in both passes"
else
	result fail "leaky: outside requests not all listed" "$OUT/leaky.log"
fi

# a closed <details> without a print stylesheet
expect_run noprint 1 '^FAIL \[nojs\] print: 2 <details> expanded' noprint.html --lang en
# an empty white page
expect_run blank 1 '^FAIL \[js\] screenshot .* not blank' blank.html --lang en
# the wrong language, and an --expect the page does not meet
expect_run wrong-lang 1 '^FAIL \[js\] <html lang="zh">' sample.html --lang zh
expect_run unmet-expect 1 '^FAIL \[nojs\] expect \.verdict-card >= 5 \(found 4\)' sample.html \
	--lang en --expect .verdict-card=5
# usage errors exit 2
expect_run usage 2 'usage:' sample.html --expect nocount

echo "$PASS passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
