/* Open addressing with linear probing over keyed hashes. */
#include "util/idmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/xalloc.h"
#include "util/banned.h"

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void idmap_release(struct idmap *m)
{
	free(m->slots);
	idmap_init(m);
}

/* The slot holding (a, b), or the empty slot where it belongs. */
static struct idmap_slot *find(const struct idmap *m, uint64_t a, uint64_t b)
{
	size_t mask = m->nslots - 1, i = (size_t)hash_u64x2(a, b) & mask;

	for (;; i = (i + 1) & mask) {
		struct idmap_slot *s = &m->slots[i];
		if (!s->used || (s->a == a && s->b == b))
			return s;
	}
}

static void grow(struct idmap *m)
{
	struct idmap old = *m;
	size_t i;

	m->nslots = old.nslots ? old.nslots * 2 : 16;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	for (i = 0; i < old.nslots; i++)
		if (old.slots[i].used)
			*find(m, old.slots[i].a, old.slots[i].b) = old.slots[i];
	free(old.slots);
}

uint64_t *idmap_get(const struct idmap *m, uint64_t a, uint64_t b)
{
	struct idmap_slot *s;

	if (!m->nslots)
		return NULL;
	s = find(m, a, b);
	return s->used ? &s->value : NULL;
}

int idmap_put(struct idmap *m, uint64_t a, uint64_t b, uint64_t value,
              uint64_t *old)
{
	struct idmap_slot *s;

	if ((m->n + 1) * 2 > m->nslots)
		grow(m);
	s = find(m, a, b);
	if (s->used) {
		if (old)
			*old = s->value;
		return 0;
	}
	s->a = a;
	s->b = b;
	s->value = value;
	s->used = 1;
	m->n++;
	return 1;
}
