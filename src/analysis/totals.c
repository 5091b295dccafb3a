/* The profiler's own totals as a check (analysis/totals.h). */
#include "analysis/totals.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const totals_figure_names[TOT_COUNT] = {
    "computing",        "comm_not_overlapped", "free",
    "overlap_analysis", "op_statistic_time",   "op_statistic_count"};

/* A union of intervals built from starts in ascending order. */
struct run {
	int open;
	int64_t a, b;
};

static int64_t common(const struct run *x, const struct run *y)
{
	int64_t a = x->a > y->a ? x->a : y->a, b = x->b < y->b ? x->b : y->b;

	return b > a ? checked_sub_sat(b, a) : 0;
}

struct sweep {
	struct run comm, work;
	int64_t comm_len, work_len, inter;
};

/* Adds [a, b) to one union; a merged interval that closes is counted,
 * with its overlap with the other union's open one (each pair of merged
 * intervals that overlap is open at once, analysis/overlap.c). */
static void add(struct sweep *sw, int comm, int64_t a, int64_t b)
{
	struct run *u = comm ? &sw->comm : &sw->work;
	struct run *o = comm ? &sw->work : &sw->comm;

	if (u->open && a <= u->b) {
		if (b > u->b)
			u->b = b;
		return;
	}
	if (u->open) {
		checked_accumulate(comm ? &sw->comm_len : &sw->work_len,
		                   checked_sub_sat(u->b, u->a));
		if (o->open)
			checked_accumulate(&sw->inter, common(u, o));
	}
	u->open = 1;
	u->a = a;
	u->b = b;
}

static void close_all(struct sweep *sw)
{
	if (sw->comm.open) {
		checked_accumulate(&sw->comm_len,
		                   checked_sub_sat(sw->comm.b, sw->comm.a));
		if (sw->work.open)
			checked_accumulate(&sw->inter,
			                   common(&sw->comm, &sw->work));
	}
	if (sw->work.open)
		checked_accumulate(&sw->work_len,
		                   checked_sub_sat(sw->work.b, sw->work.a));
}

void totals_measure(const struct kernel *k, size_t n,
                    const unsigned char *key_cat, struct kernel_totals *out)
{
	struct sweep sw;
	int64_t run_a = 0, run_b = 0;
	int32_t step = 0;
	size_t i;

	memset(&sw, 0, sizeof(sw));
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		int64_t a = k[i].start_ns;
		int64_t b =
		    checked_add_sat(a, k[i].dur_ns < 0 ? 0 : k[i].dur_ns);
		add(&sw, key_cat[k[i].key] == CAT_COMM, a, b);
		checked_accumulate(&out->kernel_ns, k[i].dur_ns);
		/* a step's device span: its run of kernels, first start to
		 * last end (kernels are sorted by start) */
		if (i == 0 || k[i].step != step) {
			if (i)
				checked_accumulate(
				    &out->span_ns,
				    checked_sub_sat(run_b, run_a));
			step = k[i].step;
			run_a = a;
			run_b = b;
		} else if (b > run_b) {
			run_b = b;
		}
	}
	if (n)
		checked_accumulate(&out->span_ns,
		                   checked_sub_sat(run_b, run_a));
	close_all(&sw);
	out->set = 1;
	out->kernels = n;
	out->compute_ns = sw.work_len;
	out->exposed_ns = checked_sub_sat(sw.comm_len, sw.inter);
}

/* ---- checks -------------------------------------------------------------- */

static char *dur(int64_t ns)
{
	struct strbuf sb = STRBUF_INIT;

	numfmt_duration(&sb, ns);
	return strbuf_detach(&sb, NULL);
}

static void set(struct totals_check *c, const char *source, int64_t ours,
                int64_t theirs, int64_t base, double tol)
{
	double d = (double)ours - (double)theirs;

	c->checked = 1;
	c->source = source;
	c->ours = ours;
	c->theirs = theirs;
	c->base = base;
	c->tolerance = tol;
	c->diff_points =
	    base > 0 ? 100.0 * fabs(d) / (double)base : (d != 0 ? 100.0 : 0);
	c->passed = c->diff_points <= tol;
}

static const char *file_of(const char *source)
{
	return !strcmp(source, "db_step_time")       ? "STEP_TIME"
	       : !strcmp(source, "overlap_analysis") ? "Overlap Analysis"
	                                             : "step_trace_time.csv";
}

