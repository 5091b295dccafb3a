/* The executive summary (issue 13 §1) and the compact passing checks
 * (§6) in every format: the numbers of examples/image-dit-1card through the
 * real pipeline, then hand-made verdicts and collections for the choices
 * (the top action, the trust line, no findings). */
#include "unit.h"

#include "analysis/rules.h"
#include "analysis/summary.h"
#include "app/pipeline.h"
#include "format/json/json.h"
#include "format/report.h"
#include "format/text/text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define EXAMPLE                                                                \
	SDPERF_TEST_DATA "/../../examples/image-dit-1card/"                    \
	                 "synth-node_1000_20260512095011733_ascend_pt"

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

static char *render(const struct result *r, enum report_kind kind,
                    const char *lang)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t missing = 99;
	struct report_opts o = {lang,       NULL,     NULL, NULL, 1767225600,
	                        "0.0-test", &missing, NULL, NULL, NULL};

	if (report_render(r, kind, &o, &out, &e))
		fail_msg("render failed: %s", e.msg);
	if (missing)
		fail_msg("%zu catalogue lookups found no message", missing);
	return strbuf_detach(&out, NULL);
}

static char *text(const struct result *r, int json)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (json)
		assert_int_equal(render_json(r, "0.0-test", &out, &e), 0);
	else
		render_text(r, "0.0-test", &out);
	return strbuf_detach(&out, NULL);
}

static const char *at(const char *doc, const char *needle)
{
	const char *p = strstr(doc, needle);

	if (!p)
		fail_msg("lacks '%s'", needle);
	return p;
}

static size_t count_of(const char *doc, const char *needle)
{
	size_t n = 0;

	for (doc = strstr(doc, needle); doc; doc = strstr(doc + 1, needle))
		n++;
	return n;
}

/* examples/image-dit-1card: the lead rank spans 308.41 ms over 2 steps
 * (154.20 ms each); its stages' wall times are DiT 143.91 ms, VAE
 * 118.92 ms and text encoder 40.90 ms (47.4%, 39.2%, 13.5% of their sum);
 * fa_quant_sparse (42.0% > 30%), vae_parallel (39.2% > 30%) and
 * text_encoder (13.5% > 10%) fire; Level1, 2 timed steps after the
 * schedule's 3 warm-up, 2 warnings: fair. The largest expected gain is
 * vae_parallel's: its 59.46 ms a step at 1.5-2x saves 19.82-29.73 ms of
 * 154.20 ms (12.9-19.3%), so it is the top action; fa_quant_sparse's
 * 29.91 ms of attention at 2-4x saves 14.96-22.43 ms (9.7-14.5%). */
