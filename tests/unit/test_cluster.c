/* Unit tests of the multi-rank analysis: step outliers and the device-idle
 * share (analysis/steps.c), the per-rank verdict measures
 * (analysis/verdicts.c) and merging ranks (analysis/cluster.c). Expected
 * values are worked out by hand in the comments. */
#include "unit.h"

#include "analysis/cluster.h"
#include "analysis/rules.h"
#include "analysis/steps.h"
#include "analysis/verdicts.h"
#include "app/pipeline.h"
#include "input/commjson.h"
#include "util/xalloc.h"

#define MS 1000000LL /* ns */

static struct step_stat step(int32_t n, int64_t comp, int64_t nov, int64_t idle)
{
	struct step_stat s;

	memset(&s, 0, sizeof(s));
	s.step = n;
	s.computing_ns = comp * MS;
	s.not_overlapped_ns = nov * MS;
	s.free_ns = idle * MS;
	s.preparing_ns = -1;
	return s;
}

/* ---- steps ------------------------------------------------------------- */

static void steps_first_slow_step_is_warmup_and_left_out(void **state)
{
	/* step times 300, 100, 104, 98: the first is 300/100 = 3x the
	 * median of the others (upper median of 98, 100, 104 = 100) */
	struct step_stat s[] = {step(1, 250, 0, 50), step(2, 80, 10, 10),
	                        step(3, 84, 10, 10), step(4, 78, 10, 10)};
	int64_t ppm;

	(void)state;
	ppm = steps_analyse(s, 4, 1.5);
	assert_int_equal(s[0].outlier, 1);
	assert_int_equal(s[1].outlier, 0);
	assert_int_equal(s[2].outlier, 0);
	assert_int_equal(s[3].outlier, 0);
	/* free 30 of 302 ms in steps 2-4: 99337.748 ppm */
	assert_int_equal(ppm, 99338);
	assert_true(steps_ratio(s, 4, 0) > 2.99 && steps_ratio(s, 4, 0) < 3.01);
}

static void steps_later_slow_step_is_outlier(void **state)
{
	struct step_stat s[] = {step(1, 100, 0, 0), step(2, 100, 0, 0),
	                        step(3, 150, 0, 0), step(4, 100, 0, 0)};

	(void)state;
	steps_analyse(s, 4, 1.5);
	assert_int_equal(s[2].outlier, 2); /* exactly 1.5x counts */
	assert_int_equal(s[0].outlier + s[1].outlier + s[3].outlier, 0);
	/* a higher factor keeps it */
	s[2].outlier = 0;
	steps_analyse(s, 4, 1.6);
	assert_int_equal(s[2].outlier, 0);
}

static void steps_two_steps_are_never_outliers(void **state)
{
	struct step_stat s[] = {step(1, 900, 0, 100), step(2, 100, 0, 0)};

	(void)state;
	/* 100 of 1100 ms idle: 90909.09 ppm */
	assert_int_equal(steps_analyse(s, 2, 1.5), 90909);
	assert_int_equal(s[0].outlier, 0);
}

static void steps_without_device_time_give_no_share(void **state)
{
	struct step_stat s[] = {step(1, 0, 0, 0)};

	(void)state;
	assert_int_equal(steps_analyse(s, 1, 1.5), -1);
	assert_int_equal(steps_analyse(s, 0, 1.5), -1);
}

/* The upper median of all step times but s[skip], the slow way. */
static int64_t brute_median_without(const struct step_stat *s, size_t n,
                                    size_t skip)
{
	int64_t v[64], t;
	size_t i, j, k = 0;

	for (i = 0; i < n; i++)
		if (i != skip)
			v[k++] = s[i].computing_ns + s[i].not_overlapped_ns +
			         s[i].free_ns;
	for (i = 1; i < k; i++) /* insertion sort: fine for 63 */
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[k / 2];
}

