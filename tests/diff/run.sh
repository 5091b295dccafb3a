#!/usr/bin/env bash
# sdperf diff and sdperf check on generated before/after pairs (sdperf-gen,
# with ground truth): the deltas against the generator's own figures, the
# verdict changes, added/removed kernel types, a profile against itself, a
# report.json side against its profile, shape warnings, per-step
# normalisation, and check's exit codes.
# Usage: tests/diff/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
gen() { "$GEN" -o "$1" --steps 2 "${@:2}" 2>/dev/null; }
diff_() { # OUT BASE NEW ARGS...
	local out=$1
	shift
	"$SDPERF" diff "$@" -o "$out" -f json -q -j 2 2>"$out.err" ||
		{ bad "$out" "sdperf diff failed: $(head -3 "$out.err")"; return 1; }
}
# LABEL DIFF_DIR BASE_PROFILE NEW_PROFILE CODE: CODE runs with d =
# diff.json, tb(stage, key) / tn(...) = ground truth summed over ranks
check() {
	if CODE="$5" python3 - "$2/diff.json" "$3" "$4" <<'PY' 2>"$1.err"; then
import glob, json, os, sys
d = json.load(open(sys.argv[1]))
def truth(prof, stage, key, cat=None):
    tot = 0.0
    for f in glob.glob(os.path.join(prof, "ground_truth", "rank*.json")):
        s = json.load(open(f))["stages"][stage]
        tot += s["categories"][cat]["time_us"] if cat else s[key]
    return tot
tb = lambda *a: truth(sys.argv[2], *a)
tn = lambda *a: truth(sys.argv[3], *a)
def near(a, b, tol=0.0015):
    assert abs(a - b) <= tol, (a, b)
def verdict(i):
    return [v for v in d["verdicts"] if v["id"] == i][0]
def types(status, stage="dit"):
    return sorted(t["type"] for t in d["types"] if t["status"] == status and t["stage"] == stage)
exec(os.environ["CODE"])
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$1.err")"
	fi
}

# --- the MatMul share lowered: the quantization verdict clears -------------
gen mm0 --seed 21 --mix fa=20,matmul=55,vector=15 && gen mm1 --seed 21 --mix fa=20,matmul=40,vector=15 &&
	diff_ mm mm0 mm1 && check matmul_lowered mm mm0 mm1 '
v = verdict("matmul_quant")
assert v["change"] == "cleared", v
st = d["stages"]["dit"]
near(st["kernel_time_us"]["base"], tb("dit", "kernel_time_us"))
near(st["kernel_time_us"]["delta"], tn("dit", "kernel_time_us") - tb("dit", "kernel_time_us"))
mm = st["categories"]["MatMul"]
near(mm["time_us"]["delta"], tn("dit", None, "MatMul") - tb("dit", None, "MatMul"))
near(mm["share_pct"]["base"], 55.0, 0.01)
near(mm["share_pct"]["new"], 40.0, 0.01)
near(mm["share_pct"]["delta"], -15.0, 0.02)
assert not types("added") and not types("removed")
assert not d["warnings"], d["warnings"]'

# --- FA replaced by a sparse attention kernel --------------------------------
gen fa0 --seed 22 && gen fa1 --seed 22 --attention sparse &&
	diff_ fa fa0 fa1 && check fa_replaced_by_sparse fa fa0 fa1 '
assert types("removed") == ["FlashAttentionScore"], types("removed")
assert types("added") == ["AdaBlockSparseAttention", "SparseBlockEstimate"], types("added")
rem = [t for t in d["types"] if t["type"] == "FlashAttentionScore"][0]
assert rem["new_us"] == 0 and rem["delta_pct"] is None or rem["delta_pct"] == -100.0, rem
fa = d["stages"]["dit"]["categories"]["FA"]["time_us"]
near(fa["delta"], tn("dit", None, "FA") - tb("dit", None, "FA"))
for s in ("vae", "text_encoder"):
    near(d["stages"][s]["kernel_time_us"]["delta"], tn(s, "kernel_time_us") - tb(s, "kernel_time_us"))'

