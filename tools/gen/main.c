/* main.c: sdperf-gen: writes synthetic diffusion-pipeline profiles in the
 * real torch_npu formats, one rank folder per card, plus ground truth. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commjson.h"
#include "dbout.h"
#include "info.h"
#include "kcsv.h"
#include "launch.h"
#include "model.h"
#include "opts.h"
#include "outbuf.h"
#include "overlap.h"
#include "selfcheck.h"
#include "steptrace.h"
#include "timeline.h"
#include "trace.h"
#include "truth.h"
#include "xalloc.h"
#include "banned.h"

#define PATH_LEN 4096
#define BIG_BUF  (4u << 20)
#define MS       1000000LL

struct err {
	char msg[PATH_LEN + 256];
};

/* Everything open while one rank is written. */
struct rank_out {
	struct outbuf kern, steps, trace, comm, truth_csv, mem;
	struct commjson cj;
	struct launch ln;      /* host side, with --markers */
	struct dbout *db;      /* the db export, with --export db|both */
	char dbpath[PATH_LEN]; /* its path */
	char dir[PATH_LEN];    /* the rank folder */
	char kpath[PATH_LEN];  /* its kernel_details.csv */
	char tpath[PATH_LEN];  /* its trace_view.json */
};

static int make_dir(const char *path, struct err *e)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	snprintf(e->msg, sizeof(e->msg), "%s: cannot create folder: %s", path,
	         strerror(errno));
	return -1;
}

