/* memory_record.csv and npu_module_mem.csv reader over input/csvread:
 * columns found by header name, one sample per row handed on, bad rows
 * counted and skipped. */
#include "input/memrec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/csvread.h"
#include "util/decimal.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_COLUMNS 64
#define FRAC_DIGITS 12 /* later decimals of a MiB (below 1e-6 byte) */
#define MIB         1048576

enum col { C_NONE, C_COMP, C_TS, C_ALLOC, C_RESERVED, C_NCOLS };

static const char *const col_names[C_NCOLS] = {
    NULL, "Component", "Timestamp(us)", "Total Allocated(MB)",
    "Total Reserved(MB)"};

struct mreader {
	struct csvread csv;
	memrec_fn fn;
	void *ctx;
	struct memrec_info *info;
	unsigned char *colmap; /* enum col of each header column */
	struct mem_sample row;
	int app_only; /* npu_module_mem.csv: only APP rows are samples */
	int row_bad;
	int has_ts;
};

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void memrec_trim(const char **s, const char **end)
{
	while (*s < *end && is_blank((unsigned char)**s))
		(*s)++;
	while (*end > *s && is_blank((unsigned char)(*end)[-1]))
		(*end)--;
}

/* digits of s..end into *v (at most 18 taken, *n their count); -1 if a
 * character is not a digit */
static int digits(const char *s, const char *end, int64_t *v, int *n, int cap)
{
	*v = 0;
	*n = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (*n < cap) {
			*v = *v * 10 + (*s - '0');
			(*n)++;
		}
	}
	return 0;
}

int memrec_mb_to_bytes(const char *s, size_t len, int64_t *bytes)
{
	const char *end = s + len, *dot;
	int64_t ip, fp = 0, scale = 1;
	int ni, nf = 0, i;

	memrec_trim(&s, &end);
	dot = memchr(s, '.', (size_t)(end - s));
	if (!dot)
		dot = end;
	if (dot == s || digits(s, dot, &ip, &ni, 18) || ni > 12 ||
	    (dot < end && digits(dot + 1, end, &fp, &nf, FRAC_DIGITS)))
		return -1;
	for (i = 0; i < nf; i++)
		scale *= 10;
	/* fp < 1e12 and MIB = 2^20: the product stays below 2^60 */
	*bytes = ip * MIB + (fp * MIB + scale / 2) / scale;
	return 0;
}

/* ---- header ------------------------------------------------------------ */

static void header_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct mreader *r = c->ctx;

	csvread_map_column(c, i, s, len, col_names, C_NCOLS, &r->colmap);
}

static int has_column(const struct mreader *r, enum col want)
{
	return csvread_has_column(&r->csv, r->colmap, (unsigned char)want);
}

static void header_done(struct csvread *c)
{
	struct mreader *r = c->ctx;

	if (!has_column(r, C_TS))
		csvread_fail_missing(c, col_names[C_TS], 200);
	else if (!has_column(r, C_RESERVED))
		csvread_fail_missing(c, col_names[C_RESERVED], 200);
}

/* ---- rows -------------------------------------------------------------- */

/* Marks the row bad; the first bad row of the file is described. */
void memrec_note_bad(struct memrec_info *in, const struct csvread *csv,
                     int *row_bad, size_t col, const char *why, const char *s,
                     size_t len)
{
	if ((*row_bad)++ || in->first_bad_line)
		return;
	in->first_bad_line = csv->row_line;
	if (col == (size_t)-1)
		snprintf(in->first_bad, sizeof(in->first_bad), "%s", why);
	else
		snprintf(in->first_bad, sizeof(in->first_bad),
		         "column %zu '%s': %s: '%.*s'", col + 1,
		         csvread_colname(csv, col), why,
		         (int)(len > 60 ? 60 : len), s);
}

static void bad(struct mreader *r, size_t col, const char *why, const char *s,
                size_t len)
{
	memrec_note_bad(r->info, &r->csv, &r->row_bad, col, why, s, len);
}

static enum memrec_comp comp_of(const char *s, size_t len)
{
	static const char *const names[] = {"APP", "PTA", "GE", "PTA+GE"};
	const char *end = s + len;
	size_t k;

	memrec_trim(&s, &end);
	for (k = 0; k < sizeof(names) / sizeof(*names); k++)
		if (strlen(names[k]) == (size_t)(end - s) &&
		    !memcmp(names[k], s, (size_t)(end - s)))
			return (enum memrec_comp)k;
	return MEMC_OTHER;
}

int memrec_is_empty(const char *s, size_t len)
{
	const char *end = s + len;

	memrec_trim(&s, &end);
	return s == end || (end - s == 3 && !memcmp(s, "N/A", 3));
}

