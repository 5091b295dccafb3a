/* The denoising iterations: numbers as sentences, the chart, the table.
 * Marks are told apart by shape and symbol, not by colour alone. */
#include "view/model_iters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/iterations.h"
#include "view/i18n.h"
#include "view/svg.h"
#include "util/xalloc.h"
#include "util/checked.h"
#include "util/banned.h"
#include "util/numfmt.h"

/* What marks an iteration: full, cache hit, warm-up, outlier. */
enum mark { MARK_FULL, MARK_HIT, MARK_WARMUP, MARK_OUTLIER, MARKS };
static const char *const mark_ids[MARKS] = {"full", "hit", "warmup", "outlier"};
static const char *const mark_css[MARKS] = {"it-full", "it-hit", "it-warmup",
                                            "it-outlier"};
static const enum svg_shape mark_shape[MARKS] = {SVG_CIRCLE, SVG_DIAMOND,
                                                 SVG_TRIANGLE, SVG_SQUARE};
/* the same shapes as text, for Markdown and the terminal */
static const char *const mark_sym[MARKS] = {"●", "◆", "▲", "■"};

static enum mark mark_of(const struct iteration *it)
{
	if (it->hit != ITER_FULL)
		return MARK_HIT;
	return it->outlier == 1   ? MARK_WARMUP
	       : it->outlier == 2 ? MARK_OUTLIER
	                          : MARK_FULL;
}

/* a duration for a sentence, with its unit and separators:
 * "10.127 s", "755.21 ms" (numfmt_duration) */
static void dur_text(char *buf, size_t n, int64_t ns)
{
	struct strbuf sb = STRBUF_INIT;

	numfmt_duration(&sb, ns);
	snprintf(buf, n, "%s", sb.buf);
	strbuf_release(&sb);
}

static void intro(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	const char *names[] = {"head",   "total",   "calls",
	                       "blocks", "kernels", "median"};
	char b[6][32];
	const char *values[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};

	snprintf(b[0], 32, "%llu", (unsigned long long)s->head);
	snprintf(b[1], 32, "%llu", (unsigned long long)s->total);
	snprintf(b[2], 32, "%llu", (unsigned long long)s->calls);
	snprintf(b[3], 32, "%llu", (unsigned long long)s->blocks);
	snprintf(b[4], 32, "%llu", (unsigned long long)s->median_kernels);
	dur_text(b[5], 32, s->median_ns);
	model_set_msg(c, v, "iters_intro", "sec_iters_intro", names, values, 6);
}

static void loop_line(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	const char *names[] = {"ms", "share", "factor", "n"};
	char b[4][32];
	const char *values[4] = {b[0], b[1], b[2], b[3]};
	double share = iterations_loop_share(c->r);

	dur_text(b[0], 32, s->loop_ns);
	snprintf(b[1], 32, "%.1f", share);
	model_set_msg(c, v, "iters_loop",
	              share >= 0 ? "iters_loop" : "iters_loop_noshare", names,
	              values, 2);
	/* + 0.0: a forged summary's -0 shows as 0, not "-0" */
	snprintf(b[2], 32, "%g", s->outlier_factor + 0.0);
	snprintf(b[3], 32, "%llu", (unsigned long long)s->outliers);
	model_set_msg(c, v, "iters_outliers", "iters_outliers", names + 2,
	              values + 2, 2);
}

const char *model_iters_pattern(struct model_ctx *c)
{
	const struct cache_seen *cs = &c->r->iters.cache;
	const char *names[] = {"period"};
	char p[32];
	const char *values[1] = {p};
	const char *key = !cs->period   ? "iters_pattern_none"
	                  : cs->regular ? "iters_pattern_period"
	                                : "iters_pattern_irregular";

	snprintf(p, sizeof(p), "%llu", (unsigned long long)cs->period);
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, key, &c->sb, names, values, 1);
	return c->sb.buf;
}

static void cache_line(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	const char *names[] = {"hits",  "total",  "pattern",
	                       "saved", "period", "skip"};
	char b[6][32];
	char *pattern;
	const char *values[6] = {b[0], b[1], NULL, b[3], b[4], b[5]};

	snprintf(b[0], 32, "%llu", (unsigned long long)s->cache.hits);
	snprintf(b[1], 32, "%llu", (unsigned long long)s->total);
	dur_text(b[3], 32, s->cache.saved_ns);
	snprintf(b[4], 32, "%llu", (unsigned long long)s->suggest_period);
	snprintf(b[5], 32, "%llu", (unsigned long long)s->would_skip);
	if (s->cache.kind == CACHE_NONE) {
		values[2] = "";
		model_set_msg(c, v, "iters_cache", "iters_cache_none", names,
		              values, 6);
		return;
	}
	pattern = xstrdup(model_iters_pattern(c));
	values[2] = pattern;
	model_set_msg(c, v, "iters_cache",
	              s->cache.kind == CACHE_DIT ? "iters_cache_dit"
	                                         : "iters_cache_attention",
	              names, values, 6);
	free(pattern);
}

