#!/usr/bin/env bash
# End-to-end tests of the sdperf binary: exit codes, error messages naming
# file/line/column/value, atomic report writing, options that change results.
# Usage: tests/cli/cli_test.sh SDPERF_BINARY
SDPERF=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

# expect NAME RC 'stderr substring' -- sdperf args...
expect() {
	local name=$1 rc=$2 msg=$3 got
	shift 4
	"$SDPERF" "$@" >"$T/.stdout" 2>"$T/.stderr"
	got=$?
	if [ "$got" -ne "$rc" ]; then
		bad "$name" "exit $got, expected $rc" "$(head -3 "$T/.stderr")"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/.stderr"; then
		bad "$name" "stderr lacks: $msg" "got: $(head -3 "$T/.stderr")"
	else
		ok "$name"
	fi
}

crlf() { printf '%s\r\n' "$@"; }
HDR='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
ROW1='3,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1767225600000000.000	,100.5,0,20'
ROW2='3,aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore,FlashAttentionScore,MIX_AIC,1767225600000200.000	,50.25,0,20'

# --- basics
expect version 0 "" -- --version
grep -q '^sdperf [0-9]' "$T/.stdout" && ok version_text || bad version_text "$(cat "$T/.stdout")"
# the commit built, never a stale one (the build asks git every time):
# this tree's HEAD, or "unknown" when it is not a git work tree
commit=$(sed -n '2s/^commit \([^ ]*\).*/\1/p' "$T/.stdout")
top=$(git -c safe.directory="$ROOT" -C "$ROOT" rev-parse --show-toplevel 2>/dev/null)
head=unknown
if [ -n "$top" ] && [ "$(realpath "$top")" = "$ROOT" ]; then
	head=$(git -c safe.directory="$ROOT" -C "$ROOT" log -1 --abbrev=12 --format=%h)
fi
case "$commit" in
"$head" | "$head-dirty") ok "version_commit $commit" ;;
*) bad version_commit "sdperf --version says commit '$commit', the tree is at $head (rebuild?)" ;;
esac
# each library: compiled with the headers of its Debian -dev package,
# running with the same version ('-': libcsv cannot tell)
while read -r lib pkg; do
	line=$(grep "^$lib " "$T/.stdout")
	read -r _ built running <<<"$line"
	deb=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null | sed 's/^[0-9]*://')
	if ! [[ "$built" =~ ^[0-9]+(\.[0-9]+)+$ ]]; then
		bad "version_$lib" "no compiled version: '$line'"
	elif [ -n "$deb" ] && [ "${deb#"$built"}" = "$deb" ]; then
		bad "version_$lib" "compiled $built, but $pkg is $deb"
	elif [ "$running" != "$built" ] && ! { [ "$lib" = libcsv ] && [ "$running" = - ]; }; then
		bad "version_$lib" "compiled $built, running '$running'"
	else
		ok "version_$lib $built/$running"
	fi
done <<'LIBS'
cJSON libcjson-dev
libcsv libcsv-dev
libharu libhpdf-dev
SQLite libsqlite3-dev
zlib zlib1g-dev
LIBS
expect help 0 "" -- --help
grep -q 'exit codes' "$T/.stdout" && ok help_text || bad help_text
expect no_command 2 "no command given" --
expect unknown_option 2 "unknown option '--bogus'" -- --bogus
expect unknown_command 2 "unknown command 'rport'" -- rport x
expect no_path 2 "report: no PATH given" -- report
expect bad_format 2 "unknown or unavailable format 'docx' (available: html, pdf, md, json, fragment)" -- report x --format docx
expect missing_path 3 "nope: no such file or folder" -- report nope

