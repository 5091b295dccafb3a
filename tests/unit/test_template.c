/* Unit tests of tmpl/template: the template language, its errors and its
 * limits, rendered with the built-in formatters and an in-memory loader. */
#include "unit.h"

#include "view/escape.h"
#include "tmpl/template.h"
#include "util/err.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- fixtures ----------------------------------------------------------- */

static const struct {
	const char *name, *text;
} partials[] = {
    {"header.tmpl", "<h1><TMPL_VAR title></h1>"},
    {"row.tmpl", "[<!-- TMPL_VAR name -->]"},
    {"nest1.tmpl", "1(<TMPL_INCLUDE nest2.tmpl>)"},
    {"nest2.tmpl", "2(<TMPL_VAR x>)"},
    {"cyc_a.tmpl", "a<TMPL_INCLUDE cyc_b.tmpl>"},
    {"cyc_b.tmpl", "b\n <TMPL_INCLUDE name=\"cyc_a.tmpl\">"},
    {"self.tmpl", "<TMPL_INCLUDE self.tmpl>"},
    {"bad.tmpl", "ok\n  <TMPL_BOGUS>"},
    {"open_if.tmpl", "<TMPL_IF x>"},
    {"break.tmpl", "<TMPL_BREAK>"},
    {"inner_if.tmpl", "<TMPL_IF x>y</TMPL_IF>"},
    {"page.tmpl", "<TMPL_INCLUDE header.tmpl>|<TMPL_VAR body>"},
};

static int mem_load(void *ctx, const char *name, struct strbuf *text,
                    struct err *e)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < ARRAY_LEN(partials); i++)
		if (!strcmp(partials[i].name, name)) {
			strbuf_adds(text, partials[i].text);
			return 0;
		}
	return err_set(e, ERR_INPUT, "no such template '%s'", name);
}

static struct tmpl_env env_html(void)
{
	struct tmpl_env env = {NULL, 0, "html", mem_load, NULL};

	env.formatters = escape_formatters(&env.nformatters);
	return env;
}

/* Renders text as "t.tmpl" and checks the output. */
static void expect(const char *text, const struct tmpl_vars *v,
                   const char *want)
{
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (tmpl_render_text(&env, "t.tmpl", text, strlen(text), v, &out, &e))
		fail_msg("render of '%s' failed: %s", text, e.msg);
	assert_int_equal(e.code, ERR_NONE);
	assert_string_equal(out.buf ? out.buf : "", want);
	strbuf_release(&out);
}

/* Renders text as "t.tmpl" and checks that it fails with message msg. */
static void expect_err(const char *text, const struct tmpl_vars *v,
                       const char *msg)
{
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	assert_int_equal(
	    tmpl_render_text(&env, "t.tmpl", text, strlen(text), v, &out, &e),
	    -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	strbuf_release(&out);
}

/* x = "X", empty = "", zero = "0", html = "<b>&'\"", and loop rows of
 * n = 1..3 (each row: n, name) plus an empty-named loop "none". */
static struct tmpl_vars *sample_vars(void)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r;
	int i;

	tmpl_set(v, "x", "X");
	tmpl_set(v, "empty", "");
	tmpl_set(v, "zero", "0");
	tmpl_set(v, "html", "<b>&'\"");
	tmpl_set(v, "title", "T");
	for (i = 1; i <= 3; i++) {
		r = tmpl_add_row(v, "rows");
		tmpl_setf(r, "n", "%d", i);
		tmpl_setf(r, "name", "r%d", i);
	}
	return v;
}

/* ---- text and variables ------------------------------------------------- */

static void text_is_copied_and_vars_replaced(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("", v, "");
	expect("plain <b>text</b> < > <!-- html comment --> <TMPLX> <TMPL", v,
	       "plain <b>text</b> < > <!-- html comment --> <TMPLX> <TMPL");
	expect("a<TMPL_VAR x>b<TMPL_VAR nope>c", v, "aXbc");
	expect("<TMPL_VAR x><TMPL_VAR x>", v, "XX");
	expect("\xC3\xA9<TMPL_VAR x>\xE4\xB8\xAD", v, "\xC3\xA9X\xE4\xB8\xAD");
	tmpl_vars_free(v);
}

static void both_spellings_and_any_case(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<!-- TMPL_VAR name=\"x\" -->", v, "X");
	expect("<!--TMPL_VAR x-->", v, "X");
	expect("<!--\n\tTMPL_VAR x\n-->", v, "X");
	expect("<tmpl_var x><Tmpl_Var NAME=x>", v, "XX");
	expect("<!-- tmpl_if x -->y<!-- /tmpl_if -->", v, "y");
	expect("<TMPL_IF x>y<!-- /TMPL_IF -->", v, "y");
	expect("<!-- TMPL_IF x -->y</TMPL_IF>", v, "y");
	/* the variable names themselves are case-sensitive */
	expect("[<TMPL_VAR X>]", v, "[]");
	tmpl_vars_free(v);
}

static void attributes_quoted_unquoted_and_bare(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_VAR name=\"x\">", v, "X");
	expect("<TMPL_VAR name='x'>", v, "X");
	expect("<TMPL_VAR name=x>", v, "X");
	expect("<TMPL_VAR x>", v, "X");
	expect("<TMPL_VAR \"x\">", v, "X");
	expect("<TMPL_VAR  name = x  >", v, "X");
	expect("<TMPL_VAR\nname=x\n>", v, "X");
	expect("<TMPL_VAR x/><TMPL_VAR x />", v, "XX");
	expect("<TMPL_VAR x fmt=raw>", v, "X");
	expect("<TMPL_VAR fmt='raw' name=\"html\">", v, "<b>&'\"");
	expect("<TMPL_VAR nope default=\"a > b\">", v, "a &gt; b");
	expect("<TMPL_VAR nope default='say \"hi\"'>", v, "say &quot;hi&quot;");
	expect("<!-- TMPL_VAR nope default=-- -->", v, "--");
	tmpl_vars_free(v);
}

