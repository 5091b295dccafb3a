/* Merging ranks. Times of kernels are summed: a category's share of the
 * summed time is its share of the card-time the whole run spent. */
#include "analysis/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/verdicts.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "util/banned.h"

static int cmp_type(const void *a, const void *b)
{
	const struct type_stat *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->type, y->type);
}

/* Adds the n types of src into the table (by name), keeping it sorted
 * later; the table owns copies of the names. */
static void add_types(struct strtab *names, struct type_stat **v, size_t *alloc,
                      const struct type_stat *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t id =
		    strtab_intern(names, src[i].type, strlen(src[i].type));
		struct type_stat *t;
		if (id >= *alloc) {
			size_t old = *alloc;
			*alloc = (id + 1) * 2;
			*v = xrealloc(*v, *alloc * sizeof(**v));
			memset(*v + old, 0, (*alloc - old) * sizeof(**v));
		}
		t = &(*v)[id];
		if (!t->count || src[i].min_ns < t->min_ns)
			t->min_ns = src[i].min_ns;
		if (!t->count || src[i].max_ns > t->max_ns)
			t->max_ns = src[i].max_ns;
		t->cat = src[i].cat;
		t->count += src[i].count;
		t->total_ns += src[i].total_ns;
	}
}

static struct type_stat *sorted_types(const struct strtab *names,
                                      struct type_stat *v, size_t max,
                                      size_t *nout)
{
	size_t i, m = 0;
	struct type_stat *out = xcalloc(names->n ? names->n : 1, sizeof(*out));

	for (i = 0; i < names->n; i++) {
		if (!v[i].count)
			continue;
		out[m] = v[i];
		out[m++].type = xstrdup(strtab_str(names, (uint32_t)i));
	}
	qsort(out, m, sizeof(*out), cmp_type);
	while (m > max)
		free(out[--m].type);
	*nout = m;
	return out;
}

static void free_types(struct type_stat *t, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(t[i].type);
	free(t);
}

static void merge_stage(struct result *parts, size_t n, int s,
                        struct stage_result *out)
{
	struct strtab names;
	struct type_stat *v = NULL;
	size_t alloc = 0, i;
	int c;

	strtab_init(&names);
	for (i = 0; i < n; i++) {
		const struct stage_result *st = &parts[i].stages[s];
		out->kernels += st->kernels;
		out->segments += st->segments;
		out->kernel_ns += st->kernel_ns;
		out->wall_ns += st->wall_ns;
		out->comm_ns += st->comm_ns;
		out->comm_union_ns += st->comm_union_ns;
		out->exposed_comm_ns += st->exposed_comm_ns;
		for (c = 0; c < CAT_COUNT; c++) {
			out->cat[c].count += st->cat[c].count;
			out->cat[c].time_ns += st->cat[c].time_ns;
		}
		add_types(&names, &v, &alloc, st->top, st->ntop);
	}
	out->top = sorted_types(&names, v, BREAKDOWN_TOP, &out->ntop);
	free(v);
	strtab_release(&names);
}

static void merge_unmatched(struct result *parts, size_t n, struct result *out)
{
	struct strtab names;
	struct type_stat *v = NULL;
	size_t alloc = 0, i;

	strtab_init(&names);
	for (i = 0; i < n; i++)
		add_types(&names, &v, &alloc, parts[i].unmatched,
		          parts[i].nunmatched);
	out->unmatched =
	    sorted_types(&names, v, BREAKDOWN_UNMATCHED, &out->nunmatched);
	free(v);
	strtab_release(&names);
}

