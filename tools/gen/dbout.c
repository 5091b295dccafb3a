/* dbout.c: the SQLite db export (see dbout.h). One transaction per rank,
 * prepared inserts, no journal: the file is scratch until it is closed. */
#include "dbout.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commjson.h"
#include "model.h"
#include "xalloc.h"
#include "memgen.h"
#include "banned.h"

#define FWK_IDS     (1LL << 28) /* torch_npu numbers its strings from here */
#define NA_U32      4294967295LL
#define API_OP      50001 /* ENUM_API_TYPE "op" */
#define TR_SDMA     0     /* ENUM_HCCL_TRANSPORT_TYPE */
#define TR_LOCAL    2
#define TR_NA       65534
#define LK_CHIP     0 /* ENUM_HCCL_LINK_TYPE */
#define LK_HCCS     1
#define LK_NA       65534
#define LK_INV      65535
#define HCCL_STREAM 4

/* The tables as the real samples declare them (schema 1.0.0). */
static const char SCHEMA[] =
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,"
    "connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType "
    "INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId "
    "INTEGER, depth integer);"
    "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs "
    "INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY "
    "KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,count "
    "NUMERIC,opType INTEGER, waitNs INTEGER);"
    "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId "
    "INTEGER,taskType INTEGER,planeId INTEGER,groupName INTEGER,notifyId "
    "INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType "
    "INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);"
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
    "CREATE TABLE OVERLAP_ANALYSIS (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "deviceId integer, startNs integer, endNs integer, type integer);"
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, "
    "connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId "
    "INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId "
    "INTEGER, type INTEGER, depth integer);"
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
    "CREATE TABLE META_DATA (name TEXT,value TEXT);"
    "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);"
    "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name "
    "TEXT);"
    "CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_HCCL_RDMA_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_MSTX_EVENT_TYPE (id INTEGER PRIMARY KEY,name TEXT);";

/* Their contents in the real samples. */
static const char ENUMS[] =
    "INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(5500,'hccl'),"
    "(10000,'node'),(15000,'model'),(20000,'acl'),(50001,'op'),"
    "(50002,'queue'),(50003,'trace'),(50004,'mstx');"
    "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0,'SDMA'),(1,'RDMA'),"
    "(2,'LOCAL'),(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS'),"
    "(2,'PCIE'),(3,'ROCE'),(4,'SIO'),(5,'HCCS_SW'),(6,'STANDARD_ROCE'),"
    "(7,'RESERVED'),(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_RDMA_TYPE VALUES (0,'RDMA_SEND_NOTIFY'),"
    "(1,'RDMA_SEND_PAYLOAD'),(2,'RDMA_PAYLOAD_PREPARE'),"
    "(3,'RDMA_PAYLOAD_CHECK'),(4,'RDMA_PAYLOAD_ACK'),(5,'RDMA_SEND_OP'),"
    "(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (0,'INT8'),(1,'INT16'),"
    "(2,'INT32'),(3,'FP16'),(4,'FP32'),(5,'INT64'),(6,'UINT64'),(7,'UINT8'),"
    "(8,'UINT16'),(9,'UINT32'),(10,'FP64'),(11,'BFP16'),(12,'INT128'),"
    "(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_MSTX_EVENT_TYPE VALUES (0,'marker'),(1,'push/pop'),"
    "(2,'start/end'),(3,'marker_ex');"
    "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION_MICRO','0'),"
    "('SCHEMA_VERSION_MINOR','0'),('SCHEMA_VERSION_MAJOR','1'),"
    "('SCHEMA_VERSION','1.0.0');";

enum stmt {
	S_TASK,
	S_COMPUTE,
	S_COMM_OP,
	S_COMM_TASK,
	S_STEP,
	S_OVERLAP,
	S_API,
	S_CONN,
	S_STRING,
	S_MEM, /* --memory only: MEMORY_RECORD */
	S_NPU, /* --memory only: NPU_MEM */
	S_COUNT
};

static const char *const INSERTS[S_COUNT] = {
    "INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?,0)",
    "INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,0,0,11,?,?,?,?)",
    ("INSERT INTO COMMUNICATION_TASK_INFO VALUES "
     "(?,?,?,?,?,0,65535,?,?,?,?,?,?,?)"),
    "INSERT INTO STEP_TIME VALUES (?,?,?)",
    "INSERT INTO OVERLAP_ANALYSIS VALUES (NULL,?,?,?,?)",
    "INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,NULL,NULL,NULL,NULL,NULL,?,?)",
    "INSERT INTO CONNECTION_IDS VALUES (?,?)",
    "INSERT INTO STRING_IDS VALUES (?,?)",
    "INSERT INTO MEMORY_RECORD VALUES (?,?,?,?,?,?,?)",
    "INSERT INTO NPU_MEM VALUES (?,0,?,?,?)"};