static void default_used_when_unset_or_empty(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_VAR nope default=d>", v, "d");
	expect("<TMPL_VAR empty default=d>", v, "d");
	expect("<TMPL_VAR zero default=d>", v, "0");
	expect("<TMPL_VAR x default=d>", v, "X");
	expect("<TMPL_VAR nope default=\"\">", v, "");
	expect("<TMPL_VAR rows default=loop>", v, "loop");
	tmpl_vars_free(v);
}

static void vars_are_escaped_by_default_and_raw_by_name(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new();
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *t = "<TMPL_VAR s>|<TMPL_VAR s fmt=raw>";

	(void)state;
	tmpl_set(v, "s", "<script>alert(1)</script>");
	expect("<TMPL_VAR s>", v, "&lt;script&gt;alert(1)&lt;/script&gt;");
	expect("<TMPL_VAR s fmt=raw>", v, "<script>alert(1)</script>");
	expect("<TMPL_VAR s fmt=RAW>", v, "<script>alert(1)</script>");
	expect("<TMPL_VAR s fmt=url>", v,
	       "%3Cscript%3Ealert%281%29%3C%2Fscript%3E");
	expect("<TMPL_VAR s fmt=js>", v,
	       "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e");
	tmpl_set(v, "n", "1234567");
	expect("<TMPL_VAR n fmt=int> <TMPL_VAR n fmt=dur>", v,
	       "1,234,567 1.23 ms");
	/* "raw" means raw even when the env's table says otherwise */
	env.default_fmt = NULL; /* NULL: raw */
	assert_int_equal(tmpl_render_text(&env, "t", t, strlen(t), v, &out, &e),
	                 0);
	assert_string_equal(
	    out.buf, "<script>alert(1)</script>|<script>alert(1)</script>");
	strbuf_release(&out);
	tmpl_vars_free(v);
}

static void unknown_default_formatter_is_an_internal_error(void **state)
{
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	(void)state;
	env.default_fmt = "nope";
	assert_int_equal(tmpl_render_text(&env, "t", "x", 1, NULL, &out, &e),
	                 -1);
	assert_int_equal(e.code, ERR_INTERNAL);
	assert_string_equal(e.msg, "unknown default formatter 'nope'");
	strbuf_release(&out);
}

/* ---- conditions --------------------------------------------------------- */

static void if_truth_table(void **state)
{
	struct tmpl_vars *v = sample_vars();
	const char *t = "<TMPL_IF x>x</TMPL_IF><TMPL_IF empty>e</TMPL_IF>"
	                "<TMPL_IF zero>z</TMPL_IF><TMPL_IF nope>n</TMPL_IF>"
	                "<TMPL_IF rows>r</TMPL_IF><TMPL_IF none>N</TMPL_IF>";

	(void)state;
	expect(t, v, "xr");
	tmpl_set(v, "zero", "00");
	tmpl_set(v, "empty", " ");
	expect(t, v, "xezr");
	/* a loop with rows is true */
	tmpl_add_row(tmpl_add_row(v, "none"), "inner");
	expect("<TMPL_LOOP none><TMPL_IF inner>i</TMPL_IF>"
	       "<TMPL_IF nope>n</TMPL_IF></TMPL_LOOP>",
	       v, "i");
	tmpl_vars_free(v);
}

static void if_value_compares_strings(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_IF x value=X>y<TMPL_ELSE>n</TMPL_IF>", v, "y");
	expect("<TMPL_IF x value=x>y<TMPL_ELSE>n</TMPL_IF>", v, "n");
	expect("<TMPL_IF x value=\"X \">y<TMPL_ELSE>n</TMPL_IF>", v, "n");
	expect("<TMPL_IF zero value=0>y</TMPL_IF>", v, "y");
	expect("<TMPL_IF nope value=\"\">y</TMPL_IF>", v, "y");
	expect("<TMPL_IF empty value=''>y</TMPL_IF>", v, "y");
	expect("<TMPL_UNLESS x value=X>y<TMPL_ELSE>n</TMPL_UNLESS>", v, "n");
	expect("<TMPL_LOOP rows><TMPL_IF n value=2>two<TMPL_ELSE><TMPL_VAR "
	       "n></TMPL_IF></TMPL_LOOP>",
	       v, "1two3");
	tmpl_vars_free(v);
}

static void elsif_chain_takes_the_first_true_branch(void **state)
{
	struct tmpl_vars *v = sample_vars();
	const char *t = "<TMPL_IF a>A<TMPL_ELSIF b>B<TMPL_ELSIF name=c "
	                "value=3>C<TMPL_ELSIF d>D<TMPL_ELSE>E</TMPL_IF>";

	(void)state;
	expect(t, v, "E");
	tmpl_set(v, "d", "1");
	expect(t, v, "D");
	tmpl_set(v, "c", "4");
	expect(t, v, "D");
	tmpl_set(v, "c", "3");
	expect(t, v, "C");
	tmpl_set(v, "b", "1");
	expect(t, v, "B");
	tmpl_set(v, "a", "1");
	expect(t, v, "A");
	expect("<TMPL_IF nope>A<TMPL_ELSIF nope2>B</TMPL_IF>.", v, ".");
	expect("<!-- TMPL_IF nope -->A<!-- TMPL_ELSIF x -->B<!-- TMPL_ELSE "
	       "-->C<!-- /TMPL_IF -->",
	       v, "B");
	tmpl_vars_free(v);
}

static void unless_and_else(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_UNLESS x>a</TMPL_UNLESS>.", v, ".");
	expect("<TMPL_UNLESS nope>a</TMPL_UNLESS>.", v, "a.");
	expect("<TMPL_UNLESS zero>a<TMPL_ELSE>b</TMPL_UNLESS>", v, "a");
	expect("<TMPL_UNLESS x>a<TMPL_ELSE>b</TMPL_UNLESS>", v, "b");
	expect("<TMPL_UNLESS rows>a<TMPL_ELSE>b<!-- /TMPL_UNLESS -->", v, "b");
	expect("<TMPL_IF x>a<TMPL_ELSE>b</TMPL_IF>", v, "a");
	expect("<TMPL_IF nope>a<TMPL_ELSE>b</TMPL_IF>", v, "b");
	tmpl_vars_free(v);
}

