/* View model of the comparison reports: comparison -> template variables,
 * one function per report section, in the order the report shows them. */
#include "view/diff_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/svg.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MINUS "\xE2\x88\x92" /* U+2212: a real minus sign, not a hyphen */

/* ---- signed numbers ------------------------------------------------------ */

/* A signed duration in unit u (UNIT_OWN: its own). */
#define UNIT_OWN (-1)
static void add_delta_in(struct strbuf *sb, int64_t ns, int u)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	int64_t m = mag > INT64_MAX ? INT64_MAX : (int64_t)mag;

	strbuf_adds(sb, ns > 0 ? "+" : ns < 0 ? MINUS : "");
	numfmt_duration_in(
	    sb, m, u == UNIT_OWN ? numfmt_unit_of(m) : (enum numfmt_unit)u);
}

void diff_add_delta(struct strbuf *sb, int64_t ns)
{
	add_delta_in(sb, ns, UNIT_OWN);
}

/* The unit of a column of the deltas of t[0..n), from the largest. */
static int delta_unit(const struct cmp_time *t, size_t n)
{
	int64_t max = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = checked_sub_sat(t[i].new_, t[i].base);
		d = d < 0 ? (d == INT64_MIN ? INT64_MAX : -d) : d;
		max = d > max ? d : max;
	}
	return (int)numfmt_unit_of(max);
}

/* "+12.3" / "−4.0" / "0.0" (one decimal, no sign when it rounds to 0). */
static void add_signed1(struct strbuf *sb, double x)
{
	char num[64];

	snprintf(num, sizeof(num), "%.1f", x < 0 ? -x : x);
	if (strcmp(num, "0.0"))
		strbuf_adds(sb, x > 0 ? "+" : MINUS);
	strbuf_adds(sb, num);
}

/* "name_suffix", or "suffix" when name is empty, in key. */
static const char *key_of(char *key, size_t n, const char *name,
                          const char *suffix)
{
	snprintf(key, n, "%s%s%s", name, *name ? "_" : "", suffix);
	return key;
}

/* name_delta_ns, name_delta (in unit u, as the rest of its column) and
 * name_pct ("" when base is 0) of t. */
static void set_delta(struct tmpl_vars *v, const char *name, struct cmp_time t,
                      int u, struct strbuf *sb)
{
	char key[64];

	tmpl_setf(v, key_of(key, sizeof(key), name, "delta_ns"), "%" PRId64,
	          checked_sub_sat(t.new_, t.base));
	strbuf_reset(sb);
	add_delta_in(sb, checked_sub_sat(t.new_, t.base), u);
	tmpl_set(v, key_of(key, sizeof(key), name, "delta"), sb->buf);
	strbuf_reset(sb);
	if (t.base) { /* the definition of cmp_pct, in compare.h */
		add_signed1(sb, 100.0 * ((double)t.new_ - (double)t.base) /
		                    (double)t.base);
		strbuf_addch(sb, '%');
	}
	tmpl_set(v, key_of(key, sizeof(key), name, "pct"), sb->buf);
}

/* name_base_ns, name_new_ns and the deltas of t. */
static void set_time(struct tmpl_vars *v, const char *name, struct cmp_time t,
                     int u, struct strbuf *sb)
{
	char key[64];

	tmpl_setf(v, key_of(key, sizeof(key), name, "base_ns"), "%" PRId64,
	          t.base);
	tmpl_setf(v, key_of(key, sizeof(key), name, "new_ns"), "%" PRId64,
	          t.new_);
	set_delta(v, name, t, u, sb);
}

/* A change of share in percentage points: "+2.1 pp". */
static void set_pp(struct model_ctx *c, struct tmpl_vars *v, const char *name,
                   struct cmp_share s)
{
	struct strbuf num = STRBUF_INIT;
	const char *names[] = {"x"};
	const char *values[1];

	add_signed1(&num, s.new_ - s.base);
	values[0] = num.buf;
	model_set_msg(c, v, name, "diff_pp", names, values, 1);
	strbuf_release(&num);
}

/* ---- header -------------------------------------------------------------- */

