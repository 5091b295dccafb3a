/* Unit tests of util/membudget.c (the --max-memory account) and of the
 * readers that charge it: a refused charge is an input error naming the
 * file and what was too large, and every charge is given back. */
#include "unit.h"

#include <pthread.h>

#include "analysis/result.h"
#include "input/kernels.h"
#include "input/steptrace.h"
#include "input/traceprof.h"
#include "util/membudget.h"
#include "util/strbuf.h"

#define MIB ((uint64_t)1 << 20)

static int unlimited(void **state)
{
	(void)state;
	membudget_set(MEMBUDGET_UNLIMITED);
	return 0;
}

/* ---- the account -------------------------------------------------------- */

static void membudget_parse_sizes(void **state)
{
	static const struct {
		const char *text;
		uint64_t want; /* 0: rejected */
	} t[] = {
	    {"4G", 4ull << 30},
	    {"4GiB", 4ull << 30},
	    {"512M", 512ull << 20},
	    {"512mb", 512ull << 20},
	    {"1.5G", 3ull << 29},
	    {"1T", 1ull << 40},
	    {"2048K", 2ull << 20},
	    {"1048576", 1ull << 20},
	    {"1k", 0},
	    {"1048575", 0},
	    {"", 0},
	    {"G", 0},
	    {"-1G", 0},
	    {"4X", 0},
	    {"4GG", 0},
	    {"0", 0},
	    {"100000000000T", 0},
	};
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		v = 0;
		if (!t[i].want) {
			if (!membudget_parse(t[i].text, &v))
				fail_msg("'%s' accepted as %llu", t[i].text,
				         (unsigned long long)v);
			continue;
		}
		if (membudget_parse(t[i].text, &v))
			fail_msg("'%s' rejected", t[i].text);
		assert_int_equal(v, t[i].want);
	}
	/* a share of RAM: half of it is the default's upper bound */
	assert_int_equal(membudget_parse("50%", &v), 0);
	assert_true(v >= membudget_default() || v >= (1ull << 29));
	assert_int_not_equal(membudget_parse("0%", &v), 0);
	assert_int_not_equal(membudget_parse("101%", &v), 0);
}

static void membudget_default_is_a_share_of_memory(void **state)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t d = membudget_default();

	(void)state;
	assert_true(d >= 16 * MIB);
	if (pages > 0 && page > 0)
		assert_true(d <= (uint64_t)pages * (uint64_t)page / 2);
}

static void membudget_charges_up_to_the_limit(void **state)
{
	(void)state;
	membudget_set(10 * MIB);
	assert_int_equal(membudget_limit(), 10 * MIB);
	assert_int_equal(membudget_charge(4 * MIB), 0);
	assert_int_equal(membudget_charge(6 * MIB), 0);
	assert_int_equal(membudget_used(), 10 * MIB);
	/* refused: nothing charged */
	assert_int_equal(membudget_charge(1), -1);
	assert_int_equal(membudget_charge(UINT64_MAX), -1);
	assert_int_equal(membudget_used(), 10 * MIB);
	membudget_release(6 * MIB);
	assert_int_equal(membudget_used(), 4 * MIB);
	assert_int_equal(membudget_charge(5 * MIB), 0);
	assert_int_equal(membudget_peak(), 10 * MIB);
	membudget_release(9 * MIB);
	assert_int_equal(membudget_used(), 0);
	membudget_release(1); /* never below zero */
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
}

static void membudget_fail_names_what_and_the_limit(void **state)
{
	struct err e = ERR_INIT;

	(void)state;
	membudget_set(64 * MIB);
	assert_int_equal(membudget_charge(60 * MIB), 0);
	assert_int_equal(membudget_fail(&e, 12 * MIB, "%s: kernel table",
	                                "run/kernel_details.csv"),
	                 -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg,
	                    "run/kernel_details.csv: kernel table: needs 12 "
	                    "MiB more memory than --max-memory allows "
	                    "(limit 64 MiB, 60 MiB in use)");
	membudget_set(MEMBUDGET_UNLIMITED);
}