# --- a good file, then what each option does
crlf "$HDR" "$ROW1" "$ROW2" >good.csv
expect good 0 "" -- report good.csv -o out
[ -f out/report.json ] && ok good_writes_json || bad good_writes_json
grep -q 'whole profile ' "$T/.stdout" && grep -q 'verdicts:' "$T/.stdout" && ok good_summary || bad good_summary "$(cat "$T/.stdout")"
python3 - out/report.json <<'PY' && ok good_json_values || bad good_json_values
import json, sys
d = json.load(open(sys.argv[1]))
# two kernels are no denoising loop: one stage, the whole profile
assert d["workload"]["kind"] == "unknown" and not d["workload"]["stage_split"], d["workload"]
st = d["stages"]["other"]
assert d["schema_version"] == 1
assert st["kernels"] == 2, st
assert abs(st["kernel_time_us"] - 150.75) < 1e-9, st["kernel_time_us"]
assert st["categories"]["MatMul"]["time_us"] == 100.5
assert st["categories"]["FA"]["time_us"] == 50.25
v = {x["id"]: x for x in d["verdicts"]}
assert v["matmul_quant"]["fired"] and v["fa_quant_sparse"]["fired"]
assert not v["vector_fusion"]["fired"]
PY
expect quiet 0 "" -- report good.csv -o outq -q
[ ! -s "$T/.stdout" ] && ok quiet_no_stdout || bad quiet_no_stdout
expect threshold_override 0 "" -- report good.csv -o out2 -q --threshold matmul_quant=70 -t fa_quant_sparse=40%
python3 -c "
import json; v={x['id']:x for x in json.load(open('out2/report.json'))['verdicts']}
assert not v['matmul_quant']['fired'] and v['matmul_quant']['threshold_pct']==70
assert not v['fa_quant_sparse']['fired'] and v['fa_quant_sparse']['threshold_pct']==40
" && ok threshold_changes_verdict || bad threshold_changes_verdict
expect threshold_unknown 2 "--threshold 'foo=1': unknown name" -- report good.csv -o o3 -t foo=1
expect threshold_value 2 "expected a percentage from 0 to 100" -- report good.csv -o o3 -t matmul_quant=120

# --- the templated reports
expect all_formats 0 "" -- report good.csv -o f1
[ -s f1/report.json ] && [ -s f1/report.html ] && [ -s f1/report.md ] && [ -s f1/report.pdf ] && ok all_formats_written || bad all_formats_written "$(ls f1)"
grep -q "^wrote f1/report.html$" "$T/.stdout" && grep -q "^wrote f1/report.md$" "$T/.stdout" && ok prints_written_paths || bad prints_written_paths "$(tail -4 "$T/.stdout")"
[ ! -e f1/report.fragment.html ] && ok fragment_not_by_default || bad fragment_not_by_default "$(ls f1)"
expect fragment 0 "" -- report good.csv -o f1f -f fragment,json
[ -s f1f/report.fragment.html ] && [ -s f1f/report.json ] && [ ! -e f1f/report.html ] &&
	grep -q "^wrote f1f/report.fragment.html$" "$T/.stdout" && ok fragment_written || bad fragment_written "$(ls f1f)"
expect fragment_custom_template 3 "report.html.tmpl: renders a page, not a wiki fragment" -- report good.csv -o f1g -f fragment --templates "$ROOT/examples/custom-template"
[ ! -e f1g ] && ok fragment_error_writes_nothing || bad fragment_error_writes_nothing "$(ls f1g)"
expect md_only 0 "" -- report good.csv -o f2 --format md -q
[ -s f2/report.md ] && [ ! -e f2/report.html ] && [ ! -e f2/report.json ] && ok md_only_written || bad md_only_written "$(ls f2)"
expect title_lang 0 "" -- report good.csv -o f3 --format html --title 'Flux <nightly> & co' --lang zh -q
grep -q '<title>Flux &lt;nightly&gt; &amp; co</title>' f3/report.html && grep -q '<html lang="zh">' f3/report.html && ok title_and_lang || bad title_and_lang
expect docs_base 0 "" -- report good.csv -o f4 --format md --docs-base https://mirror.example/MindIE-SD -q
grep -q '(https://mirror.example/MindIE-SD/blob/master/docs/en/features/sparse.md)' f4/report.md && ok docs_base_used || bad docs_base_used
expect bad_lang 2 "--lang 'fr': no such language (available: en, zh)" -- report good.csv -o f5 --lang fr
mkdir tpl && printf 'Kernels: <TMPL_VAR kernels fmt="int">\n' >tpl/report.md.tmpl
expect user_template 0 "" -- report good.csv -o f6 --templates tpl --format md,html -q
[ "$(cat f6/report.md)" = "Kernels: 2" ] && grep -q 'verdict-card' f6/report.html && ok user_template_overrides_builtin_only || bad user_template_overrides_builtin_only "$(head -3 f6/report.md)"
mkdir tplbad && printf 'line one\n  <TMPL_IF kernels>\n<TMPL_FOO>\n' >tplbad/report.md.tmpl
expect user_template_error 3 "report.md.tmpl:3:1: unknown tag 'TMPL_FOO'" -- report good.csv -o f7 --templates tplbad
[ ! -e f7 ] && ok template_error_writes_nothing || bad template_error_writes_nothing "$(ls f7)"

