#!/usr/bin/env bash
# PDF report tests with poppler (pdftotext, pdfinfo, pdftoppm) and qpdf:
# English and Chinese example reports, and a profile with hundreds of long
# kernel type names (a multi-page table). check_pdf.py also checks every
# PDF for poppler warnings (pdftotext's stderr), qpdf --check warnings and
# a heading at the foot of a page; --same-page: a small table on one page.  Usage: tests/pdf/run.sh SDPERF
set -euo pipefail
sdperf=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
version=$("$sdperf" --version | sed -n '1s/^sdperf //p')
docs=https://gitcode.com/Ascend/MindIE-SD/blob/master/docs
status=0
# The Steps section of the English reports: from its intro to the next
# section's heading; one chart title per rank with steps.
steps_en="One table per rank that has a step_trace_time.csv"
chart_en="Computing, not-overlapped communication and free time per step"
# The Collection check section: from its intro to the Stages intro (the
# gap titles, the code that fixes each, the whole snippet, in DejaVu Sans
# Mono: --glyphs checks that every character has a glyph in it)
coll_en="How the profile was collected, told from its files"
stages_en="Every kernel is attributed to a stage"

echo "== English: examples/image-dit-1card"
"$sdperf" report examples/image-dit-1card -o "$work/en" --format pdf -q
python3 "$here/check_pdf.py" "$work/en/report.pdf" --max-kb 200 --pages-min 2 \
	--title "Diffusion inference performance report" \
	--subject "Performance analysis of an Ascend NPU diffusion-model profile" \
	--creator "sdperf $version" \
	--text "Verdicts" --text "Attention dominates the DiT" --text "42.0%" \
	--row-of "Action recommended" 3 \
	--text "DiT (transformer)" --text "VAE" --text "Text encoder" \
	--text "MatMul" --text "Vector" --text "Conv" --text "FlashAttentionScore" \
	--text "MindIE-SD feature docs" --text "Page 1 of" \
	--url "$docs/en/features/quantization.md" --url "$docs/en/features/sparse.md" \
	--url "$docs/en/features/DyEPLB.md" \
	--outline "Verdicts" --outline "Stages" --outline "Method" \
	--outline "MindIE-SD feature docs" \
	--no-text "Per-rank figures" \
	--upper-half "Summary" \
	--upper-half "End-to-end device time: 154.20 ms per profiler step (2 steps, 308.41 ms in all; 2 pipeline calls, 154.20 ms each)" \
	--upper-half "Findings: 3 findings" \
	--upper-half "Stage split, per profiler step: DiT 71.96 ms 47.4%" \
	--upper-half "Do first: The VAE is a large share of end to end (39.2% > 30.0%) · Estimated gain: end to end 154.2 ms → 124.5–134.4 ms per step (−12.9–19.3%)" \
	--text "Estimated gain: VAE 59.5 ms → 29.7–39.6 ms; end to end 154.2 ms → 124.5–134.4 ms per step (−12.9–19.3%); assuming the VAE runs" \
	--text "Estimated gain: DiT 72.0 ms → 49.5–57.0 ms" --text "(source: MindIE-SD sparse doc (RainFusion2.0, arXiv 2512.24086)" \
	--text "Each gain is an estimate, not a measurement" \
	--upper-half "Trust: fair — Level1, 2 timed steps after 3 warm-up, 2 warnings; the profiler's own totals agree with the kernels" \
	--text "Passing checks" --text "Exposed communication in the DiT: 0% ≤ 30.0% (Within threshold)" \
	--no-text "Communication is exposed in the DiT" \
	--section-text "$steps_en" "Warnings" "Rank 0" \
	--section-count "$steps_en" "Warnings" "$chart_en" 1 \
	--section-count "$steps_en" "Warnings" "Steps per rank" 0 \
	--outline "Collection check" --fonts-embedded --glyphs \
	--section-text "$coll_en" "$stages_en" "Fewer than 5 timed steps" \
	--section-text "$coll_en" "$stages_en" "2 timed, 3 run before" \
	--section-text "$coll_en" "$stages_en" \
		"schedule=torch_npu.profiler.schedule(wait=0, warmup=2, active=5, repeat=1)," \
	--section-text "$coll_en" "$stages_en" "profile_memory=True," \
	--section-text "$coll_en" "$stages_en" "Collect like this" \
	--section-text "$coll_en" "$stages_en" \
		'on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"),' \
	--section-count "$coll_en" "$stages_en" "No memory data" 2 || status=1

echo "== Chinese: examples/video-dit-4card rank 0"
"$sdperf" report examples/video-dit-4card/synth-node_1000_20260101155101760_ascend_pt \
	-o "$work/zh" --format pdf --lang zh -q
