/* The db export reader (see db.h), part 2: the kernels, from
 * COMPUTE_TASK_INFO x TASK and COMMUNICATION_OP. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tasktype.h"
#include "input/db.h"
#include "input/db_int.h"
#include "input/kernels.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define KEY_CACHE  65536 /* kernel-key cache slots at most (power of 2) */
#define TYPE_CACHE 256   /* TASK.taskType id -> class slots (power of 2) */

/* A STRING_IDS id from a column, or none (the column is absent, NULL or
 * not an integer). Whether there is one is a flag beside the id, never a
 * value of its own: every 64-bit id, -1 and -2 included, is an id. */
struct sid {
	int64_t v; /* 0 when !set */
	int set;
};

/* Where a kernel's core (Accelerator Core) comes from. */
enum core_from {
	CORE_NONE, /* no taskType: "N/A" */
	CORE_ID,   /* COMPUTE_TASK_INFO.taskType, through STRING_IDS */
	CORE_HCCL  /* a COMMUNICATION_OP row: "HCCL" */
};

/* The set bits of a key_slot (kept to 32 bytes: the cache holds 65,536
 * of them). */
#define HAS_NAME 1u
#define HAS_TYPE 2u
#define HAS_CORE 4u

/* A (name, opType, taskType) id triple and the kernel key it makes: each
 * id valid when its HAS_ bit is set in `set`; `from` an enum core_from. */
struct key_slot {
	int64_t name, type, core;
	uint32_t key;
	unsigned char used, by_name, set, from;
};

/* One pass over a kernel table's rows. */
struct kread {
	struct db *db;
	int strict;
	struct kernel_table *kt;
	struct kernels_info *info;
	struct db_step *steps;
	size_t nsteps;
	struct key_slot *keys;
	size_t nkeys;      /* slots of keys: a power of 2 */
	size_t step_hint;  /* index of the last kernel's step */
	const char *table; /* of the current row, for messages */
	sqlite3_stmt *cur; /* its statement (column 5: its identity) */
	int64_t ordinal;   /* its number, when it has no identity */
	struct strbuf name, type, core, key, msg;
	uint64_t typed; /* compute kernels with a real opType */
	/* TASK.taskType ids met and their class (core/tasktype.h) */
	struct {
		int64_t id;
		int cls;
		int used;
		/* an unknown type's name as its tally keeps it (cut):
		 * a 1 MiB name is not fetched again for every row */
		size_t nlen;
		char name[TASK_UNKNOWN_NAME_MAX];
	} tcls[TYPE_CACHE];
};

/* The current row's identity (globalTaskId, opId, else its number): asked
 * for only when a row is bad. */
static int64_t row_id(const struct kread *r)
{
	int64_t v;

	return dbi_i64(r->cur, 5, &v) ? r->ordinal : v;
}

/* Skips the current row (an error under strict): code and args as
 * kernels.c's row warnings, value quoted. Returns -1 when it is an error. */
static int skip_row(struct kread *r, const char *code, const char *col,
                    const char *what, const char *value, size_t len,
                    struct err *e)
{
	struct kernels_info *in = r->info;
	struct row_warning *w;
	int64_t row = row_id(r);

	strbuf_reset(&r->msg);
	strbuf_add_quoted_value(&r->msg, value, len, DBI_QUOTE_MAX);
	in->skipped++;
	if (r->strict)
		return err_set(
		    e, ERR_INPUT,
		    "%s: %s row %" PRId64 ": column '%s': %s: %s (--strict)",
		    r->db->path, r->table, row, col, what, r->msg.buf);
	if (in->nwarn >= KERNELS_MAX_WARNINGS)
		return 0;
	in->warn = xrealloc(in->warn, (in->nwarn + 1) * sizeof(*in->warn));
	w = &in->warn[in->nwarn++];
	memset(w, 0, sizeof(*w));
	w->line = row >= 0 ? (uint64_t)row : 0;
	w->reason = xstrfmt("%s row %" PRId64 ": column '%s': %s: %s", r->table,
	                    row, col, what, r->msg.buf);
	w->code = code;
	w->args[0] = xstrdup(r->table);
	w->args[1] = xstrdup(col);
	w->args[2] = xstrdup(r->msg.buf);
	return 0;
}

/* String id of column col into out; 1 (row skipped) when there is no id
 * or it is not in STRING_IDS. */
