#!/usr/bin/env bash
# One golden test of sdperf diff: diff.json of BASE against NEW must equal
# EXPECTED. Usage: tests/golden/check_diff.sh SDPERF NAME BASE NEW EXPECTED [--update]
set -euo pipefail
sdperf=$(realpath "$1")
name=$2
base=$3
new=$4
expected=$5
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root" # paths in the report are relative to the repository root
"$sdperf" diff "$base" "$new" -o "$out" --format json -j 2 --quiet
if [ "${6:-}" = "--update" ]; then
	cp "$out/diff.json" "$expected"
	echo "updated $expected"
	exit 0
fi
if ! diff -u "$expected" "$out/diff.json"; then
	echo "golden $name: diff.json differs from $expected"
	echo "(if the change is intended: tests/golden/update.sh BUILD_DIR)"
	exit 1
fi
echo "golden $name: identical"
