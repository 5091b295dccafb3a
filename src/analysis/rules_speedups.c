/* The rules' speed-up ranges: for each finding, which part of the time
 * its recommendation speeds up and by how much, with the assumption and
 * where the range comes from (analysis/gain.c turns them into gains). */
#include "analysis/rules.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_SPEEDUPS 1024
/* A larger factor is no estimate but a wish; 1000 keeps the arithmetic
 * meaningful and still lets a user say "removes it all but 0.1%". */
#define MAX_FACTOR 1000.0
#define MAX_TEXT   4096

static int bad(const char *name, struct err *e, const char *id, const char *key,
               const char *what)
{
	if (!id)
		return err_set(e, ERR_INPUT, "%s: 'speedups': %s", name, what);
	if (!key)
		return err_set(e, ERR_INPUT, "%s: 'speedups.%s': %s", name, id,
		               what);
	return err_set(e, ERR_INPUT, "%s: 'speedups.%s.%s': %s", name, id, key,
	               what);
}

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int text(const char *name, struct err *e, const char *id,
                const char *key, const cJSON *v, char **out)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return bad(name, e, id, key, "expected a non-empty string");
	if (strlen(v->valuestring) > MAX_TEXT)
		return bad(name, e, id, key, "longer than 4096 bytes");
	*out = xstrdup(v->valuestring);
	return 0;
}

static int check_keys(const char *name, struct err *e, const char *id,
                      const cJSON *o)
{
	static const char *const known[] = {"part",   "stage",  "category",
	                                    "low",    "high",   "assumption",
	                                    "source", "comment"};
	const cJSON *it;
	size_t i;

	cJSON_ArrayForEach (it, o) {
		for (i = 0; i < sizeof(known) / sizeof(*known); i++)
			if (!strcmp(it->string, known[i]))
				break;
		if (i == sizeof(known) / sizeof(*known))
			return bad(name, e, id, it->string,
			           "unknown key (expected part, stage, "
			           "category, low, high, assumption, source or "
			           "comment)");
	}
	return 0;
}

static int load_part(const char *name, struct err *e, const char *id,
                     const cJSON *o, struct speedup_rule *s)
{
	const cJSON *p = get(o, "part");
	int i;

	for (i = 0; i < GAIN_PART_COUNT && cJSON_IsString(p); i++)
		if (!strcmp(p->valuestring, gain_part_names[i])) {
			s->part = (enum gain_part)i;
			return 0;
		}
	return bad(name, e, id, "part",
	           "expected none, category, exposed_comm, idle, stage, "
	           "imbalance or loop");
}

/* The stage (and category) the part belongs to: named for the parts
 * measured in one stage, implied for the others. */
static int load_where(const char *name, struct err *e, const char *id,
                      const cJSON *o, struct speedup_rule *s)
{
	const cJSON *st = get(o, "stage"), *c = get(o, "category");
	int named = s->part == GAIN_PART_CATEGORY ||
	            s->part == GAIN_PART_EXPOSED_COMM ||
	            s->part == GAIN_PART_STAGE;
	int v;

	s->stage = s->part == GAIN_PART_IMBALANCE || s->part == GAIN_PART_LOOP
	               ? STAGE_DIT
	               : (enum stage)STAGE_ALL;
	if (!named && st)
		return bad(name, e, id, "stage",
		           "only a category, exposed_comm or stage part "
		           "names a stage");
	if (named) {
		v = cJSON_IsString(st) ? stage_from_name(st->valuestring) : -1;
		if (v < 0)
			return bad(name, e, id, "stage",
			           "expected dit, vae, text_encoder or other");
		s->stage = (enum stage)v;
	}
	if (s->part != GAIN_PART_CATEGORY) {
		if (c)
			return bad(name, e, id, "category",
			           "only a category part names a category");
		return 0;
	}
	v = cJSON_IsString(c) ? category_from_name(c->valuestring) : -1;
	if (v < 0)
		return bad(name, e, id, "category",
		           "expected FA, MatMul, Conv, Vector, Comm or Other");
	s->cat = (enum category)v;
	return 0;
}

