/* Unit tests of input/commjson.c: the communication.json reader, on the
 * real sample files (cross-checked against HCCL's own "Total Op Info") and
 * on small documents built here. */
#include "unit.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <zlib.h>

#include "input/commjson.h"
#include "util/strbuf.h"

/* The real files: copies in tests/data/samples (PROVENANCE.md there). */
#define samples_dir unit_samples_dir

/* ---- fixture ----------------------------------------------------------- */

struct rd {
	struct commstats cs;
	struct err e;
	int rc;
	char dir[512];
};

static int rd_setup(void **state)
{
	struct rd *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	*state = r;
	return 0;
}

static int rd_teardown(void **state)
{
	struct rd *r = *state;

	commstats_release(&r->cs);
	if (r->dir[0])
		unit_rmtree(r->dir);
	free(r);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, rd_setup, rd_teardown)

static void rd_text(struct rd *r, const char *text)
{
	struct err e = ERR_INIT;

	commstats_release(&r->cs);
	r->e = e;
	r->rc = commstats_read_mem("c.json", text, strlen(text), &r->cs, &r->e);
}

static void rd_file(struct rd *r, const char *path)
{
	struct err e = ERR_INIT;

	commstats_release(&r->cs);
	r->e = e;
	r->rc = commstats_read(path, &r->cs, &r->e);
}

static void ok(const struct rd *r, uint64_t ops)
{
	if (r->rc)
		fail_msg("read failed: %s", r->e.msg);
	assert_int_equal(r->e.code, ERR_NONE);
	assert_int_equal(r->cs.ops, ops);
}

static void fails(const struct rd *r, const char *msg)
{
	assert_int_equal(r->rc, -1);
	assert_int_equal(r->e.code, ERR_INPUT);
	assert_string_equal(r->e.msg, msg);
}

/* ---- the real files ---------------------------------------------------- */

/* Expected values computed independently, not with this reader: python3
 * json.load on each file; per operation (Total Op Info skipped) the kind
 * from the lower-cased name (p2p -> send_recv), each ms value as
 * Decimal(ms * 1e6).to_integral_value(ROUND_HALF_UP), summed; a transport
 * counts when Transit Size > 0 or its rounded Transit Time > 0
 * (script tests/data/samples/expected_steps_comm.py). */
struct want {
	const char *rel;
	size_t nsteps;
	uint64_t ops;
	int64_t coll[COLL_COUNT][6]; /* count, elapse, transit, wait, sync,
	                                idle */
	struct {
		uint64_t ops;
		double mb;
		int64_t ns;
	} tr[TR_COUNT]; /* HCCS RDMA PCIE SDMA SIO */
};

static const struct want wants[] = {
    {"msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt",
     1,
     4,
     {{0},
      {4, 70787347, 8826840, 58992049, 51630736, 2968459},
      {0},
      {0},
      {0},
      {0},
      {0}},
     {{4, 106.92588800000001, 8826840},
      {0, 0, 0},
      {0, 0, 0},
      {4, 106.92588800000001, 8826840},
      {0, 0, 0}}},
    {"msinsight-alexnet-2rank-2024/level1/rank1_ascend_pt",
     1,
     4,
     {{0},
      {4, 55032360, 11058621, 41013270, 27583475, 2960470},
      {0},
      {0},
      {0},
      {0},
      {0}},
     {{0, 0, 0},
      {0, 0, 0},
      {4, 106.92588800000001, 11058621},
      {4, 106.92588800000001, 11058621},
      {0, 0, 0}}},
    {"msinsight-gpt3-testdata-2023/test_rank_0",
     1,
     28,
     {{10, 12700178, 10857, 983324, 105753, 11705997},
      {6, 118434287, 5401075, 110252674, 110250735, 2780536},
      {0},
      {9, 14714495, 0, 0, 0, 14714495},
      {2, 5509488, 1920, 5400176, 5400176, 107392},
      {1, 896487, 863815, 0, 0, 32672},
      {0}},
     {{11, 1321.321036, 70173995},
      {6, 152.04433199999997, 6274428},
      {0, 0, 0},
      {11, 1321.321036, 70173995},
      {0, 0, 0}}},
    {"msinsight-gpt3-testdata-2023/test_rank_1",
     1,
     28,
     {{10, 12879180, 10760, 861380, 0, 12007040},
      {6, 118621960, 5392200, 110021540, 110021520, 3208220},
      {0},
      {9, 15271940, 0, 0, 0, 15271940},
      {2, 9497760, 3160, 3996960, 3996960, 5497640},
      {1, 896580, 863820, 20, 20, 32740},
      {0}},
     {{16, 1321.8291200000001, 70460720},
      {3, 152.04432, 6246960},
      {0, 0, 0},
      {16, 1321.8291200000001, 70460720},
      {0, 0, 0}}},
};

