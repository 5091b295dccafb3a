#!/usr/bin/env bash
# PDF report tests with poppler (pdftotext, pdfinfo, pdftoppm) and qpdf:
# English and Chinese example reports, and a profile with hundreds of long
# kernel type names (a multi-page table).  Usage: tests/pdf/run.sh SDPERF
set -euo pipefail
sdperf=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
version=$("$sdperf" --version | sed 's/^sdperf //')
docs=https://gitcode.com/Ascend/MindIE-SD/blob/master/docs
status=0
# The Steps section of the English reports: from its intro to the next
# section's heading; one chart title per rank with steps.
steps_en="One table per rank that has a step_trace_time.csv"
chart_en="Computing, not-overlapped communication and free time per step"

echo "== English: examples/image-dit-1card"
"$sdperf" report examples/image-dit-1card -o "$work/en" --format pdf -q
python3 "$here/check_pdf.py" "$work/en/report.pdf" --max-kb 200 --pages-min 2 \
	--title "Diffusion inference performance report" \
	--subject "Performance analysis of an Ascend NPU diffusion-model profile" \
	--creator "sdperf $version" \
	--text "Verdicts" --text "Attention dominates the DiT" --text "42.0%" \
	--text "DiT (transformer)" --text "VAE" --text "Text encoder" \
	--text "MatMul" --text "Vector" --text "Conv" --text "FlashAttentionScore" \
	--text "MindIE-SD feature docs" --text "Page 1 of" \
	--url "$docs/en/features/quantization.md" --url "$docs/en/features/sparse.md" \
	--url "$docs/en/features/DyEPLB.md" \
	--outline "Verdicts" --outline "Stages" --outline "Method" \
	--outline "MindIE-SD feature docs" \
	--no-text "Per-rank figures" \
	--section-text "$steps_en" "Warnings" "Rank 0" \
	--section-count "$steps_en" "Warnings" "$chart_en" 1 \
	--section-count "$steps_en" "Warnings" "Steps per rank" 0 || status=1

echo "== Chinese: examples/video-dit-4card rank 0"
"$sdperf" report examples/video-dit-4card/synth-node_1000_20260101155101760_ascend_pt \
	-o "$work/zh" --format pdf --lang zh -q
python3 "$here/check_pdf.py" "$work/zh/report.pdf" --max-kb 900 --pages-min 2 \
	--title "扩散模型推理性能报告" --creator "sdperf $version" \
	--text "结论" --text "DiT 以 MatMul 为主" --text "35.1%" --text "文本编码器" \
	--text "暴露通信" --text "MindIE-SD 特性文档" --text "第 1 页" \
	--url "$docs/zh/features/quantization.md" --url "$docs/zh/features/parallelism.md" \
	--outline "结论" --outline "计算方法" \
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
		--text "Overlap Analysis totals per rank" --text "user markers through flows" \
		--text "Steps per rank" --text "Worker threads" \
		--section-text "$steps_en" "Warnings" "Steps per rank" \
		--section-text "$steps_en" "Warnings" "Rank 0" \
		--section-text "$steps_en" "Warnings" "Rank 3" \
		--section-count "$steps_en" "Warnings" "$chart_en" 4 \
		--outline "Ranks" --outline "Collective communication" \
		--outline "Overlap Analysis cross-check" --outline "Stage boundaries" \
		--outline "Steps" || status=1
	"$sdperf" report "$work/gen4" -o "$work/gen4-zh" --format pdf --lang zh -q
	python3 "$here/check_pdf.py" "$work/gen4-zh/report.pdf" --max-kb 1200 --pages-min 5 \
		--text "各卡对比" --text "集合通信" --text "最慢卡 2 对比中位卡" \
		--text "阶段边界" --outline "各卡对比" --outline "步骤" \
		--section-text "每张有 step_trace_time.csv 的卡" "计算方法" "各卡步骤汇总" \
		--section-count "每张有 step_trace_time.csv 的卡" "计算方法" \
			"每步的计算、未被掩盖的通信和空闲时间" 4 || status=1
else
	echo "skipped: four ranks (no sdperf-gen with --straggler at $gen)"
fi
exit $status
