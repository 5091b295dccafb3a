/* Unit tests of render/escape: every built-in formatter, with hostile input,
 * compared byte for byte. */
#include "unit.h"

#include "view/escape.h"
#include "util/strbuf.h"

#define FFFD "\xEF\xBF\xBD"

static tmpl_fmt_fn formatter(const char *name)
{
	size_t n, i;
	const struct tmpl_formatter *f = escape_formatters(&n);

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return f[i].fn;
	fail_msg("no formatter '%s'", name);
	return NULL;
}

/* Formats in[0..len) with formatter name (after some existing text, which
 * must be kept) and compares with want. */
static void check_len(const char *name, const char *in, size_t len,
                      const char *want)
{
	struct strbuf out = STRBUF_INIT;

	/* a new line: a Markdown value there starts a block */
	strbuf_adds(&out, "^\n");
	formatter(name)(&out, in, len);
	if (strlen(want) + 2 != out.len ||
	    memcmp(out.buf + 2, want, out.len - 2))
		fail_msg("%s('%s'): got '%s', want '%s'", name, in, out.buf + 2,
		         want);
	strbuf_release(&out);
}

static void check(const char *name, const char *in, const char *want)
{
	check_len(name, in, strlen(in), want);
}

static const char script[] = "<script>alert(1)</script>";

static void table_lists_every_formatter_in_order(void **state)
{
	static const char *const names[] = {
	    "html",  "url", "href",   "js",     "md",  "raw",     "int",
	    "f1",    "f2",  "f3",     "pct1",   "dur", "dur_own", "us",
	    "mdurl", "css", "cssstr", "mdcode", "path"};
	size_t n, i;
	const struct tmpl_formatter *f = escape_formatters(&n);

	(void)state;
	assert_int_equal(n, ARRAY_LEN(names));
	for (i = 0; i < n; i++) {
		assert_string_equal(f[i].name, names[i]);
		assert_non_null(f[i].fn);
	}
}

static void html_escapes_markup_and_quotes(void **state)
{
	(void)state;
	check("html", script, "&lt;script&gt;alert(1)&lt;/script&gt;");
	check("html", "a&b \"q\" 'q' &amp;",
	      "a&amp;b &quot;q&quot; &#39;q&#39; "
	      "&amp;amp;");
	check("html", "a|b`c\nd\te\rf", "a|b`c\nd\te\rf");
	check("html", "", "");
	check("html", "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80",
	      "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80");
	/* controls other than TAB LF CR, NUL included, and invalid bytes */
	check_len("html", "a\0b\x01\x1b\x7f", 6, "a" FFFD "b" FFFD FFFD FFFD);
	check("html", "\xff<", FFFD "&lt;");
	check("html", "\xC3(", FFFD "(");
	check("html", "\xC0\xAF", FFFD FFFD);          /* overlong '/' */
	check("html", "\xED\xA0\x80", FFFD FFFD FFFD); /* surrogate */
	check("html", "x\xE4\xB8", "x" FFFD FFFD);     /* cut short */
}

static void url_percent_encodes_all_but_unreserved(void **state)
{
	(void)state;
	check("url", "AZaz09-._~", "AZaz09-._~");
	check("url", "a b&c=d/e?f#g+h%", "a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh%25");
	check("url", script, "%3Cscript%3Ealert%281%29%3C%2Fscript%3E");
	check("url", "\"'|`\n", "%22%27%7C%60%0A");
	check("url", "caf\xC3\xA9", "caf%C3%A9");
	check("url",
	      "\xff"
	      "a\xC3",
	      "%EF%BF%BDa%EF%BF%BD");
	check_len("url", "\0", 1, "%00");
}

static void href_allows_safe_schemes_only(void **state)
{
	(void)state;
	check("href", "https://example.com/a?b=1&c=<2>",
	      "https://example.com/a?b=1&amp;c=&lt;2&gt;");
	check("href", "HTTP://X/", "HTTP://X/");
	check("href", "http:", "http:");
	check("href", "mailto:a@b.c", "mailto:a@b.c");
	check("href", "/rel/path", "/rel/path");
	check("href", "kernels.html", "kernels.html");
	check("href", "./a:b", "./a:b");
	check("href", "#top", "#top");
	check("href", "?q=a:b", "?q=a:b");
	check("href", "//cdn.example/x", "//cdn.example/x");
	check("href", "", "");
	check("href", "\"onmouseover='x'", "&quot;onmouseover=&#39;x&#39;");
	check("href", "/\xff", "/" FFFD);
	/* everything else becomes "#" */
	check("href", "javascript:alert(1)", "#");
	check("href", "JavaScript:alert(1)", "#");
	check("href", " javascript:alert(1)", "#");
	check("href", "java\tscript:alert(1)", "#");
	check("href", "java\nscript:alert(1)", "#");
	check("href", "data:text/html,<script>", "#");
	check("href", "vbscript:x", "#");
	check("href", "ftp://example.com/", "#");
	check("href", "httpx://a", "#");
	check("href", "a:b", "#");
	check("href", ":x", "#");
}