static void check_want(const struct commstats *cs, const struct want *w)
{
	size_t k;

	assert_int_equal(cs->nsteps, w->nsteps);
	assert_int_equal(cs->ops, w->ops);
	for (k = 0; k < COLL_COUNT; k++) {
		const struct coll_stat *c = &cs->coll[k];
		assert_int_equal(c->count, w->coll[k][0]);
		assert_int_equal(c->elapse_ns, w->coll[k][1]);
		assert_int_equal(c->transit_ns, w->coll[k][2]);
		assert_int_equal(c->wait_ns, w->coll[k][3]);
		assert_int_equal(c->sync_ns, w->coll[k][4]);
		assert_int_equal(c->idle_ns, w->coll[k][5]);
	}
	for (k = 0; k < TR_COUNT; k++) {
		assert_int_equal(cs->tr[k].ops, w->tr[k].ops);
		assert_true(fabs(cs->tr[k].size_mb - w->tr[k].mb) < 1e-9);
		assert_int_equal(cs->tr[k].time_ns, w->tr[k].ns);
	}
}

/* Sums HCCL's "Total Op Info" (ms, MB) over every step and section. */
static void total_op_info(const char *path, double t[5], double mb[TR_COUNT],
                          double ms[TR_COUNT])
{
	static const char *const keys[5] = {
	    "Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
	    "Synchronization Time(ms)", "Idle Time(ms)"};
	FILE *f = fopen(path, "rb");
	static char buf[1 << 20];
	size_t n, i;
	cJSON *root, *step, *sect;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	root = cJSON_Parse(buf);
	assert_non_null(root);
	memset(t, 0, 5 * sizeof(*t));
	memset(mb, 0, TR_COUNT * sizeof(*mb));
	memset(ms, 0, TR_COUNT * sizeof(*ms));
	cJSON_ArrayForEach (step, root)
		cJSON_ArrayForEach (sect, step) {
			cJSON *tot = cJSON_GetObjectItem(sect, "Total Op Info");
			cJSON *ti =
			    cJSON_GetObjectItem(tot, "Communication Time "
			                             "Info");
			cJSON *bw = cJSON_GetObjectItem(tot, "Communication "
			                                     "Bandwidth Info");
			for (i = 0; ti && i < 5; i++)
				t[i] += cJSON_GetObjectItem(ti, keys[i])
				            ->valuedouble;
			for (i = 0; bw && i < TR_COUNT; i++) {
				cJSON *b =
				    cJSON_GetObjectItem(bw, transport_names[i]);
				if (!b)
					continue;
				mb[i] += cJSON_GetObjectItem(b, "Transit "
				                                "Size(MB)")
				             ->valuedouble;
				ms[i] += cJSON_GetObjectItem(b, "Transit "
				                                "Time(ms)")
				             ->valuedouble;
			}
		}
	cJSON_Delete(root);
}

/* Our sums against HCCL's totals: each op's ns is rounded (<= 0.5 ns), so
 * the totals agree within one ns per operation. */
static void check_total_op_info(const struct commstats *cs, const char *path)
{
	double t[5], mb[TR_COUNT], ms[TR_COUNT], tol = (double)cs->ops + 1;
	int64_t sum[5] = {0};
	size_t k;

	total_op_info(path, t, mb, ms);
	for (k = 0; k < COLL_COUNT; k++) {
		sum[0] += cs->coll[k].elapse_ns;
		sum[1] += cs->coll[k].transit_ns;
		sum[2] += cs->coll[k].wait_ns;
		sum[3] += cs->coll[k].sync_ns;
		sum[4] += cs->coll[k].idle_ns;
	}
	for (k = 0; k < 5; k++)
		if (fabs((double)sum[k] - t[k] * 1e6) > tol)
			fail_msg("%s: field %zu: %lld ns vs Total Op Info %.6f "
			         "ms",
			         path, k, (long long)sum[k], t[k]);
	for (k = 0; k < TR_COUNT; k++) {
		assert_true(fabs(cs->tr[k].size_mb - mb[k]) < 1e-6);
		assert_true(fabs((double)cs->tr[k].time_ns - ms[k] * 1e6) <=
		            tol);
	}
}

