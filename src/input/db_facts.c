/* The db export reader (see db.h), part 4: what the db shows of how the
 * profile was collected. Each fact is one "is there a row" query: SQLite
 * stops at the first row found, so a table is read whole only when the
 * fact is absent. */
#include <string.h>

#include "input/db.h"
#include "input/db_int.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* Tables of profile_memory=True (not read otherwise). */
static const char *const memory_tables[] = {"MEMORY_RECORD", "OP_MEMORY",
                                            "NPU_MEM"};

/* 1 when sql gives a row, 0 when none, -1 (e set) on a read error. */
static int any_row(struct db *db, const char *sql, const char *what,
                   struct err *e)
{
	sqlite3_stmt *st = dbi_prep(db, sql, what, e);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return dbi_done(db, rc, what, e) ? -1 : 0;
}

/* 1 when table name (not one the reader uses) exists and has a row. */
static int table_rows(struct db *db, const char *name, struct err *e)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_addf(&sql,
	            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
	            "name = '%s'",
	            name);
	rc = any_row(db, sql.buf, "the schema", e);
	if (rc == 1) {
		strbuf_reset(&sql);
		strbuf_addf(&sql, "SELECT 1 FROM \"%s\" LIMIT 1", name);
		rc = any_row(db, sql.buf, name, e);
	}
	strbuf_release(&sql);
	return rc;
}

/* Input shapes: a framework operator's (PYTORCH_API.inputShapes, with
 * record_shapes) or a kernel's other than N/A (COMPUTE_TASK_INFO, Level1
 * and above). */
static int shapes(struct db *db, struct err *e)
{
	int rc = 0;

	if (db_has(db, DBT_PYTORCH_API) &&
	    dbi_has_col(db, DBT_PYTORCH_API, "inputShapes"))
		rc = any_row(db,
		             "SELECT 1 FROM PYTORCH_API WHERE inputShapes IS "
		             "NOT NULL AND inputShapes != '' LIMIT 1",
		             "PYTORCH_API", e);
	if (rc || !db_has(db, DBT_STRING_IDS) ||
	    !dbi_has_col(db, DBT_COMPUTE_TASK_INFO, "inputShapes"))
		return rc;
	return any_row(db,
	               "SELECT 1 FROM COMPUTE_TASK_INFO c JOIN STRING_IDS s "
	               "ON s.id = c.inputShapes WHERE s.value NOT IN ('', "
	               "'N/A') LIMIT 1",
	               "COMPUTE_TASK_INFO", e);
}

int db_collect_facts(struct db *db, struct db_facts *f, struct err *e)
{
	size_t i;
	int rc;

	memset(f, 0, sizeof(*f));
	if (db_has(db, DBT_PYTORCH_API) &&
	    (f->host = any_row(db, "SELECT 1 FROM PYTORCH_API LIMIT 1",
	                       "PYTORCH_API", e)) < 0)
		return -1;
	if ((f->shapes = shapes(db, e)) < 0)
		return -1;
	for (i = 0;
	     i < sizeof(memory_tables) / sizeof(memory_tables[0]) && !f->memory;
	     i++)
		if ((f->memory = table_rows(db, memory_tables[i], e)) < 0)
			return -1;
	rc = table_rows(db, "TASK_PMU_INFO", e);
	if (rc < 0)
		return -1;
	f->pmu = rc;
	return 0;
}
