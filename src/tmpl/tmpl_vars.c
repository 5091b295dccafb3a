/* Variable trees for the template engine: named values and loops of rows,
 * looked up linearly in small scopes and through a hash in larger ones. */
#include "tmpl/tmpl_vars.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	return xcalloc(1, sizeof(struct tmpl_vars));
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
	en->rows[en->nrows] = tmpl_vars_new();
	return en->rows[en->nrows++];
}

const char *tmpl_get(const struct tmpl_vars *v, const char *name)
{
	const struct entry *en = tmpl_vars_find(v, name, tmpl_hash_name(name));
	return en && en->value ? en->value : "";
}

size_t tmpl_nrows(const struct tmpl_vars *v, const char *loop)
{
	const struct entry *en = tmpl_vars_find(v, loop, tmpl_hash_name(loop));
	return en && !en->value ? en->nrows : 0;
}

const struct tmpl_vars *tmpl_row(const struct tmpl_vars *v, const char *loop,
                                 size_t i)
{
	const struct entry *en = tmpl_vars_find(v, loop, tmpl_hash_name(loop));
	return en && !en->value && i < en->nrows ? en->rows[i] : NULL;
}