static void example_summary_in_every_format(void **state)
{
	struct result r;
	char *html, *md, *txt, *json, *zh;

	(void)state;
	result_init(&r);
	load(&r, EXAMPLE);
	assert_int_equal(summary_findings(&r), 3);
	assert_string_equal(r.verdicts[summary_top(&r)].id, "vae_parallel");
	/* the findings by expected gain */
	assert_string_equal(r.verdicts[0].id, "vae_parallel");
	assert_string_equal(r.verdicts[1].id, "fa_quant_sparse");
	assert_string_equal(r.verdicts[2].id, "text_encoder");
	assert_int_equal(summary_trust(&r), TRUST_FAIR);
	html = render(&r, REPORT_HTML, "en");
	/* the summary comes before the verdicts and the meta table */
	assert_true(at(html, "id=\"summary\"") < at(html, "class=\"meta\""));
	at(html, "<strong class=\"sum-big\">154.20 ms</strong> per profiler "
	         "step <span class=\"small\">(2 steps, 308.41 ms in all; 2 "
	         "pipeline calls, 154.20 ms each)");
	at(html, "<strong class=\"sum-big\">3 findings</strong>");
	at(html, "aria-label=\"DiT 47.4% · VAE 39.2% · Text encoder 13.5%\"");
	at(html, "<span class=\"seg s-dit\" style=\"width:47.38%\"");
	at(html, "<span class=\"sum-k\">Stage split, per profiler "
	         "step</span>");
	at(html, "<span class=\"dot s-dit\"></span>DiT 71.96 ms · "
	         "<strong>47.4%</strong>");
	at(html,
	   "<a href=\"#verdict-vae_parallel\">The VAE is a large share "
	   "of end to end</a> <span class=\"small\">(39.2% &gt; "
	   "30.0%)</span> · Estimated gain: <strong class=\"sum-gain\">end "
	   "to end 154.2 ms → 124.5–134.4 ms per step "
	   "(−12.9–19.3%)</strong>");
	/* each fired card has its gain, assumption and source; the cards
	 * come by gain */
	at(html, "<p class=\"gain gain-estimate\"><strong>Estimated "
	         "gain:</strong> VAE 59.5 ms → 29.7–39.6 ms; end to end 154.2 "
	         "ms → 124.5–134.4 ms per step (−12.9–19.3%); assuming the VAE "
	         "runs 1.5–2× faster");
	at(html,
	   "<strong>Estimated gain:</strong> DiT 72.0 ms → 49.5–57.0 "
	   "ms; end to end 154.2 ms → 131.8–139.2 ms per step (−9.7–14.5%); "
	   "assuming the DiT&#39;s attention runs 2–4× faster");
	at(html, "<span class=\"small\">(source: MindIE-SD sparse doc "
	         "(RainFusion2.0, arXiv 2512.24086)");
	assert_true(at(html, "id=\"verdict-vae_parallel\">") <
	            at(html, "id=\"verdict-fa_quant_sparse\">"));
	assert_true(at(html, "id=\"verdict-fa_quant_sparse\">") <
	            at(html, "id=\"verdict-text_encoder\">"));
	at(html,
	   "<strong>fair</strong> — <a href=\"#warnings\">Level1, 2 "
	   "timed steps after 3 warm-up, 2 warnings; the profiler&#39;s own "
	   "totals agree with the kernels</a>");
	/* the warning that undermines the figures, beside the trust line
	 * (issue 14); the other one (a missing file) only in Warnings */
	assert_true(at(html, "class=\"sum-trust") <
	            at(html, "<p class=\"sum-warn\" role=\"note\">Only 2 "
	                     "profiler steps were found"));
	assert_true(at(html, "<p class=\"sum-warn\"") <
	            at(html, "id=\"verdicts\""));
	assert_int_equal(count_of(html, "class=\"sum-warn\""), 1);
	md = render(&r, REPORT_MARKDOWN, "en");
	assert_true(at(md, "## Summary") < at(md, "## Verdicts"));
	at(md, "- **End-to-end device time:** **154.20 ms** per profiler "
	       "step (2 steps, 308.41 ms in all; 2 pipeline calls, 154.20 "
	       "ms each)\n");
	/* the stage split per step, as the headline (143.91 ms of DiT over
	 * 2 steps), and it says so */
	at(md, "- **Stage split, per profiler step:** DiT 71.96 ms 47.4% · VAE "
	       "59.46 ms 39.2% · Text encoder 20.45 ms 13.5%\n");
	at(md, "- **Findings:** 3 findings\n");
	at(md, "- **Do first:** The VAE is a large share of end to end (39.2% "
	       "> 30.0%) · Estimated gain: **end to end 154.2 ms → "
	       "124.5–134.4 ms per step (−12.9–19.3%)**\n");
	at(md, "- **Estimated gain:** VAE 59.5 ms → 29.7–39.6 ms; end to end "
	       "154.2 ms → 124.5–134.4 ms per step (−12.9–19.3%); "
	       "assuming the VAE runs 1.5–2× faster");
	at(md, "(source: sdperf assumption: MindIE-SD's parallelism doc");
	txt = text(&r, 0);
	assert_true(at(txt, "summary:\n") < at(txt, "stage           kernels"));
	/* what the profile is, first: a whole pipeline, its loop's evidence */
	assert_true(at(txt, "summary:\n  workload     diffusion inference: "
	                    "denoising loop: ") < at(txt, "  end to end"));
	at(txt, "  end to end   154.20 ms per profiler step (2 steps, 308.41 "
	        "ms in all; 2 pipeline calls, 154.20 ms each)\n");
	at(txt, "  stage split  per step: DiT 71.96 ms 47.4%, VAE 59.46 ms "
	        "39.2%, text encoder 20.45 ms 13.5%\n");
	at(txt, "  do first     vae_parallel: The VAE is a large share of end "
	        "to end (39.2% > 30.0%)\n               estimated gain: end to "
	        "end 154.2 ms -> 124.5-134.4 ms per step (-12.9-19.3%)\n");
	at(txt,
	   "         estimated gain: DiT 72.0 ms -> 49.5-57.0 ms; end to "
	   "end 154.2 ms -> 131.8-139.2 ms per step (-9.7-14.5%); assuming "
	   "the DiT's attention runs 2–4× faster");
	assert_true(at(txt, "[FIRE] vae_parallel") <
	            at(txt, "[FIRE] fa_quant_sparse"));
	at(txt, "  trust        fair - Level1, 2 timed steps after 3 warm-up, "
	        "2 warnings; the profiler's own totals agree with the "
	        "kernels\n");
	json = text(&r, 1);
	at(json,
	   "\"summary\":\t{\n\t\t\"workload\":\t\"diffusion_inference\",\n"
	   "\t\t\"stage_split\":\ttrue,\n\t\t\"e2e_known\":\ttrue,\n\t\t"
	   "\"e2e_per\":\t"
	   "\"profiler_step\",\n\t\t\"e2e_time_us\":\t154203.684,\n\t\t\"span_"
	   "us\":\t308407.369,");
	at(json, "\"findings\":\t3,\n\t\t\"top_verdict\":\t\"vae_parallel\","
	         "\n\t\t\"top_gain\":\t{\n\t\t\t\"estimated\":\ttrue,");
	at(json, "\"speedup_low\":\t1.500,\n\t\t\t\"speedup_high\":\t2.000,"
	         "\n\t\t\t\"part_us\":\t59460.209,\n\t\t\t\"stage_before_"
	         "us\":\t59460.209,\n\t\t\t\"stage_after_low_us\":\t39640.139,"
	         "\n\t\t\t\"stage_after_high_us\":\t29730.104,\n\t\t\t\"e2e_"
	         "before_us\":\t154203.684,\n\t\t\t\"e2e_after_low_us\":\t"
	         "134383.614,\n\t\t\t\"e2e_after_high_us\":\t124473.579,\n\t\t"
	         "\t\"saving_low_pct\":\t12.853,\n\t\t\t\"saving_high_pct\":\t"
	         "19.280,");
	at(json, "\"order\":\t[\"vae_parallel\", \"fa_quant_sparse\", "
	         "\"text_encoder\"]");
	at(json, "\"order\":\t1,\n\t\t\t\"gain\":\t{");
	at(json, "\"time_us\":\t143913.186,\n\t\t\t\t\"per_step_us\":\t"
	         "71956.593,\n\t\t\t\t\"share_pct\":\t47.382");
	zh = render(&r, REPORT_HTML, "zh");
	at(zh, "<span class=\"sum-k\">阶段占比（每个采集步骤）</span>");
	at(zh, "<strong class=\"sum-big\">3 项发现</strong>");
	at(zh,
	   "<strong>中</strong> — <a href=\"#warnings\">Level1，3 个预热步之后 "
	   "2 个计时步，2 条警告；与性能工具自身的汇总一致</a>");
	at(zh, "预计收益（估算）：<strong class=\"sum-gain\">端到端每步 154.2 "
	       "ms → 124.5–134.4 ms（减少 12.9–19.3%）</strong>");
	at(zh,
	   "<strong>预计收益（估算）：</strong>VAE 59.5 ms → 29.7–39.6 "
	   "ms；端到端每步 154.2 ms → 124.5–134.4 ms（减少 12.9–19.3%）；前提："
	   "VAE 解码切分到两张或更多卡上并行后快 1.5–2 倍");
	free(html);
	free(md);
	free(txt);
	free(json);
	free(zh);
	result_release(&r);
}

