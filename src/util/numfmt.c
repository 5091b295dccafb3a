/* Number formatting: integers in, text out, no floating-point surprises in
 * times (they are integer nanoseconds throughout sdperf). */
#include "util/numfmt.h"

#include <time.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/banned.h"

#define MICRO "\xC2\xB5" /* U+00B5 MICRO SIGN */

void numfmt_us(struct strbuf *sb, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	strbuf_addf(sb, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000,
	            a % 1000);
}

static uint64_t magnitude(int64_t ns)
{
	return ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
}

enum numfmt_unit numfmt_unit_of(int64_t ns)
{
	uint64_t a = magnitude(ns);

	if (a < 999950)
		return NUMFMT_US;
	return a < 999995000 ? NUMFMT_MS : NUMFMT_S;
}

/* digits (an optional '-', digits, an optional fraction) with a comma
 * before each group of three integer digits */
static void add_grouped(struct strbuf *sb, const char *s, size_t n)
{
	size_t i = 0, int_end;

	if (s[0] == '-')
		strbuf_addch(sb, s[i++]);
	for (int_end = i; int_end < n && s[int_end] != '.'; int_end++)
		;
	for (; i < int_end; i++) {
		strbuf_addch(sb, s[i]);
		if (i + 1 < int_end && (int_end - i - 1) % 3 == 0)
			strbuf_addch(sb, ',');
	}
	strbuf_add(sb, s + int_end, n - int_end);
}

void numfmt_fixed(struct strbuf *sb, double v, int prec)
{
	char buf[400];
	int n = snprintf(buf, sizeof(buf), "%.*f", prec, v);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	if (buf[0] == '-' && strspn(buf + 1, "0.") == (size_t)n - 1)
		add_grouped(sb, buf + 1, (size_t)n - 1);
	else
		add_grouped(sb, buf, (size_t)n);
}

void numfmt_duration_in(struct strbuf *sb, int64_t ns, enum numfmt_unit u)
{
	static const struct {
		double scale;
		int prec;
		const char *name;
	} units[] = {
	    [NUMFMT_US] = {1e3, 1, " " MICRO "s"},
	    [NUMFMT_MS] = {1e6, 2, " ms"},
	    [NUMFMT_S] = {1e9, 3, " s"},
	};
	double v, shown;
	int prec;

	if (ns == 0) {
		strbuf_addch(sb, '0');
		return;
	}
	v = (double)magnitude(ns) / units[u].scale;
	/* too small for the column's unit: show two significant digits
	 * rather than a zero that is not one (1 ns is 1e-9 s: 10 decimals
	 * always suffice) */
	for (shown = v, prec = 0; prec < units[u].prec; prec++)
		shown *= 10; /* v in units of the last decimal shown */
	if (shown < 0.5)
		for (; prec < 10 && shown < 9.5; prec++)
			shown *= 10;
	if (ns < 0)
		strbuf_addch(sb, '-');
	numfmt_fixed(sb, v, prec);
	strbuf_adds(sb, units[u].name);
}

void numfmt_duration(struct strbuf *sb, int64_t ns)
{
	numfmt_duration_in(sb, ns, numfmt_unit_of(ns));
}

void numfmt_count(struct strbuf *sb, uint64_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%" PRIu64, n);

	add_grouped(sb, digits, (size_t)len);
}

double numfmt_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

int numfmt_pct_decimals(double p)
{
	double a = p < 0 ? -p : p, half = 0.05; /* half of the last place */
	int prec = 1;

	if (a == 0)
		return 1;
	/* one significant digit once rounded: 0.04 -> 2, 0.004 -> 3 */
	while (prec < 6 && a < half) {
		prec++;
		half /= 10;
	}
	return prec;
}

void numfmt_time(struct strbuf *sb, int64_t s, enum numfmt_time_style style)
{
	time_t t = (time_t)s;
	struct tm tm;
	char buf[64];
	size_t n = 0;

	if ((int64_t)t == s && gmtime_r(&t, &tm))
		n = style == NUMFMT_TIME_TEXT
		        ? strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm)
		    : style == NUMFMT_TIME_ISO
		        ? strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm)
		        : strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!n) {
		strbuf_addch(sb, '?');
		return;
	}
	strbuf_adds(sb, buf);
}