static void commstats_read_real_samples(void **state)
{
	struct rd *r = *state;
	char path[1024], rel[512];
	size_t i;

	for (i = 0; i < ARRAY_LEN(wants); i++) {
		snprintf(rel, sizeof(rel),
		         "%s/ASCEND_PROFILER_OUTPUT/communication.json",
		         wants[i].rel);
		unit_join(path, sizeof(path), samples_dir(), rel);
		rd_file(r, path);
		ok(r, wants[i].ops);
		assert_string_equal(r->cs.path, path);
		assert_int_equal(r->cs.gz, 0);
		assert_true(r->cs.size > 5000);
		check_want(&r->cs, &wants[i]);
		check_total_op_info(&r->cs, path);
	}
}

static void commstats_read_gzip_copy(void **state)
{
	struct rd *r = *state;
	char src[1024], dst[1024], buf[4096];
	FILE *in;
	gzFile out;
	size_t n;

	unit_tmpdir(r->dir, sizeof(r->dir));
	unit_join(src, sizeof(src), samples_dir(),
	          "msinsight-gpt3-testdata-2023/test_rank_0/"
	          "ASCEND_PROFILER_OUTPUT/communication.json");
	unit_join(dst, sizeof(dst), r->dir, "communication.json.gz");
	in = fopen(src, "rb");
	assert_non_null(in);
	out = gzopen(dst, "wb");
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(gzwrite(out, buf, (unsigned)n), (int)n);
	fclose(in);
	assert_int_equal(gzclose(out), Z_OK);
	rd_file(r, dst);
	ok(r, 28);
	assert_int_equal(r->cs.gz, 1);
	check_want(&r->cs, &wants[2]);
}

/* ---- structure --------------------------------------------------------- */

/* One operation with the given name and times (ms). */
#define OP(name, el, tr, wa, sy, id)                                           \
	"\"" name                                                              \
	"\": {\"Communication Time Info\": {\"Elapse Time(ms)\": " el          \
	", \"Transit Time(ms)\": " tr ", \"Wait Time(ms)\": " wa               \
	", \"Synchronization Time(ms)\": " sy ", \"Idle Time(ms)\": " id "}}"

static void commstats_read_plain_step_key(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"step\": {\"p2p\": {}, \"collective\": {" OP(
	               "hcom_allGather__1_0@9", "1.5", "0.5", "0.25", "0.125",
	               "0.0000004") "}}}");
	ok(r, 1);
	assert_int_equal(r->cs.nsteps, 1);
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].count, 1);
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].elapse_ns, 1500000);
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].transit_ns, 500000);
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].wait_ns, 250000);
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].sync_ns, 125000);
	/* 0.0000004 ms = 0.4 ns */
	assert_int_equal(r->cs.coll[COLL_ALLGATHER].idle_ns, 0);
	/* 0.25 / (0.25 + 0.5), 0.125 / (0.125 + 0.5) */
	assert_true(fabs(commstats_wait_ratio(&r->cs.coll[COLL_ALLGATHER]) -
	                 1.0 / 3) < 1e-12);
	assert_true(fabs(commstats_sync_ratio(&r->cs.coll[COLL_ALLGATHER]) -
	                 0.2) < 1e-12);
	assert_true(commstats_wait_ratio(&r->cs.coll[COLL_OTHER]) == 0);
}

