/* step_trace_time.csv reader. The whole (small) file is read through
 * infile, then fed to libcsv one physical line at a time so that messages
 * can name real line numbers (libcsv skips empty lines). Every value error
 * is fatal: the file is the profiler's own summary, a bad value means the
 * file is not what it claims to be. */
#include "input/steptrace.h"

#include <csv.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/infile.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX  60 /* bytes of a bad value quoted in a message */
#define READ_CHUNK (1u << 20)
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
	const char *name;
	struct steptrace *st;
	struct err *e;
	struct csv_parser p;
	int failed;
	int in_header;

	uint64_t line;     /* physical line being fed, 1-based */
	uint64_t row_line; /* line where the current row began */
	int at_line_start;
	int row_pending; /* the next non-empty line begins a row */

	unsigned char *colmap;
	char **colnames;
	size_t ncols, acols;
	size_t fidx; /* index of the next field in the current row */
	size_t alloc;
	struct step_row row;
	uint64_t fed; /* bytes fed so far */
};

#define MAX_COLUMNS     256        /* the file has about ten */
#define MAX_FIELD       (1u << 20) /* longer: a runaway quote */
#define MAX_HEADER_NAME 4096       /* bytes of one header name */

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

/* ---- messages ---------------------------------------------------------- */

/* Records the (fatal) error: prefix, then the quoted value if any. */
static void fail(struct streader *r, const char *prefix, const char *v,
                 size_t len, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, prefix);
	if (v)
		strbuf_add_quoted_value(&sb, v, len, max);
	err_set(r->e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	r->failed = 1;
}

static void fail_field(struct streader *r, size_t i, const char *what,
                       const char *v, size_t len)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "%s:%" PRIu64 ": column %zu '%s': %s: ", r->name,
	            r->row_line, i + 1,
	            i < r->ncols ? r->colnames[i] : "(beyond header)", what);
	fail(r, msg.buf, v, len, QUOTE_MAX);
	strbuf_release(&msg);
}

/* ---- header ------------------------------------------------------------ */

static void header_field(struct streader *r, const char *s, size_t len)
{
	const char *end;
	size_t i = r->ncols, k, c = 0, cap;
	struct strbuf msg = STRBUF_INIT;

	if (i == 0 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
		s += 3;
		len -= 3;
	}
	end = s + len;
	trim(&s, &end); /* a quoted header keeps its blanks in libcsv */
	len = (size_t)(end - s);
	if (i >= MAX_COLUMNS || len > MAX_HEADER_NAME) {
		strbuf_addf(&msg, "%s:%" PRIu64 ": column %zu: %s (limit %d): ",
		            r->name, r->row_line, i + 1,
		            i >= MAX_COLUMNS ? "too many columns"
		                             : "header name too long",
		            i >= MAX_COLUMNS ? MAX_COLUMNS : MAX_HEADER_NAME);
		fail(r, msg.buf, s, len, QUOTE_MAX);
		strbuf_release(&msg);
		return;
	}
	for (k = 0; k < NCOLUMNS; k++)
		if (strlen(columns[k].name) == len &&
		    !strncasecmp(columns[k].name, s, len))
			c = k + 1;
	for (k = 0; c && k < i; k++)
		if (r->colmap[k] == c) {
			strbuf_addf(&msg,
			            "%s:%" PRIu64 ": column %zu: duplicate "
			            "column: ",
			            r->name, r->row_line, i + 1);
			fail(r, msg.buf, s, len, QUOTE_MAX);
			strbuf_release(&msg);
			return;
		}
	cap = r->acols; /* both arrays grow in powers of two */
	r->colmap = xgrow(r->colmap, 1, i + 1, &cap);
	r->colnames = xgrow(r->colnames, sizeof(char *), i + 1, &r->acols);
	r->colmap[i] = (unsigned char)c;
	r->colnames[i] = xstrndup(s, len);
	r->ncols++;
}

