#!/usr/bin/env bash
# The wiki fragment (issue 15 §3), checked by check_fragment.mjs: the
# fragment of examples/image-dit-1card in English and Chinese, of the
# four-card example, and of the comparison of the example pair (sdperf diff
# -f fragment), each pasted into a hostile host page and a blank one at
# 1280 and 390 px.
#
#   bash tests/browser/fragment.sh SDPERF_BINARY
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 SDPERF_BINARY" >&2
	exit 2
fi
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXAMPLES=$ROOT/examples

# shellcheck source=deps.sh
. "$HERE/deps.sh"
browser_deps

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-fragment.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

STATUS=0
# fragment NAME LANG FILE COMMAND...: runs the command (which writes FILE
# under $WORK/NAME), then the check.
fragment() {
	local name=$1 lang=$2 file=$3
	shift 3
	if ! "$@" -o "$WORK/$name" -f fragment --quiet >"$WORK/$name.log" 2>&1; then
		echo "FAIL $* -f fragment:" >&2
		sed 's/^/    | /' "$WORK/$name.log" >&2
		STATUS=1
		return
	fi
	echo "== $name: $WORK/$name/$file"
	node "$HERE/check_fragment.mjs" "$WORK/$name/$file" "$WORK/$name/check" \
		--lang "$lang" || STATUS=1
}
fragment report-en en report.fragment.html \
	"$BIN" report "$EXAMPLES/image-dit-1card"
fragment report-zh zh report.fragment.html \
	"$BIN" report "$EXAMPLES/image-dit-1card" --lang zh
fragment report-4card en report.fragment.html \
	"$BIN" report "$EXAMPLES/video-dit-4card"
fragment diff-en en diff.fragment.html \
	"$BIN" diff "$EXAMPLES/image-dit-1card" "$EXAMPLES/image-dit-1card-tuned"
exit "$STATUS"
