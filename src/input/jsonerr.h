/* Error messages of the cJSON readers (communication.json, report.json,
 * profiler_info): the JSON path of the value being read, a bad value
 * quoted by that path, and a syntax error placed at line:column. One
 * place, so every reader words its errors the same way. */
#ifndef SDPERF_JSONERR_H
#define SDPERF_JSONERR_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

struct cJSON;

/* Where a reader is in its document, for messages. */
struct jsonerr {
	const char *name;   /* file name in messages; borrowed */
	struct err *e;      /* where errors go; borrowed */
	struct strbuf path; /* JSON path of the value being read, "" at top */
	char sep;           /* between path parts: '/' or '.' */
};

/* Empty path; name and e are borrowed and must outlive j. */
void jsonerr_init(struct jsonerr *j, const char *name, char sep, struct err *e);
void jsonerr_release(struct jsonerr *j);

/* Appends key (after sep unless the path is empty) and returns the old
 * length, to give back to jsonerr_pop. */
size_t jsonerr_push(struct jsonerr *j, const char *key);
/* The same for array element i, spelt as its decimal index. */
size_t jsonerr_push_index(struct jsonerr *j, size_t i);
/* Cuts the path back to length old (a value jsonerr_push returned). */
void jsonerr_pop(struct jsonerr *j, size_t old);

/* Sets ERR_INPUT "NAME: PATH: what, got 'VALUE'" where VALUE is v printed
 * as compact JSON, cut to 60 bytes; without v, "NAME: PATH: what". The
 * path is sanitized for the terminal. Returns -1. */
int jsonerr_bad(struct jsonerr *j, const char *what, const struct cJSON *v);

/* The number at obj[key], pushed on the path while it is checked, into
 * *out (0 when the key is absent): 0, or jsonerr_bad's -1 when it is no
 * number ("expected a number"), not finite, or outside [lo, hi) ("out of
 * range"). */
int jsonerr_number(struct jsonerr *j, const struct cJSON *obj, const char *key,
                   double lo, double hi, double *out);

/* The same with the value given as JSON text (a streamed reader's). */
int jsonerr_bad_text(struct jsonerr *j, const char *what, const char *text,
                     size_t len);

/* Moves line:col (both counted from 1) over text[0..n): a newline starts
 * the next line at column 1, any other byte is one column. */
void jsonerr_linecol(const char *text, size_t n, uint64_t *line, uint64_t *col);

/* Sets ERR_INPUT "NAME:LINE:COL: what near 'TEXT'": LINE and COL (from 1)
 * of at in text[0..len), TEXT the next 30 bytes quoted. An at outside the
 * text (or NULL) means the end of the text. Returns -1. */
int jsonerr_syntax(struct err *e, const char *name, const char *text,
                   size_t len, const char *at, const char *what);

/* cJSON_ParseWithLengthOpts(text, len, end, 0) for every reader of
 * profile JSON, except that a \u escape of a lone UTF-16 surrogate
 * ("\ud800" without its low half), which cJSON refuses, reads as U+FFFD:
 * one bad marker name or version string must not fail the run. *end (must
 * not be NULL) as cJSON's, pointing into text. Thread-safe. */
struct cJSON *jsonerr_cjson_parse(const char *text, size_t len,
                                  const char **end);

/* Parses text[0..len) as exactly one JSON value, blanks around it allowed.
 * Returns the tree (caller frees with cJSON_Delete), or NULL with
 * ERR_INPUT "NAME: empty file (no JSON value)" or a jsonerr_syntax
 * "JSON syntax error" at the error or at a second value. Thread-safe (it
 * does not use cJSON's global error pointer). */
struct cJSON *jsonerr_parse(const char *name, const char *text, size_t len,
                            struct err *e);

#endif