static int has_column(const struct streader *r, size_t c)
{
	size_t i;

	for (i = 0; i < r->ncols; i++)
		if (r->colmap[i] == c)
			return 1;
	return 0;
}

static void header_done(struct streader *r)
{
	struct strbuf hdr = STRBUF_INIT, msg = STRBUF_INIT;
	size_t k, i;

	r->in_header = 0;
	for (k = 0; k < NCOLUMNS; k++) {
		if (!columns[k].required || has_column(r, k + 1))
			continue;
		for (i = 0; i < r->ncols; i++)
			strbuf_addf(&hdr, "%s%s", i ? "," : "", r->colnames[i]);
		strbuf_addf(&msg,
		            "%s:%" PRIu64 ": missing required column '%s' "
		            "(is this a step_trace_time.csv?); header: ",
		            r->name, r->row_line, columns[k].name);
		fail(r, msg.buf, hdr.buf, hdr.len, HEADER_MAX);
		break;
	}
	strbuf_release(&hdr);
	strbuf_release(&msg);
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
			fail_field(r, i, "not a step number", s, len);
		else
			r->row.step = (int32_t)v;
		break;
	case K_DEVICE:
		if (parse_small_int(s, len, &v))
			fail_field(r, i, "not a device id", s, len);
		else
			r->row.device_id = v;
		break;
	case K_TIME:
		if (parse_us(s, len, &v))
			fail_field(r, i, "not a number", s, len);
		else
			memcpy((char *)&r->row + c->off, &v, sizeof(v));
		break;
	}
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct streader *r = ctx;
	size_t i = r->fidx++;

	if (r->failed)
		return;
	if (r->in_header)
		header_field(r, data, len);
	else if (i < r->ncols && r->colmap[i])
		data_field(r, i, data, len);
}

static void row_reset(struct streader *r)
{
	memset(&r->row, 0, sizeof(r->row));
	r->row.step = STEP_NONE;
	r->row.device_id = -1;
	r->row.preparing_ns = -1;
	r->fidx = 0;
	r->row_pending = 1;
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

static void on_row(int term, void *ctx)
{
	struct streader *r = ctx;
	struct steptrace *st = r->st;
	struct strbuf msg = STRBUF_INIT;

	(void)term;
	if (r->failed) {
		/* nothing: the first error stands */
	} else if (r->in_header) {
		header_done(r);
	} else if (r->fidx != r->ncols) {
		strbuf_addf(&msg,
		            "%s:%" PRIu64 ": row has %zu fields, header "
		            "has %zu",
		            r->name, r->row_line, r->fidx, r->ncols);
		fail(r, msg.buf, NULL, 0, 0);
	} else if (grow_rows(r)) {
		membudget_fail(r->e, (r->alloc / 8 + 16) * sizeof(*st->rows),
		               "%s:%" PRIu64 ": steps (%zu rows read)", r->name,
		               r->row_line, st->nrows);
		r->failed = 1;
	} else {
		st->rows[st->nrows++] = r->row;
	}
	strbuf_release(&msg);
	row_reset(r);
}

/* ---- feeding ----------------------------------------------------------- */

/* Feeds one piece that lies within a single physical line. */
static void feed_piece(struct streader *r, const char *s, size_t n)
{
	struct strbuf msg = STRBUF_INIT;

	if (r->at_line_start) {
		r->line++;
		if (r->row_pending && s[0] != '\n' && s[0] != '\r') {
			r->row_line = r->line;
			r->row_pending = 0;
		}
	}
	r->at_line_start = s[n - 1] == '\n';
	if (csv_parse(&r->p, s, n, on_field, on_row, r) != n && !r->failed) {
		strbuf_addf(&msg,
		            "%s:%" PRIu64 ": column %zu: malformed quoting (a "
		            "quote inside an unquoted field, or text after a "
		            "closing quote): ",
		            r->name, r->row_line, r->fidx + 1);
		fail(r, msg.buf, s, n, QUOTE_MAX);
	} else if (!r->failed && r->p.entry_pos > MAX_FIELD) {
		strbuf_addf(&msg,
		            "%s:%" PRIu64 ": column %zu: field longer than "
		            "1 MiB (unterminated quote?): ",
		            r->name, r->row_line, r->fidx + 1);
		fail(r, msg.buf, (const char *)r->p.entry_buf, r->p.entry_pos,
		     QUOTE_MAX);
	}
	strbuf_release(&msg);
}

static void feed(struct streader *r, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len, *nl;
	size_t n;

	while (s < end && !r->failed) {
		nl = memchr(s, '\n', (size_t)(end - s));
		n = nl ? (size_t)(nl - s + 1) : (size_t)(end - s);
		feed_piece(r, s, n);
		s += n;
	}
}

static void finish(struct streader *r)
{
	struct strbuf msg = STRBUF_INIT;

	if (!r->failed && csv_fini(&r->p, on_field, on_row, r) && !r->failed) {
		strbuf_addf(&msg, "%s:%" PRIu64 ": unterminated quoted field",
		            r->name, r->row_line);
		fail(r, msg.buf, NULL, 0, 0);
	} else if (!r->failed && r->in_header) {
		strbuf_addf(&msg, "%s: empty file (no header, no rows)",
		            r->name);
		fail(r, msg.buf, NULL, 0, 0);
	}
	strbuf_release(&msg);
}

static void reader_begin(struct streader *r, const char *name,
                         struct steptrace *st, struct err *e)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->st = st;
	r->e = e;
	r->in_header = 1;
	r->at_line_start = 1;
	row_reset(r);
	st->era = "2023";
	csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
}