static void header(struct model_ctx *c, struct tmpl_vars *v,
                   const struct comparison *cmp)
{
	const char *names[] = {"version"};
	const char *values[] = {c->o->version ? c->o->version : ""};

	model_set_common(c, v, "diff_title_default");
	model_set_msg(c, v, "footer", "diff_footer", names, values, 1);
	tmpl_set(v, "base_source", cmp->base_source ? cmp->base_source : "");
	tmpl_set(v, "new_source", cmp->new_source ? cmp->new_source : "");
	tmpl_set(v, "per_step", cmp->per_step ? "1" : "");
	tmpl_set(v, "times_note",
	         model_t(c, cmp->per_step ? "diff_times_per_step"
	                                  : "diff_times_total"));
	tmpl_setf(v, "base_steps", "%zu", cmp->base_steps);
	tmpl_setf(v, "new_steps", "%zu", cmp->new_steps);
	tmpl_setf(v, "base_ranks", "%zu", cmp->base_ranks);
	tmpl_setf(v, "new_ranks", "%zu", cmp->new_ranks);
	/* several cards: the stage, category and kernel-type times are the
	 * reports' card-time, summed over each run's cards */
	if (cmp->base_ranks > 1 || cmp->new_ranks > 1) {
		const char *n[] = {"base", "new"};
		char b[24], w[24];
		const char *val[] = {b, w};
		snprintf(b, sizeof(b), "%zu", cmp->base_ranks);
		snprintf(w, sizeof(w), "%zu", cmp->new_ranks);
		model_set_msg(c, v, "cards_note", "diff_cards_note", n, val, 2);
	} else {
		tmpl_set(v, "cards_note", "");
	}
}

/* ---- speedups, stages, categories ---------------------------------------- */

/* speedup, speedup_text ("1.23× faster") and trend of a stage. */
static void speedup(struct model_ctx *c, struct tmpl_vars *v, double x)
{
	const char *names[] = {"x"};
	const char *values[1];
	char num[32], key[32];
	const char *trend;

	tmpl_setf(v, "speedup", "%.3f", x);
	snprintf(num, sizeof(num), "%.2f", x);
	values[0] = num;
	/* "same" within 2%: run-to-run noise of a stage nobody changed */
	trend = x <= 0      ? "na"
	        : x >= 1.02 ? "faster"
	        : x <= 0.98 ? "slower"
	                    : "same";
	tmpl_set(v, "trend", trend);
	if (x <= 0) {
		tmpl_set(v, "speedup_text", model_t(c, "diff_speedup_na"));
		return;
	}
	snprintf(key, sizeof(key), "diff_speedup_%s", trend);
	model_set_msg(c, v, "speedup_text", key, names, values, 1);
}

/* A stage's name; the one stage both profiles are, for what they are. */
static const char *stage_label(struct model_ctx *c,
                               const struct comparison *cmp, int s)
{
	if (s == STAGE_OTHER && cmp->one_stage_kind)
		return model_tk(c, "workload_stage_", cmp->one_stage_kind);
	return model_tk(c, "stage_", stage_names[s]);
}

static void summary(struct model_ctx *c, struct tmpl_vars *v,
                    const struct comparison *cmp)
{
	int s;

	for (s = 0; s < STAGE_COUNT; s++) {
		const struct cmp_stage *st = &cmp->stages[s];
		struct tmpl_vars *row;
		if (!st->in_base || !st->in_new)
			continue;
		row = tmpl_add_row(v, "summary");
		tmpl_set(row, "id", stage_names[s]);
		tmpl_set(row, "label", stage_label(c, cmp, s));
		speedup(c, row, st->speedup);
		model_set_ns(row, "wall_base_ns", st->wall.base);
		model_set_ns(row, "wall_new_ns", st->wall.new_);
	}
}

