/* sdperf check's logic: --max limits looked up by path in report.json,
 * fired verdicts, and stage wall-time regressions against a baseline. */
#include "analysis/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/snapshot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX 80 /* bytes of an option value quoted in a message */
#define PCT_MAX   1000.0

struct checker {
	struct snapdoc *doc;
	const struct snapshot *s;
	const struct check_opts *o;
	struct check_result *out;
	struct err *e;
};

/* Takes line (xstrfmt'ed). */
static void fail(struct check_result *out, char *line)
{
	/* grown in powers of two: a report may fire any number of verdicts */
	if (!(out->nfailures & (out->nfailures - 1)))
		out->failures = xrealloc(
		    out->failures, (out->nfailures ? 2 * out->nfailures : 1) *
		                       sizeof(*out->failures));
	out->failures[out->nfailures++] = line;
}

void check_fail(struct check_result *out, char *line)
{
	fail(out, line);
}

/* A finite number filling the whole of text. */
static int parse_number(const char *text, double *out)
{
	char *end = NULL;

	if (!*text)
		return -1;
	*out = strtod(text, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

/* "--max 'ARG': " with ARG shown safely, then the reason. */
static int usage(const char *arg, const char *reason, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_quoted_value(&sb, arg, strlen(arg), QUOTE_MAX);
	err_set(e, ERR_USAGE, "--max %s: %s", sb.buf, reason);
	strbuf_release(&sb);
	return -1;
}

/* ---- shorthands -----------------------------------------------------------
 */

static int stage_ci(const char *s, size_t n)
{
	int i;

	for (i = 0; i < STAGE_COUNT; i++)
		if (strlen(stage_names[i]) == n &&
		    !strncasecmp(stage_names[i], s, n))
			return i;
	return -1;
}

/* The report.json path under stages.STAGE of a shorthand metric (rest is
 * what follows "STAGE."), and the factor to apply; NULL when unknown. */
static const char *shorthand_path(const char *rest, double *scale)
{
	static const char *const share_paths[CAT_COUNT] = {
	    "categories.FA.share_pct",   "categories.MatMul.share_pct",
	    "categories.Conv.share_pct", "categories.Vector.share_pct",
	    "categories.Comm.share_pct", "categories.Other.share_pct"};
	const char *dot = strchr(rest, '.');
	char *first;
	int cat;

	*scale = 0.001; /* us -> ms */
	if (!strcasecmp(rest, "wall_ms"))
		return "wall_time_us";
	if (!strcasecmp(rest, "kernel_ms"))
		return "kernel_time_us";
	*scale = 0.01; /* percent -> fraction */
	if (!dot || strcasecmp(dot, ".share"))
		return NULL;
	first = xstrndup(rest, (size_t)(dot - rest));
	cat = category_from_name(first);
	if (!strcasecmp(first, "exposed_comm")) {
		free(first);
		return "communication.exposed_share_of_wall_pct";
	}
	free(first);
	return cat >= 0 ? share_paths[cat] : NULL;
}

/* When name starts with a stage ("dit.fa.share"), its report.json path
 * into *path and the factor to apply; 0 when name is not a shorthand
 * (a full path), 1 when it is, -1 (ERR_USAGE) when it is a bad one. */
static int shorthand(const char *arg, const char *name, struct strbuf *path,
                     double *scale, struct err *e)
{
	const char *dot = strchr(name, '.'), *sub;
	int st = dot ? stage_ci(name, (size_t)(dot - name)) : -1;
	const char *sn;
	char *why;

	if (st < 0)
		return 0;
	sub = shorthand_path(dot + 1, scale);
	if (sub) {
		strbuf_addf(path, "stages.%s.%s", stage_names[st], sub);
		return 1;
	}
	sn = stage_names[st];
	why = xstrfmt("unknown metric for stage %s; shorthands: %s.wall_ms, "
	              "%s.kernel_ms, %s.CATEGORY.share (CATEGORY: FA, "
	              "MatMul, Conv, Vector, Comm, Other), "
	              "%s.exposed_comm.share; or a path such as "
	              "stages.%s.wall_time_us",
	              sn, sn, sn, sn, sn, sn);
	usage(arg, why, e);
	free(why);
	return -1;
}

/* ---- --max ----------------------------------------------------------------
 */

/* NAME leads to a string, null, object or array: say which. */
static void not_a_number(const char *arg, enum snapdoc_kind kind,
                         const struct strbuf *why, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "not a number: ");
	strbuf_adds(&sb, kind == SNAPDOC_STRING ? "a string"
	                 : kind == SNAPDOC_NULL ? "null (no value in this "
	                                          "report)"
	                 : kind == SNAPDOC_BOOL ? "true/false"
	                 : why->len             ? "an object; "
	                                          "the path goes on with "
	                                          "one of its keys"
	                                        : "an array");
	if (kind == SNAPDOC_OTHER && why->len) {
		strbuf_adds(&sb, ": ");
		strbuf_addbuf(&sb, why);
	}
	usage(arg, sb.buf, e);
	strbuf_release(&sb);
}

/* The value NAME names (already scaled for a shorthand). */
static int lookup(struct checker *k, const char *arg, const char *name,
                  double *value)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	double scale = 1.0;
	int sh = shorthand(arg, name, &path, &scale, k->e), ret = -1;
	enum snapdoc_kind kind;

	if (sh < 0)
		goto out;
	kind = snapdoc_get(k->doc, sh ? path.buf : name, value, NULL, &why);
	if (kind == SNAPDOC_NUMBER) {
		*value *= scale;
		ret = 0;
	} else if (kind == SNAPDOC_MISSING) {
		usage(arg, why.buf, k->e);
	} else {
		not_a_number(arg, kind, &why, k->e);
	}
out:
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

/* value > limit, where a value at the limit passes even when a unit
 * change (4743446.798 us / 1000 is not the double nearest 4743.446798)
 * left it an ulp above: report.json has 3 decimals, so a relative 1e-9
 * hides no real excess. */
static int exceeds(double value, double limit)
{
	return value - limit > 1e-9 * fmax(fabs(value), fabs(limit));
}

/* Splits --max NAME=VALUE: *name (malloc'ed) and *limit, or -1. */
static int split_max(const char *arg, char **name, double *limit, struct err *e)
{
	const char *eq = strrchr(arg, '=');

	if (!eq || eq == arg)
		return usage(arg, "expected NAME=VALUE", e);
	if (parse_number(eq + 1, limit))
		return usage(arg, "VALUE is not a number", e);
	*name = xstrndup(arg, (size_t)(eq - arg));
	return 0;
}

/* One --max NAME=VALUE. */
static int check_max(struct checker *k, const char *arg)
{
	char *name = NULL;
	double limit, value;
	int ret = -1;

	if (split_max(arg, &name, &limit, k->e))
		return -1;
	if (lookup(k, arg, name, &value))
		goto out;
	k->out->nchecks++;
	if (exceeds(value, limit))
		fail(k->out,
		     xstrfmt("%s = %.10g > %.10g (--max)", name, value, limit));
	ret = 0;
out:
	free(name);
	return ret;
}

/* ---- verdicts -------------------------------------------------------------
 */

/* "(worst: rank 1)", "(rank 1)" or "" from the verdict's how and rank. */
static char *verdict_where(const struct snap_verdict *v)
{
	if (!v->has_rank)
		return xstrdup("");
	return v->how ? xstrfmt(" (%s: rank %.0f)", v->how, v->rank)
	              : xstrfmt(" (rank %.0f)", v->rank);
}

static void check_verdicts(struct checker *k)
{
	const struct snapshot *s = k->s;
	char *where;
	size_t i;

	for (i = 0; i < s->nverdicts; i++) {
		const struct snap_verdict *v = &s->verdicts[i];
		if (!v->applicable)
			continue;
		k->out->nchecks++;
		if (!v->fired)
			continue;
		where = verdict_where(v);
		fail(k->out, xstrfmt("verdict %s fired: %s %.1f%% > %g%%%s",
		                     v->id, v->metric ? v->metric : "value",
		                     v->value, v->threshold, where));
		free(where);
	}
}

/* ---- regression -----------------------------------------------------------
 */

static void check_regression(struct checker *k)
{
	const struct snapshot *b = k->o->baseline, *n = k->s;
	int per = b->nsteps > 0 && n->nsteps > 0, s;
	double bw, nw, growth;

	for (s = 0; s < STAGE_COUNT; s++) {
		if (!b->stage[s].present || !n->stage[s].present ||
		    b->stage[s].wall_ns <= 0)
			continue;
		k->out->nchecks++;
		bw =
		    (double)b->stage[s].wall_ns / (per ? (double)b->nsteps : 1);
		nw =
		    (double)n->stage[s].wall_ns / (per ? (double)n->nsteps : 1);
		/* 100 * d / b, multiplied first: exact at round limits */
		growth = 100.0 * (nw - bw) / bw;
		if (growth <= k->o->max_regression_pct)
			continue;
		fail(k->out,
		     xstrfmt("%s wall time%s %.3f ms vs %.3f ms in the "
		             "baseline: %+.1f%% > %g%% (--max-regression)",
		             stage_names[s], per ? " per step" : "", nw / 1e6,
		             bw / 1e6, growth, k->o->max_regression_pct));
	}
}

/* ---- entry points ---------------------------------------------------------
 */

int check_run(const char *name, const char *json, size_t len,
              const struct snapshot *s, const struct check_opts *o,
              struct check_result *out, struct err *e)
{
	struct checker k = {NULL, s, o, out, e};
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (snapdoc_parse(name, json, len, &k.doc, e))
		return -1;
	for (i = 0; i < o->nmax; i++)
		if (check_max(&k, o->max[i]))
			goto out;
	if (check_require(name, k.doc, o->require, o->nrequire, out, e))
		goto out;
	if (o->verdicts)
		check_verdicts(&k);
	if (o->baseline)
		check_regression(&k);
	ret = 0;
out:
	snapdoc_free(k.doc);
	return ret;
}

void check_result_release(struct check_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nfailures; i++)
		free(r->failures[i]);
	free(r->failures);
	memset(r, 0, sizeof(*r));
}

int check_max_validate(const char *const *max, size_t n, struct err *e)
{
	struct strbuf path = STRBUF_INIT;
	char *name = NULL;
	double limit, scale;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		ret = split_max(max[i], &name, &limit, e) ||
		      shorthand(max[i], name, &path, &scale, e) < 0;
		free(name);
		name = NULL;
		strbuf_reset(&path);
	}
	strbuf_release(&path);
	return ret ? -1 : 0;
}

int check_parse_pct(const char *arg, double *out, struct err *e)
{
	size_t n = strlen(arg);
	char *num = xstrndup(arg, n && arg[n - 1] == '%' ? n - 1 : n);
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (parse_number(num, out) || !(*out >= 0 && *out <= PCT_MAX)) {
		strbuf_add_quoted_value(&sb, arg, n, QUOTE_MAX);
		ret = err_set(e, ERR_USAGE,
		              "--max-regression: not a percentage from 0 to "
		              "1000: %s (write e.g. 5 or 5%%)",
		              sb.buf);
	}
	strbuf_release(&sb);
	free(num);
	return ret;
}
