/* The db export's MEMORY_RECORD and NPU_MEM, handed on row by row as
 * memory samples (the same as memory_record.csv's, input/memrec.h). */
#include "input/db.h"
#include "input/db_int.h"

#include <string.h>

#include "util/checked.h"
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

/* NPU_MEM: the driver's view of the process ("app", hbm + ddr) as an APP
 * sample; "device" rows (the whole card, every process) are no sample:
 * 1 for a sample, 0 for a row that is none, -1 for a bad one. */
static int npu_row(sqlite3_stmt *st, struct mem_sample *s)
{
	const unsigned char *c = sqlite3_column_text(st, 0);

	if (dbi_i64(st, 2, &s->ts_ns) || s->ts_ns < 0)
		return -1;
	s->comp = MEMC_APP;
	s->allocated_b = -1;
	s->reserved_b = size_at(st, 1);
	if (s->reserved_b < -1)
		return -1;
	if (s->reserved_b >= 0 && sqlite3_column_count(st) > 3) {
		int64_t ddr = size_at(st, 3);
		if (ddr < -1 || (ddr > 0 && checked_add(s->reserved_b, ddr,
		                                        &s->reserved_b)))
			return -1;
	}
	return c && !strcmp((const char *)c, "app") && s->reserved_b >= 0;
}

static int mem_row(sqlite3_stmt *st, struct mem_sample *s)
{
	if (row(st, s))
		return -1;
	return s->allocated_b >= 0 || s->reserved_b >= 0;
}

static int read_table(struct db *db, enum db_table t, const char *sql,
                      int (*conv)(sqlite3_stmt *, struct mem_sample *),
                      memrec_fn fn, void *ctx, uint64_t *rows, uint64_t *bad,
                      struct err *e)
{
	sqlite3_stmt *st;
	struct mem_sample s;
	int rc, k;

	*rows = *bad = 0;
	if (!db_has(db, t))
		return 0;
	st = dbi_prep(db, sql, db_table_names[t], e);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		(*rows)++;
		memset(&s, 0, sizeof(s));
		k = conv(st, &s);
		if (k < 0)
			(*bad)++;
		else if (k > 0)
			fn(&s, ctx);
	}
	sqlite3_finalize(st);
	return dbi_done(db, rc, db_table_names[t], e);
}

int db_read_memory(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                   uint64_t *bad, struct err *e)
{
	return read_table(db, DBT_MEMORY_RECORD,
	                  "SELECT s.value, m.timestamp, m.totalAllocated, "
	                  "m.totalReserved FROM MEMORY_RECORD m LEFT JOIN "
	                  "STRING_IDS s ON s.id = m.component",
	                  mem_row, fn, ctx, rows, bad, e);
}

int db_read_npu_mem(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                    uint64_t *bad, struct err *e)
{
	/* HBM + DDR, as the trace's APP/Memory and memory_record.csv's APP
	 * rows count the process (the real db's ddr is 0) */
	return read_table(db, DBT_NPU_MEM,
	                  dbi_has_col(db, DBT_NPU_MEM, "ddr")
	                      ? "SELECT s.value, n.hbm, n.timestampNs, n.ddr "
	                        "FROM NPU_MEM n "
	                        "LEFT JOIN STRING_IDS s ON s.id = n.type"
	                      : "SELECT s.value, n.hbm, n.timestampNs FROM "
	                        "NPU_MEM n LEFT JOIN STRING_IDS s ON s.id = "
	                        "n.type",
	                  npu_row, fn, ctx, rows, bad, e);
}
