/* kernel_details.csv in chunks: each chunk is read by a shard (its own
 * parser, kernel table and warnings) on its own thread; then, on the
 * calling thread, the shards are merged in file order, replaying what the
 * whole-file read does after a row is parsed: keys interned in order of
 * first appearance, the plausibility probe over the file's first kernels,
 * warnings in the order they arise, with the file's line numbers. Any
 * failure, in a shard or in the merge, sends the read back to one thread,
 * so that every error is the whole-file read's own. */
#include <stdlib.h>
#include <string.h>

#include "input/csvsplit.h"
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
static void take_warning(struct kreader *m, struct row_warning *w,
                         uint64_t off)
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

/* One kernel of a shard, at file line line, as keep_row goes on after
 * the row was parsed: judged, kept, probed. */
static void merge_kernel(struct kreader *m, struct kernel k, uint64_t line)
{
	struct kernel_table *kt = m->kt;
	int which = plausible_check(&m->plaus, k.start_ns, k.dur_ns);

	if (which) {
		struct plausible_kernel pk = {k.start_ns, k.dur_ns, line};
		kreader_skip_implausible(m, &pk, which);
		return;
	}
	kt->v[kt->n++] = k;
	if (!m->plaus.ready &&
	    plausible_add(&m->plaus, k.start_ns, k.dur_ns, line, kt->n - 1))
		kreader_settle_probe(m);
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
 * when something refused (a cap, the budget, --strict). Shard 0 is
 * merged in place: it filled m's table, which it only compacts. */
static int merge_shard(struct kreader *m, struct shard *s, size_t k,
                       uint64_t off)
{
	struct kernel_table *kt = m->kt, *src = s->r.kt;
	struct kernels_info *si = s->r.info;
	size_t i, n = src->n, wi = 0;
	uint32_t *map = NULL;
	uint64_t cost, line;
	struct kernel kn;

	if (k) {
		map = remap_keys(m, src);
		if (!map || kernel_table_reserve_for(kt, kt->n + n, &cost)) {
			free(map);
			return -1;
		}
	} else {
		kt->n = 0; /* written again from the start, never ahead */
		m->key_bytes = s->r.key_bytes;
	}
	for (i = 0; i < n && !m->csv.failed; i++) {
		line = s->r.lines[i] + off;
		while (wi < si->nwarn && si->warn[wi].line + off < line)
			take_warning(m, &si->warn[wi++], off);
		kn = src->v[i];
		if (map)
			kn.key = map[kn.key];
		merge_kernel(m, kn, line);
	}
	while (wi < si->nwarn)
		take_warning(m, &si->warn[wi++], off);
	merge_info(m->info, si);
	m->csv.line += s->r.csv.line;
	m->csv.crlf |= s->r.csv.crlf;
	free(map);
	return m->csv.failed ? -1 : 0;
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
	size_t k;
	int rc;

	for (k = 0; k < sp->n; k++) {
		kernel_table_init(&sh[k].kt);
		kreader_init_shard(&sh[k].r, m, k, k ? &sh[k].kt : m->kt,
		                   &sh[k].info);
		chunks[k] = &sh[k].r.csv;
	}
	rc = csvsplit_run(sp, chunks) != 0;
	m->csv.line = sp->hdr_lines;
	for (k = 0; k < sp->n && !rc; k++) {
		rc = merge_shard(m, &sh[k], k, sp->first_line[k]) != 0;
		shard_release(&sh[k], k); /* its memory before the next grows */
	}
	for (; k < sp->n; k++)
		shard_release(&sh[k], k);
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
		rc = kreader_finish(&m); /* settles a short probe, checks */
	}
	else
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
