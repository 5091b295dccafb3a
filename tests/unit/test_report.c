/* The templated reports: catalogues complete in both languages, every key
 * the model and the templates use present, no English left in the Chinese
 * report, data from the profile escaped for HTML and Markdown, doc links
 * built from --docs-base and the language. */
#include "unit.h"

#include "analysis/cluster.h"
#include "analysis/rules.h"
#include "app/pipeline.h"
#include "view/i18n.h"
#include "format/fragment.h"
#include "format/json/json.h"
#include "format/report.h"
#include "util/embed.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define EXAMPLE_4CARD                                                          \
	SDPERF_TEST_DATA "/../../examples/video-dit-4card/"                    \
	                 "synth-node_1000_20260101155101760_ascend_pt"
#define SHORT_ROW                                                              \
	SDPERF_TEST_DATA "/samples/msinsight-gpt3-testdata-2023/test_rank_0"
#define HOSTILE SDPERF_TEST_DATA "/hostile"

/* Reads and analyses a profile: the pipeline's own analysis. */
static void load(struct result *r, const char *path)
{
	struct options o;
	struct rules ru;
	struct err e = ERR_INIT;

	memset(&o, 0, sizeof(o));
	o.path = path;
	o.paths = &o.path;
	o.npaths = 1;
	o.jobs = 1;
	o.quiet = 1;
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	if (pipeline_analyse(&o, &ru, r, &e))
		fail_msg("%s", e.msg);
	rules_release(&ru);
}

/* Renders kind in lang; asserts success and no missing catalogue key. */
static char *render(const struct result *r, enum report_kind kind,
                    const char *lang, const char *docs_base)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t missing = 99;
	struct report_opts o = {lang,       NULL,       docs_base, NULL,
	                        1767225600, "0.0-test", &missing,  NULL,
	                        NULL,       NULL};

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
/* 1 if a Chinese message itself holds s: a profiler term quoted verbatim
 * ("Communication(Not Overlapped)"), not an untranslated message */
static int zh_quotes(const struct catalog *zh, const char *s)
{
	size_t i;
	for (i = 0; i < i18n_count(zh); i++)
		if (strstr(i18n_find(zh, i18n_key(zh, i)), s))
			return 1;
	return 0;
}

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
		if (strlen(probe) < 12 || zh_quotes(zh, probe))
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
	const char *p;

	(void)state;
	load(&r, HOSTILE);
	md = render(&r, REPORT_MARKDOWN, "en", NULL);
	/* every < is escaped, so no HTML; no entity either (tests/md renders
	 * this with cmark-gfm) */
	for (p = md; (p = strchr(p, '<')) != NULL; p++)
		assert_true(p > md && p[-1] == '\\');
	assert_null(strstr(md, "&lt;"));
	assert_null(strstr(md, "[x](javascript"));
	assert_non_null(strstr(md, "\\<script>alert(1)\\</script>"));
	/* a | inside a table cell would end the cell */
	assert_non_null(strstr(md, "c&d\\|e"));
	assert_non_null(strstr(md, "\\*bold\\*\\_u_\\`tick\\`"));
	assert_non_null(strstr(md, "\\[x\\](javascript:alert(1))"));
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
	/* the links carry the features' names, not the file names */
	assert_non_null(strstr(html, "features/DyEPLB.md\">动态专家负载均衡（"
	                             "DyEPLB）</a>"));
	assert_non_null(
	    strstr(html, "features/core_layers.md\">核心融合算子</a>"));
	assert_null(strstr(html, "\">core_layers</a>"));
	assert_null(strstr(md, "[cpu_offload]("));
	assert_non_null(strstr(md, "[CPU offload](https://gitcode.com/"));
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

/* Every occurrence of needle in doc is followed by one of the strings in
 * after (NULL-terminated); returns how many there were. */
