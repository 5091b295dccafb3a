/* The pipeline, one page: this IS the architecture diagram.
 *
 *   PATH... --discover--> rank folders --(one thread per rank, -j)-->
 *     rank_analyse: kernel_details.csv --> stages, categories
 *                     (read in chunks on the threads -j leaves over)
 *                   trace_view.json    --> user stage markers, Overlap
 *                                          Analysis per stage
 *                     (no kernel_details.csv: all of it, kernels and
 *                      steps too, from trace_view.json in one pass)
 *                   step_trace_time.csv, communication.json --> steps,
 *                                          collectives
 *                     (or ascend_pytorch_profiler[_N].db: all of it from
 *                      the SQLite export)
 *   --settle rank ids (a trace may carry its own)--
 *   --cluster_merge--> one result
 *   --collection_check--> how each rank was collected, what that costs
 *   --render--> report.json, report.html, report.md, report.pdf (and, asked
 *               for, report.fragment.html) + stdout summary
 *
 * Readers know nothing of the report, the analysis nothing of rendering,
 * renderers nothing of file formats. */
#define _GNU_SOURCE /* sched_getaffinity: the cores this run may use */
#include "app/pipeline.h"

#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/check.h"
#include "analysis/cluster.h"
#include "analysis/collection.h"
#include "analysis/compare.h"
#include "analysis/redact.h"
#include "analysis/rules.h"
#include "input/discover.h"
#include "app/brand.h"
#include "app/provenance.h"
#include "input/sumread.h"
#include "app/pipeline_int.h"
#include "app/rank.h"
#include "app/summaries.h"
#include "format/json/diff_json.h"
#include "format/diff_report.h"
#include "format/text/diff_text.h"
#include "format/json/json.h"
#include "format/report.h"
#include "format/text/text.h"
#include "util/banned.h"
#include "util/fileio.h"
#include "util/membudget.h"
#include "util/outset.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "version.h"

/* --max-memory, or the default share of this machine's memory: set once,
 * before any worker thread starts. */
void pipeline_set_budget(const struct options *o)
{
	membudget_set(o->max_memory ? o->max_memory : membudget_default());
}

int pipeline_load_rules(const struct options *o, struct rules *ru,
                        struct err *e)
{
	size_t i;

	if (o->rules ? rules_load_file(ru, o->rules, e)
	             : rules_load_builtin(ru, e))
		return -1;
	for (i = 0; i < o->nthresholds; i++)
		if (rules_set_threshold(ru, o->thresholds[i], e))
			return -1;
	ru->device_memory_gb = o->device_memory_gb;
	return 0;
}

/* What is written: a result (report) or a comparison (diff). */
struct output {
	const char *base; /* file names: BASE.json, BASE.html, ... */
	const struct result *r;
	const struct comparison *c;
};

/* Renders format `bit` of out into text. */
static int render_one(const struct options *o, const struct output *w,
                      unsigned bit, time_t date, struct strbuf *text,
                      struct err *e)
{
	struct report_opts ro = {o->lang,      o->title,
	                         o->docs_base, o->templates_dir,
	                         date,         SDPERF_VERSION,
	                         NULL,         o->font,
	                         o->cjk_font,  w->r ? &w->r->brand : NULL};
	enum report_kind kind = bit == FORMAT_HTML       ? REPORT_HTML
	                        : bit == FORMAT_MD       ? REPORT_MARKDOWN
	                        : bit == FORMAT_FRAGMENT ? REPORT_FRAGMENT
	                                                 : REPORT_PDF;

	if (bit == FORMAT_JSON) {
		if (w->c)
			render_diff_json(w->c, SDPERF_VERSION, text);
		else
			return render_json(w->r, SDPERF_VERSION, text, e);
		return 0;
	}
	return w->c ? diff_report_render(w->c, kind, &ro, text, e)
	            : report_render(w->r, kind, &ro, text, e);
}

/* The summary to stdout: it names kernel types, verdict titles from a
 * rules file and paths, so control characters other than newlines and
 * invalid UTF-8 are shown as \xNN (the one place stdout is written). */
static void print_summary(const struct strbuf *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_printable(&sb, text->buf, text->len);
	fputs(sb.buf, stdout);
	fflush(stdout);
	strbuf_release(&sb);
}

/* Renders every requested format first, then publishes them as one set
 * (util/outset.h): written under temporary names, flushed, then renamed
 * into place together, so a failure or a signal at any point leaves the
 * previous set as it was. */
