# Shared by the shell test scripts (sourced): a scratch folder as the
# working directory, pass/fail counting and the closing tally.
#   T       the scratch folder, removed on exit
#   ok NAME / bad NAME DETAIL...   count and print one check
#   finish  prints "N passed, M failed"; the script's exit status
# HOME and XDG_CONFIG_HOME are empty folders of the script's own, so that
# a developer's ~/.config/sdperf/config.json changes no result; a test of
# the user's config folder sets them itself.
set -uo pipefail
T=$(mktemp -d)
TEST_HOME=$(mktemp -d)
trap 'rm -rf "$T" "$TEST_HOME"' EXIT
mkdir -p "$TEST_HOME/home" "$TEST_HOME/config"
export HOME="$TEST_HOME/home" XDG_CONFIG_HOME="$TEST_HOME/config"
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
