/* The templated reports: catalogues complete in both languages, every key
 * the model and the templates use present, no English left in the Chinese
 * report, data from the profile escaped for HTML and Markdown, doc links
 * built from --docs-base and the language. */
#include "unit.h"

#include "analysis/analyse.h"
#include "input/discover.h"
#include "input/kernels.h"
#include "render/i18n.h"
#include "render/report.h"
#include "util/embed.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define EXAMPLE_4CARD                                                          \
	SDPERF_TEST_DATA "/../../examples/video-dit-4card/"                    \
	                 "synth-node_1000_20260101155101760_ascend_pt"
#define SHORT_ROW                                                              \
	SDPERF_TEST_DATA "/samples/msinsight-gpt3-testdata-2023/test_rank_0"
#define HOSTILE SDPERF_TEST_DATA "/hostile"

/* Reads and analyses a profile the way the pipeline does. */
static void load(struct result *r, const char *path)
{
	struct discovered d;
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct kernels_opts ko = {0, 0};
	struct rules ru;
	struct err e = ERR_INIT;

	kernel_table_init(&kt);
	result_init(r);
	assert_int_equal(discover_profile(path, &d, &e), 0);
	assert_int_equal(kernels_read(d.kernels_csv, &ko, &kt, &info, &e), 0);
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	r->profile_path = xstrdup(path);
	result_add_kernels_input(r, &info, kt.n);
	analyse(&kt, &ru, r, NULL);
	rules_release(&ru);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	discover_release(&d);
}

/* Renders kind in lang; asserts success and no missing catalogue key. */
static char *render(const struct result *r, enum report_kind kind,
                    const char *lang, const char *docs_base)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t missing = 99;
	struct report_opts o = {lang,     NULL,       docs_base,
	                        NULL,     1767225600, "0.0-test",
	                        &missing, NULL,       NULL};

	if (report_render(r, kind, &o, &out, &e))
		fail_msg("render failed: %s", e.msg);
	if (missing)
		fail_msg("%zu catalogue lookups found no message (%s, %s)",
		         missing, lang, kind == REPORT_HTML ? "html" : "md");
	return strbuf_detach(&out, NULL);
}

static void catalogues_have_the_same_keys(void **state)
{
	struct catalog *en, *zh;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	assert_int_equal(i18n_load("en", &en, &e), 0);
	assert_int_equal(i18n_load("zh", &zh, &e), 0);
	assert_true(i18n_count(en) > 100);
	assert_int_equal(i18n_count(en), i18n_count(zh));
	for (i = 0; i < i18n_count(en); i++)
		if (!i18n_find(zh, i18n_key(en, i)))
			fail_msg("zh.json lacks '%s'", i18n_key(en, i));
	for (i = 0; i < i18n_count(zh); i++)
		if (!i18n_find(en, i18n_key(zh, i)))
			fail_msg("en.json lacks '%s'", i18n_key(zh, i));
	i18n_free(en);
	i18n_free(zh);
}

static void unknown_language_is_a_usage_error(void **state)
{
	struct catalog *c = (void *)1;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(i18n_load("fr", &c, &e), -1);
	assert_null(c);
	assert_int_equal(e.code, ERR_USAGE);
	assert_string_equal(
	    e.msg, "--lang 'fr': no such language (available: en, zh)");
}

