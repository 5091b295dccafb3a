/* CSV reading skeleton over libcsv (the only file that includes csv.h).
 * libcsv is a push parser whose callbacks cannot stop it, so the error state
 * lives here and every callback returns early once the read failed. Input
 * is fed one physical line at a time so that messages name real lines. */
#include "input/csvread.h"

#include <csv.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/infile.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define READ_CHUNK (1u << 20)

/* ---- messages ---------------------------------------------------------- */

const char *csvread_colname(const struct csvread *r, size_t col)
{
	return col < r->ncols ? r->colnames[col] : "(beyond header)";
}

void csvread_failf(struct csvread *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	err_set(r->e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	r->failed = 1;
}

void csvread_fail(struct csvread *r, size_t col, const char *what,
                  const char *v, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%" PRIu64 ": column %zu", r->name, r->row_line,
	            col + 1);
	if (!r->in_header)
		strbuf_addf(&sb, " '%s'", csvread_colname(r, col));
	strbuf_addf(&sb, ": %s", what);
	if (v) {
		strbuf_adds(&sb, ": ");
		strbuf_add_quoted_value(&sb, v, len, CSVREAD_QUOTE_MAX);
	}
	csvread_failf(r, "%s", sb.buf);
	strbuf_release(&sb);
}

void csvread_fail_missing(struct csvread *r, const char *column,
                          size_t quote_max)
{
	struct strbuf hdr = STRBUF_INIT, msg = STRBUF_INIT;
	size_t i;

	for (i = 0; i < r->ncols; i++)
		strbuf_addf(&hdr, "%s%s", i ? "," : "", r->colnames[i]);
	strbuf_addf(&msg,
	            "%s:%" PRIu64 ": missing required column '%s' (is this a "
	            "%s?); header: ",
	            r->name, r->row_line, column, r->o->what);
	strbuf_add_quoted_value(&msg, hdr.buf, hdr.len, quote_max);
	csvread_failf(r, "%s", msg.buf);
	strbuf_release(&hdr);
	strbuf_release(&msg);
}

/* The field being parsed, for syntax errors: what libcsv holds of it. */
static void fail_in_field(struct csvread *r, const char *what)
{
	size_t n = r->p->entry_pos;

	csvread_fail(r, r->fidx, what, (const char *)r->p->entry_buf,
	             n < CSVREAD_QUOTE_MAX + 4 ? n : CSVREAD_QUOTE_MAX + 4);
}

/* ---- header ------------------------------------------------------------ */

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The generic checks of header field i; 0, or -1 with the read failed. */
static int header_check(struct csvread *r, size_t i, const char *s, size_t len)
{
	size_t bad;
	char what[64];

	if (i >= r->o->max_columns) {
		snprintf(what, sizeof(what), "too many columns (limit %zu)",
		         r->o->max_columns);
		csvread_fail(r, i, what, s, len);
	} else if (len > CSVREAD_MAX_NAME) {
		snprintf(what, sizeof(what), "header name longer than %d bytes",
		         CSVREAD_MAX_NAME);
		csvread_fail(r, i, what, s, len);
	} else if (!utf8_is_text(s, len, &bad)) {
		csvread_fail(r, i, "not a CSV text header (binary data?)", s,
		             len);
	}
	return r->failed ? -1 : 0;
}

static void header_field(struct csvread *r, const char *s, size_t len)
{
	size_t i = r->ncols, cap = r->acols;

	if (i == 0 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
		r->bom = 1;
		s += 3;
		len -= 3;
	}
	if (header_check(r, i, s, len))
		return;
	while (r->o->trim_header && len && is_blank((unsigned char)*s)) {
		s++;
		len--;
	}
	while (r->o->trim_header && len && is_blank((unsigned char)s[len - 1]))
		len--;
	r->colnames = xgrow(r->colnames, sizeof(char *), i + 1, &cap);
	r->acols = cap;
	r->colnames[i] = xstrndup(s, len);
	r->ncols++;
	if (r->cb->header_field)
		r->cb->header_field(r, i, s, len);
}

/* ---- libcsv callbacks -------------------------------------------------- */

/* A field while the header lasts, or for a reader that wants them all. */
__attribute__((noinline)) static void field_slow(struct csvread *r, size_t i,
                                                 const char *data, size_t len)
{
	if (r->failed)
		return;
	if (r->in_header)
		header_field(r, data, len);
	else if (i < r->ncols && r->cb->field)
		r->cb->field(r, i, data, len);
}

/* Called for every field of the file: no frame of its own on the way to
 * a wanted column's callback, none at all for an unwanted one. */
