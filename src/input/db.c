/* The db export reader (see db.h), part 1: opening safely, probing the
 * schema, STRING_IDS, META_DATA, RANK_DEVICE_MAP and STEP_TIME. The
 * module's other parts: db_kernels.c, db_rows.c; db_int.h binds them. */
#include "input/db.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/db_int.h"
#include "util/decimal.h"
#include "util/fileio.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define STR_CACHE 4096 /* string-id cache slots (power of 2) */
/* Longest value the cache keeps: a value may be DB_MAX_VALUE (1 MiB) long,
 * and 4,096 such copies would hold 4 GiB outside --max-memory; with this
 * cap the cache holds at most 4 MiB. Longer values are read each time. */
#define STR_CACHE_LEN 1024

/* Columns the reader needs (NULL-terminated); a table lacking one is
 * unusable. Optional columns are asked for by dbi_has_col(). */
static const char *const c_task[] = {"startNs", "endNs", "globalTaskId", NULL};
static const char *const c_compute[] = {"name", "globalTaskId", NULL};
static const char *const c_comm_op[] = {"opName", "startNs", "endNs", NULL};
static const char *const c_comm_task[] = {"globalTaskId", "taskType", "planeId",
                                          "opId", NULL};
static const char *const c_id_value[] = {"id", "value", NULL};
static const char *const c_id_name[] = {"id", "name", NULL};
static const char *const c_step[] = {"id", "startNs", "endNs", NULL};
static const char *const c_overlap[] = {"type", "startNs", "endNs", NULL};
static const char *const c_api[] = {"startNs", "endNs", "name", NULL};
static const char *const c_conn[] = {"id", "connectionId", NULL};
static const char *const c_mstx[] = {"startNs", "endNs", "message", NULL};
static const char *const c_meta[] = {"name", "value", NULL};
static const char *const c_rank[] = {"rankId", NULL};
static const char *const c_npu[] = {"name", NULL};
static const char *const c_mem[] = {"component", "timestamp", "totalAllocated",
                                    "totalReserved", NULL};
static const char *const c_npu_mem[] = {"type", "hbm", "timestampNs", NULL};
static const char *const c_host[] = {"hostName", NULL};

const char *const db_table_names[DBT_COUNT] = {"TASK",
                                               "COMPUTE_TASK_INFO",
                                               "COMMUNICATION_OP",
                                               "COMMUNICATION_TASK_INFO",
                                               "STRING_IDS",
                                               "STEP_TIME",
                                               "OVERLAP_ANALYSIS",
                                               "PYTORCH_API",
                                               "CONNECTION_IDS",
                                               "MSTX_EVENTS",
                                               "META_DATA",
                                               "RANK_DEVICE_MAP",
                                               "ENUM_HCCL_TRANSPORT_TYPE",
                                               "ENUM_HCCL_LINK_TYPE",
                                               "ENUM_API_TYPE",
                                               "NPU_INFO",
                                               "MEMORY_RECORD",
                                               "NPU_MEM",
                                               "HOST_INFO"};

static const char *const *const table_cols[DBT_COUNT] = {
    c_task, c_compute, c_comm_op, c_comm_task, c_id_value,
    c_step, c_overlap, c_api,     c_conn,      c_mstx,
    c_meta, c_rank,    c_id_name, c_id_name,   c_id_name,
    c_npu,  c_mem,     c_npu_mem, c_host};

/* ---- errors -------------------------------------------------------------
 */

/* The error SQLite reported on db->h while doing `what`. */
int dbi_fail(struct db *db, const char *what, struct err *e)
{
	int rc = sqlite3_extended_errcode(db->h) & 0xff;
	const char *m = sqlite3_errmsg(db->h);

	if (rc == SQLITE_NOTADB)
		return err_set(e, ERR_INPUT,
		               "%s: not an SQLite database (%s, while "
		               "reading %s)",
		               db->path, m, what);
	if (rc == SQLITE_CORRUPT)
		return err_set(e, ERR_INPUT,
		               "%s: corrupt SQLite database (%s, while reading "
		               "%s)",
		               db->path, m, what);
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return err_set(e, ERR_INPUT,
		               "%s: locked (%s, while reading %s)", db->path, m,
		               what);
	if (rc == SQLITE_TOOBIG)
		return err_set(e, ERR_INPUT,
		               "%s: a value longer than %u bytes in %s",
		               db->path, DB_MAX_VALUE, what);
	return err_set(e, ERR_INPUT, "%s: cannot read %s: %s", db->path, what,
	               m);
}

