/* A multi-card run: the ranks' results merged into one. */
#ifndef SDPERF_CLUSTER_H
#define SDPERF_CLUSTER_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"

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

/* Works out r->cluster from r->ranks: the slowest and the median rank by
 * DiT compute time, and communication.json summed over the ranks (sums
 * saturate). cluster_merge calls it before the verdicts, which read it
 * (rank_imbalance), and r->e2e (analysis/e2e.h). */
void cluster_summarise(struct result *r);

#endif
