/* Unit tests of render/diff_report.c (with diff_model.c, diff_chart.c and
 * pdf_diff.c): the comparison reports of sdperf diff in HTML, Markdown and
 * PDF, English and Chinese, from a comparison built here by hand, so each
 * number in it is visible. Expected texts were worked out separately in
 * python3 (e.g. 2.0e9 / 1.6e9 = 1.25 -> "1.25× faster"; (1.6e9 - 2.0e9) /
 * 1e6 = -400.0 ms; 100 * (1.6 - 2.0) / 2.0 = -20.0%; 500 / 550 = 0.909 ->
 * "0.91×"; 40.0 - 52.6 = -12.6 pp; 100 * (30 - 10) / 10 = +200.0%). */
#include "unit.h"

#include "analysis/compare.h"
#include "format/diff_report.h"
#include "view/i18n.h"
#include "util/strbuf.h"

#define S(s)    ((char *)(s)) /* the fixture's strings are never freed */
#define MS      1000000LL
#define MINUS   "\xE2\x88\x92"
#define HOSTILE "<script>alert(1)</script>"

/* ---- fixture ---------------------------------------------------------------
 */

static struct cmp_verdict verdicts[] = {
    {S("fa_quant_sparse"), STAGE_DIT, VC_CLEARED, 1, 1, 52.6, 40.0, 45.0, 1,
     9.7, 15.26},
    {S("matmul_quant"), STAGE_DIT, VC_APPEARED, 1, 1, 38.0, 55.5, 50.0, 0, 0,
     0},
    {S("comm_overlap"), STAGE_DIT, VC_STAYED, 1, 1, 12.0, 11.0, 10.0, 0, 0, 0},
    {S("vector_fusion"), STAGE_DIT, VC_NEVER, 1, 1, 8.0, 9.0, 20.0, 0, 0, 0},
    {S("host_bound"), STAGE_ALL, VC_NEVER, 1, 0, 3.0, 0, 25.0, 0, 0, 0},
    {S("my_own_rule"), STAGE_VAE, VC_NEVER, 1, 1, 1.0, 2.0, 30.0, 0, 0, 0}};

static struct cmp_type types[] = {
    {S("FlashAttentionScore"),
     CAT_FA,
     STAGE_DIT,
     TS_REMOVED,
     {1000 * MS, 0},
     400,
     0},
    {S("AdaBlockSparseAttention"),
     CAT_FA,
     STAGE_DIT,
     TS_ADDED,
     {0, 600 * MS},
     0,
     400},
    {S("Conv3D"), CAT_CONV, STAGE_VAE, TS_BOTH, {300 * MS, 350 * MS}, 9, 9},
    {S(HOSTILE), CAT_OTHER, STAGE_DIT, TS_BOTH, {10 * MS, 30 * MS}, 5, 5},
    {S("MatMulV3"),
     CAT_MATMUL,
     STAGE_DIT,
     TS_BOTH,
     {500 * MS, 490 * MS},
     800,
     800}};

static struct cmp_rank ranks[] = {{0,
                                   {1900 * MS, 1500 * MS},
                                   {2000 * MS, 1600 * MS},
                                   {100 * MS, 40 * MS},
                                   {1800 * MS, 1460 * MS},
                                   {50 * MS, 20 * MS}},
                                  {1,
                                   {1900 * MS, 1520 * MS},
                                   {2000 * MS, 1610 * MS},
                                   {90 * MS, 41 * MS},
                                   {1810 * MS, 1479 * MS},
                                   {-1, -1}}};

static struct cmp_warning warnings[] = {
    {S("steps_differ"), {S("5"), S("4")}, S("the base has 5 steps")},
    {S("no_such_code"), {NULL, NULL}, S("English fallback <b>")}};

static void set_cats(struct cmp_stage *st, const int64_t *b, const int64_t *n)
{
	int k;

	for (k = 0; k < CAT_COUNT; k++) {
		st->cat[k].base = b[k];
		st->cat[k].new_ = n[k];
		st->cat_share[k].base =
		    100.0 * (double)b[k] /
		    (double)(st->kernel.base ? st->kernel.base : 1);
		st->cat_share[k].new_ =
		    100.0 * (double)n[k] /
		    (double)(st->kernel.new_ ? st->kernel.new_ : 1);
	}
}

