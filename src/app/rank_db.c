/* One rank from its SQLite export (ascend_pytorch_profiler_N.db): kernels,
 * stages, Overlap Analysis, steps and collectives from its tables. */
#include "app/rank.h"
#include "app/rank_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analyse.h"
#include "analysis/collection.h"
#include "analysis/dbstages.h"
#include "analysis/totals.h"
#include "analysis/memory.h"
#include "analysis/steps.h"
#include "analysis/traceonly.h"
#include "analysis/tracestages.h"
#include "input/commjson.h"
#include "input/db.h"
#include "input/kernels.h"
#include "input/steptrace.h"
#include "input/traceprof.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- the SQLite export -----------------------------------------------------
 */

/* What each gap of the db costs. */
static const char *const gap_what[DBGAP_COUNT] = {
    "no Overlap Analysis cross-check; the steps are split from the kernels",
    "no user stage markers (collect with ProfilerActivity.CPU)",
    ("no steps table, warm-up detection or device-idle verdict (collect "
     "with a schedule)"),
    "no collective and bandwidth tables, no wait times",
    "no compute kernels: only the collectives are analysed"};

static void warn_db(struct result *r, const char *code, const char *reason,
                    const char *msg, const char *a1)
{
	struct rank_result *rr = &r->ranks[0];
	struct warning *w = result_warn(r, code, rr->db.path, 0, msg);

	w->reason = reason ? xstrdup(reason) : NULL;
	w->args[0] = xstrfmt("%d", (int)rr->id);
	w->args[1] = a1 ? xstrdup(a1) : NULL;
}

/* What the db lacks for gap g: "TABLE table", "column 'c' in TABLE", or,
 * its tables all there, that they carry no task details; *table names the
 * table for the communication gap. */
static char *gap_cause(const struct db *db, int g, const char **table)
{
	static const enum db_table comm[] = {
	    DBT_COMMUNICATION_OP, DBT_COMMUNICATION_TASK_INFO,
	    DBT_ENUM_HCCL_TRANSPORT_TYPE, DBT_ENUM_HCCL_LINK_TYPE};
	static const char *const plain[DBGAP_COUNT] = {
	    "OVERLAP_ANALYSIS table", "PYTORCH_API or MSTX_EVENTS table",
	    "STEP_TIME rows", NULL, "COMPUTE_TASK_INFO table"};
	size_t i;

	*table = NULL;
	if (g != DBGAP_COMM)
		return xstrdup(plain[g]);
	for (i = 0; i < sizeof(comm) / sizeof(comm[0]); i++) {
		const char *lacks = db_about(db)->lacks[comm[i]];
		*table = db_table_names[comm[i]];
		if (lacks)
			return xstrfmt("column '%s' in %s", lacks, *table);
		if (!db_has(db, comm[i]))
			return xstrfmt("%s table", *table);
	}
	*table = db_table_names[DBT_COMMUNICATION_TASK_INFO];
	return xstrdup("HCCL task details in COMMUNICATION_TASK_INFO (Level0 "
	               "exports none)");
}

static void warn_gaps(struct result *r, const struct db *db)
{
	struct rank_result *rr = &r->ranks[0];
	const struct db_about *a = db_about(db);
	const char *table;
	char *msg, *cause, n[24];
	int g;

	for (g = 0; g < DBGAP_COUNT; g++) {
		if (!(rr->db.gaps & (1u << g)))
			continue;
		cause = gap_cause(db, g, &table);
		msg = xstrfmt("rank %d: no %s in %s: %s", (int)rr->id, cause,
		              rr->db.path, gap_what[g]);
		warn_db(r, "db_gap", db_gap_keys[g], msg, table);
		free(msg);
		free(cause);
	}
	result_add_unknown_tasks(r, rr->db.path, &a->unknown, "db");
	if (!a->unjoined)
		return;
	snprintf(n, sizeof(n), "%llu", (unsigned long long)a->unjoined);
	msg = xstrfmt("rank %d: %s COMPUTE_TASK_INFO rows have no TASK row "
	              "with their globalTaskId: they are left out",
	              (int)rr->id, n);
	warn_db(r, "db_unjoined", NULL, msg, n);
	free(msg);
}