python3 "$here/check_pdf.py" "$work/zh/report.pdf" --max-kb 900 --pages-min 2 \
	--title "扩散模型推理性能报告" --creator "sdperf $version" \
	--row-of "建议优化" 2 \
	--text "结论" --text "DiT 中 MatMul 的占比" --no-text "DiT 以 MatMul 为主" --text "35.1%" --upper-half "摘要" --text "文本编码器" \
	--text "暴露通信" --text "MindIE-SD 特性文档" --text "第 1 页，共" \
	--url "$docs/zh/features/quantization.md" --url "$docs/zh/features/parallelism.md" \
	--outline "结论" --outline "计算方法" \
	--outline "采集检查" --text "计时步骤少于 5 个" --text "profile_memory=True," \
	--text "推荐的采集方式" --glyphs \
	--text "预计收益（估算）：VAE" --text "前提：VAE 解码切分到两张" --text "（减少 21.1–31.7%）" \
	--text "每项收益都是估算而非实测" \
	|| status=1

echo "== hundreds of long kernel type names"
python3 "$here/long_names.py" "$work/long/kernel_details.csv"
"$sdperf" report "$work/long/kernel_details.csv" -o "$work/long" --format pdf -q
python3 "$here/check_pdf.py" "$work/long/report.pdf" --pages-min 5 \
	--text "LongFusedOperator" \
	--table-header "Kernel type" --table-column-before "Category" \
	--table-cell-marker "LongFused" || status=1
gen=$(dirname "$sdperf")/../tools/gen/sdperf-gen
if [ -x "$gen" ] && "$gen" --help 2>&1 | grep -q -- '--straggler'; then
	echo "== four ranks (sdperf-gen --straggler 2=1.3 --markers), en and zh"
	"$gen" -o "$work/gen4" --ranks 4 --comm alltoall --straggler 2=1.3 --markers \
		>"$work/gen4.log" 2>&1 || { cat "$work/gen4.log"; status=1; }
	"$sdperf" report "$work/gen4" -o "$work/gen4-en" --format pdf -q
	python3 "$here/check_pdf.py" "$work/gen4-en/report.pdf" --max-kb 400 --pages-min 5 \
		--text "One card computes much longer than the others" \
		--text "slowest rank 2 vs median" --text "Slowest rank: 2" \
		--text "DiT category time per rank" --text "Collective communication" \
		--text "AllToAll" --text "Bandwidth per transport" \
		--same-page "Bandwidth per transport" "SDMA" \
		--section-count "Per-rank figures of the DiT stage" "DiT category time per rank" "Rank" 1 \
		--text-bold "slowest" \
		--section-text "Per-rank figures of the DiT stage" "DiT category time per rank" "Comm wait" \
		--text "Overlap Analysis totals per rank" --text "user markers through flows" \
		--text "Steps per rank" --no-text "Worker threads" \
		--text "Rank 0 (lead card)" \
		--section-text "$steps_en" "Warnings" "Steps per rank" \
		--section-text "$steps_en" "Warnings" "Rank 0" \
		--section-text "$steps_en" "Warnings" "Rank 3" \
		--section-count "$steps_en" "Warnings" "$chart_en" 4 \
		--outline "Ranks" --outline "Collective communication" \
		--outline "Overlap Analysis cross-check" --outline "Stage boundaries" \
		--outline "Steps" || status=1
	echo "== four ranks, rank 1 without its trace_view.json: marked missing in red"
	cp -r "$work/gen4" "$work/gen4m"
	find "$work/gen4m" -path '*node_1001*' -name trace_view.json -delete
	"$sdperf" report "$work/gen4m" -o "$work/gen4m-en" --format pdf -q
	python3 "$here/check_pdf.py" "$work/gen4m-en/report.pdf" \
		--text-colour "trace_view.json: missing" "#cc3311" \
		--text-colour "kernel_details.csv: found" "#1d2330" || status=1
	"$sdperf" report "$work/gen4" -o "$work/gen4-zh" --format pdf --lang zh -q
	python3 "$here/check_pdf.py" "$work/gen4-zh/report.pdf" --max-kb 1200 --pages-min 5 \
		--text "各卡对比" --text "集合通信" --text "最慢卡 2 对比中位卡" \
		--text "阶段边界" --outline "各卡对比" --outline "步骤" \
		--same-page "各链路带宽" "SDMA" \
		--section-text "每张有 step_trace_time.csv 的卡" "计算方法" "各卡步骤汇总" \
		--section-count "每张有 step_trace_time.csv 的卡" "计算方法" \
			"每步的计算、未被掩盖的通信和空闲时间" 4 || status=1
else
	echo "skipped: four ranks (no sdperf-gen with --straggler at $gen)"
