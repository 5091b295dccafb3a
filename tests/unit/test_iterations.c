/* Unit tests of the denoising iterations (analysis/iterations.c) on
 * hand-made kernel lists, and of the cache finding (dit_loop_share) on
 * hand-made results. Every kernel takes 10 us (attention 50 us) and the
 * next starts 1 us after it ends, so the expected times are worked out in
 * the comments. */
#include "unit.h"

#include "analysis/iterations.h"
#include "analysis/rules.h"
#include "analysis/verdicts.h"
#include "util/xalloc.h"

#define US 1000LL /* ns */

/* Kernel keys of the hand-made DiT: each with its category, FA part and
 * stage signature. */
enum {
	K_SIN,   /* head: timestep embedding (Vector) */
	K_TMM,   /* head: its MatMul */
	K_LN,    /* block: norm, DiT signature */
	K_QKV,   /* block: attention's MatMuls */
	K_FA,    /* block: attention */
	K_FFN,   /* block: the FFN's MatMul */
	K_ADD,   /* block: residual (Vector) */
	K_CAST,  /* the iteration's tail */
	K_RANDN, /* the loop's prologue */
	K_CONV,  /* a VAE kernel between two calls */
	K_COUNT
};
static const unsigned char key_cat[K_COUNT] = {
    CAT_VECTOR, CAT_MATMUL, CAT_VECTOR, CAT_MATMUL, CAT_FA,
    CAT_MATMUL, CAT_VECTOR, CAT_VECTOR, CAT_OTHER,  CAT_CONV};
static const unsigned char key_part[K_COUNT] = {0};
static const unsigned char key_sig[K_COUNT] = {
    SIG_NONE, SIG_DIT,  SIG_DIT,  SIG_DIT,  SIG_DIT,
    SIG_DIT,  SIG_NONE, SIG_NONE, SIG_NONE, SIG_VAE};

struct fixture {
	struct rules ru;
	struct kernel *k;
	unsigned char *stage;
	size_t n, cap;
	int64_t t; /* where the next kernel starts */
	int32_t step;
	int64_t fa_us;  /* attention's duration */
	int64_t gap_us; /* the host's idle time before each iteration */
	struct iter_summary s;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct err e = ERR_INIT;

	if (rules_load_builtin(&f->ru, &e))
		return -1;
	f->t = 1000 * US;
	f->step = 1;
	f->fa_us = 50;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	iter_summary_release(&f->s);
	rules_release(&f->ru);
	free(f->k);
	free(f->stage);
	free(f);
	return 0;
}

static void add(struct fixture *f, int key, enum stage st)
{
	int64_t dur = (key == K_FA ? f->fa_us : 10) * US;

	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 256;
		f->k = xrealloc(f->k, f->cap * sizeof(*f->k));
		f->stage = xrealloc(f->stage, f->cap);
	}
	f->k[f->n].start_ns = f->t;
	f->k[f->n].dur_ns = dur;
	f->k[f->n].key = (uint32_t)key;
	f->k[f->n].step = f->step;
	f->stage[f->n++] = (unsigned char)st;
	f->t += dur + 1 * US;
}

static void full_block(struct fixture *f)
{
	static const int b[] = {K_LN, K_QKV, K_FA, K_QKV, K_LN, K_FFN, K_ADD};
	size_t i;

	for (i = 0; i < ARRAY_LEN(b); i++)
		add(f, b[i], STAGE_DIT);
}

/* What kind of iteration to add. */
enum it_kind { IT_FULL, IT_DIT_HIT, IT_ATTN_HIT };

/* head (2) + 4 blocks (7 each) + tail (1) = 31 kernels; 27 of 10 us and
 * 4 attentions of 50 us with 30 gaps of 1 us: 500 us. A DiT hit runs the
 * head, the first block, one Add, the tail: 11 kernels, 160 us. An
 * attention hit runs 4 blocks of LN, LN, FFN, Add: 19 kernels, 208 us. */
