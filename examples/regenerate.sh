#!/bin/sh
# Regenerates the example profiles (tools/gen, fixed seeds) and their
# reports. Run from anywhere after a build: examples/regenerate.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"
for d in image-dit-1card video-dit-4card video-v2v-1card; do
	rm -rf "examples/$d"
done
tools/gen/make-examples.sh "$build/tools/gen/sdperf-gen" examples >/dev/null 2>&1
for d in image-dit-1card video-dit-4card video-v2v-1card; do
	rank=$(ls -d examples/$d/*_ascend_pt | head -n 1)
	"$build/src/sdperf" report "$rank" -o "examples/$d/report" --quiet
	echo "examples/$d/report/ (report.html, report.pdf, report.md, report.json)"
done