sqlite3_stmt *dbi_prep(struct db *db, const char *sql, const char *what,
                       struct err *e)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		dbi_fail(db, what, e);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* After a loop of sqlite3_step: 0 when it ended with SQLITE_DONE. */
int dbi_done(struct db *db, int rc, const char *what, struct err *e)
{
	return rc == SQLITE_DONE ? 0 : dbi_fail(db, what, e);
}

/* Column i as an exact integer: INTEGER, TEXT holding a decimal integer
 * (PYTORCH_API keeps its times as text) or an integral REAL. 0, or -1. */
int dbi_i64(sqlite3_stmt *st, int i, int64_t *v)
{
	/* one column call, then cheap value calls: this is the per-row
	 * cost of every reader */
	sqlite3_value *x = sqlite3_column_value(st, i);
	const char *s;
	double d;

	switch (sqlite3_value_type(x)) {
	case SQLITE_INTEGER:
		*v = sqlite3_value_int64(x);
		return 0;
	case SQLITE_TEXT:
		s = (const char *)sqlite3_value_text(x);
		return s ? decimal_to_i64(s, (size_t)sqlite3_value_bytes(x), v)
		         : -1;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(x);
		if (!(d >= -9.2e18 && d <= 9.2e18) || d != (double)(int64_t)d)
			return -1;
		*v = (int64_t)d;
		return 0;
	default:
		return -1;
	}
}

/* ---- opening ------------------------------------------------------------
 */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The file is a regular SQLite file, whole as far as its header says. */
static int check_header(const char *path, int64_t *size, struct err *e)
{
	unsigned char h[100];
	struct strbuf q = STRBUF_INIT;
	ssize_t n;
	uint64_t page, pages;
	int fd = fileio_open_regular(path, size, e);

	if (fd < 0)
		return -1;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n >= 16 && n < (ssize_t)sizeof(h) &&
	    !memcmp(h, "SQLite format 3", 16))
		return err_set(e, ERR_INPUT,
		               "%s: truncated: %zd bytes, shorter than an "
		               "SQLite header",
		               path, n);
	if (n < (ssize_t)sizeof(h) || memcmp(h, "SQLite format 3", 16)) {
		strbuf_add_quoted_value(&q, (const char *)h,
		                        n > 0 ? (size_t)n : 0, 24);
		err_set(e, ERR_INPUT,
		        "%s: not an SQLite database (it starts with %s)", path,
		        q.buf);
		strbuf_release(&q);
		return -1;
	}
	page = (uint64_t)h[16] << 8 | h[17];
	page = page == 1 ? 65536 : page;
	pages = be32(h + 28);
	/* the page count is valid when version-valid-for = change counter;
	 * a page size that is no power of two is SQLite's to refuse */
	if (page >= 512 && !(page & (page - 1)) &&
	    be32(h + 92) == be32(h + 24) && pages &&
	    pages * page > (uint64_t)*size)
		return err_set(e, ERR_INPUT,
		               "%s: truncated: its header says %" PRIu64
		               " bytes, the file has %" PRId64,
		               path, pages * page, *size);
	return 0;
}

/* A conflicting lock on [start, start + len) of path held by another
 * process: 1, else 0 (also when path does not exist). */
static int writer_lock(const char *path, off_t start, off_t len)
{
	struct flock fl;
	int fd = open(path, O_RDONLY), held;

	if (fd < 0)
		return 0;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_RDLCK; /* only a writer's lock conflicts with a read */
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
	close(fd);
	return held;
}

static int64_t side_size(const char *path, const char *suffix)
{
	char *p = xstrfmt("%s%s", path, suffix);
	struct stat st;
	int64_t n = stat(p, &st) ? -1 : (int64_t)st.st_size;

	free(p);
	return n;
}