static void iteration(struct fixture *f, enum it_kind kind)
{
	int b;

	f->t += f->gap_us * US;
	add(f, K_SIN, STAGE_DIT);
	add(f, K_TMM, STAGE_DIT);
	if (kind == IT_DIT_HIT) {
		full_block(f);
		add(f, K_ADD, STAGE_DIT);
	}
	for (b = 0; kind == IT_FULL && b < 4; b++)
		full_block(f);
	for (b = 0; kind == IT_ATTN_HIT && b < 4; b++) {
		add(f, K_LN, STAGE_DIT);
		add(f, K_LN, STAGE_DIT);
		add(f, K_FFN, STAGE_DIT);
		add(f, K_ADD, STAGE_DIT);
	}
	add(f, K_CAST, STAGE_DIT);
}

/* A call: the prologue, then the iterations kinds[0..n). */
static void call(struct fixture *f, const enum it_kind *kinds, size_t n)
{
	size_t i;

	add(f, K_RANDN, STAGE_DIT);
	for (i = 0; i < n; i++)
		iteration(f, kinds[i]);
}

static void find(struct fixture *f)
{
	struct iter_input in = {f->k,     f->n,    f->stage, key_cat,
	                        key_part, key_sig, K_COUNT};
	struct err e = ERR_INIT;

	assert_int_equal(iterations_find(&in, &f->ru, &f->s, &e), 0);
}

/* Two calls (Step Ids 1 and 2, a VAE kernel between) of three full
 * iterations each. */
static void two_full_calls(struct fixture *f)
{
	static const enum it_kind k[] = {IT_FULL, IT_FULL, IT_FULL};

	call(f, k, 3);
	add(f, K_CONV, STAGE_VAE);
	f->step = 2;
	call(f, k, 3);
}

static void iterations_split_full_calls(void **state)
{
	struct fixture *f = *state;
	size_t i;

	two_full_calls(f);
	find(f);
	assert_true(f->s.found);
	assert_int_equal(f->s.calls, 2);
	assert_int_equal(f->s.total, 6);
	assert_int_equal(f->s.n, 6);
	assert_int_equal(f->s.full, 6);
	assert_int_equal(f->s.head, 2);
	assert_int_equal(f->s.blocks, 4);
	assert_int_equal(f->s.median_kernels, 31);
	assert_int_equal(f->s.median_ns, 500 * US);
	/* per call: 3 x 500 us and 2 gaps of 1 us */
	assert_int_equal(f->s.loop_ns, 2 * 1502 * US);
	assert_int_equal(f->s.outliers, 0);
	assert_int_equal(f->s.cache.kind, CACHE_NONE);
	assert_int_equal(f->s.cache.hits, 0);
	/* a cache at period 2 skips 1 of each call's 3 */
	assert_int_equal(f->s.suggest_period, 2);
	assert_int_equal(f->s.would_skip, 2);
	for (i = 0; i < 6; i++) {
		const struct iteration *it = &f->s.v[i];
		assert_int_equal(it->call, i / 3);
		assert_int_equal(it->index, i % 3);
		assert_int_equal(it->step, i < 3 ? 1 : 2);
		assert_int_equal(it->kernels, 31);
		assert_int_equal(it->attention, 4);
		assert_int_equal(it->matmul, 13);
		assert_int_equal(it->blocks, 4);
		assert_int_equal(it->dur_ns, 500 * US);
		assert_int_equal(it->hit, ITER_FULL);
		assert_int_equal(it->outlier, 0);
	}
	/* the first iteration starts after the prologue: 10 us + 1 us */
	assert_int_equal(f->s.v[0].start_ns, 1011 * US);
	assert_int_equal(f->s.v[1].start_ns, 1512 * US);
}

/* A slow first iteration (attention 150 us: 900 us) is the warm-up, a
 * slow later one an outlier: 900 >= 1.5 x 500 (the median of 500 x 4,
 * 648, 900 x 2); 648 us is not. */
