/* The db export reader (input/db.h), its HCCL arithmetic (input/hccl.h) and
 * the analysis it feeds (analysis/dbstages.h), on the real samples and on
 * small dbs built here with python3's sqlite3 module (sdperf's own SQLite
 * stays in input/db*.c). */
#include "unit.h"

#include "analysis/analyse.h"
#include "analysis/dbstages.h"
#include "input/db.h"
#include "input/hccl.h"
#include "input/kernels.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SAMPLE "/msinsight-alexnet-2rank-2025-db"
#define L1R0                                                                   \
	SAMPLE "/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"               \
	       "ascend_pytorch_profiler_0.db"
#define L0R0                                                                   \
	SAMPLE "/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"               \
	       "ascend_pytorch_profiler_0.db"

/* The tables of a minimal db, as the real samples declare them. */
static const char SCHEMA[] =
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,"
    "connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType "
    "INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId "
    "INTEGER, depth integer);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER "
    "PRIMARY KEY,blockNum INTEGER,mixBlockNum INTEGER,taskType INTEGER,"
    "opType INTEGER);"
    "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs "
    "INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY "
    "KEY,opType INTEGER);"
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
    "CREATE TABLE META_DATA (name TEXT,value TEXT);"
    "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION','9.9.9');"
    "INSERT INTO STRING_IDS VALUES (1,'aclnnMatmul_MatMulV3Common_MatMulV3'),"
    "(2,'MatMulV3'),(3,'AI_CORE'),(4,'hcom_allGather__7_0_1'),"
    "(5,'hcom_allGather_'),(6,'N/A'),(7,'aclnnAdd_AddAiCore_Add');";

/* Builds path from SQL (SCHEMA first when with_schema). */
static void make_db(const char *path, int with_schema, const char *sql)
{
	struct strbuf text = STRBUF_INIT, cmd = STRBUF_INIT;
	char *sqlpath = xstrfmt("%s.sql", path);

	if (with_schema)
		strbuf_adds(&text, SCHEMA);
	strbuf_adds(&text, sql);
	unit_write(sqlpath, text.buf, text.len);
	strbuf_addf(&cmd,
	            "python3 -c 'import sqlite3, sys; c = "
	            "sqlite3.connect(sys.argv[1]); "
	            "c.executescript(open(sys.argv[2]).read()); c.commit()' "
	            "'%s' '%s'",
	            path, sqlpath);
	assert_int_equal(system(cmd.buf), 0);
	unlink(sqlpath);
	free(sqlpath);
	strbuf_release(&text);
	strbuf_release(&cmd);
}

/* The first key of this type and core, whatever aclnn API launched it
 * (keys are "Type\0Core\0Api"). */
static uint32_t key_of(const struct kernel_table *kt, const char *type,
                       const char *core)
{
	uint32_t id;

	for (id = 0; id < kt->keys.n; id++)
		if (!strcmp(kernel_key_type(kt, id), type) &&
		    !strcmp(kernel_key_core(kt, id), core))
			return id;
	return UINT32_MAX;
}

/* ---- hccl ---------------------------------------------------------------- */

static void task(struct hccl_op *op, int64_t plane, const char *type,
                 const char *xport, const char *link, int64_t size,
                 int64_t start, int64_t end)
{
	struct hccl_task t = {plane, type, xport, link, size, start, end};
	assert_int_equal(hccl_op_task(op, &t), 0);
}

