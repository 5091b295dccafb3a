/* Decimal microseconds parsed digit by digit. */
#include "util/decimal.h"

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
