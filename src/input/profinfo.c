/* profiler_info reader: a small JSON file read whole with cJSON. */
#include "input/profinfo.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	ret = 0;
out:
	cJSON_Delete(root);
	strbuf_release(&sb);
	return ret;
}

void profinfo_release(struct profinfo *pi)
{
	free(pi->torch_npu_version);
	free(pi->cann_version);
	free(pi->profiler_level);
	free(pi->aic_metrics);
	memset(pi, 0, sizeof(*pi));
}