/* The warning for a step figure beyond its tolerance. reason picks the
 * catalogue message: "computing_missing" / "computing_extra",
 * "not_overlapped", "free". */
static void warn_step(struct result *r, struct rank_result *rr, int f,
                      const char *path)
{
	const struct totals_check *c = &rr->totals[f];
	const char *file = file_of(c->source);
	char *o = dur(c->ours), *t = dur(c->theirs);
	char *gap = dur(c->ours > c->theirs ? c->ours - c->theirs
	                                    : c->theirs - c->ours);
	double cover =
	    c->theirs > 0 ? 100.0 * (double)c->ours / (double)c->theirs : 0;
	const char *reason;
	char *msg;
	struct warning *w;

	if (f == TOT_COMPUTING && c->ours < c->theirs) {
		reason = "computing_missing";
		msg = xstrfmt(
		    "rank %d: the kernels cover %.0f%% of the profiler's "
		    "Computing time (%s of %s in %s): %s of kernel time "
		    "missing; the kernel file looks truncated or filtered. "
		    "The stage, category and communication figures use the "
		    "kernels, so they are short by as much; the step times "
		    "use %s",
		    (int)rr->id, cover, o, t, file, gap, file);
	} else if (f == TOT_COMPUTING) {
		reason = "computing_extra";
		msg = xstrfmt(
		    "rank %d: the kernels' compute time is %s, %s more than "
		    "the profiler's Computing time (%s in %s): kernels outside "
		    "the profiler's steps? The stage and category figures use "
		    "the kernels; the step times use %s",
		    (int)rr->id, o, gap, t, file, file);
	} else if (f == TOT_NOT_OVERLAP) {
		reason = "not_overlapped";
		msg = xstrfmt(
		    "rank %d: exposed communication is %s from the kernels "
		    "but %s in %s's Communication(Not Overlapped) (%s %s). The "
		    "report's exposed-communication figures use the kernels; "
		    "the profiler's figure is in the steps table",
		    (int)rr->id, o, t, file, gap,
		    c->ours < c->theirs ? "missing" : "extra");
	} else {
		reason = "free";
		msg = xstrfmt(
		    "rank %d: the device is idle for %s between the kernels "
		    "of the steps but %s by %s's Free (%s %s). The report's "
		    "device-idle share uses %s",
		    (int)rr->id, o, t, file, gap,
		    c->ours < c->theirs ? "less" : "more", file);
	}
	w = result_warn(r, "totals_mismatch", path, 0, msg);
	w->reason = xstrdup(reason);
	w->args[0] = xstrfmt("%d", (int)rr->id);
	w->args[1] = o;
	w->args[2] = t;
	w->args[3] = gap;
	w->args[4] = f == TOT_COMPUTING && c->ours < c->theirs
	                 ? xstrfmt("%.0f", cover)
	                 : xstrdup(file);
	free(msg);
}

void totals_check_steps(struct result *r, struct rank_result *rr,
                        const struct rules *ru, const char *source,
                        const char *path)
{
	int64_t comp = 0, nov = 0, freet = 0, base, idle;
	size_t i;
	int f;

	if (!rr->ktot.set || !rr->nsteps || rr->steps_total > rr->nsteps)
		return;
	for (i = 0; i < rr->nsteps; i++) {
		checked_accumulate(&comp, rr->steps[i].computing_ns);
		checked_accumulate(&nov, rr->steps[i].not_overlapped_ns);
		checked_accumulate(&freet, rr->steps[i].free_ns);
	}
	base = checked_add_sat(checked_add_sat(comp, nov), freet);
	if (base <= 0)
		return;
	idle = checked_sub_sat(
	    checked_sub_sat(rr->ktot.span_ns, rr->ktot.compute_ns),
	    rr->ktot.exposed_ns);
	set(&rr->totals[TOT_COMPUTING], source, rr->ktot.compute_ns, comp, base,
	    ru->totals_tolerance[TOT_COMPUTING]);
	set(&rr->totals[TOT_NOT_OVERLAP], source, rr->ktot.exposed_ns, nov,
	    base, ru->totals_tolerance[TOT_NOT_OVERLAP]);
	set(&rr->totals[TOT_FREE], source, idle < 0 ? 0 : idle, freet, base,
	    ru->totals_tolerance[TOT_FREE]);
	for (f = TOT_COMPUTING; f <= TOT_FREE; f++)
		if (!rr->totals[f].passed) {
			rr->totals_failed++;
			warn_step(r, rr, f, path);
		}
}

