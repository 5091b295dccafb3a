/* Profile discovery: the folder shapes users point tools at (FORMATS.md,
 * "Folder layout"): rank folders, their output folders, single files,
 * parents of many rank folders; and each rank's id and files. */
/* realpath(3) is XSI: declared with _XOPEN_SOURCE (with
 * _POSIX_C_SOURCE alone only where _FORTIFY_SOURCE pulls it in) */
#define _XOPEN_SOURCE 700
#include "input/discover.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/db.h"
#include "input/profinfo.h"
#include "util/fileio.h"
#include "util/idmap.h"
#include "util/infile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define OUTPUT_DIR "ASCEND_PROFILER_OUTPUT"
#define KERNELS    "kernel_details.csv"
#define TRACE      "trace_view.json"

static int has_dir(const char *dir, const char *name)
{
	char *p = fileio_join(dir, name);
	int ok = fileio_kind(p) == 1;
	free(p);
	return ok;
}

const char *const discover_memfile_names[DM_COUNT] = {
    "memory_record.csv", "operator_memory.csv", "npu_module_mem.csv"};

/* dir/name, or dir/name.gz; NULL when neither is a file. */
static char *find_file(const char *dir, const char *name)
{
	char *p = fileio_join(dir, name), *gz;

	if (fileio_kind(p) == 0)
		return p;
	gz = xstrfmt("%s.gz", p);
	free(p);
	if (fileio_kind(gz) == 0)
		return gz;
	free(gz);
	return NULL;
}

/* profiler_info_<N>.json (first by name) or profiler_info.json in dir. */
static char *find_info(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char *best = NULL;

	while (dh && (de = readdir(dh))) {
		size_t n = strlen(de->d_name);
		if (strncmp(de->d_name, "profiler_info", 13) || n < 18 ||
		    strcmp(de->d_name + n - 5, ".json") ||
		    (de->d_name[13] != '.' && de->d_name[13] != '_'))
			continue;
		if (!best || strcmp(de->d_name, best) < 0) {
			free(best);
			best = xstrdup(de->d_name);
		}
	}
	if (dh)
		closedir(dh);
	if (best) {
		char *p = fileio_join(dir, best);
		free(best);
		best = fileio_kind(p) == 0 ? p : (free(p), NULL);
	}
	return best;
}

/* ascend_pytorch_profiler.db or ascend_pytorch_profiler_<N>.db in dir
 * (the first by name), or NULL. */
static char *find_db(const char *dir)
{
	static const char stem[] = "ascend_pytorch_profiler";
	const size_t ls = sizeof(stem) - 1;
	DIR *dh = opendir(dir);
	struct dirent *de;
	char *best = NULL, *p;

	while (dh && (de = readdir(dh))) {
		const char *n = de->d_name, *end;
		if (strncmp(n, stem, ls))
			continue;
		end = n + ls;
		if (*end == '_' && end[1] >= '0' && end[1] <= '9')
			for (end++; *end >= '0' && *end <= '9'; end++)
				;
		if (strcmp(end, ".db") || (best && strcmp(n, best) >= 0))
			continue;
		free(best);
		best = xstrdup(n);
	}
	if (dh)
		closedir(dh);
	if (!best)
		return NULL;
	p = fileio_join(dir, best);
	free(best);
	return fileio_kind(p) == 0 ? p : (free(p), NULL);
}

/* ---- what a file is ------------------------------------------------- */

static size_t read_head(const char *path, char *buf, size_t n)
{
	struct infile f;
	struct err e = ERR_INIT;
	size_t got = 0;
	ssize_t r;

	if (infile_open(&f, path, &e))
		return (size_t)-1;
	while (got < n && (r = infile_read(&f, buf + got, n - got, &e)) > 0)
		got += (size_t)r;
	infile_close(&f);
	return got;
}

enum disc_kind discover_sniff(const char *path)
{
	char *buf = xmalloc(DISCOVER_SNIFF + 1);
	size_t n = read_head(path, buf, DISCOVER_SNIFF), i = 0;
	enum disc_kind k = DK_TEXT;

