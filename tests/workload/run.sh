#!/usr/bin/env bash
# What the profile is (analysis/workload.c), end to end. Generated
# profiles (sdperf-gen --workload, whose truth records the kind): a
# training step and a VAE-only capture are named for what they are, get
# one stage (no DiT/VAE split), fire no stage finding and are trusted
# low; the denoising iterations alone keep their DiT; a whole pipeline
# stays diffusion inference with its split (kernel counts from the
# truth). Real captures (the expected kinds from PROVENANCE.md: AlexNet
# DDP training, GPT-3 Megatron training, PaddleOCR-VL LLM decode): the
# same, and `sdperf diff` of the two AlexNet captures works.
# Usage: tests/workload/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
SAMPLES=$(realpath "$(dirname "$0")/../data/samples")
EXAMPLES=$(realpath "$(dirname "$0")/../../examples")
CHECK_ZH=$(realpath "$(dirname "$0")/../zh/check_zh.py")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
gen() { "$GEN" -o "$1" --seed 5 --steps 2 --iters 4 --blocks 4 --self-check \
	"${@:2}" 2>/dev/null || bad "$1" "sdperf-gen ${*:2} failed"; }
report() { # PROFILE OUT ARGS...
	"$SDPERF" report "$1" -o "$2" -j 2 -q "${@:3}" 2>"$2.err" ||
		{ bad "$2" "sdperf report failed: $(head -3 "$2.err")"; return 1; }
}
# LABEL REPORT_DIR KIND PART SPLIT [TRUTH_DIR]: report.json against the
# expected kind; without a split every kernel is in "other" and no stage
# finding has a value; with a truth, the kernel counts are the truth's.
check() {
	if python3 - "$2/report.json" "$3" "$4" "$5" "${6:-}" <<'PY' 2>"$1.err"; then
import glob, json, sys
d = json.load(open(sys.argv[1]))
kind, part, split, truth = sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5]
w = d["workload"]
assert w["kind"] == kind and w["part"] == part, w
assert w["stage_split"] == split and d["summary"]["stage_split"] == split, w
assert d["summary"]["workload"] == kind
st = {k: v["kernels"] for k, v in d["stages"].items()}
if truth:
    want = {"dit": 0, "vae": 0, "text_encoder": 0, "other": 0}
    for f in glob.glob(truth + "/ground_truth/rank*.json"):
        t = json.load(open(f))
        # a truth written before --workload holds a whole pipeline
        tw = t.get("workload", {"kind": "diffusion_inference", "part": "none"})
        assert tw["kind"] == kind and tw["part"] == part, tw
        for s, v in t["stages"].items():
            want[s if split else "other"] += v["kernels"] if "kernels" in v else v["count"]
    assert st == want, (st, want)
stage_findings = {"vae_parallel", "text_encoder", "cache"}
if not split:
    assert st["dit"] == st["vae"] == st["text_encoder"] == 0, st
    assert st["other"] > 0, st
    for v in d["verdicts"]:
        if v["id"] in stage_findings:
            assert not v["applicable"] and not v["fired"], v
            assert v["na_code"].startswith("one_stage_"), v
        if v["id"] in {"matmul_quant", "fa_quant_sparse", "vector_fusion", "comm_overlap"}:
            assert v["whole_profile"] and v["gain"] is None, v
if kind != "diffusion_inference":
    assert d["summary"]["trust"]["level"] == "low", d["summary"]["trust"]
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$1.err")"
	fi
}

# Generated: a training step on two data-parallel ranks (its forward is a
# repeated block stack: training must win over the loop), a VAE decode
# alone, the denoising iterations alone, a whole pipeline.
gen train --workload training --ranks 2
report train train_r && check training_generated train_r training none 0 train
gen vae --workload vae-only
report vae vae_r && check vae_only_generated vae_r partial vae_only 0 vae
gen iters --workload iterations
report iters iters_r && check iterations_only_generated iters_r partial loop_only 1
python3 - iters_r/report.json iters/ground_truth/rank0.json <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
assert d["stages"]["dit"]["kernels"] == t["stages"]["dit"]["kernels"], (d["stages"]["dit"]["kernels"], t["stages"]["dit"])
assert d["workload"]["evidence"]["loop_calls"] == t["steps"]
PY
	ok iterations_only_dit_kernels || bad iterations_only_dit_kernels
