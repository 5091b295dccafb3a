#!/usr/bin/env bash
# Not part of the test suite: stage accuracy over N random generator
# configurations (steps, iterations, blocks, text encoder, attention kind,
# header variant, video, VAE encode, 2-card all-to-all, category mix).
# Usage: tests/accuracy/sweep.sh BUILD_DIR [N] [SEED]
set -euo pipefail
build=$1
n=${2:-40}
RANDOM=${3:-42}
gen=$build/tools/gen/sdperf-gen
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
te=(t5 clip none)
at=(fa fia laser sparse)
va=(level1-2026 level1-2025 level1-2024 level0 level0-old)
for i in $(seq 1 "$n"); do
	args="--seed $((1000 + i)) --steps $((1 + RANDOM % 4)) --iters $((2 + RANDOM % 12))"
	args="$args --blocks $((4 + RANDOM % 24)) --text-encoder ${te[RANDOM % 3]}"
	args="$args --attention ${at[RANDOM % 4]} --variant ${va[RANDOM % 5]}"
	[ $((RANDOM % 2)) = 1 ] && args="$args --video"
	[ $((RANDOM % 3)) = 1 ] && args="$args --vae-encode"
	[ $((RANDOM % 3)) = 1 ] && args="$args --ranks 2 --comm alltoall --comm-overlap 0.$((RANDOM % 10))"
	fa=$((5 + RANDOM % 40)) mm=$((5 + RANDOM % 50)) vec=$((5 + RANDOM % 30))
	[ $((fa + mm + vec)) -le 90 ] && args="$args --mix fa=$fa,matmul=$mm,vector=$vec"
	echo "c$i: $args"
	# shellcheck disable=SC2086
	"$gen" -o "$out/c$i" $args >/dev/null 2>&1
done
"$build/tests/test_accuracy" "$out" | grep -v '^\['
