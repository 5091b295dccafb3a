/* Unit tests of the SVG charts' scatter on a time axis (view/svg.c
 * svg_points): where each point lands, its shape, the ticks at 1-2-5
 * steps, and escaped text. The geometry is worked out in the comments
 * (view box 960 wide; plot from x 64 to 936, y 10 to 190). */
#include "unit.h"

#include "view/svg.h"

#define MS 1000000LL /* ns */

static int has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fail_msg("lacks %s in %s", want, s);
	return 1;
}

static void svg_points_places_shapes_and_ticks(void **state)
{
	/* x up to 20 ms: 8 ticks ask for 2.5 ms, rounded up to 5: 0..20;
	 * y up to 10 ms x 1.1: 4 ticks ask for 2.75, rounded up to 5: the
	 * axis ends on 15 */
	const struct svg_point p[] = {
	    {0, 10 * MS, SVG_CIRCLE, "it-full", "a"},
	    {20 * MS, 5 * MS, SVG_DIAMOND, "it-hit", "<b>&"}};
	const struct svg_part legend[] = {{"full", "it-full", 0},
	                                  {"hit <i>", "it-hit", 0}};
	const enum svg_shape shapes[] = {SVG_CIRCLE, SVG_DIAMOND};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_points(&sb, "T & t", p, 2, "x <ms>", "y", legend, shapes, 2);
	has(sb.buf, "aria-label=\"T &amp; t\"");
	/* 10 ms of 15 from the base at 190: 190 - 120 */
	has(sb.buf, "<circle class=\"it-full\" cx=\"64\" cy=\"70\" r=\"4\">"
	            "<title>a</title></circle>");
	/* x 64 + 872; y 190 - 60 */
	has(sb.buf, "<polygon class=\"it-hit\" points=\"936,124 942,130 "
	            "936,136 930,130\"><title>&lt;b&gt;&amp;</title>");
	has(sb.buf, ">0</text>");
	has(sb.buf, ">5</text>");
	has(sb.buf, ">15</text>");
	has(sb.buf, ">20</text>");
	assert_null(strstr(sb.buf, ">25</text>"));
	has(sb.buf, "x &lt;ms&gt;");
	has(sb.buf, "hit &lt;i&gt;");
	assert_null(strstr(sb.buf, "<b>"));
	strbuf_release(&sb);
}

/* Times before the axis (iterations out of order, forged in a summary)
 * are drawn at its start: the first point at 2^62 ns before the others
 * once overflowed the int of its pixel (cx="-2147483584"). The same
 * scale as above: x 0..20 ms, y 0..15 ms. */
static void svg_points_keeps_points_on_the_plot(void **state)
{
	const struct svg_point p[] = {
	    {-(INT64_C(1) << 62), -(INT64_C(1) << 62), SVG_CIRCLE, "it-full",
	     "a"},
	    {20 * MS, 10 * MS, SVG_CIRCLE, "it-full", "b"}};
	const enum svg_shape shapes[] = {SVG_CIRCLE};
	const struct svg_part legend[] = {{"full", "it-full", 0}};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_points(&sb, "t", p, 2, "x", "y", legend, shapes, 1);
	/* the plot's origin: x 64, y 190 */
	has(sb.buf, "<circle class=\"it-full\" cx=\"64\" cy=\"190\" r=\"4\">"
	            "<title>a</title>");
	/* 20 of 20 ms: 64 + 872; 10 of 15 ms: 190 - 120 */
	has(sb.buf, "<circle class=\"it-full\" cx=\"936\" cy=\"70\" r=\"4\">"
	            "<title>b</title>");
	assert_null(strstr(sb.buf, "=\"-"));
	strbuf_release(&sb);
}

/* An axis from INT64_MIN to INT64_MAX: its span saturates, its ticks stay
 * on the 100 pixels from x 10 (the span once overflowed). */
static void svg_axis_of_the_whole_int64_range(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at;

	(void)state;
	svg_axis_ticks(&sb, 10, 100, 0, INT64_MIN, INT64_MAX, 8);
	has(sb.buf, "<text"); /* ticks drawn (a wrapped span drew none) */
	for (at = sb.buf; (at = strstr(at, "x1=\"")); at++) {
		long x = strtol(at + 4, NULL, 10);
		if (x < 10 || x > 110)
			fail_msg("tick at x %ld in %s", x, sb.buf);
	}
	strbuf_release(&sb);
}

static void svg_points_without_points_draws_axes(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_points(&sb, "t", NULL, 0, "x", "y", NULL, NULL, 0);
	has(sb.buf, "class=\"axis\"");
	has(sb.buf, "</svg>");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(svg_points_places_shapes_and_ticks),
	    cmocka_unit_test(svg_points_without_points_draws_axes),
	    cmocka_unit_test(svg_points_keeps_points_on_the_plot),
	    cmocka_unit_test(svg_axis_of_the_whole_int64_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