static void iterations_flag_warmup_and_outliers(void **state)
{
	struct fixture *f = *state;
	static const enum it_kind k[] = {IT_FULL};
	int i;

	add(f, K_RANDN, STAGE_DIT);
	for (i = 0; i < 7; i++) {
		f->fa_us = i == 0 || i == 3 ? 150 : i == 5 ? 87 : 50;
		iteration(f, k[0]);
	}
	find(f);
	assert_int_equal(f->s.total, 7);
	assert_int_equal(f->s.median_ns, 500 * US);
	assert_int_equal(f->s.v[0].dur_ns, 900 * US);
	assert_int_equal(f->s.v[0].outlier, 1);
	assert_int_equal(f->s.v[3].outlier, 2);
	/* 4 x 87 + 27 x 10 + 30 = 648 us: below 750 */
	assert_int_equal(f->s.v[5].dur_ns, 648 * US);
	assert_int_equal(f->s.v[5].outlier, 0);
	assert_int_equal(f->s.v[1].outlier, 0);
	assert_int_equal(f->s.outliers, 2);
	assert_true(f->s.outlier_factor == 1.5);
}

/* One call of 8 iterations, full every 4th: 6 DiTCache hits. */
static void iterations_find_ditcache(void **state)
{
	struct fixture *f = *state;
	enum it_kind k[8];
	size_t i;

	for (i = 0; i < 8; i++)
		k[i] = i % 4 ? IT_DIT_HIT : IT_FULL;
	call(f, k, 8);
	find(f);
	assert_int_equal(f->s.total, 8);
	assert_int_equal(f->s.full, 2);
	assert_int_equal(f->s.median_ns, 500 * US);
	for (i = 0; i < 8; i++) {
		const struct iteration *it = &f->s.v[i];
		assert_int_equal(it->hit, i % 4 ? ITER_HIT_DIT : ITER_FULL);
		assert_int_equal(it->kernels, i % 4 ? 11 : 31);
		assert_int_equal(it->blocks, i % 4 ? 1 : 4);
		assert_int_equal(it->dur_ns, (i % 4 ? 160 : 500) * US);
	}
	assert_int_equal(f->s.cache.kind, CACHE_DIT);
	assert_int_equal(f->s.cache.hits, 6);
	assert_int_equal(f->s.cache.period, 4);
	assert_true(f->s.cache.regular);
	/* 6 x (500 - 160) us */
	assert_int_equal(f->s.cache.saved_ns, 2040 * US);
}

/* One call of 6 iterations, full every 3rd: 4 AttentionCache hits (no
 * attention, the FFN's MatMuls stay: 5 of 13). */
static void iterations_find_attention_cache(void **state)
{
	struct fixture *f = *state;
	enum it_kind k[6];
	size_t i;

	for (i = 0; i < 6; i++)
		k[i] = i % 3 ? IT_ATTN_HIT : IT_FULL;
	call(f, k, 6);
	find(f);
	assert_int_equal(f->s.total, 6);
	for (i = 0; i < 6; i++) {
		const struct iteration *it = &f->s.v[i];
		assert_int_equal(it->hit,
		                 i % 3 ? ITER_HIT_ATTENTION : ITER_FULL);
		assert_int_equal(it->attention, i % 3 ? 0 : 4);
		assert_int_equal(it->matmul, i % 3 ? 5 : 13);
		assert_int_equal(it->kernels, i % 3 ? 19 : 31);
		assert_int_equal(it->dur_ns, (i % 3 ? 208 : 500) * US);
	}
	assert_int_equal(f->s.cache.kind, CACHE_ATTENTION);
	assert_int_equal(f->s.cache.hits, 4);
	assert_int_equal(f->s.cache.period, 3);
	assert_true(f->s.cache.regular);
	/* 4 x (500 - 208) us */
	assert_int_equal(f->s.cache.saved_ns, 1168 * US);
}