# a --font is an option value: checked before the profile is read (exit 2)
expect font_missing 2 "sdperf: --font 'nope.ttf': no such file" -- report good.csv -o f8 --format pdf --font nope.ttf
[ ! -e f8 ] && ok font_error_writes_nothing || bad font_error_writes_nothing

# --- progress: on stderr only when it is a terminal, never with --quiet
if command -v script >/dev/null; then
	script -qec "'$SDPERF' report good.csv -o pt1 >/dev/null" /dev/null >tty.txt 2>&1
	grep -q 'reading kernel_details.csv.*MB/s' tty.txt && ok progress_on_tty || bad progress_on_tty "$(od -c tty.txt | head -3)"
	script -qec "'$SDPERF' report good.csv -o pt2 --quiet" /dev/null >ttyq.txt 2>&1
	[ ! -s ttyq.txt ] && ok progress_quiet_on_tty || bad progress_quiet_on_tty "$(od -c ttyq.txt | head -3)"
fi
"$SDPERF" report good.csv -o pt3 >/dev/null 2>notty.txt
[ ! -s notty.txt ] && ok no_progress_without_tty || bad no_progress_without_tty "$(head -2 notty.txt)"

# --- rules files
printf '{"extends":"builtin","classify":[{"category":"Vector","types":["MatMulV3"]}]}' >ext.json
expect rules_extend 0 "" -- report good.csv -o o4 -q --rules ext.json
python3 -c "
import json; d=json.load(open('o4/report.json'))
assert d['stages']['other']['categories']['Vector']['time_us']==100.5, d['stages']['other']['categories']
assert d['rules']['source']=='ext.json + built-in', d['rules']
" && ok rules_extend_wins || bad rules_extend_wins
printf '{"extends": "builtin", "classify": [\n  {"category": "Bogus", "types": ["x"]}]}' >badcat.json
expect rules_bad_json_path 3 "badcat.json: 'classify[0].category': unknown category 'Bogus'" -- report good.csv -o o5 --rules badcat.json
printf '{\n  "classify": [,]\n}' >syntax.json
expect rules_syntax 3 "syntax.json:2:16: invalid JSON near" -- report good.csv -o o5 --rules syntax.json
[ ! -e o5 ] && ok rules_error_writes_nothing || bad rules_error_writes_nothing

# --- bad inputs: exit 3, message names file:line, column and value, no report
: >empty.csv
expect empty_file 3 "empty.csv: empty file" -- report empty.csv -o e1
crlf "$HDR" >hdr.csv
expect header_only 3 "hdr.csv:1: header only: no kernel rows" -- report hdr.csv -o e1
crlf 'Step Id,Name,Type,Start Time(us),Wait Time(us)' "$ROW1" >nocol.csv
expect missing_column 3 "nocol.csv:1: missing required column 'Duration(us)'" -- report nocol.csv -o e1
head -c 300 /dev/urandom | tr -d ',\n\r' | { printf '\x00\xff\xfe'; cat; } >garbage.csv
expect binary 3 "garbage.csv:1: column 1: not a CSV text header (binary data?)" -- report garbage.csv -o e1
crlf "$HDR" "$ROW1" '3,"Mul,Mul,AI_CORE,1767225600000300.000,1,0,1' >unterm.csv
expect unterminated_quote 3 "unterm.csv:3: column 2 'Name': unterminated quoted field: 'Mul,Mul,AI_CORE" -- report unterm.csv -o e1
crlf "$HDR" "$ROW1" '3,Mu"l,Mul,AI_CORE,1767225600000300.000,1,0,1' >stray.csv
expect stray_quote 3 "stray.csv:3: column 2 'Name': malformed quoting" -- report stray.csv -o e1
crlf "$HDR" "$ROW1" '3,Add,Add,AI_VECTOR_CORE,1767225600000300.000,abc,0,1' "$ROW2" >nan.csv
expect bad_duration_skipped 0 "" -- report nan.csv -o n1
python3 -c "
import json; d=json.load(open('n1/report.json')); w=[x for x in d['warnings'] if x['code']=='skipped_row']
assert d['inputs'][0]['skipped_rows']==1 and d['profile']['kernels']==2
assert w[0]['line']==3 and w[0]['message']==\"column 6 'Duration(us)': not a number: 'abc'\", w
" && ok bad_duration_warning || bad bad_duration_warning "$(cat n1/report.json | head -50)"
expect strict_bad_duration 3 "nan.csv:3: column 6 'Duration(us)': not a number: 'abc' (--strict)" -- report nan.csv -o n2 --strict
[ ! -e n2/report.json ] && ok strict_writes_nothing || bad strict_writes_nothing
crlf "$HDR" "$ROW1" '3,Add,Add' "" "$ROW2" >short.csv
expect short_row_skipped 0 "" -- report short.csv -o s1
python3 -c "
import json; d=json.load(open('s1/report.json')); w=[x for x in d['warnings'] if x['code']=='skipped_row']
assert w[0]['line']==3 and w[0]['message']=='row has 3 fields, header has 8', w
" && ok short_row_warning || bad short_row_warning

