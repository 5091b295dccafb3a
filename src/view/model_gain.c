/* View model: a finding's expected gain (view/model_gain.h). The times
 * of one range share the unit of the time before, so "142.4 ms →
 * 101.0–113.2 ms" never mixes units. */
#include "view/model_gain.h"

#include <stdio.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/banned.h"

/* The unit of before: its divisor in ns and its name. */
static void unit_of(int64_t before, double *div, const char **name)
{
	int64_t a = before < 0 ? -before : before;

	if (a >= 1000000000) {
		*div = 1e9;
		*name = "s";
	} else if (a >= 1000000) {
		*div = 1e6;
		*name = "ms";
	} else {
		*div = 1e3;
		*name = "\xC2\xB5s"; /* µs */
	}
}

/* Decimals that keep about four significant digits in the unit. */
static int decimals(double div)
{
	return div >= 1e9 ? 2 : 1;
}

/* "142.4 ms" */
static void one(struct strbuf *sb, int64_t ns, int64_t unit_ns)
{
	double div;
	const char *u;

	unit_of(unit_ns, &div, &u);
	numfmt_fixed(sb, (double)ns / div, decimals(div));
	strbuf_addf(sb, " %s", u);
}

/* "101.0–113.2 ms": the better time first */
static void range(struct strbuf *sb, int64_t best, int64_t worst,
                  int64_t unit_ns)
{
	double div;
	const char *u;

	unit_of(unit_ns, &div, &u);
	numfmt_fixed(sb, (double)best / div, decimals(div));
	if (best != worst) {
		strbuf_adds(sb, "–");
		numfmt_fixed(sb, (double)worst / div, decimals(div));
	}
	strbuf_addf(sb, " %s", u);
}

static void saving(struct strbuf *sb, const struct gain *g)
{
	if (g->saving_low_pct == g->saving_high_pct)
		strbuf_addf(sb, "%.1f", g->saving_high_pct);
	else
		strbuf_addf(sb, "%.1f–%.1f", g->saving_low_pct,
		            g->saving_high_pct);
}

const char *model_gain_assumption(const struct model_ctx *c,
                                  const struct gain *g)
{
	return strcmp(i18n_lang(c->o->cat), "zh") ? g->assumption_en
	                                          : g->assumption_zh;
}

/* Where the speed-up range comes from, in the report's language when the
 * rules give it in Chinese too. */
static const char *source(const struct model_ctx *c, const struct gain *g)
{
	return g->source_zh && !strcmp(i18n_lang(c->o->cat), "zh")
	           ? g->source_zh
	           : g->source;
}

/* The estimate's sentence into out: with the stage when with_stage and
 * the part is one stage's, else end to end only. */
static void estimate_text(struct model_ctx *c, const struct gain *g,
                          int with_stage, struct strbuf *out)
{
	const char *names[] = {"stage",      "stage_before", "stage_after",
	                       "e2e_before", "e2e_after",    "per",
	                       "saving"};
	const char *values[7];
	struct strbuf sb[5] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	                       STRBUF_INIT, STRBUF_INIT};
	int i;

	one(&sb[0], g->stage_before_ns, g->stage_before_ns);
	range(&sb[1], g->stage_after_high_ns, g->stage_after_low_ns,
	      g->stage_before_ns);
	one(&sb[2], g->e2e_before_ns, g->e2e_before_ns);
	range(&sb[3], g->e2e_after_high_ns, g->e2e_after_low_ns,
	      g->e2e_before_ns);
	saving(&sb[4], g);
	values[0] = g->stage == STAGE_ALL
	                ? ""
	                : model_tk(c, "summary_stage_", stage_names[g->stage]);
	values[1] = sb[0].buf;
	values[2] = sb[1].buf;
	values[3] = sb[2].buf;
	values[4] = sb[3].buf;
	values[5] =
	    model_t(c, c->r->e2e.steps ? "gain_per_step" : "gain_per_profile");
	values[6] = sb[4].buf;
	i18n_format(c->o->cat,
	            with_stage && g->stage != STAGE_ALL ? "gain_estimate"
	                                                : "gain_estimate_e2e",
	            out, names, values, 7);
	for (i = 0; i < 5; i++)
		strbuf_release(&sb[i]);
}

void model_gain_short(struct model_ctx *c, const struct gain *g,
                      struct strbuf *out)
{
	if (!g)
		return;
	if (g->no_speed)
		strbuf_adds(out, model_t(c, "gain_none"));
	else if (!g->estimated)
		strbuf_adds(out, model_t(c, "gain_unknown"));
	else
		estimate_text(c, g, 0, out);
}

void model_gain(struct model_ctx *c, struct tmpl_vars *row,
                const struct verdict *vd)
{
	const struct gain *g = vd->gain;
	const char *names[] = {"assumption"};
	const char *values[1];
	struct strbuf sb = STRBUF_INIT;

	tmpl_set(row, "gain", g ? "1" : "");
	tmpl_set(row, "gain_kind",
	         !g             ? ""
	         : g->no_speed  ? "none"
	         : g->estimated ? "estimate"
	                        : "unknown");
	if (g && g->estimated)
		estimate_text(c, g, 1, &sb);
	else
		model_gain_short(c, g, &sb);
	tmpl_set(row, "gain_text", sb.buf);
	values[0] = g ? model_gain_assumption(c, g) : "";
	model_set_msg(c, row, "gain_note",
	              g && g->no_speed ? "gain_none_note" : "gain_assuming",
	              names, values, 1);
	tmpl_set(row, "gain_source", g ? source(c, g) : "");
	if (g && g->estimated) {
		tmpl_setf(row, "gain_saving_low", "%.3f", g->saving_low_pct);
		tmpl_setf(row, "gain_saving_high", "%.3f", g->saving_high_pct);
	} else {
		tmpl_set(row, "gain_saving_low", "");
		tmpl_set(row, "gain_saving_high", "");
	}
	strbuf_release(&sb);
}
