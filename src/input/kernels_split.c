/* kernel_details.csv in chunks: each chunk is read by a shard (its own
 * parser, kernel table and warnings) on its own thread. Shard 0 judges the
 * plausibility of times as the whole-file read does and the others wait
 * for its reference (the median start of the file's first kernels) before
 * judging theirs, so every shard's rows and warnings are what the
 * whole-file read makes of them. Then, on the calling thread, the shards
 * are merged in file order: keys interned in order of first appearance,
 * kernels and warnings appended, line numbers made the file's. Any
 * failure, in a shard or in the merge, sends the read back to one thread,
 * so that every error is the whole-file read's own. */
#include <stdlib.h>
#include <string.h>

#include "input/csvsplit.h"
#include "input/kernels.h"
#include "input/kernels_int.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct shard {
	struct kreader r;
	struct kernel_table kt; /* shard 0 fills the caller's table */
	struct kernels_info info;
};

/* Moves warning w of a shard, whose lines start after off, to the file's
 * list (the shard's skipped rows are counted apart). */
static void take_warning(struct kreader *m, struct row_warning *w, uint64_t off)
{
	struct kernels_info *in = m->info;

	if (in->nwarn < KERNELS_MAX_WARNINGS) {
		in->warn =
		    xrealloc(in->warn, (in->nwarn + 1) * sizeof(*in->warn));
		in->warn[in->nwarn] = *w;
		in->warn[in->nwarn++].line += off;
	} else {
		free(w->reason);
		free(w->args[0]);
		free(w->args[1]);
		free(w->args[2]);
	}
	memset(w, 0, sizeof(*w));
}

/* Shard keys to file keys, interned in the shard's order, within the
 * caps and the budget as the whole-file read interns them. NULL when a cap
 * or the budget refuses (the whole-file read words it). */
static uint32_t *remap_keys(struct kreader *m, const struct kernel_table *s)
{
	struct kernel_table *kt = m->kt;
	uint32_t *map = xmalloc((s->keys.n + 1) * sizeof(*map)), k;
	const char *t;
	size_t len;

	for (k = 0; k < s->keys.n; k++) {
		t = strtab_str(&s->keys, k);
		len = s->keys.lens[k];
		map[k] = strtab_find(&kt->keys, t, len);
		if (map[k] != UINT32_MAX)
			continue;
		if (kt->keys.n >= KERNELS_MAX_TYPES ||
		    m->key_bytes + len > KERNELS_MAX_KEY_BYTES ||
		    membudget_charge(KEY_COST(len))) {
			free(map);
			return NULL;
		}
		map[k] = strtab_intern(&kt->keys, t, len);
		m->key_bytes += len;
		kt->charged += KEY_COST(len);
	}
	return map;
}

static void merge_info(struct kernels_info *to, const struct kernels_info *s)
{
	to->rows += s->rows;
	to->skipped += s->skipped;
	to->na_type += s->na_type;
	to->start_tab |= s->start_tab;
	if (to->device_id < 0)
		to->device_id = s->device_id;
}

/* Appends shard s (chunk k, its lines after off) to m's table: 0, or -1
 * when a cap or the budget refused. Shard 0 filled m's table itself. The
 * shards judged their rows already, so their warnings are in the order
 * the whole-file read gives them, one shard after the other. */
static int merge_shard(struct kreader *m, struct shard *s, size_t k,
                       uint64_t off)
{
	struct kernel_table *kt = m->kt, *src = s->r.kt;
	struct kernels_info *si = s->r.info;
	uint32_t *map;
	uint64_t cost;
	size_t i;

	if (!k) {
		m->key_bytes = s->r.key_bytes;
	} else {
		map = remap_keys(m, src);
		if (!map ||
		    kernel_table_reserve_for(kt, kt->n + src->n, &cost)) {
			free(map);
			return -1;
		}
		for (i = 0; i < src->n; i++) {
			kt->v[kt->n] = src->v[i];
			kt->v[kt->n++].key = map[src->v[i].key];
		}
		free(map);
	}
	for (i = 0; i < si->nwarn; i++)
		take_warning(m, &si->warn[i], off);
	merge_info(m->info, si);
	m->csv.line += s->r.csv.line;
	m->csv.crlf |= s->r.csv.crlf;
	return 0;
}

static void shard_release(struct shard *s, size_t k)
{
	kreader_release(&s->r);
	if (k)
		kernel_table_release(&s->kt);
	kernels_info_release(&s->info);
}

/* Parses the chunks of sp into shards and merges them into m: 0, or 1
 * when the read must be done again on one thread. */
static int read_shards(struct kreader *m, struct csvsplit *sp)
{
	struct shard *sh = xcalloc(sp->n, sizeof(*sh));
	struct csvread **chunks = xcalloc(sp->n, sizeof(*chunks));
	struct kref ref = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	                   0, 0, 0};
	size_t k;
	int rc;

	for (k = 0; k < sp->n; k++) {
		kernel_table_init(&sh[k].kt);
		kreader_init_shard(&sh[k].r, m, k, k ? &sh[k].kt : m->kt,
		                   &sh[k].info, &ref);
		chunks[k] = &sh[k].r.csv;
	}
	rc = csvsplit_run(sp, chunks, kreader_shard_done) != 0;
	/* fewer kept kernels than the probe in chunk 0 (and none waited for
	 * its reference): the whole-file read settles the probe at the end,
	 * over kernels of later chunks too */
	if (!sh[0].r.plaus.ready)
		rc = 1;
	m->plaus.ready = 1; /* shard 0 settled the probe */
	m->csv.line = sp->hdr_lines;
	for (k = 0; k < sp->n && !rc; k++) {
		rc = merge_shard(m, &sh[k], k, sp->first_line[k]) != 0;
		shard_release(&sh[k], k); /* its memory before the next grows */
	}
	for (; k < sp->n; k++)
		shard_release(&sh[k], k);
	pthread_cond_destroy(&ref.cv);
	pthread_mutex_destroy(&ref.mu);
	free(chunks);
	free(sh);
	return rc;
}

int kernels_read_split(const char *path, const struct kernels_opts *o,
                       struct kernel_table *kt, struct kernels_info *info,
                       struct err *e)
{
	struct kreader m;
	struct csvread_opts co;
	struct csvsplit sp;
	struct err me = ERR_INIT;
	int rc = 1;

	if (!o || o->threads < 2 || kt->n || kt->keys.n)
		return 1;
	kreader_csv_opts(&co, o);
	kreader_init(&m, path, o, &co, kt, info, &me);
	if (csvsplit_open(&sp, &m.csv, o->threads) && !read_shards(&m, &sp)) {
		info->chunks = (unsigned)sp.n;
		rc = kreader_finish(&m); /* checks the file as a whole */
	} else
		kreader_release(&m);
	csvsplit_close(&sp);
	if (rc > 0) {
		kernel_table_release(kt);
		kernel_table_init(kt);
		kernels_info_release(info);
	} else if (rc < 0) {
		*e = me;
	}
	return rc;
}
