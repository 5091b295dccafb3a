/* selfcheck.c: an independent re-reading of the generated files. It parses
 * the CSV the way a consumer would (by header name, quotes, the tab after
 * Start Time) and measures overlap with a sweep line rather than trusting
 * the placement bookkeeping in timeline.c. */
#include "selfcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracecheck.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_FIELDS 64

struct row {
	char *f[MAX_FIELDS]; /* NUL-terminated fields, quotes removed */
	int n;
};

/* Interval of one kernel row. */
struct span {
	int64_t a, b;
	int stage, comm;
	int64_t step;
};

struct check {
	int failures;
	struct span *sp;
	size_t n, cap;
	struct truth got;
};

uint64_t selfcheck_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void fail(struct check *c, const char *what, long long line,
                 const char *detail)
{
	if (c->failures++ < 20)
		fprintf(stderr, "  self-check: %s (line %lld): %s\n", what,
		        line, detail);
}

/* Splits one CSV line in place: handles quoted fields with doubled quotes,
 * strips CR/LF. */
static void split_csv(char *line, struct row *r)
{
	char *rd = line, *wr = line;

	r->n = 0;
	while (r->n < MAX_FIELDS) {
		int quoted = *rd == '"';
		r->f[r->n++] = wr;
		if (quoted)
			rd++;
		for (;;) {
			if (quoted && rd[0] == '"' && rd[1] == '"') {
				*wr++ = '"';
				rd += 2;
			} else if (quoted && rd[0] == '"') {
				quoted = 0;
				rd++;
			} else if (!quoted && (*rd == ',' || *rd == '\r' ||
			                       *rd == '\n' || !*rd)) {
				break;
			} else {
				*wr++ = *rd++;
			}
		}
		if (*rd != ',') {
			*wr = '\0';
			return;
		}
		*wr++ = '\0';
		rd++;
	}
}

static int col_index(const struct row *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->f[i], name) == 0)
			return i;
	return -1;
}

/* "1767225600000123.456\t" / "39.15" / "51.110000" -> ns, exactly; -1 when
 * not a plain decimal or finer than a nanosecond. */
static int64_t parse_us(const char *s)
{
	int64_t whole = 0, frac = 0;
	int digits = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9')
		whole = whole * 10 + (*s++ - '0');
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if (digits < 3)
				frac = frac * 10 + (*s - '0');
			else if (*s != '0')
				return -1;
		}
	}
	for (; digits < 3; digits++)
		frac *= 10;
	if (*s == '\t')
		s++;
	return *s ? -1 : whole * 1000 + frac;
}