/* DiT in both runs (faster), VAE in both (slower), the text encoder in the
 * base only and Other in the new only. */
static void fixture(struct comparison *c)
{
	static const int64_t dit_b[] = {1000 * MS, 500 * MS, 0,
	                                190 * MS,  100 * MS, 110 * MS};
	static const int64_t dit_n[] = {600 * MS, 490 * MS, 0,
	                                200 * MS, 80 * MS,  130 * MS};
	static const int64_t vae_b[] = {0, 50 * MS, 300 * MS, 100 * MS, 0, 0};
	static const int64_t vae_n[] = {0, 50 * MS, 350 * MS, 100 * MS, 0, 0};
	struct cmp_stage *d = &c->stages[STAGE_DIT], *v = &c->stages[STAGE_VAE];

	memset(c, 0, sizeof(*c));
	c->base_source = S("/runs/base&co");
	c->new_source = S("/runs/new");
	c->per_step = 0;
	c->base_steps = 5;
	c->new_steps = 4;
	c->base_ranks = c->new_ranks = 2;
	*d = (struct cmp_stage){.in_base = 1,
	                        .in_new = 1,
	                        .kernel = {1900 * MS, 1500 * MS},
	                        .wall = {2000 * MS, 1600 * MS},
	                        .exposed = {100 * MS, 40 * MS},
	                        .exposed_share = {5.0, 2.5},
	                        .speedup = 1.25};
	set_cats(d, dit_b, dit_n);
	*v = (struct cmp_stage){.in_base = 1,
	                        .in_new = 1,
	                        .kernel = {450 * MS, 500 * MS},
	                        .wall = {500 * MS, 550 * MS},
	                        .speedup = 500.0 / 550.0};
	set_cats(v, vae_b, vae_n);
	c->stages[STAGE_TEXT_ENCODER] = (struct cmp_stage){
	    .in_base = 1, .kernel = {40 * MS, 0}, .wall = {50 * MS, 0}};
	c->stages[STAGE_OTHER] = (struct cmp_stage){
	    .in_new = 1, .kernel = {0, 15 * MS}, .wall = {0, 20 * MS}};
	c->verdicts = verdicts;
	c->nverdicts = ARRAY_LEN(verdicts);
	c->types = types;
	c->ntypes = ARRAY_LEN(types);
	c->ranks = ranks;
	c->nranks = ARRAY_LEN(ranks);
	c->warnings = warnings;
	c->nwarnings = ARRAY_LEN(warnings);
	/* 300 -> 255 ms a step end to end: 15.0% faster */
	c->e2e_known = 1;
	c->e2e = (struct cmp_time){300 * MS, 255 * MS};
}

/* Renders kind in lang; asserts success and no missing catalogue key. */
static char *render_len(const struct comparison *c, enum report_kind kind,
                        const char *lang, const char *title, size_t *len)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t missing = 99;
	struct report_opts o = {lang,       title,    NULL, NULL, 1767225600,
	                        "0.0-test", &missing, NULL, NULL, NULL};

	if (diff_report_render(c, kind, &o, &out, &e))
		fail_msg("render failed: %s", e.msg);
	if (missing)
		fail_msg("%zu catalogue lookups found no message (%s, kind %d)",
		         missing, lang, (int)kind);
	return strbuf_detach(&out, len);
}

static char *render(const struct comparison *c, enum report_kind kind,
                    const char *lang)
{
	return render_len(c, kind, lang, NULL, NULL);
}

/* The report that failed a check is kept for a look. */
static void keep(const char *doc)
{
	char path[512];

	if (mkdir(SDPERF_TEST_TMP, 0755) && errno != EEXIST)
		return;
	unit_join(path, sizeof(path), SDPERF_TEST_TMP, "failed-report.txt");
	unit_write(path, doc, strlen(doc));
}

static void has(const char *doc, const char *s)
{
	if (!strstr(doc, s)) {
		keep(doc);
		fail_msg("report lacks '%s' (kept in %s/failed-report.txt)", s,
		         SDPERF_TEST_TMP);
	}
}

static void lacks(const char *doc, const char *s)
{
	if (strstr(doc, s))
		fail_msg("report holds '%s'", s);
}

static size_t count(const char *doc, const char *s)
{
	size_t n = 0;

	for (; (doc = strstr(doc, s)); doc += strlen(s))
		n++;
	return n;
}

/* ---- HTML ------------------------------------------------------------------
 */