static void stage_cats(struct model_ctx *c, struct tmpl_vars *row,
                       const struct cmp_stage *st)
{
	int k, u = delta_unit(st->cat, CAT_COUNT);

	for (k = 0; k < CAT_COUNT; k++) {
		struct tmpl_vars *cr = tmpl_add_row(row, "cats");
		tmpl_set(cr, "cat", category_names[k]);
		tmpl_set(cr, "label", model_tk(c, "cat_", category_names[k]));
		model_set_ns(cr, "base_ns", st->cat[k].base);
		model_set_ns(cr, "new_ns", st->cat[k].new_);
		set_delta(cr, "", st->cat[k], u, &c->sb);
		tmpl_setf(cr, "share_base", "%.3f", st->cat_share[k].base);
		tmpl_setf(cr, "share_new", "%.3f", st->cat_share[k].new_);
		set_pp(c, cr, "share_delta", st->cat_share[k]);
	}
}

/* unit: of the wall, kernel and exposed delta columns */
static void stage_row(struct model_ctx *c, struct tmpl_vars *row, int s,
                      const struct comparison *cmp, const int *unit)
{
	const struct cmp_stage *st = &cmp->stages[s];

	tmpl_set(row, "id", stage_names[s]);
	tmpl_set(row, "label", stage_label(c, cmp, s));
	tmpl_set(row, "presence",
	         !st->in_base  ? model_t(c, "diff_only_new")
	         : !st->in_new ? model_t(c, "diff_only_base")
	                       : "");
	speedup(c, row, st->in_base && st->in_new ? st->speedup : 0);
	set_time(row, "wall", st->wall, unit[0], &c->sb);
	set_time(row, "kernel", st->kernel, unit[1], &c->sb);
	set_time(row, "exposed", st->exposed, unit[2], &c->sb);
	tmpl_setf(row, "exposed_share_base", "%.3f", st->exposed_share.base);
	tmpl_setf(row, "exposed_share_new", "%.3f", st->exposed_share.new_);
	set_pp(c, row, "exposed_share_delta", st->exposed_share);
	stage_cats(c, row, st);
}

static void stages(struct model_ctx *c, struct tmpl_vars *v,
                   const struct comparison *cmp)
{
	int s, comm = 0, unit[3] = {0, 0, 0};
	struct cmp_time shown[3][STAGE_COUNT];
	size_t n = 0;

	for (s = 0; s < STAGE_COUNT; s++) {
		const struct cmp_stage *st = &cmp->stages[s];
		if (!st->in_base && !st->in_new)
			continue;
		shown[0][n] = st->wall;
		shown[1][n] = st->kernel;
		shown[2][n++] = st->exposed;
	}
	for (s = 0; s < 3; s++)
		unit[s] = delta_unit(shown[s], n);
	for (s = 0; s < STAGE_COUNT; s++) {
		const struct cmp_stage *st = &cmp->stages[s];
		if (!st->in_base && !st->in_new)
			continue;
		stage_row(c, tmpl_add_row(v, "stages"), s, cmp, unit);
		comm |= st->exposed.base > 0 || st->exposed.new_ > 0;
	}
	tmpl_set(v, "has_comm", comm ? "1" : "");
}

static void chart(struct model_ctx *c, struct tmpl_vars *v)
{
	struct strbuf svg = STRBUF_INIT;

	diff_chart_svg(c, v, &svg);
	tmpl_set(v, "chart", svg.buf);
	tmpl_setf(v, "chart_max_ns", "%" PRId64, diff_chart_max(v));
	strbuf_release(&svg);
}

/* ---- verdicts, warnings -------------------------------------------------- */

/* The catalogue's name of a built-in verdict, else its id: its title (a
 * claim) where it fired on either side, else its neutral check name, so a
 * finding that fired nowhere is never stated as a claim. */
static const char *verdict_title(struct model_ctx *c, const char *id, int fired)
{
	const char *s = NULL;

	if (!fired) {
		strbuf_reset(&c->sb);
		strbuf_addf(&c->sb, "verdict_%s_check", id);
		s = i18n_find(c->o->cat, c->sb.buf);
	}
	if (!s) {
		strbuf_reset(&c->sb);
		strbuf_addf(&c->sb, "verdict_%s_title", id);
		s = i18n_find(c->o->cat, c->sb.buf);
	}
	return s ? s : id;
}

