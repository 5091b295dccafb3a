/* report.json read back: snapshot_from_json (declared in analysis/compare.h,
 * which owns struct snapshot; input/snapshot.c) and look-ups by path for
 * sdperf check (input/snapdoc.c). Both walk the text in place
 * (input/jsonpull.h), so memory is the text and what is read from it. */
#ifndef SDPERF_SNAPSHOT_H
#define SDPERF_SNAPSHOT_H

#include <stddef.h>

#include "analysis/compare.h"
#include "util/err.h"
#include "util/strbuf.h"

/* What snapshot_from_json reads at most, beyond which a report.json is
 * refused (sdperf writes at most 2,000 types per stage). */
#define SNAPSHOT_MAX_TYPES      65536 /* per stage's top_kernels */
#define SNAPSHOT_MAX_TYPES_TEXT "65,536"
#define SNAPSHOT_MAX_VERDICTS   4096
#define SNAPSHOT_MAX_RANKS      65536

/* A report.json for look-ups by path: the text, checked, never built into
 * a tree (each look-up walks it). Opaque. */
struct snapdoc;

/* Checks any JSON text (name used in messages), which must outlive the
 * doc. Returns 0 with *out set (free it with snapdoc_free), or -1 with
 * ERR_INPUT naming line:column of a syntax error. */
int snapdoc_parse(const char *name, const char *text, size_t len,
                  struct snapdoc **out, struct err *e);
void snapdoc_free(struct snapdoc *d);

enum snapdoc_kind {
	SNAPDOC_MISSING, /* the path leads nowhere: *why says where and why */
	SNAPDOC_NUMBER,  /* *num set */
	SNAPDOC_STRING,  /* *str set (owned by d, freed with it) */
	SNAPDOC_NULL,
	SNAPDOC_BOOL, /* *num set to 1 (true) or 0 (false) */
	SNAPDOC_OTHER /* object or array: *why lists an object's keys */
};

/* Follows path: keys separated by dots, array elements by index
 * ("stages.dit.categories.FA.share_pct", "ranks.2.dit_compute_us"). A key
 * matches exactly, else ignoring case; keys that contain dots
 * ("kernel_details.csv") match whole. num, str and why may be NULL; why
 * receives an English explanation for SNAPDOC_MISSING ("no key 'XX' in
 * stages.dit.categories; names there: FA, MatMul, ...") and the keys of
 * an object for SNAPDOC_OTHER (the first 50 names, then how many more). */
enum snapdoc_kind snapdoc_get(const struct snapdoc *d, const char *path,
                              double *num, const char **str,
                              struct strbuf *why);

#endif
