/* communication_matrix.json reader (input/commmatrix.h). */
#include "input/commmatrix.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"
#include "util/checked.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define NS_LIMIT 9.2e18

/* A set of links being summed: the rows and a map from (src << 32 | dst,
 * transport) to the row's index. */
struct table {
	struct comm_link *v;
	size_t n, alloc;
	struct idmap map;
};

/* The three sums of a section; the one used is decided at its end. */
enum { S_OPS, S_KIND_TOTAL, S_TOTAL_OP_INFO, S_COUNT };

struct mreader {
	struct jsonerr j;
	struct jpull p;
	struct commmatrix *cm;
	struct table all;
	struct table sec[S_COUNT];
	int seen[S_COUNT];
	char transports[COMMMATRIX_MAX_TRANSPORTS]
	               [COMMMATRIX_TRANSPORT_LEN + 1];
	size_t ntransports;
};

static void mx_table_release(struct table *t)
{
	free(t->v);
	idmap_release(&t->map);
	memset(t, 0, sizeof(*t));
}

/* The row of (src, dst, transport ti) in t, added when new; NULL past the
 * cap (error set). */
static struct comm_link *mx_row(struct mreader *r, struct table *t, int32_t src,
                                int32_t dst, size_t ti)
{
	uint64_t a = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst, old;

	if (!idmap_put(&t->map, a, ti, t->n, &old))
		return &t->v[old];
	if (t->n >= COMMMATRIX_MAX_LINKS) {
		err_set(r->j.e, ERR_INPUT,
		        "%s: more than %d rank-to-rank links (the limit for "
		        "communication_matrix.json)",
		        r->j.name, COMMMATRIX_MAX_LINKS);
		return NULL;
	}
	t->v = xgrow(t->v, sizeof(*t->v), t->n + 1, &t->alloc);
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	t->v[t->n].src = src;
	t->v[t->n].dst = dst;
	memcpy(t->v[t->n].transport, r->transports[ti],
	       sizeof(t->v[0].transport));
	return &t->v[t->n++];
}

/* "0-8" into src, dst: -1 when not two decimal ranks. */
static int mx_parse_link(const char *s, int32_t *src, int32_t *dst)
{
	int64_t v[2] = {0, 0};
	int k = 0, digits = 0;

	for (; *s; s++) {
		if (*s == '-' && k == 0 && digits) {
			k = 1;
			digits = 0;
		} else if (*s >= '0' && *s <= '9' && digits < 10) {
			v[k] = v[k] * 10 + (*s - '0');
			digits++;
		} else {
			return -1;
		}
	}
	if (k != 1 || !digits || v[0] > INT32_MAX || v[1] > INT32_MAX)
		return -1;
	*src = (int32_t)v[0];
	*dst = (int32_t)v[1];
	return 0;
}

static int mx_number(struct mreader *r, const cJSON *o, const char *key,
                     double *out)
{
	return jsonerr_number(&r->j, o, key, 0, (double)NS_LIMIT / 1e6, out);
}

/* The transport's index among those seen (added when new). */
static int mx_transport(struct mreader *r, const cJSON *o, size_t *ti)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "Transport Type");
	const char *s = "unknown";
	size_t old, i;

	if (v) {
		old = jsonerr_push(&r->j, "Transport Type");
		if (!cJSON_IsString(v) || !v->valuestring[0] ||
		    strlen(v->valuestring) > COMMMATRIX_TRANSPORT_LEN)
			return jsonerr_bad(
			    &r->j, "expected a name of at most 31 bytes", v);
		jsonerr_pop(&r->j, old);
		s = v->valuestring;
	}
	for (i = 0; i < r->ntransports; i++)
		if (!strcmp(r->transports[i], s)) {
			*ti = i;
			return 0;
		}
	if (r->ntransports >= COMMMATRIX_MAX_TRANSPORTS)
		return err_set(r->j.e, ERR_INPUT,
		               "%s: more than %d transports (the limit for "
		               "communication_matrix.json)",
		               r->j.name, COMMMATRIX_MAX_TRANSPORTS);
	memcpy(r->transports[r->ntransports], s, strlen(s) + 1);
	*ti = r->ntransports++;
	return 0;
}