static int row_str(struct kread *r, struct sid id, const char *col,
                   struct strbuf *out, struct err *e)
{
	char num[32] = "NULL";
	int rc;

	strbuf_reset(out);
	if (id.set && (rc = dbi_str(r->db, id.v, out, e)) <= 0)
		return rc;
	if (id.set)
		snprintf(num, sizeof(num), "%" PRId64, id.v);
	return skip_row(r, "db_no_string", col, "not an id of STRING_IDS", num,
	                strlen(num), e)
	           ? -1
	           : 1;
}

static int is_na(const struct strbuf *s)
{
	return !s->len || !strcmp(s->buf, "N/A");
}

/* A key over the caps or the budget (kernel_table_key): -1 with e set. */
static int key_fail(struct kread *r, uint64_t cost, struct err *e)
{
	if (cost)
		return membudget_fail(
		    e, cost,
		    "%s: %s row %" PRId64 ": kernel types (%u distinct)",
		    r->db->path, r->table, row_id(r), r->kt->keys.n);
	return err_set(e, ERR_INPUT,
	               "%s: %s row %" PRId64 ": more than %s distinct kernel "
	               "types or %s of their names: not a profile sdperf "
	               "can summarise",
	               r->db->path, r->table, row_id(r), KERNELS_MAX_TYPES_TEXT,
	               KERNELS_MAX_KEY_TEXT);
}

/* The key of a triple not in the cache: 0, 1 (row skipped) or -1. */
static int resolve_key(struct kread *r, struct key_slot *k, struct err *e)
{
	struct sid name = {k->name, !!(k->set & HAS_NAME)};
	struct sid type = {k->type, !!(k->set & HAS_TYPE)};
	struct sid core = {k->core, !!(k->set & HAS_CORE)};
	const char *t;
	size_t tl, bad;
	uint64_t cost;
	int rc;

	if ((rc = row_str(r, name, "name", &r->name, e)) ||
	    (type.set && (rc = row_str(r, type, "opType", &r->type, e))))
		return rc;
	strbuf_reset(&r->core);
	if (k->from == CORE_HCCL)
		strbuf_adds(&r->core, "HCCL");
	else if (k->from == CORE_NONE)
		strbuf_adds(&r->core, "N/A");
	else if ((rc = row_str(r, core, "taskType", &r->core, e)))
		return rc;
	if (!type.set)
		strbuf_reset(&r->type);
	t = r->type.buf;
	tl = r->type.len;
	k->by_name = is_na(&r->type);
	if (k->by_name)
		tl = kernels_type_from_name(r->name.buf, r->name.len, &t);
	if (!tl || !utf8_is_text(t, tl, &bad))
		return skip_row(r, "db_bad_value",
		                k->by_name ? "name" : "opType",
		                tl ? "not valid UTF-8 text" : "empty",
		                k->by_name ? r->name.buf : t,
		                k->by_name ? r->name.len : tl, e)
		           ? -1
		           : 1;
	if (!utf8_is_text(r->core.buf, r->core.len, &bad))
		return skip_row(r, "db_bad_value", "taskType",
		                "not valid UTF-8 text", r->core.buf,
		                r->core.len, e)
		           ? -1
		           : 1;
	kernels_make_key(&r->key, t, tl, r->core.buf, r->core.len, r->name.buf,
	                 r->name.len);
	if (kernel_table_key(r->kt, r->key.buf, r->key.len, &k->key, &cost))
		return key_fail(r, cost, e);
	k->used = 1;
	return 0;
}

static int kernel_key(struct kread *r, struct sid name, struct sid type,
                      enum core_from from, struct sid core,
                      struct key_slot **out, struct err *e)
{
	unsigned set = (name.set ? HAS_NAME : 0) | (type.set ? HAS_TYPE : 0) |
	               (core.set ? HAS_CORE : 0);
	uint64_t h = ((uint64_t)name.v * 0x9E3779B97F4A7C15ull) ^
	             ((uint64_t)type.v * 0xC2B2AE3D27D4EB4Full) ^
	             ((uint64_t)core.v * 0x165667B19E3779F9ull) ^
	             ((uint64_t)(set << 2 | (unsigned)from) << 40);
	struct key_slot *k = &r->keys[(h ^ h >> 29) & (r->nkeys - 1)];