gen pipe
report pipe pipe_r && check diffusion_generated pipe_r diffusion_inference none 1 pipe

# An LLM decode capture of several decode steps: its layers repeat like a
# denoising loop (the stage signatures see one), the incremental attention
# makes it LLM inference; the same kernels with a fused attention stay a
# loop (a control: the loop is seen, so the order of the tests decides).
python3 - <<'PY'
hdr = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim"
layer = [("RmsNorm", "AI_VECTOR_CORE", 5), ("MatMulV2", "AI_CORE", 20),
         ("ApplyRotaryPosEmb", "AI_VECTOR_CORE", 4), ("ATTN", "MIX_AIC", 15),
         ("MatMulV2", "AI_CORE", 12), ("Add", "AI_VECTOR_CORE", 3),
         ("RmsNorm", "AI_VECTOR_CORE", 5), ("MatMulV2", "AI_CORE", 30),
         ("Swish", "AI_VECTOR_CORE", 4), ("MatMulV2", "AI_CORE", 25),
         ("Add", "AI_VECTOR_CORE", 3)]
for attn, out in (("IncreFlashAttention", "decode.csv"), ("FlashAttentionScore", "fused.csv")):
    t, rows = 1767225600000000.0, [hdr]
    for step in range(3, 7):
        for _ in range(24):
            for n, c, d in layer:
                n = attn if n == "ATTN" else n
                rows.append("%d,%s,%s,%s,%.3f,%d,0,1" % (step, n, n, c, t, d))
                t += d + 2
        t += 500
    open(out, "w").write("\n".join(rows) + "\n")
PY
report decode.csv decode_r -f json && check llm_decode_steps decode_r llm_inference none 0 &&
	report fused.csv fused_r -f json && python3 - decode_r/report.json fused_r/report.json <<'PY' &&
import json, sys
d, f = (json.load(open(p))["workload"] for p in sys.argv[1:3])
assert d["evidence"]["denoising_loop"] and d["evidence"]["llm_kernels"] == 96, d
assert f["evidence"]["denoising_loop"] and f["kind"] != "llm_inference", f
PY
	ok llm_wins_over_loop || bad llm_wins_over_loop

# The examples (generated pipelines, their truth beside them) stay
# diffusion inference with their split.
for ex in image-dit-1card video-dit-4card video-dit-cache-1card video-v2v-1card; do
	dir="$EXAMPLES/$ex"
	report "$dir" "ex_$ex" -f json &&
		check "example_$ex" "ex_$ex" diffusion_inference none 1 "$dir"
done

# The summary says it first, in every format, en and zh.
report train train_zh --lang zh -f html,md,pdf
"$SDPERF" report train -o train_txt -j 2 -f json 2>/dev/null >train.txt
python3 - train_r train_zh train.txt <<'PY' && ok workload_in_every_format || bad workload_in_every_format
import sys
en, zh, txt = sys.argv[1:4]
html = open(en + "/report.html").read()
s = html.index('id="summary"')
assert html.index("sum-workload", s) < html.index("sum-e2e", s)
assert "<strong>Training step</strong>" in html and "No denoising loop" not in html
assert "the guide&#39;s thresholds are meant for a DiT" in html or "the guide's thresholds are meant for a DiT" in html
md = open(en + "/report.md").read()
assert "- **Workload:** Training step — Denoising loop: 8 iterations of a 4-block stack, 2 calls; " in md, md[:800]
zhtml = open(zh + "/report.html").read()
assert "<strong>训练步</strong>" in zhtml and "指南的阈值是为 DiT 设定的" in zhtml
zmd = open(zh + "/report.md").read()
assert "训练步" in zmd
t = open(txt).read()
assert t.index("  workload     training step: ") < t.index("  end to end"), t[:600]
assert "stage split  per step: training step " in t
PY
# the Chinese wording passes the house's typography check
python3 "$CHECK_ZH" train_zh/report.html \
	train_zh/report.md >zh.out 2>&1 && ok workload_zh_typography ||
	bad workload_zh_typography "$(tail -3 zh.out)"
