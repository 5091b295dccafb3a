/* Rules: kernel names live in data, not code, so a vendor's renamed kernel
 * is a one-line fix in a JSON file (HTA's users learned this the hard way).
 * This file validates that data strictly: a typo in a rules file must be an
 * error, not a silently empty category. */
#include "analysis/rules.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/jsonerr.h"
#include "util/banned.h"
#include "util/embed.h"
#include "util/fileio.h"
#include "util/glob.h"
#include "util/membudget.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define RULES_MAX_BYTES (4u << 20)
/* Each kernel type is matched against every pattern and core name, and a
 * threshold replaces one with its id: lists this long are far beyond any
 * real rules file and keep that work bounded. */
#define RULES_MAX_PATTERNS   4096 /* per list: classify, signatures, markers */
#define RULES_MAX_CORES      1024
#define RULES_MAX_THRESHOLDS 1024

/* Room for element n of an array grown in powers of two (no capacity is
 * stored: n itself says when the next power is reached). */
static void *grow_for(void *v, size_t size, size_t n)
{
	if (n & (n - 1))
		return v;
	return xrealloc(v, (n ? 2 * n : 1) * size);
}

int rules_glob(const char *p, const char *s)
{
	return glob_match(p, s);
}

enum category rules_classify_part(const struct rules *r, const char *type,
                                  const char *core, enum fa_part *part)
{
	size_t i;

	*part = FA_PART_ATTENTION;
	for (i = 0; core && *core && i < r->ncomm; i++)
		if (!strcasecmp(core, r->comm_cores[i]))
			return CAT_COMM;
	for (i = 0; i < r->ncls; i++)
		if (rules_glob(r->cls[i].glob, type)) {
			*part = (enum fa_part)r->cls[i].part;
			return (enum category)r->cls[i].target;
		}
	return CAT_OTHER;
}

/* Whether type is one the classify_apis entry numbered entry applies to
 * (every type when the entry has no "types"). */
static int api_types_match(const struct rules *r, int entry, const char *type)
{
	size_t i;

	if (!entry)
		return 1;
	for (i = 0; i < r->napit; i++)
		if (r->apit[i].target == entry &&
		    rules_glob(r->apit[i].glob, type))
			return 1;
	return 0;
}

enum category rules_classify_kernel(const struct rules *r, const char *type,
                                    const char *core, const char *api,
                                    enum fa_part *part)
{
	enum category by_type = rules_classify_part(r, type, core, part);
	size_t i;

	if (by_type == CAT_COMM || !api || !*api)
		return by_type;
	for (i = 0; i < r->napi; i++)
		if (rules_glob(r->api[i].glob, api) &&
		    api_types_match(r, r->api[i].entry, type)) {
			if ((int)by_type == r->api[i].target)
				return by_type;
			*part = (enum fa_part)r->api[i].part;
			return (enum category)r->api[i].target;
		}
	return by_type;
}

enum category rules_classify(const struct rules *r, const char *type,
                             const char *core)
{
	enum fa_part part;
	return rules_classify_part(r, type, core, &part);
}

enum sig rules_signature(const struct rules *r, const char *type)
{
	size_t i;
	for (i = 0; i < r->nsig; i++)
		if (rules_glob(r->sig[i].glob, type))
			return (enum sig)r->sig[i].target;
	return SIG_NONE;
}

enum workload_kind rules_workload(const struct rules *r, const char *type)
{
	size_t i;
	for (i = 0; i < r->nwl; i++)
		if (rules_glob(r->wl[i].glob, type))
			return (enum workload_kind)r->wl[i].target;
	return WORKLOAD_UNKNOWN;
}

/* ---- loading ----------------------------------------------------------- */

struct loader {
	const char *name;
	struct err *e;
};

static int bad(struct loader *L, const char *path, const char *what)
{
	return err_set(L->e, ERR_INPUT, "%s: '%s': %s", L->name, path, what);
}

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int get_string(struct loader *L, const cJSON *o, const char *key,
                      const char *path, char **out)
{
	const cJSON *v = get(o, key);
	struct strbuf p = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&p, "%s.%s", path, key);
	if (!cJSON_IsString(v) || !v->valuestring[0])
		ret = bad(L, p.buf, "expected a non-empty string");
	else
		*out = xstrdup(v->valuestring);
	strbuf_release(&p);
	return ret;
}

