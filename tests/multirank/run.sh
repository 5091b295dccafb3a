#!/usr/bin/env bash
# Multi-file, multi-rank behaviour on generated profiles (sdperf-gen writes
# the ground truth): stragglers found, user stage markers, truncated and
# object-form traces, gzip inputs, a rank without its trace or without
# profiler_info, garbage in a trace, runs of traces alone (each rank's
# trace_view.json and nothing else, as MindIE-SD's guide collects). Checks
# read report.json with python3.
# Usage: tests/multirank/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
gen() { # OUT ARGS...: a small pipeline (3 steps, 4 iterations, 4 blocks)
	local out=$1
	shift
	"$GEN" -o "$out" --steps 3 --iters 4 --blocks 4 "$@" 2>/dev/null
}
# A pipeline of the default size (2 steps): big enough for the kernel
# signatures alone to separate the stages exactly, as the accuracy tests do.
genfull() {
	local out=$1
	shift
	"$GEN" -o "$out" --steps 2 "$@" 2>/dev/null
}
report() { # NAME PROFILE ARGS...: report.json in NAME/, exit code checked
	local name=$1 prof=$2
	shift 2
	if "$SDPERF" report "$prof" -o "$name" -f json -q "$@" 2>"$name.err"; then
		return 0
	fi
	bad "$name" "sdperf failed: $(head -3 "$name.err")"
	return 1
}
check() { # LABEL OUT PROFILE CODE: CODE runs with d = OUT/report.json,
	# truth(r) = PROFILE's ground truth of rank r, verdict(id)
	local label=$1
	printf '%s\n' "$4" >"$label.check.py"
	if CHECK="$T/$label.check.py" python3 - "$2/report.json" "$3" <<'PY' 2>"$label.py.err"; then
import json, sys, glob, os
d = json.load(open(sys.argv[1]))
t = sys.argv[2]
def truth(r):
    return json.load(open(os.path.join(t, "ground_truth", "rank%d.json" % r)))
def verdict(i):
    return [v for v in d["verdicts"] if v["id"] == i][0]
exec(open(os.environ["CHECK"]).read())
PY
		ok "$label"
	else
		bad "$label" "$(tail -3 "$label.py.err")"
	fi
}

# --- stragglers: 4 ranks all-to-all, 8 ranks all-gather -------------------
genfull s4 --ranks 4 --comm alltoall --straggler 2=1.3 &&
	report s4r s4 -j 3 && check s4_straggler s4r s4 '
v = verdict("rank_imbalance")
assert v["fired"] and v["rank"] == 2, v
assert [r["id"] for r in d["ranks"]] == [0, 1, 2, 3]
for r in d["ranks"]:
    tr = truth(r["id"])
    dit = tr["stages"]["dit"]
    want = dit["kernel_time_us"] - dit["categories"]["Comm"]["time_us"]
    assert abs(r["dit_compute_us"] - want) < 0.01, (r["id"], r["dit_compute_us"], want)
    assert r["kernels"] == tr["kernels"], r["id"]
# the straggler computes ~1.3x the median rank
assert 25 < v["value_pct"] < 35, v["value_pct"]'
genfull s8 --ranks 8 --comm allgather --straggler 5=1.25 &&
	report s8r s8 && check s8_straggler s8r s8 '
v = verdict("rank_imbalance")
assert v["fired"] and v["rank"] == 5, v
assert len(d["ranks"]) == 8
# shares over all ranks: the DiT kernel time is the sum of the ranks
tot = sum(truth(r)["stages"]["dit"]["kernel_time_us"] for r in range(8))
assert abs(d["stages"]["dit"]["kernel_time_us"] - tot) < 0.1, (d["stages"]["dit"]["kernel_time_us"], tot)'
genfull even --ranks 4 --comm alltoall &&
	report evenr even && check even_no_straggler evenr even '
v = verdict("rank_imbalance")
assert v["applicable"] and not v["fired"] and v["value_pct"] < 10, v
e = verdict("comm_overlap")
worst = max(d["ranks"], key=lambda r: r["stages"]["dit"]["exposed_share_of_wall_pct"])
assert e["rank"] == worst["id"], (e, worst["id"])'