static void membudget_grow_keeps_an_eighth_and_refuses_cleanly(void **state)
{
	uint64_t *v = NULL;
	size_t alloc = 0, i;

	(void)state;
	membudget_set(MIB);
	for (i = 1; i <= 100000; i++) {
		assert_int_equal(membudget_grow(&v, sizeof(*v), i, &alloc), 0);
		v[i - 1] = i;
		assert_true(alloc >= i);
		assert_true(alloc <= 16 || alloc <= i + i / 8 + 1);
		assert_int_equal(membudget_used(), alloc * sizeof(*v));
	}
	/* over the limit: refused, the array and the account unchanged */
	assert_int_equal(membudget_grow(&v, sizeof(*v), MIB, &alloc), -1);
	assert_int_equal(membudget_used(), alloc * sizeof(*v));
	assert_int_equal(v[99999], 100000);
	membudget_shrink(&v, sizeof(*v), 10, &alloc);
	assert_int_equal(alloc, 10);
	assert_int_equal(membudget_used(), 10 * sizeof(*v));
	assert_int_equal(v[9], 10);
	free(v);
	membudget_set(MEMBUDGET_UNLIMITED);
}

/* Ranks charge from several threads at once: the account stays exact
 * and never goes over the limit. */
struct hammer {
	int ok, refused;
};

static void *hammer(void *arg)
{
	struct hammer *h = arg;
	int i;

	for (i = 0; i < 200000; i++) {
		if (membudget_charge(3) == 0) {
			h->ok++;
			if (membudget_used() > 300000)
				h->refused = -1000000; /* over the limit */
			if (i % 2)
				membudget_release(3), h->ok--;
		} else {
			h->refused++;
		}
	}
	return NULL;
}

static void membudget_is_thread_safe(void **state)
{
	enum { T = 4 };
	pthread_t tid[T];
	struct hammer h[T];
	uint64_t ok = 0;
	int i, refused = 0;

	(void)state;
	memset(h, 0, sizeof(h));
	membudget_set(300000);
	for (i = 0; i < T; i++)
		assert_int_equal(pthread_create(&tid[i], NULL, hammer, &h[i]),
		                 0);
	for (i = 0; i < T; i++) {
		pthread_join(tid[i], NULL);
		ok += (uint64_t)h[i].ok;
		refused += h[i].refused;
	}
	assert_true(refused > 0); /* the limit was reached */
	assert_int_equal(membudget_used(), ok * 3);
	assert_true(membudget_peak() <= 300000);
	membudget_set(MEMBUDGET_UNLIMITED);
}

/* ---- readers ------------------------------------------------------------ */

/* K,1,1 rows: the smallest a kernel row gets. */
static void kernels_refused_by_the_budget_name_the_file(void **state)
{
	struct strbuf csv = STRBUF_INIT;
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&csv, "Name,Start Time(us),Duration(us)\n");
	for (i = 0; i < 200000; i++)
		strbuf_adds(&csv, "K,1,1\n");
	membudget_set(4 * MIB);
	kernel_table_init(&kt);
	assert_int_equal(
	    kernels_read_mem("k.csv", csv.buf, csv.len, NULL, &kt, &info, &e),
	    -1);
	assert_int_equal(e.code, ERR_INPUT);
	if (!strstr(e.msg, "k.csv:") || !strstr(e.msg, "kernel table") ||
	    !strstr(e.msg, "--max-memory"))
		fail_msg("%s", e.msg);
	/* at most KERNEL_COST_BYTES per kernel read, slack included */
	assert_true(membudget_used() <= 4 * MIB);
	assert_true(membudget_used() >= (uint64_t)kt.n * KERNEL_COST_BYTES);
	kernel_table_release(&kt);
	kernels_info_release(&info);
	assert_int_equal(membudget_used(), 0);

	/* enough memory: the table is cut to 32 bytes a kernel */
	membudget_set(64 * MIB);
	kernel_table_init(&kt);
	memset(&info, 0, sizeof(info));
	assert_int_equal(
	    kernels_read_mem("k.csv", csv.buf, csv.len, NULL, &kt, &info, &e),
	    0);
	assert_int_equal(kt.n, 200000);
	assert_int_equal(kt.alloc, kt.n);
	assert_true(membudget_used() <= 200000 * KERNEL_COST_BYTES + 4096);
	kernel_table_release(&kt);
	kernels_info_release(&info);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
	strbuf_release(&csv);
}

