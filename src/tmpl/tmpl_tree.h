/* Internal to the template engine (not part of its API, see tmpl_vars.h):
 * the variable tree's layout and lookup, shared by tmpl_vars.c, which builds
 * trees, and template.c, which reads them while rendering. */
#ifndef TMPL_TREE_H
#define TMPL_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct entry {
	char *name;
	uint32_t hash;
	char *value; /* NULL: the entry is a loop */
	size_t len;
	struct tmpl_vars **rows;
	size_t nrows, arows;
};

#define TMPL_MISS_SITES 32 /* misses described in a tree's log */

/* The misses of one tree, shared by all its scopes (owned by the root). */
struct tmpl_misses {
	size_t n;
	uint32_t seen[TMPL_MISS_SITES]; /* keys of the sites described */
	size_t nseen;
	struct strbuf log;
};

struct tmpl_vars {
	struct entry *ents;
	size_t n, alloc;
	uint32_t *slots; /* entry index + 1, 0 = empty; NULL while small */
	size_t nslots;   /* a power of two, at least twice n */
	struct tmpl_misses *misses; /* the tree's */
	int is_row;                 /* misses belongs to the root */
};

/* The keyed hash of name (util/hash.h), as stored in struct entry: the
 * parser hashes each name once so that lookups while rendering only
 * compare. */
uint32_t tmpl_hash_name(const char *s);
/* The entry called name (h == tmpl_hash_name(name)) in v's own scope, not its
 * rows; NULL when there is none. The entry is owned by v. */
struct entry *tmpl_vars_find(const struct tmpl_vars *v, const char *name,
                             uint32_t h);

/* Counts a miss in v's tree; 1 when the site `key` (any hash naming where
 * and what was looked up) is new and the log has room, so that the caller
 * describes it with tmpl_vars_miss_describe; else 0. */
int tmpl_vars_miss(const struct tmpl_vars *v, uint32_t key);
/* Appends one line to v's tree's log of misses. */
void tmpl_vars_miss_describe(const struct tmpl_vars *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