# --- user stage markers ---------------------------------------------------
gen mk --ranks 2 --comm alltoall --markers &&
	report mkr mk && check markers_flows mkr mk '
for r in d["ranks"]:
    assert r["stage_source"] == "markers_flows", r["stage_source"]
    assert all(m["method"] == "flows" and m["flows"] > 0 for m in r["markers"])
    tr = truth(r["id"])
    assert len(r["markers"]) == len(tr["markers"]), (len(r["markers"]), len(tr["markers"]))
    for s in ("dit", "vae", "text_encoder"):
        got = r["stages"][s]["kernel_time_us"]
        want = tr["stages"][s]["kernel_time_us"]
        assert abs(got - want) < 0.01, (r["id"], s, got, want)'
gen mt --markers-no-flows --vae-encode &&
	report mtr mt && check markers_time mtr mt '
r = d["ranks"][0]
assert r["stage_source"] == "markers_time", r["stage_source"]
assert r["markers"] and all(m["method"] == "time" for m in r["markers"]), r["markers"][:1]'

# --- trace forms, truncation, garbage --------------------------------------
gen arr --ranks 2 --comm alltoall --seed 7 && gen obj --ranks 2 --comm alltoall --seed 7 --trace-form object &&
	report arrr arr && report objr obj && python3 - arrr/report.json objr/report.json <<'PY' && ok trace_object_form || bad trace_object_form
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for x, y in zip(a["ranks"], b["ranks"]):
    assert x["trace"]["overlap_us"] == y["trace"]["overlap_us"], (x["trace"], y["trace"])
    assert x["trace"]["overlap_found"]
    assert x["trace"]["events"] == y["trace"]["events"]