/* Appends the `key` globs ("types", or "names" for markers) of one
 * classify/signatures/markers entry. */
static int add_globs(struct loader *L, const cJSON *entry, const char *path,
                     const char *key, int target, struct pattern_rule **v,
                     size_t *n)
{
	const cJSON *types = get(entry, key), *t;
	struct strbuf p = STRBUF_INIT;
	int ret = 0, i = 0;

	strbuf_addf(&p, "%s.%s", path, key);
	if (!cJSON_IsArray(types) || !cJSON_GetArraySize(types))
		ret = bad(L, p.buf, "expected a non-empty array of patterns");
	cJSON_ArrayForEach (t, types) {
		if (ret)
			break;
		if (!cJSON_IsString(t) || !t->valuestring[0]) {
			strbuf_addf(&p, "[%d]", i);
			ret = bad(L, p.buf, "expected a non-empty string");
			break;
		}
		if (strlen(t->valuestring) > GLOB_MAX_PATTERN) {
			strbuf_addf(&p, "[%d]", i);
			ret = bad(L, p.buf,
			          "pattern longer than 1024 bytes (GLOB_MAX_"
			          "PATTERN)");
			break;
		}
		if (*n >= RULES_MAX_PATTERNS) {
			strbuf_addf(&p, "[%d]", i);
			ret = bad(L, p.buf,
			          "more than 4096 patterns in one list "
			          "(RULES_MAX_PATTERNS)");
			break;
		}
		*v = grow_for(*v, sizeof(**v), *n);
		(*v)[*n].target = target;
		(*v)[*n].part = 0;
		(*v)[*n].entry = 0;
		(*v)[*n].glob = xstrdup(t->valuestring);
		(*n)++;
		i++;
	}
	strbuf_release(&p);
	return ret;
}

static int add_patterns(struct loader *L, const cJSON *entry, const char *path,
                        int target, struct pattern_rule **v, size_t *n)
{
	return add_globs(L, entry, path, "types", target, v, n);
}

/* The patterns of a classify list: "types" (classify) or "apis"
 * (classify_apis). */
static int add_list_patterns(struct loader *L, const cJSON *entry,
                             const char *path, const char *key, int target,
                             struct pattern_rule **v, size_t *n)
{
	if (!strcmp(key, "apis"))
		return add_globs(L, entry, path, key, target, v, n);
	return add_patterns(L, entry, path, target, v, n);
}

/* An entry's optional "part": which part of FA its kernels are (FA only,
 * "attention" when absent). */
static int entry_part(struct loader *L, const cJSON *entry, const char *path,
                      int cat, int *part)
{
	const cJSON *v = get(entry, "part");
	struct strbuf p = STRBUF_INIT;
	int ret = 0;

	*part = FA_PART_ATTENTION;
	if (!v)
		return 0;
	strbuf_addf(&p, "%s.part", path);
	if (!cJSON_IsString(v) ||
	    (*part = fa_part_from_name(v->valuestring)) < 0)
		ret =
		    bad(L, p.buf, "expected \"attention\" or \"preparation\"");
	else if (cat != CAT_FA)
		ret = bad(L, p.buf, "only an FA entry has a part");
	strbuf_release(&p);
	return ret;
}

/* "classify" (list "classify", patterns "types") or "classify_apis"
 * (patterns "apis"). */
static int load_classify(struct loader *L, const cJSON *arr, const char *list,
                         const char *key, struct pattern_rule **v, size_t *n,
                         struct rules *r)
{
	const cJSON *it;
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;
	int i = 0, ret = 0, c, part, id;
	size_t first;
	char *cat = NULL;