static void hccl_main_plane_is_the_first_with_waits_or_transfers(void **s)
{
	struct commstats cs;
	struct hccl_op op;
	const struct coll_stat *c;

	(void)s;
	memset(&cs, 0, sizeof(cs));
	hccl_op_init(&op);
	hccl_op_begin(&op, "hcom_allReduce__1_0_1", 1000, 2000);
	/* plane 0: only an on-chip local copy, like the real sample */
	task(&op, 0, "Memcpy", "SDMA", "ON_CHIP", 8, 1000, 1010);
	/* plane 1: wait 100 (sync), transfer 300, wait 50 */
	task(&op, 1, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 1000, 1100);
	task(&op, 1, "Memcpy", "SDMA", "HCCS", 3000000, 1100, 1400);
	task(&op, 1, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 1400, 1450);
	/* plane 2: another link, only in the bandwidth */
	task(&op, 2, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 1000, 1200);
	task(&op, 2, "Reduce_Inline", "SDMA", "PCIE", 1000000, 1200, 1300);
	hccl_op_end(&op, &cs);
	c = &cs.coll[COLL_ALLREDUCE];
	assert_int_equal(c->count, 1);
	assert_int_equal(c->elapse_ns, 1000);
	assert_int_equal(c->transit_ns, 300);
	assert_int_equal(c->wait_ns, 150);
	assert_int_equal(c->sync_ns, 100);
	assert_int_equal(c->idle_ns, 550);
	assert_true(cs.tr[TR_HCCS].size_mb == 3.0 && cs.tr[TR_HCCS].ops == 1);
	assert_int_equal(cs.tr[TR_HCCS].time_ns, 300);
	assert_true(cs.tr[TR_PCIE].size_mb == 1.0);
	/* SDMA: what the on-server links carried together */
	assert_true(cs.tr[TR_SDMA].size_mb == 4.0);
	assert_int_equal(cs.tr[TR_SDMA].time_ns, 400);
	assert_int_equal(cs.tr[TR_RDMA].ops, 0);
	assert_int_equal(op.detailed, 6);
	hccl_op_release(&op);
}

static void hccl_rdma_transfer_runs_to_its_wait(void **s)
{
	struct commstats cs;
	struct hccl_op op;

	(void)s;
	memset(&cs, 0, sizeof(cs));
	hccl_op_init(&op);
	hccl_op_begin(&op, "hcom_send__3_0_1", 0, 1000);
	task(&op, 0, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 0, 40);
	task(&op, 0, "RDMASend", "RDMA", "ROCE", 2000000, 40, 60);
	task(&op, 0, "RDMASend", "RDMA", "ROCE", 4, 60, 70);
	task(&op, 0, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 70, 400);
	task(&op, 0, "Notify_Wait", "LOCAL", "INVALID_TYPE", 0, 400, 420);
	hccl_op_end(&op, &cs);
	/* payload start to the end of its Notify_Wait, which is no wait */
	assert_int_equal(cs.coll[COLL_SENDRECV].transit_ns, 360);
	assert_int_equal(cs.coll[COLL_SENDRECV].wait_ns, 60);
	assert_int_equal(cs.coll[COLL_SENDRECV].sync_ns, 40);
	assert_true(cs.tr[TR_RDMA].size_mb == 2.0);
	assert_int_equal(cs.tr[TR_RDMA].time_ns, 360);
	assert_int_equal(cs.tr[TR_SDMA].ops, 0);
	hccl_op_release(&op);
}

static void hccl_level0_tasks_carry_no_details(void **s)
{
	struct commstats cs;
	struct hccl_op op;

	(void)s;
	memset(&cs, 0, sizeof(cs));
	hccl_op_init(&op);
	hccl_op_begin(&op, "hcom_allReduce__1_0_1", 0, 100);
	task(&op, 4294967295LL, "N/A", "N/A", "N/A", -1, 0, 50);
	hccl_op_end(&op, &cs);
	assert_int_equal(op.detailed, 0);
	assert_int_equal(cs.coll[COLL_ALLREDUCE].transit_ns, 0);
	hccl_op_release(&op);
}

/* ---- the real samples ----------------------------------------------------
 */

static void read_sample(const char *rel, struct db **db,
                        struct kernel_table *kt, struct kernels_info *info)
{
	char path[4096];
	struct err e = ERR_INIT;

	unit_join(path, sizeof(path), unit_samples_dir(), rel + 1);
	kernel_table_init(kt);
	if (db_open(path, db, &e) || db_read_kernels(*db, 1, kt, info, &e))
		fail_msg("%s", e.msg);
}