/* A fired finding is a card with its claim; a passing one is one closed
 * line by its neutral check name that opens to the recommendation, in
 * HTML, Markdown and the terminal; the claim of a passing check appears
 * nowhere. */
static void passing_checks_are_one_line(void **state)
{
	struct result r;
	char *html, *md, *txt;
	const char *line;

	(void)state;
	result_init(&r);
	load(&r, EXAMPLE);
	html = render(&r, REPORT_HTML, "en");
	at(html, "<article class=\"verdict-card fired\" "
	         "id=\"verdict-fa_quant_sparse\">");
	assert_null(strstr(html, "verdict-card ok"));
	line = at(html, "<li class=\"check ok\" id=\"verdict-comm_overlap\">"
	                "<details><summary><span class=\"badge\">Within "
	                "threshold</span> <span class=\"check-name\">Exposed "
	                "communication in the DiT</span> <span "
	                "class=\"value\">0%</span> <span class=\"vs\">&le; "
	                "30.0%</span></summary>");
	assert_true(at(html, "<p class=\"rec\"><strong>If it fires:</strong> "
	                     "Overlap communication") > line);
	assert_null(strstr(html, "Communication is exposed in the DiT"));
	/* the fired card comes before the passing checks */
	assert_true(at(html, "id=\"verdict-fa_quant_sparse\"") < line);
	md = render(&r, REPORT_MARKDOWN, "en");
	at(md, "- ✓ **Exposed communication in the DiT**: 0% ≤ 30.0% "
	       "(Within threshold)\n  - If it fires: Overlap communication");
	at(md, "### ⚠ Attention dominates the DiT (Action recommended)");
	assert_null(strstr(md, "Communication is exposed in the DiT"));
	txt = text(&r, 0);
	assert_true(at(txt, "[FIRE] fa_quant_sparse") <
	            at(txt, "[ ok ] matmul_quant"));
	/* zero and the threshold as the other formats write them */
	at(txt, "[ ok ] comm_overlap         0% <= 30.0%  Exposed "
	        "communication in the DiT\n");
	at(txt, "[FIRE] fa_quant_sparse   42.0% >  30.0%  Attention "
	        "dominates the DiT\n");
	assert_null(strstr(txt, "Communication is exposed in the DiT"));
	free(html);
	free(md);
	free(txt);
	result_release(&r);
}

