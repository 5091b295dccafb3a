/* profiler_info reader: a small JSON file (at most 4 MiB) walked in place
 * for its few values (input/jsonpull.h): no tree of the whole file. */
#include "input/profinfo.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input/jsonpull.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define PROFINFO_MAX (4u << 20)

/* The value at keys[0].keys[1]... of the object at from: 1 with *m
 * marking it (the reader stands there), else 0. */
static int value_at(struct jpull *p, const struct jp_mark *from,
                    const char *const *keys, size_t n, struct jp_mark *m)
{
	size_t i;

	*m = *from;
	for (i = 0; i < n; i++)
		if (jp_find(p, m, keys[i], m) != 1)
			return 0;
	jp_reset(p, m);
	return 1;
}

/* The string at keys[0].keys[1]... of the document, or NULL when absent,
 * empty or not a string. */
static char *str_at(struct jpull *p, const struct jp_mark *root,
                    const char *const *keys, size_t n)
{
	struct jp_mark *m = xmalloc(sizeof(*m));
	char *s = NULL;
	cJSON *c = NULL;

	if (value_at(p, root, keys, n, m) && jp_type(p) == JP_STRING &&
	    (c = jp_parse(p, PROFINFO_MAX, "profiler_info")) &&
	    c->valuestring[0])
		s = xstrdup(c->valuestring);
	cJSON_Delete(c);
	free(m);
	return s;
}

static void read_rank_id(struct jpull *p, const struct jp_mark *root,
                         struct profinfo *pi)
{
	struct jp_mark *m = xmalloc(sizeof(*m));
	cJSON *rank;

	if (jp_find(p, root, "rank_id", m) == 1 && jp_type(p) == JP_NUMBER &&
	    (rank = jp_parse(p, PROFINFO_MAX, "profiler_info"))) {
		if (rank->valuedouble >= 0 && rank->valuedouble < 1e9 &&
		    rank->valuedouble == floor(rank->valuedouble))
			pi->rank_id = (int64_t)rank->valuedouble;
		cJSON_Delete(rank);
	}
	free(m);
}

/* The scalar (string, number, true/false/null) the reader stands at as a
 * cJSON item, or NULL when it is an object or array (left unread). */
static cJSON *scalar(struct jpull *p)
{
	enum jp_type t = jp_type(p);

	if (t != JP_STRING && t != JP_NUMBER && t != JP_LITERAL)
		return NULL;
	return jp_parse(p, PROFINFO_MAX, "profiler_info");
}

/* A JSON boolean under key in the object at obj as 0/1, else -1. */
static int bool_in(struct jpull *p, const struct jp_mark *obj, const char *key,
                   struct jp_mark *m)
{
	cJSON *v;
	int b = -1;

	if (!value_at(p, obj, &key, 1, m) || !(v = scalar(p)))
		return -1;
	if (cJSON_IsBool(v))
		b = cJSON_IsTrue(v);
	cJSON_Delete(v);
	return b;
}

/* end_info.collectionTimeEnd: when the collection ended, nanoseconds
 * since the Unix epoch (a number, or a string of digits), in whole
 * seconds; -1 when absent or not plausible (before 2000, after 2200). */
static int64_t capture_end(struct jpull *p, const struct jp_mark *root)
{
	static const char *const keys[] = {"end_info", "collectionTimeEnd"};
	struct jp_mark *m = xmalloc(sizeof(*m));
	double ns = -1;
	cJSON *v;

	if (value_at(p, root, keys, 2, m) && (v = scalar(p))) {
		if (cJSON_IsNumber(v))
			ns = v->valuedouble;
		else if (cJSON_IsString(v) && v->valuestring[0] &&
		         strspn(v->valuestring, "0123456789") ==
		             strlen(v->valuestring))
			ns = strtod(v->valuestring, NULL);
		cJSON_Delete(v);
	}
	free(m);
	if (!(ns >= 946684800e9 && ns < 7258118400e9))
		return -1;
	return (int64_t)(ns / 1e9);
}

/* A schedule number under its name or "_" + name (older profilers), a
 * whole number from 0 to 1e9; else -1. */
static int64_t sched_num(struct jpull *p, const struct jp_mark *sched,
                         const char *name, struct jp_mark *m)
{
	char alt[32];
	const char *k = name;
	int64_t n = -1;
	cJSON *v;

	if (!value_at(p, sched, &k, 1, m)) {
		snprintf(alt, sizeof(alt), "_%s", name);
		k = alt;
		if (!value_at(p, sched, &k, 1, m))
			return -1;
	}
	if (!(v = scalar(p)))
		return -1;
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 1e9 &&
	    v->valuedouble == floor(v->valuedouble))
		n = (int64_t)v->valuedouble;
	cJSON_Delete(v);
	return n;
}

/* Calls each(name, arg) for every string of the array (or the lone
 * string) the reader stands at, walked element by element: a list of any
 * length costs one element at a time. Other elements are passed over. */
