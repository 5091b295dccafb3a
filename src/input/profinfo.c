/* profiler_info reader: a small JSON file read whole with cJSON. */
#include "input/profinfo.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/jsonerr.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define PROFINFO_MAX (4u << 20)

static const cJSON *at(const cJSON *o, const char *const *keys, size_t n)
{
	size_t i;
	for (i = 0; o && i < n; i++)
		o = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
	return o;
}

static char *str_at(const cJSON *root, const char *const *keys, size_t n)
{
	const cJSON *v = at(root, keys, n);
	return cJSON_IsString(v) && v->valuestring[0] ? xstrdup(v->valuestring)
	                                              : NULL;
}

/* A JSON boolean as 0/1, anything else -1. */
static int bool_of(const cJSON *v)
{
	return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

/* A schedule number under its name or "_" + name (older profilers),
 * a whole number from 0 to 1e9; else -1. */
static int64_t sched_num(const cJSON *sched, const char *name)
{
	char alt[32];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(sched, name);

	if (!v) {
		snprintf(alt, sizeof(alt), "_%s", name);
		v = cJSON_GetObjectItemCaseSensitive(sched, alt);
	}
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
	    v->valuedouble > 1e9 || v->valuedouble != floor(v->valuedouble))
		return -1;
	return (int64_t)v->valuedouble;
}

/* "ProfilerActivity.CPU" (or a bare "CPU") in the activities list. */
static void activities(const cJSON *list, struct profinfo_setup *s)
{
	const cJSON *a;

	if (!cJSON_IsArray(list))
		return;
	s->cpu = s->npu = 0;
	cJSON_ArrayForEach (a, list) {
		const char *v = cJSON_IsString(a) ? a->valuestring : "";
		const char *dot = strrchr(v, '.');
		const char *name = dot ? dot + 1 : v;
		s->cpu |= !strcmp(name, "CPU");
		s->npu |= !strcmp(name, "NPU");
	}
}

/* _export_type: a string ("text", "db") or a list of them. */
static void export_type(const cJSON *v, struct profinfo_setup *s)
{
	const cJSON *a;
	int text = 0, db = 0;

	if (cJSON_IsString(v)) {
		text = !strcasecmp(v->valuestring, "text");
		db = !strcasecmp(v->valuestring, "db");
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach (a, v) {
			if (!cJSON_IsString(a))
				continue;
			text |= !strcasecmp(a->valuestring, "text");
			db |= !strcasecmp(a->valuestring, "db");
		}
	}
	snprintf(s->export_type, sizeof(s->export_type), "%s",
	         text && db ? "text,db"
	         : db       ? "db"
	         : text     ? "text"
	                    : "");
}

static void read_setup(const cJSON *root, struct profinfo_setup *s)
{
	static const char *const common[] = {"config", "common_config"};
	static const char *const exp[] = {"config", "experimental_config"};
	const cJSON *c = at(root, common, 2), *sched;

	profinfo_setup_init(s);
	activities(cJSON_GetObjectItemCaseSensitive(c, "activities"), s);
	s->record_shapes =
	    bool_of(cJSON_GetObjectItemCaseSensitive(c, "record_shapes"));
	s->profile_memory =
	    bool_of(cJSON_GetObjectItemCaseSensitive(c, "profile_memory"));
	sched = cJSON_GetObjectItemCaseSensitive(c, "schedule");
	if (cJSON_IsObject(sched)) {
		s->schedule = 1;
		s->wait = sched_num(sched, "wait");
		s->warmup = sched_num(sched, "warmup");
		s->active = sched_num(sched, "active");
		s->repeat = sched_num(sched, "repeat");
		s->skip_first = sched_num(sched, "skip_first");
	} else if (c && cJSON_IsNull(sched)) {
		s->schedule = 0;
	}
	export_type(
	    cJSON_GetObjectItemCaseSensitive(at(root, exp, 2), "_export_type"),
	    s);
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
	const char *end = NULL;
	const cJSON *rank;
	cJSON *root = NULL;
	int ret = -1;

	memset(pi, 0, sizeof(*pi));
	pi->rank_id = -1;
	profinfo_setup_init(&pi->setup);
	if (fileio_read_small(path, PROFINFO_MAX, &sb, e))
		goto out;
	root = jsonerr_cjson_parse(sb.buf, sb.len, &end);
	if (!root) {
		jsonerr_syntax(e, path, sb.buf, sb.len, end, "invalid JSON");
		goto out;
	}
	rank = cJSON_GetObjectItemCaseSensitive(root, "rank_id");
	if (cJSON_IsNumber(rank) && rank->valuedouble >= 0 &&
	    rank->valuedouble < 1e9 &&
	    rank->valuedouble == floor(rank->valuedouble))
		pi->rank_id = (int64_t)rank->valuedouble;
	pi->torch_npu_version = str_at(root, tn, 1);
	pi->cann_version = str_at(root, cann, 1);
	pi->profiler_level = str_at(root, level, 3);
	pi->aic_metrics = str_at(root, aic, 3);
	read_setup(root, &pi->setup);
	ret = 0;
out:
	cJSON_Delete(root);
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
