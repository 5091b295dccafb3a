/* The analysis pass, step by step; each step lives in its own module. */
#include "analysis/analyse.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/iterations.h"
#include "analysis/overlap.h"
#include "analysis/stages.h"
#include "analysis/totals.h"
#include "analysis/workload.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MIN_TIMED_STEPS 5

static int sorted_by_start(const struct kernel *k, size_t n)
{
	size_t i;
	for (i = 1; i < n; i++)
		if (k[i].start_ns < k[i - 1].start_ns)
			return 0;
	return 1;
}

/* ---- a stable sort in little memory -------------------------------------- */

#define INSERTION_RUN 32

static void insertion_sort(struct kernel *k, size_t n)
{
	size_t i, j;
	struct kernel t;

	for (i = 1; i < n; i++) {
		t = k[i];
		for (j = i; j > 0 && k[j - 1].start_ns > t.start_ns; j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

static void reverse(struct kernel *k, size_t a, size_t b)
{
	struct kernel t;

	while (a + 1 < b) {
		t = k[a];
		k[a] = k[--b];
		k[b] = t;
		a++;
	}
}

/* First index in [lo, hi) whose start is >= t (lower) or > t (upper). */
static size_t bound(const struct kernel *k, size_t lo, size_t hi, int64_t t,
                    int upper)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].start_ns < t || (upper && k[mid].start_ns == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Merges the sorted runs [lo, mid) and [mid, hi) stably. With one run no
 * longer than the buffer, an ordinary merge through it; else the larger
 * run's middle element splits both (binary search in the other), the
 * middle parts swap places by rotation, and each half merges on its own:
 * the buffer need only be a fraction of the table. */
static void merge(struct kernel *k, size_t lo, size_t mid, size_t hi,
                  struct kernel *buf, size_t cap)
{
	size_t n1 = mid - lo, n2 = hi - mid, a, b, o, c1, c2, nm;

	if (!n1 || !n2 || k[mid - 1].start_ns <= k[mid].start_ns)
		return;
	if (n1 <= cap) {
		memcpy(buf, k + lo, n1 * sizeof(*k));
		for (a = 0, b = mid, o = lo; a < n1 && b < hi;)
			k[o++] =
			    k[b].start_ns < buf[a].start_ns ? k[b++] : buf[a++];
		memcpy(k + o, buf + a, (n1 - a) * sizeof(*k));
		return;
	}
	if (n2 <= cap) {
		memcpy(buf, k + mid, n2 * sizeof(*k));
		for (a = mid, b = n2, o = hi; a > lo && b > 0;)
			k[--o] = buf[b - 1].start_ns < k[a - 1].start_ns
			             ? k[--a]
			             : buf[--b];
		memcpy(k + lo, buf, b * sizeof(*k));
		return;
	}
	if (n1 >= n2) {
		c1 = lo + n1 / 2;
		c2 = bound(k, mid, hi, k[c1].start_ns, 0);
	} else {
		c2 = mid + n2 / 2;
		c1 = bound(k, lo, mid, k[c2].start_ns, 1);
	}
	reverse(k, c1, mid); /* [c1, mid) [mid, c2) -> [mid, c2) [c1, mid) */
	reverse(k, mid, c2);
	reverse(k, c1, c2);
	nm = c1 + (c2 - mid);
	merge(k, lo, c1, nm, buf, cap);
	merge(k, nm, c2, hi, buf, cap);
}

static void merge_sort(struct kernel *k, size_t lo, size_t hi,
                       struct kernel *buf, size_t cap)
{
	size_t mid;

	if (hi - lo <= INSERTION_RUN) {
		insertion_sort(k + lo, hi - lo);
		return;
	}
	mid = lo + (hi - lo) / 2;
	merge_sort(k, lo, mid, buf, cap);
	merge_sort(k, mid, hi, buf, cap);
	merge(k, lo, mid, hi, buf, cap);
}

/* Stable sort by start time: rows with equal start keep file order, so
 * results do not depend on the sort implementation. The buffer is an
 * eighth of the table (3 of the KERNEL_COST_BYTES charged per kernel). */
static void sort_kernels(struct kernel *k, size_t n)
{
	size_t cap = n / 8 > 4096 ? n / 8 : n < 4096 ? n : 4096;
	struct kernel *buf;

	if (sorted_by_start(k, n))
		return;
	buf = xmalloc((cap ? cap : 1) * sizeof(*buf));
	merge_sort(k, 0, n, buf, cap);
	free(buf);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The distinct Step Ids, ascending: counted all (steps_total), the first
 * RESULT_MAX_STEP_IDS listed. Collected (each run of a step once), then
 * sorted once, as steps may come in any order: a step per kernel stays
 * O(n log n), and the copy (4 bytes a kernel at most, allocated once)
 * fits the kernels' work bytes. */
static void collect_steps(const struct kernel *k, size_t n, struct result *r)
{
	int32_t *v = xmalloc((n ? n : 1) * sizeof(*v)), last = STEP_NONE;
	size_t i, m = 0, d = 0;

	for (i = 0; i < n; i++)
		if (k[i].step != STEP_NONE && k[i].step != last)
			v[m++] = last = k[i].step;
	qsort(v, m, sizeof(*v), cmp_i32);
	for (i = 0; i < m; i++)
		if (!d || v[d - 1] != v[i])
			v[d++] = v[i];
	r->steps_total = d;
	r->nsteps = d < RESULT_MAX_STEP_IDS ? d : RESULT_MAX_STEP_IDS;
	r->steps = xrealloc(v, (r->nsteps ? r->nsteps : 1) * sizeof(*v));
}

static void step_warnings(struct result *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->steps_total == 0) {
		strbuf_adds(&sb,
		            "no profiler Step Id in the kernels: the profile "
		            "was taken without a schedule, so warm-up runs "
		            "cannot be told from timed ones; the MindIE-SD "
		            "guide asks for 2 warm-up steps, then 5 or more "
		            "timed steps");
		result_warn(r, "no_steps", NULL, 0, sb.buf);
	} else if (r->steps_total < MIN_TIMED_STEPS) {
		strbuf_addf(&sb,
		            "only %zu profiler step%s found; the MindIE-SD "
		            "guide asks for 2 warm-up steps, then 5 or more "
		            "timed steps, so these figures may be noisy",
		            r->steps_total, r->steps_total == 1 ? "" : "s");
		result_warn(r, "few_steps", NULL, 0, sb.buf)->args[0] =
		    xstrfmt("%zu", r->steps_total);
	}
	strbuf_release(&sb);
}

static char *method_text(const struct stages_out *so, const struct rules *ru,
                         const struct workload *w)
{
	struct strbuf sb = STRBUF_INIT;
	char *ev;

	if (w->one_stage) {
		ev = workload_evidence(w);
		strbuf_addf(&sb,
		            "the profile is %s (%s): every kernel is in one "
		            "stage, no DiT/VAE/text-encoder split",
		            workload_kind_names[w->kind], ev);
		free(ev);
		return strbuf_detach(&sb, NULL);
	}

	strbuf_addf(&sb,
	            "stage signatures vote along the device timeline "
	            "(window %d signature kernels each side, runs shorter "
	            "than %d merged); ",
	            ru->window, ru->min_segment);
	if (so->text_encoder_detected)
		strbuf_adds(&sb, "text encoder found before the repeating "
		                 "denoising loop");
	else if (so->loop_found)
		strbuf_adds(&sb, "repeating denoising loop found, no text "
		                 "encoder before it");
	else
		strbuf_adds(&sb, "no repeating denoising loop found: a text "
		                 "encoder, if any, is counted as DiT");
	return strbuf_detach(&sb, NULL);
}

/* First kernel starting at or after t (kernels sorted by start). */
static size_t first_at(const struct kernel *k, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].start_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An override by its start, for the sweep. */
struct ov_start {
	int64_t start_ns;
	uint32_t i; /* index in ov */
};

static int cmp_ov_start(const void *pa, const void *pb)
{
	const struct ov_start *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* A max-heap of override indexes: the latest override covering a kernel
 * wins. */
static void heap_push(uint32_t *h, size_t *n, uint32_t v)
{
	size_t i = (*n)++;

	for (; i > 0 && h[(i - 1) / 2] < v; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = v;
}

static void heap_pop(uint32_t *h, size_t *n)
{
	size_t i = 0, c;
	uint32_t v = h[--*n];

	for (; (c = 2 * i + 1) < *n; i = c) {
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
	}
	h[i] = v;
}

/* Each kernel takes the stage of the last override whose [start, end]
 * holds its start; each override counts the kernels in its range. One
 * sweep over the kernels with the overrides by start and a heap of the
 * open ones (those that ended are dropped when they reach the top):
 * O((kernels + overrides) log overrides), however they nest. */
static int apply_overrides(const struct kernel_table *kt,
                           struct stage_override *ov, size_t nov,
                           unsigned char *stage, struct err *e)
{
	uint64_t cost = (uint64_t)nov * (sizeof(struct ov_start) + 4);
	struct ov_start *by;
	uint32_t *heap;
	size_t i, j = 0, nh = 0;

	if (!nov)
		return 0;
	if (membudget_charge(cost))
		return membudget_fail(e, cost, "stage overrides of %zu markers",
		                      nov);
	by = xmalloc(nov * sizeof(*by));
	heap = xmalloc(nov * sizeof(*heap));
	for (i = 0; i < nov; i++) {
		size_t lo = first_at(kt->v, kt->n, ov[i].start_ns),
		       hi = ov[i].end_ns == INT64_MAX
		                ? kt->n
		                : first_at(kt->v, kt->n, ov[i].end_ns + 1);
		by[i].start_ns = ov[i].start_ns;
		by[i].i = (uint32_t)i;
		ov[i].kernels = hi > lo ? hi - lo : 0;
	}
	qsort(by, nov, sizeof(*by), cmp_ov_start);
	for (i = 0; i < kt->n; i++) {
		int64_t t = kt->v[i].start_ns;
		for (; j < nov && by[j].start_ns <= t; j++)
			heap_push(heap, &nh, by[j].i);
		while (nh && ov[heap[0]].end_ns < t)
			heap_pop(heap, &nh);
		if (nh)
			stage[i] = (unsigned char)ov[heap[0]].stage;
	}
	free(by);
	free(heap);
	membudget_release(cost);
	return 0;
}

int analyse(struct kernel_table *kt, const struct rules *ru, struct result *r,
            unsigned char **stage_out, struct err *e)
{
	return analyse_with(kt, ru, NULL, 0, r, stage_out, e);
}

/* Each kernel key's category, FA part and stage signature. */
static void classify_keys(const struct kernel_table *kt, const struct rules *ru,
                          unsigned char *key_cat, unsigned char *key_part,
                          unsigned char *key_sig)
{
	uint32_t key;

	for (key = 0; key < kt->keys.n; key++) {
		const char *type = kernel_key_type(kt, key);
		enum fa_part part;
		key_cat[key] = (unsigned char)rules_classify_kernel(
		    ru, type, kernel_key_core(kt, key), kernel_key_api(kt, key),
		    &part);
		key_part[key] = (unsigned char)part;
		key_sig[key] = (unsigned char)rules_signature(ru, type);
	}
}

/* What the profile is (analysis/workload.h), with the stages and the
 * denoising loop found so far; without a loop every kernel goes to one
 * stage and the loop's iterations are dropped (a training run's layer
 * stack is no denoising loop). Markers count when they labelled some
 * kernel. */
static void decide_workload(const struct kernel_table *kt, unsigned char *stage,
                            int stage_loop, const struct rules *ru,
                            const struct stage_override *ov, size_t nov,
                            struct result *r)
{
	size_t i, marked = 0;

	for (i = 0; i < nov; i++)
		marked += ov[i].kernels;
	workload_decide(kt, stage, &r->iters, stage_loop, ru, marked > 0,
	                &r->workload);
	workload_apply(&r->workload, stage, kt->n);
	if (r->workload.one_stage)
		iter_summary_release(&r->iters);
}

int analyse_with(struct kernel_table *kt, const struct rules *ru,
                 struct stage_override *ov, size_t nov, struct result *r,
                 unsigned char **stage_out, struct err *e)
{
	uint32_t nkeys = kt->keys.n;
	unsigned char *key_cat = xmalloc(nkeys ? nkeys : 1);
	unsigned char *key_sig = xmalloc(nkeys ? nkeys : 1);
	unsigned char *key_part = xmalloc(nkeys ? nkeys : 1);
	struct stages_out so;
	uint64_t charged;
	size_t i;
	int ret = -1;

	sort_kernels(kt->v, kt->n);
	classify_keys(kt, ru, key_cat, key_part, key_sig);
	r->kernels = kt->n;
	for (i = 0; i < kt->n; i++) {
		int64_t end = kt->v[i].start_ns + kt->v[i].dur_ns;
		if (i == 0 || end > r->span_end_ns)
			r->span_end_ns = end;
	}
	r->span_start_ns = kt->n ? kt->v[0].start_ns : 0;
	collect_steps(kt->v, kt->n, r);
	if (stages_assign(kt->v, kt->n, key_sig, key_cat, ru, &so, e) ||
	    apply_overrides(kt, ov, nov, so.stage, e))
		goto out;
	{
		struct iter_input in = {kt->v,    kt->n,   so.stage, key_cat,
		                        key_part, key_sig, nkeys};
		if (iterations_find(&in, ru, &r->iters, e))
			goto out;
	}
	decide_workload(kt, so.stage, so.loop_found, ru, ov, nov, r);
	r->text_encoder_detected =
	    so.text_encoder_detected && !r->workload.one_stage;
	r->loop_found = so.loop_found && !r->workload.one_stage;
	r->denoiser_unet = so.unet && !r->workload.one_stage;
	r->seg_window = ru->window;
	r->seg_min_segment = ru->min_segment;
	r->stage_method = method_text(&so, ru, &r->workload);
	if (stages_segments(kt->v, kt->n, so.stage, &r->segs, &r->nsegs,
	                    &charged)) {
		membudget_fail(e, (uint64_t)r->nsegs * sizeof(*r->segs),
		               "%zu stage segments (a stage or Step Id change "
		               "every few kernels)",
		               r->nsegs);
		r->nsegs = 0;
		goto out;
	}
	r->charged += charged;
	r->segs_total = r->nsegs;
	breakdown_compute(kt, key_cat, key_part, so.stage, r->segs, r->nsegs,
	                  r);
	overlap_stage_comm(kt->v, kt->n, so.stage, key_cat, r);
	totals_measure(kt->v, kt->n, key_cat, &r->ktot);
	step_warnings(r);
	r->rules_source = xstrdup(ru->source ? ru->source : "built-in");
	ret = 0;
out:
	if (stage_out && !ret)
		*stage_out = so.stage;
	else
		free(so.stage);
	free(key_cat);
	free(key_part);
	free(key_sig);
	return ret;
}