static void db_reads_the_level1_sample(void **s)
{
	struct kernel_table kt;
	struct kernels_info info;
	struct db *db;
	const struct db_about *a;
	int64_t total = 0;
	size_t i, comm = 0;

	(void)s;
	read_sample(L1R0, &db, &kt, &info);
	a = db_about(db);
	assert_int_equal(kt.n, 191);
	assert_int_equal(a->compute_rows, 187);
	assert_int_equal(a->comm_ops, 4);
	assert_int_equal(a->unjoined, 0);
	assert_string_equal(a->schema_version, "1.0.0");
	assert_string_equal(a->block_col, "blockDim");
	assert_int_equal(a->rank_id, 0);
	assert_int_equal(info.level, 1);
	assert_string_equal(info.era, "db");
	assert_int_equal(info.na_type, 0);
	for (i = 0; i < kt.n; i++) {
		total += kt.v[i].dur_ns;
		comm += !strcmp(kernel_key_core(&kt, kt.v[i].key), "HCCL");
		assert_int_equal(kt.v[i].step, 50);
	}
	/* sqlite3: sum(endNs - startNs) of the join and of COMMUNICATION_OP */
	assert_int_equal(total, 8903431 + 102108100);
	assert_int_equal(comm, 4);
	assert_true(key_of(&kt, "MatMulV2", "AI_CORE") != UINT32_MAX);
	assert_true(key_of(&kt, "hcom_allReduce_", "HCCL") != UINT32_MAX);
	assert_true(db_has(db, DBT_OVERLAP_ANALYSIS));
	kernels_info_release(&info);
	kernel_table_release(&kt);
	db_close(db);
}

static void db_types_level0_kernels_from_their_names(void **s)
{
	struct kernel_table kt;
	struct kernels_info info;
	struct db *db;
	struct commstats cs;
	struct err e = ERR_INIT;

	(void)s;
	read_sample(L0R0, &db, &kt, &info);
	assert_int_equal(kt.n, 191);
	assert_int_equal(info.level, 0);
	assert_int_equal(info.na_type, 191); /* every opType is N/A */
	assert_true(key_of(&kt, "MatMulV2", "N/A") != UINT32_MAX);
	assert_true(key_of(&kt, "hcom_allReduce_", "HCCL") != UINT32_MAX);
	/* its HCCL tasks carry no details: nothing to say about them */
	assert_int_equal(db_read_comm(db, &cs, &e), 1);
	commstats_release(&cs);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	db_close(db);
}

/* ---- small dbs ----------------------------------------------------------- */

/* Two compute kernels (one with opType N/A), a collective, two steps given
 * out of order, text times in PYTORCH_API, an MSTX range. */
static const char SMALL[] =
    "INSERT INTO TASK VALUES (1000,1300,0,11,1,7,0,0,2,1,0,0),"
    "(1400,1500,0,12,2,7,0,0,2,2,0,0),(5000,5100,0,13,3,7,0,0,2,3,0,0),"
    "(1350,1360,0,21,4,7,0,0,4,4,0,0),(1360,1700,0,21,5,7,0,0,4,5,0,0);"
    "INSERT INTO COMPUTE_TASK_INFO VALUES (1,1,24,0,3,2),(7,2,8,0,3,6),"
    "(1,3,24,0,3,2);"
    "INSERT INTO COMMUNICATION_OP VALUES (4,1350,1700,21,0,1,5);"
    "INSERT INTO STEP_TIME VALUES (4,4000,6000),(3,900,2000);"
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid "
    "INTEGER, connectionId INTEGER, name INTEGER, type INTEGER);"
    "INSERT INTO STRING_IDS VALUES (268435456,'vae'),(268435457,'aten::mm'),"
    "(268435458,'ProfilerStep#3'),(268435459,'transformer');"
    "INSERT INTO PYTORCH_API VALUES ('800','1800',1,NULL,268435456,50001),"
    "('810','820',1,0,268435457,50001),('700','2100',1,NULL,268435458,50001),"
    "('4100','4200',1,NULL,268435459,50003);"
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
    "INSERT INTO CONNECTION_IDS VALUES (0,11),(0,21);"
    "CREATE TABLE MSTX_EVENTS (startNs INTEGER, endNs INTEGER, eventType "
    "INTEGER, message INTEGER);"
    "INSERT INTO MSTX_EVENTS VALUES (4500,4900,2,268435459),"
    "(4600,4600,0,268435459);";