static void verdict_row(struct model_ctx *c, struct tmpl_vars *row,
                        const struct cmp_verdict *vd)
{
	const char *change = verdict_change_names[vd->change];

	tmpl_set(row, "id", vd->id);
	tmpl_set(row, "title",
	         verdict_title(c, vd->id, vd->change != VC_NEVER));
	tmpl_set(row, "stage_label",
	         model_tk(c, "stage_", stage_names[vd->stage]));
	tmpl_set(row, "change", change);
	tmpl_set(row, "change_label", model_tk(c, "diff_change_", change));
	/* "" where it does not apply: the reports show a dash */
	tmpl_set(row, "base", "");
	tmpl_set(row, "new", "");
	if (vd->base_applicable)
		tmpl_setf(row, "base", "%.3f", vd->base);
	if (vd->new_applicable)
		tmpl_setf(row, "new", "%.3f", vd->new_);
	tmpl_setf(row, "threshold", "%.3f", vd->threshold);
	tmpl_set(row, "base_fired",
	         vd->change == VC_CLEARED || vd->change == VC_STAYED ? "1"
	                                                             : "");
	tmpl_set(row, "new_fired",
	         vd->change == VC_APPEARED || vd->change == VC_STAYED ? "1"
	                                                              : "");
}

static void verdicts(struct model_ctx *c, struct tmpl_vars *v,
                     const struct comparison *cmp)
{
	size_t i;
	int ch, any = 0;

	/* what changed first: appeared, cleared, stayed, then never */
	for (ch = VC_APPEARED; ch <= VC_NEVER; ch++)
		for (i = 0; i < cmp->nverdicts; i++) {
			if ((int)cmp->verdicts[i].change != ch)
				continue;
			verdict_row(c, tmpl_add_row(v, "verdicts"),
			            &cmp->verdicts[i]);
			any |= ch == VC_APPEARED || ch == VC_CLEARED;
		}
	tmpl_set(v, "any_change", any ? "1" : "");
}

/* "−9.7–15.3%": the promised end-to-end change (a saving is a fall) */
static void add_promise(struct strbuf *sb, const struct cmp_verdict *vd)
{
	char lo[32], hi[32];

	snprintf(lo, sizeof(lo), "%.1f", vd->promised_low_pct);
	snprintf(hi, sizeof(hi), "%.1f", vd->promised_high_pct);
	strbuf_adds(sb, MINUS);
	if (strcmp(lo, hi))
		strbuf_addf(sb, "%s–", lo);
	strbuf_addf(sb, "%s%%", hi);
}

/* What the base report's estimates promised, next to the end-to-end
 * change measured: one row per finding that fired in the base with an
 * estimate. */
static void promises(struct model_ctx *c, struct tmpl_vars *v,
                     const struct comparison *cmp)
{
	const char *names[] = {"title", "promised", "measured", "base", "new"};
	const char *values[5];
	struct strbuf p = STRBUF_INIT, m = STRBUF_INIT, b = STRBUF_INIT,
	              n = STRBUF_INIT;
	size_t i;

	tmpl_define_loop(v, "promises");
	if (cmp->e2e_known) {
		add_signed1(&m, -cmp_saving_pct(cmp->e2e));
		strbuf_addch(&m, '%');
		numfmt_duration(&b, cmp->e2e.base);
		numfmt_duration(&n, cmp->e2e.new_);
	}
	for (i = 0; i < cmp->nverdicts; i++) {
		const struct cmp_verdict *vd = &cmp->verdicts[i];
		struct tmpl_vars *row;
		if (!vd->promised)
			continue;
		row = tmpl_add_row(v, "promises");
		strbuf_reset(&p);
		add_promise(&p, vd);
		values[0] = verdict_title(c, vd->id, 1);
		values[1] = p.buf;
		values[2] = m.buf;
		values[3] = b.buf;
		values[4] = n.buf;
		tmpl_set(row, "id", vd->id);
		tmpl_set(row, "promised", p.buf);
		tmpl_set(row, "measured", m.buf);
		tmpl_setf(row, "promised_low", "%.3f", vd->promised_low_pct);
		tmpl_setf(row, "promised_high", "%.3f", vd->promised_high_pct);
		model_set_msg(c, row, "text",
		              cmp->e2e_known ? "diff_promise"
		                             : "diff_promise_unmeasured",
		              names, values, 5);
	}
	strbuf_release(&p);
	strbuf_release(&m);
	strbuf_release(&b);
	strbuf_release(&n);
}

