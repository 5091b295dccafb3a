/* Unit tests of util/cssscope.c: selectors scoped under one root, the page
 * itself mapped to the root, nested at-rules, rem lengths in px, and the
 * report's own stylesheets (report.css, fragment.css) scoped rule by rule. */
#include "unit.h"

#include "util/cssscope.h"
#include "util/embed.h"
#include "util/strbuf.h"

#define ROOT ".sdperf-report"

/* css scoped must read want exactly */
static void expect(const char *css, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (css_scope(css, strlen(css), ROOT, "t.css", &out, &e))
		fail_msg("'%s': %s", css, e.msg);
	if (strcmp(out.buf ? out.buf : "", want))
		fail_msg("'%s'\n -> '%s'\nwant '%s'", css,
		         out.buf ? out.buf : "", want);
	strbuf_release(&out);
}

static void expect_error(const char *css, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	assert_int_equal(css_scope(css, strlen(css), ROOT, "t.css", &out, &e),
	                 -1);
	assert_int_equal(e.code, ERR_INPUT);
	if (!strstr(e.msg, want))
		fail_msg("'%s': message '%s' lacks '%s'", css, e.msg, want);
	strbuf_release(&out);
}

static void cssscope_prefixes_every_selector_of_a_list(void **state)
{
	(void)state;
	expect("table th, td { padding: 5px }",
	       ".sdperf-report table th, .sdperf-report td { padding: 5px }\n");
	/* commas inside :not() and strings are not list commas */
	expect("a:not(.x, .y), [title=\"a,b\"] {x: 1}",
	       ".sdperf-report a:not(.x, .y), .sdperf-report [title=\"a,b\"] "
	       "{x: 1}\n");
	expect("* { box-sizing: border-box; }",
	       ".sdperf-report * { box-sizing: border-box; }\n");
	/* a comment in a selector goes, one in a declaration too */
	expect("h1 /* big */ , h2{a:b/* c */}",
	       ".sdperf-report h1, .sdperf-report h2 {a:b}\n");
}

static void cssscope_maps_the_page_to_the_root(void **state)
{
	(void)state;
	expect(":root { --fg: #1d2330; }",
	       ".sdperf-report { --fg: #1d2330; }\n");
	expect("html, body{margin:0}",
	       ".sdperf-report, .sdperf-report {margin:0}\n");
	expect("body.diff h1 {a:b}", ".sdperf-report.diff h1 {a:b}\n");
	expect("html body > main {a:b}", ".sdperf-report > main {a:b}\n");
	expect("HTML[lang=zh] p {a:b}", ".sdperf-report[lang=zh] p {a:b}\n");
	/* a name that merely starts like one is an ordinary element */
	expect("bodyx {a:b}", ".sdperf-report bodyx {a:b}\n");
	/* a sibling of the page is outside the root: dropped, and so is a
	 * rule left with no selector */
	expect("body + p, h1 {a:b}", ".sdperf-report h1 {a:b}\n");
	expect("body ~ p {a:b} h2 {c:d}", ".sdperf-report h2 {c:d}\n");
}

static void cssscope_handles_at_rules(void **state)
{
	(void)state;
	expect("@media (max-width: 700px) { body { padding: 0 } .a, .b {x:y} }",
	       "@media (max-width: 700px) {\n.sdperf-report { padding: 0 }\n"
	       ".sdperf-report .a, .sdperf-report .b {x:y}\n}\n");
	/* nested blocks; @page and @import belong to the host and go */
	expect("@import url(x.css); @media print { @page { size: A4 } "
	       "@supports (display: grid) { a { b: c } } }",
	       "@media print {\n@supports (display: grid) {\n"
	       ".sdperf-report a { b: c }\n}\n}\n");
	expect("@keyframes spin { from { a: 0 } to { a: 1 } } p{q:r}",
	       "@keyframes spin { from { a: 0 } to { a: 1 } }\n"
	       ".sdperf-report p {q:r}\n");
}