static void html_shows_speedups_and_deltas(void **state)
{
	struct comparison c;
	char *h;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	has(h, "<title>Performance comparison</title>");
	has(h, "<code>/runs/base&amp;co</code>");
	has(h, "1.25× faster");    /* 2.0 s / 1.6 s */
	has(h, "0.91×: slower");   /* 500 / 550 */
	has(h, MINUS "400.00 ms"); /* DiT wall */
	has(h, MINUS "20.0%");     /* DiT wall, % of base */
	has(h, "+50.00 ms");       /* VAE wall */
	has(h, "+10.0%");
	has(h, MINUS "12.6 pp");        /* DiT FA share 52.6 -> 40.0 */
	has(h, MINUS "2.5 pp");         /* DiT exposed share 5.0 -> 2.5 */
	has(h, "+200.0%");              /* the hostile type: 10 -> 30 ms */
	has(h, "in the base run only"); /* text encoder */
	has(h, "in the new run only");  /* other */
	/* Other: base 0, so its Δ % is undefined */
	has(h, "data-v=\"20000000\">+20.00 ms</td><td class=\"num\">–</td>");
	has(h, "5 &rarr; 4");
	free(h);
}

static void html_lists_verdict_changes_in_order(void **state)
{
	struct comparison c;
	char *h, *app, *clr, *stay;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	app = strstr(h, "class=\"vc-appeared\"");
	clr = strstr(h, "class=\"vc-cleared\"");
	stay = strstr(h, "class=\"vc-stayed\"");
	assert_non_null(app);
	assert_non_null(clr);
	assert_non_null(stay);
	assert_true(app < clr && clr < stay);
	assert_int_equal(count(h, "class=\"vc-never\""), 3);
	has(h, "Attention dominates the DiT"); /* the catalogue's title */
	has(h, "my_own_rule</code>");          /* no title: its id */
	has(h, "55.5%");
	has(h, "&gt; 50.0%");
	/* host_bound has no value in the new run */
	has(h, "<td class=\"num\">–</td><td class=\"num\">&gt; 25.0%");
	has(h, "Profiler steps: 5 in the base run, 4 in the new run");
	has(h, "English fallback &lt;b&gt;");
	free(h);
}

static void html_escapes_data_and_has_no_external_resources(void **state)
{
	struct comparison c;
	char *h;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	lacks(h, HOSTILE);
	has(h, "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>");
	has(h, "<title>Other 130.00 ms</title>"); /* SVG tooltip */
	has(h, "Content-Security-Policy");
	lacks(h, "src=\"http");
	lacks(h, "href=\"http");
	lacks(h, "@import");
	/* one <script>: the sorting helper */
	assert_int_equal(count(h, "<script"), 1);
	free(h);
}

/* The waterfall walks from the base kernel time through each type's
 * change to the new one: 1810 ms, -1000, +600, +50, +20, -10, 1470 ms. */
static void html_waterfall_steps_from_base_to_new(void **state)
{
	struct comparison c;
	char *h, *wf, *end;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	/* drawn for a wide screen, then for a phone (the same bars) */
	wf = strstr(h, "class=\"chart waterfall wide\"");
	assert_non_null(wf);
	assert_non_null(strstr(wf, "class=\"chart waterfall narrow\" "
	                           "viewBox=\"0 0 360 "));
	end = strstr(wf, "</svg>");
	assert_non_null(end);
	*end = '\0';
	assert_int_equal(count(wf, "<rect "), 7);
	has(wf, "<rect class=\"wf-total\"");
	has(wf, ">1.810 s</text>");
	has(wf, "<title>Conv3D (VAE) +50.00 ms</title>");
	has(wf, "<rect class=\"c-FA\"");
	has(wf, ">1.470 s</text>");
	lacks(wf, HOSTILE);
	lacks(wf, "Other types"); /* every type has its own step */
	free(h);
}

