/* timeline.h: turns the model's program into timed kernels, one step at a
 * time: jitter, DiT mix scaling, serial placement, comm overlap. */
#ifndef GEN_TIMELINE_H
#define GEN_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "opts.h"
#include "rng.h"

/* One launched kernel. All times are integer nanoseconds since the epoch,
 * so every sum printed as microseconds with 3 decimals is exact. */
struct kern {
	int64_t start;
	int64_t dur;
	int64_t wait;    /* idle time before it on its own stream */
	int64_t covered; /* comm only: ns of it overlapped by compute kernels */
	int64_t sync_wait; /* comm only: ns of dur spent waiting for peers */
	uint32_t tmpl;     /* index into model.t */
	uint32_t seq;      /* compute: Task ID; comm: collective number */
	int32_t iter;      /* DiT denoising iteration in its step, or -1 */
};

/* One profiler step = one pipeline call. Kernels are sorted by start. */
struct step {
	int number;
	struct kern *k;
	size_t n, cap;
	int64_t host_start; /* ProfilerStep#N on the host */
	int64_t host_dur;
	int64_t first_start; /* device span */
	int64_t last_end;
};

struct timeline {
	const struct model *m;
	const struct opts *o;
	struct rng rng;
	int64_t host_cursor; /* where the next ProfilerStep begins */
	uint32_t task_id;
	uint32_t comm_no;
	int rank;
	double slow; /* compute duration factor: the straggler's F, else 1 */
	/* With --straggler on a sequence-parallel run, every rank is placed
	 * together so that collectives synchronise: one timeline and step per
	 * rank, owned here (NULL otherwise). */
	struct timeline *peers;
	struct step *peer_steps;
	int npeers;
};

/* Epoch ns of the first ProfilerStep of a run, from the seed (a day in
 * 2026) and the rank (ranks start a few microseconds apart). */
int64_t tl_origin_ns(const struct opts *o, int rank);

/* Set up rank `rank`'s timeline; release it with tl_free. */
void tl_init(struct timeline *tl, const struct model *m, const struct opts *o,
             int rank);
void tl_free(struct timeline *tl);

/* Generate the next step into `s` (its buffer is reused). With peers, all
 * ranks' steps are generated and every collective ends at the same time
 * (to 10 ns) on every rank: a rank that arrives early gets the difference
 * as `sync_wait`, added to the collective's duration. The result for a
 * rank is the same whichever rank's run asks for it. */
void tl_next_step(struct timeline *tl, struct step *s, int number);

void step_free(struct step *s);

#endif