/* A rollback journal that SQLite would replay: one that starts with the
 * journal magic (PERSIST mode leaves a zeroed one, TRUNCATE an empty one,
 * after a finished write). */
static int hot_journal(const char *path)
{
	static const unsigned char magic[8] = {0xd9, 0xd5, 0x05, 0xf9,
	                                       0x20, 0xa1, 0x63, 0xd7};
	unsigned char h[8];
	char *p = xstrfmt("%s-journal", path);
	int fd = open(p, O_RDONLY), hot = 0;

	free(p);
	if (fd < 0)
		return 0;
	hot = read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) &&
	      !memcmp(h, magic, sizeof(h));
	close(fd);
	return hot;
}

/* Immutable mode ignores writers, so a file still being written is
 * refused here rather than read half-done. */
static int check_finished(const char *path, struct err *e)
{
	/* SQLite's lock bytes: PENDING 0x40000000, RESERVED, 510 SHARED */
	const off_t pending = 0x40000000;
	char *shm = xstrfmt("%s-shm", path);
	int wal_writer = writer_lock(shm, 120, 3); /* WAL write/ckpt/recover */

	free(shm);
	if (writer_lock(path, pending, 512) || wal_writer)
		return err_set(e, ERR_INPUT,
		               "%s: locked by another process that is writing "
		               "it: wait until the profiler has finished",
		               path);
	if (hot_journal(path))
		return err_set(e, ERR_INPUT,
		               "%s: being written, or a write was interrupted: "
		               "%s-journal is beside it; wait until the "
		               "profiler has finished (an interrupted profile "
		               "cannot be read)",
		               path, path);
	if (side_size(path, "-wal") > 0)
		return err_set(
		    e, ERR_INPUT,
		    "%s: being written: %s-wal holds changes not yet "
		    "in the file; wait until the profiler has "
		    "finished (or checkpoint a copy: sqlite3 COPY "
		    "'PRAGMA wal_checkpoint')",
		    path, path);
	return 0;
}

/* file:PATH?mode=ro&immutable=1 with PATH percent-encoded. */
static char *make_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;

	strbuf_adds(&sb, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		int keep = (*p >= 'a' && *p <= 'z') ||
		           (*p >= 'A' && *p <= 'Z') ||
		           (*p >= '0' && *p <= '9') || strchr("/._-~", *p);
		/* "file://" would start an authority: encode a second slash */
		if (*p == '/' && p == (const unsigned char *)path + 1 &&
		    path[0] == '/')
			keep = 0;
		if (keep) {
			strbuf_addch(&sb, *p);
		} else {
			strbuf_addch(&sb, '%');
			strbuf_addch(&sb, hex[*p >> 4]);
			strbuf_addch(&sb, hex[*p & 15]);
		}
	}
	strbuf_adds(&sb, "?mode=ro&immutable=1");
	return strbuf_detach(&sb, NULL);
}

static int open_conn(struct db *db, struct err *e)
{
	char *uri = make_uri(db->path);
	int rc = sqlite3_open_v2(
	    uri, &db->h,
	    SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);

	free(uri);
	if (rc != SQLITE_OK)
		return db->h
		           ? dbi_fail(db, "the file", e)
		           : err_set(e, ERR_INPUT, "%s: cannot open", db->path);
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, DB_MAX_VALUE);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_exec(db->h, "PRAGMA cell_size_check=ON", NULL, NULL, NULL);
	return 0;
}

/* ---- schema -------------------------------------------------------------
 */

static int table_index(const char *name)
{
	int t;

	for (t = 0; t < DBT_COUNT; t++)
		if (!strcmp(name, db_table_names[t]))
			return t;
	return -1;
}

int dbi_has_col(const struct db *db, enum db_table t, const char *col)
{
	const struct strbuf *c = &db->cols[t];
	size_t n = strlen(col);
	const char *p = c->buf;

	while (p && (p = strstr(p, col)))
		if (p > c->buf && p[-1] == '\n' && p[n] == '\n')
			return 1;
		else
			p++;
	return 0;
}

