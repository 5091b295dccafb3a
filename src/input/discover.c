/* Profile discovery: the folder shapes users point tools at (FORMATS.md,
 * "Folder layout"): rank folders, their output folders, single files,
 * parents of many rank folders; and each rank's id and files. */
#include "input/discover.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/profinfo.h"
#include "util/fileio.h"
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *const file_names[DF_COUNT] = {
    "kernel_details.csv", "trace_view.json", "step_trace_time.csv",
    "communication.json", NULL};

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

/* A rank whose data files are in out_dir and profiler_info in info_dir. */
static void add_rank(struct run_files *rf, const char *dir, const char *out_dir,
                     const char *info_dir)
{
	struct disc_rank *r;
	int f;

	rf->ranks = xrealloc(rf->ranks, (rf->n + 1) * sizeof(*rf->ranks));
	r = &rf->ranks[rf->n++];
	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(dir);
	r->id = -1;
	for (f = 0; f < DF_INFO; f++)
		r->files[f] = find_file(out_dir, file_names[f]);
	r->files[DF_INFO] = info_dir ? find_info(info_dir) : NULL;
}

/* A trace file read alone: one rank. */
static void add_trace_file(struct run_files *rf, const char *path)
{
	struct disc_rank *r;

	rf->ranks = xrealloc(rf->ranks, (rf->n + 1) * sizeof(*rf->ranks));
	r = &rf->ranks[rf->n++];
	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(path);
	r->id = -1;
	r->trace_file = 1;
	r->files[DF_TRACE] = xstrdup(path);
}

static int is_json_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && !strcmp(name + n - 5, ".json")) ||
	       (n > 8 && !strcmp(name + n - 8, ".json.gz"));
}

/* The trace files in dir (*.json, *.json.gz that sniff as traces), by
 * name: one rank each. */
