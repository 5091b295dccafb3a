/* tracecheck.c: re-reads the JSON outputs like a consumer: processes by
 * name, values by member name, whatever the member order or form. */
#include "tracecheck.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jscan.h"
#include "launch.h"
#include "xalloc.h"
#include "banned.h"

#define PATH_LEN 4200
#define MAX_PROC 16

struct problems {
	int n;
	int rank;
};

static void problem(struct problems *p, const char *file, const char *what,
                    long long detail)
{
	if (p->n++ < 20)
		fprintf(stderr, "  self-check rank %d: %s: %s (%lld)\n",
		        p->rank, file, what, detail);
}

/* "12.345" with up to `digits` fraction digits -> integer scaled by
 * 10^digits; -1 when not a plain non-negative decimal. */
static int64_t dec_scaled(const char *s, int digits)
{
	int64_t v = 0;
	int d = -1;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s; s++) {
		if (*s == '.' && d < 0) {
			d = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || (d >= 0 && ++d > digits))
			return -1;
		v = v * 10 + (*s - '0');
	}
	for (d = d < 0 ? 0 : d; d < digits; d++)
		v *= 10;
	return v;
}

/* ---- trace_view.json --------------------------------------------------- */

struct tev {
	char ph[4], name[64], cat[32], arg_name[64];
	int64_t pid, tid, ts, dur;
	uint64_t id;
};

struct pt {
	int64_t pid, ts; /* a kernel X: where an "f" must land */
};

struct fl {
	uint64_t id;
	int64_t pid, tid, ts;
};

struct tscan {
	const struct opts *o;
	const struct truth *t;
	struct problems *p;
	int form;     /* 0 array, 1 object; -1 unknown yet */
	int before;   /* object members before traceEvents */
	int ev_depth; /* depth of event objects, 0 until known */
	int in_event;
	struct tev ev;
	int64_t proc_pid[MAX_PROC];
	char proc_name[MAX_PROC][64];
	int nproc;
	uint64_t kernels;
	int64_t ktime, comm_time;
	struct pt *kx;
	size_t nkx, capkx;
	struct fl *fs, *ff;
	size_t nfs, capfs, nff, capff;
	struct marker *mk; /* markers as found, dev range unused */
	size_t nmk, capmk;
	int64_t step_a, step_b; /* the current ProfilerStep */
};

static const char *proc_of(const struct tscan *c, int64_t pid)
{
	int i;

	for (i = 0; i < c->nproc; i++)
		if (c->proc_pid[i] == pid)
			return c->proc_name[i];
	return "";
}

static void copy(char *dst, size_t n, const struct js_ev *e)
{
	snprintf(dst, n, "%s", e->text);
}

/* A member of the current event (or of its args). */
static void ev_field(struct tscan *c, const struct js_ev *e, int in_args)
{
	struct tev *v = &c->ev;

	if (in_args) {
		if (!strcmp(e->key, "name"))
			copy(v->arg_name, sizeof(v->arg_name), e);
		return;
	}
	if (!strcmp(e->key, "ph"))
		copy(v->ph, sizeof(v->ph), e);
	else if (!strcmp(e->key, "name"))
		copy(v->name, sizeof(v->name), e);
	else if (!strcmp(e->key, "cat"))
		copy(v->cat, sizeof(v->cat), e);
	else if (!strcmp(e->key, "pid"))
		v->pid = strtoll(e->text, NULL, 10);
	else if (!strcmp(e->key, "tid"))
		v->tid = strtoll(e->text, NULL, 10);
	else if (!strcmp(e->key, "id"))
		v->id = strtoull(e->text, NULL, 10);
	else if (!strcmp(e->key, "ts"))
		v->ts = e->kind == JS_STRING ? dec_scaled(e->text, 3) : -2;
	else if (!strcmp(e->key, "dur"))
		v->dur = dec_scaled(e->text, 3);
}

static int is_marker_name(const char *s)
{
	return !strcmp(s, "text_encoder") || !strcmp(s, "transformer") ||
	       !strcmp(s, "vae");
}

