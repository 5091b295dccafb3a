/* Number formatting shared by renderers: exact, locale-free. */
#ifndef SDPERF_NUMFMT_H
#define SDPERF_NUMFMT_H

#include <stdint.h>

#include "util/strbuf.h"

/* Nanoseconds as microseconds with exactly three decimals: "1234.567". */
void numfmt_us(struct strbuf *sb, int64_t ns);
/* A duration for people: "812.4 us", "81.24 ms", "8.124 s". */
void numfmt_duration(struct strbuf *sb, int64_t ns);
/* 12345678 -> "12,345,678". */
void numfmt_count(struct strbuf *sb, uint64_t n);
/* part / whole in percent (0 when whole is 0). */
double numfmt_pct(int64_t part, int64_t whole);
/* Decimals to print percent p with: 1, or more for a share too small to
 * show with one ("0.04%", not "0.0%"), enough for one significant digit
 * (at most 6). 0 and shares of 0.05% or more: 1. */
int numfmt_pct_decimals(double p);

#endif
