/* Number formatting: integers in, text out, no floating-point surprises in
 * times (they are integer nanoseconds throughout sdperf). */
#include "util/numfmt.h"

#include <inttypes.h>
#include <stdio.h>

#include "util/banned.h"

void numfmt_us(struct strbuf *sb, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	strbuf_addf(sb, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000,
	            a % 1000);
}

void numfmt_duration(struct strbuf *sb, int64_t ns)
{
	double v = (double)ns;
	/* the unit is chosen on the rounded value: 999999 ns is "1.00 ms",
	 * not "1000.0 us" */
	if (ns < 999950)
		strbuf_addf(sb, "%.1f us", v / 1e3);
	else if (ns < 999995000)
		strbuf_addf(sb, "%.2f ms", v / 1e6);
	else
		strbuf_addf(sb, "%.3f s", v / 1e9);
}

void numfmt_count(struct strbuf *sb, uint64_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%" PRIu64, n), i;
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, digits[i]);
	}
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
