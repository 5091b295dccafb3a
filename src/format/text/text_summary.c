/* The terminal's executive summary (format/text/text_summary.h). */
#include "format/text/text_summary.h"

#include <inttypes.h>

#include "analysis/e2e.h"
#include "analysis/summary.h"
#include "util/banned.h"
#include "util/numfmt.h"

#define BAR_WIDTH 40

static const char *const short_names[STAGE_COUNT] = {"DiT", "VAE",
                                                     "text encoder", "other"};
static const char bar_marks[STAGE_COUNT] = {'D', 'V', 'T', 'o'};

static void e2e_line(const struct e2e_time *e, struct strbuf *out)
{
	strbuf_adds(out, "  end to end   ");
	if (!e->known) {
		strbuf_adds(out, "unknown (no kernels)\n");
		return;
	}
	numfmt_duration(out, e->per_step_ns);
	if (!e->steps) {
		strbuf_adds(out, " whole profile\n");
		return;
	}
	strbuf_addf(out, " per profiler step (%" PRIu64 " steps, ", e->steps);
	numfmt_duration(out, e->span_ns);
	strbuf_adds(out, " in all)\n");
}

/* "DiT 1.254 s 36.4%, VAE ..." and the bar under it, each stage's marks
 * rounded on the running sum so they add up to BAR_WIDTH. */
static void split_lines(const struct result *r, struct strbuf *out)
{
	const struct e2e_time *e = &r->e2e;
	double sum = 0;
	int s, done = 0, first = 1;

	if (!e->known)
		return;
	strbuf_adds(out, "  stage split  ");
	for (s = 0; s < STAGE_COUNT; s++) {
		if (e->stage_ns[s] <= 0)
			continue;
		strbuf_addf(out, "%s%s ", first ? "" : ", ", short_names[s]);
		numfmt_duration(out, e->stage_ns[s]);
		strbuf_addf(out, " %.1f%%", e2e_share(r, e->stage_ns[s]));
		first = 0;
	}
	strbuf_adds(out, "\n               [");
	for (s = 0; s < STAGE_COUNT; s++) {
		int upto;
		sum += e2e_share(r, e->stage_ns[s]);
		upto = (int)(sum * BAR_WIDTH / 100.0 + 0.5);
		if (upto > BAR_WIDTH)
			upto = BAR_WIDTH;
		for (; done < upto; done++)
			strbuf_addch(out, bar_marks[s]);
	}
	strbuf_adds(out, "]\n");
}

void text_summary(const struct result *r, struct strbuf *out)
{
	size_t n = summary_findings(r);
	int top = summary_top(r);
	const struct rank_collection *c = &r->collection.sum;

	strbuf_adds(out, "summary:\n");
	e2e_line(&r->e2e, out);
	split_lines(r, out);
	if (n)
		strbuf_addf(out, "  findings     %zu finding%s\n", n,
		            n == 1 ? "" : "s");
	else
		strbuf_adds(out, "  findings     no findings\n");
	if (top >= 0) {
		const struct verdict *v = &r->verdicts[top];
		strbuf_addf(out, "  do first     %s: %s (%.1f%% > %g%%)\n",
		            v->id, v->title, v->value, v->threshold);
	} else {
		strbuf_adds(out,
		            "  do first     nothing: every check is within "
		            "its threshold\n");
	}
	strbuf_addf(out, "  trust        %s - %s, ",
	            summary_trust_names[summary_trust(r)],
	            c->level >= LEVEL_NONE && c->level <= LEVEL_2
	                ? coll_level_names[c->level]
	                : "profiler level unknown");
	if (c->steps)
		strbuf_addf(
		    out, "%" PRIu64 " timed steps after %" PRIu64 " warm-up, ",
		    c->timed, summary_warmup(r));
	else
		strbuf_adds(out, "no step boundaries, ");
	strbuf_addf(out, "%zu warning%s\n\n", r->nwarnings,
	            r->nwarnings == 1 ? "" : "s");
}
