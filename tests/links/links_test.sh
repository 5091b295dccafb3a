#!/usr/bin/env bash
# Discovery and symlinks (issue 22 §1): real links in a scratch folder. A
# link that leads out of the folder given is skipped and named in a
# warning, unless --follow-links; a link that stays inside is followed; a
# loop is searched once; a link to a gzip bomb outside is never opened.
# Usage: tests/links/links_test.sh SDPERF_BINARY
SDPERF=$(realpath "$1")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

HDR='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
# rank DIR DURATION_US: a rank folder with one MatMul kernel
rank() {
	mkdir -p "$1/ASCEND_PROFILER_OUTPUT"
	printf '%s\n3,MatMul_1,MatMulV3,AI_CORE,1767225600000000.000,%s,0,20\n' \
		"$HDR" "$2" >"$1/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
}
# field REPORT EXPR: a Python expression over the report.json d
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# outside/ holds a rank of its own and a gzip bomb (1 GiB of zeros in 1 MB);
# run/ is the folder given: one rank, and links out and in
mkdir -p outside run
rank outside/other_ascend_pt 700
head -c 1073741824 /dev/zero | gzip -1 >outside/bomb.json.gz
rank run/a_ascend_pt 100
ln -s .. run/up                                # out: the parent, holding outside/
ln -s "$T/outside/other_ascend_pt" run/b_ascend_pt # out: a rank elsewhere
ln -s "$T/outside/bomb.json.gz" run/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz
mkdir -p run/deep && ln -s ../a_ascend_pt run/deep/same_ascend_pt # in: the same rank
ln -s . run/self                               # in: a loop
mkdir -p run/inner && rank run/inner/c_ascend_pt 300
ln -s inner/c_ascend_pt run/c_link_ascend_pt   # in: a rank inside, by a link

timeout 60 "$SDPERF" report run -o out -f json -q 2>err.txt
rc=$?
[ "$rc" -eq 0 ] && ok links_report_runs || bad links_report_runs "exit $rc" "$(head -3 err.txt)"
# the ranks inside: a (100 us) and c (300 us), each once; never other (700)
got=$(field out/report.json 'round(sum(s["kernel_time_us"] for s in d["stages"].values()))')
[ "$got" = 400 ] && ok links_inside_ranks_only || bad links_inside_ranks_only "kernel time $got us, expected 100 + 300"
got=$(field out/report.json 'len(d["ranks"])')
[ "$got" = 2 ] && ok links_two_ranks || bad links_two_ranks "$got ranks, expected 2"
# each link out is named, with where it leads
for l in run/up run/b_ascend_pt run/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz; do
	python3 - out/report.json "$l" <<'PY' && ok "links_warned $l" || bad "links_warned $l" "no link_outside warning naming it"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(w["code"] == "link_outside" and w["message"].startswith(sys.argv[2] + " ")
           for w in d["warnings"]), [w for w in d["warnings"]]
PY
done
got=$(field out/report.json 'sum(w["code"] == "link_outside" for w in d["warnings"])')
[ "$got" = 3 ] && ok links_three_warnings || bad links_three_warnings "$got link_outside warnings, expected 3 (links inside are not warned; the bomb, reached twice, once)"
got=$(field out/report.json 'sum(w["code"] == "folder_loop" for w in d["warnings"])')
[ "$got" -ge 1 ] && ok links_loop_noted || bad links_loop_noted "no folder_loop warning"

# --follow-links: the links out are followed; the bomb is then opened and
# refused as any bomb is (a bounded error), the other rank is read
timeout 120 "$SDPERF" report run -o out2 -f json -q --follow-links --max-memory 256M 2>err2.txt
rc=$?
[ "$rc" -ne 0 ] && grep -q 'bomb\|trace_view' err2.txt && ok follow_links_reads_outside ||
	bad follow_links_reads_outside "exit $rc" "$(head -3 err2.txt)"
rm outside/bomb.json.gz run/a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.gz
timeout 60 "$SDPERF" report run -o out3 -f json -q --follow-links 2>err3.txt
got=$(field out3/report.json 'round(sum(s["kernel_time_us"] for s in d["stages"].values()))')
[ "$got" = 1100 ] && ok follow_links_other_rank || bad follow_links_other_rank "kernel time $got us, expected 100 + 300 + 700" "$(head -3 err3.txt)"

# more links out than are named one by one: the rest are counted
mkdir -p many && rank many/a_ascend_pt 100
for i in $(seq 1 25); do mkdir -p "outside/d$i" && ln -s "$T/outside/d$i" "many/out$i"; done
timeout 60 "$SDPERF" report many -o out4 -f json -q 2>/dev/null
got=$(field out4/report.json '[sum(w["code"] == "link_outside" for w in d["warnings"]), [w["message"].split()[0] for w in d["warnings"] if w["code"] == "links_outside_more"]]')
[ "$got" = "[20, ['5']]" ] && ok links_many_counted || bad links_many_counted "$got"

finish