static int write_outputs(const struct options *o, const struct output *w,
                         struct err *e)
{
	static const struct {
		unsigned bit;
		const char *ext;
	} formats[] = {{FORMAT_JSON, "json"},
	               {FORMAT_HTML, "html"},
	               {FORMAT_FRAGMENT, "fragment.html"},
	               {FORMAT_MD, "md"},
	               {FORMAT_PDF, "pdf"}};
	enum { NF = sizeof(formats) / sizeof(formats[0]) };
	struct strbuf text[NF], summary = STRBUF_INIT;
	/* a report's own generation time (its provenance), else now */
	time_t date = w->r && w->r->prov.set ? (time_t)w->r->prov.generated_s
	                                     : report_time();
	struct outset *set = NULL;
	struct redactor *rd = w->r ? w->r->redactor : NULL;
	char *shown = rd ? redactor_rewrite(rd, o->outdir) : NULL;
	size_t i;
	int ret = -1;

	for (i = 0; i < NF; i++)
		strbuf_init(&text[i]);
	for (i = 0; i < NF; i++)
		if ((o->formats & formats[i].bit) &&
		    render_one(o, w, formats[i].bit, date, &text[i], e))
			goto out;
	if (outset_open_as(&set, o->outdir, shown ? shown : o->outdir, o->quiet,
	                   e))
		goto out;
	for (i = 0; i < NF; i++) {
		char *file;
		int bad;
		if (!(o->formats & formats[i].bit))
			continue;
		file = xstrfmt("%s.%s", w->base, formats[i].ext);
		bad = outset_add(set, file, text[i].buf, text[i].len, e);
		free(file);
		if (bad)
			goto out;
	}
	if (outset_commit(set, e))
		goto out;
	if (!o->quiet) {
		if (w->c)
			render_diff_text(w->c, &summary);
		else
			render_text(w->r, SDPERF_VERSION, &summary);
		strbuf_addch(&summary, '\n');
		for (i = 0; i < NF; i++) {
			char *path;
			if (!(o->formats & formats[i].bit))
				continue;
			path = fileio_join(shown ? shown : o->outdir, w->base);
			strbuf_addf(&summary, "wrote %s.%s\n", path,
			            formats[i].ext);
			free(path);
		}
		print_summary(&summary);
	}
	ret = 0;
out:
	outset_free(set);
	free(shown);
	for (i = 0; i < NF; i++)
		strbuf_release(&text[i]);
	strbuf_release(&summary);
	return ret;
}

/* ---- ranks in parallel ---------------------------------------------- */

struct pool {
	const struct run_files *rf;
	const struct rules *ru;
	struct rank_opts ro;
	int hash;  /* provenance: hash each rank's input files */
	long jobs; /* -j: above 1, a hashing thread per rank analysed */
	struct result *parts;
	struct err *errs;
	int *failed;
	size_t next; /* next rank to take, under lock */
	pthread_mutex_t lock;
};

/* A rank's result waits for the others in memory: charged to the budget
 * (given back with the merged result). */
int pipeline_charge_part(struct result *part, const char *dir, struct err *e)
{
	uint64_t b = result_bytes(part);

	if (membudget_charge(b))
		return membudget_fail(e, b, "%s: the rank's result", dir);
	part->charged += b;
	return 0;
}

/* One rank: with -j 2 or more, its files are hashed in a thread of their
 * own while it is parsed (the hashing overlaps the parsing); with -j 1,
 * in this thread after the analysis, so that -j 1 stays one thread. */
static void analyse_one(struct pool *p, size_t i)
{
	const struct disc_rank *dr = &p->rf->ranks[i];
	struct prov_prehash ph;
	int ahead = p->hash && p->jobs > 1;

	if (ahead)
		prov_prehash_start(&ph, dr);
	p->failed[i] =
	    rank_analyse(dr, p->ru, &p->ro, &p->parts[i], &p->errs[i]) != 0 ||
	    pipeline_charge_part(&p->parts[i], dr->dir, &p->errs[i]) != 0;
	if (ahead)
		prov_prehash_join(&ph);
	if (!p->failed[i] && p->hash)
		p->failed[i] =
		    prov_rank_inputs(dr, &p->parts[i].ranks[0],
		                     ahead ? &ph : NULL, &p->errs[i]) != 0;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->rf->n)
			return NULL;
		analyse_one(p, i);
	}
}

