/* operator_memory.csv reader over input/csvread: columns found by header
 * name, each row's allocation and release handed on as samples, bad rows
 * counted and skipped. */
#include "input/opmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/csvread.h"
#include "util/decimal.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_COLUMNS 64

enum col {
	C_NONE,
	C_SIZE,
	C_ATIME,
	C_RTIME,
	C_AALLOC,
	C_ARES,
	C_RALLOC,
	C_RRES,
	C_NCOLS
};

static const char *const col_names[C_NCOLS] = {NULL,
                                               "Size(KB)",
                                               "Allocation Time(us)",
                                               "Release Time(us)",
                                               "Allocation Total Allocated(MB)",
                                               "Allocation Total Reserved(MB)",
                                               "Release Total Allocated(MB)",
                                               "Release Total Reserved(MB)"};

struct oreader {
	struct csvread csv;
	memrec_fn fn;
	void *ctx;
	struct memrec_info *info;
	unsigned char *colmap; /* enum col of each header column */
	struct mem_sample alloc, rel;
	int has_alloc, has_rel; /* their times were given */
	int row_bad;
};

/* ---- header ------------------------------------------------------------ */

static void header_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct oreader *r = c->ctx;

	csvread_map_column(c, i, s, len, col_names, C_NCOLS, &r->colmap);
}

static int has_column(const struct oreader *r, enum col want)
{
	return csvread_has_column(&r->csv, r->colmap, (unsigned char)want);
}

static void header_done(struct csvread *c)
{
	struct oreader *r = c->ctx;

	if (!has_column(r, C_ATIME))
		csvread_fail_missing(c, col_names[C_ATIME], 200);
	else if (!has_column(r, C_AALLOC))
		csvread_fail_missing(c, col_names[C_AALLOC], 200);
}

/* ---- rows -------------------------------------------------------------- */

/* Marks the row bad; the first bad row of the file is described. */
static void bad(struct oreader *r, size_t col, const char *why, const char *s,
                size_t len)
{
	memrec_note_bad(r->info, &r->csv, &r->row_bad, col, why, s, len);
}

static void time_field(struct oreader *r, size_t i, const char *s, size_t len,
                       struct mem_sample *to, int *has)
{
	const char *b = s, *end = s + len;

	memrec_trim(&b, &end);
	if (memrec_is_empty(s, len))
		return;
	if (decimal_us_to_ns_nearest(b, (size_t)(end - b), &to->ts_ns) ||
	    to->ts_ns < 0)
		bad(r, i, "not a timestamp", s, len);
	else
		*has = 1;
}

static void mb_field(struct oreader *r, size_t i, const char *s, size_t len,
                     int64_t *out, const char *why)
{
	if (!memrec_is_empty(s, len) && memrec_mb_to_bytes(s, len, out))
		bad(r, i, why, s, len);
}

static void on_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct oreader *r = c->ctx;
	int64_t size;

	switch (r->colmap[i]) {
	case C_SIZE: /* checked, not summed: see opmem.h */
		mb_field(r, i, s, len, &size, "not a size in KB");
		break;
	case C_ATIME:
		time_field(r, i, s, len, &r->alloc, &r->has_alloc);
		break;
	case C_RTIME:
		time_field(r, i, s, len, &r->rel, &r->has_rel);
		break;
	case C_AALLOC:
		mb_field(r, i, s, len, &r->alloc.allocated_b,
		         "not a size in MB");
		break;
	case C_ARES:
		mb_field(r, i, s, len, &r->alloc.reserved_b,
		         "not a size in MB");
		break;
	case C_RALLOC:
		mb_field(r, i, s, len, &r->rel.allocated_b, "not a size in MB");
		break;
	case C_RRES:
		mb_field(r, i, s, len, &r->rel.reserved_b, "not a size in MB");
		break;
	}
}

static void sample_reset(struct mem_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->comp = MEMC_PTA;
	s->allocated_b = s->reserved_b = -1;
}

static void row_reset(struct oreader *r)
{
	sample_reset(&r->alloc);
	sample_reset(&r->rel);
	r->has_alloc = r->has_rel = 0;
	r->row_bad = 0;
}

static int has_sizes(const struct mem_sample *s)
{
	return s->allocated_b >= 0 || s->reserved_b >= 0;
}

/* Whether the row, its fields read, is whole: an allocation time and
 * totals; a release time only with its totals. */
static void check_row(struct oreader *r, size_t nfields)
{
	if (nfields != r->csv.ncols) {
		char why[80];
		snprintf(why, sizeof(why), "row has %zu fields, header has %zu",
		         nfields, r->csv.ncols);
		bad(r, (size_t)-1, why, NULL, 0);
	} else if (!r->has_alloc) {
		bad(r, (size_t)-1, "no allocation time", NULL, 0);
	} else if (!has_sizes(&r->alloc)) {
		bad(r, (size_t)-1, "no allocation totals", NULL, 0);
	} else if (r->has_rel && !has_sizes(&r->rel)) {
		bad(r, (size_t)-1, "a release time without release totals",
		    NULL, 0);
	}
}

static void on_row(struct csvread *c, size_t nfields)
{
	struct oreader *r = c->ctx;
	struct memrec_info *in = r->info;

	in->rows++;
	if (!r->row_bad)
		check_row(r, nfields);
	if (r->row_bad) {
		in->bad++;
	} else {
		in->samples++;
		r->fn(&r->alloc, r->ctx);
		if (r->has_rel) {
			in->samples++;
			r->fn(&r->rel, r->ctx);
		}
	}
	row_reset(r);
}

/* ---- reading ----------------------------------------------------------- */

static const struct csvread_cb callbacks = {header_field, header_done, on_field,
                                            on_row};

static const struct csvread_opts csv_opts = {
    .what = "operator_memory.csv",
    .max_columns = MAX_COLUMNS,
    .max_bytes = OPMEM_MAX_BYTES,
    .trim_header = 1,
    .need_header = 1,
};

static void begin(struct oreader *r, const char *name, memrec_fn fn, void *ctx,
                  struct memrec_info *info, struct err *e)
{
	memset(r, 0, sizeof(*r));
	memset(info, 0, sizeof(*info));
	r->fn = fn;
	r->ctx = ctx;
	r->info = info;
	row_reset(r);
	csvread_init(&r->csv, name, &csv_opts, &callbacks, r, e);
}

static int end(struct oreader *r)
{
	struct csvread *c = &r->csv;

	csvread_finish(c);
	r->info->size = c->size;
	csvread_release(c);
	free(r->colmap);
	return c->failed ? -1 : 0;
}

int opmem_read(const char *path, memrec_fn fn, void *ctx,
               struct memrec_info *info, struct err *e)
{
	struct oreader r;

	begin(&r, path, fn, ctx, info, e);
	csvread_file(&r.csv);
	return end(&r);
}

int opmem_read_mem(const char *name, const void *data, size_t len, memrec_fn fn,
                   void *ctx, struct memrec_info *info, struct err *e)
{
	struct oreader r;

	begin(&r, name, fn, ctx, info, e);
	csvread_mem(&r.csv, data, len);
	return end(&r);
}
