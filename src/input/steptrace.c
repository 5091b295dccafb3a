/* step_trace_time.csv reader over input/csvread (which streams the file
 * and names real line numbers in messages). Every value error
 * is fatal: the file is the profiler's own summary, a bad value means the
 * file is not what it claims to be. */
#include "input/steptrace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/csvread.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define HEADER_MAX 300    /* bytes of the header quoted in a message */
#define EXP_MAX    100000 /* |exponent| kept; beyond, the value is 0 or huge */

enum kind { K_STEP = 1, K_DEVICE, K_TIME };

/* The known columns; colmap holds an index into this table plus one. */
static const struct stcol {
	const char *name;
	enum kind kind;
	size_t off; /* of the int64_t in struct step_row (K_TIME) */
	int required;
} columns[] = {
    {"Step", K_STEP, 0, 1},
    {"Device_id", K_DEVICE, 0, 0},
    {"Computing", K_TIME, offsetof(struct step_row, computing_ns), 1},
    {"Communication(Not Overlapped)", K_TIME,
     offsetof(struct step_row, comm_not_overlapped_ns), 1},
    {"Overlapped", K_TIME, offsetof(struct step_row, overlapped_ns), 1},
    {"Communication", K_TIME, offsetof(struct step_row, comm_ns), 1},
    {"Free", K_TIME, offsetof(struct step_row, free_ns), 1},
    {"Stage", K_TIME, offsetof(struct step_row, stage_ns), 1},
    {"Bubble", K_TIME, offsetof(struct step_row, bubble_ns), 1},
    {"Communication(Not Overlapped and Exclude Receive)", K_TIME,
     offsetof(struct step_row, comm_not_overlapped_excl_recv_ns), 1},
    {"Preparing", K_TIME, offsetof(struct step_row, preparing_ns), 0},
};

#define NCOLUMNS      (sizeof(columns) / sizeof(columns[0]))
#define COL_DEVICE_ID 2  /* columns[1] + 1 */
#define COL_PREPARING 11 /* columns[10] + 1 */

struct streader {
	struct steptrace *st;
	struct csvread csv;
	unsigned char *colmap;
	size_t alloc;
	struct step_row row;
};

#define MAX_COLUMNS 256 /* the file has about ten */

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trim(const char **s, const char **end)
{
	while (*s < *end && is_blank((unsigned char)**s))
		(*s)++;
	while (*end > *s && is_blank((unsigned char)(*end)[-1]))
		(*end)--;
}

/* Parses a signed exponent ("-13", "+05") saturating at EXP_MAX. */
static int parse_exp(const char *s, const char *end, long *exp)
{
	int neg = 0;
	long v = 0;

	if (s < end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v < EXP_MAX)
			v = v * 10 + (*s - '0');
	}
	*exp = neg ? -v : v;
	return 0;
}

/* Keeps the digits of m..mend that lie before the ns point (pos digits),
 * rounding on the first one after it; -1 when the result overflows. */
static int scale_digits(const char *m, const char *mend, long pos, int64_t *out)
{
	int64_t acc = 0;
	long i = 0;
	int round = 0;

	for (; m < mend; m++) {
		if (*m == '.')
			continue;
		if (i == pos) {
			round = *m >= '5';
			break;
		}
		if (i < pos && acc > (INT64_MAX - 9) / 10)
			return -1;
		if (i < pos)
			acc = acc * 10 + (*m - '0');
		i++;
	}
	for (; i < pos && acc != 0; i++) {
		if (acc > INT64_MAX / 10)
			return -1;
		acc *= 10;
	}
	if (round && acc == INT64_MAX)
		return -1;
	*out = acc + round;
	return 0;
}

/* Parses decimal microseconds as Python prints floats ("9882.851999999993",
 * "-1.1368683772161603e-13", "0", surrounding blanks allowed) into integer
 * nanoseconds from the text itself, so no binary rounding creeps in:
 * nearest ns, halves away from zero. -1 if not such a number or too big. */
static int parse_us(const char *s, size_t len, int64_t *ns)
{
	const char *end = s + len, *m;
	long intdig = 0, exp = 0;
	int neg = 0, ndig = 0, point = 0;
	int64_t v;

	trim(&s, &end);
	if (s < end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	for (m = s; s < end; s++) {
		if (*s >= '0' && *s <= '9') {
			ndig++;
			intdig += !point;
		} else if (*s == '.' && !point) {
			point = 1;
		} else {
			break;
		}
	}
	if (ndig == 0)
		return -1;
	if (s < end && (*s == 'e' || *s == 'E') && parse_exp(s + 1, end, &exp))
		return -1;
	if (s < end && *s != 'e' && *s != 'E')
		return -1;
	if (scale_digits(m, s, intdig + exp + 3, &v))
		return -1;
	*ns = neg ? -v : v;
	return 0;
}

/* Non-negative decimal integer up to INT32_MAX; -1 otherwise. */
static int parse_small_int(const char *s, size_t len, int64_t *out)
{
	const char *end = s + len;
	int64_t v = 0;

	trim(&s, &end);
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > INT32_MAX)
			return -1;
	}
	*out = v;
	return 0;
}

static int is_empty(const char *s, size_t len)
{
	const char *end = s + len;

	trim(&s, &end);
	return s == end || (end - s == 3 && !memcmp(s, "N/A", 3));
}

/* ---- header ------------------------------------------------------------ */