/* -j, or one thread per core this process may run on (taskset, a
 * container's cpuset), else per core online. */
long pipeline_jobs(const struct options *o)
{
	cpu_set_t set;
	long n = o->jobs;

	if (!n && !sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	if (!n)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n;
}

static int jobs_for(const struct options *o, size_t nranks)
{
	long n = pipeline_jobs(o);
	return (int)((size_t)n < nranks ? (size_t)n : nranks);
}

/* Analyses every rank, jobs at a time: each worker holds one rank's kernel
 * table at most, so memory is bounded by jobs x the largest rank. With
 * fewer ranks than jobs, the spare threads go to each rank's large file
 * (kernel_details.csv read in chunks): jobs / rank threads each. The
 * first failing rank (by rank order) gives the error. */
static int analyse_ranks(const struct options *o, const struct rules *ru,
                         const struct run_files *rf, struct result *parts,
                         int *threads, struct err *e)
{
	struct pool p = {rf,
	                 ru,
	                 {o->strict, 0, 1},
	                 o->cmd == CMD_REPORT,
	                 pipeline_jobs(o),
	                 parts,
	                 NULL,
	                 NULL,
	                 0,
	                 PTHREAD_MUTEX_INITIALIZER};
	int n = jobs_for(o, rf->n), i, ret = 0;
	pthread_t *tid = xcalloc((size_t)n, sizeof(*tid));
	size_t k;

	p.errs = xcalloc(rf->n, sizeof(*p.errs));
	p.failed = xcalloc(rf->n, sizeof(*p.failed));
	p.ro.progress = !o->quiet && rf->n == 1;
	p.ro.threads = n ? (unsigned)(pipeline_jobs(o) / n) : 1;
	*threads = n;
	for (i = 1; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker, &p)) {
			n = i; /* go on with the threads we have */
			*threads = n;
			break;
		}
	worker(&p);
	for (i = 1; i < n; i++)
		pthread_join(tid[i], NULL);
	for (k = 0; k < rf->n && !ret; k++)
		if (p.failed[k]) {
			*e = p.errs[k];
			ret = -1;
		}
	free(p.errs);
	free(p.failed);
	free(tid);
	return ret;
}

static void discovery_notes(const struct run_files *rf, struct result *r)
{
	size_t i;

	for (i = 0; i < rf->nnotes; i++) {
		const struct disc_note *dn = &rf->notes[i];
		char *msg;
		struct warning *w;
		if (!strcmp(dn->code, "duplicate_rank"))
			msg = xstrfmt("rank id %s is used twice: %s gets the "
			              "next free id",
			              dn->args[0], dn->args[1]);
		else if (!strcmp(dn->code, "folder_loop"))
			msg = xstrfmt("%s leads back to a folder it is in (a "
			              "symlink loop): not searched again",
			              dn->args[0]);
		else if (!strcmp(dn->code, "link_outside"))
			msg = xstrfmt("%s is a symlink out of the folder given "
			              "(to %s): not read (--follow-links reads "
			              "it)",
			              dn->args[0], dn->args[1]);
		else
			msg = xstrfmt("profiler_info unreadable, so the rank "
			              "id and versions are unknown: %s",
			              dn->args[1]);
		w = result_warn(r, dn->code, NULL, 0, msg);
		w->args[0] = xstrdup(dn->args[0]);
		w->args[1] = dn->args[1] ? xstrdup(dn->args[1]) : NULL;
		free(msg);
	}
	if (rf->links_skipped > DISCOVER_MAX_LINK_NOTES) {
		struct warning *w;
		char *msg =
		    xstrfmt("%zu more symlinks out of the folder given "
		            "were not read (--follow-links reads them)",
		            rf->links_skipped - DISCOVER_MAX_LINK_NOTES);
		w = result_warn(r, "links_outside_more", NULL, 0, msg);
		w->args[0] =
		    xstrfmt("%zu", rf->links_skipped - DISCOVER_MAX_LINK_NOTES);
		free(msg);
	}
}

static char *joined_paths(const struct options *o)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	for (i = 0; i < o->npaths; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", o->paths[i]);
	return strbuf_detach(&sb, NULL);
}

/* 0 when sdperf may list dir (and stat what is in it), else -1 with an
 * ERR_INPUT error naming dir and the reason (a folder without read or
 * search permission looks empty to discovery). */