# --- attention only renamed (FP8 attention: FlashAttentionScore ->
# MindIE-SD's QuantFlashAttn, same times): FA stays FA, its verdict stays ---
gen fq0 --seed 24 --mix fa=50,matmul=25,vector=10 && cp -r fq0 fq1 &&
	find fq1 -name kernel_details.csv -o -name trace_view.json | grep -v ground_truth |
	xargs sed -i 's/FlashAttentionScore/QuantFlashAttn/g' &&
	diff_ fq fq0 fq1 && check fa_renamed_quant fq fq0 fq1 '
v = verdict("fa_quant_sparse")
assert v["change"] == "stayed", v
fa = d["stages"]["dit"]["categories"]["FA"]
assert fa["time_us"]["delta"] == 0, fa
assert fa["time_us"]["base"] > 0, fa
assert fa["share_pct"]["delta"] == 0, fa
assert d["stages"]["dit"]["categories"]["Other"]["time_us"]["delta"] == 0
assert types("removed") == ["FlashAttentionScore"], types("removed")
assert types("added") == ["QuantFlashAttn"], types("added")
assert all(t["category"] == "FA" for t in d["types"] if t["type"] in ("FlashAttentionScore", "QuantFlashAttn"))'

# --- exposed communication reduced (2 cards, all-to-all) ---------------------
gen cm0 --seed 23 --ranks 2 --comm alltoall --mix fa=15,matmul=30,vector=10 --comm-overlap 0.05 &&
	gen cm1 --seed 23 --ranks 2 --comm alltoall --mix fa=15,matmul=30,vector=10 --comm-overlap 0.95 &&
	diff_ cm cm0 cm1 && check exposed_comm_reduced cm cm0 cm1 '
ex = d["stages"]["dit"]["exposed_comm_us"]
near(ex["base"], tb("dit", "exposed_comm_us"), 0.01)
near(ex["delta"], tn("dit", "exposed_comm_us") - tb("dit", "exposed_comm_us"), 0.01)
assert ex["delta"] < 0
v = verdict("comm_overlap")
assert v["change"] == "cleared", v
assert [r["id"] for r in d["ranks"]] == [0, 1], d["ranks"]'

# --- a profile against itself; a report.json side equals its profile --------
diff_ self fa0 fa0 && check self_diff_is_zero self fa0 fa0 '
for s in d["stages"].values():
    for k in ("kernel_time_us", "wall_time_us", "exposed_comm_us"):
        assert s[k]["delta"] == 0, (k, s[k])
    if s["in_base"]:
        assert s["speedup"] == 1.0, s["speedup"]
assert all(t["status"] == "both" and t["delta_us"] == 0 for t in d["types"])
assert all(v["change"] in ("stayed", "never") for v in d["verdicts"])
assert not d["warnings"]'
"$SDPERF" report fa0 -o fa0r -f json -q -j 2 &&
	diff_ viajson fa0r/report.json fa1 && python3 - fa/diff.json viajson/diff.json <<'PY' && ok report_json_side_equals_profile || bad report_json_side_equals_profile
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["base"]["source"].endswith("report.json")
for x in (a, b):
    x["base"].pop("source")
assert a == b
PY

# --- shape: different step counts, per-step normalisation --------------------
"$GEN" -o st3 --seed 22 --steps 3 2>/dev/null && "$GEN" -o st6 --seed 22 --steps 6 2>/dev/null &&
	diff_ st st3 st6 && diff_ stp st3 st6 --per-step &&
	check steps_differ st st3 st6 '
w = [w for w in d["warnings"] if w["code"] == "steps_differ"]
assert w and "--per-step" in w[0]["message"], d["warnings"]
assert d["stages"]["dit"]["speedup"] < 0.6' &&
	check per_step_normalised stp st3 st6 '
