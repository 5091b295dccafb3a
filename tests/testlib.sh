# Shared by the shell test scripts (sourced): a scratch folder as the
# working directory, pass/fail counting and the closing tally.
#   T       the scratch folder, removed on exit
#   ok NAME / bad NAME DETAIL...   count and print one check
#   finish  prints "N passed, M failed"; the script's exit status
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; printf '     %s\n' "$@"; }
finish() {
	echo
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