static void html_lists_added_removed_and_ranks(void **state)
{
	struct comparison c;
	char *h, *add;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	add = strstr(h, "<ul class=\"type-list added\">");
	assert_non_null(add);
	assert_non_null(strstr(add, "AdaBlockSparseAttention"));
	assert_non_null(strstr(strstr(h, "<ul class=\"type-list removed\">"),
	                       "FlashAttentionScore"));
	has(h, "<section id=\"ranks\">");
	has(h, "1.900 s &rarr; 1.500 s");           /* rank 0 DiT kernel */
	has(h, MINUS "400.00 ms (" MINUS "21.1%)"); /* 100 * -0.4 / 1.9 */
	has(h, "50.00 ms &rarr; 20.00 ms");         /* rank 0 comm wait */
	free(h);
	c.new_ranks = 1; /* one rank on a side: no rank section */
	h = render(&c, REPORT_HTML, "en");
	lacks(h, "<section id=\"ranks\">");
	free(h);
}

static void title_option_replaces_the_default(void **state)
{
	struct comparison c;
	char *h;

	(void)state;
	fixture(&c);
	h = render_len(&c, REPORT_HTML, "en", "sparse <vs> dense", NULL);
	has(h, "<h1>sparse &lt;vs&gt; dense</h1>");
	lacks(h, "Performance comparison</h1>");
	free(h);
}

/* 20 matched types took more time: only the 15 largest are tabled; 50
 * added ones: 40 are listed, then "… and 10 more". */
static void only_the_top_types_are_tabled(void **state)
{
	struct cmp_type many[70];
	char names[70][16];
	struct comparison c;
	char *h;
	size_t i;

	(void)state;
	fixture(&c);
	for (i = 0; i < 70; i++) {
		int both = i < 20;
		snprintf(names[i], sizeof(names[i]), "T%02zu", i);
		/* by |delta| descending, as the comparison lists them */
		many[i] = (struct cmp_type){
		    names[i],
		    CAT_VECTOR,
		    STAGE_DIT,
		    both ? TS_BOTH : TS_ADDED,
		    {both ? 100 * MS : 0,
		     both ? (int64_t)(200 - i) * MS : (int64_t)(100 - i)},
		    1,
		    1};
	}
	c.types = many;
	c.ntypes = 70;
	h = render(&c, REPORT_HTML, "en");
	has(h, "<code>T14</code>");
	lacks(h, "<code>T15</code>");
	has(h, "<code>T59</code> <span");
	lacks(h, "<code>T60</code>");
	has(h, "… and 10 more.");
	free(h);
}

/* ---- Markdown, Chinese -----------------------------------------------------
 */

static void markdown_has_the_same_numbers_escaped(void **state)
{
	struct comparison c;
	char *m;

	(void)state;
	fixture(&c);
	m = render(&c, REPORT_MARKDOWN, "en");
	has(m, "# Performance comparison\n");
	has(m, "1.25× faster");
	has(m, MINUS "400.00 ms");
	has(m, MINUS "12.6 pp");
	has(m, "\\<script>alert(1)\\</script>");
	lacks(m, HOSTILE);
	has(m, "- AdaBlockSparseAttention (");
	has(m, "- FlashAttentionScore (");
	has(m, "| 0 | 1.900 s → 1.500 s (" MINUS "21.1%)");
	free(m);
}

static void chinese_reports_use_the_chinese_catalogue(void **state)
{
	const enum report_kind kinds[] = {REPORT_HTML, REPORT_MARKDOWN};
	struct catalog *en, *zh;
	struct err e = ERR_INIT;
	struct comparison c;
	size_t i, k, checked = 0;

	(void)state;
	fixture(&c);
	assert_int_equal(i18n_load("en", &en, &e), 0);
	assert_int_equal(i18n_load("zh", &zh, &e), 0);
	for (k = 0; k < 2; k++) {
		char *out = render(&c, kinds[k], "zh");
		has(out, "性能对比报告");
		has(out, "1.25×，更快");
		has(out, "基线有 5 个采集步骤，新版有 4 个");
		/* no English diff message that zh translates differently */
		for (i = 0; i < i18n_count(en); i++) {
			const char *key = i18n_key(en, i);
			const char *ev = i18n_find(en, key);
			char probe[40];
			if (strncmp(key, "diff_", 5) ||
			    !strcmp(ev, i18n_find(zh, key)))
				continue;
			snprintf(probe, sizeof(probe), "%.*s",
			         (int)strcspn(ev, "{"), ev);
			if (strlen(probe) < 10)
				continue;
			if (strstr(out, probe))
				fail_msg("zh report holds '%s' (%s)", probe,
				         key);
			checked++;
		}
		free(out);
	}
	assert_true(checked > 60);
	i18n_free(en);
	i18n_free(zh);
}

