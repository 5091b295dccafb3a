/* opts.h: sdperf-gen's command line: the knobs of the synthetic pipeline. */
#ifndef GEN_OPTS_H
#define GEN_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum variant { V_L1_2026, V_L1_2025, V_L1_2024, V_L0, V_L0_OLD };
enum te_kind { TE_T5, TE_CLIP, TE_NONE };
enum attn_kind { ATTN_FA, ATTN_FIA, ATTN_LASER, ATTN_SPARSE };
enum comm_kind { COMM_NONE, COMM_ALLTOALL, COMM_ALLGATHER };
/* --denoiser: the network the denoising loop runs (its stage is "dit" in
 * the truth either way). */
enum denoiser_kind { DEN_DIT, DEN_UNET };

/* --export: which of torch_npu's exports are written (a mask). */
enum { EXPORT_TEXT = 1, EXPORT_DB = 2 };

enum {
	FILE_KERNELS = 1,
	FILE_STEPS = 2,
	FILE_TRACE = 4,
	FILE_COMM = 8,
	FILE_ALL = 15
};

struct opts {
	const char *outdir;
	uint64_t seed;
	uint64_t target_bytes; /* 0: exactly `steps` steps */
	int steps;
	int first_step;
	int iters;
	int blocks;
	int ranks;
	int video;
	int vae_encode;
	int quant;
	int lf;
	int truth;
	int self_check;
	enum te_kind te;
	enum attn_kind attn;
	enum comm_kind comm;
	enum variant variant;
	double overlap; /* --comm-overlap, 0..1 */
	double mix[3];  /* DiT target shares in percent: FA, MatMul, Vector */
	int mix_given;
	unsigned files;        /* FILE_* mask */
	int straggler;         /* --straggler rank, -1 for none */
	double straggler_f;    /* its compute kernels run this much longer */
	int markers;           /* record_function stage ranges in the trace */
	int flows;             /* with markers: torch_to_npu flows too */
	int trace_object;      /* {"traceEvents": [...]} instead of [...] */
	uint64_t trace_target; /* --trace-target-bytes, 0: off */
	int comm_single_key;   /* communication.json under "step" alone */
	int profiler_info;     /* write profiler_info[_N].json */
	unsigned exports;      /* EXPORT_* mask: text files, db, or both */
	int subtasks;     /* runtime and HCCL sub-tasks beside the kernels */
	int npu_only;     /* the trace of ProfilerActivity.NPU alone: no host */
	int prologue;     /* PROLOGUE_*: the DiT's prologue after the encode */
	int cache;        /* CACHE_*: a cache active in the denoising loop */
	int cache_period; /* with it: one full iteration in cache_period */
	int memset;       /* a MemSet helper before each Conv and MatMul */
	int memory;       /* memory_record.csv and the db's memory tables */
	int trace_gen;    /* TRACE_GEN_*: which CANN generation's trace */
	const char *unknown_tt;      /* --unknown-task-type: one Ascend Hardware
	                              * event a step with this Task Type, or NULL */
	int workload;                /* WORKLOAD_*: what one step holds */
	enum denoiser_kind denoiser; /* --denoiser dit | unet */
};

/* --trace-generation: 2024 (the 2024 AlexNet captures' trace: Task Type
 * "Other" on the runtime sub-tasks, HCCL's tasks on the HCCL process
 * only) or 2025 (newer CANN, Atlas A2 class: every Ascend Hardware event
 * has its real Task Type, and each collective's task level (Notify
 * Record, Memcpy, Reduce Inline, Notify Wait) is on the Ascend Hardware
 * process, on the collective's stream, covering its time). */
enum { TRACE_GEN_2024, TRACE_GEN_2025 };

/* --workload: a whole diffusion pipeline call per step (the default), a
 * training step (the DiT's forward, its backward with *Grad kernels, the
 * gradients' allReduce over the ranks, the AdamW update), a VAE decode
 * alone, or the denoising iterations alone (no text encoder, no VAE): the
 * last two are captures that hold part of a pipeline. */
enum {
	WORKLOAD_DIFFUSION,
	WORKLOAD_TRAINING,
	WORKLOAD_VAE_ONLY,
	WORKLOAD_ITERATIONS
};
/* The truth's spelling of each: the kind, then the part it holds. */
extern const char *const WORKLOAD_KINDS[4];
extern const char *const WORKLOAD_PARTS[4];

/* --dit-prologue: latent noise and concat right after the VAE encode, the
 * latents broadcast or scattered to the sequence-parallel group, then the
 * host's idle gap before the loop. */
enum { PROLOGUE_NONE, PROLOGUE_BROADCAST, PROLOGUE_SCATTER };

/* --cache KIND:N: iteration i of each call runs in full when i % N == 0
 * and hits the cache otherwise (N-1 of every N iterations). A DiTCache hit
 * runs the first block, then one Add (the cached residual of the other
 * blocks) in place of them; an AttentionCache hit runs every block
 * without its attention part (QKV projection, norms, RoPE, attention,
 * output projection, their collectives): the FFN stays. */
enum { CACHE_NONE, CACHE_DIT, CACHE_ATTENTION };

enum opts_result { OPTS_OK, OPTS_HELP, OPTS_ERROR };

/* Fill `o` from argv. On OPTS_ERROR, `err` holds a one-line message. */
enum opts_result opts_parse(struct opts *o, int argc, char **argv, char *err,
                            size_t errlen);

/* Print --help text. */
void opts_usage(FILE *fp);

/* Printable name of a header variant ("level1-2026", ...). */
const char *opts_variant_name(enum variant v);

#endif