static int unreadable(const char *dir, struct err *e)
{
	char *k = fileio_join(dir, "kernel_details.csv");
	struct stat st;
	DIR *d = opendir(dir);
	int why = d ? 0 : errno;

	if (d)
		closedir(d);
	if (!why && stat(k, &st) && (errno == EACCES || errno == EPERM))
		why = errno;
	free(k);
	if (why != EACCES && why != EPERM)
		return 0;
	return err_set(e, ERR_INPUT, "%s: cannot read the folder: %s", dir,
	               strerror(why));
}

int pipeline_no_kernels_error(const struct run_files *rf, struct err *e)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < rf->n; i++)
		if (rf->ranks[i].files[RF_KERNELS] ||
		    rf->ranks[i].files[DF_DB] || rf->ranks[i].files[RF_TRACE])
			return 0;
	/* before guessing at a db-only export: a folder sdperf cannot read */
	for (i = 0; i < rf->n && !ret; i++) {
		char *out =
		    fileio_join(rf->ranks[i].dir, "ASCEND_PROFILER_OUTPUT");
		ret = fileio_kind(out) == 1 ? unreadable(out, e)
		                            : unreadable(rf->ranks[i].dir, e);
		free(out);
	}
	if (ret)
		return ret;
	return err_set(e, ERR_INPUT,
	               "%s: no kernel_details.csv in its "
	               "ASCEND_PROFILER_OUTPUT folder%s, no "
	               "ascend_pytorch_profiler*.db and no trace_view.json "
	               "either",
	               rf->ranks[0].dir,
	               rf->n > 1 ? " nor in any other rank's" : "");
}

/* A rank read from its trace alone may have taken the trace's rank id:
 * ids made unique again and the ranks put back in id order. */
static void settle_ids(struct run_files *rf, struct result *parts)
{
	size_t i, *perm;
	struct result *v;
	int changed = 0;

	for (i = 0; i < rf->n; i++) {
		const struct rank_result *rr = &parts[i].ranks[0];
		changed |= rr->id != rf->ranks[i].id;
		rf->ranks[i].id = rr->id;
		rf->ranks[i].id_source = rr->id_source;
	}
	if (!changed)
		return;
	perm = xcalloc(rf->n, sizeof(*perm));
	v = xcalloc(rf->n, sizeof(*v));
	discover_settle_ids(rf, perm);
	for (i = 0; i < rf->n; i++) {
		v[i] = parts[perm[i]];
		v[i].ranks[0].id = rf->ranks[i].id;
		v[i].ranks[0].id_source = rf->ranks[i].id_source;
	}
	memcpy(parts, v, rf->n * sizeof(*v));
	free(v);
	free(perm);
}

void pipeline_merge(const struct options *o, const struct rules *ru,
                    const struct run_files *rf, struct result *parts,
                    struct result *r)
{
	size_t i;

	cluster_merge(parts, rf->n, ru, r);
	for (i = 0; i < rf->n; i++) { /* the merged result holds it now */
		r->charged += parts[i].charged;
		parts[i].charged = 0;
	}
	collection_check(r);
	r->threads = 1;
	r->profile_path = joined_paths(o);
	discovery_notes(rf, r);
}

int pipeline_analyse(const struct options *o, const struct rules *ru,
                     struct result *r, struct err *e)
{
	struct run_files rf;
	struct result *parts = NULL;
	size_t i;
	int ret = -1, threads = 1;

	result_init(r);
	ret = summaries_given(o->paths, o->npaths, e);
	if (ret)
		return ret < 0 ? -1 : summaries_analyse(o, ru, r, e);
	ret = -1;
	if (discover_run_links(o->paths, o->npaths, o->follow_links, &rf, e) ||
	    pipeline_no_kernels_error(&rf, e))
		goto out;
	parts = xcalloc(rf.n, sizeof(*parts));
	if (analyse_ranks(o, ru, &rf, parts, &threads, e))
		goto out;
	settle_ids(&rf, parts);
	pipeline_merge(o, ru, &rf, parts, r);
	r->threads = threads;
	ret = 0;
out:
	for (i = 0; parts && i < rf.n; i++)
		result_release(&parts[i]);
	free(parts);
	run_files_release(&rf);
	return ret;
}

/* This machine's name and the user's, looked for in every string (the
 * profile's, the title, the output folder): each is numbered only when
 * first met (redactor_add_name), so the profile's own pseudonyms do not
 * depend on where sdperf runs. */
