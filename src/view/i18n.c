/* Catalogue loading (cJSON) and placeholder expansion. */
#include "view/i18n.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/embed.h"
#include "util/strtab.h"
#include "util/xalloc.h"

struct catalog {
	char *lang;
	cJSON *root;
	const cJSON **items; /* in file order */
	size_t n, alloc;
	/* key -> index in items: every label of every row of a report is
	 * looked up, so not by a walk over the catalogue's keys */
	struct strtab keys;
	size_t
	    *misses; /* lookups of absent keys (a pointer: lookups are const) */
};

static const char *const languages[] = {"en", "zh", NULL};

const char *const *i18n_languages(void)
{
	return languages;
}

int i18n_load(const char *lang, struct catalog **out, struct err *e)
{
	struct catalog *c;
	const struct embedded_file *f;
	const cJSON *it;
	char *path;
	size_t i;

	*out = NULL;
	for (i = 0; languages[i] && strcmp(languages[i], lang); i++)
		;
	if (!languages[i])
		return err_set(
		    e, ERR_USAGE,
		    "--lang '%s': no such language (available: en, zh)", lang);
	path = xstrfmt("assets/i18n/%s.json", lang);
	f = embed_find(path);
	free(path);
	if (!f)
		return err_set(e, ERR_INTERNAL, "catalogue for '%s' missing",
		               lang);
	c = xcalloc(1, sizeof(*c));
	c->misses = xcalloc(1, sizeof(*c->misses));
	strtab_init(&c->keys);
	c->lang = xstrdup(lang);
	c->root = cJSON_ParseWithLength((const char *)f->data, f->len);
	if (!cJSON_IsObject(c->root)) {
		i18n_free(c);
		return err_set(e, ERR_INTERNAL, "catalogue for '%s' is broken",
		               lang);
	}
	cJSON_ArrayForEach (it, c->root) {
		if (!cJSON_IsString(it))
			continue;
		if (strtab_find(&c->keys, it->string, strlen(it->string)) !=
		    UINT32_MAX)
			continue; /* a repeated key: cJSON finds the first */
		strtab_intern(&c->keys, it->string, strlen(it->string));
		c->items =
		    xgrow(c->items, sizeof(*c->items), c->n + 1, &c->alloc);
		c->items[c->n++] = it;
	}
	*out = c;
	return 0;
}

void i18n_free(struct catalog *c)
{
	if (!c)
		return;
	cJSON_Delete(c->root);
	free(c->items);
	strtab_release(&c->keys);
	free(c->misses);
	free(c->lang);
	free(c);
}

const char *i18n_lang(const struct catalog *c)
{
	return c->lang;
}

const char *i18n_find(const struct catalog *c, const char *key)
{
	uint32_t i = strtab_find(&c->keys, key, strlen(key));
	return i == UINT32_MAX ? NULL : c->items[i]->valuestring;
}

const char *i18n_get(const struct catalog *c, const char *key)
{
	const char *s = i18n_find(c, key);
	if (!s)
		(*c->misses)++;
	return s ? s : key;
}

size_t i18n_misses(const struct catalog *c)
{
	return *c->misses;
}

void i18n_format(const struct catalog *c, const char *key, struct strbuf *out,
                 const char *const *names, const char *const *values, size_t n)
{
	const char *s = i18n_get(c, key), *open, *close;
	size_t i;

	while ((open = strchr(s, '{')) && (close = strchr(open, '}'))) {
		strbuf_add(out, s, (size_t)(open - s));
		for (i = 0; i < n; i++)
			if (strlen(names[i]) == (size_t)(close - open - 1) &&
			    !strncmp(names[i], open + 1,
			             (size_t)(close - open - 1)))
				break;
		if (i < n)
			strbuf_adds(out, values[i] ? values[i] : "");
		else
			strbuf_add(out, open, (size_t)(close - open + 1));
		s = close + 1;
	}
	strbuf_adds(out, s);
}

size_t i18n_count(const struct catalog *c)
{
	return c->n;
}

const char *i18n_key(const struct catalog *c, size_t i)
{
	return c->items[i]->string;
}