/* The steps (STEP_TIME, split by OVERLAP_ANALYSIS or the kernels). */
static int db_steps(struct db *db, const struct kernel_table *kt,
                    const struct rules *ru, struct result *r,
                    int *from_kernels_out, struct err *e)
{
	struct rank_result *rr = &r->ranks[0];
	int from_kernels = 1;

	if (dbstages_steps(db, kt, &rr->steps, &rr->nsteps, &from_kernels, e)) {
		membudget_release((uint64_t)rr->nsteps * sizeof(*rr->steps));
		return -1;
	}
	rank_keep_steps(r, rr->db.path, rr->nsteps ? "db" : NULL, ru,
	                (uint64_t)rr->nsteps * sizeof(*rr->steps));
	if (!rr->nsteps)
		rr->db.gaps |= 1u << DBGAP_STEPS;
	*from_kernels_out = from_kernels;
	return 0;
}

static int db_comm(struct db *db, struct rank_result *rr, struct err *e)
{
	struct commstats cs;
	int rc = db_read_comm(db, &cs, e);

	if (rc == 0)
		rank_keep_comm(&cs, rr);
	else if (rc == 1)
		rr->db.gaps |= 1u << DBGAP_COMM;
	commstats_release(&cs);
	return rc < 0 ? -1 : 0;
}

/* The whole rank from its db: kernels, stages (markers), Overlap Analysis,
 * steps and collectives. */
static int analyse_db(struct db *db, const struct rules *ru,
                      const struct rank_opts *o, struct kernel_table *kt,
                      struct kernels_info *info, struct result *r,
                      struct err *e)
{
	struct rank_result *rr = &r->ranks[0];
	struct stage_src src = {db_about(db)->path, NULL, db, 0};
	struct db_facts facts;
	int from_kernels = 1;

	rr->chip = db_about(db)->chip ? xstrdup(db_about(db)->chip) : NULL;
	rr->host = db_about(db)->host ? xstrdup(db_about(db)->host) : NULL;
	rr->db.schema = db_about(db)->schema_version
	                    ? xstrdup(db_about(db)->schema_version)
	                    : NULL;
	if (db_read_kernels(db, o->strict, kt, info, e) ||
	    db_collect_facts(db, &facts, e))
		return -1;
	collection_from_db(&rr->ev, info, &facts);
	result_add_kernels_input(r, info, kt->n);
	if (rank_analyse_src(&src, kt, ru, r, e) ||
	    db_steps(db, kt, ru, r, &from_kernels, e))
		return -1;
	kernel_table_release(kt);
	memory_read_db(db, r); /* on the full timeline */
	rank_keep_listed(r);
	rank_summarise(r, rr);
	rank_cross_check(r, rr, ru);
	if (!from_kernels) /* split by OVERLAP_ANALYSIS: the profiler's */
		totals_check_steps(r, rr, ru, "db_step_time", rr->db.path);
	if (!db_has(db, DBT_OVERLAP_ANALYSIS))
		rr->db.gaps |= 1u << DBGAP_OVERLAP;
	if (!db_has(db, DBT_PYTORCH_API) && !db_has(db, DBT_MSTX_EVENTS))
		rr->db.gaps |= 1u << DBGAP_MARKERS;
	if (!db_has(db, DBT_COMPUTE_TASK_INFO))
		rr->db.gaps |= 1u << DBGAP_COMPUTE;
	if (db_comm(db, rr, e))
		return -1;
	warn_gaps(r, db);
	return 0;
}

int rank_from_db(const struct disc_rank *dr, const struct rules *ru,
                 const struct rank_opts *o, struct result *r, struct err *e)
{
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct db *db = NULL;
	int ret;

	kernel_table_init(&kt);
	r->ranks[0].db.used = 1;
	ret = db_open(dr->files[DF_DB], &db, e) ||
	              analyse_db(db, ru, o, &kt, &info, r, e)
	          ? -1
	          : 0;
	db_close(db);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	return ret;
}