static size_t all_followed_by(const char *doc, const char *needle,
                              const char *const *after)
{
	const char *p;
	size_t n = 0, k;

	for (p = doc; (p = strstr(p, needle)); n++) {
		p += strlen(needle);
		for (k = 0; after[k]; k++)
			if (!strncmp(p, after[k], strlen(after[k])))
				break;
		if (!after[k])
			fail_msg("'%s' followed by '%.40s'", needle, p);
	}
	return n;
}

/* The wiki fragment: one root element with its scoped style, no page,
 * no script, every id and in-page link prefixed, no relative link. */
static void fragment_is_a_scoped_body_without_script(void **state)
{
	static const char *const prefixed[] = {FRAGMENT_ID_PREFIX, NULL};
	static const char *const links[] = {"#" FRAGMENT_ID_PREFIX, "https://",
	                                    NULL};
	struct result r;
	char *frag, *zh, *html;
	const char *p;

	(void)state;
	load(&r, EXAMPLE_4CARD);
	/* a relative docs base: its links cannot work in a wiki */
	frag = render(&r, REPORT_FRAGMENT, "en", "mirror/");
	zh = render(&r, REPORT_FRAGMENT, "zh", NULL);
	html = render(&r, REPORT_HTML, "en", NULL);
	for (p = frag; *p == '\n'; p++)
		;
	assert_memory_equal(p,
	                    "<div class=\"sdperf-report\" "
	                    "lang=\"en\">\n<style>\n.sdperf-report ",
	                    54);
	assert_string_equal(frag + strlen(frag) - 7, "</div>\n");
	assert_null(strstr(frag, "<!DOCTYPE"));
	assert_null(strstr(frag, "<html"));
	assert_null(strstr(frag, "<head>")); /* <header> is fine */
	assert_null(strstr(frag, "<head "));
	assert_null(strstr(frag, "<body"));
	assert_null(strstr(frag, "<script"));
	assert_null(strstr(frag, "<meta"));
	assert_null(strstr(frag, "@page"));
	assert_true(all_followed_by(frag, " id=\"", prefixed) > 20);
	assert_true(all_followed_by(frag, "href=\"", links) > 10);
	assert_null(strstr(frag, "mirror/"));
	/* the doc names stay, as text */
	assert_non_null(strstr(frag, ">CPU offload</"));
	assert_non_null(strstr(frag, "<svg"));
	assert_non_null(strstr(frag, "class=\"fragment-note\""));
	assert_non_null(strstr(zh, "片段不含脚本"));
	assert_non_null(strstr(zh, "lang=\"zh\""));
	/* the page report keeps its own ids */
	assert_non_null(strstr(html, "<section id=\"verdicts\">"));
	assert_non_null(strstr(frag, "<section id=\"sdperf-verdicts\">"));
	assert_non_null(strstr(frag, "href=\"#sdperf-verdicts\""));
	free(frag);
	free(zh);
	free(html);
	result_release(&r);
}

/* A template of one's own without the fragment mode renders a page: that
 * is an error, not a page named fragment. */