if command -v pdftotext >/dev/null; then
	pdftotext train_zh/report.pdf train_zh.txt 2>/dev/null &&
		grep -q "训练步" train_zh.txt && ok pdf_workload || bad pdf_workload
fi

# Real captures: the kinds PROVENANCE.md gives them.
report "$SAMPLES/msinsight-alexnet-2rank-2024/level1" a24 &&
	check alexnet_2024_training a24 training none 0
report "$SAMPLES/msinsight-alexnet-2rank-2024/level0" a24l0 &&
	check alexnet_2024_level0_training a24l0 training none 0
report "$SAMPLES/msinsight-alexnet-2rank-2025-db/level1" a25 &&
	check alexnet_2025_training a25 training none 0
report "$SAMPLES/msinsight-alexnet-2rank-2025-db/level0" a25l0 &&
	check alexnet_2025_level0_training a25l0 training none 0
report "$SAMPLES/msinsight-gpt3-testdata-2023" gpt3 &&
	check gpt3_training gpt3 training none 0
report "$SAMPLES/paddleocrvl-910b-decode-2026" paddle &&
	check paddleocr_llm_inference paddle llm_inference none 0
# A profile that is not diffusion inference is not titled as one
"$SDPERF" report "$SAMPLES/msinsight-gpt3-testdata-2023" -o gpt3md -q -f md \
	2>/dev/null && [ "$(head -1 gpt3md/report.md)" = "# Ascend NPU performance report" ] &&
	ok title_not_diffusion || bad title_not_diffusion "$(head -1 gpt3md/report.md)"
# Several ranks of one stage: the ranks table measures the whole profile
# and says so (Markdown and the terminal's rank lines)
"$SDPERF" report "$SAMPLES/msinsight-alexnet-2rank-2024/level1" -o a24md -q \
	-f md 2>/dev/null && grep -q "| Rank | Kernel time (whole profile) |" a24md/report.md &&
	"$SDPERF" report "$SAMPLES/msinsight-alexnet-2rank-2024/level1" -o a24t \
		-f json >a24t.out 2>/dev/null &&
	grep -q "^  rank 0    training step " a24t.out &&
	ok ranks_whole_profile || bad ranks_whole_profile
# MindIE-SD's advice on a whole-profile finding is said to be a DiT's
grep -q "this profile is not one, so take it as a pointer only" a24md/report.md &&
	ok whole_rec_note || bad whole_rec_note
# The two AlexNet captures share their one stage, so diff compares them.
if "$SDPERF" diff "$SAMPLES/msinsight-alexnet-2rank-2024/level1" \
	"$SAMPLES/msinsight-alexnet-2rank-2025-db/level1" -o adiff -q \
	2>adiff.err; then
	python3 - adiff/diff.json <<'PY' && ok alexnet_diff || bad alexnet_diff "$(tail -3 adiff.err)"
import json, sys
d = json.load(open(sys.argv[1]))
st = d["stages"]
other = st["other"] if isinstance(st, dict) else [s for s in st if s.get("stage", s.get("id")) == "other"][0]
assert other, st
PY
	"$SDPERF" diff "$SAMPLES/msinsight-alexnet-2rank-2024/level1" \
		"$SAMPLES/msinsight-alexnet-2rank-2025-db/level1" -o adiffmd -q -f md \
		2>/dev/null && grep -q "^| Training step | " adiffmd/diff.md &&
		ok alexnet_diff_named || bad alexnet_diff_named
else
	bad alexnet_diff "$(head -3 adiff.err)"
fi

finish