static void add_flow(struct fl **arr, size_t *n, size_t *cap,
                     const struct tev *v)
{
	xgrow(arr, cap, *n + 1, sizeof(**arr));
	(*arr)[*n].id = v->id;
	(*arr)[*n].pid = v->pid;
	(*arr)[*n].tid = v->tid;
	(*arr)[*n].ts = v->ts;
	(*n)++;
}

static void cpu_op_event(struct tscan *c, const struct tev *v)
{
	struct marker *mk;

	if (!strncmp(v->name, "ProfilerStep#", 13)) {
		c->step_a = v->ts;
		c->step_b = v->ts + v->dur;
		return;
	}
	if (!is_marker_name(v->name))
		return;
	if (v->ts < c->step_a || v->ts + v->dur > c->step_b)
		problem(c->p, "trace_view.json",
		        "marker outside its ProfilerStep", v->ts);
	if (c->nmk && v->ts < c->mk[c->nmk - 1].host_end)
		problem(c->p, "trace_view.json",
		        "markers overlap or out of order", v->ts);
	xgrow(&c->mk, &c->capmk, c->nmk + 1, sizeof(*c->mk));
	mk = &c->mk[c->nmk++];
	memset(mk, 0, sizeof(*mk));
	mk->stage = !strcmp(v->name, "transformer") ? ST_DIT
	            : !strcmp(v->name, "vae")       ? ST_VAE
	                                            : ST_TE;
	mk->host_start = v->ts;
	mk->host_end = v->ts + v->dur;
}

/* The sub-tasks --subtasks and --trace-generation 2025 write (trace.c),
 * by their exact names: on
 * Ascend Hardware the runtime tasks and the host memory copy, on HCCL
 * every event off thread 0 (its Plane). */
static int is_subtask(const struct tev *v, int hccl)
{
	static const char *const names[] = {
	    "EVENT_RECORD", "EVENT_WAIT", "NOTIFY_RECORD", "NOTIFY_WAIT",
	    "MEMCPY_ASYNC", "Other", "MemcopyAsync",
	    /* --trace-generation 2025: HCCL's task level; and the event of
	     * --unknown-task-type */
	    "Notify Record", "Memcpy", "Reduce Inline", "Notify Wait",
	    "InjectedTask"};
	size_t i;

	if (hccl)
		return v->tid != 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v->name, names[i]))
			return 1;
	return 0;
}

static void x_event(struct tscan *c, const struct tev *v)
{
	const char *proc = proc_of(c, v->pid);
	int hccl = !strcmp(proc, "HCCL");

	if (!strcmp(v->cat, "cpu_op") && !strcmp(proc, "Python")) {
		cpu_op_event(c, v);
		return;
	}
	if (!hccl && strcmp(proc, "Ascend Hardware"))
		return;
	if (is_subtask(v, hccl))
		return;
	if (v->ts < 0 || v->dur < 0)
		problem(c->p, "trace_view.json", "bad ts or dur", v->ts);
	c->kernels++;
	c->ktime += v->dur;
	if (hccl)
		c->comm_time += v->dur;
	xgrow(&c->kx, &c->capkx, c->nkx + 1, sizeof(*c->kx));
	c->kx[c->nkx].pid = v->pid;
	c->kx[c->nkx++].ts = v->ts;
}

static void event_done(struct tscan *c)
{
	struct tev *v = &c->ev;

	if (!strcmp(v->ph, "M") && !strcmp(v->name, "process_name") &&
	    c->nproc < MAX_PROC) {
		c->proc_pid[c->nproc] = v->pid;
		memcpy(c->proc_name[c->nproc++], v->arg_name,
		       sizeof(v->arg_name));
	} else if (!strcmp(v->ph, "X")) {
		x_event(c, v);
	} else if (!strcmp(v->ph, "s") || !strcmp(v->ph, "f")) {
		if (strcmp(v->name, "torch_to_npu") ||
		    strcmp(v->cat, "async_npu") || v->ts < 0)
			problem(c->p, "trace_view.json", "bad flow event",
			        (long long)v->id);
		if (v->ph[0] == 's')
			add_flow(&c->fs, &c->nfs, &c->capfs, v);
		else
			add_flow(&c->ff, &c->nff, &c->capff, v);
	}
}

