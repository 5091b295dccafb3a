#!/usr/bin/env bash
# Cluster runs (issue 16 §2): sdperf summarize per rank, then report, diff
# and check on the summaries, compared with the one-process run.
#   tests/cluster/run.sh MODE SDPERF SDPERF_GEN EXAMPLES_CLUSTER_DIR SAMPLES
# MODE summaries: generated and sample runs of every shape merged from
#                 summaries give the one-process report.json (its paths
#                 aside); summaries are idempotent and written atomically;
#                 bad summaries are errors naming file, key and value.
# MODE parallel:  examples/cluster/parallel.sh for real (GNU parallel, and
#                 xargs -P) on a generated 64-rank run.
# MODE launchers: shellcheck on every launcher script; the Slurm scripts
#                 run here with a fake sbatch; the Kubernetes manifests
#                 parsed (python3-yaml) and their commands run here.
MODE=$1
SDPERF=$(realpath "$2")
GEN=$(realpath "$3")
EX=$(realpath "$4")
SAMPLES=$(realpath "$5")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

# same A B LABEL: two report.json equal but for the PATHs given (and the
# command line that gave them and the time, in the provenance block)
same() {
	if python3 - "$1" "$2" >"$3.cmp" 2>&1 <<'PY'; then
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["profile"].pop("path", None)
    d.get("provenance", {}).pop("command_line", None)
    d.get("provenance", {}).pop("generated", None)
def walk(x, y, at):
    if type(x) != type(y):
        sys.exit("%s: %r != %r" % (at, x, y))
    if isinstance(x, dict):
        if sorted(x) != sorted(y):
            sys.exit("%s: keys %s != %s" % (at, sorted(x), sorted(y)))
        for k in x:
            walk(x[k], y[k], at + "." + k)
    elif isinstance(x, list):
        if len(x) != len(y):
            sys.exit("%s: %d != %d elements" % (at, len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, "%s.%d" % (at, i))
    elif x != y:
        sys.exit("%s: %r != %r" % (at, x, y))
walk(a, b, "")
PY
		ok "$3"
	else
		bad "$3" "$(head -3 "$3.cmp")"
	fi
}

# summarise NAME RUN: every rank of RUN summarised into NAME.s/, then the
# one-process report (NAME.r1) and the merged one (NAME.r2) compared
summarise() {
	local name=$1 run=$2 i=0 rank
	mkdir -p "$name.s"
	while read -r rank; do
		"$SDPERF" summarize "$rank" -q -o "$name.s/rank-$i.json" 2>>"$name.err" ||
			bad "$name: summarize $rank" "$(tail -2 "$name.err")"
		i=$((i + 1))
	done < <("$EX/list-ranks.sh" "$run")
	"$SDPERF" report "$run" -q -f json -o "$name.r1" 2>>"$name.err" &&
		"$SDPERF" report "$name.s" -q -f json -o "$name.r2" 2>>"$name.err" ||
		{ bad "$name" "$(tail -2 "$name.err")"; return 1; }
	same "$name.r1/report.json" "$name.r2/report.json" "$name: merged = one-process ($i ranks)"
}

gen() { # OUT ARGS...
	local out=$1
	shift
	"$GEN" -o "$out" --steps 2 --iters 3 --blocks 3 --no-truth "$@" >/dev/null 2>&1 ||
		bad "generate $out"
}

# error LABEL PATTERN CMD...: CMD fails with exit 3 and a message matching
error() {
	local label=$1 pat=$2 rc
	shift 2
	"$@" >"$label.out" 2>&1
	rc=$?
	if [ "$rc" -eq 3 ] && grep -qE -- "$pat" "$label.out"; then
		ok "$label"
	else
		bad "$label" "exit $rc: $(head -2 "$label.out")"
	fi
}

mode_summaries() {
	local s
	# every shape a rank may have
	gen straggler --ranks 4 --comm alltoall --straggler 2=1.3 --markers
	summarise straggler straggler
	gen db --ranks 3 --export db --comm allgather
	summarise db db
	gen both --ranks 2 --export both
	summarise both both
	gen cache --ranks 2 --cache dit:3 --video --vae-encode
	summarise cache cache
	gen noinfo --ranks 3 --no-profiler-info --markers-no-flows
	summarise noinfo noinfo
	gen traces --ranks 3 --files trace --subtasks
	summarise traces traces
	gen kernels --ranks 2 --files kernels --variant level0
	summarise kernels kernels
	for s in msinsight-alexnet-2rank-2024/level1 msinsight-alexnet-2rank-2025-db/level0 \
		msinsight-gpt3-testdata-2023; do
		summarise "sample-${s%%/*}" "$SAMPLES/$s"
	done
	# a rank given twice (a copy): the same duplicate id settled alike
	mkdir dup && cp -r straggler/*_1000_* dup/ && cp -r straggler/*_1000_* dup/zz_copy_ascend_pt
	summarise dup dup

	# idempotent: a second run writes the same bytes; no temporary file
	# is left beside the summary
	s=$(ls -d straggler/*_1001_*)
	"$SDPERF" summarize "$s" -q -o again.json && cmp -s again.json straggler.s/rank-1.json &&
		[ "$(find . -maxdepth 1 -name '.again.json.tmp*' | wc -l)" -eq 0 ] &&
		ok "summarize is idempotent" || bad "summarize is idempotent"
	# atomic: the file is replaced by rename, never written in place
	ln again.json again.link
	"$SDPERF" summarize "$s" -q -o again.json &&
		[ "$(stat -c %i again.json)" != "$(stat -c %i again.link)" ] &&
		ok "summarize replaces the file by rename" || bad "summarize replaces the file by rename"

	# diff and check read summaries as they read profiles
	"$SDPERF" diff straggler.s straggler -q -f json -o d2 2>/dev/null
	"$SDPERF" diff straggler straggler -q -f json -o d0 2>/dev/null
	same_diff=$(python3 - d0/diff.json d2/diff.json <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for side in ("base", "new"):
        d[side].pop("path", None); d[side].pop("source", None); d[side].pop("from_json", None)
print("yes" if a == b else "no")
PY
)
	[ "$same_diff" = yes ] && ok "diff on summaries = diff on profiles" ||
		bad "diff on summaries = diff on profiles" "$(diff d0/diff.json d2/diff.json | head -4)"
	"$SDPERF" check straggler --max dit.fa.share=0.01 >c1.out 2>&1
	r1=$?
	"$SDPERF" check straggler.s --max dit.fa.share=0.01 >c2.out 2>&1
	r2=$?
	[ "$r1" -eq 1 ] && [ "$r2" -eq 1 ] && cmp -s c1.out c2.out &&
		ok "check on summaries = check on profiles" ||
		bad "check on summaries = check on profiles" "$r1 $r2" "$(diff c1.out c2.out | head -4)"

	# the HTML's Method section says how the ranks were read, in each
	# language
	"$SDPERF" report straggler.s -q -f html -o h1 &&
		grep -q 'their 4 summaries merged here' h1/report.html &&
		"$SDPERF" report straggler.s -q -f html -l zh -o h2 &&
		grep -q '在此合并其 4 份摘要' h2/report.html &&
		ok "the report says the ranks came from summaries (en, zh)" ||
		bad "the report says the ranks came from summaries (en, zh)"

	# what is refused, by name
	error "summarize: a run of several ranks" '4 ranks found; sdperf summarize analyses one' \
		"$SDPERF" summarize straggler -q -o x.json
	mkdir -p mix && cp straggler.s/rank-0.json mix/
	"$SDPERF" report mix/rank-0.json noinfo -q -f json -o mixr >mix.out 2>&1
	[ $? -eq 2 ] && grep -q 'give summaries or profiles, not both' mix.out &&
		ok "summaries and profiles mixed: usage error" || bad "summaries mixed" "$(cat mix.out)"
	sed 's/^{"sdperf_summary":2,/{"sdperf_summary":99,/' straggler.s/rank-0.json >v99.json
	error "another format version" 'v99.json: a summary of format version 99; this sdperf reads version 2' \
		"$SDPERF" report v99.json -q -f json -o v99r
	sed 's/"id":0,"id_source"/"id":"x","id_source"/' straggler.s/rank-0.json >badid.json
	error "a bad value: file, key, value" "badid.json: part.ranks.0.id: not an integer from 0 to 2147483647, got '\"x\"'" \
		"$SDPERF" report badid.json -q -f json -o badr
	sed 's/"segs_total":/"segs_totl":/' straggler.s/rank-0.json >miss.json
	error "a missing key" 'miss.json: part.segs_total: missing' \
		"$SDPERF" report miss.json -q -f json -o missr
	head -c 3000 straggler.s/rank-0.json >cut.json
	error "a cut file" 'cut.json:1:[0-9]+: JSON syntax error' \
		"$SDPERF" report cut.json -q -f json -o cutr
	python3 - straggler.s/rank-0.json big.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["part"]["ranks"][0]["markers"] = [d["part"]["ranks"][0]["markers"][0]] * 201
s = json.dumps(d, separators=(",", ":"))
open(sys.argv[2], "w").write('{"sdperf_summary":2,' + s[1:].replace('"sdperf_summary":2,', ""))
PY
	error "a list over its cap" 'big.json: part.ranks.0.markers: 201 elements, more than 200' \
		"$SDPERF" report big.json -q -f json -o bigr
	echo '{"extends": "builtin", "classify": []}' >rules.json
	error "summaries of other rules" 'rank-0.json: made with other rules' \
		"$SDPERF" report straggler.s -r rules.json -q -f json -o rulesr
	python3 - straggler.s/rank-0.json wide.json <<'PY'
import sys
t = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(t.replace('"stage_method":"', '"stage_method":"' + "x" * 100000, 1))
PY
	error "the memory budget, before parsing" 'wide.json: the summary.s 0.1 MiB' \
		"$SDPERF" report wide.json --max-memory 1M -q -f json -o budgetr
}

mode_parallel() {
	local how
	gen run64 --ranks 64 --steps 1 --iters 2 --blocks 2 --comm alltoall --files kernels,steps,comm
	"$SDPERF" report run64 -q -f json -o one 2>one.err || bad "one-process report" "$(cat one.err)"
	for how in parallel xargs; do
		if [ "$how" = parallel ] && ! command -v parallel >/dev/null; then
			bad "GNU parallel is missing (Debian package parallel: tools/setup.sh test)"
			continue
		fi
		if SDPERF="$SDPERF" SDPERF_REPORT_ARGS="-q -f json" \
			SDPERF_USE_XARGS=$([ "$how" = xargs ] && echo 1) \
			"$EX/parallel.sh" run64 "out-$how" 4 >"$how.log" 2>&1; then
			[ "$(ls "out-$how/summaries" | wc -l)" -eq 64 ] &&
				ok "$how: 64 summaries" || bad "$how: 64 summaries" "$(ls "out-$how/summaries" | wc -l)"
			same one/report.json "out-$how/report/report.json" "$how: merged report = one-process report"
		else
			bad "$how: parallel.sh" "$(tail -3 "$how.log")"
		fi
	done
}

mode_launchers() {
	local f i n
	for f in "$EX"/*.sh "$EX"/slurm/*.sh "$EX"/slurm/*.sbatch; do
		if shellcheck -x "$f" >sc.out 2>&1; then
			ok "shellcheck ${f#"$EX"/}"
		else
			bad "shellcheck ${f#"$EX"/}" "$(head -5 sc.out)"
		fi
	done
	gen run --ranks 5 --comm allgather
	"$SDPERF" report run -q -f json -o one 2>/dev/null

	# Slurm: submit.sh with an sbatch that records its arguments; then
	# the tasks and the merge run here as Slurm would run them
	mkdir bin
	cat >bin/sbatch <<'EOF'
#!/bin/sh
echo "$*" >>"$SBATCH_LOG"
n=$(wc -l <"$SBATCH_LOG")
echo "$((1000 + n))"
EOF
	chmod +x bin/sbatch
	if PATH="$PWD/bin:$PATH" SBATCH_LOG="$PWD/sbatch.log" "$EX/slurm/submit.sh" run slurm 3 >submit.out 2>&1; then
		n=$(wc -l <slurm/ranks.txt)
		grep -q -- "--array=0-$((n - 1))%3 .*summarize.sbatch $PWD/slurm 0\$" <(sed -n 1p sbatch.log) &&
			grep -q -- "--dependency=afterok:1001 .*merge.sbatch $PWD/slurm\$" <(sed -n 2p sbatch.log) &&
			ok "slurm: submit.sh asks for --array=0-$((n - 1))%3, then the merge afterok" ||
			bad "slurm: submit.sh" "$(cat sbatch.log)"
		for ((i = 0; i < n; i++)); do
			SLURM_ARRAY_TASK_ID=$i SDPERF="$SDPERF" "$EX/slurm/summarize.sbatch" "$PWD/slurm" 0 ||
				bad "slurm: task $i"
		done
		SDPERF="$SDPERF" SDPERF_REPORT_ARGS="-f json" "$EX/slurm/merge.sbatch" "$PWD/slurm" &&
			same one/report.json slurm/report/report.json "slurm: merged report = one-process report" ||
			bad "slurm: merge.sbatch"
		SLURM_ARRAY_TASK_ID=$n SDPERF="$SDPERF" "$EX/slurm/summarize.sbatch" "$PWD/slurm" 2>/dev/null &&
			bad "slurm: a task beyond the list fails" || ok "slurm: a task beyond the list fails"
	else
		bad "slurm: submit.sh" "$(cat submit.out)"
	fi
	# more tasks than one array may hold (Slurm's MaxArraySize): arrays
	# of SLURM_ARRAY_CHUNK tasks with their offsets, the merge after all
	if PATH="$PWD/bin:$PATH" SBATCH_LOG="$PWD/sbatch2.log" SLURM_ARRAY_CHUNK=2 \
		"$EX/slurm/submit.sh" run slurm2 3 >submit2.out 2>&1; then
		sed -n 's/.*--array=0-\([0-9]*\)%3 .* \([0-9]*\)$/\1 \2/p' sbatch2.log >arrays.txt
		[ "$(tr '\n' ' ' <arrays.txt)" = "1 0 1 2 0 4 " ] &&
			grep -q -- "--dependency=afterok:1001:1002:1003 " sbatch2.log &&
			ok "slurm: 5 tasks in arrays of 2: offsets 0, 2, 4, the merge after the three" ||
			bad "slurm: arrays of 2" "$(cat sbatch2.log)"
		while read -r last off; do
			for ((i = 0; i <= last; i++)); do
				SLURM_ARRAY_TASK_ID=$i SDPERF="$SDPERF" "$EX/slurm/summarize.sbatch" "$PWD/slurm2" "$off" ||
					bad "slurm: task $off+$i"
			done
		done <arrays.txt
		SDPERF="$SDPERF" SDPERF_REPORT_ARGS="-f json" "$EX/slurm/merge.sbatch" "$PWD/slurm2" &&
			cmp -s slurm/summaries/rank-4.json slurm2/summaries/rank-4.json &&
			same one/report.json slurm2/report/report.json "slurm: arrays of 2: merged report = one-process report" ||
			bad "slurm: arrays of 2: merge"
	else
		bad "slurm: submit.sh in arrays of 2" "$(cat submit2.out)"
	fi

	# Kubernetes: the manifests parsed, their shape checked, their
	# commands run here with the index Kubernetes would give
	if python3 - "$EX/kubernetes" "$SDPERF" run "$PWD/k8s" >k8s.out 2>&1 <<'PY'; then
import os, subprocess, sys, yaml
d, sdperf, run, out = sys.argv[1:5]
def job(name):
    docs = list(yaml.safe_load_all(open(os.path.join(d, name))))
    assert len(docs) == 1 and docs[0]["kind"] == "Job", name
    assert docs[0]["apiVersion"] == "batch/v1", name
    return docs[0]
def run_container(spec, extra):
    c = spec["template"]["spec"]["containers"][0]
    assert spec["template"]["spec"]["restartPolicy"] in ("Never", "OnFailure")
    assert c["command"] == ["/bin/sh", "-c"], c["command"]
    env = dict(os.environ)
    env.update({e["name"]: e["value"] for e in c.get("env", [])})
    env.update(extra)
    subprocess.run(["/bin/sh", "-c", c["args"][0]], env=env, check=True)
m = job("summarize-job.yaml")["spec"]
assert m["completionMode"] == "Indexed", m
assert isinstance(m["completions"], int) and 0 < m["parallelism"] <= m["completions"]
assert "JOB_COMPLETION_INDEX" in m["template"]["spec"]["containers"][0]["args"][0]
n = 5
for i in range(n):
    run_container(m, {"RUN": run, "OUT": out, "SDPERF": sdperf, "JOB_COMPLETION_INDEX": str(i)})
try:
    run_container(m, {"RUN": run, "OUT": out, "SDPERF": sdperf, "JOB_COMPLETION_INDEX": str(n)})
    sys.exit("index %d beyond the ranks did not fail" % n)
except subprocess.CalledProcessError:
    pass
g = job("merge-job.yaml")["spec"]
run_container(g, {"OUT": out, "SDPERF": sdperf})
assert sorted(os.listdir(os.path.join(out, "summaries"))) == ["rank-%d.json" % i for i in range(n)]
PY
		ok "kubernetes: manifests parsed, Indexed Job and merge run"
		same one/report.json k8s/report/report.json "kubernetes: merged report = one-process report"
	else
		bad "kubernetes" "$(tail -4 k8s.out)"
	fi
}

"mode_$MODE"
finish