static int read_columns(struct db *db, int t, struct err *e)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&sql, "PRAGMA table_info(\"%s\")", db_table_names[t]);
	st = dbi_prep(db, sql.buf, db_table_names[t], e);
	strbuf_release(&sql);
	if (!st)
		return -1;
	strbuf_addch(&db->cols[t], '\n');
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 1);
		if (c && !strchr(c, '\n')) {
			strbuf_adds(&db->cols[t], c);
			strbuf_addch(&db->cols[t], '\n');
		}
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, db_table_names[t], e);
}

static int find_tables(struct db *db, struct err *e)
{
	sqlite3_stmt *st = dbi_prep(db,
	                            "SELECT name FROM sqlite_master WHERE "
	                            "type = 'table'",
	                            "the schema", e);
	int rc, t;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		if (n && (t = table_index(n)) >= 0)
			db->present |= 1u << t;
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, "the schema", e);
}

static void list_tables(const struct db *db, struct strbuf *sb)
{
	int t, any = 0;

	for (t = 0; t < DBT_COUNT; t++)
		if (db->present & (1u << t)) {
			strbuf_addf(sb, "%s%s", any ? ", " : "",
			            db_table_names[t]);
			any = 1;
		}
	if (!any)
		strbuf_adds(sb, "none of the profiler's");
}

/* Marks each present table usable or, lacking a column, unusable; the
 * kernel tables must be usable. */
static int probe(struct db *db, struct err *e)
{
	int t, k;

	if (find_tables(db, e))
		return -1;
	for (t = 0; t < DBT_COUNT; t++) {
		if (!(db->present & (1u << t)))
			continue;
		if (read_columns(db, t, e))
			return -1;
		for (k = 0; table_cols[t][k]; k++)
			if (!dbi_has_col(db, t, table_cols[t][k]))
				break;
		if (table_cols[t][k])
			db->about.lacks[t] = table_cols[t][k];
		else
			db->about.tables |= 1u << t;
	}
	return 0;
}

/* The columns of table t, comma-separated and sanitized, into sb. */
static void cols_list(const struct db *db, enum db_table t, struct strbuf *sb)
{
	const char *p = db->cols[t].buf ? db->cols[t].buf + 1 : "", *nl;

	for (; (nl = strchr(p, '\n')); p = nl + 1) {
		strbuf_adds(sb, sb->len ? ", " : "");
		strbuf_add_sanitized(sb, p, (size_t)(nl - p));
	}
}

