/* Decimal microseconds parsed digit by digit. */
#include "util/decimal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* the largest whole part whose ns value, plus 999 + 1 for the fraction and
 * its rounding, still fits in int64 */
#define WHOLE_MAX ((INT64_MAX - 1000) / 1000)

int decimal_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	const char *end = s + len;
	int64_t whole = 0, frac = 0;
	int nfrac = 0, digits = 0, round_up = 0, neg = 0;

	if (s < end && *s == '-') {
		neg = 1;
		s++;
	}
	for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
		whole = whole * 10 + (*s - '0');
		if (whole > WHOLE_MAX)
			return -1;
	}
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
			if (nfrac < 3)
				frac = frac * 10 + (*s - '0');
			else if (nfrac == 3)
				round_up = *s >= '5';
			nfrac++;
		}
	}
	if (s != end || digits == 0)
		return -1;
	for (; nfrac < 3; nfrac++)
		frac *= 10;
	whole = whole * 1000 + frac + round_up;
	*ns = neg ? -whole : whole;
	return 0;
}

/* Where the digits after the ns lie: none or all zero, below a half,
 * exactly a half, above. */
enum subns { SUB_ZERO, SUB_LOW, SUB_HALF, SUB_HIGH };

/* Non-negative `digits[.digits]` to whole ns (truncated) and what lies
 * below; -1 when it is not that or does not fit. */
static int split_ns(const char *s, size_t len, int64_t *ns, enum subns *sub)
{
	const char *end = s + len;
	int64_t whole = 0, frac = 0;
	int nfrac = 0, digits = 0, first = -1, rest = 0;

	for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
		whole = whole * 10 + (*s - '0');
		if (whole > WHOLE_MAX)
			return -1;
	}
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
			if (nfrac < 3)
				frac = frac * 10 + (*s - '0');
			else if (nfrac == 3)
				first = *s - '0';
			else
				rest |= *s != '0';
			nfrac++;
		}
	}
	if (s != end || digits == 0)
		return -1;
	for (; nfrac < 3; nfrac++)
		frac *= 10;
	*ns = whole * 1000 + frac;
	*sub = first < 0 || (first == 0 && !rest) ? SUB_ZERO
	       : first < 5                        ? SUB_LOW
	       : first == 5 && !rest              ? SUB_HALF
	                                          : SUB_HIGH;
	return 0;
}

/* The exact value of the double the text denotes, times 1000, rounded
 * (nearest, half to even) or truncated: a double is m * 2^e with a 53-bit
 * m, so m * 1000 fits in 63 bits and one shift does it exactly. */
static int double_ns(const char *s, size_t len, int nearest, int64_t *ns)
{
	char buf[64], *end;
	double x, f;
	int e;
	uint64_t m, p, q, r, half;

	if (!len || len >= sizeof(buf) || *s < '0' || *s > '9')
		return -1; /* strtod would take hex, "inf", blanks */
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strspn(buf, "0123456789.eE+-") < len)
		return -1;
	x = strtod(buf, &end);
	if (end != buf + len || !(x >= 0) || x > (double)WHOLE_MAX)
		return -1;
	f = frexp(x, &e); /* x = f * 2^e, f in [0.5, 1) */
	m = (uint64_t)ldexp(f, 53);
	e -= 53;
	p = m * 1000;
	if (e >= 0) {
		if (e > 10 || p > (uint64_t)INT64_MAX >> e)
			return -1;
		*ns = (int64_t)(p << e);
		return 0;
	}
	if (-e >= 64) {
		*ns = 0; /* below 2^-11 ns whatever m is */
		return 0;
	}
	q = p >> -e;
	r = p & ((UINT64_C(1) << -e) - 1);
	half = UINT64_C(1) << (-e - 1);
	if (nearest && (r > half || (r == half && (q & 1))))
		q++;
	*ns = (int64_t)q;
	return 0;
}

static int us_to_ns_double(const char *s, size_t len, int nearest, int64_t *ns)
{
	enum subns sub;
	int64_t v;

	if (split_ns(s, len, &v, &sub))
		return double_ns(s, len, nearest, ns); /* e.g. "1e-05" */
	if (sub == SUB_HALF && nearest)
		return double_ns(s, len, nearest, ns);
	/* a text read back from a double names that double; its decimal
	 * value and the double's lie on the same side of any other ns */
	*ns = v + (nearest && sub == SUB_HIGH);
	return 0;
}

int decimal_us_to_ns_nearest(const char *s, size_t len, int64_t *ns)
{
	return us_to_ns_double(s, len, 1, ns);
}

int decimal_us_to_ns_trunc(const char *s, size_t len, int64_t *ns)
{
	return us_to_ns_double(s, len, 0, ns);
}

int decimal_to_i64(const char *s, size_t len, int64_t *out)
{
	const char *end = s + len;
	int neg = 0;
	int64_t v = 0;

	if (s < end && *s == '-') {
		neg = 1;
		s++;
	}
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*out = neg ? -v : v;
	return 0;
}
