/* Expected gains (analysis/gain.c) and the rules' speed-up ranges
 * (analysis/rules_speedups.c): the Amdahl arithmetic with exact numbers,
 * a hand-made result estimated and ordered, the top action, a user's
 * override, and every bad value a rules file may hold. */
#include "unit.h"

#include "analysis/gain.h"
#include "analysis/rules.h"
#include "analysis/summary.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MS 1000000LL

#define assert_near(a, b, eps) near((a), (b), (eps), #a)
static void near(double a, double b, double eps, const char *what)
{
	if (!(a - b <= eps && b - a <= eps))
		fail_msg("%s = %.9f, expected %.9f", what, a, b);
}

/* ---- the arithmetic ------------------------------------------------------ */

static void gain_after_is_amdahl(void **state)
{
	(void)state;
	/* 100 ms of 300 ms twice as fast: 50 ms saved */
	assert_int_equal(gain_after(300 * MS, 100 * MS, 2.0), 250 * MS);
	/* four times: 75 ms saved */
	assert_int_equal(gain_after(300 * MS, 100 * MS, 4.0), 225 * MS);
	/* 1x saves nothing; below 1 counts as 1 */
	assert_int_equal(gain_after(300 * MS, 100 * MS, 1.0), 300 * MS);
	assert_int_equal(gain_after(300 * MS, 100 * MS, 0.5), 300 * MS);
	/* a part larger than the time is the whole time */
	assert_int_equal(gain_after(100 * MS, 400 * MS, 2.0), 50 * MS);
	/* a negative part is none */
	assert_int_equal(gain_after(100 * MS, -5 * MS, 2.0), 100 * MS);
	/* rounded to the ns: 10 ns at 3x saves 6.67 -> 7 */
	assert_int_equal(gain_after(10, 10, 3.0), 3);
}

/* 60 ms of a 150 ms stage, 300 ms end to end, at 1.5-3x: the stage
 * saves 20-40 ms, so 130-110 ms; end to end 280-260 ms, 6.667-13.333%. */
static void gain_amdahl_exact(void **state)
{
	struct gain g;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.speedup_low = 1.5;
	g.speedup_high = 3.0;
	gain_amdahl(&g, 60 * MS, 150 * MS, 300 * MS);
	assert_true(g.estimated);
	assert_int_equal(g.part_ns, 60 * MS);
	assert_int_equal(g.stage_before_ns, 150 * MS);
	assert_int_equal(g.stage_after_low_ns, 130 * MS);
	assert_int_equal(g.stage_after_high_ns, 110 * MS);
	assert_int_equal(g.e2e_before_ns, 300 * MS);
	assert_int_equal(g.e2e_after_low_ns, 280 * MS);
	assert_int_equal(g.e2e_after_high_ns, 260 * MS);
	assert_near(g.saving_low_pct, 20.0 / 3.0, 1e-9);
	assert_near(g.saving_high_pct, 40.0 / 3.0, 1e-9);
	/* a part larger than its stage is cut to the stage */
	gain_amdahl(&g, 500 * MS, 150 * MS, 300 * MS);
	assert_int_equal(g.part_ns, 150 * MS);
	assert_int_equal(g.stage_after_high_ns, 50 * MS);
	assert_int_equal(g.e2e_after_high_ns, 200 * MS);
}

/* ---- a hand-made result -------------------------------------------------- */

static void add_verdict(struct result *r, const char *id, enum stage st,
                        int fired)
{
	struct verdict *v = &r->verdicts[r->nverdicts++];

	memset(v, 0, sizeof(*v));
	v->id = xstrdup(id);
	v->stage = st;
	v->applicable = 1;
	v->fired = fired;
	v->value = fired ? 60 : 1;
	v->threshold = 50;
}

/* One rank, 2 profiler steps over 700 ms (350 ms a step); DiT 400 ms of
 * wall time with 160 ms of MatMul (200 and 80 ms a step), VAE 300 ms
 * (150 ms a step); 5% idle. matmul_quant, vae_parallel and
 * memory_headroom fire (in rules order), host_bound does not. */