static int same_warning(const struct warning *a, const struct warning *b)
{
	return !strcmp(a->code, b->code) && !strcmp(a->message, b->message) &&
	       a->line == b->line &&
	       !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

/* Moves p's inputs and warnings to out (a warning out already has is
 * dropped: every rank says "no Step Id" alike). */
static void move_lists(struct result *p, struct result *out)
{
	size_t i, k;

	out->inputs = xrealloc(out->inputs, (out->ninputs + p->ninputs + 1) *
	                                        sizeof(*out->inputs));
	if (p->ninputs)
		memcpy(out->inputs + out->ninputs, p->inputs,
		       p->ninputs * sizeof(*p->inputs));
	out->ninputs += p->ninputs;
	free(p->inputs);
	p->inputs = NULL;
	p->ninputs = 0;
	out->warnings =
	    xrealloc(out->warnings, (out->nwarnings + p->nwarnings + 1) *
	                                sizeof(*out->warnings));
	for (i = 0; i < p->nwarnings; i++) {
		struct warning *w = &p->warnings[i];
		for (k = 0; k < out->nwarnings; k++)
			if (same_warning(&out->warnings[k], w))
				break;
		if (k == out->nwarnings) {
			out->warnings[out->nwarnings++] = *w;
			continue;
		}
		warning_release(w);
	}
	free(p->warnings);
	p->warnings = NULL;
	p->nwarnings = 0;
}

/* Adds p's distinct Step Ids to out's sorted list (both cut at
 * RESULT_MAX_STEP_IDS): one merge. The count is the union's, or a rank's
 * own count when that is larger (a cut list). */
static void merge_steps(const struct result *p, struct result *out)
{
	size_t i = 0, j = 0, n = 0;
	int32_t *v = xmalloc((p->nsteps + out->nsteps + 1) * sizeof(*v));

	while (i < p->nsteps || j < out->nsteps) {
		int32_t x;
		if (j == out->nsteps ||
		    (i < p->nsteps && p->steps[i] < out->steps[j]))
			x = p->steps[i++];
		else
			x = out->steps[j++];
		if (!n || v[n - 1] != x)
			v[n++] = x;
	}
	free(out->steps);
	out->steps = v;
	out->steps_total = n > out->steps_total ? n : out->steps_total;
	out->steps_total = p->steps_total > out->steps_total ? p->steps_total
	                                                     : out->steps_total;
	out->nsteps = n < RESULT_MAX_STEP_IDS ? n : RESULT_MAX_STEP_IDS;
}

/* The lead rank's timeline and method become out's. */
static void take_lead(struct result *lead, struct result *out)
{
	out->span_start_ns = lead->span_start_ns;
	out->span_end_ns = lead->span_end_ns;
	out->segs = lead->segs;
	out->nsegs = lead->nsegs;
	out->segs_total = lead->segs_total;
	lead->segs = NULL;
	lead->nsegs = 0;
	out->stage_method = lead->stage_method;
	lead->stage_method = NULL;
	out->text_encoder_detected = lead->text_encoder_detected;
	out->loop_found = lead->loop_found;
	out->seg_window = lead->seg_window;
	out->seg_min_segment = lead->seg_min_segment;
	out->rank_dir = lead->rank_dir;
	lead->rank_dir = NULL;
}

void cluster_merge(struct result *parts, size_t n, const struct rules *ru,
                   struct result *out)
{
	size_t i, lead = n;
	int s;

	out->ranks = xcalloc(n ? n : 1, sizeof(*out->ranks));
	for (i = 0; i < n; i++) {
		struct result *p = &parts[i];
		out->ranks[out->nranks++] = p->ranks[0];
		memset(&p->ranks[0], 0, sizeof(p->ranks[0]));
		if (lead == n && out->ranks[i].analysed) {
			lead = i;
			out->lead = i;
		}
		out->kernels += p->kernels;
		merge_steps(p, out);
		move_lists(p, out);
	}
	for (s = 0; s < STAGE_COUNT; s++)
		merge_stage(parts, n, s, &out->stages[s]);
	merge_unmatched(parts, n, out);
	if (lead < n)
		take_lead(&parts[lead], out);
	verdicts_evaluate(ru, out);
	out->rules_source = xstrdup(ru->source ? ru->source : "built-in");
	for (i = 0; i < n; i++) {
		for (s = 0; s < STAGE_COUNT; s++) {
			free_types(parts[i].stages[s].top,
			           parts[i].stages[s].ntop);
			parts[i].stages[s].top = NULL;
			parts[i].stages[s].ntop = 0;
		}
	}
}
