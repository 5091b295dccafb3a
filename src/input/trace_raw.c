/* Raw reading of one complete trace element: depth-1 members, the
 * prefilter and number texts, straight from the bytes. */
#include "input/trace_raw.h"

#include <string.h>

#include "util/decimal.h"
#include "util/banned.h"

/* Table-driven because the scanner and the skips below run over every
 * byte of a 2 GB trace: one load and test per byte beats a chain of
 * compares. */
const unsigned char trace_raw_out_class[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};
/* The writers never break lines inside strings, so a raw line break is
 * the sign of a string left open rather than data to skip. */
const unsigned char trace_raw_str_class[256] = {['"'] = TRACE_RAW_STR_END,
                                                ['\\'] = TRACE_RAW_STR_END,
                                                ['\n'] = TRACE_RAW_STR_BREAK,
                                                ['\r'] = TRACE_RAW_STR_BREAK};

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && trace_raw_is_ws((unsigned char)*p))
		p++;
	return p;
}

/* p at an opening quote: the byte after the closing one, or NULL. */
static const char *string_end(const char *p, const char *end)
{
	const unsigned char *q = (const unsigned char *)p + 1;
	const unsigned char *e = (const unsigned char *)end;

	for (;;) {
		while (q < e && trace_raw_str_class[*q] != TRACE_RAW_STR_END)
			q++;
		if (q >= e)
			return NULL;
		if (*q == '"')
			return (const char *)q + 1;
		q += 2; /* a backslash and the escaped byte */
	}
}

/* The end of a bracketed value starting at p, or NULL; table-driven like
 * the scanner, as whole args objects are skipped through here. */
static const char *struct_end(const char *p, const char *end)
{
	const unsigned char *q = (const unsigned char *)p;
	const unsigned char *e = (const unsigned char *)end;
	int depth = 0;

	for (;;) {
		while (q < e && !trace_raw_out_class[*q])
			q++;
		if (q == e)
			return NULL;
		if (*q == '"') {
			p = string_end((const char *)q, end);
			if (!p)
				return NULL;
			q = (const unsigned char *)p;
			continue;
		}
		if (*q == '{' || *q == '[')
			depth++;
		else if (--depth == 0)
			return (const char *)q + 1;
		q++;
	}
}

static const char *value_end(const char *p, const char *end)
{
	const char *start = p;

	if (p < end && *p == '"')
		return string_end(p, end);
	if (p < end && (*p == '{' || *p == '['))
		return struct_end(p, end);
	while (p < end && !trace_raw_is_ws((unsigned char)*p) && *p != ',' &&
	       *p != '}' && *p != ']')
		p++;
	return p > start ? p : NULL;
}

/* ---- members at depth 1 ------------------------------------------------ */

static void it_init(struct trace_raw_it *it, const struct trace_raw_el *el)
{
	it->el = el->p;
	it->p = el->p + 1;
	it->end = el->p + el->n;
	/* a full list may have lost strings past its end: walk instead */
	it->d1 = el->nd1 < TRACE_RAW_D1_MAX ? el->d1 : NULL;
	it->nd1 = el->nd1;
	it->i = 0;
}

/* A key at p (its quote): the key and the start of its value. */
static const char *key_at(const char *p, const char *end, const char **k,
                          size_t *klen)
{
	const char *q = string_end(p, end);

	if (!q)
		return NULL;
	*k = p + 1;
	*klen = (size_t)(q - p) - 2;
	p = skip_ws(q, end);
	if (p >= end || *p != ':')
		return NULL;
	return skip_ws(p + 1, end);
}

/* Through the scanner's list: the strings at depth 1 are keys and string
 * values; only a key is followed by ':'. Bracketed values are never
 * walked, which is what makes this mode cheap. */
static int next_from_d1(struct trace_raw_it *it, const char **k, size_t *klen,
                        const char **v)
{
	while (it->i < it->nd1) {
		*v = key_at(it->el + it->d1[it->i++], it->end, k, klen);
		if (*v && *v < it->end) {
			/* a string value is the next string in the list:
			 * skip it rather than try it as a key */
			if (**v == '"' && it->i < it->nd1 &&
			    it->el + it->d1[it->i] == *v)
				it->i++;
			return 1;
		}
		/* else a string value, not a key */
	}
	return 0;
}

/* The next member: its key and where its value starts. Static, so that
 * the prefilter, which runs on every element, has it inlined. */
static int it_next(struct trace_raw_it *it, const char **k, size_t *klen,
                   const char **v)
{
	const char *p, *q;

	if (it->d1)
		return next_from_d1(it, k, klen, v);
	p = skip_ws(it->p, it->end);
	if (p < it->end && *p == ',')
		p = skip_ws(p + 1, it->end);
	if (p >= it->end || *p != '"' || !(p = key_at(p, it->end, k, klen)))
		return 0;
	if (!(q = value_end(p, it->end)))
		return 0;
	*v = p;
	it->p = q;
	return 1;
}

/* Length of the string or scalar value at v; 0 for a bracketed one:
 * nobody reads one (a whole args object), so it is not walked. */
static size_t vlen_of(const struct trace_raw_it *it, const char *v)
{
	const char *q;

	if (*v == '{' || *v == '[' || !(q = value_end(v, it->end)))
		return 0;
	return (size_t)(q - v);
}

static int key_is(const char *k, size_t klen, const char *want, size_t wlen)
{
	return klen == wlen && !memcmp(k, want, klen);
}

void trace_raw_it_init(struct trace_raw_it *it, const struct trace_raw_el *el)
{
	it_init(it, el);
}

