/* Unit tests of util/glob.c: the glob matcher against its definition and
 * on patterns that make a backtracking matcher quadratic. */
#include "unit.h"

#include <ctype.h>

#include "util/glob.h"
#include "util/xalloc.h"

/* ---- glob ---------------------------------------------------------------- */

/* The matcher's definition, by dynamic programming: m[i][j] = pattern
 * p[i..] matches s[j..]. */
static int glob_reference(const char *p, const char *s)
{
	size_t lp = strlen(p), ls = strlen(s), i, j;
	static unsigned char m[64][64];

	assert_true(lp < 63 && ls < 63);
	for (i = lp + 1; i-- > 0;)
		for (j = ls + 1; j-- > 0;) {
			if (i == lp)
				m[i][j] = j == ls;
			else if (p[i] == '*')
				m[i][j] =
				    m[i + 1][j] || (j < ls && m[i][j + 1]);
			else
				m[i][j] = j < ls &&
				          (p[i] == '?' ||
				           tolower((unsigned char)p[i]) ==
				               tolower((unsigned char)s[j])) &&
				          m[i + 1][j + 1];
		}
	return m[0][0];
}

static void glob_agrees_with_its_definition(void **state)
{
	/* short random patterns over a tiny alphabet: every path (greedy,
	 * budget spent, automaton) meets the stars, '?' and case */
	static const char pa[] = "aAb*?", sa[] = "abAB";
	char p[16], s[40];
	unsigned seed = 7;
	int round;
	size_t i, lp, ls;

	(void)state;
	for (round = 0; round < 200000; round++) {
		seed = seed * 1103515245u + 12345u;
		lp = (seed >> 16) % 12;
		seed = seed * 1103515245u + 12345u;
		ls = (seed >> 16) % 36;
		for (i = 0; i < lp; i++) {
			seed = seed * 1103515245u + 12345u;
			p[i] = pa[(seed >> 16) % 5];
		}
		p[lp] = '\0';
		for (i = 0; i < ls; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = sa[(seed >> 16) % 4];
		}
		s[ls] = '\0';
		if (glob_match(p, s) != glob_reference(p, s))
			fail_msg("glob_match('%s', '%s') != %d", p, s,
			         glob_reference(p, s));
	}
}

static void glob_backtracking_patterns_match_right(void **state)
{
	/* "*" then 1000 literals against 64 KiB: the two-pointer match runs
	 * out of budget and the automaton decides */
	char *p = xmalloc(1100), *s = xmalloc(70000);
	size_t i;

	(void)state;
	p[0] = '*';
	memset(p + 1, 'a', 1000);
	memcpy(p + 1001, "b", 2);
	memset(s, 'a', 65536);
	s[65536] = '\0';
	assert_int_equal(glob_match(p, s), 0);
	memcpy(s + 65536, "B", 2); /* case-insensitive */
	assert_int_equal(glob_match(p, s), 1);
	s[1000] = 'x'; /* the match needs 1000 a's right before the b */
	assert_int_equal(glob_match(p, s), 1);
	s[65536 - 999] = 'x'; /* under the pattern's second 'a' */
	assert_int_equal(glob_match(p, s), 0);
	p[2] = '?';
	assert_int_equal(glob_match(p, s), 1);
	/* "*a*a*...*a" (500 stars) against 64 KiB of 'b' then one 'a' */
	memset(s, 'b', 65536);
	memcpy(s + 65536, "a", 2);
	for (i = 0; i < 500; i++) {
		p[2 * i] = '*';
		p[2 * i + 1] = 'a';
	}
	p[1000] = '\0';
	assert_int_equal(glob_match(p, s), 0);
	p[2] = '\0'; /* "*a" */
	assert_int_equal(glob_match(p, s), 1);
	free(p);
	free(s);
}

static void glob_refuses_overlong_patterns(void **state)
{
	char p[GLOB_MAX_PATTERN + 2];

	(void)state;
	memset(p, '*', sizeof(p) - 1);
	p[sizeof(p) - 1] = '\0';
	assert_int_equal(glob_match(p, "x"), 0); /* 1025 bytes */
	p[GLOB_MAX_PATTERN] = '\0';
	assert_int_equal(glob_match(p, "x"), 1); /* 1024 bytes */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(glob_agrees_with_its_definition),
	    cmocka_unit_test(glob_backtracking_patterns_match_right),
	    cmocka_unit_test(glob_refuses_overlong_patterns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