# --- output errors: exit 4, nothing half-written
touch afile
expect outdir_is_file 4 "afile" -- report good.csv -o afile/sub
mkdir ro && chmod 555 ro
if [ "$(id -u)" -ne 0 ]; then
	expect outdir_readonly 4 "cannot create" -- report good.csv -o ro
fi
ls -A out | grep -q '\.tmp\.' && bad no_temp_files_left || ok no_temp_files_left

# --- the real shapes of PATH
mkdir -p r/host_1_20260101000000000_ascend_pt/ASCEND_PROFILER_OUTPUT
cp good.csv r/host_1_20260101000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
expect rank_dir 0 "" -- report r/host_1_20260101000000000_ascend_pt -o p1 -q
expect output_dir 0 "" -- report r/host_1_20260101000000000_ascend_pt/ASCEND_PROFILER_OUTPUT -o p2 -q
expect parent_one_rank 0 "" -- report r -o p3 -q
cp -r r/host_1_20260101000000000_ascend_pt r/host_2_20260101000000000_ascend_pt
expect parent_two_ranks 0 "" -- report r -o p4 -q -f json
python3 - p4/report.json <<'PY' && ok parent_two_ranks_json || bad parent_two_ranks_json
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"]
assert [x["id"] for x in r] == [0, 1], r
assert [x["id_source"] for x in r] == ["order", "order"], r
assert r[0]["dir"].endswith("host_1_20260101000000000_ascend_pt"), r[0]["dir"]
# two identical ranks: every kernel time doubles, every share stays
assert d["stages"]["other"]["kernels"] == 4, d["stages"]["other"]
assert abs(d["stages"]["other"]["kernel_time_us"] - 301.5) < 1e-9
codes = sorted({w["code"] for w in d["warnings"]})
assert "missing_file" in codes, codes
PY
# several PATHs are one run; rank ids from folder names and profiler_info
mkdir -p m/rank3_ascend_pt/ASCEND_PROFILER_OUTPUT m/x_ascend_pt/ASCEND_PROFILER_OUTPUT
cp good.csv m/rank3_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
gzip -c good.csv >m/x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz
printf '{"rank_id": 1, "torch_npu_version": "2.6.0", "cann_version": "8.2.RC1"}' >m/x_ascend_pt/profiler_info_1.json
expect several_paths 0 "" -- report m/rank3_ascend_pt m/x_ascend_pt -o p6 -q -f json -j 2
python3 - p6/report.json <<'PY' && ok several_paths_json || bad several_paths_json
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"]
assert [(x["id"], x["id_source"]) for x in r] == [(1, "profiler_info"), (3, "folder")], r
assert r[0]["torch_npu_version"] == "2.6.0" and r[0]["cann_version"] == "8.2.RC1"
assert r[0]["files"]["kernel_details.csv"].endswith("kernel_details.csv.gz")
# the gzipped rank reads the same kernels as the plain one
assert r[0]["kernels"] == r[1]["kernels"] == 2, r
PY
printf 'not gzip at all' | gzip -c | head -c 20 >m/x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz
expect truncated_gz 3 "kernel_details.csv.gz: byte" -- report m/x_ascend_pt -o p7
[ -e p7 ] && bad truncated_gz_no_output || ok truncated_gz_no_output
printf '{"rank_id": 3}' >m/x_ascend_pt/profiler_info_1.json
gzip -c good.csv >m/x_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz
expect duplicate_rank 0 "" -- report m -o p8 -q -f json
python3 - p8/report.json <<'PY' && ok duplicate_rank_json || bad duplicate_rank_json
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(x["id"] for x in d["ranks"]) == [0, 3], d["ranks"]
assert any(w["code"] == "duplicate_rank" for w in d["warnings"]), d["warnings"]
PY
printf '{"rank_id": 3,' >m/x_ascend_pt/profiler_info_1.json
expect bad_profiler_info 0 "" -- report m/x_ascend_pt -o p9 -q -f json
python3 - p9/report.json <<'PY' && ok bad_profiler_info_json || bad bad_profiler_info_json
import json, sys
d = json.load(open(sys.argv[1]))
w = [w for w in d["warnings"] if w["code"] == "bad_profiler_info"]
assert w and "profiler_info_1.json:1:15: invalid JSON near" in w[0]["message"], d["warnings"]
# the id then comes from the file name profiler_info_1.json
assert (d["ranks"][0]["id"], d["ranks"][0]["id_source"]) == (1, "profiler_info"), d["ranks"][0]
PY
expect bad_jobs 2 "--jobs: expected a whole number" -- report m -j 0
# step_trace_time.csv: a slow first step is a warm-up, left out of Free
mkdir -p w/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
cp good.csv w/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
{
	crlf 'Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing'
	crlf '1,2500.0,0,0,0,500.0,3000.0,0,0,10.5' '2,800,100,0,100,100,1000,0,100,10' \
		'3,840,100,0,100,100,1040,0,100,10' '4,780,100,0,100,100,980,0,100,10'
} >w/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
expect warmup_step 0 "" -- report w -o p10 -q -f json
python3 - p10/report.json <<'PY' && ok warmup_step_json || bad warmup_step_json
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
assert [s["flag"] for s in r["steps"]] == ["warmup", None, None, None], r["steps"]
w = [w for w in d["warnings"] if w["code"] == "warmup_step"]
assert len(w) == 1 and "3.0 times the median" in w[0]["message"], d["warnings"]
# Free 300 of 3020 us in steps 2-4
assert abs(r["free_share_pct"] - 9.934) < 0.001, r["free_share_pct"]
v = [v for v in d["verdicts"] if v["id"] == "host_bound"][0]
assert v["applicable"] and not v["fired"] and abs(v["value_pct"] - 9.934) < 0.001, v
PY
expect host_bound_threshold 0 "" -- report w -o p11 -q -f json -t host_bound=5
python3 -c "
import json; d = json.load(open('p11/report.json'))
assert [v for v in d['verdicts'] if v['id'] == 'host_bound'][0]['fired']
" && ok host_bound_fires || bad host_bound_fires
mkdir -p dbonly/ASCEND_PROFILER_OUTPUT
expect db_only 3 "no kernel_details.csv in its ASCEND_PROFILER_OUTPUT folder" -- report dbonly -o p5

