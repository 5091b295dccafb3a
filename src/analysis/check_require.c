/* sdperf check --require: collection requirements, evaluated on the
 * "collection" object of report.json (the collection check,
 * analysis/collection.h), so a profile and its kept report.json give the
 * same verdict. */
#include "analysis/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/collection.h"
#include "input/snapshot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX    80 /* bytes of a requirement quoted in a message */
#define RANKS_LISTED 8  /* rank ids named in a failure line */
#define STEPS_MAX    1000000

enum req_kind { REQ_LEVEL, REQ_FACT, REQ_STEPS, REQ_EXPORT, REQ_COMPLETE };

/* The vocabulary (README "Collection check"). */
static const struct req_def {
	const char *name;
	enum req_kind kind;
	const char *key;  /* in report.json's collection */
	const char *what; /* a fact's name in a failure line */
	int level;
} reqs[] = {
    {"level0", REQ_LEVEL, "profiler_level", NULL, LEVEL_0},
    {"level1", REQ_LEVEL, "profiler_level", NULL, LEVEL_1},
    {"level2", REQ_LEVEL, "profiler_level", NULL, LEVEL_2},
    {"cpu", REQ_FACT, "cpu", "CPU activity (host events)", 0},
    {"steps", REQ_STEPS, "timed_steps", NULL, 0},
    {"shapes", REQ_FACT, "shapes", "input shapes (record_shapes)", 0},
    {"memory", REQ_FACT, "memory", "memory data (profile_memory)", 0},
    {"aic_metrics", REQ_FACT, "aic_metrics", "AI Core metrics", 0},
    {"export", REQ_EXPORT, "export", NULL, 0},
    {"complete", REQ_COMPLETE, "complete", NULL, 0},
};
#define NREQS (sizeof(reqs) / sizeof(reqs[0]))

static const char known[] =
    "level0, level1, level2, cpu, steps[=N] (default 5), shapes, memory, "
    "aic_metrics, export=text|db|trace, complete";

/* One requirement, parsed. */
struct req {
	const struct req_def *def;
	long n;             /* steps=N */
	const char *export; /* export=X */
};

static int bad(const char *item, size_t len, const char *why, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_quoted_value(&sb, item, len, QUOTE_MAX);
	err_set(e, ERR_USAGE, "--require %s: %s", sb.buf, why);
	strbuf_release(&sb);
	return -1;
}

static int parse_steps(const char *v, size_t n, long *out)
{
	size_t i;

	*out = 0;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9' || *out > STEPS_MAX)
			return -1;
		*out = *out * 10 + (v[i] - '0');
	}
	return n && *out >= 1 && *out <= STEPS_MAX ? 0 : -1;
}

/* item (len bytes, "steps=5") into *r; ERR_USAGE naming what is known. */
static int parse_one(const char *item, size_t len, struct req *r, struct err *e)
{
	static const char *const exports[] = {"text", "db", "trace"};
	const char *eq = memchr(item, '=', len);
	size_t name = eq ? (size_t)(eq - item) : len, i, vn;
	char *why;

	memset(r, 0, sizeof(*r));
	r->n = COLL_MIN_TIMED;
	for (i = 0; i < NREQS && !r->def; i++)
		if (strlen(reqs[i].name) == name &&
		    !strncasecmp(reqs[i].name, item, name))
			r->def = &reqs[i];
	if (!r->def) {
		why = xstrfmt("unknown requirement; known: %s", known);
		bad(item, len, why, e);
		free(why);
		return -1;
	}
	vn = eq ? len - name - 1 : 0;
	if (r->def->kind == REQ_STEPS && eq && parse_steps(eq + 1, vn, &r->n))
		return bad(item, len,
		           "N is not a whole number of steps (1 or "
		           "more)",
		           e);
	if (r->def->kind == REQ_EXPORT) {
		for (i = 0; eq && i < 3 && !r->export; i++)
			if (strlen(exports[i]) == vn &&
			    !strncasecmp(exports[i], eq + 1, vn))
				r->export = exports[i];
		if (!r->export)
			return bad(item, len,
			           "expected export=text, export=db "
			           "or export=trace",
			           e);
	} else if (eq && r->def->kind != REQ_STEPS) {
		return bad(item, len, "takes no value", e);
	}
	return 0;
}

/* Calls fn on each item of the comma lists; stops at the first error. */
static int each_item(const char *const *lists, size_t n,
                     int (*fn)(const struct req *r, void *ctx), void *ctx,
                     struct err *e)
{
	size_t i, len;
	const char *p;
	struct req r;

	for (i = 0; i < n; i++)
		for (p = lists[i];; p += len + 1) {
			len = strcspn(p, ",");
			if (!len) {
				if (!p[0] && p != lists[i])
					break; /* a trailing comma */
				return bad(p, 0, "empty requirement", e);
			}
			if (parse_one(p, len, &r, e) || (fn && fn(&r, ctx)))
				return -1;
			if (!p[len])
				break;
		}
	return 0;
}

int check_require_validate(const char *const *lists, size_t n, struct err *e)
{
	return each_item(lists, n, NULL, NULL, e);
}

/* ---- evaluation on report.json --------------------------------------- */

struct eval {
	const struct snapdoc *doc;
	struct check_result *out;
	struct strbuf failing; /* "0, 1" */
	size_t nfailing;
	struct err *e;
	int error;
};

static enum snapdoc_kind get(const struct eval *ev, const char *path,
                             double *num, const char **str)
{
	return snapdoc_get(ev->doc, path, num, str, NULL);
}

