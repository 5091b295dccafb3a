#!/usr/bin/env bash
# Regenerates every golden file from the current build.
# Usage: tests/golden/update.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$here/cases.txt" | while read -r name input expected; do
	[ -n "$name" ] && "$here/check.sh" "$1/src/sdperf" "$name" "$input" $expected --update
done
grep -v '^#' "$here/reports.txt" | while read -r name input lang; do
	[ -n "$name" ] && "$here/check_reports.sh" "$1/src/sdperf" "$name" "$input" "$lang" --update
done
grep -v '^#' "$here/diffs.txt" | while read -r name base new expected; do
	[ -n "$name" ] && "$here/check_diff.sh" "$1/src/sdperf" "$name" "$base" "$new" "$expected" --update
done