static int want_markers(const char *name, void *ctx)
{
	(void)ctx;
	return !strcmp(name, "vae") || !strcmp(name, "transformer");
}

static void range(const char *name, int64_t a, int64_t b, void *ctx)
{
	struct strbuf *sb = ctx;
	strbuf_addf(sb, "%s %lld-%lld;", name, (long long)a, (long long)b);
}

static void flow(int64_t host, int64_t dev, void *ctx)
{
	struct strbuf *sb = ctx;
	strbuf_addf(sb, "%lld>%lld;", (long long)host, (long long)dev);
}

static void db_reads_a_small_db_of_a_newer_schema(void **s)
{
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct kernels_info info;
	struct db_step *steps;
	struct strbuf got = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct db *db;
	size_t n;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "ascend_pytorch_profiler.db");
	make_db(path, 1, SMALL);
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_string_equal(db_about(db)->schema_version, "9.9.9");
	assert_string_equal(db_about(db)->block_col, "blockNum");
	assert_int_equal(db_about(db)->rank_id, -1); /* no RANK_DEVICE_MAP */
	assert_int_equal(db_read_kernels(db, 1, &kt, &info, &e), 0);
	assert_int_equal(kt.n, 4);
	assert_int_equal(info.na_type, 1); /* aclnnAdd..., opType N/A */
	assert_true(key_of(&kt, "Add", "AI_CORE") != UINT32_MAX);
	assert_true(key_of(&kt, "hcom_allGather_", "HCCL") != UINT32_MAX);
	/* steps sorted by start; a kernel's step is the one holding it */
	assert_int_equal(db_read_steps(db, &steps, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(steps[0].id, 3);
	assert_int_equal(kt.v[0].step, 3);
	assert_int_equal(kt.v[2].step, 4);
	db_steps_free(steps, n);
	/* marker ranges: "op" rows of PYTORCH_API (text times) and MSTX
	 * ranges (not instant markers), names chosen by want() */
	assert_int_equal(db_host_ranges(db, want_markers, range, &got, &e), 0);
	assert_string_equal(got.buf, "vae 800-1800;transformer 4500-4900;");
	/* one link per connection id: kernel 1 (TASK 11), and the
	 * collective (21), whose two HCCL tasks share its id: the first */
	strbuf_reset(&got);
	assert_int_equal(db_flows_each(db, flow, &got, &e), 0);
	assert_string_equal(got.buf, "810>1000;810>1350;");
	kernels_info_release(&info);
	kernel_table_release(&kt);
	db_close(db);
	strbuf_release(&got);
	unit_rmtree(dir);
}

/* Ids that repeat never multiply (issue 23): a TASK.globalTaskId held
 * twice is refused naming the table and the id; a launch's links are one
 * per distinct CONNECTION_IDS pair, from the earliest op of its id to the
 * earliest task of its connection (figures by hand from the rows). */
static void db_ids_repeat_without_multiplying(void **s)
{
	static const char DUP[] =
	    "INSERT INTO TASK (startNs, endNs, connectionId, globalTaskId) "
	    "VALUES (1000, 1100, 0, 1), (1200, 1300, 0, 1);"
	    "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, taskType, "
	    "opType) VALUES (7, 1, 3, 6);";
	static const char LINKS[] =
	    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, connectionId "
	    "INTEGER, name INTEGER);"
	    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
	    "INSERT INTO PYTORCH_API VALUES ('100', '110', 5, 7), ('90', '95', "
	    "5, 7), ('80', '85', NULL, 7);"
	    "INSERT INTO CONNECTION_IDS VALUES (5, 50), (5, 50), (5, 60), "
	    "(-1, 60);"
	    "INSERT INTO TASK (startNs, endNs, connectionId, globalTaskId) "
	    "VALUES (1000, 1100, 50, 1), (900, 950, 50, 2), (2000, 2100, 60, "
	    "3);"
	    "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, taskType, "
	    "opType) VALUES (7, 1, 3, 6), (7, 2, 3, 6), (7, 3, 3, 6);";
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct kernels_info info;
	struct strbuf got = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct db *db;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "dup.db");
	make_db(path, 1, DUP);
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(db_read_kernels(db, 0, &kt, &info, &e), -1);
	assert_non_null(strstr(e.msg, "dup.db: TASK.globalTaskId 1 appears 2 "
	                              "times"));
	assert_int_equal(kt.n, 0);
	kernels_info_release(&info);
	db_close(db);
	err_clear(&e);
	unit_join(path, sizeof(path), dir, "links.db");
	make_db(path, 1, LINKS);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(db_flows_each(db, flow, &got, &e), 0);
	assert_string_equal(got.buf, "90>900;90>2000;");
	db_close(db);
	kernel_table_release(&kt);
	strbuf_release(&got);
	unit_rmtree(dir);
}