# --- a lone trace_view.json (MindIE-SD's guide: prof.export_chrome_trace)
AL=$ROOT/tests/data/samples/msinsight-alexnet-2rank-2024
gzip -dc "$AL/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz" >my_trace.json
expect trace_alone 0 "" -- report my_trace.json -o t1 -f json
python3 - t1/report.json <<'PY' && ok trace_alone_json || bad trace_alone_json
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
assert len(d["ranks"]) == 1 and r["kernel_source"] == "trace_view", r
assert r["kernels"] == 349 and d["profile"]["steps"]["ids"] == [50], r
# AlexNet training (backward kernels): one stage, the training step
assert d["workload"]["kind"] == "training", d["workload"]
assert abs(d["stages"]["other"]["kernel_time_us"] - 45446.127) < 1e-9
assert d["inputs"][0]["role"] == "trace_view" and d["inputs"][0]["subtasks"] == 1404
assert r["steps_source"] == "overlap_analysis" and r["free_share_pct"] is not None
assert not any(w["code"] == "no_steps" for w in d["warnings"]), d["warnings"]
PY
grep -q "kernels from the trace" "$T/.stdout" || grep -q "349 kernels" "$T/.stdout" && ok trace_alone_summary || bad trace_alone_summary "$(head -5 "$T/.stdout")"
# the same numbers as the CSV set: a diff shows no change; check reads it
expect trace_vs_csv 0 "" -- diff "$AL/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" my_trace.json -o t2 -f json -q
python3 -c "
import json; d = json.load(open('t2/diff.json'))
st = d['stages']['dit']
assert st['kernel_time_us']['delta'] == 0 and st['wall_time_us']['delta'] == 0, st
assert st['exposed_comm_us']['delta'] == 0 and not d['warnings'], d['warnings']
" && ok trace_vs_csv_no_delta || bad trace_vs_csv_no_delta "$(head -c 600 t2/diff.json)"
expect trace_check 1 "1 of 5 checks failed" -- check my_trace.json
grep -q "FAIL verdict comm_overlap fired" "$T/.stdout" && ok trace_check_names_verdict || bad trace_check_names_verdict "$(cat "$T/.stdout")"
expect trace_check_json 0 "" -- check t1/report.json --no-verdicts
# a trace with no device kernels: an input error that says so, nothing written
printf '%s' '[{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":"1.0","dur":5,"cat":"cpu_op"}]' >cpu_only.json
expect trace_cpu_only 3 "cpu_only.json: no Ascend Hardware kernel events" -- report cpu_only.json -o t3
[ ! -e t3 ] && ok trace_cpu_only_writes_nothing || bad trace_cpu_only_writes_nothing "$(ls t3)"
# a cut trace: the kernels before the cut and the truncation warning
head -c 800000 my_trace.json >cut_trace.json
expect trace_cut 0 "" -- report cut_trace.json -o t4 -f json -q
python3 - t4/report.json <<'PY' && ok trace_cut_json || bad trace_cut_json
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
assert r["trace"]["truncated"] and 0 < r["kernels"] < 349, r["kernels"]
assert any(w["code"] == "trace_truncated" for w in d["warnings"])
PY
printf '[{"ph":"X", garbage}]' >garbage_trace.json
expect trace_garbage 3 "garbage_trace.json: byte" -- report garbage_trace.json -o t5
[ ! -e t5 ] && ok trace_garbage_writes_nothing || bad trace_garbage_writes_nothing
# a JSON file that is no trace is named as such, not read as a CSV
printf '{"rank_id": 0}' >not_a_trace.json
expect json_not_trace 3 "not_a_trace.json: a JSON file but no trace_view.json" -- report not_a_trace.json -o t6
# a folder holding only a trace is one rank; a folder of traces is one run,
# ids from the file names; Level1 traces carry their rank (given in reverse)
mkdir -p onlytrace tdir
cp "$AL/level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz" onlytrace/
cp "$AL/level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz" tdir/trace_view_1.json.gz
cp my_trace.json tdir/rank0.json
expect trace_folder 0 "" -- report onlytrace -o t7 -f json -q
expect trace_files_folder 0 "" -- report tdir -o t8 -f json -q
L1=$AL/level1
expect trace_ids 0 "" -- report "$L1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz" "$L1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz" -o t9 -f json -q
python3 - t7/report.json t8/report.json t9/report.json <<'PY' && ok trace_folders_and_ids || bad trace_folders_and_ids
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
assert [r["kernel_source"] for r in a["ranks"]] == ["trace_view"], a["ranks"]
assert a["ranks"][0]["files"]["trace_view.json"].endswith("onlytrace/trace_view.json.gz")
assert [(r["id"], r["id_source"]) for r in b["ranks"]] == [(0, "file_name"), (1, "file_name")], b["ranks"]
assert b["ranks"][0]["dir"].endswith("tdir/rank0.json")
assert [(r["id"], r["id_source"]) for r in c["ranks"]] == [(0, "trace"), (1, "trace")], c["ranks"]
assert "rank0_ascend_pt" in c["ranks"][0]["dir"] and "rank1_ascend_pt" in c["ranks"][1]["dir"]
PY