/* Full iterations 2 then 3 apart: the period is the more frequent gap,
 * and not regular. */
static void iterations_irregular_period(void **state)
{
	struct fixture *f = *state;
	static const enum it_kind k[] = {IT_FULL,    IT_DIT_HIT, IT_FULL,
	                                 IT_DIT_HIT, IT_FULL,    IT_DIT_HIT,
	                                 IT_DIT_HIT, IT_FULL};

	call(f, k, ARRAY_LEN(k));
	find(f);
	assert_int_equal(f->s.cache.kind, CACHE_DIT);
	assert_int_equal(f->s.cache.hits, 4);
	assert_int_equal(f->s.cache.period, 2);
	assert_false(f->s.cache.regular);
}

/* A lone hit is no active cache. */
static void iterations_one_hit_is_no_cache(void **state)
{
	struct fixture *f = *state;
	static const enum it_kind k[] = {IT_FULL, IT_DIT_HIT, IT_FULL, IT_FULL};

	call(f, k, ARRAY_LEN(k));
	find(f);
	assert_int_equal(f->s.v[1].hit, ITER_HIT_DIT);
	assert_int_equal(f->s.cache.kind, CACHE_NONE);
	assert_int_equal(f->s.cache.saved_ns, 0);
}

/* A prologue ending with the Cast every iteration ends with: the
 * sequences before the first block and before the later ones agree over
 * Cast + head, but the host's idle time before each iteration (20 us)
 * shows where iterations begin. */
static void iterations_head_starts_at_the_idle_gap(void **state)
{
	struct fixture *f = *state;
	static const enum it_kind k[] = {IT_FULL, IT_FULL, IT_FULL};
	size_t i;

	f->gap_us = 20;
	add(f, K_RANDN, STAGE_DIT);
	add(f, K_CAST, STAGE_DIT);
	for (i = 0; i < ARRAY_LEN(k); i++)
		iteration(f, k[i]);
	find(f);
	assert_int_equal(f->s.head, 2);
	assert_int_equal(f->s.total, 3);
	/* RANDN and Cast (11 us each), then 20 us idle */
	assert_int_equal(f->s.v[0].start_ns, (1000 + 22 + 20) * US);
	for (i = 0; i < 3; i++) {
		assert_int_equal(f->s.v[i].kernels, 31);
		assert_int_equal(f->s.v[i].dur_ns, 500 * US);
	}
}

/* One full iteration and hits after it: no loop (too little to tell a
 * cache from a sequence that happens to repeat). */
static void iterations_need_two_full_iterations(void **state)
{
	struct fixture *f = *state;
	static const enum it_kind k[] = {IT_FULL, IT_DIT_HIT, IT_DIT_HIT,
	                                 IT_DIT_HIT};

	call(f, k, ARRAY_LEN(k));
	find(f);
	assert_false(f->s.found);
	assert_int_equal(f->s.total, 0);
	assert_int_equal(f->s.cache.kind, CACHE_NONE);
}

/* Without a repeating block there is no loop. */
static void iterations_none_without_loop(void **state)
{
	struct fixture *f = *state;

	add(f, K_RANDN, STAGE_DIT);
	add(f, K_FA, STAGE_DIT);
	add(f, K_CONV, STAGE_VAE);
	add(f, K_CONV, STAGE_VAE);
	find(f);
	assert_false(f->s.found);
	assert_int_equal(f->s.total, 0);
	assert_null(f->s.v);
}

/* ---- the cache finding ------------------------------------------------ */

static const struct verdict *verdict(const struct result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nverdicts; i++)
		if (!strcmp(r->verdicts[i].id, id))
			return &r->verdicts[i];
	fail_msg("no verdict %s", id);
	return NULL;
}

