/* op_statistic.csv reader (input/opstat.h) over input/csvread. */
#include "input/opstat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/csvread.h"
#include "util/checked.h"
#include "util/decimal.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

enum col { C_NONE, C_TYPE, C_CORE, C_COUNT, C_TOTAL, C_NCOLS };

static const char *const col_names[C_NCOLS] = {NULL, "OP Type", "Core Type",
                                               "Count", "Total Time(us)"};

#define MAX_COLUMNS 64 /* the file has nine */

struct osreader {
	struct opstat *os;
	struct csvread csv;
	unsigned char *colmap;
	size_t alloc;
	struct opstat_row row;
};

static void trim(const char **s, size_t *len)
{
	while (*len && ((*s)[0] == ' ' || (*s)[0] == '\t'))
		(*s)++, (*len)--;
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t' ||
	                (*s)[*len - 1] == '\r'))
		(*len)--;
}

static void header_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct osreader *r = c->ctx;
	size_t k, col = C_NONE;

	trim(&s, &len);
	for (k = 1; k < C_NCOLS; k++)
		if (strlen(col_names[k]) == len &&
		    !strncasecmp(col_names[k], s, len))
			col = k;
	for (k = 0; col && k < i; k++)
		if (r->colmap[k] == col) {
			csvread_fail(c, i, "duplicate column", s, len);
			return;
		}
	r->colmap = xrealloc(r->colmap, i + 1);
	r->colmap[i] = (unsigned char)col;
}

static void header_done(struct csvread *c)
{
	struct osreader *r = c->ctx;
	size_t k, i;

	for (k = 1; k < C_NCOLS; k++) {
		for (i = 0; i < c->ncols && r->colmap[i] != k; i++)
			;
		if (i == c->ncols) {
			csvread_fail_missing(c, col_names[k], 300);
			return;
		}
	}
}

static void on_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct osreader *r = c->ctx;
	int64_t v;

	trim(&s, &len);
	switch (r->colmap[i]) {
	case C_TYPE:
	case C_CORE:
		if (!len) {
			csvread_fail(c, i, "empty", s, len);
			return;
		}
		if (r->colmap[i] == C_TYPE) {
			free(r->row.type);
			r->row.type = xstrndup(s, len);
		} else {
			free(r->row.core);
			r->row.core = xstrndup(s, len);
		}
		break;
	case C_COUNT:
		if (decimal_to_i64(s, len, &v) || v < 0)
			csvread_fail(c, i, "not a count", s, len);
		else
			r->row.count = (uint64_t)v;
		break;
	case C_TOTAL:
		if (decimal_us_to_ns(s, len, &v))
			csvread_fail(c, i,
			             "not a time in microseconds (a decimal "
			             "number below 9.2e12)",
			             s, len);
		else if (v < 0)
			csvread_fail(c, i, "a negative time", s, len);
		else
			r->row.total_ns = v;
		break;
	default:
		break;
	}
}

static void row_free(struct opstat_row *row)
{
	free(row->type);
	free(row->core);
	memset(row, 0, sizeof(*row));
}

static void on_row(struct csvread *c, size_t nfields)
{
	struct osreader *r = c->ctx;
	struct opstat *os = r->os;
	size_t old = r->alloc;
	uint64_t strs;

	if (nfields != c->ncols) {
		csvread_failf(c,
		              "%s:%" PRIu64 ": row has %zu fields, header "
		              "has %zu",
		              c->name, c->row_line, nfields, c->ncols);
		row_free(&r->row);
		return;
	}
	if (os->nrows >= OPSTAT_MAX_ROWS) {
		csvread_failf(c,
		              "%s:%" PRIu64 ": more than %u rows (the limit "
		              "for op_statistic.csv)",
		              c->name, c->row_line, (unsigned)OPSTAT_MAX_ROWS);
		row_free(&r->row);
		return;
	}
	strs = strlen(r->row.type) + strlen(r->row.core) + 2;
	if (membudget_grow(&os->rows, sizeof(*os->rows), os->nrows + 1,
	                   &r->alloc) ||
	    membudget_charge(strs)) {
		membudget_fail(c->e, strs + sizeof(*os->rows),
		               "%s:%" PRIu64 ": op types (%zu rows read)",
		               c->name, c->row_line, os->nrows);
		c->failed = 1;
		os->charged += (uint64_t)(r->alloc - old) * sizeof(*os->rows);
		row_free(&r->row);
		return;
	}
	os->charged += (uint64_t)(r->alloc - old) * sizeof(*os->rows) + strs;
	os->count = os->count + r->row.count < os->count
	                ? UINT64_MAX
	                : os->count + r->row.count;
	checked_accumulate(&os->total_ns, r->row.total_ns);
	os->rows[os->nrows++] = r->row;
	memset(&r->row, 0, sizeof(r->row));
}

static const struct csvread_cb callbacks = {header_field, header_done, on_field,
                                            on_row};

static const struct csvread_opts csv_opts = {
    .what = "op_statistic.csv",
    .max_columns = MAX_COLUMNS,
    .max_bytes = OPSTAT_MAX_BYTES,
    .trim_header = 1,
    .need_header = 1,
};

static void begin(struct osreader *r, const char *name, struct opstat *os,
                  struct err *e)
{
	memset(r, 0, sizeof(*r));
	memset(os, 0, sizeof(*os));
	os->path = xstrdup(name);
	r->os = os;
	csvread_init(&r->csv, name, &csv_opts, &callbacks, r, e);
}

static int end(struct osreader *r)
{
	struct csvread *c = &r->csv;

	csvread_finish(c);
	csvread_release(c);
	free(r->colmap);
	row_free(&r->row);
	return c->failed ? -1 : 0;
}

int opstat_read(const char *path, struct opstat *os, struct err *e)
{
	struct osreader r;

	begin(&r, path, os, e);
	csvread_file(&r.csv);
	return end(&r);
}

int opstat_read_mem(const char *name, const void *data, size_t len,
                    struct opstat *os, struct err *e)
{
	struct osreader r;

	begin(&r, name, os, e);
	csvread_mem(&r.csv, data, len);
	return end(&r);
}

void opstat_release(struct opstat *os)
{
	size_t i;

	for (i = 0; i < os->nrows; i++)
		row_free(&os->rows[i]);
	free(os->rows);
	free(os->path);
	membudget_release(os->charged);
	memset(os, 0, sizeof(*os));
}
