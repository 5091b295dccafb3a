/* libFuzzer target: the db export reader (input/db*.c) over a SQLite file
 * built from the input. It must never crash, hang or leak, refuse only with
 * ERR_INPUT and a message, and never hand on more than the rows it was
 * given: no kernel, flow or range multiplied by a join, whatever the ids
 * repeat or collide with.
 *
 * The first byte picks the mode:
 *   odd:  the rest is the database file itself (seeds: the sample dbs);
 *   even: the rest is a script of rows for a fixed schema (the tables and
 *         columns the reader uses, no keys declared, so ids may repeat),
 *         written with SQLite into a file: each row is a table byte and
 *         one value per column, each value a tag byte (NULL, a small
 *         integer from -4 to 27 so ids collide, a 64-bit integer,
 *         an integer as text, bytes as text, a real) and its bytes.
 * STRING_IDS starts with the names the reader knows (AI_CORE, HCCL, N/A,
 * a kernel, a marker...) at small ids, -1 and -2 among them: the ids a
 * reader with sentinels would have mistaken.
 *
 * The harness writes the file with SQLite: it is a test's writer, not a
 * reader of profiles, so the rule that SQLite lives in input/db* (for
 * sdperf's own code) is kept. */
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/db.h"
#include "input/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ROWS 64 /* rows written per input: keeps each run cheap */

struct table {
	const char *name;
	const char *cols; /* for CREATE TABLE, no keys */
	int ncols;
};