static int require(struct db *db, struct err *e)
{
	static const enum db_table need[] = {DBT_TASK, DBT_COMPUTE_TASK_INFO,
	                                     DBT_COMMUNICATION_OP,
	                                     DBT_STRING_IDS};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!(db->present & (1u << DBT_TASK))) {
		list_tables(db, &sb);
		err_set(e, ERR_INPUT,
		        "%s: no TASK table: not a torch_npu profiler db "
		        "(ascend_pytorch_profiler*.db; tables found: %s)",
		        db->path, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		enum db_table t = need[i];
		if (!db->about.lacks[t])
			continue;
		cols_list(db, t, &sb);
		err_set(e, ERR_INPUT,
		        "%s: table %s has no column '%s' (columns: %s)",
		        db->path, db_table_names[t], db->about.lacks[t],
		        sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	if ((db->about.tables &
	     (1u << DBT_COMPUTE_TASK_INFO | 1u << DBT_COMMUNICATION_OP)) &&
	    !db_has(db, DBT_STRING_IDS))
		return err_set(e, ERR_INPUT,
		               "%s: no STRING_IDS table: the kernel names "
		               "cannot be resolved",
		               db->path);
	return 0;
}

int db_has(const struct db *db, enum db_table t)
{
	return (db->about.tables >> t) & 1u;
}

const struct db_about *db_about(const struct db *db)
{
	return &db->about;
}

/* ---- strings ------------------------------------------------------------
 */

/* STRING_IDS value of id appended to out: 0, 1 when there is no such id,
 * -1 on a read error. Cached: ids repeat (a few hundred kernel names). */
int dbi_str(struct db *db, int64_t id, struct strbuf *out, struct err *e)
{
	struct str_slot *sl;
	const unsigned char *v;
	int rc;

	if (!db->strs)
		db->strs = xcalloc(STR_CACHE, sizeof(*db->strs));
	sl = &db->strs[(uint64_t)id * 0x9E3779B97F4A7C15ull >> 52 &
	               (STR_CACHE - 1)];
	if (sl->s && sl->id == id) {
		strbuf_add(out, sl->s, sl->len);
		return 0;
	}
	if (!db->str_stmt &&
	    !(db->str_stmt =
	          dbi_prep(db, "SELECT value FROM STRING_IDS WHERE id = ?1",
	                   "STRING_IDS", e)))
		return -1;
	sqlite3_reset(db->str_stmt);
	sqlite3_bind_int64(db->str_stmt, 1, id);
	rc = sqlite3_step(db->str_stmt);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return dbi_fail(db, "STRING_IDS", e);
	v = sqlite3_column_text(db->str_stmt, 0);
	if ((size_t)sqlite3_column_bytes(db->str_stmt, 0) > STR_CACHE_LEN) {
		strbuf_add(out, (const char *)v,
		           (size_t)sqlite3_column_bytes(db->str_stmt, 0));
		return 0;
	}
	free(sl->s);
	sl->id = id;
	sl->len = (size_t)sqlite3_column_bytes(db->str_stmt, 0);
	sl->s = xstrndup(v ? (const char *)v : "", sl->len);
	strbuf_add(out, sl->s, sl->len);
	return 0;
}

/* ---- ids the profiler writes once --------------------------------------
 */

/* The first value of column col that table t holds more than once: 0 when
 * there is none, else -1 with e set naming the table, the column, the id
 * and its count. One GROUP BY: SQLite sorts (or walks the column's index),
 * O(n log n) in time, its sorter spilling to a temporary file beyond its
 * cache; never a join. NULLs join nothing and are not counted. */
static int unique_col(struct db *db, enum db_table t, const char *col,
                      struct err *e)
{
	struct strbuf sql = STRBUF_INIT, q = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&sql,
	            "SELECT \"%s\", count(*) FROM \"%s\" WHERE \"%s\" IS NOT "
	            "NULL GROUP BY 1 HAVING count(*) > 1 LIMIT 1",
	            col, db_table_names[t], col);
	st = dbi_prep(db, sql.buf, db_table_names[t], e);
	strbuf_release(&sql);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		int64_t id;
		if (!dbi_i64(st, 0, &id))
			strbuf_addf(&q, "%" PRId64, id);
		else
			strbuf_add_quoted_value(
			    &q, v ? v : "",
			    v ? (size_t)sqlite3_column_bytes(st, 0) : 0,
			    DBI_QUOTE_MAX);
		err_set(e, ERR_INPUT,
		        "%s: %s.%s %s appears %" PRId64 " times: the profiler "
		        "writes each id once (a damaged or forged db: its rows "
		        "would count as many times)",
		        db->path, db_table_names[t], col, q.buf,
		        (int64_t)sqlite3_column_int64(st, 1));
		strbuf_release(&q);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dbi_fail(db, db_table_names[t], e);
}

int dbi_check_ids(struct db *db, struct err *e)
{
	if (db->ids_checked)
		return 0;
	if (unique_col(db, DBT_TASK, "globalTaskId", e) ||
	    (db_has(db, DBT_COMPUTE_TASK_INFO) &&
	     unique_col(db, DBT_COMPUTE_TASK_INFO, "globalTaskId", e)) ||
	    (db_has(db, DBT_COMMUNICATION_TASK_INFO) &&
	     dbi_has_col(db, DBT_COMMUNICATION_TASK_INFO, "globalTaskId") &&
	     unique_col(db, DBT_COMMUNICATION_TASK_INFO, "globalTaskId", e)) ||
	    (db_has(db, DBT_COMMUNICATION_OP) &&
	     dbi_has_col(db, DBT_COMMUNICATION_OP, "opId") &&
	     unique_col(db, DBT_COMMUNICATION_OP, "opId", e)) ||
	    (db_has(db, DBT_STRING_IDS) &&
	     unique_col(db, DBT_STRING_IDS, "id", e)))
		return -1;
	db->ids_checked = 1;
	return 0;
}

/* ---- open, close, META_DATA, RANK_DEVICE_MAP --------------------------- */

static int read_meta(struct db *db, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (!db_has(db, DBT_META_DATA))
		return 0;
	st = dbi_prep(db,
	              "SELECT value FROM META_DATA WHERE name = "
	              "'SCHEMA_VERSION'",
	              "META_DATA", e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0), bad;
		if (v && !db->schema && n < 64 &&
		    utf8_is_text((const char *)v, n, &bad))
			db->schema = xstrndup((const char *)v, n);
	}
	sqlite3_finalize(st);
	db->about.schema_version = db->schema;
	return dbi_done(db, rc, "META_DATA", e);
}

