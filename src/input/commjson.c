/* communication.json reader. The document is streamed (input/jsonpull.h):
 * steps and sections are walked key by key and each operation alone is
 * parsed by cJSON, so memory is one operation's tree whatever the file
 * holds (a tree of the whole file costs about 40 times its text). The
 * walk keeps the JSON path of where it is, so a wrong value can be named
 * exactly in a message. */
#include "input/commjson.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"
#include "util/infile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* largest |ns| accepted: well inside int64_t, ~292 years */
#define NS_LIMIT 9.2e18

/* Name fragments, tried in order on the lower-cased operation name. */
static const struct {
	const char *frag;
	enum coll_kind kind;
} kind_rules[] = {
    {"allgather", COLL_ALLGATHER},
    {"all_gather", COLL_ALLGATHER},
    {"allreduce", COLL_ALLREDUCE},
    {"all_reduce", COLL_ALLREDUCE},
    {"alltoall", COLL_ALLTOALL},
    {"all_to_all", COLL_ALLTOALL},
    {"reducescatter", COLL_REDUCESCATTER},
    {"reduce_scatter", COLL_REDUCESCATTER},
    {"broadcast", COLL_BROADCAST},
    {"send", COLL_SENDRECV},
    {"receive", COLL_SENDRECV},
    {"recv", COLL_SENDRECV},
};