	if (!cJSON_IsArray(arr))
		return bad(L, list, "expected an array");
	cJSON_ArrayForEach (it, arr) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s[%d]", list, i++);
		if ((ret = get_string(L, it, "category", p.buf, &cat)))
			break;
		c = category_from_name(cat);
		if (c < 0) {
			strbuf_addf(&msg,
			            "unknown category '%s' (expected FA, "
			            "MatMul, Conv, Vector, Comm or Other)",
			            cat);
			strbuf_adds(&p, ".category");
			ret = bad(L, p.buf, msg.buf);
		}
		free(cat);
		cat = NULL;
		first = *n;
		if (ret || (ret = entry_part(L, it, p.buf, c, &part)) ||
		    (ret = add_list_patterns(L, it, p.buf, key, c, v, n)))
			break;
		id = 0;
		if (!strcmp(key, "apis") && get(it, "types")) {
			/* the kernel types the entry applies to */
			id = ++r->api_entries;
			if ((ret = add_globs(L, it, p.buf, "types", id,
			                     &r->apit, &r->napit)))
				break;
		}
		for (; first < *n; first++) {
			(*v)[first].part = part;
			(*v)[first].entry = id;
		}
	}
	strbuf_release(&p);
	strbuf_release(&msg);
	return ret;
}

static int load_signatures(struct loader *L, const cJSON *arr,
                           struct pattern_rule **v, size_t *n)
{
	const cJSON *it;
	struct strbuf p = STRBUF_INIT;
	int i = 0, ret = 0, s;
	char *name = NULL;

	if (!cJSON_IsArray(arr))
		return bad(L, "signatures", "expected an array");
	cJSON_ArrayForEach (it, arr) {
		strbuf_reset(&p);
		strbuf_addf(&p, "signatures[%d]", i++);
		if ((ret = get_string(L, it, "stage", p.buf, &name)))
			break;
		s = !strcmp(name, "dit")    ? SIG_DIT
		    : !strcmp(name, "vae")  ? SIG_VAE
		    : !strcmp(name, "none") ? SIG_NONE
		                            : -1;
		free(name);
		if (s < 0) {
			strbuf_adds(&p, ".stage");
			ret = bad(L, p.buf, "expected 'dit', 'vae' or 'none'");
			break;
		}
		if ((ret = add_patterns(L, it, p.buf, s, v, n)))
			break;
	}
	strbuf_release(&p);
	return ret;
}

/* "workloads": [{"kind": "training", "dropout" or "llm_inference",
 * "types": [...]}]: kernel types that only that kind of run launches
 * (analysis/workload.h); "dropout" is a training step's weaker evidence
 * (a pipeline left in train mode launches it too).
 */
static int load_workloads(struct loader *L, const cJSON *arr, struct rules *r)
{
	const cJSON *it;
	struct strbuf p = STRBUF_INIT;
	int i = 0, ret = 0, k;
	char *name = NULL;

	if (!cJSON_IsArray(arr))
		return bad(L, "workloads", "expected an array");
	cJSON_ArrayForEach (it, arr) {
		strbuf_reset(&p);
		strbuf_addf(&p, "workloads[%d]", i++);
		if ((ret = get_string(L, it, "kind", p.buf, &name)))
			break;
		k = !strcmp(name, "training")        ? WORKLOAD_TRAINING
		    : !strcmp(name, "llm_inference") ? WORKLOAD_LLM
		    : !strcmp(name, "dropout")       ? WORKLOAD_KINDS
		                                     : -1;
		free(name);
		if (k < 0) {
			strbuf_adds(&p, ".kind");
			ret = bad(L, p.buf,
			          "expected 'training', 'dropout' or "
			          "'llm_inference'");
			break;
		}
		if ((ret = add_patterns(L, it, p.buf, k, &r->wl, &r->nwl)))
			break;
	}
	strbuf_release(&p);
	return ret;
}

static int load_markers(struct loader *L, const cJSON *arr, struct rules *r)
{
	const cJSON *it;
	struct strbuf p = STRBUF_INIT;
	int i = 0, ret = 0, s;
	char *name = NULL;

	if (!cJSON_IsArray(arr))
		return bad(L, "markers", "expected an array");
	cJSON_ArrayForEach (it, arr) {
		strbuf_reset(&p);
		strbuf_addf(&p, "markers[%d]", i++);
		if ((ret = get_string(L, it, "stage", p.buf, &name)))
			break;
		s = stage_from_name(name);
		free(name);
		if (s < 0) {
			strbuf_adds(&p, ".stage");
			ret = bad(L, p.buf,
			          "expected dit, vae, text_encoder or other");
			break;
		}
		if ((ret = add_globs(L, it, p.buf, "names", s, &r->markers,
		                     &r->nmarkers)))
			break;
	}
	strbuf_release(&p);
	return ret;
}