	*out = k;
	if (k->used && k->name == name.v && k->type == type.v &&
	    k->core == core.v && k->set == set && k->from == (unsigned)from)
		return 0;
	k->used = 0;
	k->name = name.v;
	k->type = type.v;
	k->core = core.v;
	k->set = (unsigned char)set;
	k->from = (unsigned char)from;
	return resolve_key(r, k, e);
}

/* A column holding a STRING_IDS id: none when NULL or not an integer. */
static struct sid col_id(sqlite3_stmt *st, int i)
{
	struct sid id = {0, 0};

	if (!dbi_i64(st, i, &id.v))
		id.set = 1;
	else
		id.v = 0;
	return id;
}

/* Times of the row in columns i, i+1: 0, 1 (row skipped) or -1. */
static int row_times(struct kread *r, sqlite3_stmt *st, int i, int64_t *start,
                     int64_t *end, struct err *e)
{
	int bad_start = dbi_i64(st, i, start) || *start < 0;
	int bad_end = !bad_start && (dbi_i64(st, i + 1, end) || *end < *start);
	const unsigned char *v;

	if (!bad_start && !bad_end)
		return 0;
	v = sqlite3_column_text(st, i + bad_end);
	return skip_row(r, "db_bad_value", bad_start ? "startNs" : "endNs",
	                bad_start ? "not a time in ns"
	                          : "not a time in ns at or after startNs",
	                v ? (const char *)v : "NULL",
	                v ? (size_t)sqlite3_column_bytes(st, i + bad_end) : 4,
	                e)
	           ? -1
	           : 1;
}

/* Index of the step holding t (as dbi_step_of finds it), or n. */
static size_t step_index(const struct db_step *s, size_t n, int64_t t)
{
	size_t lo = sortcmp_upper_i64(s, n, sizeof(*s),
	                              offsetof(struct db_step, start_ns), t);

	return lo > 0 && s[lo - 1].end_ns >= t ? lo - 1 : n;
}

/* The kernel table's growth refused (kernel_table_reserve's rc): -1. */
static int table_fail(struct kread *r, int rc, uint64_t cost, struct err *e)
{
	if (rc == -1)
		return membudget_fail(
		    e, cost,
		    "%s: %s row %" PRId64 ": kernel table (%zu kernels read)",
		    r->db->path, r->table, row_id(r), r->kt->n);
	if (rc == -2)
		return err_set(e, ERR_INPUT,
		               "%s: more than %u kernels in one rank",
		               r->db->path, (unsigned)KERNELS_MAX);
	return err_set(e, ERR_INPUT,
	               "%s: out of memory for the kernel table (%zu kernels "
	               "read): lower --max-memory",
	               r->db->path, r->kt->n);
}

/* 0, or -1 with e set when the table cannot grow. */
static int add_kernel(struct kread *r, int64_t start, int64_t end,
                      const struct key_slot *k, struct err *e)
{
	struct kernel_table *kt = r->kt;
	struct kernel *x;
	uint64_t cost;
	int rc;

	if (kt->n == kt->alloc && (rc = kernel_table_reserve(kt, &cost)))
		return table_fail(r, rc, cost, e);
	x = &kt->v[kt->n++];
	x->start_ns = start;
	x->dur_ns = end - start;
	x->key = k->key;
	/* kernels come mostly in time order: try the last one's step first */
	if (r->step_hint >= r->nsteps ||
	    r->steps[r->step_hint].start_ns > start ||
	    r->steps[r->step_hint].end_ns < start ||
	    (r->step_hint + 1 < r->nsteps &&
	     r->steps[r->step_hint + 1].start_ns <= start))
		r->step_hint = step_index(r->steps, r->nsteps, start);
	x->step =
	    r->step_hint < r->nsteps ? r->steps[r->step_hint].id : STEP_NONE;
	r->info->na_type += k->by_name;
	return 0;
}

/* Whether a compute row is a kernel by its TASK.taskType (column 6, a
 * STRING_IDS id; core/tasktype.h): 0 when it is (or has no type, one
 * that says nothing, or an id STRING_IDS lacks), 1 when it is left out (a
 * communication or runtime task, or a type not in the table: tallied), -1 on a
 * read error. */