/* The time fields of "Communication Time Info" and where they are summed. */
static const struct {
	const char *key;
	size_t off; /* of the int64_t in struct coll_stat */
} time_fields[] = {
    {"Elapse Time(ms)", offsetof(struct coll_stat, elapse_ns)},
    {"Transit Time(ms)", offsetof(struct coll_stat, transit_ns)},
    {"Wait Time(ms)", offsetof(struct coll_stat, wait_ns)},
    {"Synchronization Time(ms)", offsetof(struct coll_stat, sync_ns)},
    {"Idle Time(ms)", offsetof(struct coll_stat, idle_ns)},
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct creader {
	struct jsonerr j; /* file name, '/'-separated JSON path, error */
	struct jpull p;   /* the document, streamed */
	struct commstats *cs;
};

#define QUOTE_BYTES 64 /* of a value of the wrong type, for messages */

static double ratio(int64_t part, int64_t transit)
{
	double d = (double)part + (double)transit;

	return d == 0 ? 0 : (double)part / d;
}

double commstats_wait_ratio(const struct coll_stat *c)
{
	return ratio(c->wait_ns, c->transit_ns);
}

double commstats_sync_ratio(const struct coll_stat *c)
{
	return ratio(c->sync_ns, c->transit_ns);
}

enum coll_kind commstats_kind(const char *op, int p2p)
{
	char *low;
	size_t i;
	enum coll_kind k = COLL_OTHER;

	if (p2p)
		return COLL_SENDRECV;
	low = xstrdup(op);
	for (i = 0; low[i]; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	for (i = 0; i < ARRAY_LEN(kind_rules); i++)
		if (strstr(low, kind_rules[i].frag)) {
			k = kind_rules[i].kind;
			break;
		}
	free(low);
	return k;
}

/* ---- values ------------------------------------------------------------ */

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* The number at obj[key] into *out (0 when absent); -1 if not a finite
 * number. */
static int get_number(struct creader *r, const cJSON *obj, const char *key,
                      double *out)
{
	return jsonerr_number(&r->j, obj, key, -HUGE_VAL, HUGE_VAL, out);
}

/* Milliseconds at obj[key] as nanoseconds (0 when absent). */
static int get_ms(struct creader *r, const cJSON *obj, const char *key,
                  int64_t *ns)
{
	double ms, v;
	size_t old;

	*ns = 0;
	if (get_number(r, obj, key, &ms))
		return -1;
	v = ms * 1e6;
	if (!(fabs(v) < NS_LIMIT)) {
		old = jsonerr_push(&r->j, key);
		jsonerr_bad(&r->j, "out of range", get(obj, key));
		jsonerr_pop(&r->j, old);
		return -1;
	}
	*ns = llround(v);
	return 0;
}

/* obj[key] when it is an object, NULL when absent; -1 when another type. */
static int get_object(struct creader *r, const cJSON *obj, const char *key,
                      const cJSON **out)
{
	const cJSON *v = get(obj, key);
	size_t old;

	*out = NULL;
	if (!v)
		return 0;
	if (cJSON_IsObject(v)) {
		*out = v;
		return 0;
	}
	old = jsonerr_push(&r->j, key);
	jsonerr_bad(&r->j, "expected an object", v);
	jsonerr_pop(&r->j, old);
	return -1;
}

static void add(int64_t *sum, int64_t v, int *ovf)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*ovf = 1;
}

/* ---- the walk ---------------------------------------------------------- */

static int read_times(struct creader *r, const cJSON *op, struct coll_stat *c,
                      int *ovf)
{
	const cJSON *info;
	size_t i, old;
	int64_t ns;
	int ret = 0;

	if (get_object(r, op, "Communication Time Info", &info))
		return -1;
	if (!info)
		return 0;
	old = jsonerr_push(&r->j, "Communication Time Info");
	for (i = 0; i < ARRAY_LEN(time_fields) && !ret; i++) {
		ret = get_ms(r, info, time_fields[i].key, &ns);
		if (!ret)
			add((int64_t *)((char *)c + time_fields[i].off), ns,
			    ovf);
	}
	jsonerr_pop(&r->j, old);
	return ret;
}

static int read_transport(struct creader *r, const cJSON *t,
                          struct transport_stat *ts, int *ovf)
{
	double mb;
	int64_t ns;

	if (get_number(r, t, "Transit Size(MB)", &mb) ||
	    get_ms(r, t, "Transit Time(ms)", &ns))
		return -1;
	if (mb > 0 || ns > 0) {
		ts->ops++;
		ts->size_mb += mb;
		add(&ts->time_ns, ns, ovf);
	}
	return 0;
}

static int read_bandwidth(struct creader *r, const cJSON *op, int *ovf)
{
	const cJSON *bw, *t;
	size_t i, old, o2;
	int ret = 0;

	if (get_object(r, op, "Communication Bandwidth Info", &bw))
		return -1;
	if (!bw)
		return 0;
	old = jsonerr_push(&r->j, "Communication Bandwidth Info");
	for (i = 0; i < TR_COUNT && !ret; i++) {
		ret = get_object(r, bw, transport_names[i], &t);
		if (ret || !t)
			continue;
		o2 = jsonerr_push(&r->j, transport_names[i]);
		ret = read_transport(r, t, &r->cs->tr[i], ovf);
		jsonerr_pop(&r->j, o2);
	}
	jsonerr_pop(&r->j, old);
	return ret;
}

static int read_op(struct creader *r, const cJSON *op, const char *name,
                   int p2p)
{
	struct coll_stat *c;
	int ovf = 0;

	if (!cJSON_IsObject(op))
		return jsonerr_bad(&r->j, "expected an object", op);
	c = &r->cs->coll[commstats_kind(name, p2p)];
	if (read_times(r, op, c, &ovf) || read_bandwidth(r, op, &ovf))
		return -1;
	if (ovf)
		return jsonerr_bad(&r->j, "sums out of range", NULL);
	c->count++;
	r->cs->ops++;
	return 0;
}

/* A value of the wrong type where an object belongs: named by its path and
 * quoted (its first bytes). */
static int not_object(struct creader *r, const char *what)
{
	struct strbuf q = STRBUF_INIT;
	int ret = -1;

	if (!jp_skip_quote(&r->p, &q, QUOTE_BYTES))
		ret = jsonerr_bad_text(&r->j, what, q.buf, q.len);
	strbuf_release(&q);
	return ret;
}

/* One operation at a time: its value is the only tree ever built. */
static int read_section(struct creader *r, int p2p)
{
	struct strbuf key = STRBUF_INIT;
	cJSON *op;
	size_t old;
	int ret = 0, more;

	if (jp_type(&r->p) != JP_OBJECT)
		return not_object(r, "expected an object");
	if (jp_enter(&r->p))
		return -1;
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0)
			ret = -1;
		/* HCCL's own sum of the operations above: not an operation */
		else if (!strcmp(key.buf, "Total Op Info"))
			ret = jp_skip(&r->p);
		else if (!(op =
		               jp_parse(&r->p, COMMJSON_MAX_OP,
		                        "one operation in communication.json")))
			ret = -1;
		else {
			old = jsonerr_push(&r->j, key.buf);
			ret = read_op(r, op, key.buf, p2p);
			jsonerr_pop(&r->j, old);
			cJSON_Delete(op);
		}
	}
	strbuf_release(&key);
	return ret;
}

