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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