fi
# The comparison report (sdperf diff) of the example pair, en and zh (its
# speed-up cards: the stage, then the factor, read in drawing order): the
# texts come from assets/i18n/*.json; 1.47 = 143.91 ms / 97.94 ms, the DiT
# wall times of the two examples' single-run reports; FlashAttentionScore
# is in the base run only, AdaBlockSparseAttention in the new run only.
# The comparison has no links (its HTML has none either). Sizes measured:
# en 105 KiB, zh 628 KiB, 4 pages each. --glyphs: the zh one drew
# "−17.0 个百分点" with a font that has no U+2212 (now drawn in the Latin
# font, as every run of digits and ASCII in Chinese text: pdf_text.c).
if "$sdperf" --help 2>&1 | grep -q 'sdperf diff'; then
	echo "== diff, English: examples/image-dit-1card -> image-dit-1card-tuned"
	"$sdperf" diff examples/image-dit-1card examples/image-dit-1card-tuned \
		-o "$work/diff-en" --format pdf -q
	python3 "$here/check_pdf.py" "$work/diff-en/diff.pdf" --max-kb 200 --pages-min 3 \
		--title "Performance comparison" \
		--subject "Performance comparison of two Ascend NPU diffusion-model profiles" \
		--creator "sdperf $version" --fonts-embedded --glyphs --no-urls --cjk-max 0 \
		--text "DiT (transformer) 1.47× faster" --text "VAE 0.99×: within 2%" \
		--text "Text encoder 1.00×: within 2%" \
		--text-not-colour "within 2%" "#8a8f99" \
		--text "Attention dominates the DiT Cleared" --text "fa_quant_sparse" \
		--marks 2 1 \
		--text "MatMul share of the DiT Not fired" \
		--text "FlashAttentionScore" --text "AdaBlockSparseAttention" \
		--text "Page 1 of" \
		--section-text "Removed (base run only)" "Method" "FlashAttentionScore" \
		--section-text "Added (new run only)" "Removed (base run only)" "AdaBlockSparseAttention" \
		--section-count "Added (new run only)" "Method" "FlashAttentionScore" 1 \
		--outline "Summary" --outline "Stages" --outline "Kernel time by category" \
		--outline "Kernel types" --outline "Method" || status=1

	echo "== diff, Chinese: examples/image-dit-1card -> image-dit-1card-tuned"
	"$sdperf" diff examples/image-dit-1card examples/image-dit-1card-tuned \
		-o "$work/diff-zh" --format pdf --lang zh -q
	python3 "$here/check_pdf.py" "$work/diff-zh/diff.pdf" --max-kb 900 --pages-min 3 \
		--title "性能对比报告" --subject "两份昇腾 NPU 扩散模型性能数据的性能对比" \
		--creator "sdperf $version" --fonts-embedded --glyphs --no-urls --cjk-min 500 \
		--text "DiT（Transformer） 1.47×，更快" --text "文本编码器 1.00×：变化在 2% 以内" \
		--text "DiT 以注意力为主 已消除" --text "DiT 中 MatMul 的占比 均未触发" \
		--marks 2 1 \
		--text "结论变化" --text "可比性警告" --text "第 1 页" \
		--text "FlashAttentionScore" --text "AdaBlockSparseAttention" \
		--section-text "移除（仅基线）" "方法" "FlashAttentionScore" \
		--section-text "新增（仅新版）" "移除（仅基线）" "AdaBlockSparseAttention" \
		--outline "概览" --outline "阶段" --outline "算子类型" --outline "方法" \
		--no-text "Cleared" --no-text "Summary" || status=1

	echo "== diff of a hostile pair: markup and a 192-character name as kernel types"
	long=LongFusedOperator$(printf '_Part%02d' $(seq 0 24))
	head='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
	mkdir -p "$work/hb" "$work/hn"
	printf '%s\n' "$head" \
		'1,MatMulV3,MatMulV3,AI_CORE,1767225600000000.000,500.5,0,8' \
		'1,"<script>alert(1)</script>","<script>alert(1)</script>",AI_CORE,1767225600000503.000,300.5,0,8' \
		"1,$long,$long,AI_VECTOR_CORE,1767225600000806.000,100.5,0,8" >"$work/hb/kernel_details.csv"
	printf '%s\n' "$head" \
		'1,MatMulV3,MatMulV3,AI_CORE,1767225600000000.000,400.5,0,8' \
		'1,"<img src=x onerror=alert(1)>","<img src=x onerror=alert(1)>",AI_CORE,1767225600000403.000,200.5,0,8' \
		"1,$long,$long,AI_VECTOR_CORE,1767225600000606.000,150.5,0,8" >"$work/hn/kernel_details.csv"
	"$sdperf" diff "$work/hb/kernel_details.csv" "$work/hn/kernel_details.csv" \
		-o "$work/diff-hostile" --format pdf -q
	python3 "$here/check_pdf.py" "$work/diff-hostile/diff.pdf" --max-kb 200 --fonts-embedded --glyphs \
		--text "<script>alert(1)</script>" --text "<img src=x onerror=alert(1)>" \
		--section-text "Removed (base run only)" "Method" "<script>alert(1)</script>" \
		--section-text "Added (new run only)" "Removed (base run only)" "<img src=x onerror=alert(1)>" \
		--text "−100.0 µs" --text "+50.0 µs" --text "Part24" --no-text "&lt;" \
		--table-header "Kernel type" --table-column-before "Stage" \
		--table-cell-marker "Part" --table-pages-min 1 || status=1
else
	echo "skipped: comparison report (no sdperf diff in $sdperf --help)"
fi
exit $status
