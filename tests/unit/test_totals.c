/* Unit tests of the profiler-totals check's readers and sweep:
 * input/opstat.c (op_statistic.csv), input/commmatrix.c
 * (communication_matrix.json, both layouts) and analysis/totals.c's one
 * sweep over the kernels. Expected figures are hand arithmetic on the
 * small inputs built here. */
#include "unit.h"

#include <string.h>

#include "analysis/totals.h"
#include "input/commmatrix.h"
#include "input/opstat.h"

static int opstat_mem(const char *text, struct opstat *os, struct err *e)
{
	return opstat_read_mem("op_statistic.csv", text, strlen(text), os, e);
}

static void opstat_sums_rows(void **state)
{
	struct opstat os;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(
	    opstat_mem(
	        "Device_id,OP Type,Core Type,Count,Total Time(us),Min "
	        "Time(us),Avg Time(us),Max Time(us),Ratio(%)\r\n"
	        "6,MatMul,AI_CORE,182,1522.34,4.28,8.364,136.16,52.672\r\n"
	        "6,Cast,AI_VECTOR_CORE,3,0.0015,0,0,0,0\r\n",
	        &os, &e),
	    0);
	assert_int_equal(os.nrows, 2);
	assert_string_equal(os.rows[0].type, "MatMul");
	assert_string_equal(os.rows[1].core, "AI_VECTOR_CORE");
	assert_int_equal(os.count, 185);
	/* 1522.34 us + 0.0015 us (rounded half up to 2 ns) */
	assert_int_equal(os.total_ns, 1522340 + 2);
	opstat_release(&os);
}

static void opstat_errors_name_line_column_value(void **state)
{
	struct opstat os;
	struct err e = ERR_INIT;
	const char *head =
	    "OP Type,Core Type,Count,Total Time(us),Min Time(us)\n";
	char buf[256];

	(void)state;
	snprintf(buf, sizeof(buf),
	         "%sMatMul,AI_CORE,1,2,0\nAdd,AI_CORE,x1,2,0\n", head);
	assert_int_equal(opstat_mem(buf, &os, &e), -1);
	assert_non_null(strstr(e.msg, "op_statistic.csv:3: column 3 'Count': "
	                              "not a count: 'x1'"));
	opstat_release(&os);
	err_clear(&e);
	snprintf(buf, sizeof(buf), "%sMatMul,AI_CORE,1,-2,0\n", head);
	assert_int_equal(opstat_mem(buf, &os, &e), -1);
	assert_non_null(
	    strstr(e.msg, "'Total Time(us)': a negative time: '-2'"));
	opstat_release(&os);
	err_clear(&e);
	assert_int_equal(
	    opstat_mem("OP Type,Count,Total Time(us)\nA,1,2\n", &os, &e), -1);
	assert_non_null(strstr(e.msg, "'Core Type'"));
	opstat_release(&os);
	err_clear(&e);
	snprintf(buf, sizeof(buf), "%sMatMul,AI_CORE,1\n", head);
	assert_int_equal(opstat_mem(buf, &os, &e), -1);
	assert_non_null(strstr(e.msg, ":2: row has 3 fields, header has 5"));
	opstat_release(&os);
}

static int matrix_mem(const char *text, struct commmatrix *cm, struct err *e)
{
	return commmatrix_read_mem("communication_matrix.json", text,
	                           strlen(text), cm, e);
}

static const struct comm_link *find(const struct commmatrix *cm, int s, int d,
                                    const char *tr)
{
	size_t i;

	for (i = 0; i < cm->nlinks; i++)
		if (cm->links[i].src == s && cm->links[i].dst == d &&
		    !strcmp(cm->links[i].transport, tr))
			return &cm->links[i];
	return NULL;
}

#define LINK(s, d, t, mb, ms)                                                  \
	"\"" s "-" d "\": {\"Transport Type\": \"" t                           \
	"\", \"Transit Size(MB)\": " mb ", \"Transit Time(ms)\": " ms "}"

