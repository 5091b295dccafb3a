/* A multi-card run: the ranks' results merged into one. */
#ifndef SDPERF_CLUSTER_H
#define SDPERF_CLUSTER_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "util/strtab.h"

/* Merges the n per-rank results (each from rank_analyse, ranks[0]
 * describing its rank, sorted by rank id) into out: kernel counts, stage
 * and category times, kernel types and unmatched types are summed over the
 * analysed ranks; the timeline, steps found and stage method are the lead
 * rank's (the lowest analysed id); inputs and warnings are concatenated
 * (identical warnings once); out->ranks gets every rank. Then the
 * summary over the ranks (cluster_summarise) is worked out and the
 * verdicts are evaluated over the whole run, once. The per-rank results are
 * emptied (their memory moves to out or is freed); the caller still
 * releases them. */
void cluster_merge(struct result *parts, size_t n, const struct rules *ru,
                   struct result *out);

/* Kernel types folded from many ranks' results one rank at a time, so that
 * only their union is held (sdperf report on rank summaries: a rank's
 * type tables are read, folded and freed). Folding the ranks in the
 * order cluster_merge takes them (rank order) and giving the union to one
 * of the results merged makes the same tables as merging them all: sums,
 * minima, maxima and the category (the last rank's) alike. */
struct type_fold {
	struct strtab names[STAGE_COUNT + 1]; /* each stage's, then unmatched */
	struct type_stat *v[STAGE_COUNT + 1];
	size_t alloc[STAGE_COUNT + 1];
	int overflow; /* a type's count passed UINT64_MAX (kept there) */
};
void cluster_fold_init(struct type_fold *f);
/* Adds p's kernel types and unmatched types into f; returns about how
 * many bytes f grew by (for the memory budget). A count that would pass
 * UINT64_MAX stays there and sets f->overflow (summaries from a stranger:
 * the caller refuses them). */
uint64_t cluster_fold_add(struct type_fold *f, const struct result *p);
/* Replaces p's type lists (freed) with f's union, uncapped. */
void cluster_fold_take(struct type_fold *f, struct result *p);
void cluster_fold_release(struct type_fold *f);

/* Works out r->cluster from r->ranks: the slowest and the median rank by
 * DiT compute time, and communication.json summed over the ranks (sums
 * saturate). cluster_merge calls it before the verdicts, which read it
 * (rank_imbalance), and r->e2e (analysis/e2e.h). */
void cluster_summarise(struct result *r);

#endif
