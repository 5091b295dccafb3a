/* Unit tests of util/checked.h: checked and saturating int64 arithmetic. */
#include "unit.h"

#include "util/checked.h"

/* ---- checked ------------------------------------------------------------- */

static void checked_add_and_sub_flag_and_saturate(void **state)
{
	int64_t r;

	(void)state;
	assert_int_equal(checked_add(1, 2, &r), 0);
	assert_int_equal(r, 3);
	assert_int_equal(checked_add(INT64_MAX, 1, &r), -1);
	assert_true(r == INT64_MAX);
	assert_int_equal(checked_add(INT64_MIN, -1, &r), -1);
	assert_true(r == INT64_MIN);
	assert_int_equal(checked_add(INT64_MAX, INT64_MIN, &r), 0);
	assert_true(r == -1);
	assert_int_equal(checked_sub(0, INT64_MIN, &r), -1);
	assert_true(r == INT64_MAX);
	assert_int_equal(checked_sub(INT64_MIN, 1, &r), -1);
	assert_true(r == INT64_MIN);
	assert_int_equal(checked_sub(-5, -7, &r), 0);
	assert_int_equal(r, 2);
	/* a 1778579413781527946 ns start minus a 0 start: fits; the sum of
	 * two such does not */
	assert_true(checked_sub_sat(1778579413781527946LL, 0) ==
	            1778579413781527946LL);
	assert_true(checked_add_sat(6000000000000000000LL,
	                            6000000000000000000LL) == INT64_MAX);
	r = INT64_MAX - 1;
	checked_accumulate(&r, 5);
	assert_true(r == INT64_MAX);
	checked_accumulate(&r, -5);
	assert_true(r == INT64_MAX - 5);
	assert_true(checked_abs_diff(INT64_MIN, 0) == INT64_MAX);
	assert_true(checked_abs_diff(INT64_MAX, INT64_MIN) == INT64_MAX);
	assert_true(checked_abs_diff(3, 10) == 7);
}

static void checked_muldiv_is_exact_or_clamped(void **state)
{
	(void)state;
	assert_true(checked_muldiv(7, 760, 10) == 532);
	assert_true(checked_muldiv(-7, 760, 10) == -532);
	/* v * 760 overflows: computed wide, the quotient is right */
	assert_true(checked_muldiv(INT64_MAX, 760, INT64_MAX) == 760);
	assert_true(checked_muldiv(INT64_MAX / 2, 760, INT64_MAX) == 379);
	assert_true(checked_muldiv(INT64_MAX, INT64_MAX, 1) == INT64_MAX);
	assert_true(checked_muldiv(INT64_MIN, INT64_MAX, 1) == INT64_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(checked_add_and_sub_flag_and_saturate),
	    cmocka_unit_test(checked_muldiv_is_exact_or_clamped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