/* A step: its "p2p" and "collective" sections (the first of each, as a
 * lookup by key would find), other keys passed over. */
static int read_step(struct creader *r)
{
	struct strbuf key = STRBUF_INIT;
	int seen[2] = {0, 0}, ret = 0, more, k;
	size_t old;

	if (jp_type(&r->p) != JP_OBJECT)
		return not_object(r, "expected an object (p2p, collective)");
	if (jp_enter(&r->p))
		return -1;
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0) {
			ret = -1;
			break;
		}
		k = !strcmp(key.buf, "p2p")          ? 0
		    : !strcmp(key.buf, "collective") ? 1
		                                     : -1;
		if (k < 0 || seen[k]) {
			ret = jp_skip(&r->p);
		} else {
			seen[k] = 1;
			old = jsonerr_push(&r->j, key.buf);
			ret = read_section(r, k == 0);
			jsonerr_pop(&r->j, old);
		}
	}
	strbuf_release(&key);
	return ret;
}

static int walk(struct creader *r)
{
	struct strbuf key = STRBUF_INIT;
	enum jp_type t = jp_type(&r->p);
	size_t old;
	int ret = 0, more;

	if (t == JP_NONE)
		return jp_eof(&r->p) ? err_set(r->j.e, ERR_INPUT,
		                               "%s: empty file (no JSON value)",
		                               r->j.name)
		                     : jp_error(&r->p, "JSON syntax error");
	if (t != JP_OBJECT) {
		jsonerr_push(&r->j, "top level");
		if (t == JP_ARRAY)
			return jsonerr_bad(
			    &r->j,
			    "expected an object of steps, got an "
			    "array",
			    NULL);
		return not_object(r, "expected an object of steps");
	}
	if (jp_enter(&r->p))
		return -1;
	while (!ret && (more = jp_next(&r->p, &key)) != 0) {
		if (more < 0)
			ret = -1;
		else {
			old = jsonerr_push(&r->j, key.buf);
			ret = read_step(r);
			jsonerr_pop(&r->j, old);
			r->cs->nsteps += !ret;
		}
	}
	strbuf_release(&key);
	return ret ? -1 : jp_end(&r->p);
}

static int read_all(const char *name, struct creader *r, struct commstats *cs,
                    struct err *e)
{
	int ret;

	jsonerr_init(&r->j, name, '/', e);
	r->cs = cs;
	ret = walk(r);
	jsonerr_release(&r->j);
	jp_close(&r->p);
	return ret;
}

int commstats_read_mem(const char *name, const void *data, size_t len,
                       struct commstats *cs, struct err *e)
{
	struct creader r;

	memset(cs, 0, sizeof(*cs));
	cs->path = xstrdup(name);
	cs->size = (int64_t)len;
	if (len > COMMJSON_MAX_BYTES)
		return err_set(e, ERR_INPUT,
		               "%s: larger than %u MiB uncompressed (the limit "
		               "for communication.json)",
		               name, COMMJSON_MAX_BYTES >> 20);
	jp_open_mem(&r.p, name, data, len, e);
	return read_all(name, &r, cs, e);
}

int commstats_read(const char *path, struct commstats *cs, struct err *e)
{
	struct creader r;

	memset(cs, 0, sizeof(*cs));
	cs->path = xstrdup(path);
	if (jp_open_file(&r.p, path, COMMJSON_MAX_BYTES, "communication.json",
	                 e)) {
		jp_close(&r.p);
		return -1;
	}
	cs->size = r.p.f.size;
	cs->gz = r.p.f.gz;
	return read_all(path, &r, cs, e);
}

void commstats_release(struct commstats *cs)
{
	free(cs->path);
	memset(cs, 0, sizeof(*cs));
}
