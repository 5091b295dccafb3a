/* Look-ups by path into a report.json for sdperf check: the text is checked
 * once and walked for each look-up (input/jsonpull.h), never built into a
 * tree, so a check of a large report costs its text and no more. */
#include "input/snapshot.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/jsonpull.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX 60          /* bytes of a bad name quoted in a message */
#define LEAF_MAX  (64u << 10) /* bytes of a string or number looked up */
#define NAMES_MAX 50          /* names listed in a message */

#define LISTS       8            /* objects whose members are remembered */
#define LIST_MAX    4096         /* members remembered of one object */
#define LIST_KEYMAX (256u << 10) /* bytes of their keys */

/* The members of one object, found in one pass: look-ups that pass the
 * same object again (the root, for each --max) need not scan it again. */
struct members {
	size_t pos;   /* of the object, + 1; 0: unused */
	int complete; /* else the object has more: scan it */
	size_t n, keybytes;
	char **key;
	struct jp_mark *m;
};

struct snapdoc {
	const char *name, *text;
	size_t len;
	struct kept {
		char **v;
		size_t n;
		struct members lists[LISTS];
		unsigned next;
	} * kept; /* strings handed out by snapdoc_get; member lists */
};

int snapdoc_parse(const char *name, const char *text, size_t len,
                  struct snapdoc **out, struct err *e)
{
	struct jpull p;
	int ret = -1;

	*out = NULL;
	jp_open_mem(&p, name, text, len, e);
	if (jp_type(&p) == JP_NONE) {
		if (jp_eof(&p))
			err_set(e, ERR_INPUT, "%s: empty file (no JSON value)",
			        name);
		else
			jp_error(&p, "JSON syntax error");
	} else if (!jp_skip(&p) && !jp_end(&p)) {
		*out = xcalloc(1, sizeof(**out));
		(*out)->name = name;
		(*out)->text = text;
		(*out)->len = len;
		(*out)->kept = xcalloc(1, sizeof(*(*out)->kept));
		ret = 0;
	}
	jp_close(&p);
	return ret;
}

static void members_release(struct members *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->key[i]);
	free(l->key);
	free(l->m);
	memset(l, 0, sizeof(*l));
}

void snapdoc_free(struct snapdoc *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < LISTS; i++)
		members_release(&d->kept->lists[i]);
	for (i = 0; i < d->kept->n; i++)
		free(d->kept->v[i]);
	free(d->kept->v);
	free(d->kept);
	free(d);
}

/* ---- walking ------------------------------------------------------------- */

/* The members of the object at m (remembered, up to LIST_MAX). */
static const struct members *members(const struct snapdoc *d, struct jpull *p,
                                     const struct jp_mark *m)
{
	struct kept *k = d->kept;
	struct strbuf key = STRBUF_INIT;
	struct members *l;
	unsigned i;
	int more;

	for (i = 0; i < LISTS; i++)
		if (k->lists[i].pos == m->pos + 1)
			return &k->lists[i];
	/* the root stays: every look-up starts there */
	l = &k->lists[m->depth ? 1 + k->next++ % (LISTS - 1) : 0];
	members_release(l);
	jp_reset(p, m);
	if (jp_enter(p))
		return NULL;
	l->complete = 1;
	while ((more = jp_next(p, &key)) == 1) {
		if (l->n == LIST_MAX || l->keybytes + key.len > LIST_KEYMAX) {
			l->complete = 0;
			break;
		}
		l->key = xrealloc(l->key, (l->n + 1) * sizeof(*l->key));
		l->m = xrealloc(l->m, (l->n + 1) * sizeof(*l->m));
		l->key[l->n] = xstrdup(key.buf);
		l->keybytes += key.len;
		jp_mark(p, &l->m[l->n++]);
		if (jp_skip(p))
			break;
	}
	strbuf_release(&key);
	l->pos = m->pos + 1;
	return l;
}

/* "names there: a, b, ..." for the object at m. */
static void list_keys(struct jpull *p, const struct jp_mark *m,
                      struct strbuf *why)
{
	struct strbuf key = STRBUF_INIT;
	size_t n = 0;

	strbuf_adds(why, "names there: ");
	jp_reset(p, m);
	if (!jp_enter(p))
		while (jp_next(p, &key) == 1 && !jp_skip(p)) {
			if (n++ < NAMES_MAX) {
				if (n > 1)
					strbuf_adds(why, ", ");
				strbuf_add_sanitized(why, key.buf,
				                     strlen(key.buf));
			}
		}
	if (!n)
		strbuf_adds(why, "none");
	else if (n > NAMES_MAX)
		strbuf_addf(why, ", ... (%zu more)", n - NAMES_MAX);
	strbuf_release(&key);
}

static size_t elements(struct jpull *p, const struct jp_mark *m)
{
	size_t n = 0;

	jp_reset(p, m);
	if (!jp_enter(p))
		while (jp_next(p, NULL) == 1 && !jp_skip(p))
			n++;
	return n;
}

/* The member of the object at m whose key is the longest prefix of path
 * ending at a dot or at the end: exact first, then ignoring case. 1 with
 * *out marking its value and *used its length, or 0. */
/* Whether key is a better match for path than the best so far. */
static int better(const char *key, const char *path, size_t plen, size_t bestn,
                  int best, int pass)
{
	size_t n = strlen(key);

	return !(n > plen || (path[n] != '.' && path[n] != '\0') || n < bestn ||
	         (best && n == bestn) ||
	         (pass ? strncasecmp(key, path, n) : strncmp(key, path, n)));
}

static int match_key(const struct snapdoc *d, struct jpull *p,
                     const struct jp_mark *m, const char *path, size_t *used,
                     struct jp_mark *out)
{
	const struct members *l = members(d, p, m);
	struct strbuf key = STRBUF_INIT;
	size_t n, i, bestn = 0, plen = strlen(path);
	int pass, best = 0;