static void warnings(struct model_ctx *c, struct tmpl_vars *v,
                     const struct comparison *cmp)
{
	const char *names[] = {"1", "2"};
	size_t i;
	char key[96];

	tmpl_define_loop(v, "warnings");
	for (i = 0; i < cmp->nwarnings; i++) {
		const struct cmp_warning *w = &cmp->warnings[i];
		struct tmpl_vars *row = tmpl_add_row(v, "warnings");
		const char *values[2];
		values[0] = w->args[0] ? w->args[0] : "";
		values[1] = w->args[1] ? w->args[1] : "";
		tmpl_set(row, "code", w->code);
		/* a variant of the message for per-step times, when it has one
		 */
		snprintf(key, sizeof(key), "diff_warn_%s_per_step", w->code);
		if (!cmp->per_step || !i18n_find(c->o->cat, key))
			snprintf(key, sizeof(key), "diff_warn_%s", w->code);
		if (i18n_find(c->o->cat, key))
			model_set_msg(c, row, "text", key, names, values, 2);
		else
			tmpl_set(row, "text", w->message);
	}
}

/* ---- kernel types -------------------------------------------------------- */

static void type_row(struct model_ctx *c, struct tmpl_vars *row,
                     const struct cmp_type *t, int u)
{
	tmpl_set(row, "type", t->type);
	tmpl_set(row, "stage", stage_names[t->stage]);
	tmpl_set(row, "stage_label",
	         model_tk(c, "stage_", stage_names[t->stage]));
	tmpl_set(row, "cat", category_names[t->cat]);
	tmpl_set(row, "cat_label", model_tk(c, "cat_", category_names[t->cat]));
	tmpl_set(row, "status", type_status_names[t->status]);
	tmpl_set(row, "status_label",
	         t->status == TS_BOTH ? ""
	                              : model_tk(c, "diff_status_",
	                                         type_status_names[t->status]));
	set_time(row, "", t->time, u, &c->sb);
	model_set_u64(row, "base_count", t->base_count);
	model_set_u64(row, "new_count", t->new_count);
}

static void type_list_row(struct model_ctx *c, struct tmpl_vars *row,
                          const struct cmp_type *t)
{
	int added = t->status == TS_ADDED;

	tmpl_set(row, "type", t->type);
	tmpl_set(row, "stage_label",
	         model_tk(c, "stage_", stage_names[t->stage]));
	tmpl_set(row, "cat", category_names[t->cat]);
	tmpl_set(row, "cat_label", model_tk(c, "cat_", category_names[t->cat]));
	model_set_ns(row, "ns", added ? t->time.new_ : t->time.base);
	model_set_u64(row, "count", added ? t->new_count : t->base_count);
}

/* "… and N more" when n names were left out, else "". */
static void set_more(struct model_ctx *c, struct tmpl_vars *v, const char *name,
                     size_t n)
{
	const char *names[] = {"n"};
	const char *values[1];
	char num[32];

	snprintf(num, sizeof(num), "%zu", n);
	values[0] = num;
	if (n)
		model_set_msg(c, v, name, "diff_types_more", names, values, 1);
	else
		tmpl_set(v, name, "");
}

/* One table of the types whose time moved in direction sign (+1: took
 * more time, -1: less), the DIFF_TOP_TYPES largest; the comparison lists
 * types by |delta|, largest first, so they are the first of that sign. */
static void type_table(struct model_ctx *c, struct tmpl_vars *v,
                       const struct comparison *cmp, int sign)
{
	struct tmpl_vars *tab = tmpl_add_row(v, "type_tables");
	size_t i, n = 0;
	int u = UNIT_OWN;

	tmpl_set(tab, "kind", sign > 0 ? "gained" : "lost");
	tmpl_set(
	    tab, "heading",
	    model_t(c, sign > 0 ? "diff_types_gained" : "diff_types_lost"));
	tmpl_set(tab, "types", ""); /* "" when no row follows: false */
	for (i = 0; i < cmp->ntypes && n < DIFF_TOP_TYPES; i++) {
		const struct cmp_type *t = &cmp->types[i];
		int64_t d = checked_sub_sat(t->time.new_, t->time.base);
		if ((sign > 0 && d > 0) || (sign < 0 && d < 0)) {
			/* the first is the largest: the column's unit */
			if (u == UNIT_OWN)
				u = delta_unit(&t->time, 1);
			type_row(c, tmpl_add_row(tab, "types"), t, u);
			n++;
		}
	}
}