# --- check --require: collection requirements; the same verdict from the
# profile and from its report.json
expect require_pass 0 "" -- check "$AL/level1" --no-verdicts --require level1,cpu,shapes,memory,aic_metrics --require steps=1,export=text
grep -q "^7 checks, 0 failed$" "$T/.stdout" && ok require_pass_counts || bad require_pass_counts "$(cat "$T/.stdout")"
expect require_fail 1 "2 of 3 checks failed" -- check "$AL/level0" --no-verdicts --require level1,steps=5 --require cpu
cat >want_fail.txt <<'TXT'
FAIL level1: profiler level Level0, below Level1 (ranks 0, 1) (--require)
FAIL steps=5: 1 timed step, fewer than 5 (ranks 0, 1) (--require)
3 checks, 2 failed
TXT
cmp -s "$T/.stdout" want_fail.txt && ok require_fail_lines || bad require_fail_lines "$(cat "$T/.stdout")"
expect require_report 0 "" -- report "$AL/level0" -o rq -f json -q
expect require_on_json 1 "2 of 3 checks failed" -- check rq/report.json --no-verdicts --require level1,steps=5 --require cpu
cmp -s "$T/.stdout" want_fail.txt && ok require_json_same_lines || bad require_json_same_lines "$(cat "$T/.stdout")"
expect require_unknown 2 "--require 'levle1': unknown requirement; known: level0, level1, level2, cpu, steps[=N] (default 5), shapes, memory, aic_metrics, export=text|db|trace, complete" -- check "$AL/level0" --require cpu,levle1
expect require_unknown_first 2 "unknown requirement" -- check nope --require bogus
expect require_bad_steps 2 "--require 'steps=0': N is not a whole number of steps" -- check rq/report.json --require steps=0
expect require_bad_export 2 "expected export=text, export=db or export=trace" -- check rq/report.json --require export=csv
expect require_value 2 "--require 'cpu=1': takes no value" -- check rq/report.json --require cpu=1
expect require_empty 2 "empty requirement" -- check rq/report.json --require level0,,cpu
expect require_not_check 2 "--require is an option of sdperf check" -- report "$AL/level0" --require cpu
# the guide's own collection, the trace alone: what it lacks, one line
expect require_trace 1 "2 of 4 checks failed" -- check my_trace.json --no-verdicts --require export=trace,complete,memory --require steps=5
grep -qx "FAIL complete: gaps level0, few_steps, trace_only (--require)" "$T/.stdout" && ok require_complete_lists_gaps || bad require_complete_lists_gaps "$(cat "$T/.stdout")"
# a report.json written before the collection check
python3 -c "
import json; d = json.load(open('rq/report.json')); del d['collection']
json.dump(d, open('old_report.json', 'w'))"
expect require_old_json 3 "old_report.json: no collection check in this report.json" -- check old_report.json --require cpu
expect require_old_json_max 0 "" -- check old_report.json --no-verdicts --max dit.fa.share=1

