/* CSV reading skeleton, the one module over libcsv: feeds a file (plain or
 * gzip, through util/infile) or a buffer to the parser one physical line at
 * a time, counts physical lines for messages (libcsv skips empty lines, so
 * its row count drifts from the line count), keeps the header row's names,
 * caps fields, columns, header names and bytes, and words every syntax
 * error the same way. A reader (kernel_details.csv, step_trace_time.csv,
 * any CSV that follows) supplies the column meaning through callbacks. */
#ifndef SDPERF_CSVREAD_H
#define SDPERF_CSVREAD_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/libversion.h"

#define CSVREAD_MAX_FIELD (1u << 20) /* longer: a runaway quote */
#define CSVREAD_MAX_NAME  4096       /* bytes of one header name */
#define CSVREAD_QUOTE_MAX 60         /* bytes of a bad value quoted */

struct csvread;

/* The reader's side. Every callback may stop the read with csvread_fail or
 * csvread_failf; after that none is called again. */
struct csvread_cb {
	/* header field col (0-based), already stored as csvread_colname(r,
	 * col), after the generic checks (BOM stripped, column and name caps,
	 * text, not binary) */
	void (*header_field)(struct csvread *r, size_t col, const char *s,
	                     size_t len);
	void (*header_done)(struct csvread *r); /* the header row ended */
	/* a data field in a column the header named (col < ncols) */
	void (*field)(struct csvread *r, size_t col, const char *s, size_t len);
	/* a data row ended with nfields fields (may differ from ncols) */
	void (*row)(struct csvread *r, size_t nfields);
};

struct csvread_opts {
	const char *what;   /* the file's kind for messages and progress,
	                       e.g. "kernel_details.csv" */
	size_t max_columns; /* header columns accepted */
	uint64_t max_bytes; /* uncompressed bytes accepted; 0: no limit */
	unsigned keep_tabs; /* for this many first data rows, unquoted TABs
	                       are kept in fields (libcsv trims them) */
	int trim_header;    /* blanks around header names are dropped (a
	                       quoted name keeps them in libcsv) */
	int progress;       /* a progress line on stderr (tty only) */
	int need_header;    /* csvread_finish fails on a file that never
	                       ended its header: "NAME: empty file (no
	                       header, no rows)" */
};

struct csvread {
	/* read only for the reader */
	const char *name; /* the file's name in messages */
	void *ctx;        /* the reader's own state */
	struct err *e;
	int failed;
	int in_header;     /* the header row has not ended yet */
	uint64_t line;     /* physical lines begun so far */
	uint64_t row_line; /* physical line where the current row began */
	uint64_t rows;     /* data rows ended so far */
	size_t ncols;      /* header columns */
	int bom;           /* the header began with a UTF-8 BOM */
	int crlf;          /* a line ended in CR LF */
	int64_t size;      /* bytes on disk (csvread_file) or in memory */
	int gz;            /* the file was gzip-compressed */

	/* private */
	const struct csvread_cb *cb;
	const struct csvread_opts *o;
	struct csv_parser *p;
	char **colnames;
	size_t acols;
	size_t fidx; /* index of the next field in the current row */
	int at_line_start;
	int row_pending;           /* the next non-empty line begins a row */
	int shared_names;          /* colnames belong to the header's reader */
	const unsigned char *want; /* see csvread_want */
};

/* Prepares r to read the file called name; ctx is handed back in r->ctx.
 * o and cb must outlive r. */
void csvread_init(struct csvread *r, const char *name,
                  const struct csvread_opts *o, const struct csvread_cb *cb,
                  void *ctx, struct err *e);

/* Reads the whole file at r->name in fixed-size chunks, never holding its
 * text; sets r->size and r->gz. Returns 0, or -1 with an ERR_INPUT error:
 * the file cannot be read, it is larger than o->max_bytes ("NAME: larger
 * than N MiB uncompressed (the limit for WHAT)"), a syntax error, a cap, or
 * whatever a callback failed with. Call csvread_finish afterwards in both
 * cases, then csvread_release. */
