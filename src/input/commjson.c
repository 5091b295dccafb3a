/* communication.json reader. The file is small next to the trace (a few KB
 * to a few MB), so cJSON parses it whole; the walk keeps the JSON path of
 * where it is, so a wrong value can be named exactly in a message. */
#include "input/commjson.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "util/infile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* largest |ns| accepted: well inside int64_t, ~292 years */
#define NS_LIMIT 9.2e18

const char *const coll_names[COLL_COUNT] = {
    "all_gather", "all_reduce", "all_to_all", "reduce_scatter",
    "broadcast",  "send_recv",  "other"};

const char *const transport_names[TR_COUNT] = {"HCCS", "RDMA", "PCIE", "SDMA",
                                               "SIO"};

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
	struct commstats *cs;
};

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

/* The number at obj[key] into *out (0 when absent); -1 if not a number. */
static int get_number(struct creader *r, const cJSON *obj, const char *key,
                      double *out)
{
	const cJSON *v = get(obj, key);
	size_t old;
	int ret = 0;

	*out = 0;
	if (!v)
		return 0;
	old = jsonerr_push(&r->j, key);
	if (!cJSON_IsNumber(v))
		ret = jsonerr_bad(&r->j, "expected a number", v);
	else if (!isfinite(v->valuedouble))
		ret = jsonerr_bad(&r->j, "out of range", v);
	else
		*out = v->valuedouble;
	jsonerr_pop(&r->j, old);
	return ret;
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

static int read_op(struct creader *r, const cJSON *op, int p2p)
{
	struct coll_stat *c;
	int ovf = 0;

	if (!cJSON_IsObject(op))
		return jsonerr_bad(&r->j, "expected an object", op);
	c = &r->cs->coll[commstats_kind(op->string, p2p)];
	if (read_times(r, op, c, &ovf) || read_bandwidth(r, op, &ovf))
		return -1;
	if (ovf)
		return jsonerr_bad(&r->j, "sums out of range", NULL);
	c->count++;
	r->cs->ops++;
	return 0;
}

static int read_section(struct creader *r, const cJSON *sect, int p2p)
{
	const cJSON *op;
	size_t old;
	int ret = 0;

	cJSON_ArrayForEach (op, sect) {
		/* HCCL's own sum of the operations above: not an operation */
		if (!strcmp(op->string, "Total Op Info"))
			continue;
		old = jsonerr_push(&r->j, op->string);
		ret = read_op(r, op, p2p);
		jsonerr_pop(&r->j, old);
		if (ret)
			break;
	}
	return ret;
}

static int read_step(struct creader *r, const cJSON *step)
{
	static const char *const sections[] = {"p2p", "collective"};
	const cJSON *sect;
	size_t i, old;
	int ret = 0;

	if (!cJSON_IsObject(step))
		return jsonerr_bad(
		    &r->j, "expected an object (p2p, collective)", step);
	for (i = 0; i < ARRAY_LEN(sections) && !ret; i++) {
		if (get_object(r, step, sections[i], &sect))
			return -1;
		if (!sect)
			continue;
		old = jsonerr_push(&r->j, sections[i]);
		ret = read_section(r, sect, i == 0);
		jsonerr_pop(&r->j, old);
	}
	return ret;
}

static int walk(struct creader *r, const cJSON *root)
{
	const cJSON *step;
	size_t old;
	int ret = 0;

	if (!cJSON_IsObject(root)) {
		jsonerr_push(&r->j, "top level");
		return jsonerr_bad(&r->j,
		                   cJSON_IsArray(root)
		                       ? "expected an object of "
		                         "steps, got an array"
		                       : "expected an object of steps",
		                   cJSON_IsArray(root) ? NULL : root);
	}
	cJSON_ArrayForEach (step, root) {
		old = jsonerr_push(&r->j, step->string);
		ret = read_step(r, step);
		jsonerr_pop(&r->j, old);
		if (ret)
			break;
		r->cs->nsteps++;
	}
	return ret;
}

static int parse(const char *name, const char *text, size_t len,
                 struct commstats *cs, struct err *e)
{
	struct creader r;
	cJSON *root = jsonerr_parse(name, text, len, e);
	int ret;

	if (!root)
		return -1;
	jsonerr_init(&r.j, name, '/', e);
	r.cs = cs;
	ret = walk(&r, root);
	jsonerr_release(&r.j);
	cJSON_Delete(root);
	return ret;
}

static int too_big(const char *name, struct err *e)
{
	return err_set(e, ERR_INPUT,
	               "%s: larger than %u MiB uncompressed (the limit for "
	               "communication.json)",
	               name, COMMJSON_MAX_BYTES >> 20);
}

int commstats_read_mem(const char *name, const void *data, size_t len,
                       struct commstats *cs, struct err *e)
{
	memset(cs, 0, sizeof(*cs));
	cs->path = xstrdup(name);
	cs->size = (int64_t)len;
	if (len > COMMJSON_MAX_BYTES)
		return too_big(name, e);
	return parse(name, data, len, cs, e);
}

int commstats_read(const char *path, struct commstats *cs, struct err *e)
{
	struct infile f;
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	memset(cs, 0, sizeof(*cs));
	cs->path = xstrdup(path);
	if (!infile_slurp(path, COMMJSON_MAX_BYTES, "communication.json", &text,
	                  &f, e)) {
		cs->size = f.size;
		cs->gz = f.gz;
		ret = parse(path, text.buf, text.len, cs, e);
	}
	strbuf_release(&text);
	return ret;
}

void commstats_release(struct commstats *cs)
{
	free(cs->path);
	memset(cs, 0, sizeof(*cs));
}
