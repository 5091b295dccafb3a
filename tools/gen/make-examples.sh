#!/bin/sh
# make-examples.sh: writes the small example profiles shipped in examples/.
# Usage: tools/gen/make-examples.sh GEN_BINARY OUTDIR
# Fixed seeds, so the output is the same on every run and machine.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 GEN_BINARY OUTDIR" >&2
	exit 2
fi
GEN=$1
OUT=$2

# Image DiT on one card with a T5 text encoder; FA-heavy (FA > 30%).
"$GEN" -o "$OUT/image-dit-1card" --seed 101 --steps 2 --iters 3 --blocks 4 \
	--text-encoder t5 --attention fa --mix fa=42,matmul=38,vector=15 --self-check

# The same image pipeline after tuning (same seed): block-sparse attention
# and W8A8 quantized linears; the attention verdict clears (the "after" of
# the diff example in examples/diff-image-tuned).
"$GEN" -o "$OUT/image-dit-1card-tuned" --seed 101 --steps 2 --iters 3 --blocks 4 \
	--text-encoder t5 --attention sparse --quant --mix fa=25,matmul=48,vector=17 \
	--self-check

# Video DiT on 4 cards with Ulysses all-to-all, comm barely overlapped, so
# most of it is exposed; card 2 computes 25% longer than the others, which
# wait for it inside every collective (that wait counts as Comm time, so
# MatMul, 51% before the wait, ends up below 50% of the DiT).
"$GEN" -o "$OUT/video-dit-4card" --seed 202 --steps 2 --iters 3 --blocks 4 \
	--video --ranks 4 --comm alltoall --comm-overlap 0.05 --straggler 2=1.25 \
	--text-encoder clip --mix fa=8,matmul=51,vector=4 --self-check

# Video-to-video on one card (VAE encode first, then the DiT's prologue:
# latent noise and the concatenation with the encoded video right after the
# encode, the host's gap before the loop); vector-heavy (> 20%); the user
# marked the stages with record_function ranges (--markers).
"$GEN" -o "$OUT/video-v2v-1card" --seed 303 --steps 2 --iters 3 --blocks 4 \
	--video --vae-encode --text-encoder clip --mix fa=25,matmul=35,vector=35 \
	--dit-prologue broadcast --markers \
	--self-check

# Video DiT on one card with a DiTCache: 12 iterations of 8 blocks per
# call, one in 3 in full, the others run the first block and add back the
# cached residual of the rest (--cache dit:3); the report shows the
# iterations, the hit pattern and the time the cache saved.
"$GEN" -o "$OUT/video-dit-cache-1card" --seed 404 --steps 2 --iters 12 --blocks 8 \
	--video --text-encoder clip --cache dit:3 --self-check
