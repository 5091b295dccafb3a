/* The analysis pass, step by step; each step lives in its own module. */
#include "analysis/analyse.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/overlap.h"
#include "analysis/stages.h"
#include "analysis/verdicts.h"
#include "util/banned.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MIN_TIMED_STEPS 5

static int sorted_by_start(const struct kernel *k, size_t n)
{
	size_t i;
	for (i = 1; i < n; i++)
		if (k[i].start_ns < k[i - 1].start_ns)
			return 0;
	return 1;
}

/* Stable merge sort by start time: rows with equal start keep file order,
 * so results do not depend on the sort implementation. */
static void sort_kernels(struct kernel *k, size_t n)
{
	struct kernel *tmp, *src = k, *dst, *t;
	size_t w, i;

	if (sorted_by_start(k, n))
		return;
	tmp = xmalloc(n * sizeof(*tmp));
	dst = tmp;
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t a = i, am = i + w < n ? i + w : n, b = am;
			size_t bm = i + 2 * w < n ? i + 2 * w : n, o = i;
			while (a < am && b < bm)
				dst[o++] = src[b].start_ns < src[a].start_ns
				               ? src[b++]
				               : src[a++];
			while (a < am)
				dst[o++] = src[a++];
			while (b < bm)
				dst[o++] = src[b++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
	free(tmp);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The distinct Step Ids, sorted: collected (each run once), then sorted
 * once, as steps may come in any order. */
static void collect_steps(const struct kernel *k, size_t n, struct result *r)
{
	size_t i, m = 0, alloc = 0;
	int32_t last = STEP_NONE;

	for (i = 0; i < n; i++) {
		int32_t s = k[i].step;
		if (s == STEP_NONE || s == last)
			continue;
		last = s;
		r->steps = xgrow(r->steps, sizeof(*r->steps), m + 1, &alloc);
		r->steps[m++] = s;
	}
	if (m)
		qsort(r->steps, m, sizeof(*r->steps), cmp_i32);
	for (i = 0, r->nsteps = 0; i < m; i++)
		if (!r->nsteps || r->steps[r->nsteps - 1] != r->steps[i])
			r->steps[r->nsteps++] = r->steps[i];
}

static void step_warnings(struct result *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->nsteps == 0) {
		strbuf_adds(&sb,
		            "no profiler Step Id in the kernels: the profile "
		            "was taken without a schedule, so warm-up runs "
		            "cannot be told from timed ones; the MindIE-SD "
		            "guide asks for 2 warm-up steps, then 5 or more "
		            "timed steps");
		result_warn(r, "no_steps", NULL, 0, sb.buf);
	} else if (r->nsteps < MIN_TIMED_STEPS) {
		strbuf_addf(&sb,
		            "only %zu profiler step%s found; the MindIE-SD "
		            "guide asks for 2 warm-up steps, then 5 or more "
		            "timed steps, so these figures may be noisy",
		            r->nsteps, r->nsteps == 1 ? "" : "s");
		result_warn(r, "few_steps", NULL, 0, sb.buf)->args[0] =
		    xstrfmt("%zu", r->nsteps);
	}
	strbuf_release(&sb);
}

static char *method_text(const struct stages_out *so, const struct rules *ru)
{
	struct strbuf sb = STRBUF_INIT;

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

/* First kernel starting after t. */
static size_t first_after(const struct kernel *k, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].start_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first kernel at or after j that no later override labelled: next[]
 * links labelled kernels onward (a disjoint-set forest, compressed). */
static size_t unlabelled(size_t *next, size_t j)
{
	size_t root = j, t;

	while (next[root] != root)
		root = next[root];
	while (next[j] != root) {
		t = next[j];
		next[j] = root;
		j = t;
	}
	return root;
}

/* A later override wins where they overlap: taken from the last, each
 * kernel is labelled once, by the last override holding it, however the
 * overrides nest (each counts every kernel in its range all the same). */
static void apply_overrides(const struct kernel_table *kt,
                            struct stage_override *ov, size_t nov,
                            unsigned char *stage)
{
	size_t i, j, lo, hi, *next;

	if (!nov)
		return;
	next = xmalloc((kt->n + 1) * sizeof(*next));
	for (j = 0; j <= kt->n; j++)
		next[j] = j;
	for (i = nov; i-- > 0;) {
		lo = first_at(kt->v, kt->n, ov[i].start_ns);
		hi = first_after(kt->v, kt->n, ov[i].end_ns);
		ov[i].kernels = hi > lo ? hi - lo : 0;
		for (j = unlabelled(next, lo); j < hi;
		     j = unlabelled(next, j)) {
			stage[j] = (unsigned char)ov[i].stage;
			next[j] = j + 1;
		}
	}
	free(next);
}

void analyse(struct kernel_table *kt, const struct rules *ru, struct result *r,
             unsigned char **stage_out)
{
	analyse_with(kt, ru, NULL, 0, r, stage_out);
}

void analyse_with(struct kernel_table *kt, const struct rules *ru,
                  struct stage_override *ov, size_t nov, struct result *r,
                  unsigned char **stage_out)
{
	uint32_t nkeys = kt->keys.n, key;
	unsigned char *key_cat = xmalloc(nkeys ? nkeys : 1);
	unsigned char *key_sig = xmalloc(nkeys ? nkeys : 1);
	struct stages_out so;
	size_t i;

	sort_kernels(kt->v, kt->n);
	for (key = 0; key < nkeys; key++) {
		const char *type = kernel_key_type(kt, key);
		key_cat[key] = (unsigned char)rules_classify(
		    ru, type, kernel_key_core(kt, key));
		key_sig[key] = (unsigned char)rules_signature(ru, type);
	}
	r->kernels = kt->n;
	for (i = 0; i < kt->n; i++) {
		int64_t end = kt->v[i].start_ns + kt->v[i].dur_ns;
		if (i == 0 || end > r->span_end_ns)
			r->span_end_ns = end;
	}
	r->span_start_ns = kt->n ? kt->v[0].start_ns : 0;
	collect_steps(kt->v, kt->n, r);
	stages_assign(kt->v, kt->n, key_sig, key_cat, ru, &so);
	apply_overrides(kt, ov, nov, so.stage);
	r->text_encoder_detected = so.text_encoder_detected;
	r->loop_found = so.loop_found;
	r->seg_window = ru->window;
	r->seg_min_segment = ru->min_segment;
	r->stage_method = method_text(&so, ru);
	r->nsegs = stages_segments(kt->v, kt->n, so.stage, &r->segs);
	breakdown_compute(kt, key_cat, so.stage, r->segs, r->nsegs, r);
	overlap_stage_comm(kt->v, kt->n, so.stage, key_cat, r);
	verdicts_evaluate(ru, r);
	step_warnings(r);
	r->rules_source = xstrdup(ru->source ? ru->source : "built-in");
	if (stage_out)
		*stage_out = so.stage;
	else
		free(so.stage);
	free(key_cat);
	free(key_sig);
}