static int task_left_out(struct kread *r, sqlite3_stmt *st, int64_t start,
                         int64_t end, struct err *e)
{
	struct sid sid = col_id(st, 6);
	int64_t id = sid.v;
	uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 56) & (TYPE_CACHE - 1);
	int cls, rc;

	if (!sid.set)
		return 0;
	if (r->tcls[i].used && r->tcls[i].id == id) {
		cls = r->tcls[i].cls;
	} else {
		strbuf_reset(&r->msg);
		if ((rc = dbi_str(r->db, id, &r->msg, e)) < 0)
			return -1;
		/* an id STRING_IDS lacks says nothing: the row is kept as
		 * COMPUTE_TASK_INFO has it, as without the column */
		cls = rc ? TASK_BY_NAME
		         : (int)task_class_of(r->msg.buf, r->msg.len);
		r->tcls[i].id = id;
		r->tcls[i].cls = cls;
		r->tcls[i].used = 1;
		r->tcls[i].nlen = r->msg.len < TASK_UNKNOWN_NAME_MAX
		                      ? r->msg.len
		                      : TASK_UNKNOWN_NAME_MAX;
		memcpy(r->tcls[i].name, r->msg.buf, r->tcls[i].nlen);
	}
	if (cls == TASK_KERNEL || cls == TASK_BY_NAME)
		return 0;
	if (cls != TASK_UNKNOWN) {
		r->db->about.task_left_out++;
		return 1;
	}
	task_unknown_add(&r->db->about.unknown, r->tcls[i].name,
	                 r->tcls[i].nlen, end - start);
	return 1;
}

/* Runs sql (columns: start, end, name id, type id, core id, row id, and
 * for compute rows TASK's task type id) over table; core "HCCL" when
 * hccl. */
static int read_rows(struct kread *r, const char *sql, const char *table,
                     int hccl, struct err *e)
{
	sqlite3_stmt *st = dbi_prep(r->db, sql, table, e);
	struct key_slot *k;
	int64_t start, end;
	int rc = SQLITE_DONE, x;

	if (!st)
		return -1;
	r->table = table;
	r->cur = st;
	r->ordinal = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->info->rows++;
		r->ordinal++;
		x = row_times(r, st, 0, &start, &end, e);
		if (!x && !hccl)
			x = task_left_out(r, st, start, end, e);
		if (!x) {
			struct sid core = col_id(st, 4);
			x = kernel_key(r, col_id(st, 2), col_id(st, 3),
			               hccl       ? CORE_HCCL
			               : core.set ? CORE_ID
			                          : CORE_NONE,
			               core, &k, e);
		}
		if (x < 0)
			break;
		if (x)
			continue;
		if (add_kernel(r, start, end, k, e))
			break;
		r->typed += !hccl && !k->by_name;
	}
	r->cur = NULL;
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW) /* stopped by an error */
		return -1;
	return dbi_done(r->db, rc, table, e);
}

static int count_rows(struct db *db, enum db_table t, uint64_t *n,
                      struct err *e)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&sql, "SELECT count(*) FROM %s", db_table_names[t]);
	st = dbi_prep(db, sql.buf, db_table_names[t], e);
	strbuf_release(&sql);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : dbi_fail(db, db_table_names[t], e);
}

static int read_compute(struct kread *r, struct err *e)
{
	struct db *db = r->db;
	struct strbuf sql = STRBUF_INIT;
	uint64_t before = r->info->rows;
	int rc;

	if (!db_has(db, DBT_COMPUTE_TASK_INFO))
		return 0;
	strbuf_addf(
	    &sql,
	    "SELECT t.startNs, t.endNs, c.name, %s, %s, c.globalTaskId, %s "
	    "FROM COMPUTE_TASK_INFO c JOIN TASK t "
	    "ON " DBI_ID_JOIN("t.globalTaskId", "c.globalTaskId"),
	    dbi_has_col(db, DBT_COMPUTE_TASK_INFO, "opType") ? "c.opType"
	                                                     : "NULL",
	    dbi_has_col(db, DBT_COMPUTE_TASK_INFO, "taskType") ? "c.taskType"
	                                                       : "NULL",
	    dbi_has_col(db, DBT_TASK, "taskType") ? "t.taskType" : "NULL");
	rc = count_rows(db, DBT_COMPUTE_TASK_INFO, &db->about.compute_rows, e);
	if (!rc) {
		/* room for them at once (not by doubling and copying), but
		 * no more than the file could hold: a real db takes ~175
		 * bytes a kernel, and rows without a TASK take no room */
		uint64_t room = (uint64_t)db->about.size / 64, cost;
		uint64_t want = r->kt->n + (db->about.compute_rows < room
		                                ? db->about.compute_rows
		                                : room);
		int x = kernel_table_reserve_for(
		    r->kt, want < KERNELS_MAX ? (size_t)want : KERNELS_MAX,
		    &cost);
		if (x)
			rc = membudget_fail(
			    e, cost,
			    "%s: COMPUTE_TASK_INFO: kernel table "
			    "of %" PRIu64 " rows",
			    db->path, want);
		else if (!(rc = dbi_check_ids(db, e)))
			rc = read_rows(r, sql.buf, "COMPUTE_TASK_INFO", 0, e);
	}
	strbuf_release(&sql);
	if (!rc && db->about.compute_rows > r->info->rows - before)
		db->about.unjoined =
		    db->about.compute_rows - (r->info->rows - before);
	return rc ? -1 : 0;
}

