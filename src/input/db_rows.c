/* The db export reader (see db.h), part 3: the tables beside the kernels:
 * OVERLAP_ANALYSIS, stage-marker ranges (PYTORCH_API, MSTX_EVENTS), the
 * host -> device links, and the communication figures. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input/db.h"
#include "input/db_int.h"
#include "input/hccl.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define ENUM_MAX 4096 /* rows read from an enum table */
/* Longest enum name kept: the profiler's are a word ("STANDARD_ROCE"); a
 * longer one (up to 1 MiB) is left out, so that 4,096 rows cannot hold
 * 4 GiB outside --max-memory. Its id then names no transport or link. */
#define ENUM_NAME_MAX 256
#define MARKER_IDS    (1u << 20) /* distinct marker names accepted */

int db_overlap_each(struct db *db, db_span_fn fn, void *ctx, uint64_t *skipped,
                    struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	*skipped = 0;
	if (!db_has(db, DBT_OVERLAP_ANALYSIS))
		return 0;
	st = dbi_prep(db, "SELECT type, startNs, endNs FROM OVERLAP_ANALYSIS",
	              "OVERLAP_ANALYSIS", e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t k, a, b;
		if (dbi_i64(st, 0, &k) || k < 0 || k > 3 ||
		    dbi_i64(st, 1, &a) || dbi_i64(st, 2, &b) || a < 0 ||
		    b < a) {
			(*skipped)++;
			continue;
		}
		fn((int)k, a, b, ctx);
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, "OVERLAP_ANALYSIS", e);
}

/* ---- host ranges and flows ----------------------------------------------
 */

/* A set of ids: an idmap (keyed by the process hash key, so hostile ids
 * cannot pile into one bucket) with no value and no id reserved as a
 * marker: every 64-bit id, -1 included, is an id. */
static void idset_add(struct idmap *s, int64_t id)
{
	idmap_put(s, (uint64_t)id, 0, 0, NULL);
}

static int idset_has(const struct idmap *s, int64_t id)
{
	return idmap_get(s, (uint64_t)id, 0) != NULL;
}

/* The STRING_IDS ids whose text want() accepts. */
static int wanted_names(struct db *db, db_want_fn want, void *ctx,
                        struct idmap *ids, struct err *e)
{
	sqlite3_stmt *st =
	    dbi_prep(db, "SELECT id, value FROM STRING_IDS", "STRING_IDS", e);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 1);
		int64_t id;
		if (!v || dbi_i64(st, 0, &id) || !want((const char *)v, ctx))
			continue;
		if (ids->n >= MARKER_IDS) {
			sqlite3_finalize(st);
			return err_set(
			    e, ERR_INPUT,
			    "%s: more than %u distinct names in "
			    "STRING_IDS match the stage-marker rules",
			    db->path, MARKER_IDS);
		}
		idset_add(ids, id);
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, "STRING_IDS", e);
}