static void mb_field(struct mreader *r, size_t i, const char *s, size_t len,
                     int64_t *out)
{
	if (memrec_is_empty(s, len))
		return;
	if (memrec_mb_to_bytes(s, len, out))
		bad(r, i, "not a size in MB", s, len);
}

static void on_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct mreader *r = c->ctx;
	const char *b = s, *end = s + len;

	switch (r->colmap[i]) {
	case C_COMP:
		r->row.comp = comp_of(s, len);
		break;
	case C_TS:
		memrec_trim(&b, &end);
		if (decimal_us_to_ns_nearest(b, (size_t)(end - b),
		                             &r->row.ts_ns))
			bad(r, i, "not a timestamp", s, len);
		else
			r->has_ts = 1;
		break;
	case C_ALLOC:
		mb_field(r, i, s, len, &r->row.allocated_b);
		break;
	case C_RESERVED:
		mb_field(r, i, s, len, &r->row.reserved_b);
		break;
	}
}

static void row_reset(struct mreader *r)
{
	memset(&r->row, 0, sizeof(r->row));
	r->row.comp = MEMC_OTHER;
	r->row.allocated_b = r->row.reserved_b = -1;
	r->row_bad = 0;
	r->has_ts = 0;
}

static void on_row(struct csvread *c, size_t nfields)
{
	struct mreader *r = c->ctx;
	struct memrec_info *in = r->info;

	in->rows++;
	if (nfields != c->ncols && !r->row_bad++ && !in->first_bad_line) {
		in->first_bad_line = c->row_line;
		snprintf(in->first_bad, sizeof(in->first_bad),
		         "row has %zu fields, header has %zu", nfields,
		         c->ncols);
	} else if (!r->row_bad && !r->has_ts && !in->first_bad_line++) {
		in->first_bad_line = c->row_line;
		snprintf(in->first_bad, sizeof(in->first_bad), "no timestamp");
		r->row_bad = 1;
	} else if (!r->row_bad && !r->has_ts) {
		r->row_bad = 1;
	}
	if (r->row_bad)
		in->bad++;
	else if ((r->row.allocated_b >= 0 || r->row.reserved_b >= 0) &&
	         (!r->app_only || r->row.comp == MEMC_APP)) {
		in->samples++;
		r->fn(&r->row, r->ctx);
	}
	row_reset(r);
}

/* ---- reading ----------------------------------------------------------- */

static const struct csvread_cb callbacks = {header_field, header_done, on_field,
                                            on_row};

static const struct csvread_opts csv_opts = {
    .what = "memory_record.csv",
    .max_columns = MAX_COLUMNS,
    .max_bytes = MEMREC_MAX_BYTES,
    .trim_header = 1,
    .need_header = 1,
};

static const struct csvread_opts module_opts = {
    .what = "npu_module_mem.csv",
    .max_columns = MAX_COLUMNS,
    .max_bytes = MEMREC_MAX_BYTES,
    .trim_header = 1,
    .need_header = 1,
};

static void begin(struct mreader *r, const char *name, int module, memrec_fn fn,
                  void *ctx, struct memrec_info *info, struct err *e)
{
	memset(r, 0, sizeof(*r));
	memset(info, 0, sizeof(*info));
	r->fn = fn;
	r->ctx = ctx;
	r->info = info;
	r->app_only = module;
	row_reset(r);
	csvread_init(&r->csv, name, module ? &module_opts : &csv_opts,
	             &callbacks, r, e);
}

static int end(struct mreader *r)
{
	struct csvread *c = &r->csv;

	csvread_finish(c);
	r->info->size = c->size;
	csvread_release(c);
	free(r->colmap);
	return c->failed ? -1 : 0;
}

int memrec_read(const char *path, memrec_fn fn, void *ctx,
                struct memrec_info *info, struct err *e)
{
	struct mreader r;

	begin(&r, path, 0, fn, ctx, info, e);
	csvread_file(&r.csv);
	return end(&r);
}

int memrec_read_mem(const char *name, const void *data, size_t len,
                    memrec_fn fn, void *ctx, struct memrec_info *info,
                    struct err *e)
{
	struct mreader r;

	begin(&r, name, 0, fn, ctx, info, e);
	csvread_mem(&r.csv, data, len);
	return end(&r);
}

int modmem_read(const char *path, memrec_fn fn, void *ctx,
                struct memrec_info *info, struct err *e)
{
	struct mreader r;

	begin(&r, path, 1, fn, ctx, info, e);
	csvread_file(&r.csv);
	return end(&r);
}

int modmem_read_mem(const char *name, const void *data, size_t len,
                    memrec_fn fn, void *ctx, struct memrec_info *info,
                    struct err *e)
{
	struct mreader r;

	begin(&r, name, 1, fn, ctx, info, e);
	csvread_mem(&r.csv, data, len);
	return end(&r);
}