/* TASK.taskType through STRING_IDS decides with the same table as the
 * trace (core/tasktype.h): KERNEL_AICORE and KERNEL_AIVEC rows are
 * kernels, an EVENT_RECORD row is a runtime task, a NEW_TASK row is
 * tallied (two rows, 30 + 70 ns), an id STRING_IDS lacks keeps the row.
 * Figures by hand from the rows below. */
static void db_task_types_decide_with_the_table(void **s)
{
	static const char SQL[] =
	    "INSERT INTO STRING_IDS VALUES (10,'KERNEL_AICORE'),"
	    "(11,'KERNEL_AIVEC'),(12,'EVENT_RECORD'),(13,'NEW_TASK');"
	    "INSERT INTO TASK VALUES (100,200,0,1,1,7,10,0,2,1,0,0),"
	    "(300,400,0,2,2,7,11,0,2,2,0,0),(500,600,0,3,3,7,12,0,2,3,0,0),"
	    "(700,730,0,4,4,7,13,0,2,4,0,0),(800,870,0,5,5,7,13,0,2,5,0,0),"
	    "(900,950,0,6,6,7,99,0,2,6,0,0);"
	    "INSERT INTO COMPUTE_TASK_INFO VALUES (1,1,24,0,3,2),"
	    "(1,2,24,0,3,2),(1,3,24,0,3,2),(1,4,24,0,3,2),(1,5,24,0,3,2),"
	    "(1,6,24,0,3,2);";
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct kernels_info info;
	struct err e = ERR_INIT;
	struct db *db;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "t.db");
	make_db(path, 1, SQL);
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(db_read_kernels(db, 1, &kt, &info, &e), 0);
	assert_int_equal(kt.n, 3); /* 100-200, 300-400, 900-950 */
	assert_int_equal(db_about(db)->task_left_out, 1);
	assert_int_equal(db_about(db)->unknown.n, 1);
	assert_string_equal(db_about(db)->unknown.v[0].name, "NEW_TASK");
	assert_int_equal(db_about(db)->unknown.v[0].count, 2);
	assert_int_equal(db_about(db)->unknown.v[0].dur_ns, 100);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	db_close(db);
	unit_rmtree(dir);
}

/* '?', '#', '%', '&', a space and a byte that is no UTF-8 in the path. */
static void db_opens_paths_uri_syntax_would_misread(void **s)
{
	char dir[4096], path[4096];
	struct err e = ERR_INIT;
	struct db *db;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "a?mode=rw&b#c%41 \xff.db");
	make_db(path, 1, SMALL);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_true(db_has(db, DBT_TASK));
	db_close(db);
	unit_rmtree(dir);
}

static int cmp_start(const void *a, const void *b)
{
	int64_t x = ((const struct kernel *)a)->start_ns;
	int64_t y = ((const struct kernel *)b)->start_ns;
	return (x > y) - (x < y);
}

