/* profiler_info reader: a small JSON file (at most 4 MiB) walked in place
 * for its few values (input/jsonpull.h): no tree of the whole file. */
#include "input/profinfo.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonpull.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define PROFINFO_MAX (4u << 20)

/* The string at keys[0].keys[1]... of the document, or NULL when absent,
 * empty or not a string. */
static char *str_at(struct jpull *p, const struct jp_mark *root,
                    const char *const *keys, size_t n)
{
	struct jp_mark *m = xmalloc(sizeof(*m));
	char *s = NULL;
	cJSON *c = NULL;
	size_t i;

	*m = *root;
	for (i = 0; i < n; i++)
		if (jp_find(p, m, keys[i], m) != 1)
			goto out;
	jp_reset(p, m);
	if (jp_type(p) == JP_STRING &&
	    (c = jp_parse(p, PROFINFO_MAX, "profiler_info")) &&
	    c->valuestring[0])
		s = xstrdup(c->valuestring);
out:
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
	ret = 0;
out:
	jp_close(&p);
	free(root);
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