static void make_result(struct result *r)
{
	struct rank_result *rr;

	result_init(r);
	r->ranks = xcalloc(1, sizeof(*r->ranks));
	r->nranks = 1;
	rr = &r->ranks[0];
	rr->analysed = 1;
	rr->kernels = 100;
	rr->free_share_ppm = 50000;
	rr->stage[STAGE_DIT].wall_ns = 400 * MS;
	rr->stage[STAGE_DIT].cat_ns[CAT_MATMUL] = 160 * MS;
	rr->stage[STAGE_VAE].wall_ns = 300 * MS;
	r->e2e.known = 1;
	r->e2e.steps = 2;
	r->e2e.span_ns = 700 * MS;
	r->e2e.per_step_ns = 350 * MS;
	r->e2e.stage_ns[STAGE_DIT] = 400 * MS;
	r->e2e.stage_ns[STAGE_VAE] = 300 * MS;
	r->e2e.busy_ns = 700 * MS;
	r->verdicts = xcalloc(4, sizeof(*r->verdicts));
	add_verdict(r, "matmul_quant", STAGE_DIT, 1);
	add_verdict(r, "host_bound", (enum stage)STAGE_ALL, 0);
	add_verdict(r, "vae_parallel", STAGE_VAE, 1);
	add_verdict(r, "memory_headroom", (enum stage)STAGE_ALL, 1);
}

static void builtin(struct rules *ru)
{
	struct err e = ERR_INIT;

	if (rules_load_builtin(ru, &e))
		fail_msg("built-in rules: %s", e.msg);
}

/* With the built-in ranges: vae_parallel (150 ms at 1.5-2x: 50-75 ms
 * saved, 14.286-21.429%) before matmul_quant (80 ms at 1.3-1.8x:
 * 18.46-35.56 ms saved, 5.275-10.159%), then memory_headroom (no speed
 * gain), then the passing host_bound. */
static void builtin_gains_and_order(void **state)
{
	struct result r;
	struct rules ru;
	const struct gain *g;

	(void)state;
	builtin(&ru);
	make_result(&r);
	gain_evaluate(&ru, &r);
	assert_string_equal(r.verdicts[0].id, "vae_parallel");
	assert_string_equal(r.verdicts[1].id, "matmul_quant");
	assert_string_equal(r.verdicts[2].id, "memory_headroom");
	assert_string_equal(r.verdicts[3].id, "host_bound");
	assert_int_equal(r.verdicts[0].order, 1);
	assert_int_equal(r.verdicts[1].order, 2);
	assert_int_equal(r.verdicts[2].order, 3);
	assert_int_equal(r.verdicts[3].order, 0);
	assert_null(r.verdicts[3].gain); /* not fired: no estimate */
	assert_int_equal(summary_top(&r), 0);

	g = r.verdicts[0].gain;
	assert_non_null(g);
	assert_int_equal(g->part, GAIN_PART_STAGE);
	assert_int_equal(g->stage, STAGE_VAE);
	assert_int_equal(g->part_ns, 150 * MS);
	assert_int_equal(g->stage_before_ns, 150 * MS);
	assert_int_equal(g->stage_after_low_ns, 100 * MS);
	assert_int_equal(g->stage_after_high_ns, 75 * MS);
	assert_int_equal(g->e2e_before_ns, 350 * MS);
	assert_int_equal(g->e2e_after_low_ns, 300 * MS);
	assert_int_equal(g->e2e_after_high_ns, 275 * MS);
	assert_near(g->saving_low_pct, 100.0 / 7.0, 1e-9);
	assert_near(g->saving_high_pct, 150.0 / 7.0, 1e-9);

	g = r.verdicts[1].gain;
	assert_int_equal(g->part, GAIN_PART_CATEGORY);
	assert_int_equal(g->cat, CAT_MATMUL);
	assert_int_equal(g->part_ns, 80 * MS);
	assert_int_equal(g->stage_before_ns, 200 * MS);
	/* 80 (1 - 1/1.3) = 18.461538 ms, 80 (1 - 1/1.8) = 35.555556 ms */
	assert_int_equal(g->stage_after_low_ns, 181538462);
	assert_int_equal(g->stage_after_high_ns, 164444444);
	assert_int_equal(g->e2e_after_low_ns, 331538462);
	assert_int_equal(g->e2e_after_high_ns, 314444444);
	assert_near(g->saving_low_pct, 5.274725, 1e-6);
	assert_near(g->saving_high_pct, 10.158730, 1e-6);
	assert_string_equal(g->source,
	                    rules_speedup(&ru, "matmul_quant")->source);
	assert_non_null(strstr(g->source, "sdperf assumption"));

	g = r.verdicts[2].gain;
	assert_non_null(g);
	assert_true(g->no_speed);
	assert_false(g->estimated);
	assert_non_null(strstr(g->assumption_en, "capacity"));
	rules_release(&ru);
	result_release(&r);
}

