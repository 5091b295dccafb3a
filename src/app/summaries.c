/* sdperf summarize (one rank -> one summary file), and runs merged from
 * summaries: the map and the reduce of a cluster-wide analysis, run by
 * the user's own scheduler (examples/cluster/).
 *
 *   RANK_PATH --discover (one rank)--> rank_analyse --> struct ranksum
 *     --format/json/ranksum_json--> rank-N.json (temporary file + rename)
 *
 *   rank-*.json --input/sumread (each, lists checked)--> the ranks'
 *     small figures --settle ids--> a second reading in rank order: the
 *     kernel types folded into their union, the lead's timeline kept
 *     --> cluster_merge --> the run's result
 *
 * The result a summary carries is the one rank_analyse leaves, so the
 * merge is the one-process run's own, and so is the report. */
#include "app/summaries.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cluster.h"
#include "analysis/ranksum.h"
#include "app/pipeline_int.h"
#include "app/provenance.h"
#include "app/rank.h"
#include "format/json/ranksum_json.h"
#include "input/discover.h"
#include "input/sumread.h"
#include "util/embed.h"
#include "util/fileio.h"
#include "util/membudget.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "version.h"
#include "util/banned.h"

/* Summaries one run merges at most (as many ranks as a report.json). */
#define SUMMARIES_MAX 65536
/* Summaries given again that are named one warning each; the rest are
 * counted in one more. */
#define DUP_WARNINGS 20

/* ---- the rules a rank was analysed with --------------------------------- */

/* "sha256:HEX" of the built-in rules and the --rules file: a summary made
 * with other rules classifies kernels otherwise, so the merge refuses it.
 * Without --rules, the built-in rules' is worked out once per process
 * (the main thread's, before any other starts): the fuzz target merges
 * summaries thousands of times a second. */
static char *rules_fingerprint(const struct options *o, struct err *e)
{
	static char builtin[80];
	const struct embedded_file *b = embed_find("assets/rules.json");
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	unsigned char h[32];
	size_t i;

	if (!o->rules && builtin[0])
		return xstrdup(builtin);

	if (b)
		strbuf_add(&text, b->data, b->len);
	if (o->rules && fileio_read_small(o->rules, 64u << 20, &text, e)) {
		strbuf_release(&text);
		return NULL;
	}
	sha256(text.buf ? text.buf : "", text.len, h);
	strbuf_adds(&out, "sha256:");
	for (i = 0; i < sizeof(h); i++)
		strbuf_addf(&out, "%02x", h[i]);
	strbuf_release(&text);
	if (!o->rules && out.len < sizeof(builtin))
		memcpy(builtin, out.buf, out.len + 1);
	return strbuf_detach(&out, NULL);
}

/* ---- sdperf summarize ------------------------------------------------------
 */

static int one_rank(const struct options *o, const struct run_files *rf,
                    struct err *e)
{
	if (rf->n == 1)
		return 0;
	return err_set(e, ERR_INPUT,
	               "%s: %zu ranks found; sdperf summarize analyses one "
	               "rank (give each task one rank folder)",
	               o->path, rf->n);
}

/* The folder FILE goes into, created when missing (mkdir -p). */
static int make_parent(const char *file, struct err *e)
{
	const char *slash = strrchr(file, '/');
	char *dir;
	int ret;

	if (!slash || slash == file)
		return 0;
	dir = xstrndup(file, (size_t)(slash - file));
	ret = fileio_mkdirs(dir, e);
	free(dir);
	return ret;
}

/* The rank analysed and its files hashed, with the capture time: the
 * merged report's provenance names them as the one-process one does.
 * With -j 2 or more the hashing runs in a thread of its own while the
 * rank is parsed; with -j 1 after it, in this thread. */
static int analyse_hashed(const struct options *o, const struct disc_rank *dr,
                          const struct rules *ru, const struct rank_opts *ro,
                          struct ranksum *s, struct err *e)
{
	struct prov_prehash ph;
	int ahead = pipeline_jobs(o) > 1, ret;

	if (ahead)
		prov_prehash_start(&ph, dr);
	ret = rank_analyse(dr, ru, ro, &s->part, e);
	if (ahead)
		prov_prehash_join(&ph);
	if (ret)
		return -1;
	return prov_rank_inputs(dr, &s->part.ranks[0], ahead ? &ph : NULL, e);
}