/* ---- loops -------------------------------------------------------------- */

static void loop_iterates_rows_and_sees_outer_vars(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_LOOP rows>(<TMPL_VAR n>:<TMPL_VAR name>:<TMPL_VAR x>)"
	       "</TMPL_LOOP>",
	       v, "(1:r1:X)(2:r2:X)(3:r3:X)");
	expect("<TMPL_LOOP nope>a</TMPL_LOOP>.", v, ".");
	expect("<TMPL_LOOP x>a</TMPL_LOOP>.", v, ".");
	expect("<!-- TMPL_LOOP name=rows --><TMPL_VAR n><!-- /TMPL_LOOP -->", v,
	       "123");
	tmpl_vars_free(v);
}

static void nested_loops_look_up_inner_to_outer(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *g, *c;
	int i, j;

	(void)state;
	tmpl_set(v, "sep", ",");
	tmpl_set(v, "label", "top");
	for (i = 1; i <= 2; i++) {
		g = tmpl_add_row(v, "groups");
		tmpl_setf(g, "g", "g%d", i);
		if (i == 2)
			tmpl_set(g, "label", "second");
		for (j = 1; j <= 3; j++) {
			c = tmpl_add_row(g, "items");
			tmpl_setf(c, "i", "%d", j);
			if (j == 3)
				tmpl_set(c, "label", "own");
		}
	}
	expect("<TMPL_LOOP groups>[<TMPL_LOOP items><TMPL_VAR g>.<TMPL_VAR "
	       "i>=<TMPL_VAR label><TMPL_VAR sep></TMPL_LOOP>]</TMPL_LOOP>",
	       v,
	       "[g1.1=top,g1.2=top,g1.3=own,][g2.1=second,g2.2=second,g2.3="
	       "own,]");
	/* an inner loop of the same name in each row is that row's own */
	expect("<TMPL_LOOP groups><TMPL_LOOP items><TMPL_IF __last__><TMPL_VAR "
	       "g></TMPL_IF></TMPL_LOOP></TMPL_LOOP>",
	       v, "g1g2");
	tmpl_vars_free(v);
}

static void loop_position_variables(void **state)
{
	struct tmpl_vars *v = sample_vars(), *r;

	(void)state;
	expect("<TMPL_LOOP rows><TMPL_VAR __index__>/<TMPL_VAR __count__>:"
	       "f<TMPL_VAR __first__>l<TMPL_VAR __last__>"
	       "o<TMPL_VAR __odd__>e<TMPL_VAR __even__> </TMPL_LOOP>",
	       v, "1/3:f1lo1e 2/3:floe1 3/3:fl1o1e ");
	expect("<TMPL_LOOP rows><TMPL_UNLESS __first__>, </TMPL_UNLESS>"
	       "<TMPL_VAR n></TMPL_LOOP>",
	       v, "1, 2, 3");
	expect("<TMPL_LOOP rows><TMPL_IF __odd__>odd<TMPL_ELSE>even</TMPL_IF>"
	       "<TMPL_IF __index__ value=3>!</TMPL_IF></TMPL_LOOP>",
	       v, "oddevenodd!");
	/* outside any loop they are ordinary (here unset) names */
	expect("[<TMPL_VAR __index__><TMPL_VAR __first__>]", v, "[]");
	tmpl_set(v, "__index__", "mine");
	expect("[<TMPL_VAR __index__>]", v, "[mine]");
	/* inside a loop they win over a row's own value */
	r = tmpl_add_row(v, "one");
	tmpl_set(r, "__first__", "row");
	expect("<TMPL_LOOP one><TMPL_VAR __first__><TMPL_VAR __last__>"
	       "<TMPL_VAR __count__></TMPL_LOOP>",
	       v, "111");
	/* a nested loop has its own positions */
	expect("<TMPL_LOOP rows><TMPL_LOOP one><TMPL_VAR __index__>/"
	       "<TMPL_VAR __count__></TMPL_LOOP><TMPL_VAR __index__> "
	       "</TMPL_LOOP>",
	       v, "1/11 1/12 1/13 ");
	tmpl_vars_free(v);
}

static void break_and_continue_with_levels(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *o, *in;
	int i, j;

	(void)state;
	for (i = 1; i <= 3; i++) {
		o = tmpl_add_row(v, "outer");
		tmpl_setf(o, "o", "%d", i);
		for (j = 1; j <= 3; j++) {
			in = tmpl_add_row(o, "inner");
			tmpl_setf(in, "i", "%d", j);
		}
	}
	expect("<TMPL_LOOP outer><TMPL_VAR o><TMPL_IF o value=2><TMPL_BREAK>"
	       "</TMPL_IF>;</TMPL_LOOP>",
	       v, "1;2");
	expect("<TMPL_LOOP outer><TMPL_IF o value=2><TMPL_CONTINUE>"
	       "</TMPL_IF><TMPL_VAR o></TMPL_LOOP>",
	       v, "13");
	/* level=1 acts on the inner loop only */
	expect("<TMPL_LOOP outer>[<TMPL_LOOP inner><TMPL_IF i value=2>"
	       "<TMPL_BREAK level=1></TMPL_IF><TMPL_VAR i></TMPL_LOOP>]"
	       "</TMPL_LOOP>",
	       v, "[1][1][1]");
	/* BREAK level=2 leaves both loops */
	expect("<TMPL_LOOP outer>[<TMPL_LOOP inner><TMPL_IF i value=2>"
	       "<TMPL_IF o value=2><TMPL_BREAK level=2></TMPL_IF></TMPL_IF>"
	       "<TMPL_VAR o><TMPL_VAR i></TMPL_LOOP>]</TMPL_LOOP>.",
	       v, "[111213][21.");
	/* CONTINUE level=2 skips the rest of the outer row */
	expect("<TMPL_LOOP outer>[<TMPL_LOOP inner><TMPL_IF i value=2>"
	       "<TMPL_CONTINUE level=\"2\"></TMPL_IF><TMPL_VAR i>"
	       "</TMPL_LOOP>]</TMPL_LOOP>.",
	       v, "[1[1[1.");
	expect("<!-- TMPL_LOOP outer --><!-- TMPL_BREAK --><!-- /TMPL_LOOP "
	       "-->.",
	       v, ".");
	tmpl_vars_free(v);
}