/* The chip model NPU_INFO names (its first row's, when text). */
static int read_chip(struct db *db, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (!db_has(db, DBT_NPU_INFO))
		return 0;
	st = dbi_prep(db, "SELECT name FROM NPU_INFO LIMIT 1", "NPU_INFO", e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0), bad;
		if (v && !db->chip && n && n < 64 &&
		    utf8_is_text((const char *)v, n, &bad))
			db->chip = xstrndup((const char *)v, n);
	}
	sqlite3_finalize(st);
	db->about.chip = db->chip;
	return dbi_done(db, rc, "NPU_INFO", e);
}

/* The host HOST_INFO names (its first row's, when text): a name for
 * --redact to look for, never shown. */
static int read_host(struct db *db, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (!db_has(db, DBT_HOST_INFO))
		return 0;
	st = dbi_prep(db, "SELECT hostName FROM HOST_INFO LIMIT 1", "HOST_INFO",
	              e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0), bad;
		if (v && !db->host && n && n < 256 &&
		    utf8_is_text((const char *)v, n, &bad))
			db->host = xstrndup((const char *)v, n);
	}
	sqlite3_finalize(st);
	db->about.host = db->host;
	return dbi_done(db, rc, "HOST_INFO", e);
}

/* The one rank RANK_DEVICE_MAP names (several different: none). */
static int read_rank(struct db *db, struct err *e)
{
	sqlite3_stmt *st;
	int rc, dev = dbi_has_col(db, DBT_RANK_DEVICE_MAP, "deviceId");
	int64_t r, d;

	db->about.rank_id = db->about.device_id = -1;
	if (!db_has(db, DBT_RANK_DEVICE_MAP))
		return 0;
	st = dbi_prep(
	    db,
	    dev ? "SELECT rankId, deviceId FROM RANK_DEVICE_MAP LIMIT 2"
	        : "SELECT rankId, -1 FROM RANK_DEVICE_MAP LIMIT 2",
	    "RANK_DEVICE_MAP", e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dbi_i64(st, 0, &r) || r < 0 || r > INT32_MAX ||
		    (db->about.rank_id >= 0 && db->about.rank_id != r)) {
			db->about.rank_id = db->about.device_id = -1;
			break;
		}
		db->about.rank_id = r;
		db->about.device_id = dbi_i64(st, 1, &d) || d < 0 ? -1 : d;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : dbi_done(db, rc, "RANK_DEVICE_MAP", e);
}

static void block_col(struct db *db)
{
	if (dbi_has_col(db, DBT_COMPUTE_TASK_INFO, "blockDim"))
		db->about.block_col = "blockDim";
	else if (dbi_has_col(db, DBT_COMPUTE_TASK_INFO, "blockNum"))
		db->about.block_col = "blockNum";
}

int db_open(const char *path, struct db **out, struct err *e)
{
	struct db *db = xcalloc(1, sizeof(*db));
	int t;

	*out = NULL;
	db->path = xstrdup(path);
	db->about.path = db->path;
	db->about.rank_id = db->about.device_id = -1;
	strbuf_init(&db->tmp);
	for (t = 0; t < DBT_COUNT; t++)
		strbuf_init(&db->cols[t]);
	if (check_header(path, &db->about.size, e) || check_finished(path, e) ||
	    open_conn(db, e) || probe(db, e) || require(db, e) ||
	    read_meta(db, e) || read_rank(db, e) || read_chip(db, e) ||
	    read_host(db, e)) {
		db_close(db);
		return -1;
	}
	block_col(db);
	*out = db;
	return 0;
}