	if (n == (size_t)-1) {
		free(buf);
		return DK_UNREADABLE;
	}
	buf[n] = '\0';
	if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && strchr(" \t\r\n", buf[i]) && buf[i])
		i++;
	if (i < n && buf[i] == '[')
		k = DK_TRACE;
	else if (i < n && buf[i] == '{')
		/* memmem is not POSIX: the buffer is NUL-terminated, and a
		 * NUL byte before the key only hides a trace that would not
		 * read anyway */
		k = strstr(buf + i, "\"traceEvents\"") ? DK_TRACE : DK_JSON;
	free(buf);
	return k;
}

/* ---- the walk --------------------------------------------------------- */

/* The walk: every folder and file is taken once, by device and inode, so
 * symlinks (self -> ., up -> .., two links to one rank) neither repeat a
 * rank nor multiply the walk; the same PATH given twice is one rank. */
struct walk {
	struct run_files *rf;
	size_t ranks_alloc, notes_alloc;
	struct idmap seen;  /* (dev, ino) of the folders searched -> depth */
	size_t found;       /* ranks found by the current PATH, new or not */
	struct idmap ranks; /* (dev, ino) of each rank's data */
	/* the folders being searched, outermost first: a link back to one
	 * of them is a loop */
	dev_t path_dev[DISCOVER_MAX_DEPTH + 1];
	ino_t path_ino[DISCOVER_MAX_DEPTH + 1];
	int npath;
	/* the folder the current PATH names, resolved (NULL: unresolvable,
	 * nothing is checked); a link that leads out of it is skipped
	 * unless follow_links */
	char *root;
	int follow_links;
};

static void note(struct walk *w, const char *code, char *a0, char *a1)
{
	struct run_files *rf = w->rf;

	rf->notes = xgrow(rf->notes, sizeof(*rf->notes), rf->nnotes + 1,
	                  &w->notes_alloc);
	rf->notes[rf->nnotes].code = code;
	rf->notes[rf->nnotes].args[0] = a0;
	rf->notes[rf->nnotes++].args[1] = a1;
}

/* Whether path (a file or folder found below the PATH being searched)
 * resolves outside it: then, unless links are followed, it is skipped
 * and named in a "link_outside" note (the first DISCOVER_MAX_LINK_NOTES;
 * the rest are counted). A path that does not resolve (a dangling link)
 * is inside: there is nothing to read there. */
/* Whether a link to target was noted already (the same file reached by
 * two ways into a rank that is taken once); the notes are capped, so the
 * scan is short. */
static int noted_target(const struct walk *w, const char *target)
{
	size_t i;

	for (i = 0; i < w->rf->nnotes; i++)
		if (!strcmp(w->rf->notes[i].code, "link_outside") &&
		    !strcmp(w->rf->notes[i].args[1], target))
			return 1;
	return 0;
}

static int outside_of(struct walk *w, const char *path, const char *root)
{
	char *target;
	size_t n;
	int out;

	if (w->follow_links || !root || !(target = realpath(path, NULL)))
		return 0;
	n = strlen(root);
	/* the root "/" holds everything */
	out = !(n == 1 || (!strncmp(target, root, n) &&
	                   (target[n] == '/' || !target[n])));
	if (out && !noted_target(w, target) &&
	    w->rf->links_skipped++ < DISCOVER_MAX_LINK_NOTES) {
		note(w, "link_outside", xstrdup(path), target);
		target = NULL;
	}
	free(target);
	return out;
}

static int outside(struct walk *w, const char *path)
{
	return outside_of(w, path, w->root);
}

/* Drops the file *p (frees it, NULL) when it resolves outside the PATH. */
static void keep_inside(struct walk *w, char **p)
{
	if (*p && outside(w, *p)) {
		free(*p);
		*p = NULL;
	}
}

/* The rank's identity: the file it is read from (the db when it is read
 * from its db, else its kernel_details file, else its trace when that is
 * read alone), else its data folder. */
