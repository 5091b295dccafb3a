/* Unit tests of the findings on whole stages: the stage_share metric of
 * the vae_parallel and text_encoder thresholds (analysis/verdicts.c over
 * r->e2e) and the VAE's time split (analysis/vaesplit.c). Results are
 * built by hand; the expected values are worked out in the comments. */
#include "unit.h"

#include "analysis/cluster.h"
#include "analysis/rules.h"
#include "analysis/vaesplit.h"
#include "analysis/verdicts.h"
#include "util/xalloc.h"

#define MS 1000000LL /* ns */

struct fixture {
	struct rules ru;
	struct result r;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct err e = ERR_INIT;

	if (rules_load_builtin(&f->ru, &e))
		return -1;
	result_init(&f->r);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	result_release(&f->r);
	rules_release(&f->ru);
	free(f);
	return 0;
}

static const struct verdict *find(const struct result *r, const char *id)
{
	size_t i;
	for (i = 0; i < r->nverdicts; i++)
		if (!strcmp(r->verdicts[i].id, id))
			return &r->verdicts[i];
	fail_msg("no verdict %s", id);
	return NULL;
}

static void assert_near(double v, double want)
{
	if (v < want - 1e-9 || v > want + 1e-9)
		fail_msg("%.12f, expected %.12f", v, want);
}

/* n analysed ranks (ids 10, 11, ...), each with the stage wall times (ms)
 * of walls[rank][stage] (dit, vae, text_encoder, other), lead = index
 * lead; then the analysis over them (e2e, split, verdicts). */
static void run(struct fixture *f, size_t n, const int64_t walls[][4],
                size_t lead)
{
	struct result *r = &f->r;
	size_t i;
	int s;

	r->ranks = xcalloc(n, sizeof(*r->ranks));
	r->nranks = n;
	r->lead = lead;
	for (i = 0; i < n; i++) {
		struct rank_result *rr = &r->ranks[i];
		rr->id = (int32_t)(10 + i);
		rr->analysed = 1;
		rr->kernels = 100;
		rr->free_share_ppm = -1;
		for (s = 0; s < STAGE_COUNT; s++) {
			rr->stage[s].wall_ns = walls[i][s] * MS;
			rr->stage[s].kernel_ns = walls[i][s] * MS;
		}
	}
	cluster_summarise(r);
	verdicts_evaluate(&f->ru, r);
}

/* dit 500, vae 350, text encoder 150 ms: busy 1000 ms; the VAE is 35%
 * (> 30) and the text encoder 15% (> 10): both fire, one rank so no how
 * and no rank. */
static void stage_share_fires_above_the_thresholds(void **state)
{
	struct fixture *f = *state;
	const int64_t walls[][4] = {{500, 350, 150, 0}};
	const struct verdict *v;

	run(f, 1, walls, 0);
	v = find(&f->r, "vae_parallel");
	assert_true(v->applicable && v->fired);
	assert_near(v->value, 35.0);
	assert_true(v->threshold == 30.0);
	assert_int_equal(v->stage, STAGE_VAE);
	assert_null(v->how);
	assert_int_equal(v->rank, -1);
	assert_string_equal(v->docs[0], "parallelism");
	v = find(&f->r, "text_encoder");
	assert_true(v->applicable && v->fired);
	assert_near(v->value, 15.0);
	assert_int_equal(v->stage, STAGE_TEXT_ENCODER);
	assert_non_null(strstr(v->metric, "end-to-end"));
}

/* dit 880, vae 100, text encoder 20 ms: 10% and 2%, neither fires. */
static void stage_share_small_stages_do_not_fire(void **state)
{
	struct fixture *f = *state;
	const int64_t walls[][4] = {{880, 100, 20, 0}};
	const struct verdict *v;

	run(f, 1, walls, 0);
	v = find(&f->r, "vae_parallel");
	assert_true(v->applicable && !v->fired);
	assert_near(v->value, 10.0);
	v = find(&f->r, "text_encoder");
	assert_true(v->applicable && !v->fired);
	assert_near(v->value, 2.0);
}

/* Exactly at the threshold does not fire (strictly above): dit 540,
 * vae 300, text encoder 100, other 60 ms = 1000 ms: 30% and 10%. The
 * other stage counts in the end-to-end time. */
static void stage_share_at_the_threshold_does_not_fire(void **state)
{
	struct fixture *f = *state;
	const int64_t walls[][4] = {{540, 300, 100, 60}};
	const struct verdict *v;

	run(f, 1, walls, 0);
	v = find(&f->r, "vae_parallel");
	assert_near(v->value, 30.0);
	assert_false(v->fired);
	v = find(&f->r, "text_encoder");
	assert_near(v->value, 10.0);
	assert_false(v->fired);
}