static void on_field(void *data, size_t len, void *ctx)
{
	struct csvread *r = ctx;
	size_t i = r->fidx++;

	if (!r->want)
		field_slow(r, i, data, len);
	else if (i < r->ncols && r->want[i] && !r->failed)
		r->cb->field(r, i, data, len);
}

static void on_row(int term, void *ctx)
{
	struct csvread *r = ctx;

	(void)term;
	if (r->failed) {
		/* nothing: the first error stands */
	} else if (r->in_header) {
		r->in_header = 0;
		if (r->cb->header_done)
			r->cb->header_done(r);
	} else {
		r->rows++;
		if (r->cb->row)
			r->cb->row(r, r->fidx);
	}
	r->fidx = 0;
	r->row_pending = 1;
}

/* ---- feeding ----------------------------------------------------------- */

/* A NUL byte in the header: NUL never occurs in a text header, so say so
 * before libcsv reports whatever the binary bytes happen to look like,
 * quoting the comma-separated field that holds it. */
static void fail_binary_header(struct csvread *r, const char *s, size_t n,
                               const char *nul)
{
	const char *a = nul, *b = nul, *p;
	size_t col = r->ncols;

	while (a > s && a[-1] != ',')
		a--;
	while (b < s + n && *b != ',' && *b != '\n' && *b != '\r')
		b++;
	for (p = s; p < a; p++)
		col += *p == ',';
	r->row_line = r->line + 1;
	csvread_fail(r, col, "not a CSV text header (binary data?)", a,
	             (size_t)(b - a));
}

static void count_line(struct csvread *r, const char *s, size_t n)
{
	if (r->at_line_start) {
		r->line++;
		if (r->row_pending && s[0] != '\n' && s[0] != '\r') {
			r->row_line = r->line;
			r->row_pending = 0;
		}
	}
	r->at_line_start = s[n - 1] == '\n';
	if (n >= 2 && s[n - 1] == '\n' && s[n - 2] == '\r')
		r->crlf = 1;
}

/* Feeds one piece that lies within a single physical line. */
static void feed_piece(struct csvread *r, const char *s, size_t n)
{
	const char *nul;

	if (r->in_header && (nul = memchr(s, '\0', n))) {
		fail_binary_header(r, s, n, nul);
		return;
	}
	count_line(r, s, n);
	if (r->rows == r->o->keep_tabs && r->p->is_space)
		/* seen enough rows: back to libcsv's own (faster) trimming */
		csv_set_space_func(r->p, NULL);
	if (csv_parse(r->p, s, n, on_field, on_row, r) != n && !r->failed)
		fail_in_field(r, "malformed quoting (a quote inside an "
		                 "unquoted field, or text after a closing "
		                 "quote)");
	else if (!r->failed && r->p->entry_pos > CSVREAD_MAX_FIELD)
		fail_in_field(r, "field longer than 1 MiB (unterminated "
		                 "quote?)");
}

static void feed(struct csvread *r, const char *buf, size_t len)
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

static int space_only(unsigned char c)
{
	return c == ' ';
}

void csvread_init(struct csvread *r, const char *name,
                  const struct csvread_opts *o, const struct csvread_cb *cb,
                  void *ctx, struct err *e)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->ctx = ctx;
	r->e = e;
	r->o = o;
	r->cb = cb;
	r->in_header = 1;
	r->at_line_start = 1;
	r->row_pending = 1;
	r->p = xmalloc(sizeof(*r->p));
	csv_init(r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	if (o->keep_tabs)
		csv_set_space_func(r->p, space_only);
	/* grow field buffers in larger steps than libcsv's 128 bytes */
	csv_set_blk_size(r->p, 4096);
}

static int too_big(struct csvread *r)
{
	csvread_failf(r,
	              "%s: larger than %" PRIu64 " MiB uncompressed (the "
	              "limit for %s)",
	              r->name, r->o->max_bytes >> 20, r->o->what);
	return -1;
}

int csvread_mem(struct csvread *r, const void *data, size_t len)
{
	r->size = (int64_t)len;
	if (r->o->max_bytes && len > r->o->max_bytes)
		return too_big(r);
	feed(r, data, len);
	return r->failed ? -1 : 0;
}