static int reader_end(struct streader *r)
{
	if (!r->failed)
		finish(r);
	csv_free(&r->p);
	while (r->ncols)
		free(r->colnames[--r->ncols]);
	free(r->colnames);
	free(r->colmap);
	return r->failed ? -1 : 0;
}

static int parse(const char *name, const char *data, size_t len,
                 struct steptrace *st, struct err *e)
{
	struct streader r;

	reader_begin(&r, name, st, e);
	feed(&r, data, len);
	return reader_end(&r);
}

static int too_big(const char *name, struct err *e)
{
	return err_set(e, ERR_INPUT,
	               "%s: larger than %u MiB uncompressed (the limit for "
	               "step_trace_time.csv)",
	               name, STEPTRACE_MAX_BYTES >> 20);
}

int steptrace_read_mem(const char *name, const void *data, size_t len,
                       struct steptrace *st, struct err *e)
{
	memset(st, 0, sizeof(*st));
	st->path = xstrdup(name);
	st->size = (int64_t)len;
	st->era = "2023";
	if (len > STEPTRACE_MAX_BYTES)
		return too_big(name, e);
	return parse(name, data, len, st, e);
}

int steptrace_read(const char *path, struct steptrace *st, struct err *e)
{
	struct streader r;
	struct infile f;
	char *buf;
	ssize_t n = 0;

	memset(st, 0, sizeof(*st));
	st->path = xstrdup(path);
	st->era = "2023";
	if (infile_open(&f, path, e))
		return -1;
	st->size = f.size;
	st->gz = f.gz;
	/* streamed: the text is never held whole */
	buf = xmalloc(READ_CHUNK);
	reader_begin(&r, path, st, e);
	while (!r.failed && (n = infile_read(&f, buf, READ_CHUNK, e)) > 0) {
		r.fed += (uint64_t)n;
		if (r.fed > STEPTRACE_MAX_BYTES) {
			too_big(path, e);
			r.failed = 1;
			break;
		}
		feed(&r, buf, (size_t)n);
	}
	if (n < 0)
		r.failed = 1;
	free(buf);
	infile_close(&f);
	return reader_end(&r);
}

void steptrace_release(struct steptrace *st)
{
	membudget_release(st->charged);
	free(st->path);
	free(st->rows);
	memset(st, 0, sizeof(*st));
}
