#!/bin/sh
# Regenerates the example profiles (tools/gen, fixed seeds) and their
# reports. Run from anywhere after a build: examples/regenerate.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"
runs="image-dit-1card image-dit-1card-tuned video-dit-4card video-v2v-1card video-dit-cache-1card"
for d in $runs; do
	rm -rf "examples/$d"
done
tools/gen/make-examples.sh "$build/tools/gen/sdperf-gen" examples >/dev/null 2>&1
for d in $runs; do
	# the whole run: every rank folder of the example
	# (one example shows the wiki fragment too: docs/wiki.md)
	formats=html,pdf,md,json
	if [ "$d" = image-dit-1card ]; then
		formats=$formats,fragment
	fi
	"$build/src/sdperf" report "examples/$d" -o "examples/$d/report" -j 2 \
		-f "$formats" --quiet
	echo "examples/$d/report/ ($formats)"
done
# a report for a customer: redacted (host, user, paths as pseudonyms), and
# HTML and PDF branded from the config file beside them
# (examples/customer-report/sdperf.json, logo.png)
"$build/src/sdperf" report examples/image-dit-1card -o examples/customer-report \
	--config examples/customer-report/sdperf.json -f html,pdf -j 2 --quiet \
	--redact
echo "examples/customer-report/ (report.html, report.pdf: redacted, branded)"
# before/after: the tuned image pipeline against the original
"$build/src/sdperf" diff examples/image-dit-1card examples/image-dit-1card-tuned \
	-o examples/diff-image-tuned --quiet
echo "examples/diff-image-tuned/ (diff.html, diff.pdf, diff.md, diff.json)"
