/* Internal to the template engine (see template.h): the templates one
 * render includes, each loaded and parsed once and shared by all the
 * TMPL_INCLUDE tags that name it. A fan-out (a includes b twice, b
 * includes c twice, ...) then costs one parse per name, and the expansion
 * of a partial, known from its first parse, is charged to the render's
 * budget before it is taken again: 2^30 includes of one small file fail
 * in microseconds instead of parsing 64 MiB of copies into 822 MB of
 * nodes. */
#ifndef TMPL_CACHE_H
#define TMPL_CACHE_H

#include <stddef.h>

#include "tmpl/tmpl_internal.h"
#include "util/strtab.h"

struct tmpl_cache {
	struct strtab names;
	struct tmpl **v; /* by name id */
	size_t alloc;
	void (*free_fn)(struct tmpl *t);
};

/* A new template called name, empty and not yet loaded (never NULL). */
struct tmpl *tmpl_new(const char *name);

/* An empty cache; free_fn frees each template on release. */
void tmpl_cache_init(struct tmpl_cache *c, void (*free_fn)(struct tmpl *t));
void tmpl_cache_release(struct tmpl_cache *c);

/* The template called name: the cached one (*fresh = 0), or a new empty
 * one (tmpl_new), added to the cache (*fresh = 1). Owned by the cache. */
struct tmpl *tmpl_cache_get(struct tmpl_cache *c, const char *name, int *fresh);

#endif