static int load_steps(struct loader *L, const cJSON *o, struct rules *r)
{
	const cJSON *f = get(o, "outlier_factor");

	if (!cJSON_IsObject(o))
		return bad(L, "steps", "expected an object");
	if (!f)
		return 0;
	if (!cJSON_IsNumber(f) || f->valuedouble < 1 || f->valuedouble > 100)
		return bad(L, "steps.outlier_factor",
		           "expected a number from 1 to 100");
	r->outlier_factor = f->valuedouble;
	return 0;
}

/* "totals": {"computing": 5, ...}, each a number of points from 0 to
 * 100 (analysis/totals.h). */
static int load_totals(struct loader *L, const cJSON *o, struct rules *r)
{
	char path[64];
	int f;

	if (!cJSON_IsObject(o))
		return bad(L, "totals", "expected an object");
	for (f = 0; f < TOT_COUNT; f++) {
		const cJSON *v = get(o, totals_figure_names[f]);
		if (!v)
			continue;
		snprintf(path, sizeof(path), "totals.%s",
		         totals_figure_names[f]);
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
		    v->valuedouble > 100)
			return bad(L, path, "expected a number from 0 to 100");
		r->totals_tolerance[f] = v->valuedouble;
	}
	return 0;
}

static int load_comm_cores(struct loader *L, const cJSON *arr, struct rules *r)
{
	const cJSON *it;

	if (!cJSON_IsArray(arr))
		return bad(L, "comm_cores", "expected an array of strings");
	cJSON_ArrayForEach (it, arr) {
		if (!cJSON_IsString(it))
			return bad(L, "comm_cores",
			           "expected an array of strings");
		if (r->ncomm >= RULES_MAX_CORES)
			return bad(L, "comm_cores",
			           "more than 1024 names (RULES_MAX_CORES)");
		r->comm_cores =
		    grow_for(r->comm_cores, sizeof(char *), r->ncomm);
		r->comm_cores[r->ncomm++] = xstrdup(it->valuestring);
	}
	return 0;
}

static int get_int_field(struct loader *L, const cJSON *o, const char *key,
                         int lo, int hi, int *out)
{
	const cJSON *v = get(o, key);
	struct strbuf p = STRBUF_INIT, m = STRBUF_INIT;
	int ret = 0;

	if (!v)
		return 0;
	strbuf_addf(&p, "segmentation.%s", key);
	strbuf_addf(&m, "expected a whole number from %d to %d", lo, hi);
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < lo || v->valuedouble > hi)
		ret = bad(L, p.buf, m.buf);
	else
		*out = (int)v->valuedouble;
	strbuf_release(&p);
	strbuf_release(&m);
	return ret;
}

static int load_segmentation(struct loader *L, const cJSON *o, struct rules *r)
{
	if (!cJSON_IsObject(o))
		return bad(L, "segmentation", "expected an object");
	if (get_int_field(L, o, "window", 1, 100000, &r->window) ||
	    get_int_field(L, o, "min_segment", 1, 1000000, &r->min_segment) ||
	    get_int_field(L, o, "loop_window", 2, 4096, &r->loop_window) ||
	    get_int_field(L, o, "min_text_encoder", 1, 1000000,
	                  &r->min_text_encoder))
		return -1;
	return 0;
}

static void threshold_free(struct threshold *t)
{
	size_t i;
	free(t->id);
	free(t->title);
	free(t->check);
	free(t->recommendation);
	for (i = 0; i < t->ndocs; i++)
		free(t->docs[i]);
	free(t->docs);
	memset(t, 0, sizeof(*t));
}