static void fragment_needs_a_template_with_fragment_mode(void **state)
{
	struct result r;
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct report_opts o = {
	    "en",       NULL,
	    NULL,       SDPERF_TEST_DATA "/../../examples/custom-template",
	    1767225600, "0.0-test",
	    NULL,       NULL,
	    NULL,       NULL};

	(void)state;
	load(&r, EXAMPLE_4CARD);
	assert_int_equal(report_render(&r, REPORT_FRAGMENT, &o, &out, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_non_null(strstr(e.msg, "report.html.tmpl: renders a page, not "
	                              "a wiki fragment"));
	/* the same folder gives a page as before */
	strbuf_reset(&out);
	assert_int_equal(report_render(&r, REPORT_HTML, &o, &out, &e), 0);
	strbuf_release(&out);
	result_release(&r);
}

static void fragment_rewrite_prefixes_ids_and_drops_relative_links(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_adds(&sb, "<p>keep id=\"x\"</p>");
	strbuf_adds(
	    &sb,
	    "<a href=\"#a\" id=a2>1</a><a href=\"doc/x.html\">2</a>"
	    "<A HREF='https://e.x/y'>3</A><label for=\"b\">"
	    "<td headers=\"c  d\" aria-labelledby=\"e\">"
	    "<img src=\"data:image/png;base64,AA\"><img alt=\"\" src=\"p.png\">"
	    "<style>#k { a: b } <a id=\"s\"></style><!-- id=\"z\" -->"
	    "<a href=\"mailto:x@y\" title=\"a href=&quot;z&quot;\">"
	    "<rect fill=\"url(#g)\" style=\"fill:URL(#h)\"/>");
	fragment_rewrite(&sb, 3);
	assert_string_equal(
	    sb.buf,
	    "<p>keep id=\"x\"</p>"
	    "<a href=\"#sdperf-a\" id=sdperf-a2>1</a><a>2</a>"
	    "<A HREF='https://e.x/y'>3</A><label for=\"sdperf-b\">"
	    "<td headers=\"sdperf-c  sdperf-d\" aria-labelledby=\"sdperf-e\">"
	    "<img src=\"data:image/png;base64,AA\"><img alt=\"\">"
	    "<style>#k { a: b } <a id=\"s\"></style><!-- id=\"z\" -->"
	    "<a href=\"mailto:x@y\" title=\"a href=&quot;z&quot;\">"
	    "<rect fill=\"url(#sdperf-g)\" style=\"fill:URL(#sdperf-h)\"/>");
	strbuf_release(&sb);
}

/* ---- a hand-built three-rank result ---------------------------------- */

#define MS 1000000LL /* ns */

static void set_rank_stages(struct rank_result *rr, int64_t fa, int64_t mm,
                            int64_t vec, int64_t comm, int64_t exposed,
                            int64_t vae)
{
	rr->analysed = 1;
	rr->kernels = 1000;
	rr->stage[STAGE_DIT].cat_ns[CAT_FA] = fa;
	rr->stage[STAGE_DIT].cat_ns[CAT_MATMUL] = mm;
	rr->stage[STAGE_DIT].cat_ns[CAT_VECTOR] = vec;
	rr->stage[STAGE_DIT].cat_ns[CAT_COMM] = comm;
	rr->stage[STAGE_DIT].comm_ns = comm;
	rr->stage[STAGE_DIT].kernel_ns = fa + mm + vec + comm;
	rr->stage[STAGE_DIT].wall_ns = 1200 * MS;
	rr->stage[STAGE_DIT].exposed_comm_ns = exposed;
	rr->stage[STAGE_VAE].kernel_ns = vae;
	rr->stage[STAGE_VAE].wall_ns = vae;
	rr->compute_ns = fa + mm + vec;
	rr->free_share_ppm = -1;
	rr->stage_source = "signatures";
	rr->id_source = "profiler_info";
}

static void set_files(struct rank_result *rr, const char *dir, int trace,
                      int steps, int comm)
{
	rr->dir = xstrdup(dir);
	rr->files[RF_KERNELS] = xstrfmt("%s/kernel_details.csv", dir);
	rr->files[RF_INFO] = xstrfmt("%s/profiler_info.json", dir);
	if (trace)
		rr->files[RF_TRACE] = xstrfmt("%s/trace_view.json.gz", dir);
	if (steps)
		rr->files[RF_STEPS] = xstrfmt("%s/step_trace_time.csv", dir);
	if (comm)
		rr->files[RF_COMM] = xstrfmt("%s/communication.json", dir);
}

/* step, computing, comm, not overlapped, free (ms); flag */
static void add_step(struct rank_result *rr, int32_t step, int64_t comp,
                     int64_t comm, int64_t notov, int64_t free_ms, int flag)
{
	struct step_stat *s;

	rr->steps = xrealloc(rr->steps, (rr->nsteps + 1) * sizeof(*s));
	s = &rr->steps[rr->nsteps++];
	memset(s, 0, sizeof(*s));
	s->step = step;
	s->computing_ns = comp * MS;
	s->comm_ns = comm * MS;
	s->not_overlapped_ns = notov * MS;
	s->free_ns = free_ms * MS;
	s->stage_ns = (comp + notov + free_ms) * MS;
	s->preparing_ns = -1;
	s->outlier = flag;
}

static void set_comm(struct rank_result *rr, int64_t elapse, int64_t transit,
                     int64_t wait, int64_t link_ms)
{
	struct coll_stat *k = &rr->comm.kind[2]; /* all_to_all */

	rr->comm_read = 1;
	rr->comm.nsteps = 1;
	rr->comm.ops = 10;
	k->count = 10;
	k->elapse_ns = elapse * MS;
	k->transit_ns = transit * MS;
	k->wait_ns = wait * MS;
	k->sync_ns = 5 * MS;
	rr->comm.wait_ns = wait * MS;
	rr->comm.link[0].ops = 10; /* HCCS */
	rr->comm.link[0].size_mb = 1000.0;
	rr->comm.link[0].time_ns = link_ms * MS;
}

static void add_verdict(struct result *r, const char *id, enum stage st,
                        double value, int rank, const char *how)
{
	struct verdict *v;

	r->verdicts =
	    xrealloc(r->verdicts, (r->nverdicts + 1) * sizeof(*r->verdicts));
	v = &r->verdicts[r->nverdicts++];
	memset(v, 0, sizeof(*v));
	v->id = xstrdup(id);
	v->title = xstrdup(id);
	v->metric = xstrdup(id);
	v->recommendation = xstrdup(id);
	v->stage = st;
	v->rank = rank;
	v->how = how ? xstrdup(how) : NULL;
	v->applicable = 1;
	v->value = value;
	v->threshold = 10;
	v->fired = value > 10;
}

static void warn3(struct result *r, const char *code, const char *a,
                  const char *b, const char *c)
{
	struct warning *w = result_warn(r, code, NULL, 0, code);
	w->args[0] = xstrdup(a);
	w->args[1] = xstrdup(b);
	w->args[2] = c ? xstrdup(c) : NULL;
}

/* Three ranks: rank 0 with every file (steps with a warm-up, Overlap
 * Analysis, a user marker, communication.json), rank 1 without
 * trace_view.json, step_trace_time.csv and communication.json, rank 2 a
 * straggler. Numbers are chosen so the expected percentages are exact;
 * each expected value in the tests was computed by hand/python. */
static void three_ranks(struct result *r)
{
	struct rank_result *rr;
	struct stage_marker *m;
	int s;

	result_init(r);
	r->profile_path = xstrdup("run");
	r->rules_source = xstrdup("built-in");
	r->kernels = 3000;
	r->threads = 3;
	r->ranks = xcalloc(3, sizeof(*r->ranks));
	r->nranks = 3;
	r->lead = 0;
	rr = &r->ranks[0];
	rr->id = 0;
	set_rank_stages(rr, 250 * MS, 500 * MS, 100 * MS, 150 * MS, 60 * MS,
	                400 * MS);
	set_files(rr, "node<0>&", 1, 1, 1);
	add_step(rr, 1, 900, 100, 80, 420, 1);
	add_step(rr, 2, 600, 100, 50, 50, 0);
	add_step(rr, 3, 610, 100, 40, 50, 0);
	rr->free_share_ppm = 71429;
	set_comm(rr, 50, 30, 15, 40);
	rr->trace_read = rr->overlap_found = 1;
	rr->ov_stage[STAGE_DIT][OV_NOT_OVERLAPPED] = 72 * MS;
	rr->ov_total[OV_COMPUTING] = 2000 * MS;
	rr->ov_total[OV_FREE] = 33 * MS;
	rr->stage_source = "markers_flows";
	rr->markers = xcalloc(1, sizeof(*rr->markers));
	rr->nmarkers = 1;
	m = rr->markers;
	m->name = xstrdup("vae<img src=x>");
	m->stage = STAGE_VAE;
	m->host_start_ns = 10 * MS;
	m->host_end_ns = 20 * MS;
	m->dev_start_ns = 15 * MS;
	m->dev_end_ns = 40 * MS;
	m->by_flows = 1;
	m->flows = 12;
	m->kernels = 34;
	rr = &r->ranks[1];
	rr->id = 1;
	set_rank_stages(rr, 260 * MS, 510 * MS, 90 * MS, 150 * MS, 84 * MS,
	                410 * MS);
	set_files(rr, "node1", 0, 0, 0);
	free(rr->files[RF_KERNELS]);
	rr->files[RF_KERNELS] = xstrdup("node1/kernel_details.csv.gz");
	rr = &r->ranks[2];
	rr->id = 2;
	set_rank_stages(rr, 330 * MS, 650 * MS, 120 * MS, 200 * MS, 30 * MS,
	                420 * MS);
	set_files(rr, "node2", 1, 1, 1);
	add_step(rr, 1, 600, 100, 50, 0, 0);
	rr->free_share_ppm = 0;
	set_comm(rr, 60, 30, 25, 60);
	for (s = 0; s < STAGE_COUNT; s++) {
		size_t i;
		for (i = 0; i < 3; i++) {
			int k;
			r->stages[s].kernel_ns +=
			    r->ranks[i].stage[s].kernel_ns;
			r->stages[s].wall_ns += r->ranks[i].stage[s].wall_ns;
			for (k = 0; k < CAT_COUNT; k++)
				r->stages[s].cat[k].time_ns +=
				    r->ranks[i].stage[s].cat_ns[k];
		}
		r->stages[s].kernels = r->stages[s].kernel_ns ? 1000 : 0;
	}
	add_verdict(r, "host_bound", STAGE_ALL, 7.143, 0, "worst");
	add_verdict(r, "rank_imbalance", STAGE_DIT, 27.907, 2, "slowest");
	warn3(r, "missing_file", "1", "trace_view.json", "overlap");
	warn3(r, "warmup_step", "0", "1", "2.0");
	warn3(r, "overlap_mismatch", "0", "dit", "5.0%");
	cluster_summarise(r); /* as cluster_merge leaves it */
}

static void expect(const char *doc, const char *what, const char *needle)
{
	if (!strstr(doc, needle) && getenv("SDPERF_TEST_DUMP"))
		fputs(doc, stderr);
	if (!strstr(doc, needle))
		fail_msg("%s lacks %s: '%s'", what, needle, needle);
}

static size_t count_of(const char *doc, const char *needle)
{
	size_t n = 0;

	while ((doc = strstr(doc, needle))) {
		n++;
		doc += strlen(needle);
	}
	return n;
}

/* Where needle is in doc (it must be). */
static const char *at(const char *doc, const char *needle)
{
	const char *p = strstr(doc, needle);

	if (!p)
		fail_msg("lacks '%s'", needle);
	return p;
}

/* Ranks 0 and 2 of three_ranks() have steps, rank 1 has none: the summary
 * first, then one collapsible table per rank with steps, the lead's (0)
 * open. Rank 2's one step: 600 ms computing, 100 ms communication, 50 ms
 * not overlapped, no free time, so 650 ms in all and a 0.0% free share. */
static void steps_per_rank_in_html(const char *html)
{
	const char *sum, *r0, *r2;

	assert_int_equal(count_of(html, "<table class=\"steps sortable\">"), 2);
	assert_int_equal(count_of(html, "<details class=\"step-rank\""), 2);
	sum = at(html, "<table class=\"step-ranks sortable\">");
	r0 = at(html, "<details class=\"step-rank\" id=\"steps-rank-0\" open>\n"
	              "    <summary><h3>Rank 0</h3></summary>");
	r2 = at(html, "<details class=\"step-rank\" id=\"steps-rank-2\">\n"
	              "    <summary><h3>Rank 2</h3></summary>");
	assert_true(sum < r0 && r0 < r2);
	assert_null(strstr(html, "steps-rank-1"));
	assert_true(at(html, "<tr class=\"warmup\"><td>1</td>") > r0);
	assert_true(at(r2, "<tr><td>1</td><td class=\"num\" "
	                   "data-v=\"600000000\">600.00 ms</td>"
	                   "<td class=\"num\" data-v=\"100000000\">100.00 ms"
	                   "</td><td class=\"num\" data-v=\"50000000\">50.00 ms"
	                   "</td><td class=\"num\" data-v=\"0\">0</td>"
	                   "<td class=\"num\" data-v=\"650000000\">650.00 ms"
	                   "</td><td></td></tr>") != NULL);
	expect(r2, "rank 2 steps", "regular steps: 0.0%");
	/* each sub-section has its own chart */
	assert_true(at(r0, "<figure class=\"chart\"><svg") < r2);
	assert_true(at(r2, "<figure class=\"chart\"><svg") <
	            at(r2, "</details>"));
}

static void multi_rank_html_shows_every_rank(void **state)
{
	struct result r;
	char *html;

	(void)state;
	three_ranks(&r);
	html = render(&r, REPORT_HTML, "en", NULL);
	expect(html, "html", "Ranks analysed</dt><dd>3</dd>");
	/* the timeline strip says whose it is, inside the chart */
	expect(html, "html",
	       "<text class=\"strip-label\" x=\"0\" y=\"14\">Rank 0 (lead "
	       "card)</text>");
	/* how sdperf ran (its worker threads) is no customer's concern */
	assert_null(strstr(html, "Worker threads"));
	assert_null(strstr(html, "worker threads"));
	/* one Method heading, no second toggle */
	assert_null(strstr(html, "<summary>Method</summary>"));
	expect(html, "html", "<section id=\"ranks\">");
	/* slowest: rank 2 (1100 ms compute), median: rank 1 (860 ms) */
	expect(html, "html", "<tr class=\"slowest\"><td data-v=\"2\">2</td>");
	expect(html, "html", "Slowest rank: 2; median rank: 1.");
	/* FA 330/1300, MatMul 650/1300, Vector 90/1010, exposed 84/1200 */
	expect(html, "html", "data-v=\"25.385\">25.4%");
	expect(html, "html", "data-v=\"50.000\">50.0%");
	expect(html, "html", "data-v=\"8.911\">8.9%");
	expect(html, "html", "data-v=\"7.000\">7.0%");
	expect(html, "html", "<td class=\"num\">–</td>"); /* rank 1: no wait */
	/* collectives over ranks 0 and 2: wait 40 / (40 + 60) ms; HCCS
	 * 2000 MB in 100 ms */
	expect(html, "html", "data-v=\"40.000\">40.0%");
	expect(html, "html",
	       "<td>HCCS</td><td class=\"num\">20</td>"
	       "<td class=\"num\">2,000.0</td>"
	       "<td class=\"num\">100.00 ms</td>"
	       "<td class=\"num\">20.00</td>");
	/* steps of rank 0: a warm-up, free share 100 / 1400 ms */
	expect(html, "html", "<tr class=\"warmup\"><td>1</td>");
	expect(html, "html", "regular steps: 7.1%");
	steps_per_rank_in_html(html);
	/* Overlap Analysis 72 / 1200 ms next to kernel intervals 60 / 1200 */
	expect(html, "html",
	       "<td class=\"num\">5.0%</td><td class=\"num\">6.0%");
	expect(html, "html", "user markers through flows");
	expect(html, "html", "<code>vae&lt;img src=x&gt;</code>");
	expect(html, "html", "0 &ndash; 10.00 ms");
	expect(html, "html", "5.00 ms &ndash; 30.00 ms");
	assert_null(strstr(html, "<img"));
	expect(html, "html", "<code>node&lt;0&gt;&amp;</code>");
	expect(html, "html", "<code>kernel_details.csv</code> found (.gz)");
	expect(html, "html", "Rank 1: no trace_view.json");
	expect(html, "html", "Rank 1: no communication.json");
	expect(html, "html", "Rank 1: no step_trace_time.csv");
	expect(html, "html", "worst: rank 0");
	expect(html, "html", "slowest rank 2 vs median");
	expect(html, "html", "Rank 0, DiT (transformer): exposed");
	expect(html, "html", "Rank 1: trace_view.json was not found");
	free(html);
	html = render(&r, REPORT_HTML, "zh", NULL);
	expect(html, "zh html", "最差：卡 0");
	expect(html, "zh html", "卡 1：缺少 trace_view.json");
	free(html);
	result_release(&r);
}

static void multi_rank_markdown_and_json(void **state)
{
	struct result r;
	struct strbuf json = STRBUF_INIT;
	char *md;

	(void)state;
	three_ranks(&r);
	md = render(&r, REPORT_MARKDOWN, "en", NULL);
	expect(md, "md",
	       "| 2 | 1.300 s | 420.00 ms | 25.4% | 50.0% | 9.2% | "
	       "15.4% | 2.5% | 25.00 ms | 1.100 s | **slowest** |");
	expect(md, "md",
	       "| 1 | 1.010 s | 410.00 ms | 25.7% | 50.5% | 8.9% | "
	       "14.9% | 7.0% | – | 0.860 s | median |");
	expect(md, "md",
	       "| AllToAll | 20 | 110.00 ms | 60.00 ms | 40.00 ms "
	       "| 40.0% | 10.00 ms |");
	expect(md, "md",
	       "| 1 | 900.00 ms | 100.00 ms | 80.00 ms | 420.00 ms "
	       "| 1.400 s | warm-up |");
	/* the summary, then rank 0's steps, then rank 2's; none of rank 1 */
	assert_true(at(md, "### Steps per rank") < at(md, "### Rank 0\n"));
	assert_true(at(md, "| 1 | 900.00 ms |") < at(md, "### Rank 2\n"));
	assert_true(at(md, "### Rank 2\n") <
	            at(md, "| 1 | 600.00 ms | 100.00 ms | 50.00 ms | 0 "
	                   "| 650.00 ms |  |"));
	assert_null(strstr(md, "### Rank 1"));
	assert_int_equal(count_of(md, "| Step | Computing |"), 2);
	expect(md, "md", "vae\\<img src=x>");
	free(md);
	/* the PDF lays out every new section in both languages */
	md = render(&r, REPORT_PDF, "en", NULL);
	assert_memory_equal(md, "%PDF-", 5);
	free(md);
	md = render(&r, REPORT_PDF, "zh", NULL);
	assert_memory_equal(md, "%PDF-", 5);
	free(md);
	{
		struct err je = ERR_INIT;
		assert_int_equal(render_json(&r, "0.0-test", &json, &je), 0);
	}
	expect(json.buf, "json", "\"lead_rank\":\t0");
	expect(json.buf, "json", "\"dit_compute_us\":\t1100000.000");
	expect(json.buf, "json", "\"free_share_pct\":\t7.143");
	expect(json.buf, "json", "\"bandwidth_gbps\":\t25.000"); /* 1000/40 */
	expect(json.buf, "json", "\"trace_view.json\":\tnull");
	expect(json.buf, "json", "\"flag\":\t\"warmup\"");
	expect(json.buf, "json", "\"name\":\t\"vae<img src=x>\"");
	expect(json.buf, "json", "\"rank\":\t2,\n\t\t\t\"how\":\t\"slowest\"");
	/* the summary over the ranks: ranks 0 and 2 have communication */
	expect(json.buf, "json",
	       "\"cluster\":\t{\n\t\t\"slowest_rank\":\t2,\n"
	       "\t\t\"median_rank\":\t1,\n\t\t\"communication\":\t{\n"
	       "\t\t\t\"ranks\":\t2,\n\t\t\t\"ops\":\t20,\n"
	       "\t\t\t\"wait_us\":\t40000.000,");
	expect(json.buf, "json", "\"bandwidth_gbps\":\t20.000"); /* 2000/100 */
	strbuf_release(&json);
	result_release(&r);
}

static void single_rank_has_no_ranks_section(void **state)
{
	struct result r;
	char *html, *md;

	(void)state;
	three_ranks(&r);
	rank_result_release(&r.ranks[1]);
	rank_result_release(&r.ranks[2]);
	r.nranks = 1;
	cluster_summarise(&r);
	html = render(&r, REPORT_HTML, "en", NULL);
	md = render(&r, REPORT_MARKDOWN, "zh", NULL);
	assert_null(strstr(html, "id=\"ranks\""));
	assert_null(strstr(html, "Worker threads"));
	expect(html, "html", "Ranks analysed</dt><dd>1</dd>");
	assert_null(strstr(md, "## 各卡对比"));
	expect(md, "md", "## 步骤");
	/* one rank: its heading, no summary, nothing to collapse */
	expect(md, "md", "### 卡 0\n");
	assert_null(strstr(md, "### 各卡步骤汇总"));
	expect(html, "html",
	       "<div class=\"step-rank\" id=\"steps-rank-0\">\n"
	       "    <h3>Rank 0</h3>\n    <div class=\"table-scroll\">"
	       "<table class=\"steps sortable\">");
	assert_null(strstr(html, "<details class=\"step-rank\""));
	assert_null(strstr(html, "step-ranks"));
	/* without step_trace_time.csv: a one-line note, no table */
	free(r.ranks[0].files[RF_STEPS]);
	r.ranks[0].files[RF_STEPS] = NULL;
	free(r.ranks[0].steps);
	r.ranks[0].steps = NULL;
	r.ranks[0].nsteps = 0;
	free(html);
	html = render(&r, REPORT_HTML, "en", NULL);
	expect(html, "html", "No step_trace_time.csv was found");
	assert_null(strstr(html, "table class=\"steps"));
	free(html);
	free(md);
	result_release(&r);
}

/* The lead rank's steps are the ones open on screen; when the lead has
 * none, the first rank with steps is. */
static void steps_open_for_the_lead_rank(void **state)
{
	struct result r;
	char *html;

	(void)state;
	three_ranks(&r);
	r.lead = 2;
	html = render(&r, REPORT_HTML, "zh", NULL);
	expect(html, "html",
	       "<details class=\"step-rank\" id=\"steps-rank-0\">\n"
	       "    <summary><h3>卡 0</h3></summary>");
	expect(html, "html",
	       "<details class=\"step-rank\" id=\"steps-rank-2\" open>\n"
	       "    <summary><h3>卡 2</h3></summary>");
	/* only the step sub-sections end their tag with an id and "open" */
	assert_int_equal(count_of(html, "\" open>"), 1);
	free(html);
	r.lead = 1;
	html = render(&r, REPORT_HTML, "en", NULL);
	expect(html, "html", "id=\"steps-rank-0\" open>");
	expect(html, "html", "id=\"steps-rank-2\">");
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
	    cmocka_unit_test(fragment_is_a_scoped_body_without_script),
	    cmocka_unit_test(fragment_needs_a_template_with_fragment_mode),
	    cmocka_unit_test(
	        fragment_rewrite_prefixes_ids_and_drops_relative_links),
	    cmocka_unit_test(multi_rank_html_shows_every_rank),
	    cmocka_unit_test(multi_rank_markdown_and_json),
	    cmocka_unit_test(single_rank_has_no_ranks_section),
	    cmocka_unit_test(steps_open_for_the_lead_rank),
	};
	/* a template variable the view model does not define fails the
	 * render (format/report.h) */
	setenv(REPORT_MISSES_ENV, "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
