#!/usr/bin/env bash
# Regenerates the README's screenshots of the HTML report of
# examples/image-dit-1card (docs/images/report-en.png, desktop, and
# report-phone.png, a 390 px phone) with headless Chromium; needs the
# browser tests' packages (tools/setup.sh test).
#   tools/screenshots.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
HERE=$root/tests/browser
# shellcheck source=../tests/browser/deps.sh
. "$HERE/deps.sh"
browser_deps
work=$(mktemp -d "${TMPDIR:-/tmp}/sdperf-shots.XXXXXX")
trap 'rm -rf "$work"' EXIT
# relative, as in the examples' own reports: the header shows the path
cd "$root"
"$build/src/sdperf" report examples/image-dit-1card -o "$work" -f html -j 2 --quiet
node "$HERE/screenshots.mjs" "$work/report.html" "$root/docs/images"
