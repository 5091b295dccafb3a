#!/usr/bin/env bash
# Renders every example run, every golden input and the diff example with
# two sdperf binaries, in English and Chinese, every format plus the
# terminal summary and the exit code, then compares the two trees byte for
# byte (cmp). For refactorings that must not change any output.
#
#   tools/cmp-outputs.sh OLD_SDPERF NEW_SDPERF [WORKDIR]
#
# Exit 0 when every file is identical; else lists the files that differ.
# SOURCE_DATE_EPOCH fixes the report date and -j 2 the thread count, so
# two runs of one binary give the same bytes.
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
work=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export SOURCE_DATE_EPOCH=1767225600 LC_ALL=C.UTF-8

inputs=()
for d in examples/*/; do
	d=${d%/}
	[ -d "$d/report" ] && inputs+=("$d")
done
while read -r name input _; do
	case $name in '' | '#'*) continue ;; esac
	inputs+=("$input")
done < <(cat tests/golden/cases.txt tests/golden/reports.txt)

render() { # BIN OUT
	local bin=$1 out=$2 i=0 in lang
	mkdir -p "$out"
	for in in "${inputs[@]}"; do
		i=$((i + 1))
		for lang in en zh; do
			local o="$out/$i-$lang"
			# written to one folder for both binaries, then moved: the
			# reports' provenance quotes the command line, -o included
			rm -rf "$work/run"
			set +e
			"$bin" report "$in" -o "$work/run" -j 2 --lang "$lang" \
				>"$o.stdout" 2>"$o.stderr"
			echo $? >"$o.rc"
			[ -d "$work/run" ] && mv "$work/run" "$o"
			"$bin" check "$in" -j 2 >"$o.check" 2>&1
			echo $? >>"$o.rc"
			set -e
		done
	done
	for lang in en zh; do
		set +e
		"$bin" diff examples/image-dit-1card examples/image-dit-1card-tuned \
			-o "$out/diff-$lang" --lang "$lang" -j 2 \
			>"$out/diff-$lang.stdout" 2>"$out/diff-$lang.stderr"
		echo $? >"$out/diff-$lang.rc"
		"$bin" diff examples/image-dit-1card examples/image-dit-1card-tuned \
			--per-step -o "$out/diffstep-$lang" --lang "$lang" -j 2 \
			>"$out/diffstep-$lang.stdout" 2>&1
		set -e
	done
	"$bin" --help >"$out/help" 2>&1 || true
}

rm -rf "$work/old" "$work/new"
render "$old" "$work/old"
render "$new" "$work/new"
# the binaries' own paths appear in nothing; the output folders differ
# only by old/new, which the reports name: normalise that one word
find "$work/new" -type f \( -name '*.stdout' -o -name '*.stderr' -o -name '*.check' \) \
	-exec sed -i "s#$work/new#$work/old#g" {} +
n=$(find "$work/old" -type f | wc -l)
if diff -rq "$work/old" "$work/new"; then
	echo "cmp-outputs: $n files identical ($work)"
else
	echo "cmp-outputs: files differ ($work)" >&2
	exit 1
fi
