#!/usr/bin/env bash
# One golden test: sdperf's report.json for INPUT must equal EXPECTED
# (default tests/golden/NAME.json).
# Usage: tests/golden/check.sh SDPERF NAME INPUT [EXPECTED] [--update]
set -euo pipefail
sdperf=$(realpath "$1")
name=$2
input=$3
expected=tests/golden/$name.json
update=
for a in "${@:4}"; do
	case "$a" in
	--update) update=1 ;;
	*) expected=$a ;;
	esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root" # paths in the report are relative to the repository root
# the provenance's generation time fixed; its command line names the
# temporary output folder, written as OUT
SOURCE_DATE_EPOCH=0 "$sdperf" report $input -o "$out" --format json -j 2 \
	--quiet
sed -i "s#$out#OUT#g" "$out/report.json"
if [ -n "$update" ] && [ "${expected#tests/golden/}" = "$expected" ]; then
	# an example's report.json is examples/regenerate.sh's: its provenance
	# names the command that made the example, not this one
	echo "kept $expected (examples/regenerate.sh makes it)"
	exit 0
fi
if [ -n "$update" ]; then
	mkdir -p "$(dirname "$expected")"
	cp "$out/report.json" "$expected"
	echo "updated $expected"
	exit 0
fi
# how the run was made (its command line, when) is not analysis: left
# out of the comparison, so the examples' reports (made by
# examples/regenerate.sh with another command) are goldens too
volatile='/^\t\t"(command_line|build|generated|generated_from)":/d'
sed -E "$volatile" "$expected" >"$out/expected.json"
sed -E "$volatile" "$out/report.json" >"$out/actual.json"
if ! diff -u "$out/expected.json" "$out/actual.json"; then
	echo "golden $name: report.json differs from $expected"
	echo "(if the change is intended: tests/golden/update.sh BUILD_DIR)"
	exit 1
fi
echo "golden $name: identical"