/* The choices on hand-made results: the fired verdict with the largest
 * expected gain is the top action; none fired: "no findings" and nothing to do;
 * the trust levels from the collection's gaps and the warnings. */
static void top_action_and_trust(void **state)
{
	struct result r;
	char *html, *txt;
	size_t i;

	(void)state;
	result_init(&r);
	load(&r, EXAMPLE);
	for (i = 0; i < r.nverdicts; i++)
		r.verdicts[i].fired = 0;
	assert_int_equal(summary_top(&r), -1);
	html = render(&r, REPORT_HTML, "en");
	at(html, "<strong class=\"sum-big\">no findings</strong>");
	at(html, "Nothing to fix: every check is within its threshold.");
	assert_null(strstr(html, "class=\"verdict-card"));
	free(html);
	/* two fired: the larger expected gain (vae_parallel's, at 0) is
	 * the top action, wherever it is */
	r.verdicts[0].fired = r.verdicts[1].fired = 1;
	assert_string_equal(r.verdicts[0].id, "vae_parallel");
	assert_int_equal(summary_top(&r), 0);
	assert_int_equal(summary_findings(&r), 2);
	txt = text(&r, 0);
	at(txt, "  findings     2 findings\n  do first     vae_parallel: ");
	free(txt);
	r.verdicts[1].gain->saving_high_pct = 30;
	assert_int_equal(summary_top(&r), 1);
	txt = text(&r, 0);
	at(txt, "  findings     2 findings\n  do first     fa_quant_sparse: ");
	free(txt);
	/* good: Level1, 5 timed steps after 2 warm-up, no warning */
	r.collection.sum.gaps = 0;
	r.collection.sum.steps = r.collection.sum.timed = 5;
	r.collection.sum.warmup_in = 0;
	r.collection.sum.warmup_before = 2;
	for (i = 0; i < r.nwarnings; i++) {
		free(r.warnings[i].code);
		free(r.warnings[i].file);
		free(r.warnings[i].message);
		free(r.warnings[i].reason);
		for (int k = 0; k < WARNING_ARGS; k++)
			free(r.warnings[i].args[k]);
	}
	r.nwarnings = 0;
	assert_int_equal(summary_trust(&r), TRUST_GOOD);
	html = render(&r, REPORT_HTML, "en");
	at(html, "<p class=\"sum-trust trust-good\"><span class=\"sum-k\">"
	         "Trust</span> <strong>good</strong> — <a href=\"#warnings\">"
	         "Level1, 5 timed steps after 2 warm-up, 0 warnings; the "
	         "profiler&#39;s own totals agree with the kernels</a></p>");
	assert_null(strstr(html, "class=\"sum-warn\""));
	free(html);
	/* low: Level0 */
	r.collection.sum.level = LEVEL_0;
	r.collection.sum.gaps = 1u << GAP_LEVEL0;
	assert_int_equal(summary_trust(&r), TRUST_LOW);
	txt = text(&r, 0);
	at(txt, "  trust        low - Level0, 5 timed steps after 2 warm-up, "
	        "0 warnings; the profiler's own totals agree with the "
	        "kernels\n");
	free(txt);
	/* no step boundaries: the whole profile, low */
	r.collection.sum.gaps = 1u << GAP_NO_STEPS;
	r.collection.sum.level = LEVEL_1;
	r.collection.sum.steps = r.collection.sum.timed = 0;
	r.e2e.steps = 0;
	r.e2e.per_step_ns = r.e2e.span_ns;
	assert_int_equal(summary_trust(&r), TRUST_LOW);
	html = render(&r, REPORT_HTML, "en");
	at(html, "<strong class=\"sum-big\">308.41 ms</strong> whole profile");
	at(html, "Level1, no step boundaries, 0 warnings");
	free(html);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(example_summary_in_every_format),
	    cmocka_unit_test(passing_checks_are_one_line),
	    cmocka_unit_test(top_action_and_trust),
	};
	setenv(REPORT_MISSES_ENV, "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
