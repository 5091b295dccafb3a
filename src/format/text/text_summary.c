/* The terminal's executive summary (format/text/text_summary.h). */
#include "format/text/text_summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/e2e.h"
#include "analysis/summary.h"
#include "analysis/totals.h"
#include "analysis/workload.h"
#include "util/banned.h"
#include "util/numfmt.h"

#define BAR_WIDTH 40

static const char *const short_names[STAGE_COUNT] = {"DiT", "VAE",
                                                     "text encoder", "other"};
static const char bar_marks[STAGE_COUNT] = {'D', 'V', 'T', 'o'};

/* A stage's short name; the denoiser (stage id dit) named for what it
 * is. */
static const char *short_name(const struct result *r, int s)
{
	return s == STAGE_DIT && r->denoiser_unet ? "UNet" : short_names[s];
}

void text_pct(struct strbuf *out, double v)
{
	if (v == 0)
		strbuf_adds(out, "0%");
	else
		strbuf_addf(out, "%.*f%%", numfmt_pct_decimals(v), v);
}

static void e2e_line(const struct result *r, struct strbuf *out)
{
	const struct e2e_time *e = &r->e2e;

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
	strbuf_adds(out, " in all");
	if (e2e_per_call_ns(r) >= 0) {
		strbuf_addf(out, "; %" PRIu64 " pipeline calls, ",
		            r->iters.calls);
		numfmt_duration(out, e2e_per_call_ns(r));
		strbuf_adds(out, " each");
	}
	strbuf_adds(out, ")\n");
}

/* A stage as the summary names it: the denoiser for what it is, the one
 * stage of a profile that is not split as the tables name it, a partial
 * capture's in full. */
static const char *stage_name(const struct result *r, int s)
{
	if (s != STAGE_OTHER || !r->workload.one_stage)
		return short_name(r, s);
	return r->workload.kind == WORKLOAD_PARTIAL
	           ? "VAE alone (partial capture)"
	           : text_stage_label(r, s);
}

const char *text_stage_label(const struct result *r, int s)
{
	static const char *const one[WORKLOAD_KINDS] = {
	    "whole profile", "training step", "LLM inference", "VAE alone",
	    "whole profile"};

	if (s == STAGE_OTHER && r->workload.one_stage)
		return one[r->workload.kind];
	return stage_names[s];
}

/* "workload     training step: no denoising loop; 37 backward, ..." and,
 * for a profile of one stage, what that means for the findings. */