static void matrix_both_layouts(void **state)
{
	struct commmatrix cm;
	struct err e = ERR_INIT;
	const struct comm_link *k;

	(void)state;
	/* by operation, with HCCL's own sum: only the sum counts; two steps
	 * add up; p2p without a sum: every operation */
	assert_int_equal(
	    matrix_mem(
	        "{\"step1\": {\"collective\": {"
	        "\"hcom_allReduce__1@g\": {" LINK(
	            "0", "1", "HCCS", "1.5",
	            "0.5") "},"
	                   "\"hcom_allReduce__2@g\": {" LINK(
	                       "0", "1", "HCCS", "2.5",
	                       "1") "},"
	                            "\"Total Op Info\": {" LINK(
	                                "0", "1", "HCCS", "4",
	                                "1.5") "}},"
	                                       "\"p2p\": {\"hcom_send__1@g\": "
	                                       "{" LINK(
	                                           "0", "8", "RDMA", "1",
	                                           "0.25") "},"
	                                                   "\"hcom_send__2@g\":"
	                                                   " {" LINK(
	                                                       "0", "8", "RDMA",
	                                                       "1",
	                                                       "0.25") "}}},"
	                                                               "\"step2"
	                                                               "\": "
	                                                               "{\"coll"
	                                                               "ective"
	                                                               "\": {"
	                                                               "\"Total"
	                                                               " Op "
	                                                               "Info\":"
	                                                               " "
	                                                               "{" LINK(
	                                                                   "0",
	                                                                   "1",
	                                                                   "HCC"
	                                                                   "S",
	                                                                   "4",
	                                                                   "1."
	                                                                   "5") "}}}}",
	        &cm, &e),
	    0);
	assert_int_equal(cm.nsteps, 2);
	assert_int_equal(cm.nlinks, 2);
	k = find(&cm, 0, 1, "HCCS");
	assert_non_null(k);
	assert_true(k->size_mb == 8.0);
	assert_int_equal(k->time_ns, 3000000);
	k = find(&cm, 0, 8, "RDMA");
	assert_non_null(k);
	assert_true(k->size_mb == 2.0);
	assert_int_equal(k->time_ns, 500000);
	commmatrix_release(&cm);
	/* aggregated: top1/middle/bottom1 are single operations, -total
	 * their sum */
	assert_int_equal(
	    matrix_mem(
	        "{\"step50\": {\"p2p\": {}, \"collective\": {"
	        "\"allreduce-top1@7\": {" LINK(
	            "1", "5", "PCIE", "3",
	            "2") "},"
	                 "\"allreduce-middle@7\": {" LINK(
	                     "1", "5", "PCIE", "2",
	                     "1") "},"
	                          "\"allreduce-bottom1@7\": {" LINK(
	                              "1", "5", "PCIE", "1",
	                              "0.5") "},"
	                                     "\"allreduce-total@7\": {" LINK(
	                                         "1", "5", "PCIE", "10",
	                                         "5") "," LINK("1", "1",
	                                                       "LOCAL", "20",
	                                                       "0.125") "}}}}",
	        &cm, &e),
	    0);
	assert_int_equal(cm.nlinks, 2);
	k = find(&cm, 1, 5, "PCIE");
	assert_non_null(k);
	assert_true(k->size_mb == 10.0);
	assert_int_equal(k->time_ns, 5000000);
	commmatrix_release(&cm);
}

static void matrix_errors_name_path_and_value(void **state)
{
	struct commmatrix cm;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(
	    matrix_mem("{\"s\": {\"p2p\": {\"op\": {\"0-1\": {\"Transit "
	               "Time(ms)\": true}}}}}",
	               &cm, &e),
	    -1);
	assert_non_null(strstr(e.msg,
	                       "communication_matrix.json: s/p2p/op/0-1/"
	                       "Transit Time(ms): expected a number, got "
	                       "'true'"));
	commmatrix_release(&cm);
	err_clear(&e);
	assert_int_equal(
	    matrix_mem("{\"s\": {\"p2p\": {\"op\": {\"0-\": {}}}}}", &cm, &e),
	    -1);
	assert_non_null(strstr(e.msg, "s/p2p/op/0-: not a link"));
	commmatrix_release(&cm);
	err_clear(&e);
	assert_int_equal(matrix_mem("[1]", &cm, &e), -1);
	assert_non_null(
	    strstr(e.msg, "top level: expected an object of steps"));
	commmatrix_release(&cm);
}

/* Kernels: compute [0,10) [5,20) step 1, comm [15,30) step 1, compute
 * [40,50) step 2: compute union [0,20) + [40,50) = 20 + 10 = 30, comm union 15,
 * of it [15,20) under compute: exposed 10; step spans [0,30) and [40,50): 40.
 */
static void sweep_by_hand(void **state)
{
	struct kernel k[] = {
	    {0, 10, 0, 1}, {5, 15, 0, 1}, {15, 15, 1, 1}, {40, 10, 0, 2}};
	unsigned char cat[2] = {CAT_MATMUL, CAT_COMM};
	struct kernel_totals t;

	(void)state;
	totals_measure(k, 4, cat, &t);
	assert_true(t.set);
	assert_int_equal(t.compute_ns, 30);
	assert_int_equal(t.exposed_ns, 10);
	assert_int_equal(t.span_ns, 40);
	assert_int_equal(t.kernel_ns, 50);
	assert_int_equal(t.kernels, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(opstat_sums_rows),
	    cmocka_unit_test(opstat_errors_name_line_column_value),
	    cmocka_unit_test(matrix_both_layouts),
	    cmocka_unit_test(matrix_errors_name_path_and_value),
	    cmocka_unit_test(sweep_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
