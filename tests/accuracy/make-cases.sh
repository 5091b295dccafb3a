#!/bin/sh
# Writes the generated profiles (with ground truth) that the stage-separation
# accuracy test measures against. Every case of the issue is covered: text
# encoder before the loop (T5 / CLIP), decode-only VAE, VAE encode before and
# decode after (video-to-video), several pipeline calls per profile, all
# attention kinds, Level0 files typed from names, multi-card all-to-all.
# Every case is written in both exports (--export both): the text files and
# ascend_pytorch_profiler[_N].db of the same profile side by side, so the
# test measures the db export against the same truth as the CSV.
# Every trace carries the runtime and HCCL sub-tasks real traces have
# (--subtasks), and each case's traces are also copied alone into
# CASE/trace-only/ (rank folders holding only trace_view.json), so the test
# analyses every configuration a third time: from its trace alone. Two
# cases have the guide's NPU-only trace (no host events, no steps), one has
# stage markers and flows (two: one with the DiT's prologue). Three cases
# run a UNet denoiser, one an image-to-video prologue over 4 cards.
# Usage: tests/accuracy/make-cases.sh GEN_BINARY OUTDIR
set -eu
GEN=$1
OUT=$2
rm -rf "$OUT"
g() {
	name=$1
	shift
	"$GEN" -o "$OUT/$name" --export both --subtasks "$@" >"$OUT.log" 2>&1 || {
		cat "$OUT.log"
		echo "sdperf-gen failed for $name" >&2
		exit 1
	}
	for r in "$OUT/$name"/*_ascend_pt; do
		t=$OUT/$name/trace-only/${r##*/}/ASCEND_PROFILER_OUTPUT
		mkdir -p "$t"
		cp "$r/ASCEND_PROFILER_OUTPUT/trace_view.json" "$t/"
	done
}

g t2i-t5-5steps      --seed 11 --steps 5 --iters 8 --blocks 12 --text-encoder t5
g t2i-clip-fia       --seed 12 --steps 3 --iters 10 --blocks 8 --text-encoder clip --attention fia --npu-only
g t2i-no-te-laser    --seed 13 --steps 2 --iters 6 --blocks 10 --text-encoder none --attention laser --quant
g v2v-video-encode   --seed 14 --steps 3 --iters 8 --blocks 12 --video --vae-encode --text-encoder t5
g video-4card-a2a    --seed 15 --steps 2 --iters 6 --blocks 8 --video --ranks 4 --comm alltoall --comm-overlap 0.3 --text-encoder clip --markers
g video-2card-ag     --seed 16 --steps 2 --iters 5 --blocks 8 --video --ranks 2 --comm allgather --comm-overlap 0.8
g level0-sparse      --seed 17 --steps 3 --iters 8 --blocks 12 --variant level0 --attention sparse --npu-only
# Level0 with MemSet helpers before every Conv and MatMul (Conv3D7_MemSet,
# aclnnMatmul_MatMulV3Common_MemSet): MemSet, Vector, in the truth
g level0-memset      --seed 41 --steps 2 --iters 4 --blocks 6 --video --variant level0 --memset
g level0-old-vector  --seed 18 --steps 1 --iters 12 --blocks 16 --variant level0-old --mix fa=20,matmul=30,vector=40
g level1-2024-matmul --seed 19 --steps 4 --iters 4 --blocks 20 --variant level1-2024 --mix fa=15,matmul=65,vector=10
g long-loop-1step    --seed 20 --steps 1 --iters 28 --blocks 28 --video --vae-encode --text-encoder t5
# harder shapes: one iteration (no second prologue to match: the host's idle
# gap marks the loop), a loop whose window count ties CLIP's layer count,
# a tiny loop after a VAE encode, a text encoder as long as the loop
g one-iteration      --seed 32 --steps 2 --iters 1 --blocks 12
g clip-ties-loop     --seed 33 --steps 5 --iters 3 --blocks 4 --text-encoder clip
g v2v-tiny-loop      --seed 35 --steps 3 --iters 2 --blocks 3 --video --vae-encode --text-encoder clip
g video-enc-a2a      --seed 34 --steps 2 --iters 4 --blocks 6 --video --vae-encode --ranks 2 --comm alltoall --comm-overlap 0.9
# the DiT's prologue (noise, concat, the latents broadcast or scattered to
# the SP group) right after the VAE encode, the host's gap before the loop
g v2v-prologue       --seed 36 --steps 3 --iters 4 --blocks 6 --video --vae-encode --text-encoder t5 --dit-prologue broadcast
g i2v-prologue-sp    --seed 37 --steps 2 --iters 4 --blocks 6 --video --vae-encode --ranks 2 --comm alltoall --text-encoder clip --dit-prologue scatter
g i2v-prologue-mark  --seed 38 --steps 2 --iters 3 --blocks 6 --video --vae-encode --ranks 2 --comm allgather --dit-prologue broadcast --markers
# UNet denoisers (SDXL-like): Conv2D/GroupNorm ResBlocks in every iteration
# are the denoiser, not a VAE; two CLIP encoders, a T5, none (NPU-only)
g unet-sdxl          --seed 51 --steps 2 --iters 4 --blocks 4 --denoiser unet --text-encoder clip
g unet-t5-3calls     --seed 53 --steps 3 --iters 3 --blocks 3 --denoiser unet --text-encoder t5 --variant level1-2024
g unet-no-te-npu     --seed 52 --steps 1 --iters 6 --blocks 2 --denoiser unet --text-encoder none --npu-only
# SDXL's depth (10 attention layers at the lowest level) from names alone;
# a 2-iteration UNet after a 24-layer T5 (whose layers outnumber it)
g unet-deep-level0   --seed 63 --steps 1 --iters 10 --blocks 10 --denoiser unet --text-encoder clip --variant level0-old
g unet-tiny-after-t5 --seed 62 --steps 2 --iters 2 --blocks 2 --denoiser unet --text-encoder t5 --markers
# a DiT loop of 2 x 2 blocks after a 24-layer T5: the T5's windows outweigh
# the loop's, its repetition tells them apart
g dit-tiny-after-t5  --seed 71 --steps 2 --iters 2 --blocks 2 --text-encoder t5
# image-to-video over 4 cards (Ulysses): the text encoder's output tail,
# the VAE encode, then noise (Range, Cast), a long latent broadcast and the
# Conv3DV2 patch embedding before the first DiT block
# the same over 4 cards gathering K/V with a DiTCache and 3 iterations
# (full, hit, full): no two iterations repeat back to back, so the patch
# embedding is told from the encode by the next iteration's head
g i2v-cache-short    --seed 85 --steps 2 --iters 3 --blocks 3 --video --vae-encode --ranks 4 --comm allgather --dit-prologue broadcast --cache dit:2 --text-encoder t5
g i2v-4card-a2a      --seed 54 --steps 2 --iters 4 --blocks 6 --video --vae-encode --ranks 4 --comm alltoall --text-encoder t5 --dit-prologue broadcast
g short-loop-t5      --seed 101 --steps 2 --iters 3 --blocks 4 --text-encoder t5 --mix fa=42,matmul=38,vector=15
