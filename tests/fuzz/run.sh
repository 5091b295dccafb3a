#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time on a seed corpus made from
# the test data. Usage: tests/fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
secs=${2:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/kernels" "$work/rules"
find "$root/tests/data" "$root/examples" -name '*.csv' -size -64k \
	-exec cp --backup=numbered {} "$work/kernels/" \; 2>/dev/null || true
cp "$root/assets/rules.json" "$work/rules/"
# globs: "pattern\0subject" (fuzz_rules checks them against a reference)
printf 'a*b?c\0aXbYc' >"$work/rules/glob1"
printf '*aaaa*a?b\0aaaaaaaaaaaaaaaaaaaab' >"$work/rules/glob2"
find "$root/tests/data" -name '*.json' -size -64k \
	-exec cp --backup=numbered {} "$work/rules/" \; 2>/dev/null || true

# templates: a few hand-written seeds covering every tag and spelling
mkdir -p "$work/template"
printf '%s' '<h1><TMPL_VAR title></h1><TMPL_LOOP rows><TMPL_VAR __index__>/<TMPL_VAR __count__>: <TMPL_VAR name fmt=html> <TMPL_VAR n fmt=int default="0"><TMPL_UNLESS __last__>, </TMPL_UNLESS></TMPL_LOOP>' \
	>"$work/template/loop.tmpl"
printf '%s' '<!-- TMPL_IF name="x" value="X" -->a<!-- TMPL_ELSIF zero -->b<!-- TMPL_ELSE -->c<!-- /TMPL_IF --><TMPL_UNLESS empty>u<TMPL_ELSE>v</TMPL_UNLESS>' \
	>"$work/template/if.tmpl"
printf '%s\n' '<* comment *>\' '<TMPL_INCLUDE name="a.tmpl">\' '<TMPL_INCLUDE b.tmpl>' \
	'<TMPL_LOOP rows><TMPL_LOOP cells><TMPL_IF v value=1><TMPL_BREAK level=2></TMPL_IF><TMPL_CONTINUE></TMPL_LOOP></TMPL_LOOP>' \
	>"$work/template/include.tmpl"
printf '%s' '<TMPL_INCLUDE d.tmpl><TMPL_INCLUDE c.tmpl><TMPL_INCLUDE e.tmpl>' \
	>"$work/template/fanout.tmpl"
printf '%s' '<a href="<TMPL_VAR url fmt=href>"><TMPL_VAR html fmt=md><TMPL_VAR n fmt=dur><TMPL_VAR n fmt=pct1><TMPL_VAR n fmt=url><TMPL_VAR n fmt=js><TMPL_VAR n fmt=raw/></a>' \
	>"$work/template/fmt.tmpl"
# a value escaped for Markdown before any output (the line so far is empty)
printf '%s' '<TMPL_VAR title fmt=md><TMPL_VAR n fmt=md>' >"$work/template/md-first.tmpl"

# profiler files: communication.json, step_trace_time.csv, trace_view.json
# (the first 60 KB of real traces: the scanner takes a cut trace as valid)
mkdir -p "$work/comm" "$work/steptrace" "$work/trace" "$work/opstat" \
	"$work/matrix"
find "$root/tests/data" -name 'op_statistic.csv' \
	-exec cp --backup=numbered {} "$work/opstat/" \;
find "$root/tests/data" -name 'communication_matrix.json' -size -64k \
	-exec cp --backup=numbered {} "$work/matrix/" \;
find "$root/tests/data" -name 'communication.json' -size -64k \
	-exec cp --backup=numbered {} "$work/comm/" \;
find "$root/tests/data" -name 'step_trace_time.csv' \
	-exec cp --backup=numbered {} "$work/steptrace/" \;
n=0
for f in $(find "$root/tests/data" -name 'trace_view.json.gz'); do
	n=$((n + 1))
	gzip -dc "$f" | head -c 60000 >"$work/trace/seed$n.json" || true
done
printf '%s' '{"schemaVersion": 1, "traceEvents": [{"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "Overlap Analysis"}}, {"ph": "X", "name": "Free", "pid": 7, "tid": 3, "ts": "1.500", "dur": 2}, {"ph": "s", "cat": "async_npu", "id": 1, "ts": "1.0"}, {"ph": "f", "bp": "e", "id": 1, "ts": 2}]}' \
	>"$work/trace/object.json"

# the trace-only reader: the same cut traces, and a small trace with every
# kind of event it reads (kernels, sub-tasks, HCCL, spans, steps, markers,
# flows; names after their events)
mkdir -p "$work/traceprof"
cp "$work"/trace/*.json "$work/traceprof/"
printf '%s' '[{"ph":"X","name":"aclnnMatmul_MatMulV3Common_MatMulV3","pid":7,"tid":2,"ts":"1000.000","dur":39.9805,"args":{"Task Type":"AI_CORE","connection_id":1}},{"ph":"X","name":"EVENT_WAIT","pid":7,"tid":3,"ts":"1001","dur":1},{"ph":"X","name":"hcom_allReduce__1_0_1","pid":9,"tid":0,"ts":"1002","dur":9387.903875},{"ph":"X","name":"Notify_Wait","pid":9,"tid":1,"ts":"1003","dur":2,"args":{"src rank":1,"dst rank":2}},{"ph":"X","name":"Computing","pid":11,"tid":0,"ts":"1000","dur":40},{"ph":"X","name":"ProfilerStep#4","pid":5,"tid":5,"ts":"900","dur":12000,"cat":"cpu_op"},{"ph":"X","name":"vae_decode","pid":5,"tid":5,"ts":"950","dur":50,"cat":"user_annotation"},{"ph":"s","name":"torch_to_npu","cat":"async_npu","id":1,"pid":5,"tid":5,"ts":"960"},{"ph":"f","bp":"e","name":"torch_to_npu","cat":"async_npu","id":1,"pid":7,"tid":2,"ts":"1000"},{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}},{"ph":"M","name":"process_name","pid":9,"args":{"name":"HCCL"}},{"ph":"M","name":"process_name","pid":11,"args":{"name":"Overlap Analysis"}},{"ph":"M","name":"process_name","pid":5,"args":{"name":"Python"}}]' \
	>"$work/traceprof/all-kinds.json"

# report.json files read back by sdperf diff / check: the examples' reports
# (each under 64 KB)
mkdir -p "$work/snapshot"
n=0
for f in "$root"/examples/*/report/report.json; do
	n=$((n + 1))
	cp "$f" "$work/snapshot/report$n.json"
done

# rank summaries (sdperf summarize) of the sample ranks
mkdir -p "$work/ranksum"
n=0
for d in $(find "$root/tests/data/samples" -maxdepth 3 -type d -name '*_ascend_pt' | sort); do
	n=$((n + 1))
	"$build/src/sdperf" summarize "$d" -q -o "$work/ranksum/rank$n.json" 2>/dev/null || true
done

# the merge of summaries and the diff's view (issue 23): one input, two
# files split at a NUL byte (a summary alone is given twice)
mkdir -p "$work/summaries" "$work/diffview"
cp "$work"/ranksum/* "$work/summaries/" 2>/dev/null || true
set -- "$work"/ranksum/*.json
[ -e "$1" ] && [ -e "${2:-}" ] && { cat "$1"; printf '\0'; cat "$2"; } >"$work/summaries/pair.json"
cp "$work"/snapshot/* "$work/diffview/" 2>/dev/null || true
set -- "$work"/snapshot/*.json
[ -e "$1" ] && [ -e "${2:-}" ] && { cat "$1"; printf '\0'; cat "$2"; } >"$work/diffview/pair.json"

# fonts: tiny valid TrueType fonts (long and short loca, a collection)
python3 "$here/seed_fonts.py" "$work/font"

# JSON text for the pull reader: all of the above
mkdir -p "$work/jsonpull"
cp "$work"/comm/* "$work"/snapshot/* "$work"/trace/* "$work/jsonpull/" 2>/dev/null || true

# the redactor: "PATH\nrank dir\ntext" with paths, addresses and a group
mkdir -p "$work/redact"
printf '%s\n' /home/u/run /home/u/run/h1_7_1700000000000_ascend_pt \
	'in /home/u/run/h1_7_1700000000000_ascend_pt/x.csv: 10.1.2.3 fe80::1%eth0 10.170.22.98%enp67s0f5_60000_0_1708 h1 ~/a' \
	>"$work/redact/seed1"
# names glued into kernel names (issue 23)
printf '%s\n' run zqhost \
	'AllReduce_10.1.2.3_grp hcom_allReduce__zqhost_1 x-fd12::42-y Bcast_10.1.2.3%eth0_1_2 v8.0.RC3 k_/home/zq/a/b MatMulV2' \
	>"$work/redact/seed2"

# the memory readers: the real memory_record, operator_memory and
# npu_module_mem files
mkdir -p "$work/memory"
find "$root/tests/data" -name '*mem*.csv' -size -64k \
	-exec cp --backup=numbered {} "$work/memory/" \;

# the branding config file and the logo check (issue 23): configs with
# every key and with bad values; small valid PNGs and JPEGs, and the
# example's logo
mkdir -p "$work/brand" "$work/image"
printf '%s' '{"org": "ACME R&D", "logo": "sub/logo.png", "customer": "Big Co", "ticket": "T-42", "confidential": "Confidential: ACME only"}' \
	>"$work/brand/all.json"
printf '%s' '{"org": "a\u202eb", "ticket": 42}' >"$work/brand/bad.json"
cp "$root/examples/customer-report/sdperf.json" "$work/brand/example.json"
python3 "$here/seed_images.py" "$work/image"
cp "$root/examples/customer-report/logo.png" "$work/image/"

# the db reader: row scripts for its fixed schema and a tiny db image
python3 "$here/seed_db.py" "$work/db"

# every target that was built runs, and each needs seeds: a new target
# without a corpus above fails here instead of being skipped
for bin in "$build"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	t=${bin##*/fuzz_}
	if [ -z "$(ls -A "$work/$t" 2>/dev/null)" ]; then
		echo "fuzz_$t: no seed corpus in tests/fuzz/run.sh"
		echo "fuzz_$t FAILED"
		exit 1
	fi
	echo "fuzz_$t: ${secs}s"
	"$build/tests/fuzz/fuzz_$t" "$work/$t" -max_total_time="$secs" \
		-max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix="$work/crash-$t-" -print_final_stats=1 2>"$work/$t.log" || {
		tail -60 "$work/$t.log"
		echo "fuzz_$t FAILED"
		exit 1
	}
	grep -E 'stat::number_of_executed_units|Done' "$work/$t.log" | tail -2
	echo "fuzz_$t: clean"
done
