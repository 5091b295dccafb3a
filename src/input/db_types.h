/* The db reader's vocabulary (its tables, what db_open learned, a step
 * row), shared by the public input/db.h and the reader's internal
 * input/db_int.h, so that neither includes the other's side. */
#ifndef SDPERF_DB_TYPES_H
#define SDPERF_DB_TYPES_H

#include <stdint.h>

#include "core/tasktype.h"

/* The tables the reader uses, by their names in the db. */
enum db_table {
	DBT_TASK,
	DBT_COMPUTE_TASK_INFO,
	DBT_COMMUNICATION_OP,
	DBT_COMMUNICATION_TASK_INFO,
	DBT_STRING_IDS,
	DBT_STEP_TIME,
	DBT_OVERLAP_ANALYSIS,
	DBT_PYTORCH_API,
	DBT_CONNECTION_IDS,
	DBT_MSTX_EVENTS,
	DBT_META_DATA,
	DBT_RANK_DEVICE_MAP,
	DBT_ENUM_HCCL_TRANSPORT_TYPE,
	DBT_ENUM_HCCL_LINK_TYPE,
	DBT_ENUM_API_TYPE,
	DBT_NPU_INFO,
	DBT_MEMORY_RECORD,
	DBT_NPU_MEM,
	DBT_HOST_INFO, /* hostName: a known name for --redact, never shown */
	DBT_COUNT
};
extern const char *const db_table_names[DBT_COUNT];

/* What db_open learned. Strings are owned by the db. */
struct db_about {
	const char *path;
	int64_t size;               /* bytes */
	const char *schema_version; /* META_DATA SCHEMA_VERSION, or NULL */
	const char *chip;           /* NPU_INFO name ("Ascend910B"), or NULL */
	const char *host;      /* HOST_INFO hostName, or NULL: never shown, a
	                        * name --redact looks for in every string */
	const char *block_col; /* "blockDim", "blockNum" or NULL */
	int64_t rank_id, device_id; /* RANK_DEVICE_MAP, -1 when absent */
	unsigned tables;            /* bit 1u << t for each usable table */
	/* a table present but without a column the reader needs: that
	 * column (static), else NULL */
	const char *lacks[DBT_COUNT];
	/* filled by db_read_kernels */
	uint64_t compute_rows;  /* COMPUTE_TASK_INFO rows */
	uint64_t unjoined;      /* of which without a TASK row */
	uint64_t comm_ops;      /* COMMUNICATION_OP rows */
	uint64_t typed_by_name; /* kernels whose opType was N/A */
	/* COMPUTE_TASK_INFO rows whose TASK.taskType (core/tasktype.h) is a
	 * communication or runtime task: no kernels */
	uint64_t task_left_out;
	/* and those whose TASK.taskType is not in the table: left out,
	 * each type with its count and time */
	struct task_unknowns unknown;
};

/* One STEP_TIME row. */
struct db_step {
	int32_t id;
	int64_t start_ns, end_ns;
};

#endif
