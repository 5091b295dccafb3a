#!/usr/bin/env bash
# The Markdown reports rendered by a real CommonMark/GFM renderer
# (cmark-gfm, from tools/setup.sh test) and read raw: the examples' report
# and diff in English and Chinese, and a profile of hostile kernel names
# (tests/data/hostile plus names with newlines, block markers, entities
# and backslashes). check_md.py says what is checked.
# Usage: tests/md/run.sh SDPERF
set -euo pipefail
sdperf=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cmark=$(command -v cmark-gfm) || {
	echo "cmark-gfm is missing: run tools/setup.sh test" >&2
	exit 1
}
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; echo "work: $work"
cd "$root"
status=0
check() {
	python3 "$here/check_md.py" "$cmark" "$@" || status=1
}

for lang in en zh; do
	"$sdperf" report examples/image-dit-1card -o "$work/img-$lang" -f md -l "$lang" -q
	check "$work/img-$lang/report.md"
	"$sdperf" report examples/video-dit-4card -o "$work/v4-$lang" -f md -l "$lang" -q -j 2
	check "$work/v4-$lang/report.md"
	"$sdperf" diff examples/image-dit-1card examples/image-dit-1card-tuned \
		-o "$work/diff-$lang" -f md -l "$lang" -q
	check "$work/diff-$lang/diff.md"
done

# hostile names: the fixture's, and more with markup only at a line's start
# or with a newline inside; the same kernels in base and new for the diff
mkdir -p "$work/hostile" "$work/hostile2"
hostile() {
python3 - "$root/tests/data/hostile/kernel_details.csv" "$1" "$2" <<'PY'
import csv, sys
src, dst, dur = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.reader(open(src, newline='', encoding='utf-8')))
extra = ['# heading', '> quote', '- item', '+ plus', '1. first', '2) second',
         '&amp; &#60;b&#62;', 'back\\slash\\', 'end\\', '~~strike~~',
         'line\nbreak <b>', '|a|b|', '=== under', '__init__', '<!-- x -->',
         'x_ _lead and trail_ y_', 'a~b~c', 'https://x.example/a_b_']
out = [rows[0]]
for r in rows[1:]:
    out.append(r)
    if r[2] == 'FlashAttentionScore':  # one set per step, after its last row
        start = float(r[4]) + 500
        for i, name in enumerate(extra):
            out.append([r[0], name, name, 'AI_CORE', f'{start + 10 * i:.3f}',
                        dur, '0', '8'])
with open(dst, 'w', newline='', encoding='utf-8') as f:
    csv.writer(f).writerows(out)
PY
}
# the diff's new run: the added names take longer, so its tables list them
hostile "$work/hostile/kernel_details.csv" 5.5
hostile "$work/hostile2/kernel_details.csv" 7.5
expect=(--expect-text '<script>alert(1)</script>' --expect-text "a\"b'c&d|e"
	--expect-text '*bold*_u_`tick`' --expect-text '[x](javascript:alert(1))'
	--expect-text '# heading' --expect-text '> quote' --expect-text '- item'
	--expect-text '1. first' --expect-text '2) second'
	--expect-text '&amp; &#60;b&#62;' --expect-text 'back\slash\'
	--expect-text 'end\' --expect-text '~~strike~~' --expect-text '|a|b|'
	--expect-text '=== under' --expect-text '__init__' --expect-text '<!-- x -->'
	--expect-text 'x_ _lead and trail_ y_' --expect-text 'a~b~c'
	--expect-text 'https://x.example/a_b_'
	--expect-text 'line\x0Abreak <b>')
for lang in en zh; do
	"$sdperf" report "$work/hostile" -o "$work/h-$lang" -f md -l "$lang" -q
	check "$work/h-$lang/report.md" "${expect[@]}"
	"$sdperf" diff "$work/hostile" "$work/hostile2" -o "$work/hd-$lang" -f md -l "$lang" -q
	check "$work/hd-$lang/diff.md" --expect-text '# heading' --expect-text '1. first' \
		--expect-text '<!-- x -->' --expect-text 'x_ _lead and trail_ y_' --expect-text '&amp; &#60;b&#62;'
done
exit $status
