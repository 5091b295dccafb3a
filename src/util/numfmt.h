/* Number formatting shared by renderers: exact, locale-free. */
#ifndef SDPERF_NUMFMT_H
#define SDPERF_NUMFMT_H

#include <stdint.h>

#include "util/strbuf.h"

/* Nanoseconds as microseconds with exactly three decimals: "1234.567"
 * (machine-readable: no separators; report.json uses it). */
void numfmt_us(struct strbuf *sb, int64_t ns);

/* The units durations are shown in, for people. */
enum numfmt_unit { NUMFMT_US, NUMFMT_MS, NUMFMT_S };
/* The unit a duration of ns (its magnitude) reads best in: µs below
 * 999.95 µs, ms below 999.995 ms, else s (chosen on the rounded value, so
 * 999999 ns is "1.00 ms", not "1,000.0 µs"). For a table column, pass the
 * column's largest magnitude, so that the whole column shares one unit. */
enum numfmt_unit numfmt_unit_of(int64_t ns);
/* A duration in unit u: "812.4 µs", "81.24 ms", "8.124 s" (1, 2 and 3
 * decimals), thousands separators ("1,234.567 s"), a minus sign when
 * negative. Zero is "0" whatever the unit. A value that would round to zero
 * at the unit's decimals gets more decimals, up to two significant digits
 * ("0.0016 ms"), so that only a true zero reads as zero. */
void numfmt_duration_in(struct strbuf *sb, int64_t ns, enum numfmt_unit u);
/* numfmt_duration_in in the unit of ns itself (numfmt_unit_of(ns)). */
void numfmt_duration(struct strbuf *sb, int64_t ns);
/* v with prec decimals and thousands separators: "14,492.0"; a value that
 * rounds to zero loses its sign ("-0.0" would only puzzle a reader). v must
 * be finite and below 1e300 in magnitude. */
void numfmt_fixed(struct strbuf *sb, double v, int prec);
/* 12345678 -> "12,345,678". */
void numfmt_count(struct strbuf *sb, uint64_t n);
/* part / whole in percent (0 when whole is 0). */
double numfmt_pct(int64_t part, int64_t whole);
/* How numfmt_time writes a time. */
enum numfmt_time_style {
	NUMFMT_TIME_TEXT, /* "2026-05-12 09:50" */
	NUMFMT_TIME_ISO,  /* "2026-05-12T09:50:11" */
	NUMFMT_TIME_ISO_Z /* "2026-05-12T09:50:11Z" */
};
/* Appends the time s (seconds since the Unix epoch) read as UTC in
 * style; "?" when it cannot be. */
void numfmt_time(struct strbuf *sb, int64_t s, enum numfmt_time_style style);
/* Decimals to print percent p with: 1, or more for a share too small to
 * show with one ("0.04%", not "0.0%"), enough for one significant digit
 * (at most 6). 0 and shares of 0.05% or more: 1. */
int numfmt_pct_decimals(double p);

#endif