static const struct table tables[] = {
    {"TASK",
     "startNs INTEGER, endNs INTEGER, connectionId INTEGER, globalTaskId "
     "INTEGER, taskType INTEGER",
     5},
    {"COMPUTE_TASK_INFO",
     "name INTEGER, globalTaskId INTEGER, taskType INTEGER, opType INTEGER", 4},
    {"COMMUNICATION_OP",
     "opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId "
     "INTEGER, opId INTEGER, opType INTEGER",
     6},
    {"COMMUNICATION_TASK_INFO",
     "name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId "
     "INTEGER, transportType INTEGER, size INTEGER, linkType INTEGER, opId "
     "INTEGER",
     8},
    {"STRING_IDS", "id INTEGER, value TEXT", 2},
    {"STEP_TIME", "id INTEGER, startNs INTEGER, endNs INTEGER", 3},
    {"OVERLAP_ANALYSIS", "type INTEGER, startNs INTEGER, endNs INTEGER", 3},
    {"PYTORCH_API",
     "startNs TEXT, endNs TEXT, connectionId INTEGER, name INTEGER, type "
     "INTEGER",
     5},
    {"CONNECTION_IDS", "id INTEGER, connectionId INTEGER", 2},
    {"MSTX_EVENTS", "startNs INTEGER, endNs INTEGER, message INTEGER", 3},
    {"RANK_DEVICE_MAP", "rankId INTEGER, deviceId INTEGER", 2},
    {"ENUM_HCCL_TRANSPORT_TYPE", "id INTEGER, name TEXT", 2},
    {"ENUM_HCCL_LINK_TYPE", "id INTEGER, name TEXT", 2},
    {"ENUM_API_TYPE", "id INTEGER, name TEXT", 2},
    {"MEMORY_RECORD",
     "component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
     "totalReserved INTEGER",
     4},
    {"NPU_MEM", "type INTEGER, hbm INTEGER, timestampNs INTEGER", 3},
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

static const char *const prelude =
    "INSERT INTO STRING_IDS VALUES (0, 'aclnnAdd_AddAiCore_Add'), (1, "
    "'AI_CORE'), (2, 'Add'), (3, 'HCCL'), (4, 'N/A'), (5, 'transformer'), "
    "(6, 'hcom_allReduce__1_0_1'), (7, 'EVENT_RECORD'), (8, 'app'), (9, "
    "'PTA'), (10, 'Notify_Wait'), (-1, 'MatMulV2'), (-2, 'AI_CORE');"
    "INSERT INTO ENUM_API_TYPE VALUES (50001, 'op'), (50004, 'mstx');"
    "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0, 'SDMA');"
    "INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (1, 'HCCS');";

struct cur {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct cur *c)
{
	unsigned v;

	if (!c->n)
		return 0;
	v = *c->p++;
	c->n--;
	return v;
}

/* Binds one value of the script to parameter i. */
static void bind_value(sqlite3_stmt *st, int i, struct cur *c)
{
	unsigned tag = take(c), k;
	int64_t v = 0;
	char text[24];

	switch (tag & 7) {
	case 0:
		sqlite3_bind_null(st, i);
		break;
	case 1: /* a small id: collisions and duplicates */
		sqlite3_bind_int64(st, i, (int64_t)(tag >> 3) - 4);
		break;
	case 2: /* a time-like integer, or the extremes */
		for (k = 0; k < 8; k++)
			v = (int64_t)((uint64_t)v << 8 | take(c));
		sqlite3_bind_int64(st, i, v);
		break;
	case 3: /* an integer as text */
		snprintf(text, sizeof(text), "%d", (int)(tag >> 3) - 4);
		sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
		break;
	case 4: /* bytes as text */
		k = take(c) % 12;
		if (k > c->n)
			k = (unsigned)c->n;
		sqlite3_bind_text(st, i, (const char *)c->p, (int)k,
		                  SQLITE_TRANSIENT);
		c->p += k;
		c->n -= k;
		break;
	case 5: /* a real, integral or not */
		sqlite3_bind_double(st, i, (double)(tag >> 3) / 2.0);
		break;
	default: /* a small positive time */
		sqlite3_bind_int64(st, i, (int64_t)take(c) * 100 + 1000);
		break;
	}
}

static int write_rows(sqlite3 *h, struct cur *c)
{
	sqlite3_stmt *ins[NTABLES] = {0};
	char sql[512];
	size_t t, rows;
	int rc = 0, i;

	for (rows = 0; c->n && rows < MAX_ROWS && !rc; rows++) {
		t = take(c) % NTABLES;
		if (!ins[t]) {
			int n = snprintf(sql, sizeof(sql),
			                 "INSERT INTO %s VALUES (?",
			                 tables[t].name);
			for (i = 1; i < tables[t].ncols; i++)
				n += snprintf(sql + n, sizeof(sql) - (size_t)n,
				              ", ?");
			snprintf(sql + n, sizeof(sql) - (size_t)n, ")");
			if (sqlite3_prepare_v2(h, sql, -1, &ins[t], NULL) !=
			    SQLITE_OK)
				abort();
		}
		sqlite3_reset(ins[t]);
		for (i = 1; i <= tables[t].ncols; i++)
			bind_value(ins[t], i, c);
		if (sqlite3_step(ins[t]) != SQLITE_DONE)
			rc = -1;
	}
	for (t = 0; t < NTABLES; t++)
		sqlite3_finalize(ins[t]);
	return rc;
}

/* The schema and the prelude, built once: each input starts from a copy
 * of this image (a CREATE TABLE per table per input was most of a run). */
static unsigned char *template_db;
static sqlite3_int64 template_len;

static void make_template(void)
{
	char sql[512];
	sqlite3 *h = NULL;
	size_t t;

	if (sqlite3_open(":memory:", &h) != SQLITE_OK)
		abort();
	for (t = 0; t < NTABLES; t++) {
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (%s)",
		         tables[t].name, tables[t].cols);
		if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
			abort();
	}
	if (sqlite3_exec(h, prelude, NULL, NULL, NULL) != SQLITE_OK ||
	    !(template_db = sqlite3_serialize(h, "main", &template_len, 0)))
		abort();
	sqlite3_close(h);
}

