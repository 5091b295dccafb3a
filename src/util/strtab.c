/* String interning with an open-addressing hash table. Kernel type names
 * repeat millions of times in a profile but only a few hundred are
 * distinct, so each row costs one hash lookup and no allocation. The hash
 * is keyed (util/hash.h): names that a hostile file picked to share a
 * bucket under a fixed hash spread out under the process key. */
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/hash.h"
#include "util/xalloc.h"

static uint32_t name_hash(const char *s, size_t len)
{
	return (uint32_t)hash_bytes(s, len);
}

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
}

void strtab_release(struct strtab *t)
{
	uint32_t i;
	for (i = 0; i < t->n; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->lens);
	free(t->slots);
	free(t->hashes);
	strtab_init(t);
}

static uint32_t lookup(const struct strtab *t, const char *s, size_t len,
                       uint32_t h, size_t *slot)
{
	size_t mask = t->nslots - 1, i = h & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t v = t->slots[i];
		if (!v) {
			*slot = i;
			return UINT32_MAX;
		}
		v--;
		if (t->hashes[v] == h && t->lens[v] == len &&
		    !memcmp(t->strs[v], s, len))
			return v;
	}
}

static void rehash(struct strtab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 64, i;
	uint32_t id;

	free(t->slots);
	t->slots = xcalloc(n, sizeof(*t->slots));
	t->nslots = n;
	for (id = 0; id < t->n; id++) {
		i = t->hashes[id] & (n - 1);
		while (t->slots[i])
			i = (i + 1) & (n - 1);
		t->slots[i] = id + 1;
	}
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	size_t slot;
	if (!t->nslots)
		return UINT32_MAX;
	return lookup(t, s, len, name_hash(s, len), &slot);
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
	uint32_t h = name_hash(s, len), id;
	size_t slot, cap;

	if ((t->n + 1) * 2 > t->nslots)
		rehash(t);
	id = lookup(t, s, len, h, &slot);
	if (id != UINT32_MAX)
		return id;
	id = t->n++;
	cap = t->alloc;
	t->strs = xgrow(t->strs, sizeof(*t->strs), t->n, &cap);
	cap = t->alloc;
	t->lens = xgrow(t->lens, sizeof(*t->lens), t->n, &cap);
	t->hashes = xgrow(t->hashes, sizeof(*t->hashes), t->n, &t->alloc);
	t->strs[id] = xstrndup(s, len);
	t->lens[id] = len;
	t->hashes[id] = h;
	t->slots[slot] = id + 1;
	return id;
}