static void per_step_warning_says_times_are_per_step(void **state)
{
	struct comparison c;
	char *h;

	(void)state;
	fixture(&c);
	c.per_step = 1;
	h = render(&c, REPORT_HTML, "en");
	has(h, "4 in the new run; times are per step.");
	has(h, "divided by that side&#39;s number of profiler steps (base 5, "
	       "new 4)");
	free(h);
}

/* ---- PDF -------------------------------------------------------------------
 */

static size_t pdf_pages(const char *pdf, size_t len)
{
	size_t n = 0, i;
	const char *key = "/Type /Page";

	for (i = 0; i + 12 <= len; i++)
		if (!memcmp(pdf + i, key, 11) && pdf[i + 11] != 's')
			n++;
	return n;
}

/* The gain the base report promised for fa_quant_sparse, next to the
 * end-to-end change measured, in HTML and Markdown, en and zh; without the
 * summary's end-to-end time on a side, not measured; no promise, no
 * section. */
static void promised_gain_next_to_measured(void **state)
{
	struct comparison c;
	char *h, *m;

	(void)state;
	fixture(&c);
	h = render(&c, REPORT_HTML, "en");
	has(h, "<h3>Promised against measured</h3>");
	has(h, "<li id=\"promise-fa_quant_sparse\">Attention dominates the "
	       "DiT: promised " MINUS "9.7–15.3% end to end; measured " MINUS
	       "15.0% (300.00 ms → 255.00 ms per step)</li>");
	free(h);
	m = render(&c, REPORT_MARKDOWN, "zh");
	has(m, "### 预计与实测对比\n");
	has(m, "预计端到端 " MINUS "9.7–15.3%；实测 " MINUS "15.0%（每步 "
	       "300.00 ms → 255.00 ms）\n");
	free(m);
	c.e2e_known = 0;
	m = render(&c, REPORT_MARKDOWN, "en");
	has(m, "promised " MINUS "9.7–15.3% end to end; not measured");
	free(m);
	verdicts[0].promised = 0;
	h = render(&c, REPORT_HTML, "en");
	if (strstr(h, "Promised against measured"))
		fail_msg("a promise section without a promise");
	verdicts[0].promised = 1;
	free(h);
}

static void pdf_renders_in_both_languages(void **state)
{
	const char *langs[] = {"en", "zh"};
	struct comparison c;
	size_t l, len, pages;

	(void)state;
	fixture(&c);
	for (l = 0; l < 2; l++) {
		char *pdf = render_len(&c, REPORT_PDF, langs[l], NULL, &len);
		assert_true(len > 1000);
		assert_memory_equal(pdf, "%PDF-", 5);
		pages = pdf_pages(pdf, len);
		if (pages < 3 || pages > 6)
			fail_msg("%s: %zu pages", langs[l], pages);
		free(pdf);
	}
}

static void pdf_with_a_missing_font_is_an_input_error(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct comparison c;
	struct report_opts o = {"en", NULL,       NULL, NULL,
	                        0,    "0.0-test", NULL, "/nonexistent/font.ttf",
	                        NULL, NULL};

	(void)state;
	fixture(&c);
	assert_int_equal(diff_report_render(&c, REPORT_PDF, &o, &out, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_non_null(strstr(e.msg, "/nonexistent/font.ttf"));
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(html_shows_speedups_and_deltas),
	    cmocka_unit_test(html_lists_verdict_changes_in_order),
	    cmocka_unit_test(html_escapes_data_and_has_no_external_resources),
	    cmocka_unit_test(html_lists_added_removed_and_ranks),
	    cmocka_unit_test(html_waterfall_steps_from_base_to_new),
	    cmocka_unit_test(title_option_replaces_the_default),
	    cmocka_unit_test(only_the_top_types_are_tabled),
	    cmocka_unit_test(markdown_has_the_same_numbers_escaped),
	    cmocka_unit_test(chinese_reports_use_the_chinese_catalogue),
	    cmocka_unit_test(per_step_warning_says_times_are_per_step),
	    cmocka_unit_test(promised_gain_next_to_measured),
	    cmocka_unit_test(pdf_renders_in_both_languages),
	    cmocka_unit_test(pdf_with_a_missing_font_is_an_input_error),
	};
	/* a template variable the view model does not define fails the
	 * render (format/report.h) */
	setenv(REPORT_MISSES_ENV, "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