static int name_index(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

struct cols {
	int start, dur, type, name, step;
};

static void add_span(struct check *c, int64_t a, int64_t b, int stage, int comm,
                     int64_t step)
{
	xgrow(&c->sp, &c->cap, c->n + 1, sizeof(*c->sp));
	c->sp[c->n].a = a;
	c->sp[c->n].b = b;
	c->sp[c->n].stage = stage;
	c->sp[c->n].comm = comm;
	c->sp[c->n].step = step;
	c->n++;
}

/* One kernel row with its truth line. */
static void check_row(struct check *c, const struct cols *k, struct row *kr,
                      struct row *tr, long long line, int64_t *prev_start)
{
	int stage =
	    tr->n == 2 ? name_index(STAGE_NAMES, ST_COUNT, tr->f[0]) : -1;
	int cat = tr->n == 2 ? name_index(CAT_NAMES, CAT_COUNT, tr->f[1]) : -1;
	int64_t st = parse_us(kr->f[k->start]), du = parse_us(kr->f[k->dur]);
	const char *type = kr->f[k->type];
	struct stage_acc *a;

	if (stage < 0 || cat < 0 || st < 0 || du < 0) {
		fail(c, "bad row or truth line", line, kr->f[k->name]);
		return;
	}
	if (st < *prev_start)
		fail(c, "rows not sorted by Start Time", line, kr->f[k->start]);
	*prev_start = st;
	if (strcmp(type, "N/A") != 0 && (int)model_cat_of_type(type) != cat)
		fail(c, "truth category disagrees with Type", line, type);
	if ((cat == CAT_COMM) != (strncmp(kr->f[k->name], "hcom_", 5) == 0))
		fail(c, "comm category disagrees with Name", line,
		     kr->f[k->name]);
	a = &c->got.st[stage];
	a->kernels++;
	a->time += du;
	a->count[cat]++;
	a->cat_time[cat] += du;
	c->got.kernels++;
	add_span(c, st, st + du, stage, cat == CAT_COMM,
	         k->step >= 0 ? strtoll(kr->f[k->step], NULL, 10) : 0);
}

static int read_kernels(struct check *c, FILE *kf, FILE *tf)
{
	char *hdr = NULL, *kl = NULL, *tl = NULL;
	size_t kc = 0, tc = 0;
	struct row kh, kr, tr;
	struct cols k;
	long long line = 1;
	int64_t prev = 0;

	if (getline(&kl, &kc, kf) < 0 || getline(&tl, &tc, tf) < 0) {
		fail(c, "empty kernel_details.csv or truth csv", 1, "");
		goto out;
	}
	/* The header's fields point into its line: keep that buffer. */
	hdr = kl;
	kl = NULL;
	kc = 0;
	split_csv(hdr, &kh);
	k.start = col_index(&kh, "Start Time(us)");
	k.dur = col_index(&kh, "Duration(us)");
	k.type = col_index(&kh, "Type");
	k.name = col_index(&kh, "Name");
	k.step = col_index(&kh, "Step Id");
	if (k.start < 0 || k.dur < 0 || k.type < 0 || k.name < 0) {
		fail(c, "header lacks a needed column", 1, "");
		goto out;
	}
	while (getline(&kl, &kc, kf) >= 0) {
		line++;
		if (getline(&tl, &tc, tf) < 0) {
			fail(c, "truth csv has fewer lines than kernel rows",
			     line, "");
			break;
		}
		split_csv(kl, &kr);
		split_csv(tl, &tr);
		if (kr.n != kh.n)
			fail(c,
			     "row has a different field count than the header",
			     line, "");
		else
			check_row(c, &k, &kr, &tr, line, &prev);
	}
	if (getline(&tl, &tc, tf) >= 0)
		fail(c, "truth csv has more lines than kernel rows", line, "");
out:
	free(hdr);
	free(kl);
	free(tl);
	return c->failures ? -1 : 0;
}

/* ---- sweep-line measures ------------------------------------------------ */

struct edge {
	int64_t t;
	int delta; /* +1 opens, -1 closes */
	int comm;
};

static int edge_cmp(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;

	return (a->t > b->t) - (a->t < b->t);
}

/* Times (ns) where: any compute runs, any comm runs, comm runs without
 * compute, nothing runs (between the first start and last end). */
struct measure {
	int64_t comp, comm, commx, idle;
};

static struct measure sweep(const struct span *sp, size_t n)
{
	struct measure m = {0, 0, 0, 0};
	struct edge *e = xmalloc(2 * n * sizeof(*e));
	int depth[2] = {0, 0};
	size_t i;

	for (i = 0; i < n; i++) {
		e[2 * i].t = sp[i].a;
		e[2 * i].delta = 1;
		e[2 * i].comm = sp[i].comm;
		e[2 * i + 1].t = sp[i].b;
		e[2 * i + 1].delta = -1;
		e[2 * i + 1].comm = sp[i].comm;
	}
	qsort(e, 2 * n, sizeof(*e), edge_cmp);
	for (i = 0; i < 2 * n; i++) {
		if (i > 0) {
			int64_t dt = e[i].t - e[i - 1].t;
			m.comp += depth[0] > 0 ? dt : 0;
			m.comm += depth[1] > 0 ? dt : 0;
			m.commx += depth[1] > 0 && depth[0] == 0 ? dt : 0;
			m.idle += depth[0] == 0 && depth[1] == 0 ? dt : 0;
		}
		depth[e[i].comm] += e[i].delta;
	}
	free(e);
	return m;
}

/* Exposed comm of each stage: comm of that stage not covered by that
 * stage's compute. */
static void exposed_by_sweep(struct check *c)
{
	struct span *sub = xmalloc((c->n ? c->n : 1) * sizeof(*sub));
	int s;
	size_t i, k;

	for (s = 0; s < ST_COUNT; s++) {
		for (i = k = 0; i < c->n; i++)
			if (c->sp[i].stage == s)
				sub[k++] = c->sp[i];
		c->got.st[s].exposed = sweep(sub, k).commx;
	}
	free(sub);
}

static void compare_stage(struct check *c, const char *st,
                          const struct stage_acc *want,
                          const struct stage_acc *got)
{
	char msg[160];
	int k;

	if (want->kernels != got->kernels || want->time != got->time) {
		snprintf(msg, sizeof(msg), "%s: kernels/time differ", st);
		fail(c, "truth mismatch", 0, msg);
	}
	for (k = 0; k < CAT_COUNT; k++) {
		if (want->count[k] != got->count[k] ||
		    want->cat_time[k] != got->cat_time[k]) {
			snprintf(msg, sizeof(msg), "%s.%s differs", st,
			         CAT_NAMES[k]);
			fail(c, "truth mismatch", 0, msg);
		}
	}
	if (want->exposed != got->exposed) {
		snprintf(msg, sizeof(msg),
		         "%s: exposed comm constructive %lld ns, sweep %lld ns",
		         st, (long long)want->exposed, (long long)got->exposed);
		fail(c, "truth mismatch", 0, msg);
	}
}

/* DiT shares of FA / MatMul / Vector must land within 1 point. With a
 * straggler, compute is stretched and collectives absorb waits, so the
 * shares hold within the DiT's non-Comm time instead. With --cache the
 * target is the full iterations' mix (timeline.c), which the cache hits
 * move on purpose: not checked then. */
static void check_mix(struct check *c, const struct opts *o,
                      const struct model *m)
{
	static const enum cat main_cats[3] = {CAT_FA, CAT_MATMUL, CAT_VECTOR};
	const struct stage_acc *d = &c->got.st[ST_DIT];
	int strag = o->straggler >= 0;
	double base = (double)(d->time - (strag ? d->cat_time[CAT_COMM] : 0));
	double scale = strag ? 100.0 / (100.0 - m->share[CAT_COMM]) : 1.0;
	int i;

	for (i = 0; i < 3 && base > 0 && !o->cache && o->denoiser == DEN_DIT;
	     i++) {
		double share = 100.0 * (double)d->cat_time[main_cats[i]] / base;
		double want = m->share[main_cats[i]] * scale;
		if (share < want - 1.0 || share > want + 1.0) {
			char msg[96];
			snprintf(msg, sizeof(msg),
			         "%s share %.2f%%, target %.2f%%",
			         CAT_NAMES[main_cats[i]], share, want);
			fail(c, "dit mix off target", 0, msg);
		}
	}
}

/* The markers' device ranges, re-derived from the rows: a range is a run
 * of rows of one stage within one step. */
static void check_ranges(struct check *c, const struct truth *want)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++) {
		const struct span *sp = &c->sp[i];
		int open = i == 0 || sp->stage != c->sp[i - 1].stage ||
		           sp->step != c->sp[i - 1].step;
		const struct marker *mk;

		n += (size_t)open;
		if (n > want->nmk)
			break;
		mk = &want->mk[n - 1];
		if ((open &&
		     (mk->dev_start != sp->a || (int)mk->stage != sp->stage ||
		      mk->step != sp->step)) ||
		    ((i + 1 == c->n || c->sp[i + 1].stage != sp->stage ||
		      c->sp[i + 1].step != sp->step) &&
		     mk->dev_end != sp->a))
			fail(c, "marker device range differs from the rows", 0,
			     STAGE_NAMES[sp->stage]);
	}
	if (n != want->nmk)
		fail(c, "marker count differs from the stage runs", 0, "");
}