static void loop_of_ten_thousand_rows_and_many_names(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r;
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *t = "<TMPL_LOOP rows><TMPL_VAR k><TMPL_VAR name=v37>"
	                "<TMPL_VAR name=v999></TMPL_LOOP>";
	char name[16];
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) { /* a hashed scope */
		snprintf(name, sizeof(name), "v%d", i);
		tmpl_setf(v, name, "%d;", i);
	}
	for (i = 0; i < 10000; i++) {
		r = tmpl_add_row(v, "rows");
		tmpl_setf(r, "k", "%c", 'a' + i % 26);
		for (int j = 0; j < 20; j++) { /* hashed rows too */
			snprintf(name, sizeof(name), "f%d", j);
			tmpl_set(r, name, "x");
		}
	}
	tmpl_set(v, "v37", "new;"); /* replaces */
	assert_int_equal(tmpl_render_text(&env, "t", t, strlen(t), v, &out, &e),
	                 0);
	assert_int_equal(out.len, 10000 * 9);
	assert_memory_equal(out.buf, "anew;999;bnew;999;", 18);
	strbuf_release(&out);
	tmpl_vars_free(v);
}

/* ---- variable trees ------------------------------------------------------ */

static void vars_set_replace_and_kinds(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r;

	(void)state;
	tmpl_set(v, "a", "1");
	tmpl_set(v, "a", "2");
	tmpl_set(v, "n", NULL);
	tmpl_setf(v, "f", "%s-%04d", "x", 42);
	expect("<TMPL_VAR a>|<TMPL_VAR n default=d>|<TMPL_VAR f>", v,
	       "2|d|x-0042");
	/* a row replaces a value of the same name, and a value a loop */
	r = tmpl_add_row(v, "a");
	tmpl_set(r, "k", "row");
	expect("<TMPL_LOOP a><TMPL_VAR k></TMPL_LOOP>[<TMPL_VAR a>]", v,
	       "row[]");
	tmpl_set(v, "a", "back");
	expect("<TMPL_LOOP a>x</TMPL_LOOP>[<TMPL_VAR a>]", v, "[back]");
	tmpl_vars_free(v);
	tmpl_vars_free(NULL);
	/* no variables at all */
	expect("<TMPL_VAR x default=d><TMPL_LOOP l>x</TMPL_LOOP>", NULL, "d");
}

/* ---- includes ----------------------------------------------------------- */

static void include_inherits_the_scope(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("<TMPL_INCLUDE header.tmpl>!", v, "<h1>T</h1>!");
	expect("<TMPL_INCLUDE name=\"header.tmpl\">", v, "<h1>T</h1>");
	expect("<!-- TMPL_INCLUDE name='header.tmpl' -->", v, "<h1>T</h1>");
	expect("<TMPL_LOOP rows><TMPL_INCLUDE row.tmpl></TMPL_LOOP>", v,
	       "[r1][r2][r3]");
	expect("<TMPL_INCLUDE nest1.tmpl>", v, "1(2(X))");
	expect("<TMPL_IF nope><TMPL_INCLUDE header.tmpl></TMPL_IF>.", v, ".");
	tmpl_vars_free(v);
}

/* fmt="dur" in a loop is a column: one unit, from its largest value, for
 * every row; an inner loop is a column of its own; a value outside any
 * loop, or a default, is formatted alone. */
static void loop_columns_share_one_unit(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r, *c;
	const char *t = "<TMPL_LOOP rows><TMPL_VAR ns fmt=\"dur\">"
	                "<TMPL_IF x>/<TMPL_VAR x fmt=\"dur\" default=\"-\">"
	                "</TMPL_IF>[<TMPL_LOOP in><TMPL_VAR ns fmt=\"dur\"> "
	                "</TMPL_LOOP>];</TMPL_LOOP><TMPL_VAR ns fmt=\"dur\">";

	(void)state;
	tmpl_set(v, "ns", "134700");
	r = tmpl_add_row(v, "rows");
	tmpl_set(r, "ns", "54060000");
	tmpl_set(r, "x", "5000");
	tmpl_define_loop(r, "in");
	r = tmpl_add_row(v, "rows");
	tmpl_set(r, "ns", "134700");
	c = tmpl_add_row(r, "in");
	tmpl_set(c, "ns", "2000");
	c = tmpl_add_row(r, "in");
	tmpl_set(c, "ns", "0");
	r = tmpl_add_row(v, "rows");
	tmpl_set(r, "ns", "x<");
	tmpl_define_loop(r, "in");
	expect(t, v,
	       "54.06 ms/5.0 \xC2\xB5s[];0.13 ms[2.0 \xC2\xB5s 0 ];x&lt;[];"
	       "134.7 \xC2\xB5s");
	tmpl_vars_free(v);
	/* the largest magnitude a column can hold */
	v = tmpl_vars_new();
	tmpl_set(tmpl_add_row(v, "rows"), "ns", "-9223372036854775808");
	tmpl_set(tmpl_add_row(v, "rows"), "ns", "1000");
	expect("<TMPL_LOOP rows><TMPL_VAR ns fmt=\"dur\">;</TMPL_LOOP>", v,
	       "-9,223,372,036.855 s;0.0000010 s;");
	tmpl_vars_free(v);
}