/* mkdir -p: the output folder's parents may not exist yet. */
static int make_dirs(const char *path, struct err *e)
{
	char buf[PATH_LEN];
	size_t i, n = strlen(path);

	if (n >= PATH_LEN) {
		snprintf(e->msg, sizeof(e->msg), "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i < n; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (make_dir(buf, e))
			return -1;
		buf[i] = '/';
	}
	return make_dir(buf, e);
}

static int join(char *out, const char *a, const char *b, struct err *e)
{
	int n = snprintf(out, PATH_LEN, "%s/%s", a, b);

	if (n < 0 || n >= PATH_LEN) {
		snprintf(e->msg, sizeof(e->msg), "%s/%s: path too long", a, b);
		return -1;
	}
	return 0;
}

static int open_one(struct outbuf *ob, const char *dir, const char *file,
                    char *path_out, struct err *e)
{
	char path[PATH_LEN];

	if (join(path, dir, file, e))
		return -1;
	if (ob_open(ob, path, BIG_BUF)) {
		snprintf(e->msg, sizeof(e->msg), "%s: cannot write: %s", path,
		         strerror(errno));
		return -1;
	}
	if (path_out)
		memcpy(path_out, path, strlen(path) + 1);
	return 0;
}

static void rank_ctx(struct rankctx *rc, const struct opts *o,
                     const struct model *m, int rank)
{
	memset(rc, 0, sizeof(*rc));
	rc->o = o;
	rc->m = m;
	rc->rank = rank;
	rc->device = rank;
	rc->eol = o->lf ? "\n" : "\r\n";
	rc->group_hash =
	    rng_mix(o->seed ^ 0xC0FFEE5EEDULL) % 10000000000000000000ULL;
	rc->host_pid = 1000 + rank;
	/* The profiler starts ~2 s before the first recorded step (warm-up). */
	rc->start_ns = tl_origin_ns(o, rank) - 2047 * MS;
}

static int open_rank(struct rank_out *ro, const struct rankctx *rc,
                     struct err *e)
{
	const struct opts *o = rc->o;
	char name[256], out[PATH_LEN], truth_dir[PATH_LEN], file[64];

	unsigned files = o->exports & EXPORT_TEXT ? o->files : 0;

	if (info_folder_name(name, sizeof(name), rc) ||
	    join(ro->dir, o->outdir, name, e) || make_dir(ro->dir, e) ||
	    join(out, ro->dir, "ASCEND_PROFILER_OUTPUT", e) || make_dir(out, e))
		return -1;
	if (o->exports & EXPORT_DB) {
		if (o->ranks > 1)
			snprintf(file, sizeof(file),
			         "ascend_pytorch_profiler_%d.db", rc->rank);
		else
			snprintf(file, sizeof(file),
			         "ascend_pytorch_profiler.db");
		if (join(ro->dbpath, out, file, e) ||
		    !(ro->db =
		          dbout_open(ro->dbpath, rc, e->msg, sizeof(e->msg))))
			return -1;
	}
	if ((files & FILE_KERNELS) &&
	    open_one(&ro->kern, out, "kernel_details.csv", ro->kpath, e))
		return -1;
	if ((files & FILE_STEPS) &&
	    open_one(&ro->steps, out, "step_trace_time.csv", NULL, e))
		return -1;
	if ((files & FILE_TRACE) &&
	    open_one(&ro->trace, out, "trace_view.json", ro->tpath, e))
		return -1;
	if (files && o->memory &&
	    open_one(&ro->mem, out, "memory_record.csv", NULL, e))
		return -1;
	if ((files & FILE_COMM) && o->ranks > 1 &&
	    open_one(&ro->comm, out, "communication.json", NULL, e))
		return -1;
	if (!o->truth)
		return 0;
	snprintf(file, sizeof(file), "rank%d.kernels.csv", rc->rank);
	return join(truth_dir, o->outdir, "ground_truth", e) ||
	       open_one(&ro->truth_csv, truth_dir, file, NULL, e);
}

static void write_headers(struct rank_out *ro, const struct rankctx *rc)
{
	if (ro->kern.fp)
		kcsv_header(&ro->kern, rc);
	if (ro->steps.fp)
		steptrace_header(&ro->steps, rc);
	if (ro->trace.fp)
		trace_begin(&ro->trace, rc);
	if (ro->comm.fp)
		commjson_begin(&ro->cj, &ro->comm, rc);
	if (ro->truth_csv.fp)
		truth_csv_header(&ro->truth_csv);
	if (ro->mem.fp)
		memgen_csv_header(&ro->mem, rc);
}

static void write_step(struct rank_out *ro, const struct rankctx *rc,
                       const struct step *s, struct overlap *ov)
{
	const struct launch *l = rc->o->markers ? &ro->ln : NULL;

	if (l)
		launch_step(&ro->ln, rc->m, s);
	if (ro->kern.fp)
		kcsv_step(&ro->kern, rc, s);
	if (ro->steps.fp || ro->trace.fp || ro->db)
		overlap_compute(ov, rc->m, s);
	if (ro->db)
		dbout_step(ro->db, rc, s, ov, l);
	if (ro->steps.fp)
		steptrace_row(&ro->steps, rc, s, ov);
	if (ro->trace.fp)
		trace_step(&ro->trace, rc, s, ov, l);
	if (ro->comm.fp)
		commjson_step(&ro->cj, &ro->comm, rc, s);
	if (ro->truth_csv.fp)
		truth_csv_step(&ro->truth_csv, rc->m, s);
	if (ro->mem.fp)
		memgen_csv_step(&ro->mem, rc, s);
}

static int close_rank(struct rank_out *ro, const struct rankctx *rc,
                      struct err *e)
{
	int bad = 0;

	launch_free(&ro->ln);
	if (ro->db && dbout_close(ro->db, rc, e->msg, sizeof(e->msg)))
		bad = 1;
	ro->db = NULL;
	if (ro->trace.fp)
		trace_end(&ro->trace, rc);
	if (ro->comm.fp)
		commjson_end(&ro->cj, &ro->comm, rc);
	bad |= ob_close(&ro->kern);
	bad |= ob_close(&ro->steps);
	bad |= ob_close(&ro->trace);
	bad |= ob_close(&ro->comm);
	bad |= ob_close(&ro->truth_csv);
	bad |= ob_close(&ro->mem);
	if (bad) {
		if (!e->msg[0])
			snprintf(e->msg, sizeof(e->msg), "%s: write failed: %s",
			         ro->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Rank 0 decides the step count under --target-bytes or
 * --trace-target-bytes; the others follow so every card has the same
 * steps. */
static int more_steps(const struct opts *o, const struct rank_out *ro, int done,
                      int *nsteps, int rank)
{
	if ((!o->target_bytes && !o->trace_target) || rank > 0)
		return done < *nsteps;
	if ((o->target_bytes && ro->kern.total >= o->target_bytes) ||
	    (o->trace_target && ro->trace.total >= o->trace_target)) {
		*nsteps = done;
		return 0;
	}
	return 1;
}

static int finish_rank(struct rank_out *ro, const struct rankctx *rc,
                       const struct truth *t, int64_t end_ns, struct err *e)
{
	char path[PATH_LEN], file[64];

	if (close_rank(ro, rc, e))
		return -1;
	if (!rc->o->profiler_info)
		goto truth; /* the "rank folder without profiler_info" case */
	if (rc->o->ranks > 1)
		snprintf(file, sizeof(file), "profiler_info_%d.json", rc->rank);
	else
		snprintf(file, sizeof(file), "profiler_info.json");
	if (join(path, ro->dir, file, e))
		return -1;
	if (info_write(path, rc, t->steps, end_ns)) {
		snprintf(e->msg, sizeof(e->msg), "%s: cannot write: %s", path,
		         strerror(errno));
		return -1;
	}
truth:
	if (!rc->o->truth)
		return 0;
	snprintf(file, sizeof(file), "ground_truth/rank%d.json", rc->rank);
	if (join(path, rc->o->outdir, file, e))
		return -1;
	if (truth_write_json(path, t, rc->rank)) {
		snprintf(e->msg, sizeof(e->msg), "%s: cannot write: %s", path,
		         strerror(errno));
		return -1;
	}
	return 0;
}

static int run_rank(const struct opts *o, const struct model *m, int rank,
                    int *nsteps, struct truth *t, struct rank_out *ro,
                    struct err *e)
{
	struct rankctx rc;
	struct timeline tl;
	struct step s;
	struct overlap ov;
	int done = 0, rc_open;
	int64_t end_ns = 0;

	memset(&s, 0, sizeof(s));
	memset(&ov, 0, sizeof(ov));
	memset(t, 0, sizeof(*t));
	t->straggler = rank == o->straggler;
	t->unet = o->denoiser == DEN_UNET;
	t->iters = o->iters;
	t->cache = o->cache;
	t->cache_period = o->cache_period;
	t->memory = o->memory;
	memgen_peaks_init(&t->mem);
	t->workload = o->workload;
	rank_ctx(&rc, o, m, rank);
	tl_init(&tl, m, o, rank);
	launch_init(&ro->ln, o, rank);
	rc_open = open_rank(ro, &rc, e);
	if (rc_open == 0)
		write_headers(ro, &rc);
	while (rc_open == 0 && more_steps(o, ro, done, nsteps, rank)) {
		tl_next_step(&tl, &s, o->first_step + done);
		write_step(ro, &rc, &s, &ov);
		truth_add_step(t, m, &s);
		if (o->memory)
			memgen_peaks_step(&t->mem, m, &s);
		/* Marker truth grows with the run: only when asked for. */
		if (o->markers && o->truth)
			truth_add_markers(t, &ro->ln);
		end_ns = s.host_start + s.host_dur;
		done++;
	}
	step_free(&s);
	overlap_free(&ov);
	tl_free(&tl);
	if (rc_open) {
		close_rank(ro, &rc, e);
		return -1;
	}
	return finish_rank(ro, &rc, t, end_ns + 53 * MS, e);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void report_rank(const struct opts *o, int rank, const struct truth *t,
                        const struct rank_out *ro, uint64_t kbytes)
{
	const struct stage_acc *d = &t->st[ST_DIT];
	int c;

	fprintf(stderr,
	        "rank %d: %s\n  %llu kernels, %d steps, kernel_details.csv "
	        "%llu bytes\n"
	        "  dit shares %%:",
	        rank, ro->dir, (unsigned long long)t->kernels, t->steps,
	        (unsigned long long)kbytes);
	for (c = 0; c < CAT_COUNT; c++)
		fprintf(stderr, " %s=%.2f", CAT_NAMES[c],
		        d->time
		            ? 100.0 * (double)d->cat_time[c] / (double)d->time
		            : 0.0);
	fprintf(stderr,
	        "\n  dit comm %.3f ms, exposed %.3f ms (overlap target %.2f)\n",
	        (double)d->cat_time[CAT_COMM] / 1e6, (double)d->exposed / 1e6,
	        o->overlap);
}

static void summary(const struct opts *o, const struct truth *truths,
                    const struct rank_out *ro, double dt)
{
	uint64_t kb = 0, tb = 0, db = 0;
	int r;

	for (r = 0; r < o->ranks; r++) {
		uint64_t k = selfcheck_file_size(ro[r].kpath);
		report_rank(o, r, &truths[r], &ro[r], k);
		kb += k;
		tb += selfcheck_file_size(ro[r].tpath);
		db += ro[r].dbpath[0] ? selfcheck_file_size(ro[r].dbpath) : 0;
	}
	if (o->exports & EXPORT_DB)
		fprintf(
		    stderr,
		    "wrote %llu bytes of ascend_pytorch_profiler db in %.2f "
		    "s\n",
		    (unsigned long long)db, dt);
	if (!(o->exports & EXPORT_TEXT))
		return;
	if (o->files & FILE_KERNELS)
		fprintf(stderr,
		        "wrote %llu bytes of kernel_details.csv in %.2f s "
		        "(%.1f MB/s)\n",
		        (unsigned long long)kb, dt,
		        (double)kb / 1e6 / (dt + 1e-9));
	if (o->files & FILE_TRACE)
		fprintf(stderr,
		        "wrote %llu bytes of trace_view.json in %.2f s "
		        "(%.1f MB/s)\n",
		        (unsigned long long)tb, dt,
		        (double)tb / 1e6 / (dt + 1e-9));
}

/* Per rank, then across ranks (collectives, straggler). */
static int self_check(const struct opts *o, const struct model *m,
                      const struct truth *truths, const struct rank_out *ro)
{
	const char **dirs = xcalloc((size_t)o->ranks, sizeof(*dirs));
	int r, rc = 0;

	for (r = 0; r < o->ranks; r++) {
		dirs[r] = ro[r].dir;
		if ((o->exports & EXPORT_TEXT) &&
		    selfcheck_rank(o, m, r, ro[r].dir, &truths[r]))
			rc = -1;
		if ((o->exports & EXPORT_DB) &&
		    dbout_check(ro[r].dbpath, &truths[r]))
			rc = -1;
	}
	if ((o->exports & EXPORT_TEXT) && selfcheck_group(o, dirs))
		rc = -1;
	free(dirs);
	return rc;
}

/* Generation is timed on its own (the benchmark wants MB/s); the
 * self-check runs afterwards over the finished files. */
static int run(const struct opts *o, const struct model *m, struct err *e)
{
	char dir[PATH_LEN];
	struct truth *truths = xcalloc((size_t)o->ranks, sizeof(*truths));
	struct rank_out *ro = xcalloc((size_t)o->ranks, sizeof(*ro));
	int r, nsteps = o->steps, rc = -1;
	double t0 = now_s();

	if (make_dirs(o->outdir, e) ||
	    (o->truth &&
	     (join(dir, o->outdir, "ground_truth", e) || make_dir(dir, e))))
		goto out;
	for (r = 0; r < o->ranks; r++)
		if (run_rank(o, m, r, &nsteps, &truths[r], &ro[r], e))
			goto out;
	summary(o, truths, ro, now_s() - t0);
	rc = o->self_check ? self_check(o, m, truths, ro) : 0;
	if (rc)
		snprintf(e->msg, sizeof(e->msg), "self-check failed");
	else if (o->self_check)
		fprintf(stderr, "self-check passed\n");
out:
	for (r = 0; r < o->ranks; r++)
		truth_free(&truths[r]);
	free(truths);
	free(ro);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct model m;
	struct err e;
	int rc;

	e.msg[0] = '\0';
	switch (opts_parse(&o, argc, argv, e.msg, sizeof(e.msg))) {
	case OPTS_HELP:
		opts_usage(stdout);
		return 0;
	case OPTS_ERROR:
		fprintf(stderr, "sdperf-gen: %s\n", e.msg);
		return 2;
	case OPTS_OK:
		break;
	}
	model_build(&m, &o);
	rc = run(&o, &m, &e);
	model_free(&m);
	if (rc) {
		fprintf(stderr, "sdperf-gen: %s\n", e.msg);
		return 1;
	}
	return 0;
}