/* ---- step_trace_time.csv ----------------------------------------------- */

struct st_cols {
	int step, comp, commx, ovl, comm, idle, stage;
};

static void check_step_row(struct check *c, const struct st_cols *k,
                           struct row *r, long long line)
{
	int64_t step = strtoll(r->f[k->step], NULL, 10);
	size_t i = 0, j;
	struct measure m;
	int64_t want[6];
	int q;

	while (i < c->n && c->sp[i].step != step)
		i++;
	for (j = i; j < c->n && c->sp[j].step == step; j++)
		;
	if (i == j) {
		fail(c, "step_trace_time.csv names a step with no kernels",
		     line, r->f[k->step]);
		return;
	}
	m = sweep(c->sp + i, j - i);
	want[0] = m.comp;
	want[1] = m.commx;
	want[2] = m.comm - m.commx;
	want[3] = m.comm;
	want[4] = m.idle;
	want[5] = m.comp + m.commx + m.idle;
	for (q = 0; q < 6; q++) {
		const int idx[6] = {k->comp, k->commx, k->ovl,
		                    k->comm, k->idle,  k->stage};
		if (parse_us(r->f[idx[q]]) != want[q])
			fail(c,
			     "step_trace_time.csv value differs from kernels",
			     line, r->f[idx[q]]);
	}
}

