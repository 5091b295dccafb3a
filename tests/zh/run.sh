#!/usr/bin/env bash
# The Chinese reports read as Chinese: every format (HTML, Markdown, the
# PDF's text through pdftotext, the terminal summary, the diff) of the
# examples and of a generated 4-card run, checked by check_zh.py (its
# docstring states the rule). The terminal summary is English in every
# language (--lang names the HTML, Markdown and PDF), so only the
# punctuation rule applies to it.
# Usage: tests/zh/run.sh SDPERF SDPERF_GEN
set -uo pipefail
sdperf=$(realpath "$1")
gen=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
mkdir -p "$work/out"
trap 'rm -rf "$work"' EXIT
cd "$root"
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# a generated multi-rank run: 4 cards, all-to-all, one straggler
"$gen" -o "$work/gen4" --ranks 4 --comm alltoall --straggler 1=1.3 \
	--steps 3 --iters 4 --blocks 4 >/dev/null 2>&1 || fail "sdperf-gen"

files=()
for run in examples/image-dit-1card examples/video-dit-4card \
	examples/video-v2v-1card "$work/gen4"; do
	out="$work/out/$(basename "$run")"
	if ! "$sdperf" report "$run" -o "$out" --lang zh -j 2 \
		>"$out.term" 2>"$out.err"; then
		fail "sdperf report $run: $(head -3 "$out.err")"
		continue
	fi
	files+=("$out/report.html" "$out/report.md")
	pdftotext -layout "$out/report.pdf" "$out/report.pdf.txt" 2>/dev/null ||
		fail "pdftotext $out/report.pdf"
	files+=("$out/report.pdf.txt")
done
# diffs: two 1-card runs, and a 4-card run against a generated 4-card one
pairs=("examples/image-dit-1card examples/image-dit-1card-tuned"
	"examples/video-dit-4card $work/gen4")
for i in 0 1; do
	out="$work/out/diff$i"
	# shellcheck disable=SC2086 # a pair of paths without spaces
	if "$sdperf" diff ${pairs[$i]} -o "$out" --lang zh \
		>"$out.term" 2>"$out.err"; then
		pdftotext -layout "$out/diff.pdf" "$out/diff.pdf.txt" 2>/dev/null ||
			fail "pdftotext $out/diff.pdf"
		files+=("$out/diff.html" "$out/diff.md" "$out/diff.pdf.txt")
	else
		fail "sdperf diff ${pairs[$i]}: $(head -3 "$out.err")"
	fi
done

echo "== ${#files[@]} Chinese reports"
python3 "$here/check_zh.py" "${files[@]}" || fail "Chinese reports"
echo "== terminal summaries (English: punctuation only)"
python3 "$here/check_zh.py" --no-labels "$work"/out/*.term ||
	fail "terminal summaries"

echo "== the checker finds what it must (self-test)"
printf '%s\n' '<p>重叠:重新选择(首选</p>' >"$work/bad.html"
printf '%s\n' '- 设备时间线 1,454 个 ProfilerStep' >"$work/ok.md"
printf '%s\n' '只找到 2 个 step' >"$work/bad-label.txt"
printf '%s\n' '<p><code>a(中)</code> 1,454 中文</p>' >"$work/ok.html"
python3 "$here/check_zh.py" "$work/bad.html" >/dev/null &&
	fail "self-test: half-width punctuation not found"
python3 "$here/check_zh.py" "$work/bad-label.txt" >/dev/null &&
	fail "self-test: untranslated label not found"
python3 "$here/check_zh.py" "$work/ok.md" "$work/ok.html" ||
	fail "self-test: a number or code flagged"
[ $status = 0 ] && echo "PASS"
exit $status