int pipeline_summarize(const struct options *o, struct err *e)
{
	struct rules ru = {0};
	struct run_files rf;
	struct ranksum s;
	/* one rank: every -j thread goes to its kernel_details.csv */
	struct rank_opts ro = {o->strict, !o->quiet,
	                       (unsigned)pipeline_jobs(o)};
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	memset(&rf, 0, sizeof(rf));
	memset(&s, 0, sizeof(s));
	result_init(&s.part);
	pipeline_set_budget(o);
	if (pipeline_load_rules(o, &ru, e) ||
	    !(s.rules = rules_fingerprint(o, e)) ||
	    discover_run_links(o->paths, o->npaths, o->follow_links, &rf, e) ||
	    pipeline_no_kernels_error(&rf, e) || one_rank(o, &rf, e) ||
	    analyse_hashed(o, &rf.ranks[0], &ru, &ro, &s, e))
		goto out;
	s.tool_version = xstrdup(SDPERF_VERSION);
	s.notes = rf.notes; /* the summary holds them now */
	s.nnotes = rf.nnotes;
	rf.notes = NULL;
	rf.nnotes = 0;
	if (render_ranksum(&s, &text, e))
		goto out;
	if (make_parent(o->outdir, e) ||
	    fileio_write_atomic(o->outdir, text.buf, text.len, e))
		goto out;
	if (!o->quiet) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_adds(&msg, "wrote ");
		strbuf_add_sanitized(&msg, o->outdir, strlen(o->outdir));
		strbuf_addf(&msg, " (rank %d, %zu bytes)\n",
		            (int)s.part.ranks[0].id, text.len);
		fputs(msg.buf, stdout);
		strbuf_release(&msg);
	}
	ret = 0;
out:
	strbuf_release(&text);
	ranksum_release(&s);
	run_files_release(&rf);
	rules_release(&ru);
	return ret;
}

