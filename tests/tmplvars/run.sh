#!/usr/bin/env bash
# Every template variable the reports read is defined by the view model:
# renders HTML, Markdown and PDF (json has no templates), in English and
# Chinese, of every example run, every golden input, the diff example (per
# run and --per-step) and the custom-template example, with the test hook
# SDPERF_TEST_TEMPLATE_MISSES set, under which a lookup of a variable the
# view model did not define (a TMPL_VAR without default=, a TMPL_LOOP, a
# tmpl_get/tmpl_nrows/tmpl_row of the PDF layout or the charts) fails the
# render with exit 70, naming the variable and the template tag or the
# caller's file and line. First checks that the hook does fail.
#   tests/tmplvars/run.sh SDPERF
root=$(cd "$(dirname "$0")/../.." && pwd)
sdperf=$(realpath "$1")
. "$root/tests/testlib.sh"
export SOURCE_DATE_EPOCH=1767225600 LC_ALL=C.UTF-8
export SDPERF_TEST_TEMPLATE_MISSES=1
ex=$root/examples

# run NAME ARGS...: sdperf ARGS must exit 0 and say nothing of misses
run() {
	local name=$1
	shift
	"$sdperf" "$@" -j 2 --quiet >"$T/out" 2>"$T/err"
	local rc=$?
	if [ "$rc" -eq 0 ] && ! grep -q 'found nothing' "$T/err"; then
		ok "$name"
	else
		bad "$name" "exit $rc" "$(head -c 1500 "$T/err")"
	fi
}

# the hook itself: a template reading undefined names fails, naming them
mkdir -p "$T/tmpl"
cat >"$T/tmpl/report.md.tmpl" <<'T'
<TMPL_VAR title>
<TMPL_IF no_such_flag>if: absent is false, not a miss</TMPL_IF>
<TMPL_VAR no_such_default default="-">
<TMPL_VAR no_such_var>
<TMPL_LOOP no_such_loop>x</TMPL_LOOP>
T
"$sdperf" report "$ex/image-dit-1card" --templates "$T/tmpl" --format md \
	-o "$T/hook" --quiet 2>"$T/err"
rc=$?
msg=$(cat "$T/err")
case $msg in
*"2 lookups"*"report.md.tmpl:4:1: TMPL_VAR 'no_such_var'"*"report.md.tmpl:5:1: TMPL_LOOP 'no_such_loop'"*)
	[ "$rc" -eq 70 ] && ok "hook names each miss" ||
		bad "hook exit code" "want 70, got $rc"
	;;
*) bad "hook names each miss" "exit $rc" "$msg" ;;
esac
[ ! -e "$T/hook/report.md" ] && ok "hook: no report left" ||
	bad "hook: no report left" "$T/hook/report.md exists"

inputs=()
for d in "$ex"/*/; do
	[ -d "$d/report" ] && inputs+=("${d%/}")
done
while read -r name input _; do
	case $name in '' | '#'*) continue ;; esac
	inputs+=("$root/$input")
done < <(cat "$root/tests/golden/cases.txt" "$root/tests/golden/reports.txt")

# each format on its own, so that one failing does not hide the others
for lang in en zh; do
	for f in html md pdf fragment; do
		for in in "${inputs[@]}"; do
			run "report ${in#"$root"/} $lang $f" report "$in" \
				--format "$f" --lang "$lang" -o "$T/r"
		done
		# (the custom template has no fragment mode: an error, tested
		# in tests/unit/test_report.c)
		[ "$f" = fragment ] ||
			run "custom-template $lang $f" report "$ex/image-dit-1card" \
				--templates "$ex/custom-template" --format "$f" \
				--lang "$lang" -o "$T/c"
		run "diff $lang $f" diff "$ex/image-dit-1card" \
			"$ex/image-dit-1card-tuned" --format "$f" --lang "$lang" \
			-o "$T/d"
		run "diff --per-step $lang $f" diff "$ex/image-dit-1card" \
			"$ex/image-dit-1card-tuned" --per-step --format "$f" \
			--lang "$lang" -o "$T/s"
	done
done
finish
