/* Finds the profiler files behind the PATH a user gives. */
#ifndef SDPERF_DISCOVER_H
#define SDPERF_DISCOVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/vocab.h"
#include "input/profinfo.h"
#include "util/err.h"

/* The files of a rank folder: the text files of enum rank_file
 * (core/vocab.h), then the SQLite export ascend_pytorch_profiler[_N].db
 * (no .gz). */
enum { DF_DB = RF_COUNT, DF_COUNT };

/* Which export of the profile a rank is read from. A folder holding both
 * is read from the db (as msprof-analyze does: the db is the complete,
 * typed one); a kernel_details.csv given as PATH is read as text, a .db
 * given as PATH as db. */
enum disc_export { EXPORT_TEXT, EXPORT_DB };

/* The files profile_memory=True leaves beside the data (in
 * ASCEND_PROFILER_OUTPUT, possibly *.gz): discovery notes that they are
 * there and where; the rank analysis reads them (analysis/memory.h).
 * "memory_record.csv", "operator_memory.csv", "npu_module_mem.csv" */
enum disc_memfile {
	DM_MEMORY_RECORD,
	DM_OPERATOR_MEMORY,
	DM_NPU_MODULE_MEM,
	DM_COUNT
};
extern const char *const discover_memfile_names[DM_COUNT];

struct disc_rank {
	char *dir;             /* rank folder, or the folder/file given */
	char *files[DF_COUNT]; /* each file found (possibly *.gz), or NULL */
	enum disc_export use;  /* the export to read */
	int32_t id;            /* rank id */
	/* "profiler_info", "db", "folder", "file_name" (a trace file's name),
	 * "order"; the rank analysis may later find "trace" */
	const char *id_source;
	int trace_file; /* the rank is a trace file alone (dir is the file) */
	/* from profiler_info*.json, NULL when absent */
	char *torch_npu_version, *cann_version, *profiler_level, *aic_metrics;
	/* profiler_info's end_info.collectionTimeEnd, seconds since the
	 * epoch; -1 when absent */
	int64_t capture_end_s;
	/* its collection settings (all unknown without profiler_info) */
	struct profinfo_setup setup;
	unsigned mem_files; /* 1u << enum disc_memfile for each one found */
	char *memfiles[DM_COUNT]; /* the path of each one found, or NULL */
	char *opstat; /* op_statistic.csv (or .gz) beside the data, or NULL */
	char *matrix; /* communication_matrix.json (or .gz), or NULL */
	/* the regular files in the rank's data folder (and its folder) that
	 * sdperf reads in no export, by name, sorted: the first
	 * DISCOVER_MAX_UNUSED of the first DISCOVER_SCAN_ENTRIES entries of
	 * each folder looked at one by one (unused_total counts them all, the
	 * rest unlooked-at, so a folder among them counts too); names only:
	 * none is opened; a file given as PATH is not among them */
	char **unused;
	size_t nunused, unused_total;
};

#define DISCOVER_MAX_UNUSED   64
#define DISCOVER_SCAN_ENTRIES 4096

/* Something discovery noticed that the report should say: code
 * "duplicate_rank" (args: rank id, folder), "bad_profiler_info" (args:
 * file, reason), "folder_loop" (args: the folder that leads back to one
 * being searched, NULL) or "link_outside" (args: a file or folder below
 * a PATH that a symlink leads out of it, where it leads; skipped). */
struct disc_note {
	const char *code;
	char *args[2];
};

struct run_files {
	struct disc_rank *ranks; /* sorted by rank id */
	size_t n;
	struct disc_note *notes;
	size_t nnotes;
	/* links out of a PATH that were skipped: the first
	 * DISCOVER_MAX_LINK_NOTES are notes, all are counted */
	size_t links_skipped;
};

#define DISCOVER_MAX_DEPTH      4  /* levels of folders searched below a PATH */
#define DISCOVER_MAX_LINK_NOTES 20 /* skipped links named one by one */
#define DISCOVER_SNIFF          (64u << 10) /* bytes read to tell a file's kind */

/* What a file is, from its first bytes (inflated when gzip-compressed;
 * a UTF-8 BOM and white space skipped), never from its name alone. */
enum disc_kind {
	DK_UNREADABLE, /* missing, not a regular file, unreadable */
	DK_TEXT,       /* anything else: read as kernel_details.csv */
	DK_TRACE,      /* a JSON array, or an object with "traceEvents"
	                * within its first DISCOVER_SNIFF bytes */
	DK_JSON        /* another JSON object (report.json, profiler_info) */
};
enum disc_kind discover_sniff(const char *path);

/* Finds every rank behind paths: each PATH may be a rank folder, its
 * ASCEND_PROFILER_OUTPUT folder, a kernel_details.csv[.gz] file or a *.db
 * file (its sibling files are taken too), a trace_view.json[.gz] file of
 * any name (one rank, read alone), a folder holding rank folders (folders
 * with an ASCEND_PROFILER_OUTPUT folder, or named *_ascend_pt) up to
 * DISCOVER_MAX_DEPTH levels down, or, when it holds no rank folder, a
 * folder with a trace_view.json[.gz] and no kernel_details.csv (one rank)
 * or with other trace files (one rank each, by name). The kind of a file
 * given is told by its .db suffix, else sniffed (discover_sniff).
 * Symlinks are followed within the PATH (a file or folder whose real path
 * is below the PATH's, or below a file PATH's folder), and a link that
 * leads out of it is skipped and noted ("link_outside"; discover_run_links
 * with follow_links follows those too, as --follow-links asks). Each
 * folder is searched and each rank (its
 * kernel_details or db file, else its trace when read alone, else its
 * data folder, by device and inode) taken once: links to a rank, a PATH
 * given twice or a link back up (a loop, noted) add nothing. Rank ids come
 * from profiler_info's rank_id, else the db's RANK_DEVICE_MAP, else a
 * "rank<N>" folder name or profiler_info_<N>.json, else "rank<N>" or a
 * final "_<N>" in a trace file's name, else the order found (the smallest
 * unused ids). Returns 0, or -1 with ERR_INPUT naming the PATH that holds
 * no profile or is a JSON file but no trace. */
int discover_run(const char *const *paths, size_t npaths, struct run_files *rf,
                 struct err *e);
/* The same; follow_links: follow symlinks out of a PATH too. */
int discover_run_links(const char *const *paths, size_t npaths,
                       int follow_links, struct run_files *rf, struct err *e);

/* After the ranks were analysed, with their ids set in rf->ranks as the
 * analysis left them (a trace may carry its own, see rank.h): makes the
 * ids unique again as discover_run does (a repeated one is noted as
 * "duplicate_rank" and replaced by the smallest unused id, source
 * "order") and sorts rf->ranks by id; perm[k] receives the former index
 * of the k-th rank (perm holds rf->n entries). */
void discover_settle_ids(struct run_files *rf, size_t *perm);
void run_files_release(struct run_files *rf);

#endif