static void render_loads_through_the_loader(void **state)
{
	struct tmpl_vars *v = sample_vars();
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	(void)state;
	tmpl_set(v, "body", "a&b");
	strbuf_adds(&out, "kept:");
	assert_int_equal(tmpl_render(&env, "page.tmpl", v, &out, &e), 0);
	assert_string_equal(out.buf, "kept:<h1>T</h1>|a&amp;b");
	/* the loader's own error for the template asked for */
	assert_int_equal(tmpl_render(&env, "nope.tmpl", v, &out, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, "no such template 'nope.tmpl'");
	err_clear(&e);
	assert_int_equal(tmpl_render(&env, "bad.tmpl", v, &out, &e), -1);
	assert_string_equal(e.msg, "bad.tmpl:2:3: unknown tag 'TMPL_BOGUS'");
	err_clear(&e);
	env.load = NULL;
	assert_int_equal(tmpl_render(&env, "page.tmpl", v, &out, &e), -1);
	assert_int_equal(e.code, ERR_INTERNAL);
	err_clear(&e);
	expect_err("<TMPL_INCLUDE x>", v, "t.tmpl:1:1: no such template 'x'");
	strbuf_release(&out);
	tmpl_vars_free(v);
}

/* ---- comments and line splices ------------------------------------------ */

static void comments_and_backslash_newlines_are_removed(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect("a<* comment *>b", v, "ab");
	expect("a<* multi\nline <TMPL_FOO> *>b", v, "ab");
	expect("a<**>b<* * > *>c", v, "abc");
	expect("<TMPL_IF x>\\\n  y\\\n</TMPL_IF>\\\nz", v, "  yz");
	expect("a\\\r\nb", v, "ab");
	expect("a\\b\\ \nc\\", v, "a\\b\\ \nc\\");
	expect("a\\\\\nb", v, "a\\b");
	expect("<TMPL_VAR\\\nx>", v, "X");
	expect("<TMPL_VAR x>\\\n<* c *>\\\n<TMPL_VAR x>", v, "XX");
	tmpl_vars_free(v);
}

/* ---- errors ------------------------------------------------------------- */

static void errors_in_tags(void **state)
{
	(void)state;
	expect_err("x\n  <TMPL_VAR name=x", NULL,
	           "t.tmpl:2:3: unclosed tag 'TMPL_VAR' (missing '>')");
	expect_err("<TMPL_VAR name=x <b>", NULL,
	           "t.tmpl:1:1: unclosed tag 'TMPL_VAR' (missing '>')");
	expect_err("<TMPL_VAR name=\"x>", NULL,
	           "t.tmpl:1:1: unclosed tag 'TMPL_VAR' (missing '>')");
	expect_err("<!-- TMPL_VAR x >", NULL,
	           "t.tmpl:1:1: unclosed tag 'TMPL_VAR' (missing '-->')");
	expect_err("<!-- /TMPL_IF", NULL,
	           "t.tmpl:1:1: unclosed tag '/TMPL_IF' (missing '-->')");
	expect_err("ab\n\n    <TMPL_FOO>", NULL,
	           "t.tmpl:3:5: unknown tag 'TMPL_FOO'");
	expect_err("\xC3\xA9\xE4\xB8\xAD<tmpl_foo>", NULL,
	           "t.tmpl:1:3: unknown tag 'tmpl_foo'");
	expect_err("<!-- TMPL_ -->", NULL, "t.tmpl:1:1: unknown tag 'TMPL_'");
	expect_err("</TMPL_VAR>", NULL, "t.tmpl:1:1: unknown tag '/TMPL_VAR'");
	expect_err("<TMPL_VARx>", NULL, "t.tmpl:1:1: unknown tag 'TMPL_VARx'");
	expect_err("<TMPL_VAR>", NULL, "t.tmpl:1:1: missing name in TMPL_VAR");
	expect_err("<TMPL_VAR name=''>", NULL,
	           "t.tmpl:1:1: missing name in TMPL_VAR");
	expect_err("<TMPL_IF x>a<TMPL_ELSIF value=1>b</TMPL_IF>", NULL,
	           "t.tmpl:1:13: missing name in TMPL_ELSIF");
	expect_err("<TMPL_LOOP>", NULL,
	           "t.tmpl:1:1: missing name in TMPL_LOOP");
	expect_err("<TMPL_INCLUDE>", NULL,
	           "t.tmpl:1:1: missing name in TMPL_INCLUDE");
	expect_err(" <TMPL_VAR x fmt=\"bogus\">", NULL,
	           "t.tmpl:1:2: unknown formatter 'bogus'");
	expect_err("<TMPL_VAR x nmae=y>", NULL,
	           "t.tmpl:1:1: unknown attribute 'nmae' in TMPL_VAR");
	expect_err("<TMPL_IF x fmt=raw>", NULL,
	           "t.tmpl:1:1: unknown attribute 'fmt' in TMPL_IF");
	expect_err("<TMPL_IF x></TMPL_IF x>", NULL,
	           "t.tmpl:1:12: unexpected 'x' in /TMPL_IF");
	expect_err("<TMPL_VAR x name=y>", NULL,
	           "t.tmpl:1:1: duplicate attribute 'name' in TMPL_VAR");
	expect_err("<TMPL_VAR x y>", NULL,
	           "t.tmpl:1:1: unexpected 'y' in TMPL_VAR");
	expect_err("<TMPL_ELSE x>", NULL,
	           "t.tmpl:1:1: unexpected 'x' in TMPL_ELSE");
	expect_err("<TMPL_VAR =x>", NULL,
	           "t.tmpl:1:1: unexpected '=' in TMPL_VAR");
	expect_err("<TMPL_VAR x=>", NULL,
	           "t.tmpl:1:1: missing value for 'x' in TMPL_VAR");
	expect_err("<TMPL_VAR name= >", NULL,
	           "t.tmpl:1:1: missing value for 'name' in TMPL_VAR");
	expect_err("a<* never closed", NULL,
	           "t.tmpl:1:2: unclosed comment (missing '*>')");
}

static void errors_in_structure(void **state)
{
	(void)state;
	expect_err("a\n</TMPL_IF>", NULL,
	           "t.tmpl:2:1: '/TMPL_IF' without an open TMPL_IF");
	expect_err("<!-- /TMPL_LOOP -->", NULL,
	           "t.tmpl:1:1: '/TMPL_LOOP' without an open TMPL_LOOP");
	expect_err("<TMPL_IF a>\n<TMPL_LOOP b>x</TMPL_IF>", NULL,
	           "t.tmpl:2:15: '/TMPL_IF' does not close TMPL_LOOP opened "
	           "at 2:1");
	expect_err("<TMPL_UNLESS a>x</TMPL_IF>", NULL,
	           "t.tmpl:1:17: '/TMPL_IF' does not close TMPL_UNLESS "
	           "opened at 1:1");
	expect_err("x\n <TMPL_IF a>y", NULL,
	           "t.tmpl:2:2: TMPL_IF is not closed (missing '/TMPL_IF')");
	expect_err("<TMPL_LOOP a>\n\n   <TMPL_IF b></TMPL_IF>", NULL,
	           "t.tmpl:1:1: TMPL_LOOP is not closed (missing "
	           "'/TMPL_LOOP')");
	expect_err("<TMPL_IF a><TMPL_LOOP b></TMPL_LOOP>", NULL,
	           "t.tmpl:1:1: TMPL_IF is not closed (missing '/TMPL_IF')");
	expect_err("<TMPL_UNLESS a>", NULL,
	           "t.tmpl:1:1: TMPL_UNLESS is not closed (missing "
	           "'/TMPL_UNLESS')");
	expect_err("a<TMPL_ELSE>", NULL,
	           "t.tmpl:1:2: TMPL_ELSE outside TMPL_IF or TMPL_UNLESS");
	expect_err("<TMPL_LOOP a><TMPL_ELSE></TMPL_LOOP>", NULL,
	           "t.tmpl:1:14: TMPL_ELSE outside TMPL_IF or TMPL_UNLESS");
	expect_err("<TMPL_ELSIF a>", NULL,
	           "t.tmpl:1:1: TMPL_ELSIF outside TMPL_IF");
	expect_err("<TMPL_UNLESS a>x<TMPL_ELSIF b>y</TMPL_UNLESS>", NULL,
	           "t.tmpl:1:17: TMPL_ELSIF inside TMPL_UNLESS");
	expect_err("<TMPL_IF a>x<TMPL_ELSE>y<TMPL_ELSE>z</TMPL_IF>", NULL,
	           "t.tmpl:1:25: TMPL_ELSE after TMPL_ELSE");
	expect_err("<TMPL_IF a>x<TMPL_ELSE>y<TMPL_ELSIF b>z</TMPL_IF>", NULL,
	           "t.tmpl:1:25: TMPL_ELSIF after TMPL_ELSE");
}

static void errors_of_break_and_continue(void **state)
{
	(void)state;
	expect_err("a <TMPL_BREAK>", NULL,
	           "t.tmpl:1:3: TMPL_BREAK outside TMPL_LOOP");
	expect_err("<TMPL_IF a><TMPL_CONTINUE></TMPL_IF>", NULL,
	           "t.tmpl:1:12: TMPL_CONTINUE outside TMPL_LOOP");
	expect_err("<TMPL_LOOP a><TMPL_BREAK level=2></TMPL_LOOP>", NULL,
	           "t.tmpl:1:14: TMPL_BREAK level=2 but only 1 TMPL_LOOP "
	           "encloses it");
	expect_err("<TMPL_LOOP a><TMPL_LOOP b><TMPL_CONTINUE level=3>"
	           "</TMPL_LOOP></TMPL_LOOP>",
	           NULL,
	           "t.tmpl:1:27: TMPL_CONTINUE level=3 but only 2 TMPL_LOOPs "
	           "enclose it");
	expect_err("<TMPL_LOOP a><TMPL_BREAK level=0></TMPL_LOOP>", NULL,
	           "t.tmpl:1:14: bad level '0' in TMPL_BREAK (want 1 to 32)");
	expect_err("<TMPL_LOOP a><TMPL_BREAK level=x1></TMPL_LOOP>", NULL,
	           "t.tmpl:1:14: bad level 'x1' in TMPL_BREAK (want 1 to 32)");
	expect_err("<TMPL_LOOP a><TMPL_BREAK level=99999999999999999999>"
	           "</TMPL_LOOP>",
	           NULL,
	           "t.tmpl:1:14: bad level '99999999999999999999' in "
	           "TMPL_BREAK (want 1 to 32)");
	expect_err("<TMPL_BREAK name=x>", NULL,
	           "t.tmpl:1:1: unknown attribute 'name' in TMPL_BREAK");
	/* a loop in the including template does not count */
	expect_err("<TMPL_LOOP a><TMPL_INCLUDE break.tmpl></TMPL_LOOP>", NULL,
	           "break.tmpl:1:1: TMPL_BREAK outside TMPL_LOOP");
}

static void errors_of_includes(void **state)
{
	(void)state;
	expect_err("x\n <TMPL_INCLUDE nope.tmpl>", NULL,
	           "t.tmpl:2:2: no such template 'nope.tmpl'");
	expect_err("<TMPL_INCLUDE nest1.tmpl><TMPL_INCLUDE cyc_a.tmpl>", NULL,
	           "cyc_b.tmpl:2:2: include cycle: t.tmpl -> cyc_a.tmpl -> "
	           "cyc_b.tmpl -> cyc_a.tmpl");
	expect_err("<TMPL_INCLUDE self.tmpl>", NULL,
	           "self.tmpl:1:1: include cycle: t.tmpl -> self.tmpl -> "
	           "self.tmpl");
	expect_err("<TMPL_INCLUDE t.tmpl>", NULL,
	           "t.tmpl:1:1: include cycle: t.tmpl -> t.tmpl");
	expect_err("<TMPL_INCLUDE bad.tmpl>", NULL,
	           "bad.tmpl:2:3: unknown tag 'TMPL_BOGUS'");
	expect_err("<TMPL_IF a><TMPL_INCLUDE open_if.tmpl></TMPL_IF>", NULL,
	           "open_if.tmpl:1:1: TMPL_IF is not closed (missing "
	           "'/TMPL_IF')");
	/* a partial cannot close the includer's block */
	expect_err("<TMPL_INCLUDE nest2.tmpl></TMPL_IF>", NULL,
	           "t.tmpl:1:26: '/TMPL_IF' without an open TMPL_IF");
}

static void a_loop_cannot_iterate_itself(void **state)
{
	struct tmpl_vars *v = sample_vars();

	(void)state;
	expect_err("<TMPL_LOOP rows>\n<TMPL_LOOP rows>x</TMPL_LOOP>"
	           "</TMPL_LOOP>",
	           v, "t.tmpl:2:1: TMPL_LOOP 'rows' inside itself");
	tmpl_vars_free(v);
}

/* ---- limits ------------------------------------------------------------- */

/* n nested TMPL_IFs (or TMPL_LOOPs) around "x". */
static char *nested(int n, const char *tag)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "<TMPL_%s x>", tag);
	strbuf_addch(&sb, 'x');
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "</TMPL_%s>", tag);
	return strbuf_detach(&sb, NULL);
}