void db_close(struct db *db)
{
	size_t i;

	if (!db)
		return;
	sqlite3_finalize(db->str_stmt);
	if (db->h)
		sqlite3_close(db->h);
	for (i = 0; db->strs && i < STR_CACHE; i++)
		free(db->strs[i].s);
	free(db->strs);
	for (i = 0; i < DBT_COUNT; i++)
		strbuf_release(&db->cols[i]);
	strbuf_release(&db->tmp);
	free(db->schema);
	free(db->chip);
	free(db->host);
	free(db->path);
	free(db);
}

int64_t db_peek_rank(const char *path)
{
	struct err e = ERR_INIT;
	struct db *db;
	int64_t r;

	if (db_open(path, &db, &e))
		return -1;
	r = db->about.rank_id;
	db_close(db);
	return r;
}

/* ---- STEP_TIME ------------------------------------------------------------
 */

static int cmp_step(const void *pa, const void *pb)
{
	const struct db_step *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

int db_read_steps(struct db *db, struct db_step **steps, size_t *n,
                  struct err *e)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	*steps = NULL;
	*n = 0;
	if (!db_has(db, DBT_STEP_TIME))
		return 0;
	if (!(st = dbi_prep(db, "SELECT id, startNs, endNs FROM STEP_TIME",
	                    "STEP_TIME", e)))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_step s;
		int64_t id;
		if (dbi_i64(st, 0, &id) || id < 0 || id > INT32_MAX ||
		    dbi_i64(st, 1, &s.start_ns) || dbi_i64(st, 2, &s.end_ns) ||
		    s.end_ns < s.start_ns)
			continue;
		if (*n >= DB_MAX_STEPS) {
			sqlite3_finalize(st);
			db_steps_free(*steps, alloc);
			*steps = NULL;
			*n = 0;
			return err_set(e, ERR_INPUT,
			               "%s: STEP_TIME has more than %u steps",
			               db->path, DB_MAX_STEPS);
		}
		if (membudget_grow(steps, sizeof(**steps), *n + 1, &alloc)) {
			sqlite3_finalize(st);
			db_steps_free(*steps, alloc);
			*steps = NULL;
			rc = membudget_fail(
			    e, (uint64_t)(alloc / 8 + 16) * sizeof(**steps),
			    "%s: STEP_TIME (%zu steps read)", db->path, *n);
			*n = 0;
			return rc;
		}
		s.id = (int32_t)id;
		(*steps)[(*n)++] = s;
	}
	sqlite3_finalize(st);
	membudget_shrink(steps, sizeof(**steps), *n, &alloc);
	if (dbi_done(db, rc, "STEP_TIME", e)) {
		db_steps_free(*steps, *n);
		*steps = NULL;
		*n = 0;
		return -1;
	}
	if (*n)
		qsort(*steps, *n, sizeof(**steps), cmp_step);
	return 0;
}

void db_steps_free(struct db_step *steps, size_t n)
{
	if (steps)
		membudget_release((uint64_t)n * sizeof(*steps));
	free(steps);
}

/* The id of the step holding t: the latest one starting at or before t,
 * if it has not ended by then (profiler steps do not overlap); else
 * STEP_NONE. */
int32_t dbi_step_of(const struct db_step *s, size_t n, int64_t t)
{
	/* the first step starting after t */
	size_t lo = sortcmp_upper_i64(s, n, sizeof(*s),
	                              offsetof(struct db_step, start_ns), t);

	return lo > 0 && s[lo - 1].end_ns >= t ? s[lo - 1].id : STEP_NONE;
}

struct libversion db_sqlite_version(void)
{
	struct libversion v = {"SQLite", SQLITE_VERSION, sqlite3_libversion()};
	return v;
}