# --- GNU conventions (getopt_long): bundled flags, --opt=VALUE, --, order
expect bundled 0 "" -- report good.csv -o g1 -qfjson
[ ! -s "$T/.stdout" ] && [ -s g1/report.json ] && [ ! -e g1/report.html ] && ok bundled_quiet_and_format || bad bundled_quiet_and_format "$(ls g1)"
expect bundled_value_next 0 "" -- report good.csv -qo g2 -fmd
[ -s g2/report.md ] && [ ! -e g2/report.json ] && ok bundled_value_next_word || bad bundled_value_next_word "$(ls g2 2>&1)"
expect equals_form 0 "" -- report good.csv --output=g3 --format=html --lang=zh --quiet
grep -q '<html lang="zh">' g3/report.html && ok equals_form_values || bad equals_form_values
cp good.csv ./-dash.csv
expect dashdash 0 "" -- report -q -o g4 -f json -- -dash.csv
python3 -c "import json; assert json.load(open('g4/report.json'))['profile']['kernels'] == 2" && ok dashdash_reads_dash_file || bad dashdash_reads_dash_file
expect dashdash_no_options 3 "-q: no such file or folder" -- report -o g5 -- -q
expect options_first 0 "" -- -q -f json -o g6 report good.csv
[ -s g6/report.json ] && ok options_before_command || bad options_before_command
expect abbreviated 0 "" -- report good.csv --out g7 --form json --qu
[ -s g7/report.json ] && [ ! -e g7/report.pdf ] && ok abbreviated_long_options || bad abbreviated_long_options
expect ambiguous 2 "option '--ma' is ambiguous (--max-memory, --max, --max-regression)" -- check good.csv --ma=1
expect flag_value 2 "--quiet takes no value" -- report good.csv --quiet=yes
expect needs_value 2 "--output needs a value" -- report good.csv -o
expect unknown_short 2 "unknown option '-x'" -- report good.csv -qx

# --- --help: the overview, and each command's own
expect help_overview 0 "" -- --help
head -1 "$T/.stdout" | grep -q '^usage: sdperf report PATH\.\.\. \[OPTION\]\.\.\.$' &&
	grep -q '^       sdperf COMMAND --help$' "$T/.stdout" &&
	grep -q -- '--max-regression PCT' "$T/.stdout" && grep -q -- '--cjk-font FILE' "$T/.stdout" &&
	ok help_overview_text || bad help_overview_text "$(head -3 "$T/.stdout")"