static void commstats_read_sums_several_steps(void **state)
{
	struct rd *r = *state;

	rd_text(r,
	        "{\"step1\": {\"collective\": {" OP(
	            "hcom_allReduce__1_0@9", "1", "0.5", "0.25", "0",
	            "0") ", " OP("hcom_alltoallv__2_0@9", "2", "1", "0", "0",
	                         "1") "}},\n"
	                              "\"step2\": {\"collective\": {" OP(
	                                  "HCOM_ALLREDUCE__1_1@9", "3", "1.5",
	                                  "0.75", "0.5",
	                                  "0.000001") ", \"Total Op Info\": "
	                                              "{\"Communication "
	                                              "Time Info\": {\"Elapse "
	                                              "Time(ms)\": 99}}}}}");
	ok(r, 3);
	assert_int_equal(r->cs.nsteps, 2);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].count, 2);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].elapse_ns, 4000000);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].transit_ns, 2000000);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].wait_ns, 1000000);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].sync_ns, 500000);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].idle_ns, 1);
	assert_int_equal(r->cs.coll[COLL_ALLTOALL].count, 1);
	assert_int_equal(r->cs.coll[COLL_ALLTOALL].elapse_ns, 2000000);
	assert_int_equal(r->cs.coll[COLL_ALLTOALL].idle_ns, 1000000);
}

static void commstats_read_counts_p2p_ops_as_send_recv(void **state)
{
	struct rd *r = *state;

	rd_text(
	    r, "{\"step7\": {\"p2p\": {" OP(
	           "hcom_batch__5_0@1", "1", "1", "0", "0",
	           "0") ", " OP("hcom_allReduce__5_1@1", "2", "1", "0", "0",
	                        "0") "}, \"collective\": {" OP("hcom_receive__"
	                                                       "6_0@1",
	                                                       "4", "1", "0",
	                                                       "0", "0") "}}}");
	ok(r, 3);
	/* under p2p whatever the name; under collective by name */
	assert_int_equal(r->cs.coll[COLL_SENDRECV].count, 3);
	assert_int_equal(r->cs.coll[COLL_SENDRECV].elapse_ns, 7000000);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].count, 0);
}

static void commstats_kind_from_names(void **state)
{
	(void)state;
	assert_int_equal(commstats_kind("hcom_allGather__483_3@93", 0),
	                 COLL_ALLGATHER);
	assert_int_equal(commstats_kind("all_gather_into_tensor", 0),
	                 COLL_ALLGATHER);
	assert_int_equal(commstats_kind("hcom_allReduce__586_0_1@1", 0),
	                 COLL_ALLREDUCE);
	assert_int_equal(commstats_kind("ALL_REDUCE", 0), COLL_ALLREDUCE);
	assert_int_equal(commstats_kind("hcom_alltoall__1", 0), COLL_ALLTOALL);
	assert_int_equal(commstats_kind("hcom_alltoallv__1", 0), COLL_ALLTOALL);
	assert_int_equal(commstats_kind("hcom_reduceScatter__483_4", 0),
	                 COLL_REDUCESCATTER);
	assert_int_equal(commstats_kind("reduce_scatter_tensor", 0),
	                 COLL_REDUCESCATTER);
	assert_int_equal(commstats_kind("hcom_broadcast__483_0@9", 0),
	                 COLL_BROADCAST);
	assert_int_equal(commstats_kind("hcom_send__822_0@1", 0),
	                 COLL_SENDRECV);
	assert_int_equal(commstats_kind("hcom_receive__1", 0), COLL_SENDRECV);
	assert_int_equal(commstats_kind("batch_isend_irecv", 0), COLL_SENDRECV);
	assert_int_equal(commstats_kind("hcom_reduce__1", 0), COLL_OTHER);
	assert_int_equal(commstats_kind("hcom_allReduce__1", 1), COLL_SENDRECV);
	assert_string_equal(coll_names[COLL_ALLTOALL], "all_to_all");
	assert_string_equal(coll_names[COLL_SENDRECV], "send_recv");
	assert_string_equal(transport_names[TR_SIO], "SIO");
}