/* The ENUM_API_TYPE id of name, or fallback (the ids of schema 1.0.0). */
static int64_t api_type(struct db *db, const char *name, int64_t fallback)
{
	sqlite3_stmt *st;
	int64_t id = fallback;

	if (!db_has(db, DBT_ENUM_API_TYPE) ||
	    sqlite3_prepare_v2(db->h,
	                       "SELECT id FROM ENUM_API_TYPE WHERE name = ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return fallback;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && dbi_i64(st, 0, &id))
		id = fallback;
	sqlite3_finalize(st);
	return id;
}

/* Rows (name id, start, end) of sql whose name is in ids go to fn. */
static int ranges_of(struct db *db, const char *sql, const char *table,
                     const struct idmap *ids, db_range_fn fn, void *ctx,
                     struct err *e)
{
	sqlite3_stmt *st = dbi_prep(db, sql, table, e);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id, a, b;
		if (dbi_i64(st, 0, &id) || !idset_has(ids, id) ||
		    dbi_i64(st, 1, &a) || dbi_i64(st, 2, &b) || a < 0 || b < a)
			continue;
		strbuf_reset(&db->tmp);
		if (dbi_str(db, id, &db->tmp, e) < 0)
			break;
		fn(db->tmp.buf, a, b, ctx);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return -1;
	return dbi_done(db, rc, table, e);
}

int db_host_ranges(struct db *db, db_want_fn want, db_range_fn fn, void *ctx,
                   struct err *e)
{
	struct idmap ids = IDMAP_INIT;
	struct strbuf sql = STRBUF_INIT;
	int rc = 0;

	if (!db_has(db, DBT_STRING_IDS) ||
	    (!db_has(db, DBT_PYTORCH_API) && !db_has(db, DBT_MSTX_EVENTS)))
		return 0;
	if (wanted_names(db, want, ctx, &ids, e)) {
		idmap_release(&ids);
		return -1;
	}
	if (ids.n && db_has(db, DBT_PYTORCH_API)) {
		if (dbi_has_col(db, DBT_PYTORCH_API, "type"))
			strbuf_addf(
			    &sql,
			    "SELECT name, startNs, endNs FROM PYTORCH_API "
			    "WHERE type IN (%" PRId64 ", %" PRId64 ")",
			    api_type(db, "op", 50001),
			    api_type(db, "mstx", 50004));
		else
			strbuf_adds(&sql, "SELECT name, startNs, endNs FROM "
			                  "PYTORCH_API");
		rc = ranges_of(db, sql.buf, "PYTORCH_API", &ids, fn, ctx, e);
	}
	if (!rc && ids.n && db_has(db, DBT_MSTX_EVENTS))
		rc =
		    ranges_of(db,
		              "SELECT message, startNs, endNs FROM MSTX_EVENTS "
		              "WHERE endNs > startNs",
		              "MSTX_EVENTS", &ids, fn, ctx, e);
	strbuf_release(&sql);
	idmap_release(&ids);
	return rc;
}

/* One CONNECTION_IDS pair (id: a PYTORCH_API connectionId; conn: a
 * TASK connectionId) and what the join found for it. */
struct link {
	int64_t id, conn;
	int64_t host, dev; /* valid when has & 1, has & 2 */
	unsigned has;
};

static int cmp_link_id(const void *a, const void *b)
{
	const struct link *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->conn > y->conn) - (x->conn < y->conn);
}

static int cmp_link_conn(const void *a, const void *b)
{
	const struct link *x = a, *y = b;

	if (x->conn != y->conn)
		return x->conn < y->conn ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int64_t link_key(const struct link *l, int by_conn)
{
	return by_conn ? l->conn : l->id;
}

/* The first of l[0..n) (sorted by the key by_conn picks) whose key is
 * key, or n. */
static size_t link_find(const struct link *l, size_t n, int by_conn,
                        int64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (link_key(&l[mid], by_conn) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && link_key(&l[lo], by_conn) == key ? lo : n;
}

/* CONNECTION_IDS' distinct pairs, sorted by (id, conn), charged to the
 * budget as they grow: 0, or -1 with e set. */
static int links_read(struct db *db, struct link **out, size_t *n,
                      size_t *alloc, struct err *e)
{
	sqlite3_stmt *st =
	    dbi_prep(db, "SELECT id, connectionId FROM CONNECTION_IDS",
	             "CONNECTION_IDS", e);
	struct link *l = NULL;
	size_t k = 0, i;
	int rc;

	*out = NULL;
	*n = *alloc = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id, conn;
		if (dbi_i64(st, 0, &id) || dbi_i64(st, 1, &conn))
			continue;
		if (membudget_grow(&l, sizeof(*l), k + 1, alloc)) {
			sqlite3_finalize(st);
			membudget_release((uint64_t)*alloc * sizeof(*l));
			free(l);
			*alloc = 0;
			return membudget_fail(
			    e, (uint64_t)(k / 8 + 16) * sizeof(*l),
			    "%s: CONNECTION_IDS: host-device links (%zu read)",
			    db->path, k);
		}
		memset(&l[k], 0, sizeof(*l));
		l[k].id = id;
		l[k++].conn = conn;
	}
	sqlite3_finalize(st);
	*out = l;
	*n = k;
	if (dbi_done(db, rc, "CONNECTION_IDS", e))
		return -1;
	if (k)
		qsort(l, k, sizeof(*l), cmp_link_id);
	/* a pair listed twice is one link, as GROUP BY made it */
	for (i = 0, *n = 0; i < k; i++)
		if (!*n || cmp_link_id(&l[*n - 1], &l[i]))
			l[(*n)++] = l[i];
	return 0;
}

/* The time of link i that a pass fills: its host start (pass 1) or its
 * first task's start (pass 2). */
static int64_t *link_time(struct link *l, unsigned pass)
{
	return pass == 1 ? &l->host : &l->dev;
}

/* Streams sql (columns: a key, a time) once, in no order: each row is
 * looked up in l (sorted by the key by_conn picks) and the earliest time
 * of a key kept on the first link carrying it, then copied to the others;
 * each link so timed gets bit `pass` in has. */
static int links_min(struct db *db, const char *sql, const char *what,
                     struct link *l, size_t n, int by_conn, unsigned pass,
                     struct err *e)
{
	sqlite3_stmt *st = dbi_prep(db, sql, what, e);
	size_t i, f = 0;
	int64_t key, t, *slot;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dbi_i64(st, 0, &key) || dbi_i64(st, 1, &t) ||
		    (i = link_find(l, n, by_conn, key)) == n)
			continue;
		slot = link_time(&l[i], pass);
		if (!(l[i].has & pass) || t < *slot)
			*slot = t;
		l[i].has |= pass;
	}
	sqlite3_finalize(st);
	if (dbi_done(db, rc, what, e))
		return -1;
	for (i = 1; i < n; i++) {
		if (link_key(&l[i], by_conn) != link_key(&l[f], by_conn)) {
			f = i;
		} else if (l[f].has & pass) {
			*link_time(&l[i], pass) = *link_time(&l[f], pass);
			l[i].has |= pass;
		}
	}
	return 0;
}