static void chart(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	struct svg_point *p = xcalloc(s->n ? s->n : 1, sizeof(*p));
	char **labels = xcalloc(s->n ? s->n : 1, sizeof(*labels));
	struct svg_part legend[MARKS];
	struct strbuf out = STRBUF_INIT;
	char dur[32];
	size_t i;
	int k;

	for (i = 0; i < s->n; i++) {
		const struct iteration *it = &s->v[i];
		enum mark m = mark_of(it);
		dur_text(dur, sizeof(dur), it->dur_ns);
		labels[i] = xstrfmt("%u/%u: %s (%s)", it->call, it->index, dur,
		                    model_tk(c, "iters_mark_", mark_ids[m]));
		p[i].x = checked_sub_sat(it->start_ns, s->v[0].start_ns);
		p[i].y = it->dur_ns;
		p[i].shape = mark_shape[m];
		p[i].css = mark_css[m];
		p[i].label = labels[i];
	}
	for (k = 0; k < MARKS; k++) {
		legend[k].label = model_tk(c, "iters_mark_", mark_ids[k]);
		legend[k].css = mark_css[k];
		legend[k].value = 0;
	}
	svg_points(&out, model_t(c, "iters_chart_title"), p, s->n,
	           model_t(c, "iters_axis_x"), model_t(c, "iters_axis_y"),
	           legend, mark_shape, MARKS);
	tmpl_set(v, "iters_chart", out.buf);
	strbuf_release(&out);
	for (i = 0; i < s->n; i++)
		free(labels[i]);
	free(labels);
	free(p);
}

/* A bar of eighth blocks, 20 cells for the longest iteration. */
static void bar(struct strbuf *sb, int64_t ns, int64_t max)
{
	static const char *const eighth[] = {"",  "▏", "▎", "▍",
	                                     "▌", "▋", "▊", "▉"};
	int64_t units, i;

	/* a negative or forged duration is an empty bar, never a negative
	 * index nor an overflowed product */
	ns = ns < 0 ? 0 : ns > max ? max : ns;
	units = max > 0 ? checked_muldiv(ns, 160, max) : 0;

	strbuf_reset(sb);
	for (i = 0; i < units / 8; i++)
		strbuf_adds(sb, "█");
	strbuf_adds(sb, eighth[units % 8]);
}

static void rows(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	size_t i, n = s->n < MODEL_ITER_ROWS ? s->n : MODEL_ITER_ROWS;
	int64_t max = 0;

	for (i = 0; i < n; i++)
		max = s->v[i].dur_ns > max ? s->v[i].dur_ns : max;
	tmpl_define_loop(v, "iters");
	for (i = 0; i < n; i++) {
		const struct iteration *it = &s->v[i];
		struct tmpl_vars *row = tmpl_add_row(v, "iters");
		enum mark m = mark_of(it);
		model_set_u64(row, "call", it->call);
		model_set_u64(row, "index", it->index);
		tmpl_setf(
		    row, "start_ms", "%.3f",
		    (double)checked_sub_sat(it->start_ns, s->v[0].start_ns) /
		        1e6);
		model_set_ns(row, "dur_ns", it->dur_ns);
		tmpl_setf(row, "dur_ms", "%.3f", (double)it->dur_ns / 1e6);
		model_set_u64(row, "kernels", it->kernels);
		model_set_u64(row, "attention", it->attention);
		model_set_u64(row, "matmul", it->matmul);
		model_set_u64(row, "blocks", it->blocks);
		tmpl_set(row, "mark", mark_ids[m]);
		tmpl_set(row, "mark_label",
		         model_tk(c, "iters_mark_", mark_ids[m]));
		tmpl_set(row, "sym", mark_sym[m]);
		bar(&c->sb, it->dur_ns, max);
		tmpl_set(row, "bar", c->sb.buf);
	}
}

void model_iters(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct iter_summary *s = &c->r->iters;
	const char *names[] = {"listed", "total"};
	char b[2][32];
	const char *values[2] = {b[0], b[1]};
	size_t shown = s->n < MODEL_ITER_ROWS ? s->n : MODEL_ITER_ROWS;

	tmpl_set(v, "has_iters", s->found && s->n ? "1" : "");
	tmpl_define_loop(v, "iters");
	if (!s->found || !s->n)
		return;
	intro(c, v);
	loop_line(c, v);
	cache_line(c, v);
	chart(c, v);
	rows(c, v);
	snprintf(b[0], 32, "%zu", shown);
	snprintf(b[1], 32, "%llu", (unsigned long long)s->total);
	if (shown < s->total)
		model_set_msg(c, v, "iters_capped", "iters_capped", names,
		              values, 2);
	else
		tmpl_set(v, "iters_capped", "");
}