static int load_range(const char *name, struct err *e, const char *id,
                      const cJSON *o, struct speedup_rule *s)
{
	const cJSON *lo = get(o, "low"), *hi = get(o, "high");

	if (s->part == GAIN_PART_NONE) {
		if (lo || hi)
			return bad(name, e, id, lo ? "low" : "high",
			           "a part \"none\" has no speed-up");
		return 0;
	}
	if (!cJSON_IsNumber(lo) || !(lo->valuedouble >= 1) ||
	    lo->valuedouble > MAX_FACTOR)
		return bad(name, e, id, "low",
		           "expected a speed-up factor from 1 to 1000");
	if (!cJSON_IsNumber(hi) || !(hi->valuedouble >= 1) ||
	    hi->valuedouble > MAX_FACTOR)
		return bad(name, e, id, "high",
		           "expected a speed-up factor from 1 to 1000");
	if (hi->valuedouble < lo->valuedouble)
		return bad(name, e, id, "high", "below low");
	s->low = lo->valuedouble;
	s->high = hi->valuedouble;
	return 0;
}

static int load_texts(const char *name, struct err *e, const char *id,
                      const cJSON *o, struct speedup_rule *s)
{
	const cJSON *a = get(o, "assumption");

	if (!cJSON_IsObject(a))
		return bad(name, e, id, "assumption",
		           "expected an object with \"en\" and \"zh\" texts");
	if (text(name, e, id, "assumption.en", get(a, "en"),
	         &s->assumption_en) ||
	    text(name, e, id, "assumption.zh", get(a, "zh"), &s->assumption_zh))
		return -1;
	a = get(o, "source");
	/* one text (a citation reads the same in both), or one per language */
	if (!cJSON_IsObject(a))
		return text(name, e, id, "source", a, &s->source);
	return text(name, e, id, "source.en", get(a, "en"), &s->source) ||
	       text(name, e, id, "source.zh", get(a, "zh"), &s->source_zh);
}

static void speedup_free(struct speedup_rule *s)
{
	free(s->id);
	free(s->assumption_en);
	free(s->assumption_zh);
	free(s->source);
	free(s->source_zh);
	memset(s, 0, sizeof(*s));
}

static int load_one(const char *name, struct err *e, const cJSON *o,
                    struct speedup_rule *s)
{
	const char *id = o->string;

	memset(s, 0, sizeof(*s));
	if (!cJSON_IsObject(o))
		return bad(name, e, id, NULL, "expected an object");
	if (check_keys(name, e, id, o) || load_part(name, e, id, o, s) ||
	    load_where(name, e, id, o, s) || load_range(name, e, id, o, s) ||
	    load_texts(name, e, id, o, s)) {
		speedup_free(s);
		return -1;
	}
	s->id = xstrdup(id);
	return 0;
}

int rules_load_speedups(const char *name, const cJSON *obj, struct rules *r,
                        struct err *e)
{
	const cJSON *it;
	struct speedup_rule s, *old;

	if (!cJSON_IsObject(obj))
		return bad(name, e, NULL, NULL,
		           "expected an object keyed by finding id");
	cJSON_ArrayForEach (it, obj) {
		if (!strcmp(it->string, "comment") && cJSON_IsString(it))
			continue;
		if (!it->string[0])
			return bad(name, e, NULL, NULL,
			           "a finding id is empty");
		if (load_one(name, e, it, &s))
			return -1;
		old = (struct speedup_rule *)rules_speedup(r, s.id);
		if (old) {
			speedup_free(old);
			*old = s;
			continue;
		}
		if (r->nspeedups >= MAX_SPEEDUPS) {
			speedup_free(&s);
			return bad(name, e, NULL, NULL,
			           "more than 1024 speed-ups");
		}
		r->speedups = xrealloc(r->speedups, (r->nspeedups + 1) *
		                                        sizeof(*r->speedups));
		r->speedups[r->nspeedups++] = s;
	}
	return 0;
}

const struct speedup_rule *rules_speedup(const struct rules *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nspeedups; i++)
		if (!strcmp(r->speedups[i].id, id))
			return &r->speedups[i];
	return NULL;
}

void rules_speedups_release(struct rules *r)
{
	size_t i;

	for (i = 0; i < r->nspeedups; i++)
		speedup_free(&r->speedups[i]);
	free(r->speedups);
	r->speedups = NULL;
	r->nspeedups = 0;
}