int db_flows_each(struct db *db, db_flow_fn fn, void *ctx, struct err *e)
{
	struct link *l = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	if (!db_has(db, DBT_PYTORCH_API) || !db_has(db, DBT_CONNECTION_IDS) ||
	    !dbi_has_col(db, DBT_PYTORCH_API, "connectionId") ||
	    !dbi_has_col(db, DBT_TASK, "connectionId"))
		return 0;
	/* No nested scans: each table is read once, each row looked up in
	 * the sorted pairs, O((links + ops + tasks) log links), whatever
	 * the ids repeat (an op's or a task's connectionId shared by
	 * thousands was a product of the three tables). */
	rc = links_read(db, &l, &n, &alloc, e);
	if (!rc && n)
		rc = links_min(db,
		               "SELECT connectionId, startNs FROM PYTORCH_API",
		               "PYTORCH_API", l, n, 0, 1, e);
	if (!rc && n) {
		qsort(l, n, sizeof(*l), cmp_link_conn);
		rc = links_min(db, "SELECT connectionId, startNs FROM TASK",
		               "TASK", l, n, 1, 2, e);
	}
	for (i = 0; !rc && i < n; i++)
		if (l[i].has == 3)
			fn(l[i].host, l[i].dev, ctx);
	membudget_release((uint64_t)alloc * sizeof(*l));
	free(l);
	return rc;
}

/* ---- communication ------------------------------------------------------
 */

struct enum_row {
	int64_t id;
	char *name;
};

struct enum_map {
	struct enum_row *v;
	size_t n;
};

static int cmp_enum(const void *a, const void *b)
{
	int64_t x = ((const struct enum_row *)a)->id;
	int64_t y = ((const struct enum_row *)b)->id;
	return (x > y) - (x < y);
}