static void redact_own_names(struct redactor *rd)
{
	char host[256];

	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		redactor_add_name(rd, REDACT_HOST, host);
	}
	redactor_add_name(rd, REDACT_USER, getenv("USER"));
	redactor_add_name(rd, REDACT_USER, getenv("LOGNAME"));
}

/* Says once, on stderr, that a ./sdperf.json was found and not read. */
static void note_config(const struct options *o)
{
	struct strbuf sb = STRBUF_INIT;

	brand_note(o, &sb);
	if (sb.len)
		fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int pipeline_report(struct options *o, struct err *e)
{
	struct rules ru = {0};
	struct output w = {"report", NULL, NULL};
	struct options ro;
	struct redactor *rd = NULL;
	struct result r;
	char *title = NULL, *docs = NULL;
	int ret = -1, bad;

	pipeline_set_budget(o);
	result_init(&r);
	/* the branding (and its config file, its logo) before any input */
	bad = brand_resolve(o, e);
	note_config(o);
	if (bad || pipeline_load_rules(o, &ru, e) ||
	    pipeline_analyse(o, &ru, &r, e))
		goto out;
	prov_fill(o, &ru, &r);
	ro = *o; /* after brand_resolve */
	/* after the analysis and the provenance (its command line and input
	 * paths are rewritten too), before the view */
	if (o->redact) {
		rd = redactor_new(o->paths, o->npaths, o->redact_kernels);
		redact_own_names(rd);
		redact_result(&r, rd);
		title = redactor_rewrite(rd, o->title);
		ro.title = title;
		/* --docs-base: the command line's too (its links) */
		docs = redactor_rewrite(rd, o->docs_base);
		ro.docs_base = docs;
		redact_result_counts(&r); /* with what these held */
	}
	w.r = &r;
	ret = write_outputs(&ro, &w, e);
out:
	free(title);
	free(docs);
	result_release(&r);
	redactor_free(rd);
	rules_release(&ru);
	return ret;
}

/* ---- sdperf diff, sdperf check --------------------------------------- */

#define REPORT_JSON_MAX (512u << 20)

/* A .json file that is no trace_view.json (any name may hold a trace). */
static int is_report_json(const char *path)
{
	size_t n = strlen(path);
	return fileio_kind(path) == 0 && n > 5 &&
	       !strcmp(path + n - 5, ".json") &&
	       discover_sniff(path) != DK_TRACE && !sumread_sniff(path);
}

/* What reading a report.json of n bytes costs: its text, and the
 * snapshot read from it (whose lists take fewer bytes than the text that
 * spells them; the document itself is never built into a tree). */
static uint64_t side_cost(uint64_t n)
{
	return n + n + n / 2;
}

/* Reads a report.json into json, its cost charged first (*charged). */
static int read_report_json(const char *path, struct strbuf *json,
                            uint64_t *charged, struct err *e)
{
	struct stat st;
	uint64_t cost;

	if (stat(path, &st) == 0 && st.st_size > 0 &&
	    (uint64_t)st.st_size <= REPORT_JSON_MAX) {
		cost = side_cost((uint64_t)st.st_size);
		if (membudget_charge(cost))
			return membudget_fail(e, cost, "%s: %.1f MiB of report",
			                      path,
			                      (double)st.st_size / 1048576.0);
		*charged += cost;
		strbuf_grow(json, (size_t)st.st_size + 1);
	}
	return fileio_read_small(path, REPORT_JSON_MAX, json, e);
}

/* One side of a comparison (or the PATH of a check): a report.json read
 * as it is, or a profile analysed and rendered to report.json text, so
 * both give the same snapshot. json receives the text; *charged what was
 * charged to the memory budget for it (the caller gives it back). */
static int load_side(const struct options *o, const struct rules *ru,
                     const char *path, struct snapshot *s, struct strbuf *json,
                     uint64_t *charged, struct err *e)
{
	struct options one = *o;
	struct result r;
	int from_json = is_report_json(path), ret;

	memset(s, 0, sizeof(*s));
	if (from_json) {
		if (read_report_json(path, json, charged, e))
			return -1;
	} else {
		one.paths = &path;
		one.npaths = 1;
		one.path = path;
		if (pipeline_analyse(&one, ru, &r, e)) {
			result_release(&r);
			return -1;
		}
		ret = render_json(&r, SDPERF_VERSION, json, e);
		result_release(&r);
		if (ret)
			return -1;
		/* rendered from capped lists: charged, not checked */
		if (membudget_charge(side_cost(json->len)) == 0)
			*charged += side_cost(json->len);
	}
	ret = snapshot_from_json(path, json->buf, json->len, s, e);
	if (!ret) {
		free(s->source);
		s->source = xstrdup(path);
		s->from_json = from_json;
	}
	return ret;
}

int pipeline_diff(const struct options *o, struct err *e)
{
	struct rules ru = {0};
	struct snapshot base, new_;
	struct strbuf jb = STRBUF_INIT, jn = STRBUF_INIT;
	struct comparison c;
	struct output w = {"diff", NULL, &c};
	uint64_t charged = 0;
	int ret = -1;

	pipeline_set_budget(o);
	memset(&base, 0, sizeof(base));
	memset(&new_, 0, sizeof(new_));
	memset(&c, 0, sizeof(c));
	if (pipeline_load_rules(o, &ru, e) ||
	    load_side(o, &ru, o->paths[0], &base, &jb, &charged, e))
		goto out;
	strbuf_release(&jb); /* the snapshot has what the diff needs */
	if (load_side(o, &ru, o->paths[1], &new_, &jn, &charged, e))
		goto out;
	strbuf_release(&jn);
	if (compare_snapshots(&base, &new_, o->per_step, &c, e))
		goto out;
	ret = write_outputs(o, &w, e);
out:
	membudget_release(charged);
	comparison_release(&c);
	snapshot_release(&base);
	snapshot_release(&new_);
	strbuf_release(&jb);
	strbuf_release(&jn);
	rules_release(&ru);
	return ret;
}

static void print_check(const struct options *o, const struct check_result *cr)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < cr->nfailures; i++) {
		strbuf_adds(&sb, "FAIL ");
		strbuf_add_sanitized(&sb, cr->failures[i],
		                     strlen(cr->failures[i]));
		strbuf_addch(&sb, '\n');
	}
	if (!o->quiet)
		strbuf_addf(&sb, "%zu check%s, %zu failed\n", cr->nchecks,
		            cr->nchecks == 1 ? "" : "s", cr->nfailures);
	print_summary(&sb);
	strbuf_release(&sb);
}