/* Issue 23, defect 11: a user's report.css (--templates) must not reach
 * the host page. A selector that starts with a combinator was written
 * after the root as it came: `~ *` became `.sdperf-report ~ *`, every
 * sibling of the fragment on the wiki page. */
static void cssscope_keeps_combinators_inside_the_root(void **state)
{
	(void)state;
	/* a sibling combinator first: outside the root, dropped (a browser
	 * ignores such a rule at the top level anyway) */
	expect("~ * { display: none }", "");
	expect("  + p {a:b}", "");
	expect("/* x */ ~ div, h1 {a:b}", ".sdperf-report h1 {a:b}\n");
	expect("h1, ~*, +p {a:b}", ".sdperf-report h1 {a:b}\n");
	/* a child combinator first: children of the root, kept */
	expect("> p {a:b}", ".sdperf-report > p {a:b}\n");
	/* the page mapped to the root, then a sibling: dropped */
	expect(":root ~ * {a:b}", "");
	expect("html > body + div {a:b}", "");
	/* a sibling combinator later in a scoped selector stays inside */
	expect("h1 ~ p {a:b}", ".sdperf-report h1 ~ p {a:b}\n");
	/* selector lists inside :is(), :where(), :not(), :has() only narrow
	 * the scoped selector */
	expect(":is(html, body) ~ *, :where(~ *) {a:b}",
	       ".sdperf-report :is(html, body) ~ *, .sdperf-report :where(~ "
	       "*) {a:b}\n");
	expect(":not(~ *) > a {a:b}", ".sdperf-report :not(~ *) > a {a:b}\n");
	/* the same inside @media and @supports */
	expect("@media screen { ~ * {a:b} @supports (x:y) { + p {c:d} q{e:f} "
	       "} }",
	       "@media screen {\n@supports (x:y) {\n.sdperf-report q {e:f}\n}"
	       "\n}\n");
	/* a nested rule (CSS nesting) in a rule's declarations: dropped,
	 * its declarations around it kept */
	expect("a { color: red; body:has(&) * { display: none } b: c }",
	       ".sdperf-report a { color: red; b: c }\n");
	expect("a { & ~ * { x: y } }", ".sdperf-report a { }\n");
	/* at-rules that are the host's (or select nothing) */
	/* strings and url()s end where a browser ends them: a string at an
	 * unescaped newline (a bad string), an unquoted url() at its ')'
	 * whatever quotes it holds; otherwise what follows was copied as
	 * declarations and a browser read it as a rule of the host page */
	expect("a {b: \"x\n} body * {c:d} /*\" }",
	       ".sdperf-report a {b: \"x\n}\n.sdperf-report * {c:d}\n");
	expect("a { b: url(x\"); } html * {c:d} p{e:\"}\"}",
	       ".sdperf-report a { b: url(x\"); }\n.sdperf-report * {c:d}\n"
	       ".sdperf-report p {e:\"}\"}\n");
	expect(
	    "a { b: URL( x'y\\) ) } p {c:d}",
	    ".sdperf-report a { b: URL( x'y\\) ) }\n.sdperf-report p {c:d}\n");
	expect("@import url(x.css); @page { margin: 0 } @namespace x url(y); "
	       "@scope (body) { * { a: b } } p {q:r}",
	       ".sdperf-report p {q:r}\n");
}

static void cssscope_turns_rem_into_px(void **state)
{
	(void)state;
	expect(
	    "h1 { font-size: 1.7rem; margin: .5REM 0 -1rem }",
	    ".sdperf-report h1 { font-size: 27.2px; margin: 8px 0 -16px }\n");
	/* not in strings, names or other units */
	expect("p { content: \"1rem\"; x: a1rem; y: 2em; --z1rem: 3px }",
	       ".sdperf-report p { content: \"1rem\"; x: a1rem; y: 2em; "
	       "--z1rem: 3px }\n");
	expect("p { width: calc(100% - 0.125rem) }",
	       ".sdperf-report p { width: calc(100% - 2px) }\n");
	/* the braces in a string close nothing */
	expect("p::before { content: \"}{\" }",
	       ".sdperf-report p::before { content: \"}{\" }\n");
}

