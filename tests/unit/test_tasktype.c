/* The task-type table (core/tasktype.h): docs/task-types.md lists exactly
 * its rows with their classes, in its order; lookups are exact; the
 * unknown tally keeps its caps. */
#include "unit.h"

#include "core/tasktype.h"
#include "util/strbuf.h"

#include <limits.h>

#define DOC SDPERF_TEST_DATA "/../../docs/task-types.md"

static void the_doc_lists_the_table(void **state)
{
	FILE *f = fopen(DOC, "r");
	char line[512];
	size_t i = 0;
	int in_table = 0;
	enum task_class c;
	const char *name;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *a, *b, *cls, *end;
		if (!strncmp(line, "| task type | class |", 20)) {
			in_table = 1;
			continue;
		}
		if (!in_table || strncmp(line, "| `", 3))
			continue;
		a = line + 3;
		b = strstr(a, "` | ");
		assert_non_null(b);
		*b = '\0';
		cls = b + 4;
		end = strstr(cls, " |");
		assert_non_null(end);
		*end = '\0';
		name = task_type_at(i++, &c);
		if (!name)
			fail_msg("docs row '%s' past the table's end", a);
		if (strcmp(name, a) || strcmp(task_class_name(c), cls))
			fail_msg("docs row %zu '%s' (%s), the table '%s' (%s)",
			         i, a, cls, name, task_class_name(c));
		assert_int_equal(task_class_of(a, strlen(a)), c);
	}
	fclose(f);
	assert_null(task_type_at(i, &c)); /* every row in the doc */
	assert_true(i > 50);
}

static void lookups_are_exact(void **state)
{
	(void)state;
	assert_int_equal(task_class_of("AI_CORE", 7), TASK_KERNEL);
	assert_int_equal(task_class_of("AI_COR", 6), TASK_UNKNOWN);
	assert_int_equal(task_class_of("ai_core", 7), TASK_UNKNOWN);
	assert_int_equal(task_class_of("Notify Wait", 11), TASK_COMM);
	assert_int_equal(task_class_of("EVENT_WAIT", 10), TASK_RUNTIME);
	assert_int_equal(task_class_of("Other", 5), TASK_BY_NAME);
	assert_int_equal(task_class_of("", 0), TASK_UNKNOWN);
}

static void the_unknown_tally_is_capped(void **state)
{
	struct task_unknowns u, v;
	char name[32];
	char longname[200];
	int i;

	(void)state;
	memset(&u, 0, sizeof(u));
	memset(&v, 0, sizeof(v));
	for (i = 0; i < TASK_UNKNOWN_MAX + 3; i++) {
		snprintf(name, sizeof(name), "T%d", i);
		task_unknown_add(&u, name, strlen(name), 10);
		task_unknown_add(&u, name, strlen(name), 5);
	}
	assert_int_equal(u.n, TASK_UNKNOWN_MAX);
	assert_int_equal(u.v[0].count, 2);
	assert_int_equal(u.v[0].dur_ns, 15);
	assert_int_equal(u.more_count, 6);
	assert_int_equal(u.more_ns, 45);
	/* a long name is cut; a NUL inside goes to the rest */
	memset(longname, 'x', sizeof(longname));
	task_unknown_add(&v, longname, sizeof(longname), 1);
	assert_int_equal(strlen(v.v[0].name), TASK_UNKNOWN_NAME_MAX);
	task_unknown_add(&v, "a\0b", 3, 1);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.more_count, 1);
	/* forged times: the sum stops at LLONG_MAX */
	task_unknown_add(&v, longname, sizeof(longname), LLONG_MAX);
	task_unknown_add(&v, longname, sizeof(longname), LLONG_MAX);
	assert_true(v.v[0].dur_ns == LLONG_MAX);
	task_unknowns_merge(&v, &u);
	assert_int_equal(v.n, TASK_UNKNOWN_MAX);
	assert_int_equal(v.more_count, 1 + 6 + 2); /* T15 did not fit */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(the_doc_lists_the_table),
	    cmocka_unit_test(lookups_are_exact),
	    cmocka_unit_test(the_unknown_tally_is_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