/* ifs nested TMPL_IFs around an include of inner_if.tmpl (one more IF). */
static char *include_in_ifs(int ifs)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < ifs; i++)
		strbuf_adds(&sb, "<TMPL_IF x>");
	strbuf_adds(&sb, "<TMPL_INCLUDE inner_if.tmpl>");
	for (i = 0; i < ifs; i++)
		strbuf_adds(&sb, "</TMPL_IF>");
	return strbuf_detach(&sb, NULL);
}

static void nesting_32_works_33_fails(void **state)
{
	struct tmpl_vars *v = sample_vars(), *chain = tmpl_vars_new();
	struct tmpl_vars *r = chain;
	char *t;
	int i;

	(void)state;
	t = nested(32, "IF");
	expect(t, v, "x");
	free(t);
	t = nested(33, "IF");
	expect_err(t, v, "t.tmpl:1:353: nesting deeper than 32");
	free(t);
	t = nested(33, "UNLESS");
	expect_err(t, v, "t.tmpl:1:481: nesting deeper than 32");
	free(t);
	/* loops count too: 32 rows each holding a loop x of one row */
	for (i = 0; i < 32; i++)
		r = tmpl_add_row(r, "x");
	t = nested(32, "LOOP");
	expect(t, chain, "x");
	free(t);
	t = nested(33, "LOOP");
	expect_err(t, chain, "t.tmpl:1:417: nesting deeper than 32");
	free(t);
	/* an include is a level: 30 IFs + include + its IF = 32 */
	t = include_in_ifs(30);
	expect(t, v, "y");
	free(t);
	t = include_in_ifs(31);
	expect_err(t, v, "inner_if.tmpl:1:1: nesting deeper than 32");
	free(t);
	t = include_in_ifs(32);
	expect_err(t, v, "t.tmpl:1:353: nesting deeper than 32");
	free(t);
	tmpl_vars_free(chain);
	tmpl_vars_free(v);
}

