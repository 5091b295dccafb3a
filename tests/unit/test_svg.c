/* Unit tests of view/svg: time-axis ticks, legends as HTML text, and
 * escaping of the labels that come from the data. */
#include "unit.h"

#include "view/svg.h"
#include "util/strbuf.h"

static void tick_step_is_1_2_5(void **state)
{
	(void)state;
	assert_int_equal(svg_tick_step(308410000, 8), 50000000);
	assert_int_equal(svg_tick_step(308410000, 4), 100000000);
	assert_int_equal(svg_tick_step(3448000000, 8), 500000000);
	assert_int_equal(svg_tick_step(140, 8), 20);
	assert_int_equal(svg_tick_step(7, 8), 1);
	assert_int_equal(svg_tick_step(0, 8), 1);
	assert_int_equal(svg_tick_step(INT64_MAX, 8) > 0, 1);
}

static void check_label(int64_t t, int64_t step, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	svg_tick_label(&sb, t, step);
	if (strcmp(sb.buf, want))
		fail_msg("tick %lld step %lld: '%s', want '%s'", (long long)t,
		         (long long)step, sb.buf, want);
	strbuf_release(&sb);
}

static void tick_labels_carry_units(void **state)
{
	(void)state;
	check_label(0, 50000000, "0");
	check_label(100000000, 50000000, "100 ms");
	check_label(1500000000, 500000000, "1,500 ms");
	check_label(2000000000, 1000000000, "2 s");
	check_label(40000, 20000, "40 \xC2\xB5s");
	check_label(60, 20, "60 ns");
}

static void legend_is_escaped_html_text(void **state)
{
	struct svg_part parts[] = {
	    {"<b>&", "c-FA", 3}, {"x", "c-Comm", 1}, {"none", "c-Other", 0}};
	struct strbuf sb = STRBUF_INIT;
	const char *svg_end;

	(void)state;
	svg_stacked_bar(&sb, "t\"<", parts, 3);
	svg_end = strstr(sb.buf, "</svg>");
	assert_non_null(svg_end);
	assert_non_null(strstr(svg_end, "<ul class=\"legend\"><li><span "
	                                "class=\"dot c-FA\"></span>&lt;b&gt;"
	                                "&amp; 75.0%</li>"));
	assert_null(strstr(svg_end, "none")); /* no value, no item */
	assert_null(strstr(sb.buf, "<b>"));
	assert_null(strstr(sb.buf, "t\"<"));
	strbuf_release(&sb);
}

static void timeline_has_a_time_axis(void **state)
{
	struct svg_span span = {"a", "s-dit", 1000, 301000000};
	struct svg_part leg = {"DiT", "s-dit", 0};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_timeline(&sb, "t", NULL, &span, 1, 1000, 308411000, &leg, 1);
	assert_non_null(strstr(sb.buf, "<g class=\"axis\">"));
	assert_non_null(strstr(sb.buf, ">50 ms</text>"));
	assert_non_null(strstr(sb.buf, ">300 ms</text>"));
	assert_null(strstr(sb.buf, ">350 ms</text>"));
	assert_null(strstr(sb.buf, "strip-label"));
	strbuf_reset(&sb);
	/* the strip says whose timeline it is, inside the chart, escaped */
	svg_timeline(&sb, "t", "Rank 3 <lead>", &span, 1, 1000, 308411000, &leg,
	             1);
	assert_non_null(strstr(sb.buf, "<text class=\"strip-label\" x=\"0\" "
	                               "y=\"14\">Rank 3 &lt;lead&gt;</text>"));
	assert_true(strstr(sb.buf, "strip-label") < strstr(sb.buf, "</svg>"));
	assert_non_null(strstr(sb.buf, "viewBox=\"0 0 960 "));
	strbuf_release(&sb);
}

/* Long type names are cut at a character boundary, whole in the tooltip,
 * and escaped in both. */
static void hbars_cut_long_names_whole_in_tooltip(void **state)
{
	char name[128];
	struct svg_hbar bars[2];
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	memset(name, 'a', 42);
	strcpy(name + 42, "\xE4\xB8\xAD<x>&tail"); /* 42 a, then 中 */
	bars[0] = (struct svg_hbar){name, "c-FA", 2000000};
	bars[1] = (struct svg_hbar){"b", "c-Vector", 1000000};
	svg_hbars(&sb, "t", bars, 2, NULL, 0);
	/* 中 would end past the cut: left out whole, not split */
	assert_non_null(strstr(sb.buf, "aaaa\xE2\x80\xA6</text>"));
	assert_non_null(strstr(sb.buf, "aaaa\xE4\xB8\xAD&lt;x&gt;&amp;tail "
	                               "2.00 ms</title>"));
	assert_null(strstr(sb.buf, "<x>"));
	assert_non_null(strstr(sb.buf, "class=\"c-Vector\" x=\"330\" y=\"22\" "
	                               "width=\"270\""));
	strbuf_release(&sb);
}

/* Each chart is drawn wide (960 units) and for a phone (360 units), the
 * phone's with the names above full-width bars and fewer ticks; one
 * legend, in HTML, for both. */
static void charts_are_drawn_wide_and_for_a_phone(void **state)
{
	struct svg_hbar bars[2] = {{"MatMulV3", "c-MatMul", 3000000},
	                           {"Add", "c-Vector", 1500000}};
	struct svg_part leg = {"MatMul", "c-MatMul", 0};
	struct strbuf sb = STRBUF_INIT;
	const char *narrow;

	(void)state;
	svg_hbars(&sb, "t", bars, 2, &leg, 1);
	assert_non_null(strstr(sb.buf, "<svg xmlns=\"http://www.w3.org/2000/"
	                               "svg\" class=\"chart wide\" viewBox=\"0 "
	                               "0 960 "));
	narrow = strstr(sb.buf, "class=\"chart narrow\" viewBox=\"0 0 360 ");
	assert_non_null(narrow);
	/* the second row: its name on its own line, its bar under it from
	 * the left edge, half as long as the first one's (360 - 90) */
	assert_non_null(strstr(narrow, "<text class=\"name\" x=\"0\" "
	                               "y=\"48\">Add</text><rect "
	                               "class=\"c-Vector\" x=\"0\" y=\"54\" "
	                               "width=\"135\""));
	assert_true(strstr(sb.buf, "<ul class=\"legend\">") > narrow);
	assert_null(strstr(strstr(sb.buf, "<ul class=\"legend\">") + 1,
	                   "<ul class=\"legend\">"));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(tick_step_is_1_2_5),
	    cmocka_unit_test(tick_labels_carry_units),
	    cmocka_unit_test(legend_is_escaped_html_text),
	    cmocka_unit_test(timeline_has_a_time_axis),
	    cmocka_unit_test(hbars_cut_long_names_whole_in_tooltip),
	    cmocka_unit_test(charts_are_drawn_wide_and_for_a_phone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