static void types(struct model_ctx *c, struct tmpl_vars *v,
                  const struct comparison *cmp)
{
	size_t i, na = 0, nr = 0;
	const char *names[] = {"n"};
	const char *values[1];
	char num[16];

	snprintf(num, sizeof(num), "%d", DIFF_TOP_TYPES);
	values[0] = num;
	model_set_msg(c, v, "types_intro", "diff_types_intro", names, values,
	              1);
	type_table(c, v, cmp, 1);
	type_table(c, v, cmp, -1);
	for (i = 0; i < cmp->ntypes; i++) {
		const struct cmp_type *t = &cmp->types[i];
		if (t->status == TS_ADDED && na++ < DIFF_LIST_MAX)
			type_list_row(c, tmpl_add_row(v, "added"), t);
		else if (t->status == TS_REMOVED && nr++ < DIFF_LIST_MAX)
			type_list_row(c, tmpl_add_row(v, "removed"), t);
	}
	set_more(c, v, "added_more",
	         na > DIFF_LIST_MAX ? na - DIFF_LIST_MAX : 0);
	set_more(c, v, "removed_more",
	         nr > DIFF_LIST_MAX ? nr - DIFF_LIST_MAX : 0);
}

/* ---- waterfall ----------------------------------------------------------- */

/* One waterfall step from *at by delta: a row with its label, stage,
 * colour class and the running time before and after it. */
static void wf_row(struct model_ctx *c, struct tmpl_vars *v, const char *label,
                   const char *stage, const char *css, int64_t *at,
                   int64_t delta)
{
	struct tmpl_vars *row = tmpl_add_row(v, "waterfall");

	tmpl_set(row, "label", label);
	tmpl_set(row, "stage_label", stage);
	tmpl_set(row, "css", css);
	tmpl_set(row, "total", *css == 'w' ? "1" : "");
	model_set_ns(row, "from_ns", *css == 'w' ? 0 : *at);
	checked_accumulate(at, delta);
	model_set_ns(row, "to_ns", *at);
	model_set_ns(row, "delta_ns", delta);
	strbuf_reset(&c->sb);
	if (*css == 'w')
		numfmt_duration(&c->sb, *at);
	else
		diff_add_delta(&c->sb, delta);
	tmpl_set(row, "value", c->sb.buf);
}

/* Base kernel time, the DIFF_WATERFALL types that moved most (cmp->types
 * is by |delta|, largest first), the rest as one step, and new kernel
 * time: loop "waterfall" and the scale wf_lo_ns..wf_hi_ns that shows the
 * steps (from a 1-2-5 tick below the lowest running time). */