static void steps_sorted_once_match_a_sort_per_step(void **state)
{
	/* random step lists, repeated times included: every ratio and flag
	 * of the one-sort analysis is the one a sort per step gives */
	struct step_stat s[64];
	unsigned seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		size_t n = 1 + (size_t)(round % 64), i;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = step((int32_t)i, 50 + (seed >> 16) % 8, 0,
			            (seed >> 8) % 3);
			if (i % 7 == 3)
				s[i].computing_ns *= 3;
		}
		steps_analyse(s, n, 1.5);
		for (i = 0; i < n; i++) {
			int64_t t = s[i].computing_ns + s[i].free_ns;
			int64_t med =
			    n >= 2 ? brute_median_without(s, n, i) : 0;
			double r = med > 0 ? (double)t / (double)med : 0;
			int out =
			    n >= 3 && med > 0 && (double)t >= 1.5 * (double)med
			        ? (i == 0 ? 1 : 2)
			        : 0;
			assert_true(s[i].ratio == r);
			assert_int_equal(s[i].outlier, out);
			assert_true(steps_ratio(s, n, i) == r);
		}
	}
}

static void steps_of_centuries_keep_their_share(void **state)
{
	/* each part 4e18 ns: a step's time passes INT64_MAX; the idle share
	 * is still Free's third, the ratio 1 (saturated alike) */
	struct step_stat s[4];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].computing_ns = s[i].not_overlapped_ns = s[i].free_ns =
		    4000000000000000000LL;
	}
	assert_int_equal(steps_analyse(s, 4, 1.5), 333333);
	for (i = 0; i < 4; i++) {
		assert_int_equal(s[i].outlier, 0);
		assert_true(s[i].ratio == 1.0);
	}
}

/* ---- verdicts over ranks ----------------------------------------------- */

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

/* Ranks with the given DiT compute times (ms), exposed shares (exposed
 * ms of a 1000 ms wall) and free shares (ppm, -1 = no steps file). */
static void ranks(struct result *r, size_t n, const int64_t *compute,
                  const int64_t *exposed, const int64_t *free_ppm)
{
	size_t i;

	r->ranks = xcalloc(n, sizeof(*r->ranks));
	r->nranks = n;
	for (i = 0; i < n; i++) {
		struct rank_result *rr = &r->ranks[i];
		rr->id = (int32_t)(10 + i);
		rr->analysed = 1;
		rr->compute_ns = compute[i] * MS;
		rr->stage[STAGE_DIT].wall_ns = 1000 * MS;
		rr->stage[STAGE_DIT].exposed_comm_ns = exposed[i] * MS;
		rr->free_share_ppm = free_ppm[i];
	}
	r->stages[STAGE_DIT].kernel_ns = 1000 * MS;
	r->stages[STAGE_DIT].wall_ns = 1000 * MS;
	r->stages[STAGE_DIT].cat[CAT_MATMUL].time_ns = 600 * MS;
}

static void verdicts_name_the_slowest_and_worst_ranks(void **state)
{
	struct fixture *f = *state;
	/* compute 100, 130, 100, 102: sorted 100 100 102 130, lower median
	 * 100, slowest rank 11: (130 - 100) / 100 = 30% */
	const int64_t compute[] = {100, 130, 100, 102};
	const int64_t exposed[] = {100, 50, 400, 320};
	const int64_t free_ppm[] = {50000, -1, 250000, 10000};
	const struct verdict *v;

	ranks(&f->r, 4, compute, exposed, free_ppm);
	cluster_summarise(&f->r);
	verdicts_evaluate(&f->ru, &f->r);
	v = find(&f->r, "rank_imbalance");
	assert_true(v->applicable && v->fired);
	assert_int_equal(v->rank, 11);
	assert_string_equal(v->how, "slowest");
	assert_true(v->value > 29.999 && v->value < 30.001);
	v = find(&f->r, "comm_overlap");
	assert_int_equal(v->rank, 12);
	assert_string_equal(v->how, "worst");
	assert_true(v->fired && v->value > 39.999 && v->value < 40.001);
	v = find(&f->r, "host_bound"); /* 25% on rank 12 */
	assert_int_equal(v->rank, 12);
	assert_int_equal(v->stage, STAGE_ALL);
	assert_true(v->fired && v->value > 24.999 && v->value < 25.001);
	v = find(&f->r, "matmul_quant"); /* the summed stage: 60% */
	assert_string_equal(v->how, "sum");
	assert_int_equal(v->rank, -1);
	assert_true(v->fired);
}