int pipeline_check(const struct options *o, struct err *e)
{
	struct rules ru = {0};
	struct snapshot s, base;
	struct strbuf json = STRBUF_INIT, bjson = STRBUF_INIT;
	struct check_opts co;
	struct check_result cr;
	uint64_t charged = 0;
	int ret = -1;

	pipeline_set_budget(o);
	memset(&s, 0, sizeof(s));
	memset(&base, 0, sizeof(base));
	memset(&cr, 0, sizeof(cr));
	memset(&co, 0, sizeof(co));
	co.max = o->max;
	co.nmax = o->nmax;
	co.verdicts = !o->no_verdicts;
	co.max_regression_pct = 5;
	co.require = o->require;
	co.nrequire = o->nrequire;
	/* a mistyped requirement fails before a profile is analysed */
	if (check_require_validate(o->require, o->nrequire, e))
		goto out;
	if (o->max_regression &&
	    check_parse_pct(o->max_regression, &co.max_regression_pct, e))
		goto out;
	/* a wrong --baseline fails before the profile is analysed */
	if (o->baseline && !is_report_json(o->baseline)) {
		err_set(e, ERR_USAGE,
		        "--baseline: '%s' is not a report.json file",
		        o->baseline);
		goto out;
	}
	if (pipeline_load_rules(o, &ru, e) ||
	    load_side(o, &ru, o->path, &s, &json, &charged, e))
		goto out;
	if (o->baseline) {
		if (load_side(o, &ru, o->baseline, &base, &bjson, &charged, e))
			goto out;
		strbuf_release(&bjson);
		co.baseline = &base;
	}
	if (check_run(o->path, json.buf, json.len, &s, &co, &cr, e))
		goto out;
	print_check(o, &cr);
	ret = 0;
	if (cr.nfailures)
		ret = err_set(e, ERR_CHECK, "%zu of %zu checks failed",
		              cr.nfailures, cr.nchecks);
out:
	membudget_release(charged);
	check_result_release(&cr);
	snapshot_release(&s);
	snapshot_release(&base);
	strbuf_release(&json);
	strbuf_release(&bjson);
	rules_release(&ru);
	return ret;
}