# help_cmd NAME 'first line' HAS LACKS -- args
help_cmd() {
	local name=$1 first=$2 has=$3 lacks=$4
	shift 5
	expect "$name" 0 "" -- "$@"
	if [ "$(head -1 "$T/.stdout")" != "$first" ]; then
		bad "${name}_text" "first line: $(head -1 "$T/.stdout")"
	elif ! grep -q -- "$has" "$T/.stdout" || grep -q -- "$lacks" "$T/.stdout"; then
		bad "${name}_text" "expected $has and not $lacks"
	else
		ok "${name}_text"
	fi
}
help_cmd help_report 'usage: sdperf report PATH... [OPTION]...' '  -l, --lang en|zh' '--max-regression' -- report --help
help_cmd help_diff 'usage: sdperf diff BASE NEW [OPTION]...' '      --per-step' '--require' -- diff -h
help_cmd help_check 'usage: sdperf check PATH [OPTION]...' '      --require LIST' '--templates' -- check --help
help_cmd help_wins 'usage: sdperf report PATH... [OPTION]...' '--templates DIR' '--baseline' -- report nope --lang xx -j 0 --bogus --help
expect help_unknown_command 2 "unknown command 'rport'" -- rport --help
# --redact belongs to report (issue 15 §1): in its help, refused elsewhere
help_cmd help_report_redact 'usage: sdperf report PATH... [OPTION]...' '      --redact-kernels' '--per-step' -- report --help
help_cmd help_diff_no_redact 'usage: sdperf diff BASE NEW [OPTION]...' '      --per-step' '--redact' -- diff --help
expect redact_not_diff 2 "--redact is an option of sdperf report" -- diff nope nope2 --redact
expect redact_kernels_not_check 2 "--redact-kernels is an option of sdperf report" -- check nope --redact-kernels

# --- every option value is checked before any input is read: PATH
# 'nope' does not exist, so reading it would be exit 3 "nope: no such
# file or folder"; each bad value is exit 2 naming the option and value
expect early_lang 2 "sdperf: --lang 'xx': no such language (available: en, zh)" -- report nope --lang xx
expect early_lang_json 2 "--lang 'xx': no such language" -- report good.csv --lang xx --format json -o g8 -q
[ ! -e g8 ] && ok early_lang_json_writes_nothing || bad early_lang_json_writes_nothing "$(ls g8)"
expect early_lang_diff 2 "--lang 'fr'" -- diff nope nope2 -l fr
expect early_format 2 "--format: unknown or unavailable format 'docx'" -- report nope -fdocx
expect early_templates 2 "--templates 'no/such/dir': no such directory" -- diff nope nope2 --templates no/such/dir
expect early_templates_file 2 "--templates 'good.csv': not a directory" -- report nope --templates=good.csv
expect early_font 2 "--font 'nope.ttf': no such file" -- report nope --font nope.ttf
printf 'not a font at all' >bad.ttf
expect early_font_structure 2 "--font 'bad.ttf': not a usable TrueType font: " -- report nope --font bad.ttf
expect early_cjk_font 2 "--cjk-font 'bad.ttf': not a usable TrueType font: " -- diff nope nope2 --cjk-font=bad.ttf
expect early_cjk_font_dir 2 "--cjk-font 'tpl': not a regular file" -- report nope --cjk-font tpl
expect font_unread_without_pdf 0 "" -- report good.csv --font bad.ttf -f json,md -o g9 -q
expect early_threshold 2 "--threshold 'foo=1': unknown name (known: matmul_quant," -- report nope -t foo=1
expect early_threshold_value 2 "--threshold 'host_bound=200': expected a percentage from 0 to 100" -- check nope -thost_bound=200
# with --rules the names come from the file: read first, still before PATH
expect early_threshold_rules 2 "--threshold 'foo=1': unknown name" -- report nope --rules ext.json -t foo=1
expect early_max 2 "--max 'dit.bogus=1': unknown metric for stage dit" -- check nope --max dit.bogus=1
expect early_max_value 2 "--max 'dit.wall_ms=x': VALUE is not a number" -- check nope --max=dit.wall_ms=x
expect early_require 2 "--require 'levle1': unknown requirement" -- check nope --require levle1
expect early_regression 2 "--max-regression" -- check nope --baseline rq/report.json --max-regression lots
expect early_baseline 2 "--baseline: 'good.csv' is not a report.json file" -- check nope --baseline good.csv
expect early_jobs 2 "--jobs: expected a whole number from 1 to 1024, got 'x'" -- report nope -jx
expect early_max_memory 2 "--max-memory: expected a size" -- check nope --max-memory=1K
expect early_title 2 "--title: 2000 bytes, at most 1024" -- report nope --title "$(head -c 2000 /dev/zero | tr '\0' x)"
expect early_completion 2 "--completion 'zsh': no completion for this shell (available: bash)" -- --completion zsh
# values are shown safely on the terminal
expect value_escaped 2 "--lang '\x1B]0;x\x07': no such language" -- report nope --lang "$(printf '\033]0;x\007')"
grep -q "$(printf '\033')" "$T/.stderr" && bad value_escaped_no_esc "a raw ESC on stderr" || ok value_escaped_no_esc

finish