static int load_docs(struct loader *L, const cJSON *o, const char *path,
                     struct threshold *t)
{
	const cJSON *docs = get(o, "docs"), *d;
	struct strbuf p = STRBUF_INIT, m = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&p, "%s.docs", path);
	if (!cJSON_IsArray(docs))
		ret = bad(L, p.buf, "expected an array of feature doc names");
	cJSON_ArrayForEach (d, docs) {
		if (ret)
			break;
		if (!cJSON_IsString(d) || !feature_doc_known(d->valuestring)) {
			size_t i;
			strbuf_adds(&m,
			            "unknown feature doc (expected one of:");
			for (i = 0; i < feature_doc_count; i++)
				strbuf_addf(&m, " %s", feature_doc_keys[i]);
			strbuf_adds(&m, ")");
			ret = bad(L, p.buf, m.buf);
			break;
		}
		t->docs = grow_for(t->docs, sizeof(char *), t->ndocs);
		t->docs[t->ndocs++] = xstrdup(d->valuestring);
	}
	strbuf_release(&p);
	strbuf_release(&m);
	return ret;
}

static const struct {
	const char *name;
	enum metric metric;
} metric_names[] = {{"category_share", METRIC_CATEGORY_SHARE},
                    {"exposed_comm_share", METRIC_EXPOSED_COMM_SHARE},
                    {"free_share", METRIC_FREE_SHARE},
                    {"rank_imbalance", METRIC_RANK_IMBALANCE},
                    {"stage_share", METRIC_STAGE_SHARE},
                    {"memory_peak_share", METRIC_MEMORY_PEAK_SHARE},
                    {"dit_loop_share", METRIC_DIT_LOOP_SHARE}};

static int load_stage(struct loader *L, const char *stage, const char *path,
                      struct threshold *t)
{
	struct strbuf p = STRBUF_INIT;
	int s = stage_from_name(stage), ret = 0;

	strbuf_addf(&p, "%s.stage", path);
	if (t->metric == METRIC_FREE_SHARE ||
	    t->metric == METRIC_MEMORY_PEAK_SHARE) {
		if (strcmp(stage, "all"))
			ret =
			    bad(L, p.buf,
			        t->metric == METRIC_FREE_SHARE
			            ? "free_share is measured over the whole "
			              "step: expected 'all'"
			            : "memory_peak_share is measured over the "
			              "whole run: expected 'all'");
		t->stage = (enum stage)STAGE_ALL;
	} else if (t->metric == METRIC_DIT_LOOP_SHARE && s != STAGE_DIT) {
		ret = bad(L, p.buf,
		          "dit_loop_share is the DiT's denoising loop: "
		          "expected 'dit'");
		t->stage = STAGE_DIT;
	} else {
		if (s < 0)
			ret = bad(L, p.buf,
			          "expected dit, vae, text_encoder or other");
		t->stage = (enum stage)(s < 0 ? 0 : s);
	}
	strbuf_release(&p);
	return ret;
}

static int load_metric(struct loader *L, const cJSON *o, const char *path,
                       struct threshold *t)
{
	char *metric = NULL, *stage = NULL, *cat = NULL;
	struct strbuf p = STRBUF_INIT;
	size_t m = 0;
	int ret, c;

	ret = get_string(L, o, "metric", path, &metric) ||
	      get_string(L, o, "stage", path, &stage);
	while (!ret && m < sizeof(metric_names) / sizeof(*metric_names) &&
	       strcmp(metric, metric_names[m].name))
		m++;
	if (!ret && m == sizeof(metric_names) / sizeof(*metric_names)) {
		strbuf_addf(&p, "%s.metric", path);
		ret = bad(L, p.buf,
		          "expected 'category_share', 'exposed_comm_share', "
		          "'free_share', 'rank_imbalance', 'stage_share', "
		          "'memory_peak_share' or 'dit_loop_share'");
	}
	if (!ret) {
		t->metric = metric_names[m].metric;
		ret = load_stage(L, stage, path, t);
	}
	if (!ret && t->metric == METRIC_CATEGORY_SHARE) {
		ret = get_string(L, o, "category", path, &cat);
		c = ret ? -1 : category_from_name(cat);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s.category", path);
		if (!ret && c < 0)
			ret = bad(L, p.buf, "unknown category");
		t->cat = (enum category)(c < 0 ? 0 : c);
	}
	free(metric);
	free(stage);
	free(cat);
	strbuf_release(&p);
	return ret ? -1 : 0;
}