static void waterfall(struct model_ctx *c, struct tmpl_vars *v,
                      const struct comparison *cmp)
{
	int64_t base = 0, new_ = 0, at, lo, hi, step, span;
	size_t i,
	    n = cmp->ntypes < DIFF_WATERFALL ? cmp->ntypes : DIFF_WATERFALL;
	char css[16];

	tmpl_define_loop(v, "waterfall");
	/* a sum past int64 (forged report.json times: 9e12 us each is
	 * allowed, a few thousand of them are not a run) draws nothing: no
	 * scale holds it */
	for (i = 0; i < cmp->ntypes; i++)
		if (checked_add(base, cmp->types[i].time.base, &base) ||
		    checked_add(new_, cmp->types[i].time.new_, &new_))
			return;
	lo = hi = base;
	if (!n || base <= 0 || new_ <= 0)
		return;
	at = 0;
	wf_row(c, v, model_t(c, "diff_tag_base"), "", "wf-total", &at, base);
	for (i = 0; i < n; i++) {
		const struct cmp_type *t = &cmp->types[i];
		snprintf(css, sizeof(css), "c-%s", category_names[t->cat]);
		wf_row(c, v, t->type,
		       model_tk(c, "stage_", stage_names[t->stage]), css, &at,
		       checked_sub_sat(t->time.new_, t->time.base));
		lo = at < lo ? at : lo;
		hi = at > hi ? at : hi;
	}
	if (new_ != at)
		wf_row(c, v, model_t(c, "diff_waterfall_rest"), "", "c-Other",
		       &at, checked_sub_sat(new_, at));
	lo = new_ < lo ? new_ : lo;
	hi = new_ > hi ? new_ : hi;
	at = 0;
	wf_row(c, v, model_t(c, "diff_tag_new"), "", "wf-total", &at, new_);
	/* the steps are small beside the totals: start the scale one span
	 * of the steps below the lowest point, at a tick */
	span = checked_sub_sat(hi, lo);
	step = svg_tick_step(span > 0 ? checked_add_sat(span, span) : hi, 8);
	lo = checked_sub_sat(lo, span) < 0
	         ? 0
	         : checked_sub_sat(lo, span) / step * step;
	model_set_ns(v, "wf_lo_ns", lo);
	model_set_ns(v, "wf_hi_ns", hi);
}

/* ---- ranks, method ------------------------------------------------------- */

static void rank_row(struct model_ctx *c, struct tmpl_vars *row,
                     const struct cmp_rank *r)
{
	tmpl_setf(row, "id", "%" PRId32, r->id);
	set_time(row, "dit_kernel", r->dit_kernel, UNIT_OWN, &c->sb);
	set_time(row, "dit_wall", r->dit_wall, UNIT_OWN, &c->sb);
	set_time(row, "dit_exposed", r->dit_exposed, UNIT_OWN, &c->sb);
	set_time(row, "dit_compute", r->dit_compute, UNIT_OWN, &c->sb);
	/* comm_wait left unset without communication.json: the reports
	 * show "–" */
	tmpl_set(row, "has_wait", "");
	if (r->comm_wait.base >= 0 && r->comm_wait.new_ >= 0) {
		set_time(row, "comm_wait", r->comm_wait, UNIT_OWN, &c->sb);
		tmpl_set(row, "has_wait", "1");
	}
}

static void ranks(struct model_ctx *c, struct tmpl_vars *v,
                  const struct comparison *cmp)
{
	size_t i;
	int show = cmp->base_ranks > 1 && cmp->new_ranks > 1 && cmp->nranks;

	tmpl_set(v, "has_ranks", show ? "1" : "");
	tmpl_define_loop(v, "ranks");
	for (i = 0; show && i < cmp->nranks; i++)
		rank_row(c, tmpl_add_row(v, "ranks"), &cmp->ranks[i]);
}

static void method(struct model_ctx *c, struct tmpl_vars *v,
                   const struct comparison *cmp)
{
	const char *names[] = {"base", "new"};
	const char *values[2];
	char b[32], n[32];

	snprintf(b, sizeof(b), "%zu", cmp->base_steps);
	snprintf(n, sizeof(n), "%zu", cmp->new_steps);
	values[0] = b;
	values[1] = n;
	model_set_msg(c, v, "method_steps",
	              cmp->per_step ? "diff_method_per_step"
	                            : "diff_method_totals",
	              names, values, 2);
}

struct tmpl_vars *diff_model_build(const struct comparison *cmp,
                                   const struct model_opts *o)
{
	struct model_ctx c = {NULL, o, STRBUF_INIT};
	struct tmpl_vars *v = tmpl_vars_new();

	header(&c, v, cmp);
	summary(&c, v, cmp);
	verdicts(&c, v, cmp);
	promises(&c, v, cmp);
	warnings(&c, v, cmp);
	stages(&c, v, cmp);
	chart(&c, v);
	types(&c, v, cmp);
	waterfall(&c, v, cmp);
	diff_waterfall_svg(&c, v, &c.sb);
	tmpl_set(v, "waterfall_chart", c.sb.buf);
	ranks(&c, v, cmp);
	method(&c, v, cmp);
	strbuf_release(&c.sb);
	return v;
}