/* No text encoder and no VAE: neither finding has a value, and the
 * reason is the stage's missing kernels (no specific na_reason). */
static void stage_share_without_the_stage_is_not_applicable(void **state)
{
	struct fixture *f = *state;
	const int64_t walls[][4] = {{900, 0, 0, 100}};
	const struct verdict *v;

	run(f, 1, walls, 0);
	v = find(&f->r, "vae_parallel");
	assert_false(v->applicable || v->fired);
	assert_null(v->na_reason);
	v = find(&f->r, "text_encoder");
	assert_false(v->applicable || v->fired);
	assert_null(v->na_reason);
}

/* Two ranks: the value is the lead rank's (index 1, id 11: vae 200 of
 * 1000 ms = 20%), not the worst (rank 10: 600 of 1000 = 60%), and the
 * lead rank is named. */
static void stage_share_is_the_lead_ranks(void **state)
{
	struct fixture *f = *state;
	const int64_t walls[][4] = {{300, 600, 100, 0}, {700, 200, 100, 0}};
	const struct verdict *v;

	run(f, 2, walls, 1);
	v = find(&f->r, "vae_parallel");
	assert_true(v->applicable && !v->fired);
	assert_near(v->value, 20.0);
	assert_int_equal(v->rank, 11);
	assert_string_equal(v->how, "lead");
}

/* ---- the VAE split --------------------------------------------------- */

static void type(struct type_stat *t, const char *name, enum category c,
                 int64_t ms)
{
	t->type = xstrdup(name);
	t->cat = c;
	t->count = 1;
	t->total_ns = t->min_ns = t->max_ns = ms * MS;
}

/* VAE kernel time 1000 ms: Conv 600, FA 50, Vector 250 (GroupNormV2 120
 * and groupnormswish 30, any case; Mul 100), Comm 40, Other 60 with a
 * "MyGroupNorm" type a user's rules put in Other. GroupNorm = the Vector
 * types matching *GroupNorm* = 150; other = 1000 - 600 - 150 - 50 = 200
 * (Mul 100 + Comm 40 + Other 60). */
static void vae_split_parts_add_up(void **state)
{
	struct fixture *f = *state;
	struct stage_result *st = &f->r.stages[STAGE_VAE];
	const struct vae_split *v = &f->r.vae_split;

	st->kernels = 6;
	st->kernel_ns = 1000 * MS;
	st->cat[CAT_CONV].time_ns = 600 * MS;
	st->cat[CAT_FA].time_ns = 50 * MS;
	st->cat[CAT_VECTOR].time_ns = 250 * MS;
	st->cat[CAT_COMM].time_ns = 40 * MS;
	st->cat[CAT_OTHER].time_ns = 60 * MS;
	st->top = xcalloc(7, sizeof(*st->top));
	type(&st->top[0], "Conv3D", CAT_CONV, 600);
	type(&st->top[1], "GroupNormV2", CAT_VECTOR, 120);
	type(&st->top[2], "Mul", CAT_VECTOR, 100);
	type(&st->top[3], "MyGroupNorm", CAT_OTHER, 60);
	type(&st->top[4], "FlashAttentionScore", CAT_FA, 50);
	type(&st->top[5], "hcom_allGather_", CAT_COMM, 40);
	type(&st->top[6], "groupnormswish", CAT_VECTOR, 30);
	st->ntop = 7;
	vae_split_compute(&f->r);
	assert_int_equal(v->total_ns, 1000 * MS);
	assert_int_equal(v->part_ns[VAE_CONV], 600 * MS);
	assert_int_equal(v->part_ns[VAE_GROUPNORM], 150 * MS);
	assert_int_equal(v->part_ns[VAE_ATTENTION], 50 * MS);
	assert_int_equal(v->part_ns[VAE_OTHER], 200 * MS);
	assert_string_equal(vae_part_names[VAE_GROUPNORM], "groupnorm");
}

/* No VAE kernels: every part is 0 (the reports then show no split). */
static void vae_split_without_a_vae_is_zero(void **state)
{
	struct fixture *f = *state;
	int p;

	f->r.stages[STAGE_DIT].kernel_ns = 500 * MS;
	f->r.stages[STAGE_DIT].cat[CAT_CONV].time_ns = 10 * MS;
	vae_split_compute(&f->r);
	assert_int_equal(f->r.vae_split.total_ns, 0);
	for (p = 0; p < VAE_PARTS; p++)
		assert_int_equal(f->r.vae_split.part_ns[p], 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(stage_share_fires_above_the_thresholds),
	    T(stage_share_small_stages_do_not_fire),
	    T(stage_share_at_the_threshold_does_not_fire),
	    T(stage_share_without_the_stage_is_not_applicable),
	    T(stage_share_is_the_lead_ranks),
	    T(vae_split_parts_add_up),
	    T(vae_split_without_a_vae_is_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