static int rank_identity(const struct disc_rank *r, const char *out_dir,
                         struct stat *st)
{
	const char *id = r->use == EXPORT_DB && r->files[DF_DB]
	                     ? r->files[DF_DB]
	                 : r->files[RF_KERNELS] ? r->files[RF_KERNELS]
	                                        : r->files[RF_TRACE];
	return stat(id ? id : out_dir, st);
}

static void disc_rank_free(struct disc_rank *r)
{
	int f;

	free(r->dir);
	for (f = 0; f < DF_COUNT; f++)
		free(r->files[f]);
	free(r->torch_npu_version);
	free(r->cann_version);
	free(r->profiler_level);
	free(r->aic_metrics);
	for (f = 0; f < DM_COUNT; f++)
		free(r->memfiles[f]);
	free(r->opstat);
	free(r->matrix);
	for (f = 0; f < (int)r->nunused; f++)
		free(r->unused[f]);
	free(r->unused);
}

/* Appends *r to the run (which then owns its strings) and returns 1, or
 * frees it and returns 0 when its data was taken already (see
 * rank_identity). */
static int take_rank(struct walk *w, struct disc_rank *r, const char *out_dir)
{
	struct run_files *rf = w->rf;
	struct stat st;

	if (rank_identity(r, out_dir, &st) == 0 &&
	    !idmap_put(&w->ranks, (uint64_t)st.st_dev, (uint64_t)st.st_ino, 0,
	               NULL)) {
		disc_rank_free(r);
		return 0;
	}
	rf->ranks =
	    xgrow(rf->ranks, sizeof(*rf->ranks), rf->n + 1, &w->ranks_alloc);
	rf->ranks[rf->n++] = *r;
	return 1;
}

/* The memory files in dir: their paths (or NULL) into paths. */
static unsigned memory_files(struct walk *w, const char *dir,
                             char *paths[DM_COUNT])
{
	unsigned bits = 0;
	int m;

	for (m = 0; m < DM_COUNT; m++) {
		paths[m] = find_file(dir, discover_memfile_names[m]);
		keep_inside(w, &paths[m]);
		bits |= paths[m] ? 1u << m : 0;
	}
	return bits;
}

static int cmp_str(const void *a, const void *b);

/* The names sdperf reads in some export (without ".gz"): whatever else
 * lies beside them is listed as not read. */
static int read_by_sdperf(const char *name)
{
	static const char *const known[] = {
	    KERNELS,
	    TRACE,
	    "step_trace_time.csv",
	    "communication.json",
	    "memory_record.csv",
	    "operator_memory.csv",
	    "npu_module_mem.csv",
	    "op_statistic.csv",
	    "communication_matrix.json",
	};
	size_t n = strlen(name), i;

	if (n > 3 && !strcmp(name + n - 3, ".gz"))
		n -= 3;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i]) == n && !strncmp(name, known[i], n))
			return 1;
	if (!strncmp(name, "profiler_info", 13) && n >= 18 &&
	    !strncmp(name + n - 5, ".json", 5))
		return 1;
	return !strncmp(name, "ascend_pytorch_profiler", 23) && n > 26 &&
	       !strncmp(name + n - 3, ".db", 3);
}

/* Adds the regular files of dir that sdperf does not read to r (by name;
 * a link is not followed, nothing is opened); at most *budget entries
 * are looked at. */
static void scan_unused(struct disc_rank *r, const char *dir, size_t *alloc,
                        size_t *budget)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	struct stat st;

	while (dh && (de = readdir(dh))) {
		char *p;
		int reg;
		if (de->d_name[0] == '.' || read_by_sdperf(de->d_name))
			continue;
		if (!*budget) {
			/* past the entries looked at one by one: counted
			 * without a look (a folder among them counts too) */
			r->unused_total++;
			continue;
		}
		(*budget)--;
		p = fileio_join(dir, de->d_name);
		reg = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
		free(p);
		if (!reg)
			continue;
		r->unused_total++;
		r->unused =
		    xgrow(r->unused, sizeof(*r->unused), r->nunused + 1, alloc);
		r->unused[r->nunused++] = xstrdup(de->d_name);
	}
	if (dh)
		closedir(dh);
}