static int read_comm_ops(struct kread *r, struct err *e)
{
	struct db *db = r->db;
	struct strbuf sql = STRBUF_INIT;
	uint64_t before = r->info->rows;
	int rc;

	if (!db_has(db, DBT_COMMUNICATION_OP))
		return 0;
	strbuf_addf(
	    &sql,
	    "SELECT startNs, endNs, opName, %s, NULL, %s FROM "
	    "COMMUNICATION_OP",
	    dbi_has_col(db, DBT_COMMUNICATION_OP, "opType") ? "opType" : "NULL",
	    dbi_has_col(db, DBT_COMMUNICATION_OP, "opId") ? "opId" : "NULL");
	rc = read_rows(r, sql.buf, "COMMUNICATION_OP", 1, e);
	strbuf_release(&sql);
	db->about.comm_ops = r->info->rows - before;
	return rc;
}

static void describe(struct kread *r)
{
	const struct db_about *a = &r->db->about;
	struct kernels_info *in = r->info;

	in->path = xstrdup(a->path);
	in->size = a->size;
	in->level = r->typed > 0;
	in->era = "db";
	in->device_id = a->device_id;
	in->variant = xstrfmt("db export (SQLite), schema %s, level%d%s%s%s",
	                      a->schema_version ? a->schema_version : "unknown",
	                      in->level, a->block_col ? ", " : "",
	                      a->block_col ? a->block_col : "",
	                      a->block_col ? " columns" : "");
}

int db_read_kernels(struct db *db, int strict, struct kernel_table *kt,
                    struct kernels_info *info, struct err *e)
{
	struct kread r;
	size_t before = kt->n;
	int rc;

	memset(&r, 0, sizeof(r));
	memset(info, 0, sizeof(*info));
	r.db = db;
	r.strict = strict;
	r.kt = kt;
	r.info = info;
	/* a slot per 64 bytes of file, 1,024 to KEY_CACHE: a small db
	 * holds few distinct kernels and clears no 2 MiB cache */
	for (r.nkeys = 1024;
	     r.nkeys < KEY_CACHE && (int64_t)r.nkeys * 64 < db->about.size;
	     r.nkeys *= 2)
		;
	r.keys = xcalloc(r.nkeys, sizeof(*r.keys));
	strbuf_init(&r.name);
	strbuf_init(&r.type);
	strbuf_init(&r.core);
	strbuf_init(&r.key);
	strbuf_init(&r.msg);
	info->device_id = -1;
	/* the ids are checked once the kernel table has its room (a db
	 * too big for the budget is refused before its rows are sorted) */
	rc = db_read_steps(db, &r.steps, &r.nsteps, e) || read_compute(&r, e) ||
	     dbi_check_ids(db, e) || read_comm_ops(&r, e);
	describe(&r);
	kernel_table_fit(kt);
	db->about.typed_by_name = info->na_type;
	if (!rc && kt->n == before)
		rc = err_set(e, ERR_INPUT,
		             "%s: no kernels: COMPUTE_TASK_INFO and "
		             "COMMUNICATION_OP have no usable rows (%s; a "
		             "profile without ProfilerActivity.NPU?)",
		             db->path,
		             info->skipped ? "every row was malformed"
		                           : "the tables are empty or absent");
	db_steps_free(r.steps, r.nsteps);
	free(r.keys);
	strbuf_release(&r.name);
	strbuf_release(&r.type);
	strbuf_release(&r.core);
	strbuf_release(&r.key);
	strbuf_release(&r.msg);
	return rc ? -1 : 0;
}