static void add_trace_files(struct run_files *rf, const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, i;

	while (dh && (de = readdir(dh))) {
		char *p;
		if (de->d_name[0] == '.' || !is_json_name(de->d_name))
			continue;
		p = fileio_join(dir, de->d_name);
		if (fileio_kind(p) != 0 || discover_sniff(p) != DK_TRACE) {
			free(p);
			continue;
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = p;
	}
	if (dh)
		closedir(dh);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		add_trace_file(rf, v[i]);
		free(v[i]);
	}
	free(v);
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

static int is_rank_dir(const char *dir, const char *name)
{
	size_t n = strlen(name);
	return has_dir(dir, OUTPUT_DIR) ||
	       (n > 10 && !strcmp(name + n - 10, "_ascend_pt"));
}

/* Adds the rank folders below dir (depth levels at most), sorted by name. */
static void search(struct run_files *rf, const char *dir, int depth)
{
	char **subs = NULL, **names = NULL;
	size_t n = 0, i;
	DIR *dh = opendir(dir);
	struct dirent *de;

	while (dh && (de = readdir(dh))) {
		char *sub;
		if (de->d_name[0] == '.')
			continue;
		sub = fileio_join(dir, de->d_name);
		if (fileio_kind(sub) != 1) {
			free(sub);
			continue;
		}
		subs = xrealloc(subs, (n + 1) * sizeof(*subs));
		names = xrealloc(names, (n + 1) * sizeof(*names));
		subs[n] = sub;
		names[n++] = xstrdup(de->d_name);
	}
	if (dh)
		closedir(dh);
	if (n)
		qsort(subs, n, sizeof(*subs), cmp_str);
	for (i = 0; i < n; i++) {
		const char *base = strrchr(subs[i], '/') + 1;
		char *out;
		if (is_rank_dir(subs[i], base)) {
			out = fileio_join(subs[i], OUTPUT_DIR);
			add_rank(rf, subs[i], out, subs[i]);
			free(out);
		} else if (depth > 1) {
			search(rf, subs[i], depth - 1);
		}
	}
	for (i = 0; i < n; i++) {
		free(subs[i]);
		free(names[i]);
	}
	free(subs);
	free(names);
}

/* A file given as PATH: a trace (read alone) or a kernel_details.csv
 * (with its sibling files), by what its bytes are. */
static int add_file(struct run_files *rf, const char *path, struct err *e)
{
	enum disc_kind k = discover_sniff(path);
	char *parent;

	if (k == DK_TRACE) {
		add_trace_file(rf, path);
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
	add_rank(rf, path, parent, NULL);
	free(rf->ranks[rf->n - 1].files[DF_KERNELS]);
	rf->ranks[rf->n - 1].files[DF_KERNELS] = xstrdup(path);
	free(parent);
	return 0;
}

/* A folder with no rank folder below: its trace_view.json (the folder is
 * the rank, like an ASCEND_PROFILER_OUTPUT), or its other trace files. */
static void add_trace_folder(struct run_files *rf, const char *path)
{
	char *trace = find_file(path, TRACE), *parent;

	if (!trace) {
		add_trace_files(rf, path);
		return;
	}
	free(trace);
	parent = parent_of(path);
	add_rank(rf, path, path, parent);
	free(parent);
}

static int add_path(struct run_files *rf, const char *path, struct err *e)
{
	int kind = fileio_kind(path);
	size_t before = rf->n;
	char *parent, *out;

	if (kind < 0)
		return err_set(e, ERR_INPUT, "%s: no such file or folder",
		               path);
	if (kind == 0)
		return add_file(rf, path, e);
	if ((out = find_file(path, KERNELS)) || has_dir(path, OUTPUT_DIR) ||
	    is_rank_dir(path, path)) {
		int is_out = out != NULL;
		free(out);
		parent = parent_of(path);
		out = is_out ? xstrdup(path) : fileio_join(path, OUTPUT_DIR);
		add_rank(rf, path, out, is_out ? parent : path);
		free(out);
		free(parent);
		return 0;
	}
	search(rf, path, DISCOVER_MAX_DEPTH);
	if (rf->n == before)
		add_trace_folder(rf, path);
	if (rf->n == before)
		return err_set(e, ERR_INPUT,
		               "%s: no %s found (looked in the folder, in %s/ "
		               "and in rank folders *_ascend_pt up to %d "
		               "levels below it), nor a trace_view.json",
		               path, KERNELS, OUTPUT_DIR, DISCOVER_MAX_DEPTH);
	return 0;
}

static void note(struct run_files *rf, const char *code, char *a0, char *a1)
{
	rf->notes = xrealloc(rf->notes, (rf->nnotes + 1) * sizeof(*rf->notes));
	rf->notes[rf->nnotes].code = code;
	rf->notes[rf->nnotes].args[0] = a0;
	rf->notes[rf->nnotes++].args[1] = a1;
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

	if (!r->files[DF_INFO])
		return -1;
	f = strrchr(r->files[DF_INFO], '/');
	f = f ? f + 1 : r->files[DF_INFO];
	if (strncmp(f, "profiler_info_", 14))
		return -1;
	n = digits(f + 14, &end);
	return n >= 0 && !strcmp(end, ".json") ? n : -1;
}

static void read_info(struct run_files *rf, struct disc_rank *r)
{
	struct profinfo pi;
	struct err e = ERR_INIT;

	if (r->files[DF_INFO] && profinfo_read(r->files[DF_INFO], &pi, &e)) {
		note(rf, "bad_profiler_info", xstrdup(r->files[DF_INFO]),
		     xstrdup(e.msg));
		return;
	}
	if (!r->files[DF_INFO])
		return;
	if (pi.rank_id >= 0) {
		r->id = (int32_t)pi.rank_id;
		r->id_source = "profiler_info";
	}
	r->torch_npu_version = pi.torch_npu_version;
	r->cann_version = pi.cann_version;
	r->profiler_level = pi.profiler_level;
	r->aic_metrics = pi.aic_metrics;
	memset(&pi, 0, sizeof(pi));
}

static int id_used(const struct run_files *rf, size_t upto, int32_t id)
{
	size_t i;
	for (i = 0; i < upto; i++)
		if (rf->ranks[i].id == id)
			return 1;
	return 0;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct disc_rank *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* A repeated id (after its first) and a missing one get the smallest
 * unused ids, in order. */
static void unique_ids(struct run_files *rf)
{
	size_t i;
	int32_t next = 0;

	for (i = 0; i < rf->n; i++) {
		struct disc_rank *r = &rf->ranks[i];
		if (r->id >= 0 && id_used(rf, i, r->id)) {
			note(rf, "duplicate_rank", xstrfmt("%d", (int)r->id),
			     xstrdup(r->dir));
			r->id = -1;
		}
	}
	for (i = 0; i < rf->n; i++) {
		if (rf->ranks[i].id >= 0)
			continue;
		while (id_used(rf, rf->n, next))
			next++;
		rf->ranks[i].id = next;
		rf->ranks[i].id_source = "order";
	}
}

/* Ids from profiler_info, then from names; the rest, and duplicates, get
 * the smallest unused ids in the order found. */
static void assign_ids(struct run_files *rf)
{
	size_t i;

	for (i = 0; i < rf->n; i++) {
		struct disc_rank *r = &rf->ranks[i];
		read_info(rf, r);
		if (r->id < 0 && (r->id = id_from_file_name(r)) >= 0)
			r->id_source = "file_name";
		if (r->id < 0 && !r->trace_file &&
		    (r->id = id_from_folder(r)) >= 0)
			r->id_source = "folder";
		if (r->id < 0 && (r->id = id_from_info_name(r)) >= 0)
			r->id_source = "profiler_info";
	}
	unique_ids(rf);
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
	size_t i;

	unique_ids(rf);
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
	size_t i;

	memset(rf, 0, sizeof(*rf));
	for (i = 0; i < npaths; i++)
		if (add_path(rf, paths[i], e))
			return -1;
	assign_ids(rf);
	return 0;
}

void run_files_release(struct run_files *rf)
{
	size_t i, f;

	for (i = 0; i < rf->n; i++) {
		struct disc_rank *r = &rf->ranks[i];
		free(r->dir);
		for (f = 0; f < DF_COUNT; f++)
			free(r->files[f]);
		free(r->torch_npu_version);
		free(r->cann_version);
		free(r->profiler_level);
		free(r->aic_metrics);
	}
	for (i = 0; i < rf->nnotes; i++) {
		free(rf->notes[i].args[0]);
		free(rf->notes[i].args[1]);
	}
	free(rf->ranks);
	free(rf->notes);
	memset(rf, 0, sizeof(*rf));
}