/* --memory: the real tables' columns (the 2025 AlexNet db) */
static const char MEMORY_SCHEMA[] =
    "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, "
    "totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER, "
    "streamPtr INTEGER, deviceId INTEGER);"
    "CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,"
    "timestampNs INTEGER,deviceId INTEGER);";

/* Interned strings, in two id ranges (CANN's from 0, the framework's from
 * FWK_IDS), by open addressing on (range, text). */
struct strid {
	char *s; /* NULL: empty slot */
	int64_t id;
	int fwk;
};

struct dbout {
	sqlite3 *h;
	sqlite3_stmt *st[S_COUNT];
	struct strid *ids;
	size_t cap, n;
	int64_t next[2];
	int64_t task_id, op_id, conn_id;
	int level0;
	int failed;
	char msg[256];
};

static uint64_t hash(const char *s, int fwk)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)fwk;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void ids_grow(struct dbout *d)
{
	struct strid *old = d->ids;
	size_t oldcap = d->cap, i, j;

	d->cap = d->cap ? d->cap * 2 : 4096;
	d->ids = xcalloc(d->cap, sizeof(*d->ids));
	for (i = 0; i < oldcap; i++) {
		if (!old[i].s)
			continue;
		for (j = hash(old[i].s, old[i].fwk) & (d->cap - 1); d->ids[j].s;
		     j = (j + 1) & (d->cap - 1))
			;
		d->ids[j] = old[i];
	}
	free(old);
}

static int64_t intern(struct dbout *d, const char *s, int fwk)
{
	size_t j;

	if ((d->n + 1) * 2 > d->cap)
		ids_grow(d);
	for (j = hash(s, fwk) & (d->cap - 1); d->ids[j].s;
	     j = (j + 1) & (d->cap - 1))
		if (d->ids[j].fwk == fwk && !strcmp(d->ids[j].s, s))
			return d->ids[j].id;
	d->ids[j].s = xstrdup(s);
	d->ids[j].fwk = fwk;
	d->ids[j].id = (fwk ? FWK_IDS : 0) + d->next[fwk]++;
	d->n++;
	return d->ids[j].id;
}

/* A CSV field of the model ("""1,2;3""", N/A) as the db stores it:
 * "1,2;3" with its quotes undoubled, N/A as it is. */
static int64_t field_id(struct dbout *d, const char *csv)
{
	char buf[512];
	size_t n, i, o = 0;

	if (!csv)
		return intern(d, "N/A", 0);
	n = strlen(csv);
	if (n < 2 || csv[0] != '"' || n >= sizeof(buf))
		return intern(d, csv, 0);
	for (i = 1; i + 1 < n; i++) {
		buf[o++] = csv[i];
		if (csv[i] == '"' && csv[i + 1] == '"')
			i++;
	}
	buf[o] = '\0';
	return intern(d, buf, 0);
}