static void each_string(struct jpull *p, void (*each)(const char *s, void *arg),
                        void *arg)
{
	cJSON *v;

	if (jp_type(p) == JP_STRING) {
		if ((v = scalar(p)))
			each(v->valuestring, arg);
		cJSON_Delete(v);
		return;
	}
	if (jp_type(p) != JP_ARRAY || jp_enter(p))
		return;
	while (jp_next(p, NULL) == 1) {
		if (jp_type(p) != JP_STRING) {
			if (jp_skip(p))
				return;
			continue;
		}
		if (!(v = scalar(p)))
			return;
		each(v->valuestring, arg);
		cJSON_Delete(v);
	}
}

/* "ProfilerActivity.CPU" (or a bare "CPU") in the activities list. */
static void activity(const char *v, void *arg)
{
	struct profinfo_setup *s = arg;
	const char *dot = strrchr(v, '.');
	const char *name = dot ? dot + 1 : v;

	s->cpu |= !strcmp(name, "CPU");
	s->npu |= !strcmp(name, "NPU");
}

/* _export_type: a string ("text", "db") or a list of them. */
static void export_one(const char *v, void *arg)
{
	int *td = arg;

	td[0] |= !strcasecmp(v, "text");
	td[1] |= !strcasecmp(v, "db");
}

static void read_setup(struct jpull *p, const struct jp_mark *root,
                       struct profinfo_setup *s)
{
	static const char *const common[] = {"config", "common_config"};
	static const char *const exp[] = {"config", "experimental_config",
	                                  "_export_type"};
	static const char *const act[] = {"activities"};
	static const char *const sched_key[] = {"schedule"};
	struct jp_mark *c = xmalloc(sizeof(*c)), *m = xmalloc(sizeof(*m)),
	               *sched = xmalloc(sizeof(*sched));
	int td[2] = {0, 0};
	cJSON *v;

	profinfo_setup_init(s);
	if (value_at(p, root, common, 2, c)) {
		if (value_at(p, c, act, 1, m) && jp_type(p) == JP_ARRAY) {
			s->cpu = s->npu = 0;
			each_string(p, activity, s);
		}
		s->record_shapes = bool_in(p, c, "record_shapes", m);
		s->profile_memory = bool_in(p, c, "profile_memory", m);
		if (value_at(p, c, sched_key, 1, sched)) {
			if (jp_type(p) == JP_OBJECT) {
				s->schedule = 1;
				s->wait = sched_num(p, sched, "wait", m);
				s->warmup = sched_num(p, sched, "warmup", m);
				s->active = sched_num(p, sched, "active", m);
				s->repeat = sched_num(p, sched, "repeat", m);
				s->skip_first =
				    sched_num(p, sched, "skip_first", m);
			} else if ((v = scalar(p))) {
				if (cJSON_IsNull(v))
					s->schedule = 0;
				cJSON_Delete(v);
			}
		}
	}
	if (value_at(p, root, exp, 3, m))
		each_string(p, export_one, td);
	snprintf(s->export_type, sizeof(s->export_type), "%s",
	         td[0] && td[1] ? "text,db"
	         : td[1]        ? "db"
	         : td[0]        ? "text"
	                        : "");
	free(sched);
	free(m);
	free(c);
}

int profinfo_read(const char *path, struct profinfo *pi, struct err *e)
{
	static const char *const level[] = {"config", "experimental_config",
	                                    "_profiler_level"};
	static const char *const aic[] = {"config", "experimental_config",
	                                  "_aic_metrics"};
	static const char *const tn[] = {"torch_npu_version"};
	static const char *const cann[] = {"cann_version"};
	struct strbuf sb = STRBUF_INIT;
	struct jp_mark *root = xmalloc(sizeof(*root));
	struct jpull p;
	int ret = -1;

	memset(pi, 0, sizeof(*pi));
	pi->rank_id = -1;
	pi->capture_end_s = -1;
	profinfo_setup_init(&pi->setup);
	if (fileio_read_small(path, PROFINFO_MAX, &sb, e)) {
		free(root);
		strbuf_release(&sb);
		return -1;
	}
	/* walked in place, never built into a tree */
	jp_open_mem(&p, path, sb.buf, sb.len, e);
	p.syntax_what = "invalid JSON";
	jp_mark(&p, root);
	if (jp_type(&p) == JP_NONE || jp_skip(&p) || jp_end(&p)) {
		jp_error(&p, "invalid JSON");
		goto out;
	}
	read_rank_id(&p, root, pi);
	pi->torch_npu_version = str_at(&p, root, tn, 1);
	pi->cann_version = str_at(&p, root, cann, 1);
	pi->profiler_level = str_at(&p, root, level, 3);
	pi->aic_metrics = str_at(&p, root, aic, 3);
	read_setup(&p, root, &pi->setup);
	pi->capture_end_s = capture_end(&p, root);
	ret = 0;
out:
	jp_close(&p);
	free(root);
	strbuf_release(&sb);
	return ret;
}

void profinfo_setup_init(struct profinfo_setup *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = s->npu = s->schedule = -1;
	s->record_shapes = s->profile_memory = -1;
	s->wait = s->warmup = s->active = s->repeat = s->skip_first = -1;
}

void profinfo_release(struct profinfo *pi)
{
	free(pi->torch_npu_version);
	free(pi->cann_version);
	free(pi->profiler_level);
	free(pi->aic_metrics);
	memset(pi, 0, sizeof(*pi));
}
