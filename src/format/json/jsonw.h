/* The JSON writer of report.json and diff.json: values go into a cJSON tree
 * through these helpers, then the tree is printed in one of two layouts.
 * Numbers are raw text built from integers or a fixed "%.3f", so a 16-digit
 * epoch timestamp keeps its last digit and equal results give equal bytes.
 * json.c, json_collect.c and diff_json.c build their trees with it, and
 * so do ftjson.c and ranksum_json.c (a rank summary); they are the only
 * writers that see cJSON. */
#ifndef SDPERF_JSONW_H
#define SDPERF_JSONW_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

/* A string item: s with each byte that is not UTF-8 as U+FFFD (names and
 * paths from a profile may hold any bytes), or null when s is NULL. */
cJSON *jsonw_str(const char *s);

/* Members of object o (or, with key NULL, elements of array o). */
void jsonw_add_str(cJSON *o, const char *key, const char *s);
void jsonw_add_null(cJSON *o, const char *key);
void jsonw_add_bool(cJSON *o, const char *key, int v);
void jsonw_add_u64(cJSON *o, const char *key, uint64_t v);
void jsonw_add_i64(cJSON *o, const char *key, int64_t v);
/* v, or null when it is unknown (present == 0) */
void jsonw_add_opt_i64(cJSON *o, const char *key, int64_t v, int present);
/* integer nanoseconds as microseconds with 3 decimals (numfmt_us) */
void jsonw_add_us(cJSON *o, const char *key, int64_t ns);
/* "%.3f" as printf writes it (a tiny negative value stays "-0.000"); a
 * NaN or an infinity is null (JSON has no such number: the writer never
 * writes a bare nan or inf, whatever reached it) */
void jsonw_add_pct(cJSON *o, const char *key, double v);
/* "%.3f" with -0.000 written as 0.000, or null unless defined */
void jsonw_add_fixed(cJSON *o, const char *key, double v, int defined);
/* A new object or array member of o, returned. */
cJSON *jsonw_add_object(cJSON *o, const char *key);
cJSON *jsonw_add_array(cJSON *o, const char *key);

enum jsonw_layout {
	/* cJSON_Print's: a tab per level, "key":<TAB>value, arrays on one
	 * line with ", " between elements (report.json) */
	JSONW_TABS,
	/* two spaces per level, "key": value, one member or element per
	 * line, strings escaped for a <script> too (diff.json) */
	JSONW_SPACES,
};

/* The most text cJSON prints (its buffer's length is an int): a larger
 * report.json is the error below, not a NULL. */
#define JSONW_MAX_TEXT 2147483647u

/* Appends root in layout, then a newline, to out: 0, or -1 with e set
 * (ERR_OUTPUT, naming name, the file being written) when cJSON cannot
 * print it: the text would pass JSONW_MAX_TEXT bytes, or memory ran out.
 * JSONW_SPACES (sdperf's own printer) does not fail. */
int jsonw_print(const cJSON *root, enum jsonw_layout layout, const char *name,
                struct strbuf *out, struct err *e);

#endif
