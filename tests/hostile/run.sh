#!/usr/bin/env bash
# Hostile and unlucky input (issue 11): each case feeds sdperf a small,
# fast form of an attack and asserts the bounded outcome: the exit code, a
# peak RSS limit (/usr/bin/time) and a wall-time limit generous enough for
# CI, so that a failure is a regression, not noise.
#
# Usage: tests/hostile/run.sh SDPERF SDPERF_GEN [sanitized]
# With "sanitized" (ASan/UBSan builds) the RSS and time limits are not
# checked (the sanitizers' own memory and speed differ); exit codes and
# messages still are, and UB fails the run through the sanitizers.
#
# Cases live in tests/hostile/cases/*.sh; each is sourced here (in its own
# subshell, in a scratch folder of its own) and calls `bounded`.
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
SANITIZED=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export SDPERF GEN SANITIZED HERE ROOT
# shellcheck source=../testlib.sh
. "$HERE/../testlib.sh"

# bounded NAME RC MAX_MB MAX_S 'stderr substring' -- command...
# Runs the command with stdout/stderr in $T/NAME.out / $T/NAME.err and
# checks: exit status RC, peak RSS <= MAX_MB, wall time <= MAX_S seconds
# and, when the substring is not empty, that stderr contains it.
bounded() {
	local name=$1 rc=$2 mb=$3 secs=$4 msg=$5 got rss t0 t1 ms
	shift 6
	t0=$(date +%s%N)
	/usr/bin/time -f '%M' -o "$T/$name.rss" "$@" >"$T/$name.out" 2>"$T/$name.err"
	got=$?
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	# /usr/bin/time reports a signal death as "Command terminated by
	# signal N" before the figure: the last line is the RSS in KiB
	rss=$(tail -n 1 "$T/$name.rss")
	rss=$((${rss:-0} / 1024))
	if [ "$got" -ne "$rc" ]; then
		bad "$name" "exit $got, expected $rc" "$(head -c 600 "$T/$name.err")"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/$name.err"; then
		bad "$name" "stderr lacks: $msg" "got: $(head -c 600 "$T/$name.err")"
	elif [ -z "$SANITIZED" ] && [ "$rss" -gt "$mb" ]; then
		bad "$name" "peak RSS $rss MB > $mb MB"
	elif [ -z "$SANITIZED" ] && [ "$ms" -gt $((secs * 1000)) ]; then
		bad "$name" "took $ms ms > $secs s"
	else
		ok "$name ($rss MB, $ms ms)"
	fi
}
export -f bounded ok bad

for c in "$HERE"/cases/*.sh; do
	[ -e "$c" ] || continue
	mkdir -p "$T/$(basename "$c" .sh)"
	echo "== $(basename "$c")"
	# shellcheck disable=SC1090
	(pass=0 fail=0
	 cd "$T/$(basename "$c" .sh)" && . "$c"
	 echo "$pass $fail" >"$T/.tally.$(basename "$c")")
	read -r p f <"$T/.tally.$(basename "$c")" || { p=0; f=1; }
	pass=$((pass + p))
	fail=$((fail + f))
done
finish