/* Every "t_<key>" a built-in template names is in the catalogue. */
static void templates_name_only_catalogued_messages(void **state)
{
	const struct embedded_file *f;
	struct catalog *en;
	struct err e = ERR_INIT;
	int seen = 0;

	(void)state;
	assert_int_equal(i18n_load("en", &en, &e), 0);
	for (f = sdperf_assets; f->path; f++) {
		const char *p = (const char *)f->data;
		if (strncmp(f->path, "templates/", 10))
			continue;
		while ((p = strstr(p, "TMPL_VAR t_"))) {
			char key[128];
			size_t n = strspn(
			    p + 11, "abcdefghijklmnopqrstuvwxyz"
			            "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
			assert_true(n > 0 && n < sizeof(key));
			memcpy(key, p + 11, n);
			key[n] = '\0';
			if (!i18n_find(en, key))
				fail_msg("%s names t_%s, not in en.json",
				         f->path, key);
			seen++;
			p += 11 + n;
		}
	}
	assert_true(seen > 50);
	i18n_free(en);
}

/* Render every report of a rich profile (communication, text encoder,
 * warnings) and of one with a skipped row, in both languages. */
static void every_message_the_reports_use_is_catalogued(void **state)
{
	const char *paths[] = {EXAMPLE_4CARD, SHORT_ROW, HOSTILE};
	const char *langs[] = {"en", "zh"};
	size_t p, l, k;

	(void)state;
	for (p = 0; p < ARRAY_LEN(paths); p++) {
		struct result r;
		load(&r, paths[p]);
		for (l = 0; l < 2; l++)
			for (k = 0; k < 2; k++)
				free(render(&r,
				            k ? REPORT_MARKDOWN : REPORT_HTML,
				            langs[l], NULL));
		result_release(&r);
	}
}

/* No English message that zh translates differently appears in a zh
 * report (operator names, paths and units are data, not messages). */
static void chinese_report_has_no_english_leftovers(void **state)
{
	struct catalog *en, *zh;
	struct err e = ERR_INIT;
	struct result r;
	char *out[2];
	size_t i, k, checked = 0;

	(void)state;
	assert_int_equal(i18n_load("en", &en, &e), 0);
	assert_int_equal(i18n_load("zh", &zh, &e), 0);
	load(&r, EXAMPLE_4CARD);
	out[0] = render(&r, REPORT_HTML, "zh", NULL);
	out[1] = render(&r, REPORT_MARKDOWN, "zh", NULL);
	assert_non_null(strstr(out[0], "<html lang=\"zh\">"));
	assert_non_null(strstr(out[0], "扩散模型推理性能报告"));
	for (i = 0; i < i18n_count(en); i++) {
		const char *key = i18n_key(en, i);
		const char *ev = i18n_find(en, key), *zv = i18n_find(zh, key);
		char probe[40];
		if (!strcmp(ev, zv) || strlen(ev) < 12)
			continue;
		/* the start of the message, before any placeholder */
		snprintf(probe, sizeof(probe), "%.*s", (int)strcspn(ev, "{"),
		         ev);
		if (strlen(probe) < 12)
			continue;
		for (k = 0; k < 2; k++)
			if (strstr(out[k], probe))
				fail_msg("zh %s report holds English '%s' (%s)",
				         k ? "md" : "html", probe, key);
		checked++;
	}
	assert_true(checked > 60);
	free(out[0]);
	free(out[1]);
	result_release(&r);
	i18n_free(en);
	i18n_free(zh);
}

static void hostile_names_are_text_in_html(void **state)
{
	struct result r;
	char *html;

	(void)state;
	load(&r, HOSTILE);
	html = render(&r, REPORT_HTML, "en", NULL);
	/* the only <script> is the report's own sorting script */
	assert_null(strstr(html, "<script>alert"));
	assert_null(strstr(html, "<img src=x"));
	assert_null(strstr(html, "href=\"javascript"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(html, "&lt;img src=x onerror=alert(2)&gt;"));
	assert_non_null(strstr(html, "a&quot;b&#39;c&amp;d|e"));
	assert_non_null(strstr(html, "注意力算子"));
	free(html);
	result_release(&r);
}

static void hostile_names_are_text_in_markdown(void **state)
{
	struct result r;
	char *md;

	(void)state;
	load(&r, HOSTILE);
	md = render(&r, REPORT_MARKDOWN, "en", NULL);
	assert_null(strstr(md, "<script"));
	assert_null(strstr(md, "<img"));
	assert_null(strstr(md, "](javascript"));
	assert_non_null(
	    strstr(md, "&lt;script&gt;alert\\(1\\)&lt;/script&gt;"));
	/* a | inside a table cell would end the cell */
	assert_non_null(strstr(md, "c&amp;d\\|e"));
	assert_non_null(strstr(md, "\\*bold\\*\\_u\\_\\`tick\\`"));
	assert_non_null(strstr(md, "\\[x\\]\\(javascript:alert\\(1\\)\\)"));
	assert_non_null(strstr(md, "注意力算子"));
	free(md);
	result_release(&r);
}

static void doc_links_follow_docs_base_and_language(void **state)
{
	struct result r;
	char *html, *md;

	(void)state;
	load(&r, EXAMPLE_4CARD);
	html = render(&r, REPORT_HTML, "zh", "https://wiki.example/mirror/");
	md = render(&r, REPORT_MARKDOWN, "en", NULL);
	assert_non_null(strstr(html, "href=\"https://wiki.example/mirror/blob/"
	                             "master/docs/zh/features/DyEPLB.md\""));
	assert_null(strstr(html, "gitcode.com"));
	assert_non_null(strstr(md, "(https://gitcode.com/Ascend/MindIE-SD/blob/"
	                           "master/docs/en/features/quantization.md)"));
	free(html);
	free(md);
	result_release(&r);
}

static void html_report_is_self_contained(void **state)
{
	struct result r;
	char *html;
	const char *p;

	(void)state;
	load(&r, EXAMPLE_4CARD);
	html = render(&r, REPORT_HTML, "en", NULL);
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "src=\""));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "url("));
	/* every http(s) URL is a MindIE-SD doc link or the SVG namespace */
	for (p = html; (p = strstr(p, "://")); p++) {
		while (p > html && p[-1] >= 'a' && p[-1] <= 'z')
			p--; /* back to the scheme */
		if (!strncmp(p, "https://gitcode.com/Ascend/MindIE-SD/blob/",
		             42) ||
		    !strncmp(p, "http://www.w3.org/2000/svg", 26)) {
			p = strstr(p, "://");
			continue;
		}
		fail_msg("unexpected URL: %.60s", p);
	}
	assert_true(strstr(html, "<svg") != NULL);
	free(html);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(catalogues_have_the_same_keys),
	    cmocka_unit_test(unknown_language_is_a_usage_error),
	    cmocka_unit_test(templates_name_only_catalogued_messages),
	    cmocka_unit_test(every_message_the_reports_use_is_catalogued),
	    cmocka_unit_test(chinese_report_has_no_english_leftovers),
	    cmocka_unit_test(hostile_names_are_text_in_html),
	    cmocka_unit_test(hostile_names_are_text_in_markdown),
	    cmocka_unit_test(doc_links_follow_docs_base_and_language),
	    cmocka_unit_test(html_report_is_self_contained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