static void cssscope_rejects_broken_sheets(void **state)
{
	(void)state;
	expect_error("a { b: c", "t.css:1: block not closed");
	expect_error("a { b: c }\n}", "t.css:2: '}' closes no block");
	expect_error("a, , b { c: d }", "empty selector");
	expect_error("a; b { c: d }", "selector without a block");
	expect_error("@media x { a { b: c }", "block not closed");
}

/* Every selector of the scoped sheet s, in and out of at-rule blocks,
 * starts with the root's compound selector. An independent walk over the
 * output: braces, strings and at-rules. */
static void assert_all_scoped(const char *s)
{
	size_t i = 0, n = strlen(s), start, k, rules = 0;
	int depth = 0; /* depth of at-rule blocks we are inside */

	while (i < n) {
		while (i < n && strchr(" \t\r\n", s[i]))
			i++;
		if (i >= n)
			break;
		if (s[i] == '}') {
			assert_true(depth > 0);
			depth--;
			i++;
			continue;
		}
		start = i;
		while (i < n && s[i] != '{')
			i++;
		assert_true(i < n);
		if (s[start] == '@') {
			/* @media etc. hold rules; @keyframes is kept whole */
			if (!strncmp(s + start, "@keyframes", 10) ||
			    !strncmp(s + start, "@font-face", 10)) {
				int d = 0;
				for (; i < n; i++)
					if (s[i] == '{')
						d++;
					else if (s[i] == '}' && --d == 0)
						break;
				i++;
				continue;
			}
			depth++;
			i++;
			continue;
		}
		/* the selector list s[start..i): split at commas outside () */
		for (k = start; k < i;) {
			int par = 0;
			size_t e = k;
			assert_memory_equal(s + k, ROOT, strlen(ROOT));
			e = k + strlen(ROOT);
			if (!strchr(" .[:{,", s[e]))
				fail_msg("not scoped: '%.*s'", (int)(i - start),
				         s + start);
			for (; e < i && (par || s[e] != ','); e++)
				par += s[e] == '(' ? 1 : s[e] == ')' ? -1 : 0;
			k = e < i ? e + 1 : i;
			while (k < i && s[k] == ' ')
				k++;
		}
		rules++;
		/* skip the declarations, strings included */
		for (i++; i < n && s[i] != '}'; i++)
			if (s[i] == '"' || s[i] == '\'') {
				char q = s[i];
				for (i++; i < n && s[i] != q; i++)
					i += s[i] == '\\';
			}
		i++;
	}
	assert_int_equal(depth, 0);
	assert_true(rules > 50);
}

static void cssscope_scopes_every_rule_of_the_report_sheets(void **state)
{
	const struct embedded_file *frag = embed_find("assets/fragment.css");
	const struct embedded_file *rep = embed_find("assets/report.css");
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct err e = ERR_INIT;

	(void)state;
	assert_non_null(frag);
	assert_non_null(rep);
	strbuf_add(&in, frag->data, frag->len);
	strbuf_add(&in, rep->data, rep->len);
	if (css_scope(in.buf, in.len, ROOT, "report.css", &out, &e))
		fail_msg("%s", e.msg);
	assert_all_scoped(out.buf);
	/* nothing for the host page survives, and no rem */
	assert_null(strstr(out.buf, "@page"));
	assert_null(strstr(out.buf, "rem;"));
	assert_null(strstr(out.buf, "rem "));
	strbuf_release(&in);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cssscope_prefixes_every_selector_of_a_list),
	    cmocka_unit_test(cssscope_maps_the_page_to_the_root),
	    cmocka_unit_test(cssscope_handles_at_rules),
	    cmocka_unit_test(cssscope_keeps_combinators_inside_the_root),
	    cmocka_unit_test(cssscope_turns_rem_into_px),
	    cmocka_unit_test(cssscope_rejects_broken_sheets),
	    cmocka_unit_test(cssscope_scopes_every_rule_of_the_report_sheets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
