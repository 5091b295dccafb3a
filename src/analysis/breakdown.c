/* Breakdown: sums per stage, per category and per kernel type. Types are
 * merged across accelerator cores (one MatMulV3 line, not one per core),
 * not across categories. */
#include "analysis/breakdown.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/banned.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"

static void add(struct type_stat *t, int64_t d)
{
	if (!t->count || d < t->min_ns)
		t->min_ns = d;
	if (!t->count || d > t->max_ns)
		t->max_ns = d;
	t->count++;
	checked_accumulate(&t->total_ns, d);
}

/* Copies the used entries of v, sorts them by time and keeps the top max;
 * only entries whose category passes want (or all, want < 0). */
static struct type_stat *top_types(const struct type_stat *v, size_t n,
                                   int want, size_t max, size_t *nout)
{
	struct type_stat *out = xmalloc((n ? n : 1) * sizeof(*out));
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (v[i].count && (want < 0 || (int)v[i].cat == want))
			out[m++] = v[i];
	qsort(out, m, sizeof(*out), type_stat_cmp);
	m = m < max ? m : max;
	for (i = 0; i < m; i++)
		out[i].type = xstrdup(out[i].type);
	*nout = m;
	return out;
}

void breakdown_compute(const struct kernel_table *kt,
                       const unsigned char *key_cat,
                       const unsigned char *key_part,
                       const unsigned char *stage, const struct segment *segs,
                       size_t nsegs, struct result *r)
{
	uint32_t nkeys = kt->keys.n, key, *key_type;
	struct strtab types;
	struct strbuf tk = STRBUF_INIT;
	struct type_stat *per[STAGE_COUNT], *all;
	size_t i, nt;
	int s;

	strtab_init(&types);
	key_type = xmalloc((nkeys ? nkeys : 1) * sizeof(*key_type));
	for (key = 0; key < nkeys; key++) {
		/* one line per type and category: a Transpose launched by an
		 * attention API (FA) is not merged with the others (Vector) */
		const char *t = kernel_key_type(kt, key);
		char tc[2] = {'\0', (char)('0' + key_cat[key])};
		size_t tl = strlen(t);
		strbuf_reset(&tk);
		strbuf_add(&tk, t, tl);
		strbuf_add(&tk, tc, 2);
		key_type[key] = strtab_intern(&types, tk.buf, tk.len);
	}
	strbuf_release(&tk);
	nt = types.n;
	all = xcalloc(nt ? nt : 1, sizeof(*all));
	for (s = 0; s < STAGE_COUNT; s++)
		per[s] = xcalloc(nt ? nt : 1, sizeof(**per));
	for (key = 0; key < nkeys; key++) {
		uint32_t t = key_type[key];
		for (s = 0; s < STAGE_COUNT; s++) {
			per[s][t].type = types.strs[t];
			per[s][t].cat = (enum category)key_cat[key];
		}
		all[t].type = types.strs[t];
		all[t].cat = (enum category)key_cat[key];
	}
	for (i = 0; i < kt->n; i++) {
		const struct kernel *k = &kt->v[i];
		struct stage_result *st = &r->stages[stage[i]];
		enum category c = (enum category)key_cat[k->key];
		st->kernels++;
		checked_accumulate(&st->kernel_ns, k->dur_ns);
		st->cat[c].count++;
		checked_accumulate(&st->cat[c].time_ns, k->dur_ns);
		if (c == CAT_FA) {
			struct cat_stat *fp = &st->fa_part[key_part[k->key]];
			fp->count++;
			checked_accumulate(&fp->time_ns, k->dur_ns);
		}
		add(&per[stage[i]][key_type[k->key]], k->dur_ns);
		add(&all[key_type[k->key]], k->dur_ns);
	}
	for (i = 0; i < nsegs; i++) {
		checked_accumulate(
		    &r->stages[segs[i].stage].wall_ns,
		    checked_sub_sat(segs[i].end_ns, segs[i].start_ns));
		r->stages[segs[i].stage].segments++;
	}
	for (s = 0; s < STAGE_COUNT; s++) {
		struct stage_result *st = &r->stages[s];
		st->comm_ns = st->cat[CAT_COMM].time_ns;
		st->top = top_types(per[s], nt, -1, BREAKDOWN_TOP, &st->ntop);
		free(per[s]);
	}
	r->unmatched =
	    top_types(all, nt, CAT_OTHER, BREAKDOWN_UNMATCHED, &r->nunmatched);
	free(all);
	free(key_type);
	strtab_release(&types);
}
