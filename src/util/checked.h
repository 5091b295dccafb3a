/* Checked arithmetic on int64 times (ns). A signed overflow is undefined
 * behaviour in C, and in practice a silently wrong number (a negative
 * kernel time, a bar drawn at x="-4"): every sum and difference of times
 * from the input goes through these. Each is a compiler builtin that sets
 * the overflow flag, so they cost what `+` costs. */
#ifndef SDPERF_CHECKED_H
#define SDPERF_CHECKED_H

#include <stdint.h>

/* *sum = a + b. Returns 0, or -1 when the sum does not fit in int64; *sum
 * is then INT64_MAX or INT64_MIN (the side it overflowed to). */
static inline int checked_add(int64_t a, int64_t b, int64_t *sum)
{
	if (!__builtin_add_overflow(a, b, sum))
		return 0;
	*sum = b > 0 ? INT64_MAX : INT64_MIN;
	return -1;
}

/* *diff = a - b. Returns 0, or -1 (with *diff saturated) on overflow. */
static inline int checked_sub(int64_t a, int64_t b, int64_t *diff)
{
	if (!__builtin_sub_overflow(a, b, diff))
		return 0;
	*diff = b < 0 ? INT64_MAX : INT64_MIN;
	return -1;
}

/* a + b, saturated at INT64_MAX / INT64_MIN: for totals, where a sum past
 * 292 years means the input is absurd and the clamped figure says so. */
static inline int64_t checked_add_sat(int64_t a, int64_t b)
{
	int64_t s;
	checked_add(a, b, &s);
	return s;
}

/* a - b, saturated. */
static inline int64_t checked_sub_sat(int64_t a, int64_t b)
{
	int64_t d;
	checked_sub(a, b, &d);
	return d;
}

/* *acc += v, saturated. */
static inline void checked_accumulate(int64_t *acc, int64_t v)
{
	checked_add(*acc, v, acc);
}

/* |a - b|, saturated at INT64_MAX. */
static inline int64_t checked_abs_diff(int64_t a, int64_t b)
{
	int64_t d;
	if (checked_sub(a, b, &d))
		return INT64_MAX;
	return d < 0 ? (d == INT64_MIN ? INT64_MAX : -d) : d;
}

/* v * m / d (d > 0) rounded toward zero: exact when v * m fits in int64
 * (every chart of a real profile), else through long double and clamped
 * to int64. For scaling a time to pixels without overflowing. */
static inline int64_t checked_muldiv(int64_t v, int64_t m, int64_t d)
{
	int64_t p;
	long double q;

	if (!__builtin_mul_overflow(v, m, &p))
		return p / d;
	q = (long double)v * (long double)m / (long double)d;
	if (q >= 9223372036854775807.0L)
		return INT64_MAX;
	if (q <= -9223372036854775807.0L)
		return INT64_MIN;
	return (int64_t)q;
}

#endif