static void commstats_read_transports_count_only_used_ones(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"step\": {\"collective\": {\"hcom_allReduce_1@1\": "
	           "{\"Communication Bandwidth Info\": {"
	           "\"HCCS\": {\"Transit Size(MB)\": 2.5, \"Transit "
	           "Time(ms)\": 0.5},"
	           "\"RDMA\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": "
	           "0},"
	           "\"PCIE\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": "
	           "0.001},"
	           "\"LOCAL\": {\"Transit Size(MB)\": \"ignored\"}}},"
	           "\"hcom_allReduce_2@1\": {\"Communication Bandwidth Info\": "
	           "{\"HCCS\": {\"Transit Size(MB)\": 1.5, \"Transit "
	           "Time(ms)\": 1.5}}}}}}");
	ok(r, 2);
	assert_int_equal(r->cs.tr[TR_HCCS].ops, 2);
	assert_true(r->cs.tr[TR_HCCS].size_mb == 4.0);
	assert_int_equal(r->cs.tr[TR_HCCS].time_ns, 2000000);
	assert_int_equal(r->cs.tr[TR_RDMA].ops, 0);
	assert_int_equal(r->cs.tr[TR_PCIE].ops, 1);
	assert_int_equal(r->cs.tr[TR_PCIE].time_ns, 1000);
	/* ops without Communication Time Info count, with zero times */
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].count, 2);
	assert_int_equal(r->cs.coll[COLL_ALLREDUCE].elapse_ns, 0);
}

static void commstats_read_total_op_info_alone_is_no_op(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"step1\": {\"p2p\": {\"Total Op Info\": {}}, "
	           "\"collective\": {\"Total Op Info\": 5}}}");
	ok(r, 0);
	assert_int_equal(r->cs.nsteps, 1);
	rd_text(r, "{}");
	ok(r, 0);
	assert_int_equal(r->cs.nsteps, 0);
}

/* ---- errors ------------------------------------------------------------ */

static void commstats_read_rejects_wrong_type_with_json_path(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"step50\": {\"collective\": {" OP(
	               "hcom_allReduce__586_0_1@123", "1", "1", "\"abc\"", "0",
	               "0") "}}}");
	fails(r, "c.json: step50/collective/hcom_allReduce__586_0_1@123/"
	         "Communication Time Info/Wait Time(ms): expected a number, "
	         "got '\"abc\"'");
	rd_text(r, "{\"step50\": {\"p2p\": {\"hcom_send_1@2\": "
	           "{\"Communication Bandwidth Info\": {\"RDMA\": "
	           "{\"Transit Size(MB)\": null}}}}}}");
	fails(r, "c.json: step50/p2p/hcom_send_1@2/Communication Bandwidth "
	         "Info/RDMA/Transit Size(MB): expected a number, got 'null'");
	rd_text(r, "{\"step50\": {\"collective\": {\"op@1\": [1, 2]}}}");
	fails(r, "c.json: step50/collective/op@1: expected an object, got "
	         "'[1,2]'");
	rd_text(r, "{\"step50\": {\"collective\": 3}}");
	fails(r, "c.json: step50/collective: expected an object, got '3'");
	rd_text(r, "{\"step50\": \"x\"}");
	fails(r, "c.json: step50: expected an object (p2p, collective), got "
	         "'\"x\"'");
	rd_text(r, "{\"s\": {\"collective\": {\"op@1\": {\"Communication Time "
	           "Info\": {\"Idle Time(ms)\": 1e300}}}}}");
	fails(r, "c.json: s/collective/op@1/Communication Time Info/Idle "
	         "Time(ms): out of range, got '1e+300'");
}

static void commstats_read_rejects_syntax_error_with_line_col(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"step1\": {\n  \"p2p\": {,}\n}}");
	/* the ',' where a key belongs is column 11 */
	fails(r, "c.json:2:11: JSON syntax error near ',}\\x0A}}'");
	rd_text(r, "{\"step1\": tru}");
	fails(r, "c.json:1:11: JSON syntax error near 'tru}'");
	/* a second value after the first */
	rd_text(r, "{}\n{}\n");
	fails(r, "c.json:2:1: JSON syntax error near '{}\\x0A'");
}

/* The document is streamed: what is passed over is checked all the same,
 * and one operation's value is the largest tree ever built. */
