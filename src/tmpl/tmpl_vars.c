/* Variable trees for the template engine: named values and loops of rows,
 * looked up linearly in small scopes and through a hash in larger ones, and
 * the count of lookups that found nothing. */
#include "tmpl/tmpl_vars.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl/tmpl_tree.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "util/banned.h"

#define SMALL_SCOPE 8 /* names searched linearly before a hash is built */

uint32_t tmpl_hash_name(const char *s)
{
	return (uint32_t)hash_bytes(s, strlen(s));
}

struct entry *tmpl_vars_find(const struct tmpl_vars *v, const char *name,
                             uint32_t h)
{
	size_t i, mask;
	struct entry *en;

	if (!v->slots) {
		for (i = 0; i < v->n; i++)
			if (v->ents[i].hash == h &&
			    !strcmp(v->ents[i].name, name))
				return &v->ents[i];
		return NULL;
	}
	mask = v->nslots - 1;
	for (i = h & mask; v->slots[i]; i = (i + 1) & mask) {
		en = &v->ents[v->slots[i] - 1];
		if (en->hash == h && !strcmp(en->name, name))
			return en;
	}
	return NULL;
}

static void index_entry(struct tmpl_vars *v, size_t idx)
{
	size_t mask = v->nslots - 1, i = v->ents[idx].hash & mask;

	while (v->slots[i])
		i = (i + 1) & mask;
	v->slots[i] = (uint32_t)(idx + 1);
}

static void reindex(struct tmpl_vars *v)
{
	size_t i;

	free(v->slots);
	v->nslots = v->nslots ? v->nslots * 2 : 4 * SMALL_SCOPE;
	v->slots = xcalloc(v->nslots, sizeof(*v->slots));
	for (i = 0; i < v->n; i++)
		index_entry(v, i);
}

static void entry_drop_rows(struct entry *en)
{
	size_t i;

	for (i = 0; i < en->nrows; i++)
		tmpl_vars_free(en->rows[i]);
	free(en->rows);
	en->rows = NULL;
	en->nrows = en->arows = 0;
}

/* The entry called name, added (as an empty loop) when missing. */
static struct entry *vars_get(struct tmpl_vars *v, const char *name)
{
	uint32_t h = tmpl_hash_name(name);
	struct entry *en = tmpl_vars_find(v, name, h);

	if (en)
		return en;
	v->ents = xgrow(v->ents, sizeof(*v->ents), v->n + 1, &v->alloc);
	en = &v->ents[v->n++];
	memset(en, 0, sizeof(*en));
	en->name = xstrdup(name);
	en->hash = h;
	if (v->n > SMALL_SCOPE) {
		if (!v->slots || v->n * 2 > v->nslots)
			reindex(v);
		else
			index_entry(v, v->n - 1);
	}
	return en;
}

struct tmpl_vars *tmpl_vars_new(void)
{
	struct tmpl_vars *v = xcalloc(1, sizeof(*v));

	v->misses = xcalloc(1, sizeof(*v->misses));
	strbuf_init(&v->misses->log);
	return v;
}

void tmpl_vars_free(struct tmpl_vars *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		free(v->ents[i].name);
		free(v->ents[i].value);
		entry_drop_rows(&v->ents[i]);
	}
	free(v->ents);
	free(v->slots);
	if (!v->is_row) {
		strbuf_release(&v->misses->log);
		free(v->misses);
	}
	free(v);
}

void tmpl_set(struct tmpl_vars *v, const char *name, const char *value)
{
	struct entry *en = vars_get(v, name);

	entry_drop_rows(en);
	free(en->value);
	en->value = xstrdup(value ? value : "");
	en->len = strlen(en->value);
}

void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

struct tmpl_vars *tmpl_add_row(struct tmpl_vars *v, const char *loop)
{
	struct entry *en = vars_get(v, loop);

	free(en->value);
	en->value = NULL;
	en->len = 0;
	en->rows =
	    xgrow(en->rows, sizeof(*en->rows), en->nrows + 1, &en->arows);
	en->rows[en->nrows] = xcalloc(1, sizeof(struct tmpl_vars));
	en->rows[en->nrows]->misses = v->misses;
	en->rows[en->nrows]->is_row = 1;
	return en->rows[en->nrows++];
}

void tmpl_define_loop(struct tmpl_vars *v, const char *loop)
{
	struct entry *en = vars_get(v, loop);

	free(en->value);
	en->value = NULL;
	en->len = 0;
}

/* ---- reading back, and misses ------------------------------------------- */

int tmpl_vars_miss(const struct tmpl_vars *v, uint32_t key)
{
	struct tmpl_misses *m = v->misses;
	size_t i;

	m->n++;
	if (m->nseen == TMPL_MISS_SITES)
		return 0;
	for (i = 0; i < m->nseen; i++)
		if (m->seen[i] == key)
			return 0;
	m->seen[m->nseen++] = key;
	return 1;
}

void tmpl_vars_miss_describe(const struct tmpl_vars *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&v->misses->log, fmt, ap);
	va_end(ap);
	strbuf_addch(&v->misses->log, '\n');
}

/* A reader's lookup of name found no `what`: counted, and the first time at
 * file:line, described. */
static void reader_miss(const struct tmpl_vars *v, const char *what,
                        const char *name, const char *file, int line)
{
	const char *base = strrchr(file, '/');
	uint32_t key =
	    tmpl_hash_name(name) ^
	    (uint32_t)hash_u64x2((uint64_t)(uintptr_t)file, (uint64_t)line);

	if (tmpl_vars_miss(v, key))
		tmpl_vars_miss_describe(v, "%s:%d: no %s '%s'",
		                        base ? base + 1 : file, line, what,
		                        name);
}

static const struct entry *find_kind(const struct tmpl_vars *v,
                                     const char *name, int loop,
                                     const char *file, int line)
{
	const struct entry *en = tmpl_vars_find(v, name, tmpl_hash_name(name));

	if (!en || (en->value == NULL) != loop) {
		reader_miss(v, loop ? "loop" : "value", name, file, line);
		return NULL;
	}
	return en;
}

const char *tmpl_get_at(const struct tmpl_vars *v, const char *name,
                        const char *file, int line)
{
	const struct entry *en = find_kind(v, name, 0, file, line);
	return en ? en->value : "";
}

size_t tmpl_nrows_at(const struct tmpl_vars *v, const char *loop,
                     const char *file, int line)
{
	const struct entry *en = find_kind(v, loop, 1, file, line);
	return en ? en->nrows : 0;
}

const struct tmpl_vars *tmpl_row_at(const struct tmpl_vars *v, const char *loop,
                                    size_t i, const char *file, int line)
{
	const struct entry *en = find_kind(v, loop, 1, file, line);
	return en && i < en->nrows ? en->rows[i] : NULL;
}

size_t tmpl_vars_misses(const struct tmpl_vars *v)
{
	return v->misses->n;
}

const char *tmpl_vars_miss_log(const struct tmpl_vars *v)
{
	return v->misses->log.buf ? v->misses->log.buf : "";
}
