/* Finds the profiler files behind the PATH a user gives. */
#ifndef SDPERF_DISCOVER_H
#define SDPERF_DISCOVER_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The files of a rank folder, in result.h's enum rank_file order, then
 * the SQLite export ascend_pytorch_profiler[_N].db (no .gz). */
enum disc_file {
	DF_KERNELS,
	DF_TRACE,
	DF_STEPS,
	DF_COMM,
	DF_INFO,
	DF_DB,
	DF_COUNT
};

/* Which export of the profile a rank is read from. A folder holding both
 * is read from the db (as msprof-analyze does: the db is the complete,
 * typed one); a kernel_details.csv given as PATH is read as text, a .db
 * given as PATH as db. */
enum disc_export { EXPORT_TEXT, EXPORT_DB };

struct disc_rank {
	char *dir;             /* rank folder, or the folder/file given */
	char *files[DF_COUNT]; /* each file found (possibly *.gz), or NULL */
	enum disc_export use;  /* the export to read */
	int32_t id;            /* rank id */
	const char *id_source; /* "profiler_info", "db", "folder", "order" */
	/* from profiler_info*.json, NULL when absent */
	char *torch_npu_version, *cann_version, *profiler_level, *aic_metrics;
};

/* Something discovery noticed that the report should say: code
 * "duplicate_rank" (args: rank id, folder), "bad_profiler_info" (args:
 * file, reason) or "folder_loop" (args: the folder that leads back to one
 * being searched, NULL). */
struct disc_note {
	const char *code;
	char *args[2];
};

struct run_files {
	struct disc_rank *ranks; /* sorted by rank id */
	size_t n;
	struct disc_note *notes;
	size_t nnotes;
};

#define DISCOVER_MAX_DEPTH 4 /* levels of folders searched below a PATH */

/* Finds every rank behind paths: each PATH may be a rank folder, its
 * ASCEND_PROFILER_OUTPUT folder, a kernel_details.csv[.gz] file or a *.db
 * file (its sibling files are taken too) or a folder holding rank folders
 * (folders with an ASCEND_PROFILER_OUTPUT folder, or named *_ascend_pt) up
 * to DISCOVER_MAX_DEPTH levels down. Symlinks are followed, but each folder
 * is searched and each rank (its kernel_details or db file, else its data
 * folder, by device and inode) taken once: links to a rank, a PATH given
 * twice or a link back up (a loop, noted) add nothing. Rank ids come from
 * profiler_info's rank_id, else the db's RANK_DEVICE_MAP, else a "rank<N>"
 * folder name or
 * profiler_info_<N>.json, else the order found (the smallest unused ids).
 * Returns 0, or -1 with ERR_INPUT naming the PATH that holds no profile. */
int discover_run(const char *const *paths, size_t npaths, struct run_files *rf,
                 struct err *e);
void run_files_release(struct run_files *rf);

#endif