static void verdicts_two_even_ranks_do_not_fire(void **state)
{
	struct fixture *f = *state;
	/* lower median of two = the faster: (104 - 100) / 100 = 4% */
	const int64_t compute[] = {104, 100};
	const int64_t exposed[] = {0, 0};
	const int64_t free_ppm[] = {-1, -1};
	const struct verdict *v;

	ranks(&f->r, 2, compute, exposed, free_ppm);
	cluster_summarise(&f->r);
	verdicts_evaluate(&f->ru, &f->r);
	v = find(&f->r, "rank_imbalance");
	assert_true(v->applicable && !v->fired);
	assert_true(v->value > 3.999 && v->value < 4.001);
	assert_int_equal(v->rank, 10);
	v = find(&f->r, "host_bound"); /* no rank has steps */
	assert_false(v->applicable);
}

static void verdicts_one_rank_has_no_imbalance(void **state)
{
	struct fixture *f = *state;
	const int64_t compute[] = {100};
	const int64_t exposed[] = {0};
	const int64_t free_ppm[] = {300000};
	const struct verdict *v;

	ranks(&f->r, 1, compute, exposed, free_ppm);
	cluster_summarise(&f->r);
	assert_false(f->r.cluster.ranked);
	verdicts_evaluate(&f->ru, &f->r);
	v = find(&f->r, "rank_imbalance");
	assert_false(v->applicable || v->fired);
	assert_int_equal(v->rank, -1);
	v = find(&f->r, "host_bound");
	assert_true(v->fired);
	assert_null(v->how);
	assert_int_equal(v->rank, -1);
}

/* ---- the summary over the ranks ----------------------------------------- */

/* A rank without DiT compute time (no DiT kernels) and one not analysed
 * are neither slowest nor median: of 0, 0, 130, 100 (and 500 on a rank
 * not analysed), the median is 100 (rank 13), not 0 (rank 10), and the
 * imbalance verdict measures the same two ranks. */
static void summary_skips_ranks_without_compute(void **state)
{
	struct fixture *f = *state;
	const int64_t compute[] = {0, 0, 130, 100, 500};
	const int64_t exposed[] = {0, 0, 0, 0, 0};
	const int64_t free_ppm[] = {-1, -1, -1, -1, -1};
	const struct verdict *v;

	ranks(&f->r, 5, compute, exposed, free_ppm);
	f->r.ranks[4].analysed = 0;
	cluster_summarise(&f->r);
	assert_true(f->r.cluster.ranked);
	assert_int_equal(f->r.cluster.slowest, 2);
	assert_int_equal(f->r.cluster.median, 3);
	verdicts_evaluate(&f->ru, &f->r);
	v = find(&f->r, "rank_imbalance"); /* (130 - 100) / 100 */
	assert_true(v->applicable && v->fired);
	assert_int_equal(v->rank, 12);
	assert_true(v->value > 29.999 && v->value < 30.001);
}

/* One rank with compute time and one without: no slowest, no median, no
 * imbalance (the view marked rank 10 the median here before the summary
 * was computed once). */
static void summary_needs_two_ranks_with_compute(void **state)
{
	struct fixture *f = *state;
	const int64_t compute[] = {0, 120};
	const int64_t exposed[] = {0, 0};
	const int64_t free_ppm[] = {-1, -1};
	const struct verdict *v;

	ranks(&f->r, 2, compute, exposed, free_ppm);
	cluster_summarise(&f->r);
	assert_false(f->r.cluster.ranked);
	verdicts_evaluate(&f->ru, &f->r);
	v = find(&f->r, "rank_imbalance");
	assert_false(v->applicable || v->fired);
	assert_int_equal(v->rank, -1);
}