int csvread_file(struct csvread *r);

/* The same for bytes in memory; the whole buffer is one feed. */
int csvread_mem(struct csvread *r, const void *data, size_t len);

/* Ends the parse, flushing the last row (an open quote is an error; so
 * is a file without a header when o->need_header is set). Returns 0, or
 * -1 when the read failed (now or before). */
int csvread_finish(struct csvread *r);

/* Releases the parser and the header names (also after a failure). */
void csvread_release(struct csvread *r);

/* ---- one file in chunks, each on its own thread (input/csvsplit.h) ---- */

/* Feeds whole physical lines of buf[0..len) while the header row lasts;
 * returns the bytes fed (the lines up to the one that ended the header,
 * or every whole line of buf). Afterwards r->in_header is 0 once the
 * header ended; r->failed on an error. */
size_t csvread_feed_header(struct csvread *r, const char *buf, size_t len);

/* Prepares c to read one chunk of the file whose header hdr has read: the
 * chunk begins at a line start, between records; c->line and c->row_line
 * count the chunk's own lines from 1. c shares hdr's column names (hdr
 * must outlive c) and callbacks; only the first chunk (first != 0) keeps
 * unquoted TABs for the first o->keep_tabs rows, as the whole-file read
 * does. Errors go to e, one per chunk, since chunks run on threads. */
void csvread_init_chunk(struct csvread *c, const struct csvread *hdr, int first,
                        void *ctx, struct err *e);

/* Feeds bytes of the chunk, in order, as csvread_mem would. */
void csvread_feed(struct csvread *c, const char *buf, size_t len);

/* Ends a chunk that is not the file's last, whose bytes end with a
 * newline: 0 when that newline ended a record (outside quotes, no field
 * pending), so the next chunk starts exactly as a fresh parser does; 1
 * when the boundary is ambiguous (a quoted field or a record runs on, or
 * a blank line left the next row's line number pending); -1 when the
 * chunk failed. */
int csvread_chunk_end(struct csvread *c);

/* From the end of the header on, a data field of column col reaches
 * cb->field only when want[col] is nonzero: want has r->ncols entries and
 * outlives r (a reader's column map). For readers that use a few of many
 * columns: the others then cost no call. Called from cb->header_done. */
void csvread_want(struct csvread *r, const unsigned char *want);

/* Header name of column col as stored (trimmed if asked), or "(beyond
 * header)" past the last one. */
const char *csvread_colname(const struct csvread *r, size_t col);

/* For a reader whose columns are names[1..n-1] (names[0], "none", is
 * never matched): grows *colmap to i + 1 entries and sets (*colmap)[i]
 * to the index of header field i (s, len) among them, compared without
 * case, or 0; a known name given twice fails the read ("duplicate
 * column"). Called from the reader's header callback. */
void csvread_map_column(struct csvread *r, size_t i, const char *s, size_t len,
                        const char *const *names, size_t n,
                        unsigned char **colmap);

/* Whether a header mapped by csvread_map_column has column want. */
int csvread_has_column(const struct csvread *r, const unsigned char *colmap,
                       unsigned char want);

/* Fails the read with "NAME:ROW_LINE: column N 'COLNAME': WHAT: 'VALUE'"
 * (N is col + 1; no 'COLNAME' while in the header; no value when v is
 * NULL), the value quoted and cut at CSVREAD_QUOTE_MAX bytes. */
void csvread_fail(struct csvread *r, size_t col, const char *what,
                  const char *v, size_t len);

/* Fails the read, at the end of the header, with "NAME:LINE: missing
 * required column 'COLUMN' (is this a WHAT?); header: 'A,B,...'", the
 * header quoted up to quote_max bytes. */
void csvread_fail_missing(struct csvread *r, const char *column,
                          size_t quote_max);

/* Fails the read with a message of the reader's own wording. */
void csvread_failf(struct csvread *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* libcsv's versions (sdperf --version): the headers' only, as libcsv
 * has no call that reports its own. */
struct libversion csvread_libcsv_version(void);

#endif
