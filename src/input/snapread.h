/* Reading report.json's values in place, for input/snapshot.c: a value
 * is found by key in its object and parsed alone (input/jsonpull.h), the
 * document is never built into a tree. Every value read that is missing
 * or bad is an error naming its JSON path (r->j: the reader pushes the
 * keys and indices it walks, dotted, as sdperf check --max spells them).
 *
 * The look-ups below return 0 (found, *out set) or -1 with the error set
 * in r->j.e, unless said otherwise. A reader is zeroed, then its p and j
 * opened (jp_open_mem, jsonerr_init) by the caller, who closes them. */
#ifndef SDPERF_SNAPREAD_H
#define SDPERF_SNAPREAD_H

#include <stddef.h>
#include <stdint.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"

struct cJSON;

/* A value of the document: where it starts, and its type. */
struct snapread_val {
	struct jp_mark m;
	enum jp_type t;
};

/* The number of keys the reader remembers per object (input/snapread.c's
 * list: those snapshot.c looks up). */
#define SNAPREAD_NKNOWN 45
#define SNAPREAD_NCACHE 8 /* objects remembered */

struct snapread_cache {
	size_t pos; /* the object's mark; 0 = empty (no object starts at 0
	             * that is not the root, which is cached too: +1) */
	signed char at[SNAPREAD_NKNOWN]; /* index in v, -1 when absent */
	struct snapread_val v[SNAPREAD_NKNOWN];
};

/* The reader: the text, the JSON path for messages, the objects whose
 * members were found. */
struct snapread {
	struct jpull p;
	struct jsonerr j;
	struct snapread_cache cache[SNAPREAD_NCACHE];
	unsigned next; /* cache slot to fill next */
};

/* obj[key]: 1 with *out set (and the reader at it), 0 when absent (or obj
 * is no object), -1 on error. */
int snapread_find(struct snapread *r, const struct snapread_val *obj,
                  const char *key, struct snapread_val *out);
/* The scalar at v as a cJSON value (the caller deletes it), or NULL with
 * the error set. */
struct cJSON *snapread_scalar(struct snapread *r, const struct snapread_val *v);
/* v is the literal null: 1 or 0. */
int snapread_is_null(const struct snapread *r, const struct snapread_val *v);
/* Sets "PATH.key: what, got 'VALUE'" for the value at v (key NULL: the
 * path as it is; v NULL: no value quoted); always -1. */
int snapread_bad(struct snapread *r, const char *key, const char *what,
                 const struct snapread_val *v);

/* o[key], which must be there and of the type named. */
int snapread_get_obj(struct snapread *r, const struct snapread_val *o,
                     const char *key, struct snapread_val *out);
int snapread_get_arr(struct snapread *r, const struct snapread_val *o,
                     const char *key, struct snapread_val *out);
/* true/false as 1/0. */
int snapread_get_bool(struct snapread *r, const struct snapread_val *o,
                      const char *key, int *out);
/* A string: *out is the caller's (xstrdup'ed). */
int snapread_get_str(struct snapread *r, const struct snapread_val *o,
                     const char *key, char **out);
/* A finite number within [lo, hi]. */
int snapread_get_num(struct snapread *r, const struct snapread_val *o,
                     const char *key, double lo, double hi, double *out);
/* Microseconds with 3 decimals -> exact integer ns, at most about 104
 * days (every value report.json prints). */
int snapread_get_us(struct snapread *r, const struct snapread_val *o,
                    const char *key, int64_t *ns);
/* A non-negative integer below 2^53. */
int snapread_get_count(struct snapread *r, const struct snapread_val *o,
                       const char *key, uint64_t *out);
/* The optional scalar o[key] when its type is t: 1 with *out parsed (the
 * caller deletes it), 0 when absent or of another type, -1 on error. */
int snapread_opt_scalar(struct snapread *r, const struct snapread_val *o,
                        const char *key, enum jp_type t, struct cJSON **out);

/* Elements of the array at a (after the caller checked its type): 0 with
 * *n set, or -1. */
int snapread_count(struct snapread *r, const struct snapread_val *a, size_t *n);

typedef int (*snapread_element_fn)(struct snapread *r,
                                   const struct snapread_val *el, size_t i,
                                   void *ctx);

/* Calls fn on each element of the array at a, its index pushed on the
 * path: 0, or -1 at the first element fn fails. */
int snapread_each(struct snapread *r, const struct snapread_val *a,
                  snapread_element_fn fn, void *ctx);

#endif