static void mdurl_keeps_a_markdown_link_destination_whole(void **state)
{
	(void)state;
	check("mdurl",
	      "https://gitcode.com/Ascend/MindIE-SD/blob/master/docs/en/"
	      "features/core_layers.md",
	      "https://gitcode.com/Ascend/MindIE-SD/blob/master/docs/en/"
	      "features/core_layers.md");
	check("mdurl", "https://w.example/a b(c)<d>|e\"f'g`h\\i",
	      "https://w.example/a%20b%28c%29%3Cd%3E%7Ce%22f%27g%60h%5Ci");
	check("mdurl", "javascript:alert(1)", "#");
	check("mdurl", "data:text/html,x", "#");
}

static void js_escapes_for_a_string_literal_in_script(void **state)
{
	(void)state;
	check("js", script,
	      "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e");
	check("js", "a\"b\\c'd&e", "a\\\"b\\\\c\\u0027d\\u0026e");
	check("js", "<!-- -->", "\\u003c!-- --\\u003e");
	check("js", "\n\r\t\x01\x1f\x7f",
	      "\\u000a\\u000d\\u0009\\u0001\\u001f\\u007f");
	check_len("js", "\0", 1, "\\u0000");
	check("js",
	      "a\xE2\x80\xA8"
	      "b\xE2\x80\xA9"
	      "c",
	      "a\\u2028b\\u2029c");
	check("js", "|`$ caf\xC3\xA9 \xE4\xB8\xAD",
	      "|`$ caf\xC3\xA9 \xE4\xB8\xAD");
	check("js", "\xff\xE2\x80", FFFD FFFD FFFD);
}

static void md_leaves_no_markup(void **state)
{
	(void)state;
	check("md", "*bold* _it_ [l](u) <b>&",
	      "\\*bold\\* \\_it_ \\[l\\](u) \\<b>&");
	check("md", "a|b`c\\d#e+f-g!h{i}j~k", "a\\|b\\`c\\d#e+f-g!h{i}j\\~k");
	check("md", "line1\nline2\r\nx\ty", "line1 line2  x\ty");
	check("md", script, "\\<script>alert(1)\\</script>");
	check("md", "\"q\" 'q' 1.5 a=b", "\"q\" 'q' 1.5 a=b");
	check_len("md", "\0\x01\x7f", 3, FFFD FFFD FFFD);
	check("md", "caf\xC3\xA9\xff", "caf\xC3\xA9" FFFD);
}

/* What never needed a backslash keeps none: the report's own prose,
 * paths, dates and thresholds read in the source as on the page. */
static void md_escapes_only_what_would_break(void **state)
{
	(void)state;
	check("md", "image-dit-1card/step_trace_time.csv 2026-12-03",
	      "image-dit-1card/step_trace_time.csv 2026-12-03");
	check("md", "DiT (transformer) 39.2% > 30.0% a+b 1. x # y !",
	      "DiT (transformer) 39.2% > 30.0% a+b 1. x # y !");
	check("md", "\xE6\xB3\xA8_\xE6\x84\x8F", "\xE6\xB3\xA8_\xE6\x84\x8F");
	/* an _ that could open emphasis; any ~ (strikethrough) */
	check("md", "__init__ ~~s~~ a~b~c x_ _y",
	      "\\_\\_init_\\_ \\~\\~s\\~\\~ a\\~b\\~c x_ \\_y");
	/* an entity would be decoded; a lone & would not */
	check("md", "&amp; &#60; &x &", "\\&amp; \\&#60; &x &");
	/* a backslash escapes punctuation and, last, joins lines */
	check("md", "a\\b c\\* d\\", "a\\b c\\\\\\* d\\\\");
}

/* A value may start a line or a list item's text: its start cannot
 * become a heading, quote, list, rule or setext underline. */
static void md_escapes_a_block_marker_at_the_start(void **state)
{
	(void)state;
	check("md", "# h", "\\# h");
	check("md", "#h", "\\#h");
	check("md", "> q", "\\> q");
	check("md", "  - item", "  \\- item");
	check("md", "+ p", "\\+ p");
	check("md", "---", "\\---");
	check("md", "=== x", "\\=== x");
	check("md", "-5%", "-5%");
	check("md", "12. x", "12\\. x");
	check("md", "3) x", "3\\) x");
	check("md", "1.5 ms", "1.5 ms");
	check("md", "2026-12-03", "2026-12-03");
	check("md", "~~~", "\\~\\~\\~");
}

