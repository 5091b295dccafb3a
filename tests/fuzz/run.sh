#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time on a seed corpus made from
# the test data. Usage: tests/fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
secs=${2:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/kernels" "$work/rules"
find "$root/tests/data" "$root/examples" -name '*.csv' -size -64k \
	-exec cp --backup=numbered {} "$work/kernels/" \; 2>/dev/null || true
cp "$root/assets/rules.json" "$work/rules/"
find "$root/tests/data" -name '*.json' -size -64k \
	-exec cp --backup=numbered {} "$work/rules/" \; 2>/dev/null || true

for t in kernels rules; do
	echo "fuzz_$t: ${secs}s"
	"$build/tests/fuzz/fuzz_$t" "$work/$t" -max_total_time="$secs" \
		-max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix="$work/crash-$t-" -print_final_stats=1 2>"$work/$t.log" || {
		tail -60 "$work/$t.log"
		echo "fuzz_$t FAILED"
		exit 1
	}
	grep -E 'stat::number_of_executed_units|Done' "$work/$t.log" | tail -2
done