static void kernels_cap_distinct_types(void **state)
{
	struct strbuf csv = STRBUF_INIT;
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&csv, "Name,Type,Start Time(us),Duration(us)\n");
	for (i = 0; i <= KERNELS_MAX_TYPES; i++)
		strbuf_addf(&csv, "k,T%zu,1,1\n", i);
	kernel_table_init(&kt);
	assert_int_equal(
	    kernels_read_mem("k.csv", csv.buf, csv.len, NULL, &kt, &info, &e),
	    -1);
	assert_string_equal(e.msg,
	                    "k.csv:65538: more than 65,536 distinct kernel "
	                    "types (Type and Accelerator Core pairs): not a "
	                    "profile sdperf can summarise; the type that went "
	                    "over: 'T65536'");
	kernel_table_release(&kt);
	kernels_info_release(&info);

	/* the names' text is capped too: 17 types of 1 MiB */
	strbuf_reset(&csv);
	strbuf_adds(&csv, "Name,Type,Start Time(us),Duration(us)\n");
	for (i = 0; i < 17; i++) {
		strbuf_addf(&csv, "k,%zu", i);
		strbuf_addchars(&csv, 'T', (1u << 20) - 8);
		strbuf_adds(&csv, ",1,1\n");
	}
	kernel_table_init(&kt);
	memset(&info, 0, sizeof(info));
	err_clear(&e);
	assert_int_equal(
	    kernels_read_mem("k.csv", csv.buf, csv.len, NULL, &kt, &info, &e),
	    -1);
	if (!strstr(e.msg, "k.csv:18: more than 16 MiB of distinct kernel "
	                   "type names"))
		fail_msg("%s", e.msg);
	kernel_table_release(&kt);
	kernels_info_release(&info);
	strbuf_release(&csv);
}

static void kernels_cap_header_names(void **state)
{
	struct strbuf csv = STRBUF_INIT;
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;

	(void)state;
	strbuf_adds(&csv, "Name,Start Time(us),Duration(us),");
	strbuf_addchars(&csv, 'h', 5000);
	strbuf_adds(&csv, "\nK,1,1,x\n");
	kernel_table_init(&kt);
	assert_int_equal(
	    kernels_read_mem("k.csv", csv.buf, csv.len, NULL, &kt, &info, &e),
	    -1);
	if (!strstr(e.msg, "k.csv:1: column 4: header name longer than 4096 "
	                   "bytes: 'hhhh"))
		fail_msg("%s", e.msg);
	kernel_table_release(&kt);
	kernels_info_release(&info);
	strbuf_release(&csv);
}

static void steptrace_rows_refused_by_the_budget(void **state)
{
	struct strbuf csv = STRBUF_INIT;
	struct steptrace st;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&csv, "Step,Computing,Communication(Not Overlapped),"
	                  "Overlapped,Communication,Free,Stage,Bubble,"
	                  "Communication(Not Overlapped and Exclude "
	                  "Receive)\n");
	for (i = 0; i < 100000; i++)
		strbuf_addf(&csv, "%zu,1,1,1,1,1,1,1,1\n", i);
	membudget_set(2 * MIB);
	assert_int_equal(steptrace_read_mem("s.csv", csv.buf, csv.len, &st, &e),
	                 -1);
	if (!strstr(e.msg, "s.csv:") || !strstr(e.msg, "steps (") ||
	    !strstr(e.msg, "--max-memory"))
		fail_msg("%s", e.msg);
	steptrace_release(&st);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
	strbuf_release(&csv);
}

/* A trace read alone charges its kernel table as kernels_read does (the
 * same reserve and fit), names the file when refused, and gives every
 * charge back. */
static void traceprof_refused_by_the_budget_name_the_file(void **state)
{
	struct strbuf t = STRBUF_INIT;
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&t, "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,"
	                "\"args\":{\"name\":\"Ascend Hardware\"}}");
	for (i = 0; i < 200000; i++)
		strbuf_addf(&t,
		            ",{\"ph\":\"X\",\"name\":\"Add\",\"pid\":7,"
		            "\"ts\":\"%zu\",\"dur\":1}",
		            i);
	strbuf_adds(&t, "]");
	membudget_set(4 * MIB);
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read_mem("t.json", t.buf, t.len, 0, NULL,
	                                    NULL, &kt, &tp, &e),
	                 -1);
	if (!strstr(e.msg, "t.json: kernel table (") ||
	    !strstr(e.msg, "--max-memory"))
		fail_msg("%s", e.msg);
	traceprof_release(&tp);
	kernel_table_release(&kt);
	assert_int_equal(membudget_used(), 0);

	membudget_set(64 * MIB);
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read_mem("t.json", t.buf, t.len, 0, NULL,
	                                    NULL, &kt, &tp, &e),
	                 0);
	assert_int_equal(kt.n, 200000);
	assert_int_equal(kt.alloc, kt.n); /* cut to size */
	assert_true(membudget_used() <= 200000 * KERNEL_COST_BYTES + 4096);
	traceprof_release(&tp);
	kernel_table_release(&kt);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
	strbuf_release(&t);
}