static void check_steps(struct check *c, const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *hdr = NULL, *l = NULL;
	size_t cap = 0;
	struct row h, r;
	struct st_cols k;
	long long line = 1;

	if (!fp)
		return; /* not written (--files) */
	if (getline(&hdr, &cap, fp) < 0) {
		fail(c, "empty step_trace_time.csv", 1, "");
		goto out;
	}
	cap = 0;
	split_csv(hdr, &h);
	k.step = col_index(&h, "Step");
	k.comp = col_index(&h, "Computing");
	k.commx = col_index(&h, "Communication(Not Overlapped)");
	k.ovl = col_index(&h, "Overlapped");
	k.comm = col_index(&h, "Communication");
	k.idle = col_index(&h, "Free");
	k.stage = col_index(&h, "Stage");
	while (getline(&l, &cap, fp) >= 0) {
		line++;
		split_csv(l, &r);
		if (r.n == h.n)
			check_step_row(c, &k, &r, line);
		else
			fail(c, "step_trace_time.csv short row", line, "");
	}
out:
	free(hdr);
	free(l);
	fclose(fp);
}

int selfcheck_rank(const struct opts *o, const struct model *m, int rank,
                   const char *rank_dir, const struct truth *expected)
{
	char kpath[4200], tpath[4200], spath[4200];
	struct check c;
	FILE *kf, *tf;
	int s;

	memset(&c, 0, sizeof(c));
	snprintf(kpath, sizeof(kpath),
	         "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", rank_dir);
	snprintf(spath, sizeof(spath),
	         "%s/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", rank_dir);
	snprintf(tpath, sizeof(tpath), "%s/ground_truth/rank%d.kernels.csv",
	         o->outdir, rank);
	kf = fopen(kpath, "rb");
	tf = fopen(tpath, "rb");
	if (kf && tf && read_kernels(&c, kf, tf) == 0) {
		exposed_by_sweep(&c);
		if (c.got.kernels != expected->kernels)
			fail(&c, "truth mismatch", 0, "kernel count");
		for (s = 0; s < ST_COUNT; s++)
			compare_stage(&c, STAGE_NAMES[s], &expected->st[s],
			              &c.got.st[s]);
		check_mix(&c, o, m);
		/* Level0-old has no Step Id column to group rows by. */
		if (o->variant != V_L0_OLD)
			check_steps(&c, spath);
		if (o->variant != V_L0_OLD && o->markers)
			check_ranges(&c, expected);
		c.failures += tracecheck_rank(o, rank, rank_dir, expected,
		                              truth_compute_time(&c.got));
	} else if (!kf || !tf) {
		fail(&c, "cannot open", 0, !kf ? kpath : tpath);
	}
	if (kf)
		fclose(kf);
	if (tf)
		fclose(tf);
	free(c.sp);
	fprintf(stderr, "  self-check rank %d: %s (%d problem%s)\n", rank,
	        c.failures ? "FAILED" : "ok", c.failures,
	        c.failures == 1 ? "" : "s");
	return c.failures ? -1 : 0;
}

/* ---- across ranks: synchronised collectives, the straggler ------------- */

struct rank_sum {
	int64_t *ends; /* end of each collective row, in row order */
	size_t n, cap;
	int64_t compute, comm;
};

