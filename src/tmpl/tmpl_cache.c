/* The includes of one render, by name (a keyed string table). */
#include "tmpl/tmpl_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "util/banned.h"

struct tmpl *tmpl_new(const char *name)
{
	struct tmpl *t = xcalloc(1, sizeof(*t));

	t->name = xstrdup(name);
	strbuf_init(&t->text);
	t->src = "";
	return t;
}

void tmpl_cache_init(struct tmpl_cache *c, void (*free_fn)(struct tmpl *t))
{
	memset(c, 0, sizeof(*c));
	strtab_init(&c->names);
	c->free_fn = free_fn;
}

void tmpl_cache_release(struct tmpl_cache *c)
{
	uint32_t i;

	for (i = 0; i < c->names.n; i++)
		c->free_fn(c->v[i]);
	free(c->v);
	strtab_release(&c->names);
}

struct tmpl *tmpl_cache_get(struct tmpl_cache *c, const char *name, int *fresh)
{
	uint32_t n = c->names.n, id;

	id = strtab_intern(&c->names, name, strlen(name));
	*fresh = id == n;
	if (*fresh) {
		c->v = xgrow(c->v, sizeof(*c->v), (size_t)id + 1, &c->alloc);
		c->v[id] = tmpl_new(name);
	}
	return c->v[id];
}