/* Binds int64 values to columns 1.. of statement s, then runs it. */
static void run(struct dbout *d, enum stmt s, const int64_t *v, int n)
{
	sqlite3_stmt *st = d->st[s];
	int i;

	for (i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	if (sqlite3_step(st) != SQLITE_DONE && !d->failed) {
		d->failed = 1;
		snprintf(d->msg, sizeof(d->msg), "%s", sqlite3_errmsg(d->h));
	}
	sqlite3_reset(st);
}

struct dbout *dbout_open(const char *path, const struct rankctx *rc, char *err,
                         size_t errlen)
{
	struct dbout *d = xcalloc(1, sizeof(*d));
	const int blocknum = rc->o->variant == V_L1_2026;
	char *sql = NULL;
	int i;

	unlink(path);
	d->level0 = rc->o->variant == V_L0 || rc->o->variant == V_L0_OLD;
	if (sqlite3_open(path, &d->h) != SQLITE_OK)
		goto fail;
	sql = xfmt("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
	           "PRAGMA cache_size=-65536; %s%s"
	           "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId "
	           "INTEGER PRIMARY KEY,%s INTEGER,%s INTEGER,taskType INTEGER,"
	           "opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
	           "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes "
	           "INTEGER,outputShapes INTEGER,attrInfo INTEGER, waitNs "
	           "INTEGER); BEGIN;",
	           SCHEMA, rc->o->memory ? MEMORY_SCHEMA : "",
	           blocknum ? "blockNum" : "blockDim",
	           blocknum ? "mixBlockNum" : "mixBlockDim");
	if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	for (i = 0; i < S_COUNT; i++)
		if ((rc->o->memory || (i != S_MEM && i != S_NPU)) &&
		    sqlite3_prepare_v2(d->h, INSERTS[i], -1, &d->st[i], NULL) !=
		        SQLITE_OK)
			goto fail;
	free(sql);
	return d;
fail:
	snprintf(err, errlen, "%s: cannot write the db: %s", path,
	         d->h ? sqlite3_errmsg(d->h) : "out of memory");
	free(sql);
	for (i = 0; i < S_COUNT; i++)
		sqlite3_finalize(d->st[i]);
	sqlite3_close(d->h);
	free(d);
	return NULL;
}

/* ---- one step ----------------------------------------------------------- */

static const char *const TASK_TYPES[] = {"KERNEL_AICORE", "KERNEL_AIVEC",
                                         "MIX_AIC",       "MIX_AIV",
                                         "KERNEL_AICPU",  "HCCL"};

/* A TASK row; returns its globalTaskId. */
static int64_t task(struct dbout *d, const struct rankctx *rc, int64_t start,
                    int64_t dur, int64_t conn, const char *type, int64_t stream,
                    int64_t task_id)
{
	int64_t v[11] = {
	    start,        start + dur,        rc->device, conn,   d->task_id,
	    rc->host_pid, intern(d, type, 0), NA_U32,     stream, task_id,
	    NA_U32};

	run(d, S_TASK, v, 11);
	return d->task_id++;
}

static void compute_kernel(struct dbout *d, const struct rankctx *rc,
                           const struct kern *k, const struct tmpl *t,
                           int64_t conn)
{
	const char *core = CORE_NAMES[t->op->core];
	int64_t id = task(d, rc, k->start, k->dur, conn,
	                  TASK_TYPES[t->op->core], 2, k->seq);
	int64_t v[14] = {intern(d, t->name, 0),
	                 id,
	                 d->level0 ? 0 : t->block,
	                 d->level0 ? 0 : t->mix_block,
	                 intern(d, d->level0 ? "N/A" : core, 0),
	                 intern(d, d->level0 ? "N/A" : t->op->type, 0),
	                 field_id(d, t->in_fmts),
	                 field_id(d, t->in_types),
	                 field_id(d, t->in_shapes),
	                 field_id(d, t->out_fmts),
	                 field_id(d, t->out_types),
	                 field_id(d, t->out_shapes),
	                 intern(d, "N/A", 0),
	                 k->wait};

	run(d, S_COMPUTE, v, 14);
}

/* One HCCL task of collective op on plane p. */
struct htask {
	const char *type, *task_type; /* COMMUNICATION_TASK_INFO, TASK */
	int64_t plane, start, dur, transport, link, size;
};

static void hccl_task(struct dbout *d, const struct rankctx *rc,
                      const int64_t *op, const struct htask *h)
{
	int n = rc->o->ranks;
	int64_t id = task(d, rc, h->start, h->dur, op[1], h->task_type,
	                  HCCL_STREAM, NA_U32);
	int64_t v[12] = {op[0],
	                 id,
	                 intern(d, h->type, 0),
	                 h->plane,
	                 op[2],
	                 rc->rank,
	                 h->link == LK_CHIP ? rc->rank : (rc->rank + 1) % n,
	                 h->transport,
	                 h->size,
	                 h->size > 0 ? 11 : 65535,
	                 h->link,
	                 op[3]};

	if (d->level0) { /* Level0 exports no task details */
		v[2] = intern(d, "N/A", 0);
		v[3] = NA_U32;
		v[7] = TR_NA;
		v[8] = -1;
		v[9] = 65534;
		v[10] = LK_NA;
	}
	run(d, S_COMM_TASK, v, 12);
}

/* The collective and its tasks, which split it as communication.json does:
 * Synchronization, then the transfer (Transit), then the rest of the Wait;
 * Idle is what is left of Elapse. */
static void comm_kernel(struct dbout *d, const struct rankctx *rc,
                        const struct kern *k, const struct tmpl *t,
                        int64_t conn)
{
	struct comm_times c = commjson_split(rc, k, t);
	int n = rc->o->ranks;
	char name[64];
	int64_t at = k->start, op[4], local = k->dur < 2000 ? k->dur / 2 : 1000;
	int64_t bytes =
	    (int64_t)(t->comm_bytes * (uint64_t)(n - 1) / (uint64_t)n);
	int64_t v[10];
	struct htask h[5] = {
	    {"Memcpy", "SDMA", 0, at, local, TR_SDMA, LK_CHIP, 8},
	    {"Notify_Wait", "Notify Wait", 1, at, c.sync, TR_LOCAL, LK_INV, 0},
	    {"Notify_Record", "Write Value", 1, at + c.sync, 0, TR_SDMA, LK_INV,
	     0},
	    {"Memcpy", "SDMA", 1, at + c.sync, c.transit, TR_SDMA, LK_HCCS,
	     bytes},
	    {"Notify_Wait", "Notify Wait", 1, at + c.sync + c.transit,
	     c.wait - c.sync, TR_LOCAL, LK_INV, 0}};
	int i;

	snprintf(name, sizeof(name), "%s_%u_0_1", t->op->type,
	         (unsigned)k->seq);
	op[0] = intern(d, name, 0);
	op[1] = conn;
	snprintf(name, sizeof(name), "%llu",
	         (unsigned long long)rc->group_hash);
	op[2] = intern(d, name, 0);
	op[3] = d->op_id++;
	v[0] = op[0];
	v[1] = k->start;
	v[2] = k->start + k->dur;
	v[3] = conn;
	v[4] = op[2];
	v[5] = op[3];
	v[6] = intern(d, "MESH", 0);
	v[7] = (int64_t)(t->comm_bytes / 2);
	v[8] = intern(d, d->level0 ? "N/A" : t->op->type, 0);
	v[9] = k->wait;
	run(d, S_COMM_OP, v, 10);
	for (i = 0; i < 5; i++)
		hccl_task(d, rc, op, &h[i]);
}

static void api(struct dbout *d, const struct rankctx *rc, int64_t start,
                int64_t end, int64_t conn, const char *name)
{
	sqlite3_stmt *st = d->st[S_API];
	char a[24], b[24];

	snprintf(a, sizeof(a), "%lld", (long long)start);
	snprintf(b, sizeof(b), "%lld", (long long)end);
	sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, (int64_t)rc->host_pid << 32 | rc->host_pid);
	if (conn >= 0)
		sqlite3_bind_int64(st, 4, conn);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, intern(d, name, 1));
	sqlite3_bind_int64(st, 6, API_OP);
	sqlite3_bind_int64(st, 7, 0);
	if (sqlite3_step(st) != SQLITE_DONE && !d->failed) {
		d->failed = 1;
		snprintf(d->msg, sizeof(d->msg), "%s", sqlite3_errmsg(d->h));
	}
	sqlite3_reset(st);
}