/* The file given as PATH is read, whatever its name: not unused. */
static void drop_unused(struct disc_rank *r, const char *given)
{
	const char *base = strrchr(given, '/');
	size_t i;

	base = base ? base + 1 : given;
	for (i = 0; i < r->nunused; i++)
		if (!strcmp(r->unused[i], base)) {
			free(r->unused[i]);
			memmove(&r->unused[i], &r->unused[i + 1],
			        (r->nunused - i - 1) * sizeof(*r->unused));
			r->nunused--;
			r->unused_total--;
			return;
		}
}

/* The files beside the rank's data that nothing reads (disc_rank's
 * unused): out_dir's, and dir's when it is another folder; sorted, the
 * first DISCOVER_MAX_UNUSED kept. */
static void unused_files(struct disc_rank *r, const char *dir,
                         const char *out_dir)
{
	size_t alloc = 0, budget = DISCOVER_SCAN_ENTRIES, i;

	scan_unused(r, out_dir, &alloc, &budget);
	/* the rank folder looked at one by one too: its output folder is no
	 * file to count */
	budget = DISCOVER_SCAN_ENTRIES;
	if (dir && strcmp(dir, out_dir) && fileio_kind(dir) == 1)
		scan_unused(r, dir, &alloc, &budget);
	if (r->nunused > 1)
		qsort(r->unused, r->nunused, sizeof(*r->unused), cmp_str);
	for (i = DISCOVER_MAX_UNUSED; i < r->nunused; i++)
		free(r->unused[i]);
	if (r->nunused > DISCOVER_MAX_UNUSED)
		r->nunused = DISCOVER_MAX_UNUSED;
}

/* A rank whose data files are in out_dir and profiler_info in info_dir;
 * given, if not NULL, is the file given as PATH, read as role in export
 * use. Returns 1 when added, 0 when the same data was taken already. */
static int add_rank(struct walk *w, const char *dir, const char *out_dir,
                    const char *info_dir, const char *given, int role,
                    enum disc_export use)
{
	struct disc_rank r;
	char **info;
	int f;

	w->found++;
	memset(&r, 0, sizeof(r));
	r.dir = xstrdup(dir);
	r.id = -1;
	r.capture_end_s = -1;
	profinfo_setup_init(&r.setup);
	r.mem_files = memory_files(w, out_dir, r.memfiles);
	for (f = 0; f < RF_INFO; f++) {
		r.files[f] = find_file(out_dir, rank_file_names[f]);
		keep_inside(w, &r.files[f]);
	}
	r.files[DF_DB] = find_db(out_dir);
	keep_inside(w, &r.files[DF_DB]);
	r.opstat = find_file(out_dir, "op_statistic.csv");
	keep_inside(w, &r.opstat);
	r.matrix = find_file(out_dir, "communication_matrix.json");
	keep_inside(w, &r.matrix);
	unused_files(&r, dir, out_dir);
	r.use = r.files[DF_DB] ? EXPORT_DB : EXPORT_TEXT;
	if (given) {
		free(r.files[role]);
		r.files[role] = xstrdup(given);
		r.use = use;
		drop_unused(&r, given);
	}
	if (!take_rank(w, &r, out_dir))
		return 0;
	w->rf->ranks[w->rf->n - 1].files[RF_INFO] =
	    info_dir ? find_info(info_dir) : NULL;
	info = &w->rf->ranks[w->rf->n - 1].files[RF_INFO];
	if (*info) {
		/* profiler_info sits in the rank folder, which may be above
		 * a PATH naming its output folder: it must not leave that */
		char *base = realpath(info_dir, NULL);
		if (outside_of(w, *info, base)) {
			free(*info);
			*info = NULL;
		}
		free(base);
	}
	return 1;
}