/* One operation's links {"0-1": {...}, ...} into table t. */
static int mx_read_op(struct mreader *r, const cJSON *op, struct table *t)
{
	const cJSON *l;
	int ret = 0;

	if (!cJSON_IsObject(op))
		return jsonerr_bad(&r->j, "expected an object of links", op);
	cJSON_ArrayForEach (l, op) {
		int32_t src, dst;
		double mb, ms;
		size_t ti = 0, old = jsonerr_push(&r->j, l->string);
		struct comm_link *k;
		if (mx_parse_link(l->string, &src, &dst))
			ret = jsonerr_bad(
			    &r->j, "not a link 'src-dst' of two rank ids",
			    NULL);
		else if (!cJSON_IsObject(l))
			ret = jsonerr_bad(&r->j, "expected an object", l);
		else if (mx_transport(r, l, &ti) ||
		         mx_number(r, l, "Transit Size(MB)", &mb) ||
		         mx_number(r, l, "Transit Time(ms)", &ms))
			ret = -1;
		else if (!(k = mx_row(r, t, src, dst, ti)))
			ret = -1;
		else {
			k->size_mb += mb;
			checked_accumulate(&k->time_ns, llround(ms * 1e6));
		}
		jsonerr_pop(&r->j, old);
		if (ret)
			break;
	}
	return ret;
}

/* Adds the rows of t into all (a section's chosen sum). */
static int mx_merge(struct mreader *r, const struct table *t)
{
	size_t i, ti;

	for (i = 0; i < t->n; i++) {
		struct comm_link *k;
		for (ti = 0; strcmp(r->transports[ti], t->v[i].transport); ti++)
			;
		if (!(k = mx_row(r, &r->all, t->v[i].src, t->v[i].dst, ti)))
			return -1;
		k->size_mb += t->v[i].size_mb;
		checked_accumulate(&k->time_ns, t->v[i].time_ns);
	}
	return 0;
}

static int mx_read_section(struct mreader *r)
{
	struct strbuf key = STRBUF_INIT;
	int ret = 0, more, s;
	cJSON *op;
	size_t old;

	if (jp_type(&r->p) != JP_OBJECT)
		return jsonerr_bad(&r->j, "expected an object of operations",
		                   NULL);
	if (jp_enter(&r->p))
		return -1;
	memset(r->seen, 0, sizeof(r->seen));
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0) {
			ret = -1;
			break;
		}
		s = !strcmp(key.buf, "Total Op Info") ? S_TOTAL_OP_INFO
		    : strstr(key.buf, "-total@")      ? S_KIND_TOTAL
		                                      : S_OPS;
		if (!(op = jp_parse(
		          &r->p, COMMMATRIX_MAX_OP,
		          "one operation in communication_matrix.json"))) {
			ret = -1;
			break;
		}
		old = jsonerr_push(&r->j, key.buf);
		/* the aggregated layout's top1/middle/bottom1 are single
		 * operations picked out, already in their -total: skipped */
		if (s == S_OPS && strchr(key.buf, '@') &&
		    (strstr(key.buf, "-top1@") || strstr(key.buf, "-middle@") ||
		     strstr(key.buf, "-bottom1@")))
			s = -1;
		if (s >= 0) {
			r->seen[s] = 1;
			ret = mx_read_op(r, op, &r->sec[s]);
		}
		jsonerr_pop(&r->j, old);
		cJSON_Delete(op);
	}
	if (!ret)
		ret = mx_merge(
		    r, r->seen[S_TOTAL_OP_INFO] ? &r->sec[S_TOTAL_OP_INFO]
		       : r->seen[S_KIND_TOTAL]  ? &r->sec[S_KIND_TOTAL]
		                                : &r->sec[S_OPS]);
	for (s = 0; s < S_COUNT; s++)
		mx_table_release(&r->sec[s]);
	strbuf_release(&key);
	return ret;
}