static int load_threshold(struct loader *L, const cJSON *o, const char *path,
                          struct threshold *t)
{
	const cJSON *above = get(o, "above");
	struct strbuf p = STRBUF_INIT;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = get_string(L, o, "id", path, &t->id) ||
	      get_string(L, o, "title", path, &t->title) ||
	      get_string(L, o, "recommendation", path, &t->recommendation) ||
	      load_metric(L, o, path, t) || load_docs(L, o, path, t);
	if (!ret && get(o, "check"))
		ret = get_string(L, o, "check", path, &t->check);
	strbuf_addf(&p, "%s.above", path);
	if (!ret && (!cJSON_IsNumber(above) || above->valuedouble < 0 ||
	             above->valuedouble > 100))
		ret = bad(L, p.buf, "expected a percentage from 0 to 100");
	if (!ret)
		t->above = above->valuedouble;
	strbuf_release(&p);
	if (ret)
		threshold_free(t);
	return ret ? -1 : 0;
}

static struct threshold *find_threshold(struct rules *r, const char *id)
{
	size_t i;
	for (i = 0; i < r->nth; i++)
		if (!strcmp(r->th[i].id, id))
			return &r->th[i];
	return NULL;
}

/* Adds thresholds; one with an id already present replaces it. */
static int load_thresholds(struct loader *L, const cJSON *arr, struct rules *r)
{
	const cJSON *it;
	struct strbuf p = STRBUF_INIT;
	struct threshold t, *old;
	int i = 0, ret = 0;

	if (!cJSON_IsArray(arr))
		return bad(L, "thresholds", "expected an array");
	cJSON_ArrayForEach (it, arr) {
		strbuf_reset(&p);
		strbuf_addf(&p, "thresholds[%d]", i++);
		if ((ret = load_threshold(L, it, p.buf, &t)))
			break;
		old = find_threshold(r, t.id);
		if (old) {
			threshold_free(old);
			*old = t;
		} else if (r->nth >= RULES_MAX_THRESHOLDS) {
			threshold_free(&t);
			ret = bad(L, p.buf,
			          "more than 1024 thresholds "
			          "(RULES_MAX_THRESHOLDS)");
			break;
		} else {
			r->th = grow_for(r->th, sizeof(*r->th), r->nth);
			r->th[r->nth++] = t;
		}
	}
	strbuf_release(&p);
	return ret;
}

/* Puts the n newest entries of v (appended at the end) in front. */
static void move_to_front(struct pattern_rule *v, size_t total, size_t n)
{
	struct pattern_rule *tmp;
	if (!n || n == total)
		return;
	tmp = xmalloc(n * sizeof(*v));
	memcpy(tmp, v + total - n, n * sizeof(*v));
	memmove(v + n, v, (total - n) * sizeof(*v));
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
}

/* at: where cJSON stopped (its end pointer, set on failure too: not the
 * global cJSON_GetErrorPtr, as rules may load on several threads). */
static void syntax_error(struct loader *L, const char *text, size_t len,
                         const char *at)
{
	jsonerr_syntax(L->e, L->name, text, len, at, "invalid JSON");
}

static int check_keys(struct loader *L, const cJSON *root)
{
	static const char *const known[] = {
	    "schema",       "about",      "comment",       "extends",
	    "comm_cores",   "classify",   "classify_apis", "signatures",
	    "segmentation", "thresholds", "markers",       "steps",
	    "chips",        "speedups",   "totals",        "workloads"};
	const cJSON *it;
	size_t i;

	cJSON_ArrayForEach (it, root) {
		for (i = 0; i < sizeof(known) / sizeof(*known); i++)
			if (!strcmp(it->string, known[i]))
				break;
		if (i == sizeof(known) / sizeof(*known))
			return bad(L, it->string, "unknown key");
	}
	return 0;
}