/* A result whose loop takes loop_ms of busy_ms end to end. */
static void judge(struct fixture *f, struct result *r, int64_t loop_ms,
                  int64_t busy_ms, enum cache_kind kind, int found)
{
	result_init(r);
	r->e2e.known = 1;
	r->e2e.busy_ns = busy_ms * 1000 * US;
	r->iters.found = found;
	r->iters.loop_ns = loop_ms * 1000 * US;
	r->iters.cache.kind = kind;
	verdicts_evaluate(&f->ru, r);
}

static void cache_finding_fires_when_the_loop_dominates(void **state)
{
	struct fixture *f = *state;
	struct result r;
	const struct verdict *v;

	judge(f, &r, 60, 100, CACHE_NONE, 1);
	v = verdict(&r, "cache");
	assert_true(v->applicable);
	assert_true(v->fired);
	assert_true(v->value > 60 - 1e-9 && v->value < 60 + 1e-9);
	assert_true(v->threshold == 50);
	assert_int_equal(v->stage, STAGE_DIT);
	assert_int_equal(v->ndocs, 1);
	assert_string_equal(v->docs[0], "cache");
	result_release(&r);
	/* at the threshold: not above it */
	judge(f, &r, 50, 100, CACHE_NONE, 1);
	assert_true(verdict(&r, "cache")->applicable);
	assert_false(verdict(&r, "cache")->fired);
	result_release(&r);
}

static void cache_finding_passes_when_the_loop_is_small(void **state)
{
	struct fixture *f = *state;
	struct result r;
	const struct verdict *v;

	judge(f, &r, 30, 100, CACHE_NONE, 1);
	v = verdict(&r, "cache");
	assert_true(v->applicable);
	assert_false(v->fired);
	assert_true(v->value > 30 - 1e-9 && v->value < 30 + 1e-9);
	result_release(&r);
}

static void cache_finding_not_applicable(void **state)
{
	struct fixture *f = *state;
	struct result r;
	const struct verdict *v;

	judge(f, &r, 90, 100, CACHE_DIT, 1);
	v = verdict(&r, "cache");
	assert_false(v->applicable);
	assert_false(v->fired);
	assert_string_equal(v->na_code, "cache_active_dit");
	result_release(&r);
	judge(f, &r, 90, 100, CACHE_ATTENTION, 1);
	assert_string_equal(verdict(&r, "cache")->na_code,
	                    "cache_active_attention");
	result_release(&r);
	judge(f, &r, 90, 100, CACHE_NONE, 0);
	v = verdict(&r, "cache");
	assert_false(v->applicable);
	assert_string_equal(v->na_code, "no_loop");
	assert_non_null(v->na_reason);
	result_release(&r);
}

/* The rules refuse dit_loop_share on another stage than the DiT. */
static void cache_rule_needs_the_dit(void **state)
{
	struct rules r;
	struct err e = ERR_INIT;
	static const char text[] =
	    "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": \"c\", "
	    "\"stage\": \"vae\", \"metric\": \"dit_loop_share\", \"above\": "
	    "50, \"title\": \"t\", \"recommendation\": \"r\", \"docs\": "
	    "[\"cache\"]}]}";

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(
	    rules_load_text(&r, "mine.json", text, strlen(text), &e), -1);
	assert_non_null(strstr(e.msg, "dit_loop_share is the DiT's"));
	rules_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(iterations_split_full_calls, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(iterations_flag_warmup_and_outliers,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(iterations_find_ditcache, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(iterations_find_attention_cache,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(iterations_irregular_period, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(iterations_one_hit_is_no_cache,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(iterations_none_without_loop, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(iterations_need_two_full_iterations,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(
	        iterations_head_starts_at_the_idle_gap, setup, teardown),
	    cmocka_unit_test_setup_teardown(
	        cache_finding_fires_when_the_loop_dominates, setup, teardown),
	    cmocka_unit_test_setup_teardown(
	        cache_finding_passes_when_the_loop_is_small, setup, teardown),
	    cmocka_unit_test_setup_teardown(cache_finding_not_applicable, setup,
	                                    teardown),
	    cmocka_unit_test(cache_rule_needs_the_dit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