static int mx_read_step(struct mreader *r)
{
	struct strbuf key = STRBUF_INIT;
	int ret = 0, more;
	size_t old;

	if (jp_type(&r->p) != JP_OBJECT)
		return jsonerr_bad(
		    &r->j, "expected an object (p2p, collective)", NULL);
	if (jp_enter(&r->p))
		return -1;
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0) {
			ret = -1;
		} else if (strcmp(key.buf, "p2p") &&
		           strcmp(key.buf, "collective")) {
			ret = jp_skip(&r->p);
		} else {
			old = jsonerr_push(&r->j, key.buf);
			ret = mx_read_section(r);
			jsonerr_pop(&r->j, old);
		}
	}
	strbuf_release(&key);
	return ret;
}

static int mx_walk(struct mreader *r)
{
	struct strbuf key = STRBUF_INIT;
	enum jp_type t = jp_type(&r->p);
	int ret = 0, more;
	size_t old;

	if (t == JP_NONE)
		return jp_eof(&r->p) ? err_set(r->j.e, ERR_INPUT,
		                               "%s: empty file (no JSON value)",
		                               r->j.name)
		                     : jp_error(&r->p, "JSON syntax error");
	if (t != JP_OBJECT) {
		jsonerr_push(&r->j, "top level");
		return jsonerr_bad(&r->j, "expected an object of steps", NULL);
	}
	if (jp_enter(&r->p))
		return -1;
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0) {
			ret = -1;
			break;
		}
		old = jsonerr_push(&r->j, key.buf);
		ret = mx_read_step(r);
		jsonerr_pop(&r->j, old);
		r->cm->nsteps += !ret;
	}
	strbuf_release(&key);
	return ret ? -1 : jp_end(&r->p);
}

static int mx_read_all(const char *name, struct mreader *r,
                       struct commmatrix *cm, struct err *e)
{
	uint64_t cost;
	int ret, s;

	jsonerr_init(&r->j, name, '/', e);
	r->cm = cm;
	ret = mx_walk(r);
	if (!ret) {
		cost = (uint64_t)r->all.n * sizeof(*cm->links);
		if (membudget_charge(cost))
			ret = membudget_fail(e, cost, "%s: %zu links", name,
			                     r->all.n);
		else {
			cm->charged = cost;
			cm->links = r->all.v;
			cm->nlinks = r->all.n;
			r->all.v = NULL;
		}
	}
	mx_table_release(&r->all);
	for (s = 0; s < S_COUNT; s++)
		mx_table_release(&r->sec[s]);
	jsonerr_release(&r->j);
	jp_close(&r->p);
	return ret;
}

static void mx_begin(struct mreader *r, struct commmatrix *cm, const char *name)
{
	memset(r, 0, sizeof(*r));
	memset(cm, 0, sizeof(*cm));
	cm->path = xstrdup(name);
}

int commmatrix_read_mem(const char *name, const void *data, size_t len,
                        struct commmatrix *cm, struct err *e)
{
	struct mreader r;

	mx_begin(&r, cm, name);
	if (len > COMMMATRIX_MAX_BYTES)
		return err_set(e, ERR_INPUT,
		               "%s: larger than %u MiB uncompressed (the limit "
		               "for communication_matrix.json)",
		               name, COMMMATRIX_MAX_BYTES >> 20);
	jp_open_mem(&r.p, name, data, len, e);
	return mx_read_all(name, &r, cm, e);
}

int commmatrix_read(const char *path, struct commmatrix *cm, struct err *e)
{
	struct mreader r;

	mx_begin(&r, cm, path);
	if (jp_open_file(&r.p, path, COMMMATRIX_MAX_BYTES,
	                 "communication_matrix.json", e)) {
		jp_close(&r.p);
		return -1;
	}
	return mx_read_all(path, &r, cm, e);
}

void commmatrix_release(struct commmatrix *cm)
{
	membudget_release(cm->charged);
	free(cm->path);
	free(cm->links);
	memset(cm, 0, sizeof(*cm));
}