assert d["per_step"] is True
dit = d["stages"]["dit"]["kernel_time_us"]
near(dit["base"], tb("dit", "kernel_time_us") / 3, 0.01)
near(dit["new"], tn("dit", "kernel_time_us") / 6, 0.01)
assert 0.9 < d["stages"]["dit"]["speedup"] < 1.1, d["stages"]["dit"]["speedup"]
assert not [w for w in d["warnings"] if w["code"] == "iterations_differ"], d["warnings"]'
"$GEN" -o it5 --seed 22 --iters 5 2>/dev/null && "$GEN" -o it8 --seed 22 --iters 8 2>/dev/null &&
	diff_ it it5 it8 && check iterations_differ it it5 it8 '
w = [w for w in d["warnings"] if w["code"] == "iterations_differ"]
assert w, d["warnings"]'

# --- nothing in common: an error --------------------------------------------
hdr='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
printf '%s\n3,c,Conv2D,AI_CORE,1767225600000000.000,10,0,1\n3,g,GroupNorm,AI_VECTOR_CORE,1767225600000020.000,10,0,1\n' "$hdr" >vae.csv
# (two kernels and no denoising loop make one stage, "other": a VAE alone
# and an unknown profile share it, a whole pipeline does not)
if "$SDPERF" diff it5 vae.csv -o nocommon -q 2>nc.err; then
	bad no_common_stage "exit 0"
elif [ $? -eq 3 ] && grep -q "no common stage: it5 has dit, vae, text_encoder; vae.csv has other" nc.err && [ ! -e nocommon ]; then
	ok no_common_stage
else
	bad no_common_stage "$(cat nc.err)"
fi

# --- a broken report.json side: an input error naming the place -------------
printf '{"schema_version": 1, "stages": {"dit": [}' >broken.json
if "$SDPERF" diff broken.json fa0 -o broken -q 2>broken.err; then
	bad broken_report_json "exit 0"
elif [ $? -eq 3 ] && grep -q "broken.json:1:" broken.err && [ ! -e broken ]; then
	ok broken_report_json
else
	bad broken_report_json "$(cat broken.err)"
fi

# --- sdperf check: exit codes ------------------------------------------------
code() { # LABEL EXPECTED_RC STDOUT_SUBSTRING -- ARGS
	local label=$1 want=$2 msg=$3
	shift 4
	"$SDPERF" check "$@" >"$label.out" 2>"$label.err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$label" "exit $got, expected $want" "$(head -3 "$label.out" "$label.err")"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$label.out" "$label.err"; then
		bad "$label" "lacks: $msg" "$(head -5 "$label.out" "$label.err")"
	else
		ok "$label"
	fi
}
code check_verdict_fires 1 "FAIL verdict matmul_quant fired" -- mm0
code check_no_verdicts 0 "" -- mm0 --no-verdicts
code check_max_fails 1 "FAIL dit.matmul.share = 0.4 > 0.3 (--max)" -- mm1 --max dit.matmul.share=0.30
# (the generator's 8 iterations of 12 blocks fill end to end: the cache
# finding fires on mm1 unless its threshold is out of reach)
code check_max_passes 0 "" -- mm1 --max dit.matmul.share=0.45 --max stages.dit.categories.FA.share_pct=25 -t cache=100
code check_report_json 1 "FAIL dit.matmul.share = 0.45 > 0.1 (--max)" -- fa0r/report.json --max dit.fa.share=0.9 --no-verdicts --max dit.matmul.share=0.1
code check_unknown_metric 2 "dit.fancy" -- mm1 --max dit.fancy=1
code check_missing_path 3 "nope: no such file or folder" -- nope
"$SDPERF" report it5 -o it5r -f json -q -j 2
code check_baseline_same 0 "" -- it5 --baseline it5r/report.json --no-verdicts
# 8 denoising iterations instead of 5: the DiT takes about 1.6x as long
code check_baseline_slower 1 "dit wall time per step" -- it8 --baseline it5r/report.json --no-verdicts --max-regression 5%
code check_baseline_loose 0 "" -- it8 --baseline it5r/report.json --no-verdicts --max-regression 200

finish