/* Finds the root form and the depth of the event objects. */
static void root_event(struct tscan *c, const struct js_ev *e)
{
	if (e->depth == 0) {
		c->form = e->kind == JS_OBJECT ? 1 : 0;
		c->ev_depth = e->kind == JS_ARRAY ? 1 : 0;
	} else if (e->depth == 1 && c->form == 1 && !c->ev_depth) {
		if (e->kind == JS_ARRAY && !strcmp(e->key, "traceEvents"))
			c->ev_depth = 2;
		else
			c->before++;
	}
}

static int trace_cb(void *ctx, const struct js_ev *e)
{
	struct tscan *c = ctx;
	int d = c->ev_depth;

	if (e->depth <= 1 && e->kind != JS_END)
		root_event(c, e);
	if (!d || e->depth < d)
		return 0;
	if (e->depth == d && e->kind == JS_OBJECT &&
	    (d == 1 || !strcmp(e->path[1], "traceEvents"))) {
		memset(&c->ev, 0, sizeof(c->ev));
		c->ev.ts = c->ev.dur = -1;
		c->in_event = 1;
	} else if (e->depth == d && e->kind == JS_END && c->in_event) {
		event_done(c);
		c->in_event = 0;
	} else if (c->in_event && e->depth == d + 1 && e->kind != JS_END) {
		ev_field(c, e, 0);
	} else if (c->in_event && e->depth == d + 2 &&
	           !strcmp(e->path[d + 1], "args") && e->kind != JS_END) {
		ev_field(c, e, 1);
	}
	return 0;
}