/* A trace file read alone: one rank (1), or 0 when taken already. */
static int add_trace_file(struct walk *w, const char *path)
{
	struct disc_rank r;

	w->found++;
	memset(&r, 0, sizeof(r));
	r.dir = xstrdup(path);
	r.id = -1;
	r.capture_end_s = -1;
	profinfo_setup_init(&r.setup);
	r.trace_file = 1;
	r.use = EXPORT_TEXT;
	r.files[RF_TRACE] = xstrdup(path);
	return take_rank(w, &r, path);
}

static int is_json_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && !strcmp(name + n - 5, ".json")) ||
	       (n > 8 && !strcmp(name + n - 8, ".json.gz"));
}

static char *parent_of(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n ? xstrfmt("%.*s", (int)n, path) : xstrdup(".");
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* A file given as PATH: the file to read is that one, as the export its
 * name says (a .db is the SQLite export), else as its bytes say: a trace
 * is read alone, anything else is a kernel_details.csv whose folder's
 * other files are taken too. */
static int add_file(struct walk *w, const char *path, struct err *e)
{
	static const struct {
		const char *suffix;
		int role;
		enum disc_export use;
	} roles[] = {{".db", DF_DB, EXPORT_DB}};
	int role = RF_KERNELS;
	enum disc_export use = EXPORT_TEXT;
	enum disc_kind k = DK_TEXT;
	char *parent;
	size_t i;

	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (ends_with(path, roles[i].suffix)) {
			role = roles[i].role;
			use = roles[i].use;
		}
	if (role == RF_KERNELS)
		k = discover_sniff(path);
	if (k == DK_TRACE) {
		add_trace_file(w, path);
		return 0;
	}
	if (k == DK_JSON)
		return err_set(
		    e, ERR_INPUT,
		    "%s: a JSON file but no trace_view.json (neither "
		    "an array of trace events nor an object with "
		    "\"traceEvents\")",
		    path);
	parent = parent_of(path);
	add_rank(w, path, parent, NULL, path, role, use);
	free(parent);
	return 0;
}

static int is_rank_dir(const char *dir, const char *name)
{
	size_t n = strlen(name);
	return has_dir(dir, OUTPUT_DIR) ||
	       (n > 10 && !strcmp(name + n - 10, "_ascend_pt"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folders in dir (symlinks followed, but not out of the PATH),
 * sorted by name; *n of them. */
static char **subfolders(struct walk *w, const char *dir, size_t *n)
{
	char **subs = NULL;
	size_t alloc = 0;
	DIR *dh = opendir(dir);
	struct dirent *de;

	*n = 0;
	while (dh && (de = readdir(dh))) {
		char *sub;
		if (de->d_name[0] == '.')
			continue;
		sub = fileio_join(dir, de->d_name);
		if (fileio_kind(sub) != 1 || outside(w, sub)) {
			free(sub);
			continue;
		}
		subs = xgrow(subs, sizeof(*subs), *n + 1, &alloc);
		subs[(*n)++] = sub;
	}
	if (dh)
		closedir(dh);
	if (*n)
		qsort(subs, *n, sizeof(*subs), cmp_str);
	return subs;
}

/* Whether folder dir is to be searched depth levels deep: 0 when it was
 * searched as deep already (through another link, or as another PATH) or
 * leads back to a folder being searched (a loop: noted, for a warning).
 * Pushes it on the path when it is to be searched. */
static int enter_folder(struct walk *w, const char *dir, int depth)
{
	struct stat st;
	uint64_t *done;
	int i;

	if (stat(dir, &st))
		return 1; /* vanished: opendir will find nothing */
	for (i = 0; i < w->npath; i++)
		if (w->path_dev[i] == st.st_dev &&
		    w->path_ino[i] == st.st_ino) {
			note(w, "folder_loop", xstrdup(dir), NULL);
			return 0;
		}
	done = idmap_get(&w->seen, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	if (done && *done >= (uint64_t)depth)
		return 0;
	if (done)
		*done = (uint64_t)depth;
	else
		idmap_put(&w->seen, (uint64_t)st.st_dev, (uint64_t)st.st_ino,
		          (uint64_t)depth, NULL);
	w->path_dev[w->npath] = st.st_dev;
	w->path_ino[w->npath++] = st.st_ino;
	return 1;
}

/* Adds the rank folders below dir (depth levels at most), sorted by name;
 * each folder is searched once however many links lead to it (again only
 * to search it deeper). Returns -1 when dir was not searched (done, or a
 * loop), else 0. */
static int search(struct walk *w, const char *dir, int depth)
{
	size_t n, i;
	char **subs;

	if (w->npath > DISCOVER_MAX_DEPTH || !enter_folder(w, dir, depth))
		return -1;
	subs = subfolders(w, dir, &n);
	for (i = 0; i < n; i++) {
		const char *base = strrchr(subs[i], '/') + 1;
		char *out;
		if (is_rank_dir(subs[i], base)) {
			out = fileio_join(subs[i], OUTPUT_DIR);
			add_rank(w, subs[i], out, subs[i], NULL, RF_KERNELS,
			         EXPORT_TEXT);
			free(out);
		} else if (depth > 1) {
			search(w, subs[i], depth - 1);
		}
	}
	for (i = 0; i < n; i++)
		free(subs[i]);
	free(subs);
	w->npath--;
	return 0;
}

/* The trace files in dir (*.json, *.json.gz that sniff as traces), by
 * name: one rank each. */
static void add_trace_files(struct walk *w, const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, alloc = 0, i;

	while (dh && (de = readdir(dh))) {
		char *p;
		if (de->d_name[0] == '.' || !is_json_name(de->d_name))
			continue;
		p = fileio_join(dir, de->d_name);
		if (fileio_kind(p) != 0 || outside(w, p) ||
		    discover_sniff(p) != DK_TRACE) {
			free(p);
			continue;
		}
		v = xgrow(v, sizeof(*v), n + 1, &alloc);
		v[n++] = p;
	}
	if (dh)
		closedir(dh);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		add_trace_file(w, v[i]);
		free(v[i]);
	}
	free(v);
}

/* A folder with no rank folder below: its trace_view.json (the folder is
 * the rank, like an ASCEND_PROFILER_OUTPUT), or its other trace files. */
static void add_trace_folder(struct walk *w, const char *path)
{
	char *trace = find_file(path, TRACE), *parent;

	if (!trace) {
		add_trace_files(w, path);
		return;
	}
	free(trace);
	parent = parent_of(path);
	add_rank(w, path, path, parent, NULL, RF_KERNELS, EXPORT_TEXT);
	free(parent);
}

static int add_path(struct walk *w, const char *path, struct err *e)
{
	int kind = fileio_kind(path);
	char *parent, *out;

	if (kind < 0)
		return err_set(e, ERR_INPUT, "%s: %s", path,
		               errno == EINVAL
		                   ? "not a regular file or folder (a FIFO, "
		                     "a device or a socket is never opened)"
		                   : "no such file or folder");
	free(w->root);
	if (kind == 0) {
		/* the folder of a file given: its sibling files */
		parent = parent_of(path);
		w->root = realpath(parent, NULL);
		free(parent);
		return add_file(w, path, e);
	}
	w->root = realpath(path, NULL);
	if ((out = find_file(path, KERNELS)) || (out = find_db(path)) ||
	    has_dir(path, OUTPUT_DIR) || is_rank_dir(path, path)) {
		int is_out = out != NULL;
		free(out);
		parent = parent_of(path);
		out = is_out ? xstrdup(path) : fileio_join(path, OUTPUT_DIR);
		add_rank(w, path, out, is_out ? parent : path, NULL, RF_KERNELS,
		         EXPORT_TEXT);
		free(out);
		free(parent);
		return 0;
	}
	w->found = 0;
	if (search(w, path, DISCOVER_MAX_DEPTH) || w->found)
		return 0;
	add_trace_folder(w, path);
	if (!w->found)
		return err_set(
		    e, ERR_INPUT,
		    "%s: no %s, ascend_pytorch_profiler*.db or %s "
		    "found (looked in the folder, in %s/ and in rank "
		    "folders *_ascend_pt up to %d levels below it)",
		    path, KERNELS, TRACE, OUTPUT_DIR, DISCOVER_MAX_DEPTH);
	return 0;
}

/* Digits at p as a number (at most 9 of them), *end after them; -1 when
 * there are none. */
static int32_t digits(const char *p, const char **end)
{
	int32_t n = 0;
	const char *d = p;

	while (*d >= '0' && *d <= '9' && d - p < 9)
		n = n * 10 + (*d++ - '0');
	*end = d;
	return d > p ? n : -1;
}

/* N from "rank<N>" / "rank_<N>" / "rank-<N>" in the folder's own name. */
static int32_t id_from_folder(const struct disc_rank *r)
{
	const char *base = strrchr(r->dir, '/'), *p, *end;
	int32_t n;

	base = base ? base + 1 : r->dir;
	for (p = base; (p = strstr(p, "rank")); p += 4) {
		n = digits(p + 4 + (p[4] == '_' || p[4] == '-'), &end);
		if (n >= 0)
			return n;
	}
	return -1;
}

/* N from "rank<N>" in a trace file's name, or from a final "_<N>" before
 * its extension (trace_view_3.json, rank_3.json.gz). */
static int32_t id_from_file_name(const struct disc_rank *r)
{
	const char *base = strrchr(r->dir, '/'), *dot, *p, *end;
	int32_t n;

	if (!r->trace_file)
		return -1;
	n = id_from_folder(r);
	if (n >= 0)
		return n;
	base = base ? base + 1 : r->dir;
	dot = strchr(base, '.');
	dot = dot ? dot : base + strlen(base);
	for (p = dot; p > base && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	if (p == dot || p == base || p[-1] != '_' || dot - p > 6)
		return -1;
	n = digits(p, &end);
	return end == dot ? n : -1;
}

/* N from a profiler_info_<N>.json file name. */
static int32_t id_from_info_name(const struct disc_rank *r)
{
	const char *f, *end;
	int32_t n;

	if (!r->files[RF_INFO])
		return -1;
	f = strrchr(r->files[RF_INFO], '/');
	f = f ? f + 1 : r->files[RF_INFO];
	if (strncmp(f, "profiler_info_", 14))
		return -1;
	n = digits(f + 14, &end);
	return n >= 0 && !strcmp(end, ".json") ? n : -1;
}

static void read_info(struct walk *w, struct disc_rank *r)
{
	struct profinfo pi;
	struct err e = ERR_INIT;

	if (r->files[RF_INFO] && profinfo_read(r->files[RF_INFO], &pi, &e)) {
		note(w, "bad_profiler_info", xstrdup(r->files[RF_INFO]),
		     xstrdup(e.msg));
		return;
	}
	if (!r->files[RF_INFO])
		return;
	if (pi.rank_id >= 0) {
		r->id = (int32_t)pi.rank_id;
		r->id_source = "profiler_info";
	}
	r->torch_npu_version = pi.torch_npu_version;
	r->cann_version = pi.cann_version;
	r->profiler_level = pi.profiler_level;
	r->aic_metrics = pi.aic_metrics;
	r->setup = pi.setup;
	r->capture_end_s = pi.capture_end_s;
	memset(&pi, 0, sizeof(pi));
}

static int cmp_rank(const void *a, const void *b)
{
	const struct disc_rank *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* A repeated id (after its first) and a missing one get the smallest
 * unused ids, in order. A keyed set holds the ids in use, so a run of
 * many ranks costs no search per rank. */
static void unique_ids(struct walk *w)
{
	struct run_files *rf = w->rf;
	struct idmap used = IDMAP_INIT;
	size_t i;
	int32_t next = 0;

	for (i = 0; i < rf->n; i++) {
		struct disc_rank *r = &rf->ranks[i];
		if (r->id >= 0 &&
		    !idmap_put(&used, (uint64_t)r->id, 0, 0, NULL)) {
			note(w, "duplicate_rank", xstrfmt("%d", (int)r->id),
			     xstrdup(r->dir));
			r->id = -1;
		}
	}
	for (i = 0; i < rf->n; i++) {
		if (rf->ranks[i].id >= 0)
			continue;
		while (idmap_get(&used, (uint64_t)next, 0))
			next++;
		idmap_put(&used, (uint64_t)next, 0, 0, NULL);
		rf->ranks[i].id = next;
		rf->ranks[i].id_source = "order";
	}
	idmap_release(&used);
}

/* Ids from profiler_info, the db, then from names; the rest, and
 * duplicates, get the smallest unused ids in the order found. */
static void assign_ids(struct walk *w)
{
	struct run_files *rf = w->rf;
	size_t i;

	for (i = 0; i < rf->n; i++) {
		struct disc_rank *r = &rf->ranks[i];
		read_info(w, r);
		if (r->id < 0 && r->use == EXPORT_DB &&
		    (r->id = (int32_t)db_peek_rank(r->files[DF_DB])) >= 0)
			r->id_source = "db";
		if (r->id < 0 && (r->id = id_from_file_name(r)) >= 0)
			r->id_source = "file_name";
		if (r->id < 0 && !r->trace_file &&
		    (r->id = id_from_folder(r)) >= 0)
			r->id_source = "folder";
		if (r->id < 0 && (r->id = id_from_info_name(r)) >= 0)
			r->id_source = "profiler_info";
	}
	unique_ids(w);
	qsort(rf->ranks, rf->n, sizeof(*rf->ranks), cmp_rank);
}

struct id_at {
	int32_t id;
	size_t at;
};

static int cmp_id_at(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

void discover_settle_ids(struct run_files *rf, size_t *perm)
{
	struct disc_rank *v = xcalloc(rf->n ? rf->n : 1, sizeof(*v));
	struct id_at *ia = xcalloc(rf->n ? rf->n : 1, sizeof(*ia));
	struct walk w;
	size_t i;

	/* notes may be added: their array is as large as its count */
	memset(&w, 0, sizeof(w));
	w.rf = rf;
	w.notes_alloc = rf->nnotes;
	unique_ids(&w);
	for (i = 0; i < rf->n; i++) {
		ia[i].id = rf->ranks[i].id;
		ia[i].at = i;
	}
	qsort(ia, rf->n, sizeof(*ia), cmp_id_at);
	for (i = 0; i < rf->n; i++) {
		perm[i] = ia[i].at;
		v[i] = rf->ranks[perm[i]];
	}
	if (rf->n)
		memcpy(rf->ranks, v, rf->n * sizeof(*v));
	free(ia);
	free(v);
}

int discover_run(const char *const *paths, size_t npaths, struct run_files *rf,
                 struct err *e)
{
	return discover_run_links(paths, npaths, 0, rf, e);
}

int discover_run_links(const char *const *paths, size_t npaths,
                       int follow_links, struct run_files *rf, struct err *e)
{
	struct walk w;
	size_t i;
	int ret = 0;

	memset(rf, 0, sizeof(*rf));
	memset(&w, 0, sizeof(w));
	w.rf = rf;
	w.follow_links = follow_links;
	idmap_init(&w.seen);
	idmap_init(&w.ranks);
	for (i = 0; i < npaths && !ret; i++)
		ret = add_path(&w, paths[i], e);
	if (!ret)
		assign_ids(&w);
	idmap_release(&w.seen);
	idmap_release(&w.ranks);
	free(w.root);
	return ret;
}

void run_files_release(struct run_files *rf)
{
	size_t i;

	for (i = 0; i < rf->n; i++)
		disc_rank_free(&rf->ranks[i]);
	for (i = 0; i < rf->nnotes; i++) {
		free(rf->notes[i].args[0]);
		free(rf->notes[i].args[1]);
	}
	free(rf->ranks);
	free(rf->notes);
	memset(rf, 0, sizeof(*rf));
}