/* The same caps on distinct kernel types as kernel_details.csv. */
static void traceprof_caps_distinct_types(void **state)
{
	struct strbuf t = STRBUF_INIT;
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&t, "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,"
	                "\"args\":{\"name\":\"Ascend Hardware\"}}");
	for (i = 0; i <= KERNELS_MAX_TYPES; i++)
		strbuf_addf(&t,
		            ",{\"ph\":\"X\",\"name\":\"T%zux\",\"pid\":7,"
		            "\"ts\":\"%zu\",\"dur\":1}",
		            i, i);
	strbuf_adds(&t, "]");
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read_mem("t.json", t.buf, t.len, 0, NULL,
	                                    NULL, &kt, &tp, &e),
	                 -1);
	assert_string_equal(e.msg, "t.json: more than 65,536 distinct kernel "
	                           "types: not a profile sdperf can "
	                           "summarise");
	traceprof_release(&tp);
	kernel_table_release(&kt);
	assert_int_equal(membudget_used(), 0);
	strbuf_release(&t);
}

/* kernel_table_key: the readers' shared key caps and charge. */
static void kernel_table_key_caps_and_charges(void **state)
{
	struct kernel_table kt;
	char key[32];
	uint32_t id, again;
	uint64_t cost;
	size_t i;
	int n, rc;

	(void)state;
	kernel_table_init(&kt);
	membudget_set(MIB);
	for (i = 0;; i++) {
		n = snprintf(key, sizeof(key), "T%zu", i);
		if ((rc =
		         kernel_table_key(&kt, key, (size_t)n + 1, &id, &cost)))
			break;
	}
	/* about 100 bytes a key: the budget refuses before the cap */
	assert_int_equal(rc, -1);
	assert_true(i > 8000 && i < 12000);
	assert_true(cost > 0 && membudget_used() <= MIB);
	membudget_set(MEMBUDGET_UNLIMITED);
	for (; i < KERNELS_MAX_TYPES; i++) {
		n = snprintf(key, sizeof(key), "T%zu", i);
		assert_int_equal(
		    kernel_table_key(&kt, key, (size_t)n + 1, &id, &cost), 0);
	}
	assert_int_equal(kernel_table_key(&kt, "new", 4, &id, &cost), -2);
	/* a key known already costs nothing */
	assert_int_equal(kernel_table_key(&kt, "T5", 3, &again, &cost), 0);
	assert_int_equal(cost, 0);
	assert_string_equal(kernel_key_type(&kt, again), "T5");
	kernel_table_release(&kt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(membudget_parse_sizes, unlimited),
	    cmocka_unit_test_teardown(membudget_default_is_a_share_of_memory,
	                              unlimited),
	    cmocka_unit_test_teardown(membudget_charges_up_to_the_limit,
	                              unlimited),
	    cmocka_unit_test_teardown(membudget_fail_names_what_and_the_limit,
	                              unlimited),
	    cmocka_unit_test_teardown(
	        membudget_grow_keeps_an_eighth_and_refuses_cleanly, unlimited),
	    cmocka_unit_test_teardown(membudget_is_thread_safe, unlimited),
	    cmocka_unit_test_teardown(
	        kernels_refused_by_the_budget_name_the_file, unlimited),
	    cmocka_unit_test_teardown(kernels_cap_distinct_types, unlimited),
	    cmocka_unit_test_teardown(kernels_cap_header_names, unlimited),
	    cmocka_unit_test_teardown(
	        traceprof_refused_by_the_budget_name_the_file, unlimited),
	    cmocka_unit_test_teardown(traceprof_caps_distinct_types, unlimited),
	    cmocka_unit_test_teardown(kernel_table_key_caps_and_charges,
	                              unlimited),
	    cmocka_unit_test_teardown(steptrace_rows_refused_by_the_budget,
	                              unlimited),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
