/* The shared vocabulary: the names that readers (input/), the analysis
 * (analysis/) and every renderer use alike. Ground level: it includes
 * nothing but the C library, and everything above may include it. */
#ifndef SDPERF_VOCAB_H
#define SDPERF_VOCAB_H

#include <stdint.h>

/* A kernel's or a row's profiler Step Id when it has none. */
#define STEP_NONE INT32_MIN

/* Kernel categories, in the report's order. */
enum category {
	CAT_FA,
	CAT_MATMUL,
	CAT_CONV,
	CAT_VECTOR,
	CAT_COMM,
	CAT_OTHER,
	CAT_COUNT
};
/* The two parts of the FA category: the attention kernels themselves and
 * the kernels that prepare them (MindIE-SD's sparse block estimation, the
 * laser attention's padding/layout pass). */
enum fa_part { FA_PART_ATTENTION, FA_PART_PREPARATION, FA_PART_COUNT };
/* Stages of a diffusion pipeline, in the report's order. */
enum stage {
	STAGE_DIT,
	STAGE_VAE,
	STAGE_TEXT_ENCODER,
	STAGE_OTHER,
	STAGE_COUNT
};
/* A verdict's stage when its metric covers the whole step (the
 * device-idle share from step_trace_time.csv). */
#define STAGE_ALL STAGE_COUNT

/* "FA", "MatMul", "Conv", "Vector", "Comm", "Other" */
extern const char *const category_names[CAT_COUNT];
/* "dit", "vae", "text_encoder", "other", and "all" (STAGE_ALL, for
 * verdicts over the whole step; stage_from_name does not accept it) */
extern const char *const stage_names[STAGE_COUNT + 1];

/* "attention", "preparation" */
extern const char *const fa_part_names[FA_PART_COUNT];

/* Name -> enum; -1 when unknown. Category names match ignoring case. */
int category_from_name(const char *s);
int fa_part_from_name(const char *s);
int stage_from_name(const char *s);

/* The profiler text files of one rank folder. Discovery also finds the
 * SQLite export (input/discover.h: DISC_DB, after these). */
enum rank_file { RF_KERNELS, RF_TRACE, RF_STEPS, RF_COMM, RF_INFO, RF_COUNT };
/* "kernel_details.csv", "trace_view.json", "step_trace_time.csv",
 * "communication.json", "profiler_info.json" */
extern const char *const rank_file_names[RF_COUNT];

/* Overlap Analysis kinds, in trace_view.json's order. */
enum ov { OV_COMPUTING, OV_COMM, OV_NOT_OVERLAPPED, OV_FREE, OV_KINDS };
/* the report's keys: "computing", "communication", "not_overlapped",
 * "free" */
extern const char *const ov_keys[OV_KINDS];
/* the trace's event names: "Computing", "Communication",
 * "Communication(Not Overlapped)", "Free" */
extern const char *const ov_trace_names[OV_KINDS];

/* Kind of a collective in communication.json (input/commjson.h tells
 * which operation names stand for which). */
enum coll_kind {
	COLL_ALLGATHER,
	COLL_ALLREDUCE,
	COLL_ALLTOALL,
	COLL_REDUCESCATTER,
	COLL_BROADCAST,
	COLL_SENDRECV,
	COLL_OTHER,
	COLL_COUNT
};
/* "all_gather", "all_reduce", "all_to_all", "reduce_scatter",
 * "broadcast", "send_recv", "other" */
extern const char *const coll_names[COLL_COUNT];

/* Transports of communication.json's "Communication Bandwidth Info". */
enum transport { TR_HCCS, TR_RDMA, TR_PCIE, TR_SDMA, TR_SIO, TR_COUNT };
/* "HCCS", "RDMA", "PCIE", "SDMA", "SIO" */
extern const char *const transport_names[TR_COUNT];

#endif