/* md after the text before it on the line, compared with want */
static void check_after(const char *before, const char *in, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	size_t n = strlen(before);

	strbuf_adds(&out, before);
	escape_md(&out, in, strlen(in));
	if (strcmp(out.buf + n, want))
		fail_msg("md('%s') after '%s': got '%s', want '%s'", in, before,
		         out.buf + n, want);
	strbuf_release(&out);
}

/* Only a value that starts a block (a line, or a list item's or quote's
 * text) escapes a block marker: in a table cell or after other text on
 * its line, "# x" is plain text and keeps no backslash. */
static void md_escapes_a_block_marker_only_where_a_block_starts(void **state)
{
	(void)state;
	check_after("", "# x", "\\# x");
	check_after("text\n", "# x", "\\# x");
	check_after("- ", "# x", "\\# x");
	check_after("  1. ", "> q", "\\> q");
	check_after("> - ", "- i", "\\- i");
	check_after("| a | ", "# x", "# x");
	check_after("| ", "1. first", "1. first");
	check_after("x\n| a | b | ", "> q", "> q");
	check_after("- **Kernel:** ", "# x", "# x");
	check_after("| a | ", "x|y", "x\\|y");
}

static void raw_is_as_is(void **state)
{
	(void)state;
	check("raw", script, script);
	check("raw", "\xff<&\n", "\xff<&\n");
}

/* A stylesheet cannot close its <style> element; CSS itself is kept. */
/* A fenced block no line of the text can close, the text as it is. */
/* a path breaks between folders: <wbr> after each '/', the rest escaped
 * as HTML text */
static void path_breaks_after_each_slash(void **state)
{
	(void)state;
	check("path", "a/b_c/kernel_details.csv",
	      "a/<wbr>b_c/<wbr>kernel_details.csv");
	check("path", "../x/", "../<wbr>x/<wbr>");
	check("path", "no_slash.csv", "no_slash.csv");
	check("path", "", "");
	check("path", "<b>/&\"'", "&lt;b&gt;/<wbr>&amp;&quot;&#39;");
}

static void mdcode_fences_longer_than_any_backtick_run(void **state)
{
	(void)state;
	check("mdcode", "x = [1, 2]\n    y = \"<b>*_\\\"",
	      "```\nx = [1, 2]\n    y = \"<b>*_\\\"\n```");
	check("mdcode", "a\n```\nb\n", "````\na\n```\nb\n````");
	check("mdcode", "a ``` b ```` c", "`````\na ``` b ```` c\n`````");
	check("mdcode", "", "```\n\n```");
	check("mdcode", "\x1b[31mred\r\tx\xff",
	      "```\n\xEF\xBF\xBD[31mred\xEF\xBF\xBD\tx\xEF\xBF\xBD\n```");
}

static void css_cannot_close_the_style_element(void **state)
{
	(void)state;
	check("css", "body { color: #222; } a > b { x: 1 }",
	      "body { color: #222; } a > b { x: 1 }");
	check("css", "</style><script>alert(1)</script>",
	      "<\\/style><script>alert(1)<\\/script>");
	check("css", "</STYLE", "<\\/STYLE");
	check("css", "a { content: \"<\" } /* < / */", /* no "</": as is */
	      "a { content: \"<\" } /* < / */");
	check("css", "<", "<");
	check("css", "x</", "x<\\/");
	check("css", "\xff</", FFFD "<\\/");
	check("css", "", "");
}

static void cssstr_is_one_css_string(void **state)
{
	(void)state;
	check("cssstr", "Confidential", "\"Confidential\"");
	check("cssstr", "a\"b\\c", "\"a\\22 b\\5C c\"");
	check("cssstr", "</style><b>&", "\"\\3C /style\\3E \\3C b\\3E \\26 \"");
	check("cssstr", "x\ny\x1b", "\"x\\A y\\1B \"");
	check("cssstr", "机密 \xff", "\"机密 " FFFD "\"");
	check("cssstr", "", "\"\"");
}

static void raw_keeps_nul_bytes(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	formatter("raw")(&out, "a\0b", 3);
	assert_int_equal(out.len, 3);
	assert_memory_equal(out.buf, "a\0b", 3);
	strbuf_release(&out);
}

