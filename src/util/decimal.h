/* Exact decimal microseconds -> integer nanoseconds, the one number format
 * of the profiler's files (kernel_details.csv, trace_view.json). */
#ifndef SDPERF_DECIMAL_H
#define SDPERF_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* Parses `[-]digits[.digits]` (the whole of s[0..len)) as microseconds
 * into ns without floating point: 16-digit epoch timestamps with three
 * decimals keep their last digit. A 4th decimal rounds half up (away from
 * zero), later ones are ignored. Returns 0, or -1 when s is not such a
 * number or the result does not fit in int64 (with room for rounding). */
int decimal_us_to_ns(const char *s, size_t len, int64_t *ns);

/* Parses a JSON number of microseconds that a profiler printed from a
 * double ("39.9805", "1543.3953857421875", "1e-05") to the nearest whole
 * ns of that double, a half to even: the value printing the double with
 * three decimals gives (how kernel_details.csv's durations relate to
 * trace_view.json's). Digits are read exactly; only a text exactly half-way
 * between two ns, or one with an exponent, is converted with strtod (C
 * locale) to let its binary value decide. Negative numbers are refused.
 * Returns 0, or -1 when s is not such a number or the result does not fit
 * in int64. */
int decimal_us_to_ns_nearest(const char *s, size_t len, int64_t *ns);

/* The same number with the digits below 1 ns cut off (HCCL operations'
 * durations in kernel_details.csv are cut, not rounded); exponent forms
 * truncate the double's value. */
int decimal_us_to_ns_trunc(const char *s, size_t len, int64_t *ns);

/* Parses `[-]digits` (the whole of s[0..len)) as an int64. Returns 0, or
 * -1 when s is not such a number or does not fit. */
int decimal_to_i64(const char *s, size_t len, int64_t *out);

#endif
