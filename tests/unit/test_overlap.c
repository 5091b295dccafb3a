/* Unit tests of analysis/overlap.c: interval union, length, intersection
 * and the exposed communication of each stage. */
#include "unit.h"

#include "analysis/overlap.h"
#include "analysis/result.h"

#define IV(a, b)                                                               \
	{                                                                      \
		(a), (b)                                                       \
	}

static void assert_intervals(const struct interval *v, size_t n,
                             const struct interval *want, size_t nwant)
{
	size_t i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		if (v[i].a != want[i].a || v[i].b != want[i].b)
			fail_msg("interval %zu: [%lld, %lld), expected "
			         "[%lld, %lld)",
			         i, (long long)v[i].a, (long long)v[i].b,
			         (long long)want[i].a, (long long)want[i].b);
}

/* ---- overlap_union / overlap_length ------------------------------------ */

static void overlap_union_of_nothing_is_empty(void **state)
{
	struct interval v[1] = {IV(7, 9)};

	(void)state;
	assert_int_equal(overlap_union(v, 0), 0);
	assert_int_equal(overlap_length(v, 0), 0);
	/* nothing was touched */
	assert_int_equal(v[0].a, 7);
}

static void overlap_union_sorts_disjoint_intervals(void **state)
{
	struct interval v[] = {IV(10, 20), IV(0, 5), IV(30, 40)};
	static const struct interval want[] = {IV(0, 5), IV(10, 20),
	                                       IV(30, 40)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_intervals(v, n, want, ARRAY_LEN(want));
	assert_int_equal(overlap_length(v, n), 25);
}

static void overlap_union_swallows_nested_intervals(void **state)
{
	struct interval v[] = {IV(0, 100), IV(10, 20), IV(30, 40), IV(99, 100)};
	static const struct interval want[] = {IV(0, 100)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_intervals(v, n, want, 1);
	assert_int_equal(overlap_length(v, n), 100);
}

static void overlap_union_merges_touching_intervals(void **state)
{
	struct interval v[] = {IV(10, 20), IV(0, 10), IV(20, 25), IV(26, 30)};
	static const struct interval want[] = {IV(0, 25), IV(26, 30)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_intervals(v, n, want, ARRAY_LEN(want));
	assert_int_equal(overlap_length(v, n), 29);
}

static void overlap_union_merges_a_chain_of_overlaps(void **state)
{
	struct interval v[] = {IV(0, 10), IV(5, 15),  IV(14, 30),
	                       IV(0, 3),  IV(40, 50), IV(45, 46)};
	static const struct interval want[] = {IV(0, 30), IV(40, 50)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_intervals(v, n, want, ARRAY_LEN(want));
	assert_int_equal(overlap_length(v, n), 40);
}

static void overlap_union_keeps_zero_length_intervals_harmless(void **state)
{
	struct interval v[] = {IV(5, 5), IV(5, 5), IV(10, 20), IV(15, 15)};
	static const struct interval want[] = {IV(5, 5), IV(10, 20)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_intervals(v, n, want, ARRAY_LEN(want));
	assert_int_equal(overlap_length(v, n), 10);
}

static void overlap_union_handles_epoch_nanoseconds(void **state)
{
	int64_t t0 = INT64_C(1736413971558972912);
	struct interval v[] = {IV(t0 + 500, t0 + 1500), IV(t0, t0 + 1000)};
	size_t n;

	(void)state;
	n = overlap_union(v, ARRAY_LEN(v));
	assert_int_equal(n, 1);
	assert_int_equal(v[0].a, t0);
	assert_int_equal(v[0].b, t0 + 1500);
	assert_int_equal(overlap_length(v, n), 1500);
}

/* ---- overlap_intersection ---------------------------------------------- */

static void overlap_intersection_table(void **state)
{
	static const struct interval x1[] = {IV(0, 10), IV(20, 30)},
	                             y1[] = {IV(5, 25)};
	static const struct interval x2[] = {IV(0, 10)}, y2[] = {IV(10, 20)};
	static const struct interval x3[] = {IV(0, 100)},
	                             y3[] = {IV(10, 20), IV(30, 40),
	                                     IV(95, 120)};
	static const struct interval x4[] = {IV(0, 5), IV(10, 15), IV(20, 25)},
	                             y4[] = {IV(0, 5), IV(10, 15), IV(20, 25)};
	static const struct interval x5[] = {IV(0, 5)}, y5[] = {IV(6, 9)};

	(void)state;
	assert_int_equal(overlap_intersection(x1, 2, y1, 1), 10);
	assert_int_equal(overlap_intersection(y1, 1, x1, 2), 10);
	/* touching is not overlapping */
	assert_int_equal(overlap_intersection(x2, 1, y2, 1), 0);
	/* nested, and one sticking out at the end */
	assert_int_equal(overlap_intersection(x3, 1, y3, 3), 25);
	assert_int_equal(overlap_intersection(y3, 3, x3, 1), 25);
	/* identical lists */
	assert_int_equal(overlap_intersection(x4, 3, y4, 3), 15);
	/* disjoint */
	assert_int_equal(overlap_intersection(x5, 1, y5, 1), 0);
	/* empty on either side */
	assert_int_equal(overlap_intersection(x1, 0, y1, 1), 0);
	assert_int_equal(overlap_intersection(x1, 2, y1, 0), 0);
}

/* ---- overlap_stage_comm ------------------------------------------------ */

enum { K_MATMUL, K_COMM, K_VEC };
static const unsigned char key_cat[] = {CAT_MATMUL, CAT_COMM, CAT_VECTOR};

static struct kernel kern(int64_t a, int64_t b, uint32_t key)
{
	struct kernel k;

	k.start_ns = a;
	k.dur_ns = b - a;
	k.key = key;
	k.step = STEP_NONE;
	return k;
}

static void overlap_stage_comm_measures_exposed_time_per_stage(void **state)
{
	/*   DiT: compute [0,100) [150,200) [190,195); comm [50,180) [170,260)
	 *        comm union [50,260) = 210; hidden: [50,100) + [150,200)
	 *        = 100; exposed 110. The VAE compute kernel at [200,260)
	 *        overlaps the DiT's comm in time but is another stage's work.
	 *   VAE: comm [1000,1100) alone: union 100, exposed 100.
	 *   text encoder: compute only. other: no kernels. */
	struct kernel k[] = {
	    kern(0, 100, K_MATMUL),   kern(50, 180, K_COMM),
	    kern(150, 200, K_VEC),    kern(170, 260, K_COMM),
	    kern(190, 195, K_MATMUL), kern(200, 260, K_MATMUL),
	    kern(1000, 1100, K_COMM), kern(2000, 2100, K_MATMUL),
	};
	static const unsigned char stage[] = {
	    STAGE_DIT, STAGE_DIT, STAGE_DIT, STAGE_DIT,
	    STAGE_DIT, STAGE_VAE, STAGE_VAE, STAGE_TEXT_ENCODER,
	};
	struct result r;

	(void)state;
	result_init(&r);
	overlap_stage_comm(k, ARRAY_LEN(k), stage, key_cat, &r);
	assert_int_equal(r.stages[STAGE_DIT].comm_union_ns, 210);
	assert_int_equal(r.stages[STAGE_DIT].exposed_comm_ns, 110);
	assert_int_equal(r.stages[STAGE_VAE].comm_union_ns, 100);
	assert_int_equal(r.stages[STAGE_VAE].exposed_comm_ns, 100);
	assert_int_equal(r.stages[STAGE_TEXT_ENCODER].comm_union_ns, 0);
	assert_int_equal(r.stages[STAGE_TEXT_ENCODER].exposed_comm_ns, 0);
	assert_int_equal(r.stages[STAGE_OTHER].comm_union_ns, 0);
	assert_int_equal(r.stages[STAGE_OTHER].exposed_comm_ns, 0);
	result_release(&r);
}

static void overlap_stage_comm_fully_hidden_comm_is_not_exposed(void **state)
{
	struct kernel k[] = {
	    kern(0, 1000, K_MATMUL),
	    kern(100, 200, K_COMM),
	    kern(150, 900, K_COMM),
	};
	static const unsigned char stage[] = {STAGE_DIT, STAGE_DIT, STAGE_DIT};
	struct result r;

	(void)state;
	result_init(&r);
	overlap_stage_comm(k, ARRAY_LEN(k), stage, key_cat, &r);
	assert_int_equal(r.stages[STAGE_DIT].comm_union_ns, 800);
	assert_int_equal(r.stages[STAGE_DIT].exposed_comm_ns, 0);
	result_release(&r);
}

static void overlap_stage_comm_needs_no_interval_lists(void **state)
{
	/* comm [0,50) [40,100) [300,400); compute [90,320) -> union 200,
	 * hidden [90,100) + [300,320) = 30, exposed 170 (sorted by start, as
	 * the analysis hands them over) */
	struct kernel k[] = {
	    kern(0, 50, K_COMM),
	    kern(40, 100, K_COMM),
	    kern(90, 320, K_VEC),
	    kern(300, 400, K_COMM),
	};
	static const unsigned char stage[] = {STAGE_OTHER, STAGE_OTHER,
	                                      STAGE_OTHER, STAGE_OTHER};
	struct result r;

	(void)state;
	result_init(&r);
	overlap_stage_comm(k, ARRAY_LEN(k), stage, key_cat, &r);
	assert_int_equal(r.stages[STAGE_OTHER].comm_union_ns, 200);
	assert_int_equal(r.stages[STAGE_OTHER].exposed_comm_ns, 170);
	assert_int_equal(r.stages[STAGE_DIT].comm_union_ns, 0);
	result_release(&r);
}

/* The one-pass sweep against the interval lists (union, then
 * intersection) on random timelines: nested, touching, zero-length
 * intervals, two stages interleaved. */
static void overlap_stage_comm_agrees_with_interval_lists(void **state)
{
	enum { N = 400 };
	struct kernel k[N];
	unsigned char stage[N];
	struct interval c[N], w[N];
	uint64_t seed = 88172645463325252ull;
	int round, i;

	(void)state;
	for (round = 0; round < 200; round++) {
		int64_t t = 0;
		struct result r;
		size_t nc = 0, nw = 0;
		for (i = 0; i < N; i++) {
			seed ^= seed << 13, seed ^= seed >> 7,
			    seed ^= seed << 17;
			t += (int64_t)(seed % 7);
			k[i] = kern(
			    t,
			    t + (int64_t)((seed >> 8) % (round % 5 ? 40 : 400)),
			    (uint32_t)((seed >> 20) % 3));
			stage[i] = (unsigned char)((seed >> 30) % 2);
		}
		result_init(&r);
		overlap_stage_comm(k, N, stage, key_cat, &r);
		for (i = 0; i < N; i++) {
			struct interval iv = {k[i].start_ns,
			                      k[i].start_ns + k[i].dur_ns};
			if (stage[i] != STAGE_VAE)
				continue;
			if (key_cat[k[i].key] == CAT_COMM)
				c[nc++] = iv;
			else
				w[nw++] = iv;
		}
		nc = overlap_union(c, nc);
		nw = overlap_union(w, nw);
		assert_int_equal(r.stages[STAGE_VAE].comm_union_ns,
		                 overlap_length(c, nc));
		assert_int_equal(r.stages[STAGE_VAE].exposed_comm_ns,
		                 overlap_length(c, nc) -
		                     overlap_intersection(c, nc, w, nw));
		result_release(&r);
	}
}

static void overlap_stage_comm_with_no_kernels(void **state)
{
	struct result r;
	int s;

	(void)state;
	result_init(&r);
	overlap_stage_comm(NULL, 0, NULL, key_cat, &r);
	for (s = 0; s < STAGE_COUNT; s++) {
		assert_int_equal(r.stages[s].comm_union_ns, 0);
		assert_int_equal(r.stages[s].exposed_comm_ns, 0);
	}
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(overlap_union_of_nothing_is_empty),
	    cmocka_unit_test(overlap_union_sorts_disjoint_intervals),
	    cmocka_unit_test(overlap_union_swallows_nested_intervals),
	    cmocka_unit_test(overlap_union_merges_touching_intervals),
	    cmocka_unit_test(overlap_union_merges_a_chain_of_overlaps),
	    cmocka_unit_test(
	        overlap_union_keeps_zero_length_intervals_harmless),
	    cmocka_unit_test(overlap_union_handles_epoch_nanoseconds),
	    cmocka_unit_test(overlap_intersection_table),
	    cmocka_unit_test(
	        overlap_stage_comm_measures_exposed_time_per_stage),
	    cmocka_unit_test(
	        overlap_stage_comm_fully_hidden_comm_is_not_exposed),
	    cmocka_unit_test(overlap_stage_comm_needs_no_interval_lists),
	    cmocka_unit_test(overlap_stage_comm_agrees_with_interval_lists),
	    cmocka_unit_test(overlap_stage_comm_with_no_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