int csvread_file(struct csvread *r)
{
	struct infile f;
	struct progress pg;
	struct strbuf label = STRBUF_INIT;
	char *buf;
	ssize_t n;
	uint64_t fed = 0;

	if (infile_open(&f, r->name, r->e)) {
		r->failed = 1;
		return -1;
	}
	r->size = f.size;
	r->gz = f.gz;
	strbuf_addf(&label, "reading %s", r->o->what);
	progress_start(&pg, label.buf, f.size, r->o->progress);
	buf = xmalloc(READ_CHUNK);
	while (!r->failed && (n = infile_read(&f, buf, READ_CHUNK, r->e))) {
		if (n < 0) {
			r->failed = 1;
			break;
		}
		fed += (uint64_t)n;
		if (r->o->max_bytes && fed > r->o->max_bytes) {
			too_big(r);
			break;
		}
		feed(r, buf, (size_t)n);
		progress_add(&pg, f.gz ? 0 : n);
	}
	progress_stop(&pg);
	free(buf);
	infile_close(&f);
	strbuf_release(&label);
	return r->failed ? -1 : 0;
}

/* ---- a file in chunks (input/csvsplit.c drives these) ----------------- */

size_t csvread_feed_header(struct csvread *r, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len, *nl;
	size_t n;

	while (s < end && r->in_header && !r->failed) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			break; /* a line is only fed whole */
		n = (size_t)(nl - s + 1);
		feed_piece(r, s, n);
		s += n;
	}
	return (size_t)(s - buf);
}

void csvread_init_chunk(struct csvread *c, const struct csvread *hdr, int first,
                        void *ctx, struct err *e)
{
	csvread_init(c, hdr->name, hdr->o, hdr->cb, ctx, e);
	/* keep_tabs counts rows from the file's first: chunk 0 alone keeps
	 * TABs, the others start where the whole-file parse would be */
	if (!first)
		csv_set_space_func(c->p, NULL);
	c->in_header = 0;
	c->ncols = hdr->ncols;
	c->colnames = hdr->colnames;
	c->shared_names = 1;
	c->want = hdr->want;
	c->bom = hdr->bom;
}

void csvread_feed(struct csvread *c, const char *buf, size_t len)
{
	feed(c, buf, len);
}

int csvread_chunk_end(struct csvread *c)
{
	uint64_t rows = c->rows;

	if (c->failed)
		return -1;
	if (!c->at_line_start || !c->row_pending || c->fidx)
		return 1;
	/* after its last newline the parser must be between records: a
	 * quoted field still open (csv_fini refuses it) or any field
	 * pending means the newline was inside a quoted field */
	if (csv_fini(c->p, on_field, on_row, c) || c->rows != rows)
		return 1;
	return c->failed ? -1 : 0;
}

int csvread_finish(struct csvread *r)
{
	if (!r->failed && csv_fini(r->p, on_field, on_row, r) && !r->failed)
		fail_in_field(r, "unterminated quoted field");
	if (!r->failed && r->o->need_header && r->in_header)
		csvread_failf(r, "%s: empty file (no header, no rows)",
		              r->name);
	return r->failed ? -1 : 0;
}

void csvread_release(struct csvread *r)
{
	if (r->p)
		csv_free(r->p);
	free(r->p);
	r->p = NULL;
	if (r->shared_names) {
		r->ncols = 0;
		r->colnames = NULL; /* the header reader's */
		return;
	}
	while (r->ncols)
		free(r->colnames[--r->ncols]);
	free(r->colnames);
	r->colnames = NULL;
}

void csvread_want(struct csvread *r, const unsigned char *want)
{
	r->want = r->cb->field && !r->in_header ? want : NULL;
}

void csvread_map_column(struct csvread *r, size_t i, const char *s, size_t len,
                        const char *const *names, size_t n,
                        unsigned char **colmap)
{
	size_t k, col = 0;

	for (k = 1; k < n; k++)
		if (strlen(names[k]) == len && !strncasecmp(names[k], s, len))
			col = k;
	for (k = 0; col && k < i; k++)
		if ((*colmap)[k] == col) {
			csvread_fail(r, i, "duplicate column", s, len);
			return;
		}
	*colmap = xrealloc(*colmap, i + 1);
	(*colmap)[i] = (unsigned char)col;
}

int csvread_has_column(const struct csvread *r, const unsigned char *colmap,
                       unsigned char want)
{
	size_t i;

	for (i = 0; i < r->ncols; i++)
		if (colmap[i] == want)
			return 1;
	return 0;
}

struct libversion csvread_libcsv_version(void)
{
	struct libversion v = {"libcsv",
	                       LIBVERSION_STR(CSV_MAJOR) "." LIBVERSION_STR(
	                           CSV_MINOR) "." LIBVERSION_STR(CSV_RELEASE),
	                       NULL};
	return v;
}
