# Text (issue 11, defects 5 and 6): strings from the data and the file
# system never reach a terminal raw, every output is valid UTF-8, and a
# lone UTF-16 surrogate escape in JSON input reads as U+FFFD instead of
# failing the run.
"$GEN" -o base --steps 2 --iters 2 --blocks 2 --ranks 2 --comm alltoall \
	--markers --lf --no-truth 2>/dev/null

# no_raw_controls NAME FILE: FILE holds no ESC, BEL or CSI (C1) byte
no_raw_controls() {
	if LC_ALL=C grep -q $'[\x07\x1b\x9b]' "$2"; then
		bad "$1" "raw control bytes in $(basename "$2")" \
			"$(LC_ALL=C grep -a $'[\x07\x1b\x9b]' "$2" | head -n 2 | od -c | head -n 4)"
	else
		ok "$1: no raw control byte in $(basename "$2")"
	fi
}
# strict_utf8 NAME FILE...: each FILE is valid UTF-8 (.json: valid JSON)
strict_utf8() {
	local name=$1 f why
	shift
	for f in "$@"; do
		why=$(python3 - "$f" <<'EOF' 2>&1
import json, sys
p = sys.argv[1]
text = open(p, 'rb').read().decode('utf-8')  # strict: raises on bad bytes
if p.endswith('.json'):
    json.loads(text)
EOF
		) || { bad "$name" "$(basename "$f") is not valid: $why"; return; }
	done
	ok "$name: $# files valid UTF-8"
}
# has_marker REPORT.json NAME: some rank lists a stage marker NAME
has_marker() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1], encoding='utf-8'))
names = [m['name'] for x in r['ranks'] for m in x.get('markers', [])]
sys.exit(0 if sys.argv[2] in names else 1)
EOF
}
# mangle DIR PY...: runs python on the profile copy DIR (bytes paths)
mangle() {
	local dir=$1
	shift
	python3 - "$dir" "$@"
}

# --- terminal escapes in a folder name, in an error message ---------
d=$'\e]0;PWNED\a\e[2J'x_ascend_pt
mkdir -p "$d/ASCEND_PROFILER_OUTPUT"
bounded term_error_folder 3 200 30 '\x1B]0;PWNED\x07\x1B[2Jx_ascend_pt' -- \
	"$SDPERF" report "$d" -o out_err
no_raw_controls term_error_folder "$T/term_error_folder.err"

# --- terminal escapes in a rules file's verdict title, on stdout ------
cat >rules.json <<'EOF'
{"extends": "builtin",
 "thresholds": [{"id": "matmul_quant", "stage": "dit", "metric": "category_share",
   "category": "MatMul", "above": 1, "title": "MatMul \u001b]0;PWNED\u0007\u001b[2J\u009b2J",
   "recommendation": "r", "docs": ["quantization"]}]}
EOF
bounded term_stdout 0 200 30 '' -- "$SDPERF" report base -o out_rules --rules rules.json
no_raw_controls term_stdout "$T/term_stdout.out"
grep -qF 'MatMul \x1B]0;PWNED\x07\x1B[2J\xC2\x9B2J' "$T/term_stdout.out" &&
	ok "term_stdout: the title is shown escaped" ||
	bad term_stdout "the escaped title is missing" "$(grep -a MatMul "$T/term_stdout.out" | head -n 3)"

# --- bytes that are not UTF-8: a folder name, profiler_info -----------
cp -r base utf8
mv utf8/synth-node_1000_* "utf8/bad"$'\xff\xfe\e[31m'"_ascend_pt"
mangle utf8 <<'EOF'
import glob, os, sys
d = os.fsencode(sys.argv[1])
for p in glob.glob(d + b'/*/profiler_info_*.json'):
    t = open(p, 'rb').read().replace(b'"9.0.0"', b'"9.0\xff\xc3(\x1b[2J"')
    open(p, 'wb').write(t)
for p in glob.glob(d + b'/*/ASCEND_PROFILER_OUTPUT/trace_view.json'):
    t = open(p, 'rb').read()
    t = t.replace(b'"name": "vae", "pid"', b'"name": "vae_\xff\xfe", "pid"', 1)
    open(p, 'wb').write(t)