/* The host side: ProfilerStep#N, the stage ranges, the launches. */
static void host(struct dbout *d, const struct rankctx *rc,
                 const struct step *s, const struct launch *l)
{
	char name[48];
	size_t i;

	snprintf(name, sizeof(name), "ProfilerStep#%d", s->number);
	api(d, rc, s->host_start, s->host_start + s->host_dur, -1, name);
	if (!l)
		return;
	for (i = 0; i < l->nmk; i++)
		api(d, rc, l->mk[i].host_start, l->mk[i].host_end, -1,
		    launch_marker_name(l->mk[i].stage));
	for (i = 0; rc->o->flows && i < s->n; i++) {
		const struct tmpl *t = &rc->m->t[s->k[i].tmpl];
		int64_t v[2] = {d->conn_id,
		                (int64_t)s->number * 100000 + (int64_t)i};
		run(d, S_CONN, v, 2);
		api(d, rc, l->host[i], l->host[i] + 500, d->conn_id++, t->name);
	}
}

static void overlap_rows(struct dbout *d, const struct rankctx *rc,
                         const struct ivlist *l, int type)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		int64_t v[4] = {rc->device, l->v[i].a, l->v[i].b, type};
		run(d, S_OVERLAP, v, 4);
	}
}

/* --memory: the samples memory_record.csv has, in bytes and ns: the
 * framework's in MEMORY_RECORD (component "PTA"), the driver's in NPU_MEM
 * (type "app", in hbm). */
static void memory_rows(struct dbout *d, const struct rankctx *rc,
                        const struct step *s)
{
	struct memsample ms;
	size_t i = 0;

	while (memgen_next(rc->m, s, &i, &ms)) {
		if (ms.app) {
			int64_t v[4] = {intern(d, "app", 0), ms.device_b,
			                ms.ts_ns, rc->device};
			run(d, S_NPU, v, 4);
		} else {
			int64_t v[7] = {intern(d, "PTA", 1), ms.ts_ns,
			                ms.allocated_b,      ms.reserved_b,
			                ms.allocated_b,      187651234567890LL,
			                rc->device};
			run(d, S_MEM, v, 7);
		}
	}
}

