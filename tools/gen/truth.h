/* truth.h: ground truth per rank: stage/category of every kernel row and
 * per-stage totals, built from what the generator placed (not re-measured). */
#ifndef GEN_TRUTH_H
#define GEN_TRUTH_H

#include <stdint.h>
#include <stdio.h>

#include "memgen.h"
#include "launch.h"
#include "model.h"
#include "outbuf.h"
#include "timeline.h"

struct stage_acc {
	uint64_t kernels;
	int64_t time;
	uint64_t count[CAT_COUNT];
	int64_t cat_time[CAT_COUNT];
	int64_t exposed; /* sum over comm kernels of duration - covered */
};

/* One denoising iteration: its DiT kernels' count and extent. */
struct titer {
	int step, index;
	uint64_t kernels;
	int64_t start, end;
};
#define TRUTH_MAX_ITERS 2000

struct truth {
	struct stage_acc st[ST_COUNT];
	uint64_t kernels;
	int steps;
	int straggler;     /* this rank is the --straggler */
	int unet;          /* the denoiser (stage dit) is a UNet */
	int64_t sync_wait; /* sum of the collectives' waits for peers */
	/* the denoising loop per step: iterations, and --cache's kind
	 * (opts.h CACHE_*) and period */
	int iters, cache, cache_period;
	int workload;     /* opts.h WORKLOAD_*: what each step holds */
	struct titer *it; /* the first TRUTH_MAX_ITERS iterations */
	size_t nit, capit;
	struct marker *mk; /* every step's stage ranges (with --markers) */
	size_t nmk, capmk;
	/* --memory: the peaks of the samples written (memgen.h) */
	int memory;
	struct mempeaks mem;
};

void truth_add_step(struct truth *t, const struct model *m,
                    const struct step *s);
/* Append the step's stage ranges; the truth owns its copy. */
void truth_add_markers(struct truth *t, const struct launch *l);
/* Frees the markers; the rest is plain data. */
void truth_free(struct truth *t);

/* Sum of the non-Comm kernel durations over all stages. */
int64_t truth_compute_time(const struct truth *t);

/* rank{r}.kernels.csv: "stage,category" then one line per kernel row. */
void truth_csv_header(struct outbuf *ob);
void truth_csv_step(struct outbuf *ob, const struct model *m,
                    const struct step *s);

/* rank{r}.json (see README.md). Returns 0, or -1 with errno set. */
int truth_write_json(const char *path, const struct truth *t, int rank);

/* Write `ns` as microseconds with exactly 3 decimals to a stdio stream. */
void truth_print_us(FILE *fp, int64_t ns);

#endif