EOF
bounded utf8_report 0 200 30 '' -- "$SDPERF" report utf8 -o out_utf8
strict_utf8 utf8_report out_utf8/report.json out_utf8/report.html out_utf8/report.md
no_raw_controls utf8_report "$T/utf8_report.out"
has_marker out_utf8/report.json $'vae_\ufffd\ufffd' &&
	ok "utf8_report: the marker name kept, bad bytes as U+FFFD" ||
	bad utf8_report "marker name vae_<FFFD><FFFD> not in report.json"
# the PDF's text layer: pdftotext writes UTF-8; it must decode
pdftotext out_utf8/report.pdf out_utf8/report.pdf.txt 2>/dev/null
strict_utf8 utf8_report_pdf out_utf8/report.pdf.txt
# the comparison reports of the same profile (report.json read back)
bounded utf8_diff 0 200 30 '' -- "$SDPERF" diff out_utf8/report.json utf8 -o out_diff -q
strict_utf8 utf8_diff out_diff/diff.json out_diff/diff.html out_diff/diff.md

# --- lone surrogates in JSON input ------------------------------------
# each a separate case, so that each reader is seen to take it
cp -r base sur_trace
mangle sur_trace <<'EOF'
import glob, os, sys
d = os.fsencode(sys.argv[1])
for p in glob.glob(d + b'/*/ASCEND_PROFILER_OUTPUT/trace_view.json'):
    t = open(p, 'rb').read()
    t = t.replace(b'"name": "vae", "pid"', b'"name": "vae_\\ud800", "pid"', 1)
    open(p, 'wb').write(t)
EOF
bounded surrogate_trace 0 200 30 '' -- "$SDPERF" report sur_trace -o out_st -q -f json
has_marker out_st/report.json $'vae_\ufffd' &&
	ok "surrogate_trace: marker vae_<U+FFFD> kept" ||
	bad surrogate_trace "marker vae_<U+FFFD> not in report.json"

cp -r base sur_comm
mangle sur_comm <<'EOF'
import glob, os, sys
d = os.fsencode(sys.argv[1])
for p in glob.glob(d + b'/*/ASCEND_PROFILER_OUTPUT/communication.json'):
    t = open(p, 'rb').read().replace(b'"hcom_alltoall_', b'"\\udc00hcom_alltoall_', 1)
    open(p, 'wb').write(t)
EOF
bounded surrogate_comm 0 200 30 '' -- "$SDPERF" report sur_comm -o out_sc -q -f json

cp -r base sur_info
mangle sur_info <<'EOF'
import glob, os, sys
d = os.fsencode(sys.argv[1])
for p in glob.glob(d + b'/*/profiler_info_*.json'):
    t = open(p, 'rb').read().replace(b'"9.0.0"', b'"9.0\\ud801"')
    open(p, 'wb').write(t)
EOF
bounded surrogate_profinfo 0 200 30 '' -- "$SDPERF" report sur_info -o out_si -q -f json
python3 - out_si/report.json <<'EOF' && ok "surrogate_profinfo: cann_version read as 9.0<U+FFFD>" || bad surrogate_profinfo "cann_version lost"
import json, sys
r = json.load(open(sys.argv[1], encoding='utf-8'))
sys.exit(0 if all(x['cann_version'] == '9.0\ufffd' for x in r['ranks']) else 1)
EOF

# a report.json given to check / diff
"$SDPERF" report base -o out_base -q -f json
sed 's/"type":\t"MatMulV3"/"type":\t"MatMul\\ud800V3"/' out_base/report.json >sur_report.json
grep -q 'ud800' sur_report.json || bad surrogate_snapshot "the test did not plant the surrogate"
bounded surrogate_snapshot 0 200 30 '' -- "$SDPERF" check sur_report.json --no-verdicts
bounded surrogate_snapshot_diff 0 200 30 '' -- \
	"$SDPERF" diff sur_report.json out_base/report.json -o out_sd -q -f json
strict_utf8 surrogate_snapshot_diff out_sd/diff.json

# a user's report.css (inserted as it is) with bytes that are not UTF-8
mkdir css_bad && printf 'body { color: red; } /* \xff\xfe */\n' >css_bad/report.css
bounded utf8_user_css 0 200 30 '' -- "$SDPERF" report base -o out_css -q -f html --templates css_bad
strict_utf8 utf8_user_css out_css/report.html