static int read_rank_sum(const char *dir, struct rank_sum *r)
{
	char path[4200], *l = NULL, *hdr = NULL;
	size_t cap = 0;
	struct row h, f;
	int start, dur, name, rc = -1;
	FILE *fp;

	snprintf(path, sizeof(path),
	         "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", dir);
	fp = fopen(path, "rb");
	if (!fp || getline(&hdr, &cap, fp) < 0)
		goto out;
	cap = 0;
	split_csv(hdr, &h);
	start = col_index(&h, "Start Time(us)");
	dur = col_index(&h, "Duration(us)");
	name = col_index(&h, "Name");
	while (start >= 0 && dur >= 0 && name >= 0 &&
	       getline(&l, &cap, fp) >= 0) {
		int64_t a, d;
		split_csv(l, &f);
		if (f.n != h.n)
			goto out;
		a = parse_us(f.f[start]);
		d = parse_us(f.f[dur]);
		if (strncmp(f.f[name], "hcom_", 5)) {
			r->compute += d;
			continue;
		}
		r->comm += d;
		xgrow(&r->ends, &r->cap, r->n + 1, sizeof(*r->ends));
		r->ends[r->n++] = a + d;
	}
	rc = 0;
out:
	free(hdr);
	free(l);
	if (fp)
		fclose(fp);
	return rc;
}

/* Largest spread of one collective's end across ranks, -1 when the ranks
 * have different collective counts. */
static int64_t end_spread(const struct rank_sum *rs, int n)
{
	int64_t worst = 0;
	size_t j;
	int q;

	for (q = 1; q < n; q++)
		if (rs[q].n != rs[0].n)
			return -1;
	for (j = 0; j < rs[0].n; j++) {
		int64_t lo = rs[0].ends[j], hi = lo;
		for (q = 1; q < n; q++) {
			lo = rs[q].ends[j] < lo ? rs[q].ends[j] : lo;
			hi = rs[q].ends[j] > hi ? rs[q].ends[j] : hi;
		}
		worst = hi - lo > worst ? hi - lo : worst;
	}
	return worst;
}

/* The straggler has the most compute (F times the others' mean, within
 * 5%) and, when collectives synchronise, the least comm; every
 * collective ends within 10 ns on all ranks. */
static int judge_group(const struct opts *o, const struct rank_sum *rs)
{
	int q, sr = o->straggler, bad = 0, sp = rs[0].n > 0;
	double others = 0, ratio;
	int64_t spread = sp ? end_spread(rs, o->ranks) : 0;

	for (q = 0; q < o->ranks; q++) {
		if (q == sr)
			continue;
		others += (double)rs[q].compute / (o->ranks - 1);
		if (rs[q].compute >= rs[sr].compute ||
		    (sp && rs[q].comm <= rs[sr].comm))
			bad = 1;
	}
	ratio = (double)rs[sr].compute / others;
	if (ratio < o->straggler_f * 0.95 || ratio > o->straggler_f * 1.05)
		bad = 1;
	if (spread < 0 || spread > 10)
		bad = 1;
	fprintf(stderr,
	        "  self-check straggler: rank %d compute %.3f ms = %.3f x the "
	        "others' mean (F %.2f), comm %.3f ms; collective ends spread "
	        "%lld ns: %s\n",
	        sr, (double)rs[sr].compute / 1e6, ratio, o->straggler_f,
	        (double)rs[sr].comm / 1e6, (long long)spread,
	        bad ? "FAILED" : "ok");
	return bad ? -1 : 0;
}

int selfcheck_group(const struct opts *o, const char *const *dirs)
{
	struct rank_sum *rs;
	int q, rc = 0;

	if (o->straggler < 0)
		return 0;
	rs = xcalloc((size_t)o->ranks, sizeof(*rs));
	for (q = 0; q < o->ranks; q++)
		if (read_rank_sum(dirs[q], &rs[q])) {
			fprintf(stderr, "  self-check: %s: unreadable\n",
			        dirs[q]);
			rc = -1;
		}
	if (rc == 0)
		rc = judge_group(o, rs);
	for (q = 0; q < o->ranks; q++)
		free(rs[q].ends);
	free(rs);
	return rc;
}