static void workload_line(const struct result *r, struct strbuf *out)
{
	static const char *const kinds[WORKLOAD_KINDS] = {
	    "diffusion inference", "training step", "LLM inference",
	    "partial capture", "unknown, not diffusion inference"};
	const struct workload *w = &r->workload;
	char *ev = workload_evidence(w);

	strbuf_addf(out, "  workload     %s", kinds[w->kind]);
	if (w->part == WORKLOAD_PART_VAE_ONLY)
		strbuf_adds(out, " (a VAE alone)");
	else if (w->part == WORKLOAD_PART_LOOP_ONLY)
		strbuf_adds(out, " (denoising iterations alone)");
	strbuf_addf(out, ": %s\n", ev);
	if (w->one_stage)
		strbuf_adds(out, "               one stage, no DiT/VAE/text-"
		                 "encoder split: stage findings n/a, category "
		                 "findings over the whole profile (the guide's "
		                 "thresholds are meant for a DiT)\n");
	free(ev);
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
	/* per step, as the end-to-end line above it */
	strbuf_adds(out,
	            e->steps ? "  stage split  per step: " : "  stage split  ");
	for (s = 0; s < STAGE_COUNT; s++) {
		if (e->stage_ns[s] <= 0)
			continue;
		strbuf_addf(out, "%s%s ", first ? "" : ", ", stage_name(r, s));
		numfmt_duration(out, e->stage_step_ns[s]);
		strbuf_addch(out, ' ');
		text_pct(out, e2e_share(r, e->stage_ns[s]));
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

/* "142.4 ms" in the unit of unit_ns, four digits or so; zero is "0" */
static void dur(struct strbuf *out, int64_t ns, int64_t unit_ns)
{
	int64_t a = unit_ns < 0 ? -unit_ns : unit_ns;

	if (ns == 0) {
		strbuf_addch(out, '0');
	} else if (a >= 1000000000) {
		numfmt_fixed(out, (double)ns / 1e9, 2);
		strbuf_adds(out, " s");
	} else if (a >= 1000000) {
		numfmt_fixed(out, (double)ns / 1e6, 1);
		strbuf_adds(out, " ms");
	} else {
		numfmt_fixed(out, (double)ns / 1e3, 1);
		strbuf_adds(out, " \xC2\xB5s");
	}
}

/* "X -> A-B unit": the better time first */
static void change(struct strbuf *out, int64_t before, int64_t best,
                   int64_t worst)
{
	struct strbuf b = STRBUF_INIT;

	dur(out, before, before);
	strbuf_adds(out, " -> ");
	if (best != worst) {
		dur(&b, best, before);
		/* the number only: the unit follows the second */
		strbuf_add(out, b.buf, (size_t)(strchr(b.buf, ' ') - b.buf));
		strbuf_addch(out, '-');
	}
	dur(out, worst, before);
	strbuf_release(&b);
}

void text_gain(const struct result *r, const struct gain *g, int full,
               struct strbuf *out)
{
	if (!g)
		return;
	strbuf_adds(out, "estimated gain: ");
	if (g->no_speed)
		strbuf_adds(out, "no speed gain");
	else if (!g->estimated)
		strbuf_adds(out, "not estimated: this profile does not measure "
		                 "the time it applies to");
	if (g->estimated) {
		if (full && g->stage != STAGE_ALL) {
			strbuf_addf(out, "%s ", short_name(r, g->stage));
			change(out, g->stage_before_ns, g->stage_after_high_ns,
			       g->stage_after_low_ns);
			strbuf_adds(out, "; ");
		}
		strbuf_adds(out, "end to end ");
		change(out, g->e2e_before_ns, g->e2e_after_high_ns,
		       g->e2e_after_low_ns);
		strbuf_addf(out, " %s (-%.1f-%.1f%%)",
		            r->e2e.steps ? "per step" : "for the whole profile",
		            g->saving_low_pct, g->saving_high_pct);
	}
	if (!full)
		return;
	strbuf_adds(out, g->no_speed ? "; " : "; assuming ");
	strbuf_add_sanitized(out, g->assumption_en, strlen(g->assumption_en));
	strbuf_adds(out, " (source: ");
	strbuf_add_sanitized(out, g->source, strlen(g->source));
	strbuf_addch(out, ')');
}

void text_summary(const struct result *r, struct strbuf *out)
{
	size_t n = summary_findings(r);
	int top = summary_top(r);
	const struct rank_collection *c = &r->collection.sum;

	strbuf_adds(out, "summary:\n");
	workload_line(r, out);
	e2e_line(r, out);
	split_lines(r, out);
	if (n)
		strbuf_addf(out, "  findings     %zu finding%s\n", n,
		            n == 1 ? "" : "s");
	else
		strbuf_adds(out, "  findings     no findings\n");
	if (top >= 0) {
		const struct verdict *v = &r->verdicts[top];
		strbuf_addf(out, "  do first     %s: %s (", v->id, v->title);
		text_pct(out, v->value);
		strbuf_adds(out, " > ");
		text_pct(out, v->threshold);
		strbuf_adds(out, ")\n");
		if (v->gain) {
			strbuf_adds(out, "               ");
			text_gain(r, v->gain, 0, out);
			strbuf_addch(out, '\n');
		}
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
	strbuf_addf(out, "%zu warning%s", r->nwarnings,
	            r->nwarnings == 1 ? "" : "s");
	if (totals_checked(r))
		strbuf_adds(out,
		            totals_failed(r)
		                ? "; the kernels disagree with the "
		                  "profiler's own totals (see the warnings)"
		                : "; the profiler's own totals agree with "
		                  "the kernels");
	strbuf_adds(out, "\n\n");
}