/* host_bound fired: 5% of the 350 ms step is idle (17.5 ms), 1.5-3x
 * faster saves 5.833-11.667 ms end to end; the stage is the step. */
static void idle_part_is_the_step(void **state)
{
	struct result r;
	struct rules ru;
	const struct gain *g;

	(void)state;
	builtin(&ru);
	make_result(&r);
	r.verdicts[0].fired = r.verdicts[2].fired = r.verdicts[3].fired = 0;
	r.verdicts[1].fired = 1;
	gain_evaluate(&ru, &r);
	assert_string_equal(r.verdicts[0].id, "host_bound");
	g = r.verdicts[0].gain;
	assert_int_equal(g->part, GAIN_PART_IDLE);
	assert_int_equal(g->stage, STAGE_ALL);
	assert_int_equal(g->part_ns, 17500000);
	assert_int_equal(g->stage_before_ns, 350 * MS);
	assert_int_equal(g->e2e_after_low_ns, 350 * MS - 5833333);
	assert_int_equal(g->e2e_after_high_ns, 350 * MS - 11666667);
	/* without step_trace_time.csv the idle time is unknown */
	r.ranks[0].free_share_ppm = -1;
	gain_evaluate(&ru, &r);
	assert_non_null(r.verdicts[0].gain);
	assert_false(r.verdicts[0].gain->estimated);
	assert_false(r.verdicts[0].gain->no_speed);
	rules_release(&ru);
	result_release(&r);
}

/* cache fired: the loop is 300 ms of the profile (150 ms a step) inside
 * the DiT's 200 ms a step; 1.3-1.7x on it saves 150 (1 - 1/1.3) =
 * 34.615385 ms to 150 (1 - 1/1.7) = 61.764706 ms a step. Without a
 * split loop there is no estimate. */
static void loop_part_is_the_denoising_loop(void **state)
{
	struct result r;
	struct rules ru;
	const struct gain *g;

	(void)state;
	builtin(&ru);
	make_result(&r);
	free(r.verdicts[1].id);
	r.verdicts[1].id = xstrdup("cache");
	r.verdicts[1].stage = STAGE_DIT;
	r.verdicts[0].fired = r.verdicts[2].fired = r.verdicts[3].fired = 0;
	r.verdicts[1].fired = 1;
	r.iters.found = 1;
	r.iters.loop_ns = 300 * MS;
	gain_evaluate(&ru, &r);
	assert_string_equal(r.verdicts[0].id, "cache");
	g = r.verdicts[0].gain;
	assert_non_null(g);
	assert_true(g->estimated);
	assert_int_equal(g->part, GAIN_PART_LOOP);
	assert_int_equal(g->stage, STAGE_DIT);
	assert_int_equal(g->part_ns, 150 * MS);
	assert_int_equal(g->stage_before_ns, 200 * MS);
	assert_int_equal(g->stage_after_low_ns, 200 * MS - 34615385);
	assert_int_equal(g->stage_after_high_ns, 200 * MS - 61764706);
	assert_int_equal(g->e2e_after_low_ns, 350 * MS - 34615385);
	assert_int_equal(g->e2e_after_high_ns, 350 * MS - 61764706);
	assert_near(g->saving_low_pct, 9.8901099, 1e-6);
	assert_near(g->saving_high_pct, 17.6470588, 1e-6);
	r.iters.found = 0;
	gain_evaluate(&ru, &r);
	assert_false(r.verdicts[0].gain->estimated);
	rules_release(&ru);
	result_release(&r);
}