assert a["stages"] == b["stages"]
PY
R0=$(ls -d arr/*_ascend_pt | head -1)
TV=$R0/ASCEND_PROFILER_OUTPUT/trace_view.json
size=$(stat -c %s "$TV")
head -c $((size * 6 / 10)) "$TV" >"$T/cut.json" && mv "$T/cut.json" "$TV"
report cut arr && check trace_truncated cut arr '
w = [w for w in d["warnings"] if w["code"] == "trace_truncated"]
assert len(w) == 1 and "ends early at byte" in w[0]["message"], d["warnings"]
r0 = d["ranks"][0]
assert r0["trace"]["truncated"] and r0["trace"]["truncated_at_byte"] > 0, r0["trace"]
assert not d["ranks"][1]["trace"]["truncated"]' 2>/dev/null
printf '[{"ph": "X", "name": "a"}, garbage]' >"$TV"
if "$SDPERF" report arr -o garbage -q 2>garbage.err; then
	bad trace_garbage "exit 0"
elif [ $? -eq 3 ] && grep -q "trace_view.json: byte 27: expected an event object: .garbage" garbage.err && [ ! -e garbage ]; then
	ok trace_garbage
else
	bad trace_garbage "$(cat garbage.err)"
fi

# --- gzip inputs, a rank without its trace, ranks without profiler_info ---
gen gz --ranks 2 --comm allgather --seed 3 && cp -r gz plain &&
	gzip gz/*/ASCEND_PROFILER_OUTPUT/* &&
	report gzr gz && report plainr plain && python3 - gzr/report.json plainr/report.json <<'PY' && ok gzip_inputs || bad gzip_inputs
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for x, y in zip(a["ranks"], b["ranks"]):
    assert all(f.endswith(".gz") for k, f in x["files"].items() if k != "profiler_info.json"), x["files"]
    for k in ("kernels", "stages", "steps", "communication", "dit_compute_us"):
        assert x[k] == y[k], k
    assert x["trace"]["overlap_us"] == y["trace"]["overlap_us"]
assert a["stages"] == b["stages"] and a["verdicts"] == b["verdicts"]
PY
gen nt --ranks 2 --comm allgather --seed 3 && rm "$(ls -d nt/*_ascend_pt | sed -n 2p)/ASCEND_PROFILER_OUTPUT/trace_view.json" &&
	report ntr nt && check rank_without_trace ntr nt '
r0, r1 = d["ranks"]
assert r0["trace"]["read"] and not r1["trace"]["read"], (r0["trace"], r1["trace"])
assert r1["files"]["trace_view.json"] is None
w = [w for w in d["warnings"] if w["code"] == "missing_file" and "trace_view.json" in w["message"]]
assert len(w) == 1 and w[0]["message"].startswith("rank 1:"), w
assert r1["stages"] == r0["stages"] or r1["kernels"] > 0'
gen ni --ranks 3 --no-profiler-info && report nir ni && check no_profiler_info nir ni '
assert [(r["id"], r["id_source"]) for r in d["ranks"]] == [(0, "order"), (1, "order"), (2, "order")], d["ranks"]
assert all(r["files"]["profiler_info.json"] is None for r in d["ranks"])
assert all(r["torch_npu_version"] is None for r in d["ranks"])'

# --- a parent folder found deep down, several PATHs ------------------------
mkdir -p deep/a/b && cp -r s4 deep/a/b/run && report deepr deep && check deep_search deepr s4 '
assert len(d["ranks"]) == 4, len(d["ranks"])'
report twor "$(ls -d s4/*_ascend_pt | sed -n 1p)" "$(ls -d s4/*_ascend_pt | sed -n 3p)" && check two_paths twor s4 '
assert [r["id"] for r in d["ranks"]] == [0, 2], [r["id"] for r in d["ranks"]]
assert verdict("rank_imbalance")["rank"] == 2'

# --- traces alone: a straggler on 4 cards, the guide's NPU-only trace ------
genfull tt --ranks 4 --comm alltoall --straggler 1=1.4 --subtasks --markers --files trace --no-profiler-info &&
	report ttr tt -j 2 && check trace_only_straggler ttr tt '
v = verdict("rank_imbalance")
assert v["fired"] and v["rank"] == 1, v
assert [(r["id"], r["id_source"], r["kernel_source"]) for r in d["ranks"]] == [(i, "trace", "trace_view") for i in range(4)], d["ranks"]
for r in d["ranks"]:
    tr = truth(r["id"])
    assert r["kernels"] == tr["kernels"], (r["kernels"], tr["kernels"])
    for st in ("dit", "vae", "text_encoder"):
        assert abs(r["stages"][st]["kernel_time_us"] - tr["stages"][st]["kernel_time_us"]) < 0.0015, st
        assert abs(r["stages"][st]["exposed_comm_us"] - tr["stages"][st]["exposed_comm_us"]) < 0.0015, st
    assert r["stage_source"] == "markers_flows" and len(r["steps"]) == 2, r["stage_source"]
    assert r["steps_source"] == "overlap_analysis"
assert not any(w["code"] in ("no_steps", "no_step_ranges") for w in d["warnings"])'
genfull tn --ranks 2 --comm allgather --subtasks --npu-only --variant level0 --files trace --no-profiler-info &&
	report tnr tn && check trace_only_npu_only tnr tn '
w = [w for w in d["warnings"] if w["code"] == "no_step_ranges"]
assert len(w) == 2 and "no step boundaries" in w[0]["message"], d["warnings"]
assert not any(w["code"] == "no_steps" for w in d["warnings"])
assert d["profile"]["steps"]["count"] == 0
for r in d["ranks"]:
    tr = truth(r["id"])
    assert r["kernels"] == tr["kernels"] and r["id_source"] == "order"
    assert abs(sum(s["kernel_time_us"] for s in r["stages"].values()) - sum(s["kernel_time_us"] for s in tr["stages"].values())) < 0.01
    assert len(r["steps"]) == 1 and r["steps"][0]["step"] is None, r["steps"]'
# a truncated trace alone: the kernels before the cut, with the warning
if [ -d tn ]; then
	TT=$(ls tn/*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json | head -n 1)
	head -c $(($(stat -c %s "$TT") / 2)) "$TT" >half_trace.json
	report thr half_trace.json && check trace_only_truncated thr tn '
r = d["ranks"][0]
assert r["trace"]["truncated"] and 0 < r["kernels"] < truth(0)["kernels"], r["kernels"]
assert any(w["code"] == "trace_truncated" for w in d["warnings"])'
fi

finish