static void int_groups_thousands(void **state)
{
	(void)state;
	check("int", "12345678", "12,345,678");
	check("int", "0", "0");
	check("int", "999", "999");
	check("int", "1000", "1,000");
	check("int", "-1234", "-1,234");
	check("int", "+5", "5");
	check("int", "1234.5", "1,235");
	check("int", "-1234.5", "-1,235");
	check("int", "1e3", "1,000");
	check("int", "9223372036854775807", "9,223,372,036,854,775,807");
	check("int", "-9223372036854775808", "-9,223,372,036,854,775,808");
	/* not a number: html-escaped as it is */
	check("int", "", "");
	check("int", "abc", "abc");
	check("int", script, "&lt;script&gt;alert(1)&lt;/script&gt;");
	check("int", "99999999999999999999", "99999999999999999999");
	check("int", "1e30", "1e30");
	check("int", "nan", "nan");
	check("int", "inf", "inf");
	check("int", " 12", " 12");
	check("int", "0x10", "0x10");
	check("int", "1.5.5", "1.5.5");
	check("int", "-", "-");
	check("int", "\xff", FFFD);
}

static void fixed_decimals_and_percent(void **state)
{
	(void)state;
	check("f1", "3.14159", "3.1");
	check("f2", "3.14159", "3.14");
	check("f3", "3.14159", "3.142");
	check("f2", "2", "2.00");
	check("f1", "-2.25", "-2.2"); /* binary rounding of 2.25 is exact */
	check("f1", "-0.04", "0.0");
	check("f1", "-0.06", "-0.1");
	check("f3", "1234567.5", "1,234,567.500");
	check("f1", "14492.04", "14,492.0");
	check("f1", "-1234.56", "-1,234.6");
	check("f1", "0", "0");
	check("f2", "-0.0", "0");
	check("f1", "1e400", "1e400");
	check("f2", "x<", "x&lt;");
	check("pct1", "12.345", "12.3%");
	check("pct1", "100", "100.0%");
	check("pct1", "0", "0%");
	check("pct1", "0.01", "0.01%");
	check("pct1", "x&", "x&amp;");
}

static void durations_and_microseconds(void **state)
{
	(void)state;
	check("dur", "812400", "812.4 \xC2\xB5s");
	check("dur", "81240000", "81.24 ms");
	check("dur", "8124000000", "8.124 s");
	check("dur", "1234567000000", "1,234.567 s");
	check("dur", "0", "0");
	check("dur", "1.5e6", "1.50 ms");
	check("dur", "x", "x");
	check("dur", "<b>", "&lt;b&gt;");
	check("us", "1234567", "1234.567");
	check("us", "-5", "-0.005");
	check("us", "1.6", "0.002");
	check("us", "", "");
	check("us", "'", "&#39;");
}

static void exported_escapers_match_the_table(void **state)
{
	struct strbuf a = STRBUF_INIT;

	(void)state;
	escape_html(&a, "<", 1);
	escape_url(&a, " ", 1);
	escape_href(&a, "javascript:x", 12);
	escape_js(&a, "'", 1);
	escape_md(&a, "*", 1);
	escape_css(&a, "</", 2);
	assert_string_equal(a.buf, "&lt;%20#\\u0027\\*<\\/");
	strbuf_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(table_lists_every_formatter_in_order),
	    cmocka_unit_test(html_escapes_markup_and_quotes),
	    cmocka_unit_test(url_percent_encodes_all_but_unreserved),
	    cmocka_unit_test(href_allows_safe_schemes_only),
	    cmocka_unit_test(mdurl_keeps_a_markdown_link_destination_whole),
	    cmocka_unit_test(js_escapes_for_a_string_literal_in_script),
	    cmocka_unit_test(md_leaves_no_markup),
	    cmocka_unit_test(md_escapes_only_what_would_break),
	    cmocka_unit_test(md_escapes_a_block_marker_at_the_start),
	    cmocka_unit_test(
	        md_escapes_a_block_marker_only_where_a_block_starts),
	    cmocka_unit_test(raw_is_as_is),
	    cmocka_unit_test(raw_keeps_nul_bytes),
	    cmocka_unit_test(css_cannot_close_the_style_element),
	    cmocka_unit_test(mdcode_fences_longer_than_any_backtick_run),
	    cmocka_unit_test(path_breaks_after_each_slash),
	    cmocka_unit_test(int_groups_thousands),
	    cmocka_unit_test(fixed_decimals_and_percent),
	    cmocka_unit_test(durations_and_microseconds),
	    cmocka_unit_test(exported_escapers_match_the_table),
	    cmocka_unit_test(cssstr_is_one_css_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
