/* Plain-text diff summary, laid out for a terminal and a CI log alike. */
#include "format/text/diff_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/numfmt.h"
#include "util/banned.h"

#define TYPES_SHOWN 8

static void pct(struct strbuf *out, struct cmp_time t)
{
	int defined;
	double p = cmp_pct(t, &defined);

	if (defined)
		strbuf_addf(out, "%+.1f%%", p);
	else
		strbuf_adds(out, "new");
}

static void stage_line(struct strbuf *out, int s, const struct cmp_stage *st)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(out, "%-13s", stage_names[s]);
	numfmt_duration(&t, st->wall.base);
	strbuf_addf(out, "%12s -> ", t.buf);
	strbuf_reset(&t);
	numfmt_duration(&t, st->wall.new_);
	strbuf_addf(out, "%-12s ", t.buf);
	strbuf_reset(&t);
	pct(&t, st->wall);
	strbuf_addf(out, "%8s", t.buf);
	if (st->speedup > 0)
		strbuf_addf(out, "   x%.3f", st->speedup);
	strbuf_addch(out, '\n');
	strbuf_release(&t);
}

static void shares(struct strbuf *out, const struct cmp_stage *st)
{
	int k;

	strbuf_adds(out, "dit shares  ");
	for (k = 0; k < CAT_COUNT; k++)
		strbuf_addf(out, " %s %.1f->%.1f%%", category_names[k],
		            st->cat_share[k].base, st->cat_share[k].new_);
	strbuf_addf(out, "  (exposed comm %.1f->%.1f%% of wall)\n",
	            st->exposed_share.base, st->exposed_share.new_);
}

static void verdicts(const struct comparison *c, struct strbuf *out)
{
	static const char *const tag[] = {"NEW ", "GONE", "STAY", " ok "};
	size_t i;

	strbuf_adds(out, "\nverdicts:\n");
	for (i = 0; i < c->nverdicts; i++) {
		const struct cmp_verdict *v = &c->verdicts[i];
		strbuf_addf(out, "  [%s] %-17s", tag[v->change], v->id);
		if (v->base_applicable)
			strbuf_addf(out, " %6.1f%%", v->base);
		else
			strbuf_adds(out, "     n/a");
		if (v->new_applicable)
			strbuf_addf(out, " -> %5.1f%%", v->new_);
		else
			strbuf_adds(out, " ->   n/a");
		strbuf_addf(out, "  (threshold %g%%)\n", v->threshold);
		if (!v->promised)
			continue;
		/* what the base report's estimate promised, and what the
		 * runs measured end to end */
		strbuf_addf(out, "         promised end to end -%.1f-%.1f%%",
		            v->promised_low_pct, v->promised_high_pct);
		if (c->e2e_known)
			strbuf_addf(out, ", measured %+.1f%%\n",
			            -cmp_saving_pct(c->e2e));
		else
			strbuf_adds(out, ", not measured (no end-to-end time "
			                 "in a report.json)\n");
	}
}

static void types(const struct comparison *c, struct strbuf *out)
{
	size_t i, n = 0;

	if (!c->ntypes)
		return;
	strbuf_adds(out, "\nkernel types that moved most:\n");
	for (i = 0; i < c->ntypes && n < TYPES_SHOWN; i++, n++) {
		const struct cmp_type *t = &c->types[i];
		struct strbuf d = STRBUF_INIT;
		if (t->time.new_ == t->time.base)
			break;
		numfmt_duration(&d,
		                checked_abs_diff(t->time.new_, t->time.base));
		strbuf_adds(out, "  ");
		strbuf_add_sanitized(out, t->type, strlen(t->type));
		strbuf_addf(out, " (%s, %s): %c%s%s\n", stage_names[t->stage],
		            category_names[t->cat],
		            t->time.new_ >= t->time.base ? '+' : '-', d.buf,
		            t->status == TS_ADDED     ? "  added"
		            : t->status == TS_REMOVED ? "  removed"
		                                      : "");
		strbuf_release(&d);
	}
}

void render_diff_text(const struct comparison *c, struct strbuf *out)
{
	size_t i;
	int s;

	strbuf_adds(out, "base: ");
	strbuf_add_sanitized(out, c->base_source, strlen(c->base_source));
	strbuf_adds(out, "\nnew:  ");
	strbuf_add_sanitized(out, c->new_source, strlen(c->new_source));
	strbuf_addf(out,
	            "\n%s\nstage          base wall       new wall     "
	            "delta   speedup\n",
	            c->per_step ? "(times per profiler step)\n" : "");
	for (s = 0; s < STAGE_COUNT; s++)
		if (c->stages[s].in_base || c->stages[s].in_new)
			stage_line(out, s, &c->stages[s]);
	if (c->stages[STAGE_DIT].in_base && c->stages[STAGE_DIT].in_new)
		shares(out, &c->stages[STAGE_DIT]);
	verdicts(c, out);
	types(c, out);
	if (c->nwarnings)
		strbuf_addf(out, "\nwarnings (%zu):\n", c->nwarnings);
	for (i = 0; i < c->nwarnings; i++) {
		strbuf_adds(out, "  - ");
		strbuf_add_sanitized(out, c->warnings[i].message,
		                     strlen(c->warnings[i].message));
		strbuf_addch(out, '\n');
	}
}