static void dbstages_split_steps_from_the_kernels(void **s)
{
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct kernels_info info;
	struct step_stat *st;
	struct err e = ERR_INIT;
	struct db *db;
	size_t n;
	int from_kernels;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "x.db");
	/* step 3 [900, 2000]: compute [1000,1300] [1400,1500], comm
	 * [1350,1700]: computing 400, comm 350 of which 100 hidden */
	make_db(path, 1, SMALL);
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(db_read_kernels(db, 1, &kt, &info, &e), 0);
	/* dbstages wants kt by start, as analyse() leaves it */
	qsort(kt.v, kt.n, sizeof(*kt.v), cmp_start);
	assert_int_equal(dbstages_steps(db, &kt, &st, &n, &from_kernels, &e),
	                 0);
	assert_true(from_kernels);
	assert_int_equal(n, 2);
	assert_int_equal(st[0].step, 3);
	assert_int_equal(st[0].computing_ns, 400);
	assert_int_equal(st[0].comm_ns, 350);
	assert_int_equal(st[0].not_overlapped_ns, 250);
	/* span 1000..1700 = 700; busy 400 + 350 - 100 = 650 */
	assert_int_equal(st[0].free_ns, 50);
	assert_int_equal(st[0].stage_ns, 400 + 250 + 50);
	assert_int_equal(st[0].preparing_ns, 100);
	assert_int_equal(st[1].computing_ns, 100);
	free(st);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	db_close(db);
	unit_rmtree(dir);
}

/* The profiler's Overlap Analysis, when the db has it: per step (clipped
 * to the step) and per stage segment. */
static void dbstages_use_overlap_analysis(void **s)
{
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct step_stat *st;
	struct trace_summary ts;
	struct segment seg = {STAGE_VAE, 1000, 1600, 2, 400, 3};
	struct err e = ERR_INIT;
	struct db *db;
	uint64_t skipped;
	size_t n;
	int from_kernels;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "x.db");
	make_db(
	    path, 1,
	    "CREATE TABLE OVERLAP_ANALYSIS (id INTEGER PRIMARY KEY "
	    "AUTOINCREMENT, deviceId integer, startNs integer, endNs "
	    "integer, type integer);"
	    "INSERT INTO OVERLAP_ANALYSIS VALUES (NULL,0,1000,1300,0),"
	    "(NULL,0,1400,1500,0),(NULL,0,1350,1700,1),(NULL,0,1500,1700,2),"
	    "(NULL,0,1300,1350,3),(NULL,0,1900,2100,3),(NULL,0,1,2,7);"
	    "INSERT INTO STEP_TIME VALUES (3,900,2000);");
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(dbstages_steps(db, &kt, &st, &n, &from_kernels, &e),
	                 0);
	assert_false(from_kernels);
	assert_int_equal(n, 1);
	assert_int_equal(st[0].computing_ns, 400);
	assert_int_equal(st[0].comm_ns, 350);
	assert_int_equal(st[0].not_overlapped_ns, 200);
	assert_int_equal(st[0].free_ns, 50 + 100); /* 1900-2100 clipped */
	assert_int_equal(st[0].preparing_ns, 100);
	free(st);
	assert_int_equal(
	    dbstages_collect(db, NULL, 0, &seg, 1, &ts, &skipped, &e), 0);
	assert_true(ts.ov.found);
	assert_int_equal(skipped, 1); /* type 7 */
	assert_int_equal(ts.ov.total[OV_FREE], 250);
	assert_int_equal(ts.ov.stage[STAGE_VAE][OV_COMM], 250);
	assert_int_equal(ts.ov.stage[STAGE_VAE][OV_NOT_OVERLAPPED], 100);
	trace_summary_release(&ts);
	db_close(db);
	unit_rmtree(dir);
}

/* The db reader charges the memory budget as kernel_details.csv's does:
 * its kernel table (sized at once from COMPUTE_TASK_INFO's row count),
 * STEP_TIME's rows, the step table and the markers; refused, an input
 * error names the db; every charge is given back. */