/* Whether rank i's value passes r: 1, 0, or -1 past the last rank. */
static int rank_passes(struct eval *ev, const struct req *r, size_t i)
{
	char path[96];
	const char *s = NULL;
	double v = 0;
	enum snapdoc_kind k;

	snprintf(path, sizeof(path), "collection.ranks.%zu.analysed", i);
	k = get(ev, path, &v, NULL);
	if (k == SNAPDOC_MISSING)
		return -1;
	if (k != SNAPDOC_BOOL || !v)
		return 1; /* a rank not analysed has nothing to say */
	snprintf(path, sizeof(path), "collection.ranks.%zu.%s", i, r->def->key);
	k = get(ev, path, &v, &s);
	switch (r->def->kind) {
	case REQ_LEVEL:
		return k == SNAPDOC_STRING &&
		       collection_level_of(s) >= r->def->level;
	case REQ_STEPS:
		return k == SNAPDOC_NUMBER && v >= (double)r->n;
	default:
		return k == SNAPDOC_BOOL && v;
	}
}

static void note_rank(struct eval *ev, size_t i)
{
	char path[64];
	double id = -1;

	if (ev->nfailing++ >= RANKS_LISTED)
		return;
	snprintf(path, sizeof(path), "collection.ranks.%zu.id", i);
	get(ev, path, &id, NULL);
	strbuf_addf(&ev->failing, "%s%.0f", ev->failing.len ? ", " : "", id);
}

/* " (ranks 0, 1)", " (rank 3)" or "" into sb. */
static void ranks_note(const struct eval *ev, struct strbuf *sb)
{
	if (!ev->nfailing)
		return;
	strbuf_addf(sb, " (rank%s %s%s)", ev->nfailing > 1 ? "s" : "",
	            ev->failing.buf,
	            ev->nfailing > RANKS_LISTED ? ", ..." : "");
}

/* What the run has, as a failure line's middle part, into sb. */
static void run_value(struct eval *ev, const struct req *r, struct strbuf *sb)
{
	const char *s = NULL;
	double v = 0;
	enum snapdoc_kind k;
	char path[64];
	size_t i;

	snprintf(path, sizeof(path), "collection.%s", r->def->key);
	k = get(ev, path, &v, &s);
	switch (r->def->kind) {
	case REQ_LEVEL:
		strbuf_addf(sb, "profiler level %s, below Level%d",
		            k == SNAPDOC_STRING ? s : "unknown",
		            r->def->level - LEVEL_0);
		break;
	case REQ_STEPS:
		strbuf_addf(sb, "%.0f timed step%s, fewer than %ld", v,
		            v == 1 ? "" : "s", r->n);
		break;
	case REQ_EXPORT:
		strbuf_addf(sb, "the %s export was read",
		            k == SNAPDOC_STRING ? s : "unknown");
		break;
	case REQ_COMPLETE:
		strbuf_adds(sb, "gaps");
		for (i = 0;; i++) {
			snprintf(path, sizeof(path), "collection.gaps.%zu.id",
			         i);
			if (get(ev, path, NULL, &s) != SNAPDOC_STRING)
				break;
			strbuf_addf(sb, "%s %s", i ? "," : "", s);
		}
		break;
	default:
		strbuf_addf(sb,
		            k == SNAPDOC_BOOL ? "no %s"
		                              : "%s unknown (the files "
		                                "cannot tell)",
		            r->def->what);
	}
}

/* The run as a whole passes r (export, complete): 1 or 0. */
static int run_passes(struct eval *ev, const struct req *r)
{
	const char *s = NULL;
	double v = 0;

	if (r->def->kind == REQ_EXPORT)
		return get(ev, "collection.export", NULL, &s) ==
		           SNAPDOC_STRING &&
		       !strcmp(s, r->export);
	return get(ev, "collection.complete", &v, NULL) == SNAPDOC_BOOL && v;
}

static int evaluate(const struct req *r, void *ctx)
{
	struct eval *ev = ctx;
	struct strbuf line = STRBUF_INIT;
	size_t i;
	int pass = 1, p;

	strbuf_reset(&ev->failing);
	ev->nfailing = 0;
	ev->out->nchecks++;
	if (r->def->kind == REQ_EXPORT || r->def->kind == REQ_COMPLETE) {
		pass = run_passes(ev, r);
	} else {
		for (i = 0; (p = rank_passes(ev, r, i)) >= 0; i++)
			if (!p) {
				pass = 0;
				note_rank(ev, i);
			}
	}
	if (pass)
		return 0;
	strbuf_adds(&line, r->def->name);
	if (r->def->kind == REQ_STEPS)
		strbuf_addf(&line, "=%ld", r->n);
	if (r->def->kind == REQ_EXPORT)
		strbuf_addf(&line, "=%s", r->export);
	strbuf_adds(&line, ": ");
	run_value(ev, r, &line);
	ranks_note(ev, &line);
	strbuf_adds(&line, " (--require)");
	check_fail(ev->out, strbuf_detach(&line, NULL));
	return 0;
}

int check_require(const char *name, const struct snapdoc *doc,
                  const char *const *lists, size_t n, struct check_result *out,
                  struct err *e)
{
	struct eval ev = {doc, out, STRBUF_INIT, 0, e, 0};
	int ret;

	if (!n)
		return 0;
	if (snapdoc_get(doc, "collection.complete", NULL, NULL, NULL) !=
	    SNAPDOC_BOOL)
		return err_set(e, ERR_INPUT,
		               "%s: no collection check in this report.json "
		               "(written by an older sdperf): write it again "
		               "with sdperf report to use --require",
		               name);
	ret = each_item(lists, n, evaluate, &ev, e);
	strbuf_release(&ev.failing);
	return ret;
}
