/* Internal to the template engine (not part of its API, see template.h):
 * the variable tree's layout and lookup, shared by tmpl_vars.c, which builds
 * trees, and template.c, which parses names and reads trees while rendering. */
#ifndef SDPERF_RENDER_TMPL_VARS_H
#define SDPERF_RENDER_TMPL_VARS_H

#include <stddef.h>
#include <stdint.h>

#include "tmpl/template.h"

struct entry {
	char *name;
	uint32_t hash;
	char *value; /* NULL: the entry is a loop */
	size_t len;
	struct tmpl_vars **rows;
	size_t nrows, arows;
};

struct tmpl_vars {
	struct entry *ents;
	size_t n, alloc;
	uint32_t *slots; /* entry index + 1, 0 = empty; NULL while small */
	size_t nslots;   /* a power of two, at least twice n */
};

/* The keyed hash of name (util/hash.h), as stored in struct entry: the
 * parser hashes each name once so that lookups while rendering only
 * compare. */
uint32_t tmpl_hash_name(const char *s);
/* The entry called name (h == tmpl_hash_name(name)) in v's own scope, not its
 * rows; NULL when there is none. The entry is owned by v. */
struct entry *tmpl_vars_find(const struct tmpl_vars *v, const char *name,
                             uint32_t h);

#endif