/* The real GPT-3 2023 sample (two ranks, each with communication.json):
 * through the whole pipeline, the result's cluster sums equal the sums of
 * the two files as the reader gives them, read here on their own. */
static void summary_sums_communication_of_two_ranks(void **state)
{
	static const char *const files[] = {
	    "test_rank_0/ASCEND_PROFILER_OUTPUT/communication.json",
	    "test_rank_1/ASCEND_PROFILER_OUTPUT/communication.json"};
	struct fixture *f = *state;
	struct commstats cs[2];
	const struct comm_result *sum = &f->r.cluster.comm;
	struct options o;
	struct err e = ERR_INIT;
	char dir[1024], path[1200];
	const char *paths[1];
	size_t i, k;

	unit_join(dir, sizeof(dir), unit_samples_dir(),
	          "msinsight-gpt3-testdata-2023");
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (commstats_read(path, &cs[i], &e))
			fail_msg("%s", e.msg);
	}
	paths[0] = dir;
	memset(&o, 0, sizeof(o));
	o.paths = paths;
	o.npaths = 1;
	o.path = dir;
	o.jobs = 1;
	o.quiet = 1;
	if (pipeline_analyse(&o, &f->ru, &f->r, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(f->r.nranks, 2);
	assert_int_equal(f->r.cluster.comm_ranks, 2);
	assert_int_equal(sum->ops, cs[0].ops + cs[1].ops);
	assert_int_equal(sum->ops, 56);
	for (k = 0; k < COLL_COUNT; k++) {
		const struct coll_stat *a = &cs[0].coll[k], *b = &cs[1].coll[k];
		assert_int_equal(sum->kind[k].count, a->count + b->count);
		assert_int_equal(sum->kind[k].elapse_ns,
		                 a->elapse_ns + b->elapse_ns);
		assert_int_equal(sum->kind[k].transit_ns,
		                 a->transit_ns + b->transit_ns);
		assert_int_equal(sum->kind[k].wait_ns, a->wait_ns + b->wait_ns);
		assert_int_equal(sum->kind[k].sync_ns, a->sync_ns + b->sync_ns);
		assert_int_equal(sum->kind[k].idle_ns, a->idle_ns + b->idle_ns);
	}
	assert_int_equal(sum->kind[COLL_ALLGATHER].count, 20);
	for (k = 0; k < TR_COUNT; k++) {
		const struct transport_stat *a = &cs[0].tr[k],
		                            *b = &cs[1].tr[k];
		assert_int_equal(sum->link[k].ops, a->ops + b->ops);
		assert_int_equal(sum->link[k].time_ns, a->time_ns + b->time_ns);
		assert_true(sum->link[k].size_mb == a->size_mb + b->size_mb);
	}
	assert_int_equal(sum->link[TR_HCCS].ops, 27);
	assert_int_equal(sum->wait_ns, f->r.ranks[0].comm.wait_ns +
	                                   f->r.ranks[1].comm.wait_ns);
	/* no denoising loop: one stage, whose compute both ranks have
	 * (kernel_details.csv: rank 1 has compute kernels, no DiT), so the
	 * ranks are ranked over the whole profile */
	assert_int_equal(f->r.workload.one_stage, 1);
	assert_true(f->r.cluster.ranked);
	for (i = 0; i < 2; i++)
		commstats_release(&cs[i]);
}

/* ---- merging ranks ------------------------------------------------------ */

static void part(struct result *p, int32_t id, const char *type, int64_t ns,
                 const char *warning)
{
	result_init(p);
	p->ranks = xcalloc(1, sizeof(*p->ranks));
	p->nranks = 1;
	p->ranks[0].id = id;
	p->ranks[0].analysed = 1;
	p->ranks[0].free_share_ppm = -1;
	p->kernels = 2;
	p->stages[STAGE_DIT].kernels = 2;
	p->stages[STAGE_DIT].kernel_ns = ns + 10;
	p->stages[STAGE_DIT].cat[CAT_FA].time_ns = ns;
	p->stages[STAGE_DIT].top = xcalloc(2, sizeof(struct type_stat));
	p->stages[STAGE_DIT].ntop = 2;
	p->stages[STAGE_DIT].top[0] =
	    (struct type_stat){xstrdup(type), CAT_FA, 1, ns, ns, ns};
	p->stages[STAGE_DIT].top[1] =
	    (struct type_stat){xstrdup("Add"), CAT_VECTOR, 1, 10, 10, 10};
	p->steps = xcalloc(1, sizeof(*p->steps));
	p->steps[0] = id;
	p->nsteps = 1;
	result_warn(p, "few_steps", NULL, 0, warning);
}

static void cluster_sums_types_and_keeps_one_copy_of_warnings(void **state)
{
	struct fixture *f = *state;
	struct result parts[2];
	const struct stage_result *st;
	size_t i;

	part(&parts[0], 0, "FlashAttentionScore", 100, "same");
	part(&parts[1], 1, "FlashAttentionScore", 300, "same");
	cluster_merge(parts, 2, &f->ru, &f->r);
	st = &f->r.stages[STAGE_DIT];
	assert_int_equal(f->r.nranks, 2);
	assert_int_equal(f->r.kernels, 4);
	assert_int_equal(st->kernel_ns, 420);
	assert_int_equal(st->cat[CAT_FA].time_ns, 400);
	assert_int_equal(st->ntop, 2);
	assert_string_equal(st->top[0].type, "FlashAttentionScore");
	assert_int_equal(st->top[0].count, 2);
	assert_int_equal(st->top[0].total_ns, 400);
	assert_int_equal(st->top[0].min_ns, 100);
	assert_int_equal(st->top[0].max_ns, 300);
	assert_int_equal(st->top[1].total_ns, 20);
	assert_int_equal(f->r.nsteps, 2); /* Step Ids 0 and 1 */
	assert_int_equal(f->r.nwarnings, 1);
	assert_int_equal(f->r.lead, 0);
	assert_non_null(f->r.verdicts);
	for (i = 0; i < 2; i++)
		result_release(&parts[i]);
}

static void cluster_lead_is_the_first_analysed_rank(void **state)
{
	struct fixture *f = *state;
	struct result parts[2];
	size_t i;

	part(&parts[0], 0, "A", 1, "w0");
	part(&parts[1], 1, "B", 2, "w1");
	parts[0].ranks[0].analysed = 0; /* no kernel_details.csv */
	cluster_merge(parts, 2, &f->ru, &f->r);
	assert_int_equal(f->r.lead, 1);
	assert_int_equal(f->r.nwarnings, 2);
	/* types of different names stay apart, by time */
	assert_string_equal(f->r.stages[STAGE_DIT].top[0].type, "Add");
	for (i = 0; i < 2; i++)
		result_release(&parts[i]);
}

/* Three ranks whose "X" differs in time, count and category: merged as
 * they are, and merged with their types folded into one rank first, the
 * tables are the same (sums, minimum, maximum, the last rank's category),
 * and so are the unmatched types. */
static void cluster_folded_types_merge_alike(void **state)
{
	struct fixture *f = *state;
	struct result a[3], b[3], rb;
	struct type_fold fold;
	const struct stage_result *x, *y;
	size_t i, k;

	for (i = 0; i < 3; i++) {
		part(&a[i], (int32_t)i, "X", 100 * (int64_t)(3 - i), "w");
		part(&b[i], (int32_t)i, "X", 100 * (int64_t)(3 - i), "w");
		a[i].stages[STAGE_DIT].top[0].cat =
		    b[i].stages[STAGE_DIT].top[0].cat = (enum category)i;
		a[i].unmatched = xcalloc(1, sizeof(struct type_stat));
		a[i].unmatched[0] = (struct type_stat){
		    xstrdup(i ? "U" : "V"), CAT_OTHER, i + 1, 7, 1, 9};
		a[i].nunmatched = 1;
		b[i].unmatched = xcalloc(1, sizeof(struct type_stat));
		b[i].unmatched[0] = a[i].unmatched[0];
		b[i].unmatched[0].type = xstrdup(a[i].unmatched[0].type);
		b[i].nunmatched = 1;
	}
	cluster_merge(a, 3, &f->ru, &f->r);
	cluster_fold_init(&fold);
	for (i = 0; i < 3; i++)
		assert_true(cluster_fold_add(&fold, &b[i]) > 0 || i);
	for (i = 0; i < 3; i++) { /* the types are in the fold now */
		type_stats_free(b[i].stages[STAGE_DIT].top,
		                b[i].stages[STAGE_DIT].ntop);
		b[i].stages[STAGE_DIT].top = NULL;
		b[i].stages[STAGE_DIT].ntop = 0;
		type_stats_free(b[i].unmatched, b[i].nunmatched);
		b[i].unmatched = NULL;
		b[i].nunmatched = 0;
	}
	cluster_fold_take(&fold, &b[1]);
	result_init(&rb);
	cluster_merge(b, 3, &f->ru, &rb);
	x = &f->r.stages[STAGE_DIT];
	y = &rb.stages[STAGE_DIT];
	assert_int_equal(x->ntop, y->ntop);
	for (k = 0; k < x->ntop; k++) {
		assert_string_equal(x->top[k].type, y->top[k].type);
		assert_true(x->top[k].cat == y->top[k].cat &&
		            x->top[k].count == y->top[k].count &&
		            x->top[k].total_ns == y->top[k].total_ns &&
		            x->top[k].min_ns == y->top[k].min_ns &&
		            x->top[k].max_ns == y->top[k].max_ns);
	}
	/* one type in three categories (one per rank) stays three lines, as
	 * the breakdown keeps a type's categories apart */
	assert_int_equal(x->ntop, 4); /* and Add, Vector, 3 x 10 ns */
	for (k = 0; k < 3; k++) {
		assert_string_equal(x->top[k].type, "X");
		assert_int_equal(x->top[k].cat, k); /* by time: 300, 200, 100 */
		assert_int_equal(x->top[k].total_ns, 100 * (int64_t)(3 - k));
	}
	assert_int_equal(f->r.nunmatched, rb.nunmatched);
	assert_int_equal(rb.nunmatched, 2);
	assert_string_equal(f->r.unmatched[0].type, rb.unmatched[0].type);
	assert_int_equal(rb.unmatched[0].count, 5); /* U: 2 + 3 */
	cluster_fold_release(&fold);
	result_release(&rb);
	for (i = 0; i < 3; i++) {
		result_release(&a[i]);
		result_release(&b[i]);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(steps_first_slow_step_is_warmup_and_left_out),
	    cmocka_unit_test(steps_later_slow_step_is_outlier),
	    cmocka_unit_test(steps_two_steps_are_never_outliers),
	    cmocka_unit_test(steps_without_device_time_give_no_share),
	    cmocka_unit_test(steps_sorted_once_match_a_sort_per_step),
	    cmocka_unit_test(steps_of_centuries_keep_their_share),
	    T(verdicts_name_the_slowest_and_worst_ranks),
	    T(verdicts_two_even_ranks_do_not_fire),
	    T(verdicts_one_rank_has_no_imbalance),
	    T(summary_skips_ranks_without_compute),
	    T(summary_needs_two_ranks_with_compute),
	    T(summary_sums_communication_of_two_ranks),
	    T(cluster_sums_types_and_keeps_one_copy_of_warnings),
	    T(cluster_lead_is_the_first_analysed_rank),
	    T(cluster_folded_types_merge_alike),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