/* ---- which PATHs are summaries ------------------------------------------ */

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_json_name(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* The summary files directly in dir, sorted by name (appended to *v; no
 * more once *v holds more than max). */
static void dir_summaries(const char *dir, char ***v, size_t *n, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t first = *n;

	while (d && (de = readdir(d)) && *n <= max) {
		char *p;
		if (de->d_name[0] == '.' || !is_json_name(de->d_name))
			continue;
		p = fileio_join(dir, de->d_name);
		if (!sumread_sniff(p)) {
			free(p);
			continue;
		}
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = p;
	}
	if (d)
		closedir(d);
	if (*n > first)
		qsort(*v + first, *n - first, sizeof(**v), cmp_strp);
}

static int is_summary_path(const char *path)
{
	char **v = NULL;
	size_t n = 0, i;
	int kind = fileio_kind(path);

	if (kind == 0)
		return sumread_sniff(path);
	if (kind != 1)
		return 0;
	dir_summaries(path, &v, &n, 0); /* one is enough */
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return n > 0;
}

int summaries_given(const char *const *paths, size_t npaths, struct err *e)
{
	size_t i, yes = 0, first_no = npaths, first_yes = npaths;

	for (i = 0; i < npaths; i++) {
		if (is_summary_path(paths[i])) {
			yes++;
			if (first_yes == npaths)
				first_yes = i;
		} else if (first_no == npaths) {
			first_no = i;
		}
	}
	if (!yes)
		return 0;
	if (yes == npaths)
		return 1;
	return err_set(e, ERR_USAGE,
	               "%s holds sdperf summaries but %s does not: give "
	               "summaries or profiles, not both",
	               paths[first_yes], paths[first_no]);
}

/* ---- merging summaries ----------------------------------------------------
 */

/* The summary files behind the PATHs, in the order given (a folder's by
 * name). */
static int summary_files(const struct options *o, char ***v, size_t *n,
                         struct err *e)
{
	size_t i;

	for (i = 0; i < o->npaths; i++) {
		if (fileio_kind(o->paths[i]) == 1) {
			dir_summaries(o->paths[i], v, n, SUMMARIES_MAX);
		} else {
			*v = xrealloc(*v, (*n + 1) * sizeof(**v));
			(*v)[(*n)++] = xstrdup(o->paths[i]);
		}
		if (*n > SUMMARIES_MAX)
			return err_set(e, ERR_INPUT,
			               "%s: more than %d summaries in one run",
			               o->paths[i], SUMMARIES_MAX);
	}
	return 0;
}

/* What a rank's summary holds beyond the rank's small figures: the kernel
 * type tables (folded into their union, analysis/cluster.h) and the
 * timeline and iterations (the lead rank's only). They are dropped as each
 * summary is first read, and taken from a second reading in rank order,
 * so that memory holds one union of types and one timeline however many
 * ranks there are. */
static void drop_large(struct result *p)
{
	int k;

	free(p->segs);
	p->segs = NULL;
	p->nsegs = 0;
	free(p->iters.v);
	p->iters.v = NULL;
	p->iters.n = 0;
	for (k = 0; k < STAGE_COUNT; k++) {
		type_stats_free(p->stages[k].top, p->stages[k].ntop);
		p->stages[k].top = NULL;
		p->stages[k].ntop = 0;
	}
	type_stats_free(p->unmatched, p->nunmatched);
	p->unmatched = NULL;
	p->nunmatched = 0;
}

/* ---- what summaries may not do ------------------------------------------ */

/* The counts the merge adds over the ranks (cluster_merge), summed as the
 * summaries are read with a check: a sum past 2^64 - 1 is the error
 * naming the file and the member, not a count that wraps (kernels =
 * 18446744073709551608, every category 100%). */
struct count_sums {
	uint64_t kernels;
	uint64_t stage[STAGE_COUNT][2 + 2 * CAT_COUNT + FA_PART_COUNT];
};

static int add_count(uint64_t *sum, uint64_t v, const char *path,
                     const char *member, struct err *e)
{
	if (!__builtin_add_overflow(*sum, v, sum))
		return 0;
	return err_set(e, ERR_INPUT,
	               "%s: %s: %llu, summed over the summaries read so far, "
	               "passes 18446744073709551615 (2^64 - 1): no profile "
	               "counts that many",
	               path, member, (unsigned long long)v);
}

static int check_counts(struct count_sums *cs, const struct result *p,
                        const char *path, struct err *e)
{
	char member[64];
	int s, c;

	if (add_count(&cs->kernels, p->kernels, path, "part.kernels", e))
		return -1;
	for (s = 0; s < STAGE_COUNT; s++) {
		const struct stage_result *st = &p->stages[s];
		uint64_t *v = cs->stage[s];
		snprintf(member, sizeof(member), "part.stages.%d.kernels", s);
		if (add_count(&v[0], st->kernels, path, member, e))
			return -1;
		snprintf(member, sizeof(member), "part.stages.%d.segments", s);
		if (add_count(&v[1], st->segments, path, member, e))
			return -1;
		for (c = 0; c < CAT_COUNT; c++) {
			snprintf(member, sizeof(member),
			         "part.stages.%d.cat.%d.count", s, c);
			if (add_count(&v[2 + c], st->cat[c].count, path, member,
			              e))
				return -1;
		}
		for (c = 0; c < FA_PART_COUNT; c++) {
			snprintf(member, sizeof(member),
			         "part.stages.%d.fa_part.%d.count", s, c);
			if (add_count(&v[2 + CAT_COUNT + c],
			              st->fa_part[c].count, path, member, e))
				return -1;
		}
	}
	return 0;
}

/* Which summaries were read: a file given twice (the same path twice, a
 * copy under another name, a link to it) is one rank, not two. The key is
 * the SHA-256 of the file's bytes: summarize writes the same bytes for the
 * same rank folder, and a summary's bytes name its folder. A rank folder
 * copied under another name is two folders, as in the one-process run
 * (discovery's duplicate_rank: the second copy gets the next free id), so
 * its two summaries merge as that run does. */
struct seen_sums {
	struct strtab keys;
	size_t *owner; /* key id -> index of the file that had it first */
	size_t alloc;
	char **names; /* index of a file kept -> its path */
	size_t nnames;
};

static const char *kept_name(const struct seen_sums *w, size_t i)
{
	return i < w->nnames ? w->names[i] : "?";
}

static void seen_key(struct seen_sums *w, const char *key, size_t len, size_t i,
                     size_t *first)
{
	uint32_t id = strtab_find(&w->keys, key, len);

	if (id != UINT32_MAX) {
		if (*first == (size_t)-1)
			*first = w->owner[id];
		return;
	}
	id = strtab_intern(&w->keys, key, len);
	if (id >= w->alloc) {
		w->alloc = (id + 1) * 2;
		w->owner = xrealloc(w->owner, w->alloc * sizeof(*w->owner));
	}
	w->owner[id] = i;
}

/* Index of the summary read before whose bytes (text) are this one's, or
 * (size_t)-1; this one's key is kept. */
static size_t same_as(struct seen_sums *w, const struct strbuf *text, size_t i)
{
	unsigned char h[32];
	size_t first = (size_t)-1;

	sha256(text->buf ? text->buf : "", text->len, h);
	seen_key(w, (const char *)h, sizeof(h), i, &first);
	return first;
}

/* Reads summary path into part, its notes appended to rf's, its rank
 * described in rf->ranks[i] for the ids to be settled. The strings it
 * holds are charged to the memory budget with the rank's result. When it
 * is a summary read before (*dup set to that one's index), nothing is
 * kept. */
static int read_part(const char *path, const char *rules, struct result *part,
                     struct run_files *rf, size_t i, struct seen_sums *seen,
                     size_t *dup, struct err *e)
{
	struct ranksum s;
	struct strbuf text = STRBUF_INIT;
	const struct rank_result *rr;
	uint64_t strs;
	int ret = -1;

	memset(&s, 0, sizeof(s));
	result_init(&s.part);
	if (fileio_read_small(path, RANKSUM_MAX_BYTES, &text, e) ||
	    ranksum_read_text(path, text.buf ? text.buf : "", text.len, &s, e))
		goto out;
	if (strcmp(s.rules, rules)) {
		err_set(e, ERR_INPUT,
		        "%s: made with other rules (%.20s...) than this run's "
		        "(%.20s...): give the same --rules to sdperf summarize "
		        "and to the command that merges",
		        path, s.rules, rules);
		goto out;
	}
	*dup = same_as(seen, &text, i);
	if (*dup != (size_t)-1) {
		ret = 0;
		goto out;
	}
	seen->names =
	    xrealloc(seen->names, (seen->nnames + 1) * sizeof(*seen->names));
	seen->names[seen->nnames++] = xstrdup(path);
	drop_large(&s.part);
	strs = sumread_str_bytes(&ranksum_table, &s);
	if (membudget_charge(strs)) {
		membudget_fail(e, strs, "%s: the summary's strings", path);
		goto out;
	}
	s.part.charged += strs;
	rf->notes = xrealloc(rf->notes,
	                     (rf->nnotes + s.nnotes + 1) * sizeof(*rf->notes));
	if (s.nnotes)
		memcpy(rf->notes + rf->nnotes, s.notes,
		       s.nnotes * sizeof(*s.notes));
	rf->nnotes += s.nnotes;
	s.nnotes = 0;
	rr = &s.part.ranks[0];
	rf->ranks[i].dir = xstrdup(rr->dir);
	/* an id discovery made up from the order found is no id: the merge
	 * gives it the smallest unused id, as discovery does */
	rf->ranks[i].id =
	    !strcmp(rr->id_source ? rr->id_source : "", "order") ? -1 : rr->id;
	rf->ranks[i].id_source = rr->id_source;
	*part = s.part;
	result_init(&s.part);
	ret = pipeline_charge_part(part, path, e);
out:
	strbuf_release(&text);
	ranksum_release(&s);
	return ret;
}

/* Back in rank id order, as the one-process run settles them. */
static void settle(struct run_files *rf, struct result *parts, char **files)
{
	size_t i, *perm = xcalloc(rf->n ? rf->n : 1, sizeof(*perm));
	struct result *v = xcalloc(rf->n ? rf->n : 1, sizeof(*v));
	char **f = xcalloc(rf->n ? rf->n : 1, sizeof(*f));

	discover_settle_ids(rf, perm);
	for (i = 0; i < rf->n; i++) {
		v[i] = parts[perm[i]];
		f[i] = files[perm[i]];
		v[i].ranks[0].id = rf->ranks[i].id;
		v[i].ranks[0].id_source = rf->ranks[i].id_source;
	}
	memcpy(parts, v, rf->n * sizeof(*v));
	memcpy(files, f, rf->n * sizeof(*f));
	free(f);
	free(v);
	free(perm);
}

/* The second reading, in rank order: each rank's kernel types folded,
 * the lead's (the first analysed) timeline and iterations kept. */
static int second_reading(struct result *parts, char **files, size_t n,
                          struct type_fold *fold, struct err *e)
{
	struct ranksum s;
	size_t i, lead;
	uint64_t grew;
	int ret = 0;

	for (lead = 0; lead < n && !parts[lead].ranks[0].analysed; lead++)
		;
	for (i = 0; i < n && !ret; i++) {
		ret = -1;
		if (ranksum_read(files[i], &s, e))
			goto next;
		if (strcmp(s.part.ranks[0].dir, parts[i].ranks[0].dir) ||
		    s.part.kernels != parts[i].kernels) {
			err_set(e, ERR_INPUT, "%s: changed while it was read",
			        files[i]);
			goto next;
		}
		grew = cluster_fold_add(fold, &s.part);
		if (fold->overflow) {
			err_set(
			    e, ERR_INPUT,
			    "%s: part.stages: a kernel type's count, summed "
			    "over the summaries read so far, passes "
			    "18446744073709551615 (2^64 - 1): no profile "
			    "counts that many",
			    files[i]);
			goto next;
		}
		if (membudget_charge(grew)) {
			membudget_fail(e, grew,
			               "%s: the kernel types of %zu ranks",
			               files[i], i + 1);
			goto next;
		}
		parts[0].charged += grew; /* given back with the result */
		if (i == lead) {
			parts[i].segs = s.part.segs;
			parts[i].nsegs = s.part.nsegs;
			free(parts[i].iters.v);
			parts[i].iters = s.part.iters;
			s.part.segs = NULL;
			s.part.nsegs = 0;
			memset(&s.part.iters, 0, sizeof(s.part.iters));
		}
		ret = 0;
	next:
		ranksum_release(&s);
	}
	if (!ret && n)
		cluster_fold_take(fold, &parts[0]);
	return ret;
}

/* The warning that a summary was given twice (file, counted once as
 * kept). */
static void warn_dup(struct result *r, const char *file, const char *kept)
{
	char *msg = xstrfmt("%s is the same rank summary as %s (the same "
	                    "bytes): counted once",
	                    file, kept);
	struct warning *w = result_warn(r, "duplicate_summary", NULL, 0, msg);

	w->args[0] = xstrdup(file);
	w->args[1] = xstrdup(kept);
	free(msg);
}

/* The rest, past the first DUP_WARNINGS, as one warning (a folder of
 * summaries given twice names each of its files once, not 65,536 times). */
static void warn_dup_more(struct result *r, size_t more)
{
	char *msg =
	    xstrfmt("%zu more summaries given again were counted once", more);
	struct warning *w =
	    result_warn(r, "duplicate_summary_more", NULL, 0, msg);

	w->args[0] = xstrfmt("%zu", more);
	free(msg);
}

int summaries_analyse(const struct options *o, const struct rules *ru,
                      struct result *r, struct err *e)
{
	struct run_files rf;
	struct type_fold fold;
	struct result *parts = NULL;
	struct count_sums *cs = xcalloc(1, sizeof(*cs));
	struct seen_sums seen = {0};
	char **files = NULL, *rules = NULL, **dups = NULL;
	size_t n = 0, m = 0, i, dup, *dup_of = NULL, ndups = 0;
	int ret = -1;

	memset(&rf, 0, sizeof(rf));
	strtab_init(&seen.keys);
	cluster_fold_init(&fold);
	result_init(r);
	if (summary_files(o, &files, &n, e) ||
	    !(rules = rules_fingerprint(o, e)))
		goto out;
	parts = xcalloc(n ? n : 1, sizeof(*parts));
	rf.ranks = xcalloc(n ? n : 1, sizeof(*rf.ranks));
	rf.n = n; /* m once all are read; the ranks past m stay zeroed */
	dups = xcalloc(n ? n : 1, sizeof(*dups));
	dup_of = xcalloc(n ? n : 1, sizeof(*dup_of));
	for (i = 0; i < n; i++)
		result_init(&parts[i]);
	/* the files kept move to files[0..m), the ones given again to dups */
	for (i = 0; i < n; i++) {
		if (read_part(files[i], rules, &parts[m], &rf, m, &seen, &dup,
		              e))
			goto out;
		if (dup != (size_t)-1) {
			dups[ndups] = files[i];
			dup_of[ndups++] = dup;
			files[i] = NULL;
			continue;
		}
		if (check_counts(cs, &parts[m], files[i], e))
			goto out;
		files[m] = files[i];
		if (m != i)
			files[i] = NULL;
		m++;
	}
	rf.n = m;
	settle(&rf, parts, files);
	if (second_reading(parts, files, m, &fold, e))
		goto out;
	pipeline_merge(o, ru, &rf, parts, r);
	r->summaries = m;
	/* seen's owner: the index among the files kept as they were read
	 * (settle reorders files[], not seen.names) */
	for (i = 0; i < ndups && i < DUP_WARNINGS; i++)
		warn_dup(r, dups[i], kept_name(&seen, dup_of[i]));
	if (ndups > DUP_WARNINGS)
		warn_dup_more(r, ndups - DUP_WARNINGS);
	ret = 0;
out:
	for (i = 0; parts && i < n; i++)
		result_release(&parts[i]);
	free(parts);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	for (i = 0; i < ndups; i++)
		free(dups[i]);
	free(dups);
	free(dup_of);
	free(rules);
	free(cs);
	free(seen.owner);
	for (i = 0; i < seen.nnames; i++)
		free(seen.names[i]);
	free(seen.names);
	strtab_release(&seen.keys);
	run_files_release(&rf);
	cluster_fold_release(&fold);
	return ret;
}