void totals_check_overlap(struct result *r, struct rank_result *rr,
                          const struct rules *ru, int64_t ours, int64_t theirs,
                          int64_t base)
{
	struct totals_check *c = &rr->totals[TOT_OVERLAP];
	struct totals_check n;

	(void)r;
	memset(&n, 0, sizeof(n));
	set(&n, "overlap_analysis", ours, theirs, base,
	    ru->totals_tolerance[TOT_OVERLAP]);
	if (c->checked && n.diff_points <= c->diff_points)
		return; /* the stage that differs most stands */
	if (c->checked && !c->passed)
		rr->totals_failed--;
	*c = n;
	if (!c->passed)
		rr->totals_failed++;
}

/* The type whose time differs most between the kernels and the file
 * (a type in one only counts whole), or NULL when all agree. */
static char *worst_type(const struct opstat *os,
                        const struct kernel_type_sum *t, size_t n)
{
	const char *best = NULL;
	int64_t most = 0;
	size_t i, j;

	if ((uint64_t)n * os->nrows > 4000000u) /* bounded work */
		return NULL;
	for (i = 0; i < os->nrows; i++) {
		int64_t ours = 0, d;
		for (j = 0; j < n; j++)
			if (!strcmp(t[j].type, os->rows[i].type))
				checked_accumulate(&ours, t[j].time_ns);
		d = ours - os->rows[i].total_ns;
		d = d < 0 ? -d : d;
		if (d > most) {
			most = d;
			best = os->rows[i].type;
		}
	}
	for (j = 0; j < n; j++) {
		for (i = 0; i < os->nrows; i++)
			if (!strcmp(t[j].type, os->rows[i].type))
				break;
		if (i == os->nrows && t[j].time_ns > most) {
			most = t[j].time_ns;
			best = t[j].type;
		}
	}
	return best ? xstrdup(best) : NULL;
}

void totals_check_opstat(struct result *r, struct rank_result *rr,
                         const struct rules *ru, const struct opstat *os,
                         const struct kernel_type_sum *types, size_t n)
{
	struct totals_check *tc = &rr->totals[TOT_OPSTAT_TIME];
	struct totals_check *cc = &rr->totals[TOT_OPSTAT_COUNT];
	uint64_t count = 0;
	int64_t time = 0;
	struct warning *w;
	char *msg, *o, *t;
	size_t i;

	for (i = 0; i < n; i++) {
		count += types[i].count;
		checked_accumulate(&time, types[i].time_ns);
	}
	set(tc, "op_statistic", time, os->total_ns, os->total_ns,
	    ru->totals_tolerance[TOT_OPSTAT_TIME]);
	set(cc, "op_statistic",
	    (int64_t)(count > INT64_MAX ? INT64_MAX : count),
	    (int64_t)(os->count > INT64_MAX ? INT64_MAX : os->count),
	    (int64_t)(os->count > INT64_MAX ? INT64_MAX : os->count),
	    ru->totals_tolerance[TOT_OPSTAT_COUNT]);
	if (tc->passed && cc->passed)
		return;
	rr->totals_failed += !tc->passed + !cc->passed;
	tc->worst_type = worst_type(os, types, n);
	o = dur(time);
	t = dur(os->total_ns);
	msg = xstrfmt("rank %d: the kernels sum to %s in %" PRIu64
	              " kernels; op_statistic.csv says %s in %" PRIu64
	              " (the type that differs most: %s). The report's figures "
	              "use the kernels",
	              (int)rr->id, o, count, t, os->count,
	              tc->worst_type ? tc->worst_type : "none");
	w = result_warn(r, "totals_mismatch", os->path, 0, msg);
	w->reason = xstrdup("op_statistic");
	w->args[0] = xstrfmt("%d", (int)rr->id);
	w->args[1] = o;
	w->args[2] = t;
	w->args[3] = xstrfmt("%" PRIu64 " / %" PRIu64, count, os->count);
	w->args[4] = xstrdup(tc->worst_type ? tc->worst_type : "-");
	free(msg);
}

int totals_checked(const struct result *r)
{
	size_t i;
	int f;

	for (i = 0; i < r->nranks; i++)
		for (f = 0; r->ranks[i].analysed && f < TOT_COUNT; f++)
			if (r->ranks[i].totals[f].checked)
				return 1;
	return 0;
}