/* A user's rules file that extends the built-in one replaces
 * matmul_quant's range (10-1000x: 72-79.92 ms saved, 20.571-22.834%), so
 * it now comes before vae_parallel (21.429% at most); an id of its own
 * gets a range too. */
static void user_override_reorders(void **state)
{
	static const char text[] =
	    "{\"extends\": \"builtin\", \"speedups\": {\"comment\": \"mine\","
	    " \"matmul_quant\": {\"part\": \"category\", \"stage\": \"dit\","
	    " \"category\": \"MatMul\", \"low\": 10, \"high\": 1000,"
	    " \"assumption\": {\"en\": \"my kernels\", \"zh\": \"我的算子\"},"
	    " \"source\": \"my benchmark\"},"
	    " \"my_rule\": {\"part\": \"none\", \"assumption\": {\"en\": \"a\","
	    " \"zh\": \"b\"}, \"source\": {\"en\": \"c\", \"zh\": \"丙\"}}}}";
	struct result r;
	struct rules ru;
	struct err e = ERR_INIT;
	const struct gain *g;

	(void)state;
	if (rules_load_text(&ru, "mine.json", text, strlen(text), &e))
		fail_msg("%s", e.msg);
	assert_non_null(rules_speedup(&ru, "my_rule"));
	/* a source in one text, or in each language */
	assert_string_equal(rules_speedup(&ru, "my_rule")->source, "c");
	assert_string_equal(rules_speedup(&ru, "my_rule")->source_zh, "丙");
	assert_null(rules_speedup(&ru, "matmul_quant")->source_zh);
	assert_non_null(rules_speedup(&ru, "vae_parallel"));
	make_result(&r);
	gain_evaluate(&ru, &r);
	assert_string_equal(r.verdicts[0].id, "matmul_quant");
	assert_string_equal(r.verdicts[1].id, "vae_parallel");
	g = r.verdicts[0].gain;
	assert_string_equal(g->source, "my benchmark");
	assert_string_equal(g->assumption_zh, "我的算子");
	assert_int_equal(g->e2e_after_low_ns, 278 * MS);
	assert_int_equal(g->e2e_after_high_ns, 270080000);
	assert_near(g->saving_high_pct, 22.834286, 1e-6);
	assert_int_equal(summary_top(&r), 0);
	rules_release(&ru);
	result_release(&r);
}

/* The top action: an estimate beats none, a larger high-end saving beats
 * a smaller one, whatever the order of r->verdicts. */
static void top_is_the_largest_gain(void **state)
{
	struct result r;
	struct rules ru;

	(void)state;
	builtin(&ru);
	make_result(&r);
	gain_evaluate(&ru, &r);
	r.verdicts[1].gain->saving_high_pct = 99;
	assert_int_equal(summary_top(&r), 1);
	r.verdicts[0].gain->estimated = 0;
	r.verdicts[1].gain->estimated = 0;
	/* none estimated: the first fired one */
	assert_int_equal(summary_top(&r), 0);
	rules_release(&ru);
	result_release(&r);
}

/* ---- bad rules ------------------------------------------------------------
 */

