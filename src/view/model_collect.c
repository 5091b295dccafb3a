/* View model of the collection check (see model_collect.h). */
#include "view/model_collect.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/collection.h"
#include "analysis/totals.h"
#include "util/strbuf.h"
#include "util/banned.h"

static const char *tri_text(struct model_ctx *c, int v)
{
	return model_t(c, v == TRI_YES  ? "yes"
	                  : v == TRI_NO ? "no"
	                                : "unknown");
}

/* "1 timed, 50 run before", "none" into c->sb's copy in row's "steps". */
static void steps_text(struct model_ctx *c, struct tmpl_vars *row,
                       const struct rank_collection *k)
{
	const char *names[] = {"n"};
	char n[24];
	const char *values[] = {n};
	struct strbuf sb = STRBUF_INIT;

	if (!k->steps) {
		tmpl_set(row, "steps", model_t(c, "coll_steps_none"));
		return;
	}
	snprintf(n, sizeof(n), "%" PRIu64, k->timed);
	i18n_format(c->o->cat, "coll_steps_timed", &sb, names, values, 1);
	if (k->warmup_in) {
		snprintf(n, sizeof(n), "%" PRIu64, k->warmup_in);
		strbuf_adds(&sb, model_t(c, "coll_list_sep"));
		i18n_format(c->o->cat, "coll_steps_warmup_in", &sb, names,
		            values, 1);
	}
	if (k->warmup_before >= 0) {
		snprintf(n, sizeof(n), "%" PRId64, k->warmup_before);
		strbuf_adds(&sb, model_t(c, "coll_list_sep"));
		i18n_format(c->o->cat, "coll_steps_warmup_before", &sb, names,
		            values, 1);
	}
	tmpl_set(row, "steps", sb.buf);
	strbuf_release(&sb);
}

static void rank_row(struct model_ctx *c, struct tmpl_vars *v,
                     const struct rank_result *rr)
{
	const struct rank_collection *k = &rr->coll;
	struct tmpl_vars *row = tmpl_add_row(v, "coll_ranks");
	const char *level = collection_level_name(k->level);

	tmpl_setf(row, "id", "%" PRId32, rr->id);
	tmpl_set(row, "export", model_tk(c, "coll_export_", k->export_type));
	tmpl_set(row, "level", level ? level : model_t(c, "unknown"));
	tmpl_set(row, "cpu", tri_text(c, k->cpu));
	steps_text(c, row, k);
	tmpl_set(row, "shapes", tri_text(c, k->shapes));
	tmpl_set(row, "memory", tri_text(c, k->memory));
	tmpl_set(row, "aic", tri_text(c, k->aic));
}

static void versions(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct collection *col = &c->r->collection;
	const char *names[] = {"torch", "cann"};
	const char *values[] = {col->torch_npu_version, col->cann_version};
	const char *unknown = model_t(c, "unknown");
	struct strbuf sb = STRBUF_INIT;
	const char *vn[] = {"versions"};
	const char *vv[1];

	if (!values[0] && !values[1]) {
		tmpl_set(v, "coll_versions",
		         model_t(c, "coll_versions_unknown"));
		return;
	}
	values[0] = values[0] ? values[0] : unknown;
	values[1] = values[1] ? values[1] : unknown;
	i18n_format(c->o->cat, "versions_text", &sb, names, values, 2);
	if (col->versions_differ)
		strbuf_adds(&sb, model_t(c, "coll_versions_differ"));
	vv[0] = sb.buf;
	model_set_msg(c, v, "coll_versions", "coll_versions", vn, vv, 1);
	strbuf_release(&sb);
}

/* The ranks with gap g, " (ranks 0, 2)", when not every analysed rank has
 * it; else "". */
static void gap_ranks(struct model_ctx *c, struct tmpl_vars *row, int g)
{
	const struct result *r = c->r;
	struct strbuf ids = STRBUF_INIT;
	const char *names[] = {"ranks"};
	const char *values[1];
	size_t i, with = 0, analysed = 0;

	for (i = 0; i < r->nranks; i++) {
		if (!r->ranks[i].analysed)
			continue;
		analysed++;
		if (!(r->ranks[i].coll.gaps & (1u << g)))
			continue;
		strbuf_addf(&ids, "%s%" PRId32, with++ ? ", " : "",
		            r->ranks[i].id);
	}
	values[0] = ids.buf ? ids.buf : "";
	if (with < analysed)
		model_set_msg(c, row, "ranks",
		              with == 1 ? "coll_gap_rank" : "coll_gap_ranks",
		              names, values, 1);
	else
		tmpl_set(row, "ranks", "");
	strbuf_release(&ids);
}