static void header_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct streader *r = c->ctx;
	size_t k, col = 0;

	for (k = 0; k < NCOLUMNS; k++)
		if (strlen(columns[k].name) == len &&
		    !strncasecmp(columns[k].name, s, len))
			col = k + 1;
	for (k = 0; col && k < i; k++)
		if (r->colmap[k] == col) {
			csvread_fail(c, i, "duplicate column", s, len);
			return;
		}
	r->colmap = xrealloc(r->colmap, i + 1);
	r->colmap[i] = (unsigned char)col;
}

static int has_column(const struct streader *r, size_t c)
{
	size_t i;

	for (i = 0; i < r->csv.ncols; i++)
		if (r->colmap[i] == c)
			return 1;
	return 0;
}

static void header_done(struct csvread *c)
{
	struct streader *r = c->ctx;
	size_t k;

	for (k = 0; k < NCOLUMNS; k++)
		if (columns[k].required && !has_column(r, k + 1)) {
			csvread_fail_missing(c, columns[k].name, HEADER_MAX);
			break;
		}
	r->st->has_device = has_column(r, COL_DEVICE_ID);
	r->st->has_preparing = has_column(r, COL_PREPARING);
	r->st->era = r->st->has_device      ? "2026"
	             : r->st->has_preparing ? "2024"
	                                    : "2023";
}

/* ---- rows -------------------------------------------------------------- */

static void data_field(struct streader *r, size_t i, const char *s, size_t len)
{
	const struct stcol *c = &columns[r->colmap[i] - 1];
	int64_t v;

	switch (c->kind) {
	case K_STEP:
		if (is_empty(s, len))
			r->row.step = STEP_NONE;
		else if (parse_small_int(s, len, &v))
			csvread_fail(&r->csv, i, "not a step number", s, len);
		else
			r->row.step = (int32_t)v;
		break;
	case K_DEVICE:
		if (parse_small_int(s, len, &v))
			csvread_fail(&r->csv, i, "not a device id", s, len);
		else
			r->row.device_id = v;
		break;
	case K_TIME:
		if (parse_us(s, len, &v))
			csvread_fail(&r->csv, i, "not a number", s, len);
		else
			memcpy((char *)&r->row + c->off, &v, sizeof(v));
		break;
	}
}

static void on_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct streader *r = c->ctx;

	if (r->colmap[i])
		data_field(r, i, s, len);
}

static void row_reset(struct streader *r)
{
	memset(&r->row, 0, sizeof(r->row));
	r->row.step = STEP_NONE;
	r->row.device_id = -1;
	r->row.preparing_ns = -1;
}

/* Room for one more row, charged to the memory budget (st->charged): 0,
 * or -1 when it refuses. */
static int grow_rows(struct streader *r)
{
	struct steptrace *st = r->st;
	size_t old = r->alloc;

	if (membudget_grow(&st->rows, sizeof(*st->rows), st->nrows + 1,
	                   &r->alloc))
		return -1;
	st->charged += (uint64_t)(r->alloc - old) * sizeof(*st->rows);
	return 0;
}

static void on_row(struct csvread *c, size_t nfields)
{
	struct streader *r = c->ctx;
	struct steptrace *st = r->st;

	if (nfields != c->ncols) {
		csvread_failf(c,
		              "%s:%" PRIu64 ": row has %zu fields, header "
		              "has %zu",
		              c->name, c->row_line, nfields, c->ncols);
	} else if (grow_rows(r)) {
		membudget_fail(c->e, (r->alloc / 8 + 16) * sizeof(*st->rows),
		               "%s:%" PRIu64 ": steps (%zu rows read)", c->name,
		               c->row_line, st->nrows);
		c->failed = 1;
	} else {
		st->rows[st->nrows++] = r->row;
	}
	row_reset(r);
}

/* ---- reading ----------------------------------------------------------- */

static const struct csvread_cb callbacks = {header_field, header_done, on_field,
                                            on_row};

static const struct csvread_opts csv_opts = {
    .what = "step_trace_time.csv",
    .max_columns = MAX_COLUMNS,
    .max_bytes = STEPTRACE_MAX_BYTES,
    .trim_header = 1, /* a quoted header keeps its blanks in libcsv */
    .need_header = 1,
};

static void reader_begin(struct streader *r, const char *name,
                         struct steptrace *st, struct err *e)
{
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	st->path = xstrdup(name);
	st->era = "2023";
	r->st = st;
	row_reset(r);
	csvread_init(&r->csv, name, &csv_opts, &callbacks, r, e);
}

static int reader_end(struct streader *r)
{
	struct csvread *c = &r->csv;

	csvread_finish(c);
	r->st->size = c->size;
	r->st->gz = c->gz;
	csvread_release(c);
	free(r->colmap);
	return c->failed ? -1 : 0;
}

int steptrace_read_mem(const char *name, const void *data, size_t len,
                       struct steptrace *st, struct err *e)
{
	struct streader r;

	reader_begin(&r, name, st, e);
	csvread_mem(&r.csv, data, len);
	return reader_end(&r);
}

int steptrace_read(const char *path, struct steptrace *st, struct err *e)
{
	struct streader r;

	reader_begin(&r, path, st, e);
	csvread_file(&r.csv);
	return reader_end(&r);
}

void steptrace_release(struct steptrace *st)
{
	membudget_release(st->charged);
	free(st->path);
	free(st->rows);
	memset(st, 0, sizeof(*st));
}
