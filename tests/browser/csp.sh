#!/usr/bin/env bash
# The Content-Security-Policy of the HTML reports (issue 11) in headless
# Chromium: the reports' one inline script is allowed by its sha256 hash,
# nothing else. check_csp.mjs checks that the own script sorts a table,
# that window.__sdperf_pwned stays undefined and no dialog opens, and how
# many inline scripts the policy refused:
#  - the plain report and diff: none;
#  - a user report.css that closes <style> and opens a <script>: it stays
#    CSS (fmt="css"): no script element at all, none refused;
#  - a user template that adds an inline script of its own: the policy
#    refuses it (one violation);
#  - a user report.js / diff.js (--templates): allowed by its own hash.
#
#   bash tests/browser/csp.sh SDPERF_BINARY
set -uo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 SDPERF_BINARY" >&2
	exit 2
fi
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXAMPLE=$ROOT/examples/image-dit-1card
DIFF_BASE=$ROOT/examples/image-dit-1card
DIFF_NEW=$ROOT/examples/image-dit-1card-tuned

# shellcheck source=deps.sh
. "$HERE/deps.sh"
browser_deps || exit 1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-csp.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STATUS=0

PWN='window.__sdperf_pwned=1;alert("pwned")'
mkdir -p "$WORK/csp-css" "$WORK/csp-tmpl" "$WORK/csp-js"
printf 'body { color: #222; }\n</style><script>%s</script><style>\n' "$PWN" \
	>"$WORK/csp-css/report.css"
for t in report diff; do
	sed "s|<script><TMPL_VAR script fmt=\"raw\"></script>|&<script>$PWN</script>|" \
		"$ROOT/templates/$t.html.tmpl" >"$WORK/csp-tmpl/$t.html.tmpl"
	if ! grep -q __sdperf_pwned "$WORK/csp-tmpl/$t.html.tmpl"; then
		echo "FAIL the test did not plant its script in $t.html.tmpl"
		STATUS=1
	fi
	{ cat "$ROOT/assets/$t.js"; echo 'window.__user_js = 1;'; } >"$WORK/csp-js/$t.js"
done

# csp NAME VIOLATIONS [--ran NAME] -- sdperf-args...: one report, checked
csp() {
	local name=$1 violations=$2 ran=() out=$WORK/$1 rc=0 html
	shift 2
	if [ "$1" = --ran ]; then
		ran=(--ran "$2")
		shift 2
	fi
	shift # --
	"$BIN" "$@" -o "$out" -f html --quiet >"$out.log" 2>&1 || rc=$?
	html=$(ls "$out"/*.html 2>/dev/null | head -n 1)
	if [ "$rc" -ne 0 ] || [ -z "$html" ]; then
		echo "FAIL $name: sdperf exited $rc"
		sed 's/^/    | /' "$out.log"
		STATUS=1
		return
	fi
	echo "== CSP ($name): $html"
	node "$HERE/check_csp.mjs" "$html" --violations "$violations" "${ran[@]}" || STATUS=1
}
csp report 0 -- report "$EXAMPLE"
csp report-css 0 -- report "$EXAMPLE" --templates "$WORK/csp-css"
csp report-template 1 -- report "$EXAMPLE" --templates "$WORK/csp-tmpl"
csp report-userjs 0 --ran __user_js -- report "$EXAMPLE" --templates "$WORK/csp-js"
csp diff 0 -- diff "$DIFF_BASE" "$DIFF_NEW"
csp diff-css 0 -- diff "$DIFF_BASE" "$DIFF_NEW" --templates "$WORK/csp-css"
csp diff-template 1 -- diff "$DIFF_BASE" "$DIFF_NEW" --templates "$WORK/csp-tmpl"
csp diff-userjs 0 --ran __user_js -- diff "$DIFF_BASE" "$DIFF_NEW" --templates "$WORK/csp-js"
exit "$STATUS"