static void template_size_is_limited(void **state)
{
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	char *big = xmalloc(TMPL_MAX_SIZE + 1);

	(void)state;
	memset(big, 'a', TMPL_MAX_SIZE + 1);
	assert_int_equal(tmpl_render_text(&env, "big.tmpl", big, TMPL_MAX_SIZE,
	                                  NULL, &out, &e),
	                 0);
	assert_int_equal(out.len, TMPL_MAX_SIZE);
	strbuf_reset(&out);
	assert_int_equal(tmpl_render_text(&env, "big.tmpl", big,
	                                  TMPL_MAX_SIZE + 1, NULL, &out, &e),
	                 -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg,
	                    "big.tmpl: template larger than 4 MiB (4194305 "
	                    "bytes)");
	free(big);
	strbuf_release(&out);
}

static void output_size_is_limited(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new();
	struct tmpl_env env = env_html();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *t = "<TMPL_LOOP rows>\n<TMPL_VAR big fmt=raw></TMPL_LOOP>";
	char *big = xmalloc(((size_t)1 << 24) + 1);
	int i;

	(void)state;
	memset(big, 'b', (size_t)1 << 24);
	big[(size_t)1 << 24] = '\0';
	tmpl_set(v, "big", big);
	free(big);
	for (i = 0; i < 15; i++)
		tmpl_add_row(v, "rows");
	assert_int_equal(tmpl_render_text(&env, "t", t, strlen(t), v, &out, &e),
	                 0);
	assert_int_equal(out.len, 15 * (((size_t)1 << 24) + 1));
	strbuf_reset(&out);
	tmpl_add_row(v, "rows"); /* 16 * (16 MiB + 1) > 256 MiB */
	assert_int_equal(tmpl_render_text(&env, "t", t, strlen(t), v, &out, &e),
	                 -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, "t:2:1: output larger than 256 MiB");
	strbuf_release(&out);
	tmpl_vars_free(v);
}

/* ---- misses -------------------------------------------------------------- */

/* TMPL_VAR without default= and TMPL_LOOP count when they find nothing of
 * their kind; TMPL_IF/UNLESS, default= and loop variables do not. */
static void template_misses_are_counted_and_named(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r;
	const char *t =
	    "<TMPL_VAR a>\n<TMPL_IF b>b</TMPL_IF>"
	    "<TMPL_UNLESS c>c</TMPL_UNLESS><TMPL_VAR d default=x>"
	    "<TMPL_LOOP e></TMPL_LOOP><TMPL_LOOP rows><TMPL_VAR "
	    "__first__><TMPL_VAR in_row><TMPL_VAR top><TMPL_VAR "
	    "f></TMPL_LOOP><TMPL_VAR rows><TMPL_LOOP top></TMPL_LOOP>";

	(void)state;
	tmpl_set(v, "top", "T");
	r = tmpl_add_row(v, "rows");
	tmpl_set(r, "in_row", "R");
	tmpl_set(tmpl_add_row(v, "rows"), "in_row", "S");
	expect(t, v, "\ncx1RTST");
	/* a (once), e, f (in each of the two rows), rows as a value, top as a
	 * loop */
	assert_int_equal(tmpl_vars_misses(v), 6);
	assert_int_equal(tmpl_vars_misses(r), 6); /* one count per tree */
	assert_string_equal(tmpl_vars_miss_log(v),
	                    "t.tmpl:1:1: TMPL_VAR 'a'\n"
	                    "t.tmpl:2:75: TMPL_LOOP 'e'\n"
	                    "t.tmpl:2:167: TMPL_VAR 'f'\n"
	                    "t.tmpl:2:191: TMPL_VAR 'rows'\n"
	                    "t.tmpl:2:206: TMPL_LOOP 'top'\n");
	tmpl_vars_free(v);
}