static void db_charges_the_budget_and_gives_it_back(void **s)
{
	char dir[4096], path[4096];
	struct kernel_table kt;
	struct kernels_info info;
	struct step_stat *st;
	struct trace_summary ts;
	struct trace_marker_rule mr = {"vae", STAGE_VAE};
	struct err e = ERR_INIT;
	struct db *db;
	uint64_t skipped;
	size_t n;
	int from_kernels;

	(void)s;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "x.db");
	make_db(
	    path, 1,
	    "INSERT INTO TASK WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
	    "SELECT x + 1 FROM r WHERE x < 40000) SELECT 10000 + 10 * x, "
	    "10005 + 10 * x, 0, 0, 100 + x, 7, 0, 0, 2, x, 0, 0 FROM r;"
	    "INSERT INTO COMPUTE_TASK_INFO WITH RECURSIVE r(x) AS (SELECT 1 "
	    "UNION ALL SELECT x + 1 FROM r WHERE x < 40000) SELECT 7, "
	    "100 + x, 8, 0, 3, 6 FROM r;"
	    "INSERT INTO STEP_TIME WITH RECURSIVE r(x) AS (SELECT 1 UNION "
	    "ALL SELECT x + 1 FROM r WHERE x < 3000) SELECT x, 10000 + "
	    "100 * x, 10090 + 100 * x FROM r;"
	    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid "
	    "INTEGER, connectionId INTEGER, name INTEGER, type INTEGER);"
	    "INSERT INTO STRING_IDS VALUES (268435456,'vae');"
	    "INSERT INTO PYTORCH_API WITH RECURSIVE r(x) AS (SELECT 1 UNION "
	    "ALL SELECT x + 1 FROM r WHERE x < 500) SELECT 10000 + 100 * x, "
	    "10050 + 100 * x, 1, NULL, 268435456, 50001 FROM r;");
	/* 40,000 kernels need 1.2 MiB (sized at once, no more than the file
	 * could hold: a row takes 64 bytes of it at least): refused under
	 * 1 MiB */
	membudget_set(1u << 20);
	kernel_table_init(&kt);
	assert_int_equal(db_open(path, &db, &e), 0);
	assert_int_equal(db_read_kernels(db, 1, &kt, &info, &e), -1);
	if (!strstr(e.msg, "x.db: COMPUTE_TASK_INFO: kernel table of ") ||
	    !strstr(e.msg, "--max-memory"))
		fail_msg("%s", e.msg);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	assert_int_equal(membudget_used(), 0);

	membudget_set(64u << 20);
	assert_int_equal(db_read_kernels(db, 1, &kt, &info, &e), 0);
	assert_int_equal(kt.n, 40000);
	assert_int_equal(kt.alloc, kt.n); /* cut to size */
	qsort(kt.v, kt.n, sizeof(*kt.v), cmp_start);
	assert_int_equal(dbstages_steps(db, &kt, &st, &n, &from_kernels, &e),
	                 0);
	assert_int_equal(n, 3000);
	/* the rows stay charged for the caller */
	assert_true(membudget_used() >= n * sizeof(*st));
	membudget_release(n * sizeof(*st));
	free(st);
	assert_int_equal(
	    dbstages_collect(db, &mr, 1, NULL, 0, &ts, &skipped, &e), 0);
	assert_int_equal(ts.nmarkers, 500);
	assert_string_equal(ts.markers[0].name, "vae");
	assert_null(ts.markers[RESULT_MAX_MARKERS].name); /* not listed */
	assert_int_equal(dbstages_map_markers(db, &ts, &e), 0);
	trace_summary_release(&ts);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
	db_close(db);
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
	        hccl_main_plane_is_the_first_with_waits_or_transfers),
	    cmocka_unit_test(hccl_rdma_transfer_runs_to_its_wait),
	    cmocka_unit_test(hccl_level0_tasks_carry_no_details),
	    cmocka_unit_test(db_reads_the_level1_sample),
	    cmocka_unit_test(db_types_level0_kernels_from_their_names),
	    cmocka_unit_test(db_reads_a_small_db_of_a_newer_schema),
	    cmocka_unit_test(db_task_types_decide_with_the_table),
	    cmocka_unit_test(db_ids_repeat_without_multiplying),
	    cmocka_unit_test(db_opens_paths_uri_syntax_would_misread),
	    cmocka_unit_test(dbstages_split_steps_from_the_kernels),
	    cmocka_unit_test(dbstages_use_overlap_analysis),
	    cmocka_unit_test(db_charges_the_budget_and_gives_it_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