static int load_enum(struct db *db, enum db_table t, struct enum_map *m,
                     struct err *e)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&sql, "SELECT id, name FROM %s LIMIT %d", db_table_names[t],
	            ENUM_MAX);
	st = dbi_prep(db, sql.buf, db_table_names[t], e);
	strbuf_release(&sql);
	if (!st)
		return -1;
	m->v = xcalloc(ENUM_MAX, sizeof(*m->v));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 1);
		int64_t id;
		if (v && !dbi_i64(st, 0, &id) &&
		    sqlite3_column_bytes(st, 1) <= ENUM_NAME_MAX) {
			m->v[m->n].id = id;
			m->v[m->n++].name = xstrdup((const char *)v);
		}
	}
	sqlite3_finalize(st);
	qsort(m->v, m->n, sizeof(*m->v), cmp_enum);
	return dbi_done(db, rc, db_table_names[t], e);
}

static const char *enum_name(const struct enum_map *m, sqlite3_stmt *st, int i)
{
	struct enum_row key, *r;

	if (dbi_i64(st, i, &key.id))
		return NULL;
	r = bsearch(&key, m->v, m->n, sizeof(*m->v), cmp_enum);
	return r ? r->name : NULL;
}

static void free_enum(struct enum_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
}

/* A merge of two ordered queries: COMMUNICATION_OP by opId and their tasks
 * by (opId, planeId, start). */
struct comm_read {
	struct db *db;
	sqlite3_stmt *ops, *tasks;
	int trc; /* last sqlite3_step result of tasks */
	struct enum_map xport, link;
	struct hccl_op op;
	struct strbuf type;
	struct db_step *steps;
	size_t nsteps;
	struct idmap stepset;
	uint64_t detailed;
};

static int comm_prepare(struct comm_read *c, struct err *e)
{
	struct db *db = c->db;
	struct strbuf sql = STRBUF_INIT;

	c->ops = dbi_prep(db,
	                  "SELECT opId, opName, startNs, endNs FROM "
	                  "COMMUNICATION_OP ORDER BY opId",
	                  "COMMUNICATION_OP", e);
	strbuf_addf(&sql,
	            "SELECT c.opId, c.planeId, c.taskType, c.transportType, "
	            "c.linkType, %s, t.startNs, t.endNs FROM "
	            "COMMUNICATION_TASK_INFO c JOIN TASK t ON " DBI_ID_JOIN(
	                "t.globalTaskId",
	                "c.globalTaskId") " ORDER BY c.opId, c.planeId, "
	                                  "t.startNs, "
	                                  "c.globalTaskId",
	            dbi_has_col(db, DBT_COMMUNICATION_TASK_INFO, "size")
	                ? "c.size"
	                : "0");
	c->tasks =
	    c->ops ? dbi_prep(db, sql.buf, "COMMUNICATION_TASK_INFO", e) : NULL;
	strbuf_release(&sql);
	if (!c->tasks)
		return -1;
	c->trc = sqlite3_step(c->tasks);
	return 0;
}

/* The STRING_IDS value of the id in column i appended to out, as
 * dbi_str: 1 (out untouched) when the column holds no id (NULL, not an
 * integer): a NULL is no id, not the id 0. */
static int col_str(struct db *db, sqlite3_stmt *st, int i, struct strbuf *out,
                   struct err *e)
{
	int64_t id;

	return dbi_i64(st, i, &id) ? 1 : dbi_str(db, id, out, e);
}