	for (pass = 0; l && l->complete && pass < 2 && !best; pass++)
		for (i = 0; i < l->n; i++)
			if (better(l->key[i], path, plen, bestn, best, pass)) {
				best = 1;
				bestn = strlen(l->key[i]);
				*out = l->m[i];
			}
	for (pass = 0; (!l || !l->complete) && pass < 2 && !best; pass++) {
		jp_reset(p, m);
		if (jp_enter(p))
			break;
		while (jp_next(p, &key) == 1) {
			n = strlen(key.buf);
			if (better(key.buf, path, plen, bestn, best, pass)) {
				best = 1;
				bestn = n;
				jp_mark(p, out);
			}
			if (jp_skip(p))
				break;
		}
	}
	strbuf_release(&key);
	*used = bestn;
	return best;
}

/* The element of the array at m named by the index at the start of path. */
static int match_index(struct jpull *p, const struct jp_mark *m,
                       const char *path, size_t *used, struct jp_mark *out)
{
	size_t i = 0, n = 0, k = 0;

	while (path[n] >= '0' && path[n] <= '9' && n < 9)
		i = i * 10 + (size_t)(path[n++] - '0');
	*used = n;
	if (n == 0 || (path[n] != '.' && path[n] != '\0'))
		return 0;
	jp_reset(p, m);
	if (jp_enter(p))
		return 0;
	while (jp_next(p, NULL) == 1) {
		if (k++ == i) {
			jp_mark(p, out);
			return 1;
		}
		if (jp_skip(p))
			return 0;
	}
	return 0;
}

static enum snapdoc_kind leaf(const struct snapdoc *d, struct jpull *p,
                              const struct jp_mark *m, double *num,
                              const char **str, struct strbuf *why)
{
	enum jp_type t;
	cJSON *c;
	struct kept *k = d->kept;

	jp_reset(p, m);
	t = jp_type(p);
	if (t == JP_OBJECT || t == JP_ARRAY) {
		if (why && t == JP_OBJECT)
			list_keys(p, m, why);
		else if (why)
			strbuf_addf(why, "an array of %zu elements",
			            elements(p, m));
		return SNAPDOC_OTHER;
	}
	c = jp_parse(p, LEAF_MAX, "a value looked up");
	if (!c)
		return SNAPDOC_OTHER;
	t = cJSON_IsNumber(c)   ? JP_NUMBER
	    : cJSON_IsString(c) ? JP_STRING
	                        : JP_LITERAL;
	if (t == JP_NUMBER && num)
		*num = c->valuedouble;
	if (t == JP_STRING && str) {
		k->v = xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
		*str = k->v[k->n++] = xstrdup(c->valuestring);
	}
	if (cJSON_IsBool(c)) {
		if (num)
			*num = cJSON_IsTrue(c);
		cJSON_Delete(c);
		return SNAPDOC_BOOL;
	}
	t = cJSON_IsNull(c) ? JP_NONE : t;
	cJSON_Delete(c);
	return t == JP_NUMBER   ? SNAPDOC_NUMBER
	       : t == JP_STRING ? SNAPDOC_STRING
	       : t == JP_NONE   ? SNAPDOC_NULL
	                        : SNAPDOC_OTHER;
}

static void missing(struct jpull *p, const struct jp_mark *at, const char *path,
                    size_t done, const char *rest, struct strbuf *why)
{
	size_t n = strcspn(rest, ".");
	enum jp_type t;

	if (!why)
		return;
	jp_reset(p, at);
	t = jp_type(p);
	if (t == JP_ARRAY) {
		strbuf_adds(why, "no element ");
		strbuf_add_quoted_value(why, rest, n, QUOTE_MAX);
		strbuf_addf(why, " in %.*s (indexes 0 to %ld)", (int)done, path,
		            (long)elements(p, at) - 1);
		return;
	}
	strbuf_adds(why, "no key ");
	strbuf_add_quoted_value(why, rest, n, QUOTE_MAX);
	if (done)
		strbuf_addf(why, " in %.*s", (int)done, path);
	if (t == JP_OBJECT) {
		strbuf_adds(why, "; ");
		list_keys(p, at, why);
	} else {
		strbuf_adds(why, " (not an object)");
	}
}

enum snapdoc_kind snapdoc_get(const struct snapdoc *d, const char *path,
                              double *num, const char **str, struct strbuf *why)
{
	struct err e = ERR_INIT; /* the text was checked: none expected */
	struct jpull p;
	struct jp_mark *at = xmalloc(2 * sizeof(*at)), *next = at + 1, *t;
	const char *rest = path;
	enum snapdoc_kind kind = SNAPDOC_MISSING;
	enum jp_type type;
	size_t used;
	int found;

	jp_open_mem(&p, d->name, d->text, d->len, &e);
	jp_mark(&p, at);
	for (;;) {
		jp_reset(&p, at);
		type = jp_type(&p);
		found =
		    type == JP_OBJECT  ? match_key(d, &p, at, rest, &used, next)
		    : type == JP_ARRAY ? match_index(&p, at, rest, &used, next)
		                       : 0;
		if (!found) {
			/* "done" excludes the dot before the failing part */
			missing(&p, at, path,
			        rest > path ? (size_t)(rest - path - 1) : 0,
			        rest, why);
			break;
		}
		t = at, at = next, next = t;
		rest += used;
		if (*rest == '\0') {
			kind = leaf(d, &p, at, num, str, why);
			break;
		}
		rest++; /* the dot */
	}
	jp_close(&p);
	free(at < next ? at : next);
	return kind;
}