static int load_json(struct rules *r, struct loader *L, const cJSON *root,
                     int extending)
{
	size_t ncls = r->ncls, napi = r->napi, nsig = r->nsig;
	size_t nmark = r->nmarkers, nwl = r->nwl;
	const cJSON *v;

	if (!cJSON_IsObject(root))
		return bad(L, "(top level)", "expected a JSON object");
	if (check_keys(L, root))
		return -1;
	if (!extending && (!get(root, "classify") || !get(root, "signatures") ||
	                   !get(root, "thresholds")))
		return bad(L, "(top level)",
		           "a complete rules file needs 'classify', "
		           "'signatures' and 'thresholds' (or add "
		           "\"extends\": \"builtin\")");
	if ((v = get(root, "comm_cores")) && load_comm_cores(L, v, r))
		return -1;
	if ((v = get(root, "classify")) &&
	    load_classify(L, v, "classify", "types", &r->cls, &r->ncls, r))
		return -1;
	if ((v = get(root, "classify_apis")) &&
	    load_classify(L, v, "classify_apis", "apis", &r->api, &r->napi, r))
		return -1;
	if ((v = get(root, "signatures")) &&
	    load_signatures(L, v, &r->sig, &r->nsig))
		return -1;
	if ((v = get(root, "segmentation")) && load_segmentation(L, v, r))
		return -1;
	if ((v = get(root, "thresholds")) && load_thresholds(L, v, r))
		return -1;
	if ((v = get(root, "totals")) && load_totals(L, v, r))
		return -1;
	if ((v = get(root, "steps")) && load_steps(L, v, r))
		return -1;
	if ((v = get(root, "markers")) && load_markers(L, v, r))
		return -1;
	if ((v = get(root, "workloads")) && load_workloads(L, v, r))
		return -1;
	if ((v = get(root, "chips")) && rules_load_chips(L->name, v, r, L->e))
		return -1;
	if ((v = get(root, "speedups")) &&
	    rules_load_speedups(L->name, v, r, L->e))
		return -1;
	move_to_front(r->markers, r->nmarkers, r->nmarkers - nmark);
	/* a user's additions are tried before the built-in patterns */
	move_to_front(r->cls, r->ncls, r->ncls - ncls);
	move_to_front(r->api, r->napi, r->napi - napi);
	move_to_front(r->sig, r->nsig, r->nsig - nsig);
	move_to_front(r->wl, r->nwl, r->nwl - nwl);
	return 0;
}

static void set_defaults(struct rules *r)
{
	memset(r, 0, sizeof(*r));
	r->window = 16;
	r->min_segment = 12;
	r->loop_window = 16;
	r->min_text_encoder = 8;
	r->outlier_factor = 1.5;
	r->totals_tolerance[TOT_COMPUTING] = 5;
	r->totals_tolerance[TOT_NOT_OVERLAP] = 5;
	r->totals_tolerance[TOT_FREE] = 10;
	r->totals_tolerance[TOT_OVERLAP] = 3;
	r->totals_tolerance[TOT_OPSTAT_TIME] = 1;
	r->totals_tolerance[TOT_OPSTAT_COUNT] = 1;
}

static int load_builtin_into(struct rules *r, struct err *e);

static int parse_into(struct rules *r, const char *name, const char *text,
                      size_t len, int builtin, struct err *e)
{
	struct loader L = {name, e};
	const char *end = NULL;
	const cJSON *ext;
	cJSON *root;
	int ret = -1;

	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		syntax_error(&L, text, len, end);
		return -1;
	}
	while (end < text + len && strchr(" \t\r\n", *end) && *end)
		end++;
	if (end < text + len) {
		/* a second value after the first: a paste or merge gone wrong
		 */
		syntax_error(&L, text, len, end);
		cJSON_Delete(root);
		return -1;
	}
	ext = get(root, "extends");
	if (ext && (builtin || !cJSON_IsString(ext) ||
	            strcmp(ext->valuestring, "builtin"))) {
		bad(&L, "extends", "the only value allowed is \"builtin\"");
		goto out;
	}
	if (ext && load_builtin_into(r, e))
		goto out;
	r->extended = ext != NULL;
	ret = load_json(r, &L, root, ext != NULL);
out:
	cJSON_Delete(root);
	return ret;
}

int rules_load_text(struct rules *r, const char *name, const char *text,
                    size_t len, struct err *e)
{
	int ret;

	struct strbuf src = STRBUF_INIT;

	set_defaults(r);
	ret = parse_into(r, name, text, len, 0, e);
	strbuf_adds(&src, name);
	if (r->extended)
		strbuf_adds(&src, " + built-in");
	free(r->source);
	r->source = strbuf_detach(&src, NULL);
	if (ret)
		rules_release(r);
	return ret;
}

