/* Raw reading of one complete trace_view.json element, straight from its
 * bytes: the members at depth 1 of the object, the prefilter's "ph" and
 * "name", and the decimal texts of numbers. Nothing is allocated, escapes
 * are not decoded and nothing is validated: the caller's scanner has
 * checked the element's strings and bracket balance, and cJSON judges the
 * rest of an element that is wanted. Internal to the trace readers of
 * input/ (the scanner in trace.c; the TRACE_RAW callbacks of traceprof.c,
 * which read their events from the bytes); the byte classes are shared
 * with the scanner so both agree on what a string and a bracket are. No
 * mutable state: reentrant.
 */
#ifndef SDPERF_TRACE_RAW_H
#define SDPERF_TRACE_RAW_H

#include <stddef.h>
#include <stdint.h>

/* Depth-1 string offsets a scanner records per element (see
 * trace_raw_el). */
#define TRACE_RAW_D1_MAX 64

/* Byte classes, indexed by an unsigned char. trace_raw_out_class: nonzero
 * for the bytes that matter outside strings: '"' '{' '[' '}' ']'.
 * trace_raw_str_class, inside strings: TRACE_RAW_STR_END for '"' and '\\',
 * TRACE_RAW_STR_BREAK for a raw '\n' or '\r' (it cannot stand in a JSON
 * string, so it marks one left open), 0 for every other byte. */
enum { TRACE_RAW_STR_END = 1, TRACE_RAW_STR_BREAK = 2 };
extern const unsigned char trace_raw_out_class[256];
extern const unsigned char trace_raw_str_class[256];

/* JSON white space. */
static inline int trace_raw_is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A complete element: the n bytes at p, starting with '{', whose strings
 * and brackets are balanced. d1[0..nd1) are the offsets from p of the
 * opening quotes of the strings at depth 1 (its keys and string values),
 * in order; nd1 == TRACE_RAW_D1_MAX means the list may be incomplete, and
 * the members are then found by walking the bytes. Borrowed, not owned. */
struct trace_raw_el {
	const char *p;
	size_t n;
	const uint32_t *d1;
	size_t nd1;
};

/* An iterator over the members at depth 1 of an element: plain data on
 * the caller's stack, borrowing the element's bytes. */
struct trace_raw_it {
	const char *p, *end, *el;
	const uint32_t *d1; /* NULL: walk the bytes */
	size_t nd1, i;
};

/* One member: the raw key without its quotes (escapes not decoded), the
 * first byte of the value, and the length of a string (quotes included)
 * or scalar value; vlen is 0 for a bracketed value. */
struct trace_raw_member {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
};

void trace_raw_it_init(struct trace_raw_it *it, const struct trace_raw_el *el);

/* 1 and the next member in m, in the order of the bytes (a repeated key
 * comes each time it stands); 0 at the end, or where the bytes stop
 * reading as members: quietly, as cJSON judges a wanted element. */
int trace_raw_it_next(struct trace_raw_it *it, struct trace_raw_member *m);

/* The prefilter: ph gets the first byte of the raw "ph" string value (0
 * when absent, empty or not a string); name and nlen get the raw bytes of
 * the "name" string value without its quotes (not NUL-terminated; "" and
 * 0 when absent or not a string). The first string-valued "ph" and "name"
 * at depth 1 count. */
void trace_raw_prefilter(const struct trace_raw_el *el, char *ph,
                         const char **name, size_t *nlen);

/* Reads chosen members of a complete element in one go: which(key, klen)
 * names the slot (0..nvals-1) of a key the caller wants, or -1; vals[i]
 * and lens[i] receive the first such member's raw value (a string with
 * its quotes, a scalar as it stands; a bracketed value only its first
 * byte, length 0), or NULL and 0. With the scanner's complete depth-1
 * list every value string is read once and a bracketed value (an event's
 * args) never walked: this runs on every event a reader takes raw. The
 * punctuation passed is checked: -1 when the element does not read as
 * members (what follows a bracketed value is not looked at). */
typedef int (*trace_raw_which_fn)(const char *key, size_t klen);
int trace_raw_members(const struct trace_raw_el *el, trace_raw_which_fn which,
                      const char **vals, size_t *lens, size_t nvals);

/* The text of a raw value: a string without its quotes (escapes not
 * decoded) or a scalar as it stands. 0 when v is NULL or bracketed. */
int trace_raw_text(const char *v, size_t n, const char **t, size_t *tn);

/* Parses the decimal text s/len of a count of microseconds to ns exactly,
 * without floating point ("1736408883686740.710", "17", "-3.5"); a 4th
 * decimal rounds half away from zero, later ones are ignored. -1 when s is
 * not such a number or does not fit in int64 ns; *ns untouched then. */
int trace_raw_parse_us(const char *s, size_t len, int64_t *ns);

/* Parses an optionally negative decimal integer s/len (digits only: no
 * '+', no spaces). -1 when it is not one or its magnitude is above
 * INT64_MAX - 8 (a cheap, slightly conservative overflow test); *out
 * untouched then. */
int trace_raw_parse_i64(const char *s, size_t len, int64_t *out);

#endif
