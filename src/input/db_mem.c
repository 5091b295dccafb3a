/* The db export's MEMORY_RECORD, handed on row by row as memory samples
 * (the same as memory_record.csv's, input/memrec.h). */
#include "input/db.h"
#include "input/db_int.h"

#include <string.h>

#include "util/banned.h"

static enum memrec_comp comp_of(const char *s)
{
	static const char *const names[] = {"APP", "PTA", "GE", "PTA+GE"};
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(*names); k++)
		if (!strcmp(names[k], s))
			return (enum memrec_comp)k;
	return MEMC_OTHER;
}

/* Column i in bytes: -1 when NULL, -2 when unusable. */
static int64_t size_at(sqlite3_stmt *st, int i)
{
	int64_t v;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return -1;
	return dbi_i64(st, i, &v) || v < 0 ? -2 : v;
}

static int row(sqlite3_stmt *st, struct mem_sample *s)
{
	const unsigned char *c = sqlite3_column_text(st, 0);

	s->comp = c ? comp_of((const char *)c) : MEMC_OTHER;
	if (dbi_i64(st, 1, &s->ts_ns) || s->ts_ns < 0)
		return -1;
	s->allocated_b = size_at(st, 2);
	s->reserved_b = size_at(st, 3);
	return s->allocated_b < -1 || s->reserved_b < -1 ? -1 : 0;
}

int db_read_memory(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                   uint64_t *bad, struct err *e)
{
	sqlite3_stmt *st;
	struct mem_sample s;
	int rc;

	*rows = *bad = 0;
	if (!db_has(db, DBT_MEMORY_RECORD))
		return 0;
	st = dbi_prep(db,
	              "SELECT s.value, m.timestamp, m.totalAllocated, "
	              "m.totalReserved FROM MEMORY_RECORD m LEFT JOIN "
	              "STRING_IDS s ON s.id = m.component",
	              "MEMORY_RECORD", e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		(*rows)++;
		if (row(st, &s))
			(*bad)++;
		else if (s.allocated_b >= 0 || s.reserved_b >= 0)
			fn(&s, ctx);
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, "MEMORY_RECORD", e);
}
