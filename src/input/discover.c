/* Profile discovery: the folder shapes users point tools at (FORMATS.md,
 * "Folder layout"). Several rank folders are found and counted here, ready
 * for multi-rank analysis. */
#include "input/discover.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define OUTPUT_DIR "ASCEND_PROFILER_OUTPUT"
#define KERNELS    "kernel_details.csv"

static int has_file(const char *dir, const char *name)
{
	char *p = fileio_join(dir, name);
	int ok = fileio_kind(p) == 0;
	free(p);
	return ok;
}

static int has_dir(const char *dir, const char *name)
{
	char *p = fileio_join(dir, name);
	int ok = fileio_kind(p) == 1;
	free(p);
	return ok;
}

/* Sets d from a folder holding ASCEND_PROFILER_OUTPUT/kernel_details.csv. */
static void from_rank_dir(const char *dir, struct discovered *d)
{
	d->rank_dir = xstrdup(dir);
	d->output_dir = fileio_join(dir, OUTPUT_DIR);
	d->kernels_csv = fileio_join(d->output_dir, KERNELS);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the sub-folders of dir that hold ASCEND_PROFILER_OUTPUT. */
static size_t rank_dirs(const char *dir, char ***out)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;

	while (dh && (de = readdir(dh))) {
		char *sub;
		if (de->d_name[0] == '.')
			continue;
		sub = fileio_join(dir, de->d_name);
		if (fileio_kind(sub) == 1 && has_dir(sub, OUTPUT_DIR)) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = sub;
		} else {
			free(sub);
		}
	}
	if (dh)
		closedir(dh);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

static int from_parent(const char *path, struct discovered *d, struct err *e)
{
	char **ranks = NULL;
	size_t n = rank_dirs(path, &ranks), i;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (n == 1 && has_file(ranks[0], OUTPUT_DIR "/" KERNELS)) {
		from_rank_dir(ranks[0], d);
	} else if (n > 1) {
		for (i = 0; i < n && i < 4; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", ranks[i]);
		ret = err_set(e, ERR_USAGE,
		              "%s: holds %zu rank folders (%s%s); multi-rank "
		              "reports are not supported yet: point sdperf at "
		              "one rank folder",
		              path, n, sb.buf, n > 4 ? ", ..." : "");
	} else if (has_dir(path, OUTPUT_DIR) || n == 1) {
		ret = err_set(e, ERR_INPUT,
		              "%s: no %s in its %s folder (a profile exported "
		              "with export_type=db only? sdperf reads the text "
		              "export)",
		              path, KERNELS, OUTPUT_DIR);
	} else {
		ret = err_set(e, ERR_INPUT,
		              "%s: no %s found (looked in the folder, in %s/ "
		              "and in rank folders *_ascend_pt inside it)",
		              path, KERNELS, OUTPUT_DIR);
	}
	for (i = 0; i < n; i++)
		free(ranks[i]);
	free(ranks);
	strbuf_release(&sb);
	return ret;
}

int discover_profile(const char *path, struct discovered *d, struct err *e)
{
	int kind = fileio_kind(path);

	memset(d, 0, sizeof(*d));
	if (kind < 0)
		return err_set(e, ERR_INPUT, "%s: no such file or folder",
		               path);
	if (kind == 0) {
		d->kernels_csv = xstrdup(path);
		return 0;
	}
	if (has_file(path, KERNELS)) {
		d->output_dir = xstrdup(path);
		d->kernels_csv = fileio_join(path, KERNELS);
		return 0;
	}
	if (has_file(path, OUTPUT_DIR "/" KERNELS)) {
		from_rank_dir(path, d);
		return 0;
	}
	return from_parent(path, d, e);
}

void discover_release(struct discovered *d)
{
	free(d->kernels_csv);
	free(d->output_dir);
	free(d->rank_dir);
	memset(d, 0, sizeof(*d));
}