/* The template with the script's rows, written to path. */
static int build_db(const char *path, const uint8_t *data, size_t size)
{
	struct cur c = {data, size};
	unsigned char *img = NULL;
	sqlite3_int64 len = 0;
	sqlite3 *h = NULL;
	FILE *f;
	int rc = -1;

	if (!template_db)
		make_template();
	img = sqlite3_malloc64((sqlite3_uint64)template_len);
	if (!img || sqlite3_open(":memory:", &h) != SQLITE_OK)
		goto out;
	memcpy(img, template_db, (size_t)template_len);
	if (sqlite3_deserialize(h, "main", img, template_len, template_len,
	                        SQLITE_DESERIALIZE_FREEONCLOSE |
	                            SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
		goto out_closed_img;
	img = NULL; /* the connection owns it */
	if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    write_rows(h, &c) ||
	    sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK ||
	    !(img = sqlite3_serialize(h, "main", &len, 0)))
		goto out;
	if (!(f = fopen(path, "wb")))
		goto out;
	if (fwrite(img, 1, (size_t)len, f) == (size_t)len)
		rc = 0;
	fclose(f);
	goto out;
out_closed_img:
	img = NULL; /* sqlite3_deserialize frees it on failure */
out:
	sqlite3_free(img);
	sqlite3_close(h);
	return rc;
}

/* SQLite's memory from free lists by size class (powers of two to 64 KiB,
 * malloc beyond): SQLite allocates and frees thousands of small blocks per
 * input (parsing the schema twice, preparing each reader's statements),
 * and through the sanitizer's allocator they were most of a run's time.
 * sdperf's own memory stays the sanitizer's. */
#define CLASSES 17 /* 16 bytes << 0 .. 16 bytes << 12 = 64 KiB */

struct blk {
	size_t size; /* of the block, header excluded */
	struct blk *next;
};
static struct blk *freelist[CLASSES];

/* The allocator is called millions of times a second: no coverage
 * tracing in it (it is the harness, not the code under test). */
#define HARNESS __attribute__((no_sanitize("coverage")))

HARNESS static int size_class(size_t n)
{
	int c;

	if (n <= 16)
		return 0;
	c = 64 - __builtin_clzll((unsigned long long)(n - 1)) - 4;
	return c < CLASSES ? c : CLASSES;
}

HARNESS static void *mem_malloc(int n)
{
	int c = size_class((size_t)(n > 0 ? n : 1));
	size_t size = c < CLASSES ? (size_t)16 << c : (size_t)n;
	struct blk *b;

	if (c < CLASSES && freelist[c]) {
		b = freelist[c];
		freelist[c] = b->next;
	} else if (!(b = malloc(sizeof(*b) + size))) {
		return NULL;
	}
	b->size = size;
	return b + 1;
}

HARNESS static void mem_free(void *p)
{
	struct blk *b = (struct blk *)p - 1;
	int c;

	if (!p)
		return;
	c = size_class(b->size);
	if (c < CLASSES && ((size_t)16 << c) == b->size) {
		b->next = freelist[c];
		freelist[c] = b;
	} else {
		free(b);
	}
}

HARNESS static int mem_size(void *p)
{
	return p ? (int)((struct blk *)p - 1)->size : 0;
}

HARNESS static void *mem_realloc(void *p, int n)
{
	void *q;

	if (p && mem_size(p) >= n)
		return p;
	if (!(q = mem_malloc(n)))
		return NULL;
	if (p) {
		memcpy(q, p, (size_t)mem_size(p));
		mem_free(p);
	}
	return q;
}

HARNESS static int mem_roundup(int n)
{
	int c = size_class((size_t)(n > 0 ? n : 1));
	return c < CLASSES ? 16 << c : (n + 7) & ~7;
}

static int mem_init(void *x)
{
	(void)x;
	return SQLITE_OK;
}

static void mem_shutdown(void *x)
{
	(void)x;
}

static const sqlite3_mem_methods mem = {mem_malloc,   mem_free,    mem_realloc,
                                        mem_size,     mem_roundup, mem_init,
                                        mem_shutdown, NULL};

static void fail_unless_input(int rc, const struct err *e)
{
	if (rc && (e->code != ERR_INPUT || !e->msg[0]))
		abort();
}

static void count_flow(int64_t h, int64_t d, void *ctx)
{
	(void)h;
	(void)d;
	(*(uint64_t *)ctx)++;
}

static int want_all(const char *name, void *ctx)
{
	(void)ctx;
	return name[0] != 0;
}

static void count_range(const char *name, int64_t a, int64_t b, void *ctx)
{
	if (!name || b < a)
		abort();
	(*(uint64_t *)ctx)++;
}

static void count_span(int kind, int64_t a, int64_t b, void *ctx)
{
	if (kind < 0 || kind > 3 || b < a)
		abort();
	(*(uint64_t *)ctx)++;
}

static void count_mem(const struct mem_sample *s, void *ctx)
{
	(void)s;
	(*(uint64_t *)ctx)++;
}

/* Every reader of db.h on the file, as a rank read from a db runs them. */
static void read_all(const char *path, uint64_t max_rows)
{
	struct kernel_table kt;
	struct kernels_info info;
	struct db_facts facts;
	struct commstats cs;
	struct db_step *steps;
	struct db *db = NULL;
	struct err e = ERR_INIT;
	uint64_t n = 0, rows, bad, skipped;
	size_t nsteps, i;
	int rc;

	kernel_table_init(&kt);
	memset(&info, 0, sizeof(info));
	rc = db_open(path, &db, &e);
	fail_unless_input(rc, &e);
	if (rc)
		goto out;
	rc = db_read_kernels(db, 0, &kt, &info, &e);
	fail_unless_input(rc, &e);
	/* a kernel per COMPUTE_TASK_INFO or COMMUNICATION_OP row at most */
	if (!rc && kt.n > max_rows)
		abort();
	for (i = 0; i < kt.n; i++)
		if (kt.v[i].dur_ns < 0)
			abort();
	err_clear(&e);
	fail_unless_input(db_collect_facts(db, &facts, &e), &e);
	err_clear(&e);
	rc = db_read_steps(db, &steps, &nsteps, &e);
	fail_unless_input(rc, &e);
	if (!rc)
		db_steps_free(steps, nsteps);
	err_clear(&e);
	fail_unless_input(db_overlap_each(db, count_span, &n, &skipped, &e),
	                  &e);
	err_clear(&e);
	n = 0;
	fail_unless_input(db_host_ranges(db, want_all, count_range, &n, &e),
	                  &e);
	if (n > max_rows)
		abort();
	err_clear(&e);
	n = 0;
	fail_unless_input(db_flows_each(db, count_flow, &n, &e), &e);
	/* a link per CONNECTION_IDS row at most */
	if (n > max_rows)
		abort();
	err_clear(&e);
	rc = db_read_comm(db, &cs, &e);
	fail_unless_input(rc < 0, &e);
	commstats_release(&cs);
	err_clear(&e);
	n = 0;
	fail_unless_input(db_read_memory(db, count_mem, &n, &rows, &bad, &e),
	                  &e);
	err_clear(&e);
	fail_unless_input(db_read_npu_mem(db, count_mem, &n, &rows, &bad, &e),
	                  &e);
out:
	err_clear(&e);
	db_close(db);
	kernels_info_release(&info);
	kernel_table_release(&kt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	FILE *f;

	if (!size)
		return 0;
	if (!path[0]) {
		/* no lookaside buffers: each connection's would be allocated
		 * and cleared per input, most of a run's cost; no memory
		 * statistics (a mutex per allocation) */
		sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0);
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		sqlite3_config(SQLITE_CONFIG_MALLOC, &mem);
		snprintf(path, sizeof(path), "/dev/shm/sdperf-fuzz-db-%d.db",
		         (int)getpid());
	}
	unlink(path);
	if (data[0] & 1) {
		if (!(f = fopen(path, "wb")))
			return 0;
		fwrite(data + 1, 1, size - 1, f);
		fclose(f);
		read_all(path, UINT64_MAX);
	} else if (!build_db(path, data + 1, size - 1)) {
		/* the prelude's rows are no kernels, flows or ranges but
		 * STRING_IDS': MAX_ROWS bounds every table */
		read_all(path, MAX_ROWS);
	}
	unlink(path);
	return 0;
}