/* Feeds the tasks of operation id (skipping those of unknown ones). */
static int comm_tasks(struct comm_read *c, int64_t id, struct err *e)
{
	struct db *db = c->db;
	int64_t tid;

	for (; c->trc == SQLITE_ROW; c->trc = sqlite3_step(c->tasks)) {
		struct hccl_task t;
		if (dbi_i64(c->tasks, 0, &tid) || tid < id)
			continue;
		if (tid > id)
			return 0;
		strbuf_reset(&c->type);
		if (dbi_i64(c->tasks, 1, &t.plane) ||
		    dbi_i64(c->tasks, 6, &t.start_ns) ||
		    dbi_i64(c->tasks, 7, &t.end_ns) ||
		    col_str(db, c->tasks, 2, &c->type, e) < 0)
			continue;
		t.type = c->type.buf;
		t.transport = enum_name(&c->xport, c->tasks, 3);
		t.link = enum_name(&c->link, c->tasks, 4);
		if (dbi_i64(c->tasks, 5, &t.size))
			t.size = 0;
		if (hccl_op_task(&c->op, &t))
			return err_set(e, ERR_INPUT,
			               "%s: communication operation %" PRId64
			               " has more than %u tasks",
			               db->path, id, HCCL_MAX_TASKS);
	}
	return e->code ? -1 : 0;
}

static int comm_ops(struct comm_read *c, struct commstats *cs, struct err *e)
{
	struct db *db = c->db;
	int rc;

	while ((rc = sqlite3_step(c->ops)) == SQLITE_ROW) {
		int64_t id, a, b;
		if (dbi_i64(c->ops, 0, &id) || dbi_i64(c->ops, 2, &a) ||
		    dbi_i64(c->ops, 3, &b) || b < a)
			continue;
		strbuf_reset(&db->tmp);
		if (col_str(db, c->ops, 1, &db->tmp, e) < 0)
			return -1;
		hccl_op_begin(&c->op, db->tmp.buf, a, b);
		c->op.detailed = 0;
		if (comm_tasks(c, id, e))
			return -1;
		c->detailed += c->op.detailed;
		idset_add(&c->stepset, dbi_step_of(c->steps, c->nsteps, a));
		hccl_op_end(&c->op, cs);
	}
	if (dbi_done(db, rc, "COMMUNICATION_OP", e))
		return -1;
	if (c->trc != SQLITE_ROW && c->trc != SQLITE_DONE)
		return dbi_fail(db, "COMMUNICATION_TASK_INFO", e);
	/* communication.json has one key per step, or "step" alone */
	cs->nsteps = c->stepset.n - idset_has(&c->stepset, STEP_NONE);
	if (!cs->nsteps && cs->ops)
		cs->nsteps = 1;
	return 0;
}

int db_read_comm(struct db *db, struct commstats *cs, struct err *e)
{
	struct comm_read c;
	int rc = 1;

	memset(cs, 0, sizeof(*cs));
	if (!db_has(db, DBT_COMMUNICATION_OP) ||
	    !db_has(db, DBT_COMMUNICATION_TASK_INFO) ||
	    !db_has(db, DBT_ENUM_HCCL_TRANSPORT_TYPE) ||
	    !db_has(db, DBT_ENUM_HCCL_LINK_TYPE) ||
	    !dbi_has_col(db, DBT_COMMUNICATION_OP, "opId") ||
	    !dbi_has_col(db, DBT_COMMUNICATION_TASK_INFO, "transportType") ||
	    !dbi_has_col(db, DBT_COMMUNICATION_TASK_INFO, "linkType"))
		return 1;
	memset(&c, 0, sizeof(c));
	c.db = db;
	hccl_op_init(&c.op);
	strbuf_init(&c.type);
	cs->path = xstrdup(db->path);
	cs->size = db->about.size;
	if (dbi_check_ids(db, e) ||
	    load_enum(db, DBT_ENUM_HCCL_TRANSPORT_TYPE, &c.xport, e) ||
	    load_enum(db, DBT_ENUM_HCCL_LINK_TYPE, &c.link, e) ||
	    db_read_steps(db, &c.steps, &c.nsteps, e) || comm_prepare(&c, e) ||
	    comm_ops(&c, cs, e))
		rc = -1;
	else
		rc = c.detailed ? 0 : 1;
	sqlite3_finalize(c.ops);
	sqlite3_finalize(c.tasks);
	free_enum(&c.xport);
	free_enum(&c.link);
	db_steps_free(c.steps, c.nsteps);
	idmap_release(&c.stepset);
	hccl_op_release(&c.op);
	strbuf_release(&c.type);
	return rc;
}
