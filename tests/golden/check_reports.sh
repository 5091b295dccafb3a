#!/usr/bin/env bash
# Golden test of the templated reports: report.html and report.md for
# INPUT in LANG must equal tests/golden/NAME.html and NAME.md, with the date
# fixed (SOURCE_DATE_EPOCH=0), the version written as VERSION and the
# commit built as COMMIT.
# Usage: tests/golden/check_reports.sh SDPERF NAME INPUT LANG [--update]
set -euo pipefail
sdperf=$(realpath "$1")
name=$2
input=$3
lang=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
version=$("$sdperf" --version | sed -n '1s/^sdperf //p')
# the commit built (the provenance's build), unless sdperf knows none
commit=$("$sdperf" --version | sed -n '2s/^commit \([^ ]*\).*/\1/p')
[ "$commit" != unknown ] || commit=""

SOURCE_DATE_EPOCH=0 "$sdperf" report $input -o "$out" --format html,md -j 2 \
	--lang "$lang" --quiet
status=0
for ext in html md; do
	# the provenance's command line names the temporary output folder
	sed "s/sdperf $version/sdperf VERSION/g; s#$out#OUT#g${commit:+; s/$commit/COMMIT/g}" \
		"$out/report.$ext" \
		>"$out/norm.$ext"
	if [ "${5:-}" = "--update" ]; then
		cp "$out/norm.$ext" "tests/golden/$name.$ext"
		echo "updated tests/golden/$name.$ext"
	elif ! diff -u "tests/golden/$name.$ext" "$out/norm.$ext" >"$out/diff"; then
		head -80 "$out/diff"
		echo "golden $name.$ext: differs (intended? tests/golden/update.sh BUILD_DIR)"
		status=1
	else
		echo "golden $name.$ext: identical"
	fi
done
exit $status
