#!/usr/bin/env bash
# The bash completion: `cmake --install` puts it in
# share/bash-completion/completions/sdperf, it is what
# `sdperf --completion bash` prints, and sourced in bash its function
# completes commands, each command's options, option values and paths.
# Usage: tests/cli/completion_test.sh SDPERF_BINARY BUILD_DIR
SDPERF=$(realpath "$1")
BUILD=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

# --- installed where bash-completion looks for it
cmake --install "$BUILD" --prefix "$T/prefix" >install.log 2>&1 ||
	bad install "cmake --install failed" "$(tail -3 install.log)"
COMP=$T/prefix/share/bash-completion/completions/sdperf
if [ -f "$COMP" ] && "$SDPERF" --completion bash | cmp -s - "$COMP"; then
	ok installed_is_generated
else
	bad installed_is_generated "$COMP missing or not sdperf --completion bash"
fi
bash -n "$COMP" && ok script_syntax || bad script_syntax

# files and folders to complete
mkdir -p work/tpl-dir work/out-dir && touch work/trace.json work/tfile.txt
cd work || exit 2

# comp EXPECTED WORD... : completes the last WORD (COMP_WORDS as bash
# splits the line: '=' is a word of its own) in a fresh bash that
# sourced the installed script; EXPECTED is COMPREPLY sorted, joined by
# spaces
comp() {
	local want=$1 got
	shift
	got=$(bash --norc --noprofile -c '
		. "$0" || exit 9
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_sdperf
		printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "
	' "$COMP" "$@" 2>&1)
	if [ "$got" = "$want" ]; then
		ok "comp: $*"
	else
		bad "comp: $*" "expected: $want" "got:      $got"
	fi
}

comp 'check diff report summarize' sdperf ''
comp 'report' sdperf re
comp 'check' sdperf -q c
comp '--lang' sdperf report --la
comp '--max --max-memory --max-regression' sdperf check --max
comp '--max-memory' sdperf report --max
comp '--per-step' sdperf diff A B --per
comp '--no-verdicts' sdperf check P --no
comp '' sdperf report --no
comp '--help' sdperf diff --h
comp '--completion' sdperf --comp
# values: from the same table (and the catalogues, the built-in rules)
comp 'en zh' sdperf report P --lang ''
comp 'zh' sdperf report P -l z
comp 'en zh' sdperf report P --lang = ''
comp 'zh' sdperf report P --lang = z
comp 'zh' sdperf report P --la = z
comp '--lang=zh' sdperf report P --lang=z
comp 'html' sdperf report -f h
comp 'html,fragment html,json html,md html,pdf' sdperf report --format html,
comp 'json,md,fragment json,md,html json,md,pdf' sdperf report --format json,md,
comp 'json' sdperf -qf j
comp 'host_bound=' sdperf check P -t hos
comp 'matmul_quant=' sdperf report --threshold = mat
comp 'level0 level1 level2' sdperf check P --require lev
comp 'cpu,level1,level0 cpu,level1,level2' sdperf check P --require cpu,level1,lev
comp 'cpu,export=db cpu,export=text cpu,export=trace' sdperf check P --require cpu,exp
comp 'bash' sdperf --completion ''
comp '' sdperf report --title ''
# paths: folders for folder options, files for files and PATHs
comp 'tpl-dir' sdperf report P --templates t
comp 'out-dir' sdperf report P -o o
comp 'out-dir' sdperf report P -qo o
comp 'tfile.txt tpl-dir trace.json' sdperf report P --font t
comp 'tfile.txt tpl-dir trace.json' sdperf report t
comp 'trace.json' sdperf check tr
comp 'trace.json' sdperf report -o out-dir -j 2 tr
comp 'trace.json' sdperf --output=out-dir report tr
comp 'trace.json' sdperf --output = out-dir report tr
comp 'report' sdperf --require cpu,export = text re
# after --, no options: a word beginning with - is a PATH
comp '' sdperf report -- --la
comp 'trace.json' sdperf report -- tr

# complete -p: the function is registered for the command
if bash --norc -c '. "$0"; complete -p sdperf' "$COMP" 2>&1 | grep -qx 'complete -F _sdperf sdperf'; then
	ok registered
else
	bad registered "$(bash --norc -c '. "$0"; complete -p sdperf' "$COMP" 2>&1)"
fi

# every option of each command's --help is offered for that command
for cmd in report diff check summarize; do
	want=$("$SDPERF" "$cmd" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort | paste -sd' ')
	comp "$want" sdperf "$cmd" --
done

finish
