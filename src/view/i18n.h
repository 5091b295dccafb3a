/* Message catalogues: every human-readable string of the HTML and Markdown
 * reports comes from assets/i18n/<lang>.json, none from code. */
#ifndef SDPERF_I18N_H
#define SDPERF_I18N_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

struct catalog;

/* Loads the embedded catalogue of lang ("en", "zh"). ERR_USAGE for an
 * unknown language, ERR_INTERNAL for a broken embedded file. */
int i18n_load(const char *lang, struct catalog **out, struct err *e);
void i18n_free(struct catalog *c);
const char *i18n_lang(const struct catalog *c);
/* The message, or NULL when the catalogue has no such key. */
const char *i18n_find(const struct catalog *c, const char *key);
/* The message, or the key itself (so a gap shows, and tests catch it). */
const char *i18n_get(const struct catalog *c, const char *key);
/* Appends message `key` with each "{name}" replaced by its value
 * (names[i] -> values[i]); unknown placeholders are kept as they are. */
void i18n_format(const struct catalog *c, const char *key, struct strbuf *out,
                 const char *const *names, const char *const *values, size_t n);
/* How many i18n_get lookups found no message (tests require 0). */
size_t i18n_misses(const struct catalog *c);
/* Number of keys and the i-th key (in file order), for iteration. */
size_t i18n_count(const struct catalog *c);
const char *i18n_key(const struct catalog *c, size_t i);
/* The languages with a catalogue, NULL-terminated. */
const char *const *i18n_languages(void);

#endif