void dbout_step(struct dbout *d, const struct rankctx *rc, const struct step *s,
                const struct overlap *ov, const struct launch *l)
{
	int64_t v[3] = {s->number, s->host_start, s->host_start + s->host_dur};
	size_t i;

	run(d, S_STEP, v, 3);
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		const struct tmpl *t = &rc->m->t[k->tmpl];
		int64_t conn = (int64_t)s->number * 100000 + (int64_t)i;
		if (t->op->core == CORE_HCCL)
			comm_kernel(d, rc, k, t, conn);
		else
			compute_kernel(d, rc, k, t, conn);
	}
	host(d, rc, s, l);
	if (rc->o->memory)
		memory_rows(d, rc, s);
	overlap_rows(d, rc, &ov->comp, 0);
	overlap_rows(d, rc, &ov->comm, 1);
	overlap_rows(d, rc, &ov->commx, 2);
	overlap_rows(d, rc, &ov->freei, 3);
}

/* ---- closing ------------------------------------------------------------ */

static void strings(struct dbout *d)
{
	sqlite3_stmt *st = d->st[S_STRING];
	size_t i;

	for (i = 0; i < d->cap; i++) {
		if (!d->ids[i].s)
			continue;
		sqlite3_bind_int64(st, 1, d->ids[i].id);
		sqlite3_bind_text(st, 2, d->ids[i].s, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE && !d->failed) {
			d->failed = 1;
			snprintf(d->msg, sizeof(d->msg), "%s",
			         sqlite3_errmsg(d->h));
		}
		sqlite3_reset(st);
	}
}

int dbout_close(struct dbout *d, const struct rankctx *rc, char *err,
                size_t errlen)
{
	char *sql =
	    xfmt("%sINSERT INTO RANK_DEVICE_MAP VALUES (%d, %d);"
	         "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId);"
	         "CREATE INDEX CommunicationTaskIndex ON "
	         "COMMUNICATION_TASK_INFO (globalTaskId);"
	         "COMMIT;",
	         ENUMS, rc->rank, rc->device);
	int i, ret = 0;
	size_t k;

	strings(d);
	if (!d->failed &&
	    sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK) {
		d->failed = 1;
		snprintf(d->msg, sizeof(d->msg), "%s", sqlite3_errmsg(d->h));
	}
	for (i = 0; i < S_COUNT; i++)
		sqlite3_finalize(d->st[i]);
	if (sqlite3_close(d->h) != SQLITE_OK && !d->failed) {
		d->failed = 1;
		snprintf(d->msg, sizeof(d->msg), "cannot close");
	}
	if (d->failed) {
		snprintf(err, errlen, "db export: %s", d->msg);
		ret = -1;
	}
	for (k = 0; k < d->cap; k++)
		free(d->ids[k].s);
	free(d->ids);
	free(sql);
	free(d);
	return ret;
}

/* ---- self-check ----------------------------------------------------------
 */

static int64_t one(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int expect(const char *path, const char *what, int64_t got, int64_t want)
{
	if (got == want)
		return 0;
	fprintf(stderr, "self-check: %s: %s %lld, expected %lld\n", path, what,
	        (long long)got, (long long)want);
	return -1;
}

int dbout_check(const char *path, const struct truth *t)
{
	int64_t all = 0, comm = 0;
	sqlite3 *h = NULL;
	int s, bad = 0;

	for (s = 0; s < ST_COUNT; s++) {
		all += t->st[s].time;
		comm += t->st[s].cat_time[CAT_COMM];
	}
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		fprintf(stderr, "self-check: %s: cannot open\n", path);
		sqlite3_close(h);
		return -1;
	}
	bad |=
	    expect(path, "kernels",
	           one(h, "SELECT (SELECT count(*) FROM COMPUTE_TASK_INFO c "
	                  "JOIN TASK t ON t.globalTaskId = c.globalTaskId) + "
	                  "(SELECT count(*) FROM COMMUNICATION_OP)"),
	           (int64_t)t->kernels);
	bad |=
	    expect(path, "kernel time ns",
	           one(h, "SELECT (SELECT sum(t.endNs - t.startNs) FROM "
	                  "COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId "
	                  "= c.globalTaskId) + (SELECT coalesce(sum(endNs - "
	                  "startNs), 0) FROM COMMUNICATION_OP)"),
	           all);
	bad |= expect(path, "collective time ns",
	              one(h, "SELECT coalesce(sum(endNs - startNs), 0) FROM "
	                     "COMMUNICATION_OP"),
	              comm);
	bad |= expect(path, "steps", one(h, "SELECT count(*) FROM STEP_TIME"),
	              t->steps);
	sqlite3_close(h);
	return bad ? -1 : 0;
}
