/* A pull reader for JSON documents that are read for a few of their values:
 * the caller walks objects and arrays member by member and hands only the
 * small values it uses to cJSON (jp_parse), one at a time. Nothing else of
 * the document is kept, so memory is the reader's buffer plus the largest
 * value parsed, whatever the document holds: communication.json (streamed
 * from the file, gzip or not), report.json and profiler_info (in memory).
 *
 * Every byte passed over is checked: the structure (braces, brackets,
 * commas, colons, keys), strings (escapes, no raw control characters),
 * numbers and literals follow RFC 8259, so a syntax error anywhere is an
 * error even in values the caller skips. Errors are ERR_INPUT naming the
 * file, line and column: "NAME:LINE:COL: JSON syntax error near 'TEXT'".
 * Nesting deeper than JP_MAX_DEPTH is an error.
 *
 * Reentrant: no static state (ranks are read in parallel threads). */
#ifndef SDPERF_JSONPULL_H
#define SDPERF_JSONPULL_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/infile.h"
#include "util/strbuf.h"

struct cJSON;

#define JP_MAX_DEPTH 1000        /* nested objects and arrays (cJSON's) */
#define JP_MAX_KEY   (64u << 10) /* bytes of one object key */

enum jp_type {
	JP_NONE, /* not a value: the end of the data or a stray byte */
	JP_OBJECT,
	JP_ARRAY,
	JP_STRING,
	JP_NUMBER,
	JP_LITERAL /* true, false, null */
};

struct jpull {
	const char *name; /* for messages; borrowed */
	struct err *e;
	/* the data: buf[0..len) holds bytes [base, base + len) of it */
	const char *buf;
	size_t len, pos;
	uint64_t base;
	char *own; /* buf when reading a file */
	struct infile f;
	int from_file, eof;
	/* jp_open_mem_chunked: the "file" is these bytes, read in pieces */
	const char *src;
	size_t srclen, srcpos, srcchunk;
	uint64_t max; /* a file longer than this is an error */
	const char *max_what;
	uint64_t line, col; /* of buf[pos] */
	int failed;
	unsigned depth; /* open objects and arrays */
	unsigned char is_obj[JP_MAX_DEPTH + 1], first[JP_MAX_DEPTH + 1];
	/* jp_parse: the value being captured (file), from buf[cap_from];
	 * 2: only its first cap_max bytes (jp_skip_quote) */
	int capturing;
	size_t cap_from;
	struct strbuf cap;
	uint64_t cap_max, cap_line, cap_col;
	const char *cap_what;
	struct strbuf key; /* jp_find's */
	/* the words of a syntax error, "JSON syntax error" unless set */
	const char *syntax_what;
};

/* Where a value starts, to come back to it (data in memory only). After
 * jp_reset the reader may read that value and, with jp_next, the rest of
 * the object or array holding it; it must not read on past that
 * container's end (the mark does not remember the containers above). */
struct jp_mark {
	size_t pos;
	uint64_t line, col;
	unsigned depth;
	unsigned char is_obj, first; /* of the innermost container */
};

/* Reads the file at path (gzip or not) in chunks; more than max bytes
 * (uncompressed) is an error: "PATH: larger than N MiB uncompressed (the
 * limit for WHAT)". Returns 0, or -1 with e set (the file cannot be
 * opened). jp_close it in any case. */
int jp_open_file(struct jpull *p, const char *path, uint64_t max,
                 const char *what, struct err *e);
/* Reads text[0..len), which must outlive p; name is used in messages. */
void jp_open_mem(struct jpull *p, const char *name, const char *text,
                 size_t len, struct err *e);
/* As jp_open_mem, but the data goes through the window chunk bytes at a
 * time, as a file's would: for tests and fuzzing of the window. */
void jp_open_mem_chunked(struct jpull *p, const char *name, const char *text,
                         size_t len, size_t chunk, struct err *e);
void jp_close(struct jpull *p);

/* The type of the next value (after blanks), by its first byte. JP_NONE
 * at the end of the data or before a byte no value starts with (or after
 * an error). */
enum jp_type jp_type(struct jpull *p);

/* Enters the object or array that comes next: 0, or -1 (error; also when
 * the next value is neither). */
int jp_enter(struct jpull *p);

/* In the innermost open object or array: moves to its next member or
 * element. 1: there is one; in an object its key is read into key (when
 * not NULL, decoded: escapes, surrogate pairs; a lone surrogate becomes
 * U+FFFD) and the reader stands at its value, which the caller must read
 * (jp_enter, jp_skip or jp_parse) before the next jp_next. 0: the
 * container ended (and is closed). -1: error. */
int jp_next(struct jpull *p, struct strbuf *key);

/* Passes over the next value, checking it: 0 or -1. */
int jp_skip(struct jpull *p);

/* Parses the next value with cJSON (the caller frees the tree with
 * cJSON_Delete): NULL with e set on a syntax error or a value over max
 * bytes ("NAME:LINE:COL: a JSON value larger than N KiB (the limit for
 * WHAT)"; from a file, the value is never held longer than that). */
struct cJSON *jp_parse(struct jpull *p, size_t max, const char *what);

/* Passes over the next value like jp_skip; out receives its first max
 * bytes with the blanks outside strings dropped (as cJSON prints it
 * compactly), to quote a value of the wrong type in a message. */
int jp_skip_quote(struct jpull *p, struct strbuf *out, size_t max);

/* 1 when only blanks are left (an empty document at the start), else 0. */
int jp_eof(struct jpull *p);

/* After the top-level value: 0 if only blanks follow, else -1 with a
 * syntax error at the second value. At the start, jp_type == JP_NONE with
 * no error means an empty document ("NAME: empty file (no JSON value)"
 * is for the caller to say). */
int jp_end(struct jpull *p);

/* Sets the syntax error "NAME:LINE:COL: what near 'TEXT'" at the current
 * position; returns -1. */
int jp_error(struct jpull *p, const char *what);

/* The line and column (from 1) of the next byte, for messages. */
void jp_where(const struct jpull *p, uint64_t *line, uint64_t *col);

/* A mark at the next value, and back to it (in-memory data only). */
void jp_mark(struct jpull *p, struct jp_mark *m);
void jp_reset(struct jpull *p, const struct jp_mark *m);

/* The value of the first member named key (exactly) of the object at obj:
 * 1 with *val marking it (the reader stands there), 0 when absent or obj
 * is no object, -1 on error. In-memory data only. */
int jp_find(struct jpull *p, const struct jp_mark *obj, const char *key,
            struct jp_mark *val);

#endif