static void fails(const char *entry, const char *msg)
{
	struct rules ru;
	struct err e = ERR_INIT;
	char *text =
	    xstrfmt("{\"extends\": \"builtin\", \"speedups\": %s}", entry);

	if (!rules_load_text(&ru, "bad.json", text, strlen(text), &e))
		fail_msg("loaded: %s", text);
	assert_string_equal(e.msg, msg);
	free(text);
}

#define TEXTS                                                                  \
	"\"assumption\": {\"en\": \"a\", \"zh\": \"b\"}, \"source\": \"s\""

static void bad_speedups_are_errors(void **state)
{
	(void)state;
	fails("[]", "bad.json: 'speedups': expected an object keyed by "
	            "finding id");
	fails("{\"x\": 3}", "bad.json: 'speedups.x': expected an object");
	fails("{\"x\": {\"part\": \"gpu\", " TEXTS "}}",
	      "bad.json: 'speedups.x.part': expected none, category, "
	      "exposed_comm, idle, stage, imbalance or loop");
	fails("{\"x\": {\"part\": \"stage\", \"stage\": \"vae\", \"low\": 0.5, "
	      "\"high\": 2, " TEXTS "}}",
	      "bad.json: 'speedups.x.low': expected a speed-up factor from 1 "
	      "to 1000");
	fails("{\"x\": {\"part\": \"stage\", \"stage\": \"vae\", \"low\": 2, "
	      "\"high\": \"3\", " TEXTS "}}",
	      "bad.json: 'speedups.x.high': expected a speed-up factor from 1 "
	      "to 1000");
	fails("{\"x\": {\"part\": \"stage\", \"stage\": \"vae\", \"low\": 2, "
	      "\"high\": 1.5, " TEXTS "}}",
	      "bad.json: 'speedups.x.high': below low");
	fails("{\"x\": {\"part\": \"stage\", \"stage\": \"gpu\", \"low\": 2, "
	      "\"high\": 3, " TEXTS "}}",
	      "bad.json: 'speedups.x.stage': expected dit, vae, text_encoder "
	      "or other");
	fails(
	    "{\"x\": {\"part\": \"category\", \"stage\": \"dit\", \"low\": 2, "
	    "\"high\": 3, " TEXTS "}}",
	    "bad.json: 'speedups.x.category': expected FA, MatMul, Conv, "
	    "Vector, Comm or Other");
	fails("{\"x\": {\"part\": \"idle\", \"stage\": \"dit\", \"low\": 2, "
	      "\"high\": 3, " TEXTS "}}",
	      "bad.json: 'speedups.x.stage': only a category, exposed_comm or "
	      "stage part names a stage");
	fails("{\"x\": {\"part\": \"none\", \"low\": 2, " TEXTS "}}",
	      "bad.json: 'speedups.x.low': a part \"none\" has no speed-up");
	fails("{\"x\": {\"part\": \"idle\", \"low\": 2, \"hgih\": 3, " TEXTS
	      "}}",
	      "bad.json: 'speedups.x.hgih': unknown key (expected part, stage, "
	      "category, low, high, assumption, source or comment)");
	fails("{\"x\": {\"part\": \"idle\", \"low\": 2, \"high\": 3, "
	      "\"assumption\": {\"en\": \"a\"}, \"source\": \"s\"}}",
	      "bad.json: 'speedups.x.assumption.zh': expected a non-empty "
	      "string");
	fails("{\"x\": {\"part\": \"idle\", \"low\": 2, \"high\": 3, "
	      "\"assumption\": {\"en\": \"a\", \"zh\": \"b\"}}}",
	      "bad.json: 'speedups.x.source': expected a non-empty string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(gain_after_is_amdahl),
	    cmocka_unit_test(gain_amdahl_exact),
	    cmocka_unit_test(builtin_gains_and_order),
	    cmocka_unit_test(idle_part_is_the_step),
	    cmocka_unit_test(loop_part_is_the_denoising_loop),
	    cmocka_unit_test(user_override_reorders),
	    cmocka_unit_test(top_is_the_largest_gain),
	    cmocka_unit_test(bad_speedups_are_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