static void gaps(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct collection *col = &c->r->collection;
	char key[64];
	int g;

	for (g = 0; g < GAP_COUNT; g++) {
		const struct coll_gap_def *d = &coll_gap_defs[g];
		struct tmpl_vars *row;
		if (!(col->sum.gaps & (1u << g)))
			continue;
		row = tmpl_add_row(v, "coll_gaps");
		tmpl_set(row, "id", d->id);
		snprintf(key, sizeof(key), "coll_gap_%s", d->id);
		tmpl_set(row, "title", model_t(c, key));
		snprintf(key, sizeof(key), "coll_gap_%s_disables", d->id);
		tmpl_set(row, "disables", model_t(c, key));
		tmpl_set(row, "fix", d->fix);
		gap_ranks(c, row, g);
	}
	if (col->sum.gaps)
		tmpl_set(v, "coll_snippet", collection_snippet(col));
}

/* The labels of rr's checks of one outcome (passed or not), joined:
 * "step_trace_time.csv (Computing, Free), op_statistic.csv". File and
 * column names are the profiler's, the same in every language. */
static void check_list(const struct rank_result *rr, int passed,
                       struct strbuf *sb)
{
	static const char *const label[TOT_COUNT] = {
	    "Computing",
	    "Communication(Not Overlapped)",
	    "Free",
	    "Overlap Analysis",
	    "op_statistic.csv (time)",
	    "op_statistic.csv (count)"};
	int f, n = 0;

	for (f = 0; f < TOT_COUNT; f++) {
		const struct totals_check *k = &rr->totals[f];
		if (!k->checked || !k->passed != !passed)
			continue;
		strbuf_adds(sb, n++ ? ", " : "");
		strbuf_adds(sb, label[f]);
		if (f <= TOT_FREE)
			strbuf_addf(sb, " (%s)",
			            !strcmp(k->source, "db_step_time")
			                ? "STEP_TIME"
			            : !strcmp(k->source, "overlap_analysis")
			                ? "Overlap Analysis"
			                : "step_trace_time.csv");
	}
}

/* One line per analysed rank with checks: the ones that passed, the ones
 * that did not. */
static void totals(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"rank", "checks"};
	const char *values[2];
	char id[16];
	size_t i;

	tmpl_define_loop(v, "coll_totals");
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct strbuf sb = STRBUF_INIT;
		int bad;
		if (!rr->analysed)
			continue;
		bad = rr->totals_failed > 0;
		check_list(rr, !bad, &sb);
		if (!sb.len) {
			strbuf_release(&sb);
			continue;
		}
		snprintf(id, sizeof(id), "%" PRId32, rr->id);
		values[0] = id;
		values[1] = sb.buf;
		{
			struct tmpl_vars *row = tmpl_add_row(v, "coll_totals");
			model_set_msg(c, row, "text",
			              bad ? "coll_totals_bad"
			                  : "coll_totals_ok",
			              names, values, 2);
			tmpl_set(row, "ok", bad ? "" : "1");
		}
		strbuf_release(&sb);
	}
}

/* One line per rank with files that nothing reads. */
static void unused(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"rank", "files", "n"};
	const char *values[3];
	char id[16], n[24];
	size_t i, k;

	tmpl_define_loop(v, "coll_unused");
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct strbuf sb = STRBUF_INIT;
		if (!rr->nunused)
			continue;
		for (k = 0; k < rr->nunused; k++) {
			strbuf_adds(&sb, k ? ", " : "");
			strbuf_adds(&sb, rr->unused[k]);
		}
		snprintf(id, sizeof(id), "%" PRId32, rr->id);
		snprintf(n, sizeof(n), "%zu", rr->unused_total - rr->nunused);
		values[0] = id;
		values[1] = sb.buf;
		values[2] = n;
		model_set_msg(c, tmpl_add_row(v, "coll_unused"), "text",
		              rr->unused_total > rr->nunused
		                  ? "coll_unused_more"
		                  : "coll_unused",
		              names, values, 3);
		strbuf_release(&sb);
	}
}

void model_collection(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i;

	tmpl_set(v, "collection", "");
	tmpl_define_loop(v, "coll_gaps");
	totals(c, v);
	unused(c, v);
	if (!r->collection.checked)
		return;
	tmpl_set(v, "collection", "1");
	tmpl_set(v, "coll_complete", r->collection.sum.gaps ? "" : "1");
	for (i = 0; i < r->nranks; i++)
		if (r->ranks[i].analysed)
			rank_row(c, v, &r->ranks[i]);
	versions(c, v);
	gaps(c, v);
}