/* Parses the embedded rules into r, which may already hold rules. */
static int load_builtin_into(struct rules *r, struct err *e)
{
	const struct embedded_file *f = embed_find("assets/rules.json");

	if (!f)
		return err_set(e, ERR_INTERNAL, "built-in rules missing");
	return parse_into(r, "built-in rules", (const char *)f->data, f->len, 1,
	                  e);
}

/* The hex SHA-256 of text[0..len) into r->sha256. */
static void hash_text(struct rules *r, const void *text, size_t len)
{
	unsigned char d[32];

	sha256(text, len, d);
	sha256_hex(d, r->sha256);
}

int rules_load_builtin(struct rules *r, struct err *e)
{
	const struct embedded_file *f = embed_find("assets/rules.json");

	set_defaults(r);
	if (f)
		hash_text(r, f->data, f->len);
	if (load_builtin_into(r, e)) {
		rules_release(r);
		return -1;
	}
	r->source = xstrdup("built-in");
	return 0;
}

int rules_load_file(struct rules *r, const char *path, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;
	uint64_t cost;

	if (fileio_read_small(path, RULES_MAX_BYTES, &sb, e)) {
		strbuf_release(&sb);
		return -1;
	}
	/* the rules are read from a tree of the file (up to ~40 times its
	 * text) while they load */
	cost = (uint64_t)sb.len * 48;
	if (membudget_charge(cost)) {
		strbuf_release(&sb);
		return membudget_fail(e, cost, "%s: rules to parse", path);
	}
	ret = rules_load_text(r, path, sb.buf, sb.len, e);
	if (!ret)
		hash_text(r, sb.buf ? sb.buf : "", sb.len);
	membudget_release(cost);
	strbuf_release(&sb);
	return ret;
}

int rules_set_threshold(struct rules *r, const char *arg, struct err *e)
{
	const char *eq = strchr(arg, '=');
	struct threshold *t;
	char *id, *end;
	double v;
	size_t i;
	struct strbuf ids = STRBUF_INIT;

	if (!eq || eq == arg)
		return err_set(e, ERR_USAGE,
		               "--threshold '%s': expected NAME=PERCENT", arg);
	id = xstrndup(arg, (size_t)(eq - arg));
	t = find_threshold(r, id);
	free(id);
	if (!t) {
		for (i = 0; i < r->nth; i++)
			strbuf_addf(&ids, "%s%s", i ? ", " : "", r->th[i].id);
		err_set(e, ERR_USAGE,
		        "--threshold '%s': unknown name (known: %s)", arg,
		        ids.buf);
		strbuf_release(&ids);
		return -1;
	}
	errno = 0;
	v = strtod(eq + 1, &end);
	if (*end == '%')
		end++;
	if (strspn(eq + 1, "0123456789.%") != strlen(eq + 1) || errno ||
	    end == eq + 1 || *end || !(v >= 0 && v <= 100))
		return err_set(e, ERR_USAGE,
		               "--threshold '%s': expected a percentage from 0 "
		               "to 100",
		               arg);
	t->above = v;
	return 0;
}

void rules_release(struct rules *r)
{
	size_t i;

	for (i = 0; i < r->ncls; i++)
		free(r->cls[i].glob);
	free(r->cls);
	for (i = 0; i < r->napi; i++)
		free(r->api[i].glob);
	free(r->api);
	for (i = 0; i < r->napit; i++)
		free(r->apit[i].glob);
	free(r->apit);
	for (i = 0; i < r->nsig; i++)
		free(r->sig[i].glob);
	free(r->sig);
	for (i = 0; i < r->nwl; i++)
		free(r->wl[i].glob);
	free(r->wl);
	for (i = 0; i < r->ncomm; i++)
		free(r->comm_cores[i]);
	free(r->comm_cores);
	for (i = 0; i < r->nth; i++)
		threshold_free(&r->th[i]);
	free(r->th);
	for (i = 0; i < r->nmarkers; i++)
		free(r->markers[i].glob);
	free(r->markers);
	rules_chips_release(r);
	rules_speedups_release(r);
	free(r->source);
	memset(r, 0, sizeof(*r));
}