static void commstats_read_checks_what_it_skips(void **state)
{
	struct rd *r = *state;

	rd_text(r, "{\"s\": {\"collective\": {\"Total Op Info\": "
	           "{\"a\": [1, 2,]}}}}");
	fails(r, "c.json:1:52: JSON syntax error near ']}}}}'");
	rd_text(r, "{\"s\": {\"other\": [01]}}");
	fails(r, "c.json:1:19: JSON syntax error near '1]}}'");
	rd_text(r, "{\"s\": {\"other\": \"a\tb\"}}");
	fails(r, "c.json:1:19: JSON syntax error near '\\x09b\"}}'");
	rd_text(r, "{\"s\": {\"other\": \"\\x\"}}");
	fails(r, "c.json:1:19: JSON syntax error near 'x\"}}'");
	rd_text(r, "{\"s\": {\"other\": nul}}");
	fails(r, "c.json:1:17: JSON syntax error near 'nul}}'");
	/* no key where a step's key belongs (found by fuzz_comm) */
	rd_text(r, "{\"s\": {:\"p2p\": {}}}");
	fails(r, "c.json:1:8: JSON syntax error near ':\"p2p\": {}}}'");
	/* an escaped key is decoded: this is the Total Op Info */
	rd_text(r, "{\"s\": {\"collective\": {\"Total Op \\u0049nfo\": 5}}}");
	ok(r, 0);
}

static void commstats_read_limits_one_operation(void **state)
{
	struct rd *r = *state;
	struct strbuf t = STRBUF_INIT;
	char path[600];
	size_t i;

	/* 300 KiB in a skipped member: no limit, nothing kept */
	strbuf_adds(&t, "{\"s\": {\"Total Op Info\": [");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&t, "1, ");
	strbuf_adds(&t, "1], \"collective\": {\"op@1\": {}}}}");
	rd_text(r, t.buf);
	ok(r, 1);
	/* the same inside an operation: over COMMJSON_MAX_OP */
	strbuf_reset(&t);
	strbuf_adds(&t, "{\"s\": {\"collective\": {\"op@1\": {\"x\": [");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&t, "1, ");
	strbuf_adds(&t, "1]}}}}");
	rd_text(r, t.buf);
	fails(r, "c.json:1:31: a JSON value larger than 256 KiB (the limit "
	         "for one operation in communication.json)");
	/* and from a file, where it is never held whole */
	unit_tmpdir(r->dir, sizeof(r->dir));
	unit_join(path, sizeof(path), r->dir, "c.json");
	unit_write(path, t.buf, t.len);
	rd_file(r, path);
	assert_int_equal(r->rc, -1);
	if (!strstr(r->e.msg, "c.json:1:31: a JSON value larger than 256 KiB"))
		fail_msg("%s", r->e.msg);
	strbuf_release(&t);
}

static void commstats_read_rejects_empty_file(void **state)
{
	struct rd *r = *state;

	rd_text(r, "");
	fails(r, "c.json: empty file (no JSON value)");
	rd_text(r, " \r\n\t\n");
	fails(r, "c.json: empty file (no JSON value)");
}

static void commstats_read_rejects_top_level_array(void **state)
{
	struct rd *r = *state;

	rd_text(r, "[{\"step1\": {}}]");
	fails(r, "c.json: top level: expected an object of steps, got an "
	         "array");
	rd_text(r, "42");
	fails(r, "c.json: top level: expected an object of steps, got '42'");
}

static void commstats_read_missing_file_names_it(void **state)
{
	struct rd *r = *state;

	rd_file(r, "/nonexistent/communication.json");
	assert_int_equal(r->rc, -1);
	assert_int_equal(r->e.code, ERR_INPUT);
	assert_non_null(strstr(r->e.msg, "/nonexistent/communication.json"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(commstats_read_real_samples),
	    T(commstats_read_gzip_copy),
	    T(commstats_read_plain_step_key),
	    T(commstats_read_sums_several_steps),
	    T(commstats_read_counts_p2p_ops_as_send_recv),
	    T(commstats_kind_from_names),
	    T(commstats_read_transports_count_only_used_ones),
	    T(commstats_read_total_op_info_alone_is_no_op),
	    T(commstats_read_rejects_wrong_type_with_json_path),
	    T(commstats_read_rejects_syntax_error_with_line_col),
	    T(commstats_read_checks_what_it_skips),
	    T(commstats_read_limits_one_operation),
	    T(commstats_read_rejects_empty_file),
	    T(commstats_read_rejects_top_level_array),
	    T(commstats_read_missing_file_names_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