/* The length comes with the member: one call per member for the event
 * builder, where a separate call for it cost measurably. */
int trace_raw_it_next(struct trace_raw_it *it, struct trace_raw_member *m)
{
	if (!it_next(it, &m->key, &m->klen, &m->val))
		return 0;
	m->vlen = vlen_of(it, m->val);
	return 1;
}

/* Runs on every element of the trace, so it stops as soon as both keys
 * were seen and never decodes anything. */
void trace_raw_prefilter(const struct trace_raw_el *el, char *ph,
                         const char **name, size_t *nlen)
{
	struct trace_raw_it it;
	const char *k, *v;
	size_t kl, vl;
	int found = 0;

	it_init(&it, el);
	*ph = 0;
	*name = "";
	*nlen = 0;
	while (found != 3 && it_next(&it, &k, &kl, &v)) {
		if (*v != '"')
			continue;
		if (!(found & 1) && key_is(k, kl, "ph", 2)) {
			vl = vlen_of(&it, v);
			*ph = vl > 2 ? v[1] : 0;
			found |= 1;
		} else if (!(found & 2) && key_is(k, kl, "name", 4) &&
		           (vl = vlen_of(&it, v)) >= 2) {
			*name = v + 1;
			*nlen = vl - 2;
			found |= 2;
		}
	}
}

/* ---- chosen members in one go ------------------------------------------ */

/* The end of the scalar value at v (a number or a literal), or NULL when
 * none starts there. */
static const char *scalar_end(const char *v, const char *end)
{
	const char *e = v;

	if (v >= end || !((*v >= '0' && *v <= '9') || *v == '-' || *v == 't' ||
	                  *v == 'f' || *v == 'n'))
		return NULL;
	while (e < end && !trace_raw_is_ws((unsigned char)*e) && *e != ',' &&
	       *e != '}' && *e != ']')
		e++;
	return e;
}

/* After a member's value at ve: the end of the object, or a comma and the
 * next key, which must be the list's next string (at next; NULL: none). */
static int member_follows(const char *ve, const char *end, const char *next)
{
	const char *q = skip_ws(ve, end);

	if (q < end && *q == '}')
		return !next;
	if (q >= end || *q != ',')
		return 0;
	q = skip_ws(q + 1, end);
	return next && q == next;
}

static void member_take(trace_raw_which_fn which, const char *k, size_t kl,
                        const char *v, size_t vl, const char **vals,
                        size_t *lens, size_t nvals)
{
	int f = which(k, kl);

	if (f >= 0 && (size_t)f < nvals && !vals[f]) {
		vals[f] = v;
		lens[f] = vl;
	}
}

/* From the depth-1 list: a key is a listed string followed by ':'; its
 * string value is the next listed string, skipped with it. */
static int members_from_d1(const struct trace_raw_el *el,
                           trace_raw_which_fn which, const char **vals,
                           size_t *lens, size_t nvals)
{
	const char *end = el->p + el->n, *k, *ke, *v, *ve;
	size_t j;

	for (j = 0; j < el->nd1; j++) {
		k = el->p + el->d1[j];
		if (!(ke = string_end(k, end)))
			return -1;
		v = skip_ws(ke, end);
		if (v >= end || *v != ':')
			return -1; /* a string value out of place */
		v = skip_ws(v + 1, end);
		if (v < end && *v == '"') {
			if (!(ve = string_end(v, end)) || j + 1 >= el->nd1 ||
			    el->p + el->d1[j + 1] != v)
				return -1;
			j++;
		} else if (v < end && (*v == '{' || *v == '[')) {
			ve = NULL;
		} else if (!(ve = scalar_end(v, end))) {
			return -1;
		}
		if (ve && !member_follows(
		              ve, end,
		              j + 1 < el->nd1 ? el->p + el->d1[j + 1] : NULL))
			return -1;
		member_take(which, k + 1, (size_t)(ke - k) - 2, v,
		            ve ? (size_t)(ve - v) : 0, vals, lens, nvals);
	}
	return 0;
}

int trace_raw_members(const struct trace_raw_el *el, trace_raw_which_fn which,
                      const char **vals, size_t *lens, size_t nvals)
{
	struct trace_raw_it it;
	const char *k, *v;
	size_t kl;

	memset(vals, 0, nvals * sizeof(*vals));
	memset(lens, 0, nvals * sizeof(*lens));
	if (el->nd1 < TRACE_RAW_D1_MAX)
		return members_from_d1(el, which, vals, lens, nvals);
	it_init(&it, el); /* a list that may be cut: walk the bytes */
	while (it_next(&it, &k, &kl, &v))
		member_take(which, k, kl, v, vlen_of(&it, v), vals, lens,
		            nvals);
	return 0;
}

int trace_raw_text(const char *v, size_t n, const char **t, size_t *tn)
{
	if (!v || !n || *v == '{' || *v == '[')
		return 0;
	if (*v == '"') {
		if (n < 2)
			return 0;
		*t = v + 1;
		*tn = n - 2;
		return 1;
	}
	*t = v;
	*tn = n;
	return 1;
}

/* ---- numbers ------------------------------------------------------------ */

/* Exact decimal arithmetic rather than strtod: ns timestamps of ~1.7e18
 * and 19-digit ids do not survive a double. */
int trace_raw_parse_us(const char *s, size_t len, int64_t *ns)
{
	return decimal_us_to_ns(s, len, ns);
}

int trace_raw_parse_i64(const char *s, size_t len, int64_t *out)
{
	return decimal_to_i64(s, len, out);
}