/* An empty loop defined with tmpl_define_loop is found: no miss, no rows,
 * false in TMPL_IF; it hides an outer name as any variable does. */
static void a_defined_empty_loop_is_no_miss(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r;

	(void)state;
	tmpl_set(v, "docs", "outer");
	r = tmpl_add_row(v, "rows");
	tmpl_define_loop(r, "docs");
	tmpl_define_loop(v, "empty");
	expect("<TMPL_LOOP rows>[<TMPL_LOOP docs>x</TMPL_LOOP>"
	       "<TMPL_IF docs>y</TMPL_IF>]</TMPL_LOOP>"
	       "<TMPL_LOOP empty>z</TMPL_LOOP><TMPL_IF empty>w</TMPL_IF>",
	       v, "[]");
	assert_int_equal(tmpl_nrows(v, "empty"), 0);
	assert_null(tmpl_row(v, "empty", 0)); /* out of range: no miss */
	assert_int_equal(tmpl_vars_misses(v), 0);
	tmpl_add_row(v, "empty"); /* rows keep coming after the definition */
	tmpl_define_loop(v, "empty"); /* and stay */
	assert_int_equal(tmpl_nrows(v, "empty"), 1);
	tmpl_define_loop(v, "docs"); /* replaces the value */
	assert_string_equal(tmpl_get(v, "docs"), "");
	assert_int_equal(tmpl_vars_misses(v), 1);
	tmpl_vars_free(v);
}

/* The readers' misses name the caller's file and line; a site is described
 * once, whatever the count, and at most 32 sites are. */
static void reader_misses_name_the_caller(void **state)
{
	struct tmpl_vars *v = tmpl_vars_new();
	const struct tmpl_vars *r;
	char want[256], name[16];
	int line, i;

	(void)state;
	tmpl_set(v, "x", "1");
	tmpl_add_row(v, "rows");
	assert_string_equal(tmpl_get(v, "x"), "1");
	r = tmpl_row(v, "rows", 0);
	assert_non_null(r);
	assert_int_equal(tmpl_vars_misses(v), 0);
	for (i = 0; i < 3; i++) {
		line = __LINE__ + 1;
		assert_string_equal(tmpl_get(r, "tpyo"), "");
	}
	assert_int_equal(tmpl_nrows(v, "x"), 0); /* a value, not a loop */
	assert_null(tmpl_row(v, "nope", 0));
	assert_int_equal(tmpl_vars_misses(v), 5);
	snprintf(want, sizeof(want), "test_template.c:%d: no value 'tpyo'\n",
	         line);
	assert_int_equal(strncmp(tmpl_vars_miss_log(v), want, strlen(want)), 0);
	assert_non_null(strstr(tmpl_vars_miss_log(v), ": no loop 'x'\n"));
	assert_non_null(strstr(tmpl_vars_miss_log(v), ": no loop 'nope'\n"));
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		tmpl_get(v, name);
	}
	assert_int_equal(tmpl_vars_misses(v), 105);
	assert_non_null(strstr(tmpl_vars_miss_log(v), "'n28'\n"));
	assert_null(strstr(tmpl_vars_miss_log(v), "'n29'\n")); /* 32 sites */
	tmpl_vars_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(text_is_copied_and_vars_replaced),
	    cmocka_unit_test(both_spellings_and_any_case),
	    cmocka_unit_test(attributes_quoted_unquoted_and_bare),
	    cmocka_unit_test(default_used_when_unset_or_empty),
	    cmocka_unit_test(vars_are_escaped_by_default_and_raw_by_name),
	    cmocka_unit_test(unknown_default_formatter_is_an_internal_error),
	    cmocka_unit_test(if_truth_table),
	    cmocka_unit_test(if_value_compares_strings),
	    cmocka_unit_test(elsif_chain_takes_the_first_true_branch),
	    cmocka_unit_test(unless_and_else),
	    cmocka_unit_test(loop_iterates_rows_and_sees_outer_vars),
	    cmocka_unit_test(nested_loops_look_up_inner_to_outer),
	    cmocka_unit_test(loop_position_variables),
	    cmocka_unit_test(break_and_continue_with_levels),
	    cmocka_unit_test(loop_of_ten_thousand_rows_and_many_names),
	    cmocka_unit_test(vars_set_replace_and_kinds),
	    cmocka_unit_test(include_inherits_the_scope),
	    cmocka_unit_test(render_loads_through_the_loader),
	    cmocka_unit_test(loop_columns_share_one_unit),
	    cmocka_unit_test(comments_and_backslash_newlines_are_removed),
	    cmocka_unit_test(errors_in_tags),
	    cmocka_unit_test(errors_in_structure),
	    cmocka_unit_test(errors_of_break_and_continue),
	    cmocka_unit_test(errors_of_includes),
	    cmocka_unit_test(a_loop_cannot_iterate_itself),
	    cmocka_unit_test(nesting_32_works_33_fails),
	    cmocka_unit_test(template_size_is_limited),
	    cmocka_unit_test(output_size_is_limited),
	    cmocka_unit_test(template_misses_are_counted_and_named),
	    cmocka_unit_test(a_defined_empty_loop_is_no_miss),
	    cmocka_unit_test(reader_misses_name_the_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