static int fl_by_id(const void *x, const void *y)
{
	const struct fl *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

static int pt_cmp(const void *x, const void *y)
{
	const struct pt *a = x, *b = y;

	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* Index of the marker whose host range holds `ts`, or -1. */
static long marker_at(const struct marker *mk, size_t n, int64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* first marker ending after ts */
		size_t mid = lo + (hi - lo) / 2;
		if (mk[mid].host_end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && mk[lo].host_start <= ts ? (long)lo : -1;
}

/* Each launch ("s") lies in a marker range and precedes its kernel ("f"),
 * which is a kernel X event of that marker's device range; launches keep
 * the device order. Markers come from the truth: their device ranges were
 * re-derived from kernel_details.csv by selfcheck.c. */
static void check_pairs(struct tscan *c, const struct marker *mk, size_t n)
{
	int64_t last_f = -1, last_s = -1;
	size_t i;

	if (c->nkx)
		qsort(c->kx, c->nkx, sizeof(*c->kx), pt_cmp);
	for (i = 0; i < c->nfs; i++) {
		const struct fl *s = &c->fs[i], *f = &c->ff[i];
		struct pt key = {f->pid, f->ts};
		long m = marker_at(mk, n, s->ts);

		if (s->id != f->id || s->ts >= f->ts)
			problem(c->p, "trace_view.json",
			        "flow unpaired or launch not before kernel",
			        (long long)s->id);
		if (!c->nkx ||
		    !bsearch(&key, c->kx, c->nkx, sizeof(*c->kx), pt_cmp))
			problem(c->p, "trace_view.json",
			        "flow end matches no kernel", (long long)s->id);
		if (m < 0 || f->ts < mk[m].dev_start || f->ts > mk[m].dev_end)
			problem(c->p, "trace_view.json",
			        "launch outside the marker of its kernel",
			        (long long)s->id);
		if (strcmp(proc_of(c, s->pid), "Python") || s->tid != s->pid)
			problem(c->p, "trace_view.json",
			        "launch not on the Python thread",
			        (long long)s->id);
		/* ids follow the kernels' start order, so launches sorted by
		 * id must be strictly increasing: the host is serial. */
		if (i > 0 && (s->ts <= last_s || f->ts < last_f))
			problem(c->p, "trace_view.json",
			        "launches out of device order",
			        (long long)s->id);
		last_f = f->ts;
		last_s = s->ts;
	}
}

static void check_flows(struct tscan *c)
{
	uint64_t want = c->o->markers && c->o->flows ? c->t->kernels : 0;

	if (c->nfs != want || c->nff != want) {
		problem(c->p, "trace_view.json", "flow count (s) differs",
		        (long long)c->nfs);
		return;
	}
	if (!want)
		return; /* nothing to pair (and qsort wants non-NULL) */
	qsort(c->fs, c->nfs, sizeof(*c->fs), fl_by_id);
	qsort(c->ff, c->nff, sizeof(*c->ff), fl_by_id);
	check_pairs(c, c->t->mk, c->t->nmk);
}

static void check_markers(struct tscan *c)
{
	size_t i, want = c->o->markers ? c->t->nmk : 0;

	if (c->nmk != want) {
		problem(c->p, "trace_view.json", "marker count differs",
		        (long long)c->nmk);
		return;
	}
	for (i = 0; i < c->nmk; i++)
		if (c->mk[i].stage != c->t->mk[i].stage ||
		    c->mk[i].host_start != c->t->mk[i].host_start ||
		    c->mk[i].host_end != c->t->mk[i].host_end)
			problem(c->p, "trace_view.json",
			        "marker differs from truth", (long long)i);
}

static void check_trace_sums(struct tscan *c)
{
	int64_t time = 0, comm = 0;
	int s;

	for (s = 0; s < ST_COUNT; s++) {
		time += c->t->st[s].time;
		comm += c->t->st[s].cat_time[CAT_COMM];
	}
	if (c->form != c->o->trace_object || (c->form == 1 && !c->before))
		problem(c->p, "trace_view.json", "wrong form", c->form);
	if (c->kernels != c->t->kernels)
		problem(c->p, "trace_view.json", "kernel X count differs",
		        (long long)c->kernels);
	if (c->ktime != time || c->comm_time != comm)
		problem(c->p, "trace_view.json",
		        "kernel or HCCL time differs from truth (ns)",
		        (long long)(c->ktime - time));
}

static void check_trace(const struct opts *o, const char *path,
                        const struct truth *t, struct problems *p)
{
	struct tscan c;
	char err[256];

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.t = t;
	c.p = p;
	c.form = -1;
	if (jscan_file(path, trace_cb, &c, err, sizeof(err)) != 0) {
		fprintf(stderr, "  self-check rank %d: %s: %s\n", p->rank, path,
		        err);
		p->n++;
	} else {
		check_trace_sums(&c);
		check_markers(&c);
		check_flows(&c);
	}
	free(c.kx);
	free(c.fs);
	free(c.ff);
	free(c.mk);
}

/* ---- communication.json ------------------------------------------------ */

struct cscan {
	struct problems *p;
	int keys, bad_keys, single;
	int64_t v[5]; /* elapse, transit, wait, sync, idle of one object */
	int64_t op_elapse, op_sync, tot_elapse;
	uint64_t ops;
};

static int comm_cb(void *ctx, const struct js_ev *e)
{
	static const char *const names[5] = {
	    "Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
	    "Synchronization Time(ms)", "Idle Time(ms)"};
	struct cscan *c = ctx;
	int i;

	if (e->depth == 1 && e->kind == JS_OBJECT) {
		c->keys++;
		if (!strcmp(e->key, "step"))
			c->single = 1;
		else if (strncmp(e->key, "step", 4) ||
		         dec_scaled(e->key + 4, 0) < 0)
			c->bad_keys++;
	}
	if (e->depth == 5 && !strcmp(e->path[4], "Communication Time Info"))
		for (i = 0; i < 5; i++)
			if (!strcmp(e->key, names[i]))
				c->v[i] = dec_scaled(e->text, 6);
	if (e->depth != 4 || e->kind != JS_END ||
	    strcmp(e->path[4], "Communication Time Info"))
		return 0;
	if (c->v[0] != c->v[1] + c->v[2] + c->v[4] || c->v[3] > c->v[2] ||
	    c->v[1] < 0)
		problem(c->p, "communication.json",
		        "Elapse != Transit + Wait + Idle or Sync > Wait",
		        (long long)c->v[0]);
	if (!strcmp(e->path[3], "Total Op Info")) {
		c->tot_elapse += c->v[0];
	} else {
		c->ops++;
		c->op_elapse += c->v[0];
		c->op_sync += c->v[3];
	}
	memset(c->v, 0, sizeof(c->v));
	return 0;
}

static void check_comm(const struct opts *o, const char *path,
                       const struct truth *t, struct problems *p)
{
	struct cscan c;
	char err[256];
	int64_t comm = 0;
	uint64_t n = 0;
	int s;

	memset(&c, 0, sizeof(c));
	c.p = p;
	for (s = 0; s < ST_COUNT; s++) {
		comm += t->st[s].cat_time[CAT_COMM];
		n += t->st[s].count[CAT_COMM];
	}
	if (jscan_file(path, comm_cb, &c, err, sizeof(err)) != 0) {
		fprintf(stderr, "  self-check rank %d: %s\n", p->rank, err);
		p->n++;
		return;
	}
	if (c.bad_keys || (o->comm_single_key && (c.keys != 1 || !c.single)) ||
	    (!o->comm_single_key && (c.keys != t->steps || c.single)))
		problem(p, "communication.json", "step keys wrong", c.keys);
	if (c.ops != n || c.op_elapse != comm || c.tot_elapse != comm)
		problem(p, "communication.json",
		        "ops or Elapse differ from kernel_details (ns)",
		        (long long)(c.op_elapse - comm));
	if (c.op_sync < t->sync_wait)
		problem(p, "communication.json",
		        "Synchronization below the wait for peers (ns)",
		        (long long)(c.op_sync - t->sync_wait));
}

/* ---- profiler_info and rank{r}.json ------------------------------------ */

struct iscan {
	int64_t rank_id;
	int versions, straggler;
	int64_t compute, sync_wait;
	const struct truth *t;
	struct problems *p;
	struct marker m; /* the marker being read */
	char name[32];   /* and its name */
	size_t nmk;
};

static int info_cb(void *ctx, const struct js_ev *e)
{
	struct iscan *c = ctx;

	if (e->depth != 1)
		return 0;
	if (!strcmp(e->key, "rank_id"))
		c->rank_id = strtoll(e->text, NULL, 10);
	if (!strcmp(e->key, "torch_npu_version") ||
	    !strcmp(e->key, "cann_version"))
		c->versions++;
	return 0;
}

static void check_info(const struct opts *o, int rank, const char *dir,
                       struct problems *p)
{
	char one[PATH_LEN], per[PATH_LEN], err[256];
	struct iscan c;
	struct stat st;
	int want_versions = o->variant == V_L1_2026 ||
	                    o->variant == V_L1_2025 || o->variant == V_L0;

	snprintf(one, sizeof(one), "%s/profiler_info.json", dir);
	snprintf(per, sizeof(per), "%s/profiler_info_%d.json", dir, rank);
	if (!o->profiler_info) {
		if (stat(one, &st) == 0 || stat(per, &st) == 0)
			problem(p, "profiler_info",
			        "written despite "
			        "--no-profiler-info",
			        rank);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.rank_id = -1;
	if (jscan_file(o->ranks > 1 ? per : one, info_cb, &c, err,
	               sizeof(err)) != 0) {
		fprintf(stderr, "  self-check rank %d: %s\n", rank, err);
		p->n++;
		return;
	}
	if (c.rank_id != (o->ranks > 1 ? rank : -1))
		problem(p, "profiler_info", "rank_id wrong", c.rank_id);
	if (c.versions != (want_versions ? 2 : 0))
		problem(p, "profiler_info", "versions wrong", c.versions);
}

static void truth_marker_field(struct iscan *c, const struct js_ev *e)
{
	struct marker *m = &c->m;
	int64_t v = dec_scaled(e->text, 3);

	if (!strcmp(e->key, "host_start_us"))
		m->host_start = v;
	else if (!strcmp(e->key, "host_end_us"))
		m->host_end = v;
	else if (!strcmp(e->key, "device_start_us"))
		m->dev_start = v;
	else if (!strcmp(e->key, "device_end_us"))
		m->dev_end = v;
	else if (!strcmp(e->key, "step"))
		m->step = (int)strtol(e->text, NULL, 10);
	else if (!strcmp(e->key, "stage"))
		m->stage = !strcmp(e->text, "dit")   ? ST_DIT
		           : !strcmp(e->text, "vae") ? ST_VAE
		                                     : ST_TE;
	else if (!strcmp(e->key, "name"))
		snprintf(c->name, sizeof(c->name), "%s", e->text);
}

static void truth_marker_done(struct iscan *c)
{
	const struct marker *w = c->nmk < c->t->nmk ? &c->t->mk[c->nmk] : NULL;
	const struct marker *g = &c->m;

	if (!w || strcmp(c->name, launch_marker_name(g->stage)) ||
	    w->step != g->step || w->stage != g->stage ||
	    w->host_start != g->host_start || w->host_end != g->host_end ||
	    w->dev_start != g->dev_start || w->dev_end != g->dev_end)
		problem(c->p, "rank.json", "marker differs", (long long)c->nmk);
	c->nmk++;
	memset(&c->m, 0, sizeof(c->m));
}

static int truth_cb(void *ctx, const struct js_ev *e)
{
	struct iscan *c = ctx;

	if (e->depth == 1 && !strcmp(e->key, "straggler"))
		c->straggler = !strcmp(e->text, "true");
	else if (e->depth == 1 && !strcmp(e->key, "compute_time_us"))
		c->compute = dec_scaled(e->text, 3);
	else if (e->depth == 1 && !strcmp(e->key, "comm_sync_wait_us"))
		c->sync_wait = dec_scaled(e->text, 3);
	else if (e->depth == 3 && !strcmp(e->path[1], "markers") &&
	         e->kind != JS_END)
		truth_marker_field(c, e);
	else if (e->depth == 2 && e->kind == JS_END &&
	         !strcmp(e->path[1], "markers"))
		truth_marker_done(c);
	return 0;
}

static void check_truth_json(const struct opts *o, int rank,
                             const struct truth *t, int64_t got_compute,
                             struct problems *p)
{
	char path[PATH_LEN], err[256];
	struct iscan c;

	memset(&c, 0, sizeof(c));
	c.t = t;
	c.p = p;
	c.compute = c.sync_wait = -1;
	snprintf(path, sizeof(path), "%s/ground_truth/rank%d.json", o->outdir,
	         rank);
	if (jscan_file(path, truth_cb, &c, err, sizeof(err)) != 0) {
		fprintf(stderr, "  self-check rank %d: %s\n", rank, err);
		p->n++;
		return;
	}
	if (c.straggler != (rank == o->straggler))
		problem(p, "rank.json", "straggler flag wrong", c.straggler);
	if (c.compute != got_compute)
		problem(p, "rank.json",
		        "compute_time_us differs from kernel_details (ns)",
		        (long long)(c.compute - got_compute));
	if (c.sync_wait != t->sync_wait || c.nmk != t->nmk)
		problem(p, "rank.json", "sync wait or marker count differs",
		        (long long)c.nmk);
}

int tracecheck_rank(const struct opts *o, int rank, const char *rank_dir,
                    const struct truth *t, int64_t got_compute)
{
	struct problems p = {0, rank};
	char path[PATH_LEN];

	snprintf(path, sizeof(path),
	         "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", rank_dir);
	if (o->files & FILE_TRACE)
		check_trace(o, path, t, &p);
	snprintf(path, sizeof(path),
	         "%s/ASCEND_PROFILER_OUTPUT/communication.json", rank_dir);
	if ((o->files & FILE_COMM) && o->ranks > 1)
		check_comm(o, path, t, &p);
	check_info(o, rank, rank_dir, &p);
	check_truth_json(o, rank, t, got_compute, &p);
	return p.n;
}
