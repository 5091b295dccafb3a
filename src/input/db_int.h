/* Internal to the db reader (input/db.c, db_kernels.c, db_rows.c): the
 * open connection and the helpers its parts share. The only header that
 * includes sqlite3.h; nothing outside the db module includes it. */
#ifndef SDPERF_DB_INT_H
#define SDPERF_DB_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "input/db_types.h"
#include "util/err.h"
#include "util/strbuf.h"

#define DBI_QUOTE_MAX 60 /* bytes of a bad value quoted in a message */

/* The ON clause joining two id columns: equal integers only. SQLite would
 * otherwise convert a TEXT or REAL id ('4', '04', '4.0') to the other
 * column's affinity, so that spellings the duplicate check (GROUP BY, no
 * conversion) keeps apart all join one row and multiply it. A non-integer
 * id joins nothing (the row is counted unjoined). The equality comes first
 * so that SQLite still looks it up in an index. */
#define DBI_ID_JOIN(a, b)                                                      \
	a " = " b " AND typeof(" a ") = 'integer' AND typeof(" b ") = "        \
	  "'integer'"

struct str_slot {
	int64_t id; /* valid when s != NULL */
	char *s;
	size_t len;
};

struct db {
	sqlite3 *h;
	struct db_about about;
	char *path, *schema, *chip, *host;
	/* "\ncol\ncol\n" per present table, for dbi_has_col() */
	struct strbuf cols[DBT_COUNT];
	unsigned present; /* tables found at all, usable or not */
	sqlite3_stmt *str_stmt;
	struct str_slot *strs;
	struct strbuf tmp;
	int ids_checked; /* dbi_check_ids passed */
};

/* Sets e from the error SQLite reported on db->h while reading `what`
 * (not a database, corrupt, locked, a value too long, ...); returns -1. */
int dbi_fail(struct db *db, const char *what, struct err *e);
/* A prepared statement, or NULL with e set. */
sqlite3_stmt *dbi_prep(struct db *db, const char *sql, const char *what,
                       struct err *e);
/* After a loop of sqlite3_step: 0 when it ended with SQLITE_DONE, else
 * dbi_fail. */
int dbi_done(struct db *db, int rc, const char *what, struct err *e);
/* Column i as an exact integer: INTEGER, TEXT holding a decimal integer
 * (PYTORCH_API keeps its times as text) or an integral REAL. 0, or -1. */
int dbi_i64(sqlite3_stmt *st, int i, int64_t *v);
/* 1 when table t (present) has column col. */
int dbi_has_col(const struct db *db, enum db_table t, const char *col);
/* STRING_IDS value of id appended to out: 0, 1 when there is no such id,
 * -1 (e set) on a read error. */
int dbi_str(struct db *db, int64_t id, struct strbuf *out, struct err *e);
/* The ids the profiler writes once and the reader joins or looks up on
 * (TASK.globalTaskId, COMPUTE_TASK_INFO.globalTaskId,
 * COMMUNICATION_TASK_INFO.globalTaskId, COMMUNICATION_OP.opId,
 * STRING_IDS.id) each held once: 0 (checked once
 * per db), or -1 with ERR_INPUT "PATH: TASK.globalTaskId 42 appears 2
 * times: ..." (or a read error). */
int dbi_check_ids(struct db *db, struct err *e);
/* The id of the step of s[0..n) (sorted by start) holding t, or
 * STEP_NONE. */
int32_t dbi_step_of(const struct db_step *s, size_t n, int64_t t);

#endif
