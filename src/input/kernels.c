/* kernel_details.csv reader. input/csvread does the CSV syntax, the
 * physical line numbers for messages and the caps; this file maps header
 * names to columns, parses times exactly, and decides per row: keep, or
 * skip with a reason. */
#include "input/kernels.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/csvread.h"
#include "input/kernels_int.h"
#include "input/plausible.h"
#include "util/decimal.h"
#include "util/numfmt.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_COLUMNS 4096

enum col {
	COL_IGNORE,
	COL_NAME,
	COL_TYPE,
	COL_CORE,
	COL_START,
	COL_DUR,
	COL_STEP,
	COL_DEVICE
};

static const struct {
	const char *header;
	enum col col;
} column_names[] = {
    {"Name", COL_NAME},
    {"Type", COL_TYPE},
    {"Accelerator Core", COL_CORE},
    {"Start Time(us)", COL_START},
    {"Duration(us)", COL_DUR},
    {"Step Id", COL_STEP}, /* also spelled "Step ID": matched ignoring case */
    {"Device_id", COL_DEVICE},
};

static const char *const required_columns[] = {"Name", "Start Time(us)",
                                               "Duration(us)"};

/* Header names that tell the variants apart (see FORMATS.md). */
enum {
	HAS_STEP = 1,
	HAS_DEVICE = 2,
	HAS_MODEL_ID = 4,
	HAS_BLOCK_NUM = 8,
	HAS_BLOCK_DIM = 16,
	HAS_PMU = 32,
	HAS_SHAPES = 64
};

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int kernels_parse_us(const char *s, size_t len, int64_t *ns)
{
	const char *end = s + len;

	while (s < end && is_blank((unsigned char)*s))
		s++;
	while (end > s && is_blank((unsigned char)end[-1]))
		end--;
	if (s < end && *s == '-') /* times and durations are never negative */
		return -1;
	return decimal_us_to_ns(s, (size_t)(end - s), ns);
}

static int parse_int(const char *s, size_t len, int64_t lo, int64_t hi,
                     int64_t *out)
{
	const char *end = s + len;
	int64_t v;

	while (s < end && is_blank((unsigned char)*s))
		s++;
	while (end > s && is_blank((unsigned char)end[-1]))
		end--;
	if (decimal_to_i64(s, (size_t)(end - s), &v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int is_na(const char *s, size_t len)
{
	while (len && is_blank((unsigned char)s[len - 1]))
		len--;
	while (len && is_blank((unsigned char)*s)) {
		s++;
		len--;
	}
	return len == 0 || (len == 3 && !memcmp(s, "N/A", 3));
}

static int all_digits(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* A helper kernel the profiler names after the kernel it clears memory
 * for: "Conv2DBackpropFilter6_MemSet", "NonZero_MemSet",
 * "aclnnMm_MatMulCommon_MemSet", and the atomic clears of older
 * generations, "atomic_memset-1_271": Level1 types every one of them
 * MemSet, so this does. */
static int memset_helper(const char *s, size_t n)
{
	static const char suffix[] = "_MemSet", atomic[] = "atomic_memset";
	size_t ls = sizeof(suffix) - 1, la = sizeof(atomic) - 1;

	return (n > ls && !memcmp(s + n - ls, suffix, ls)) ||
	       (n >= la && !memcmp(s, atomic, la));
}

size_t kernels_type_from_name(const char *name, size_t len, const char **start)
{
	const char *s = name, *us;
	size_t n = len;

	if (memset_helper(s, n)) {
		*start = "MemSet";
		return 6;
	}
	if (n > 5 && !strncmp(s, "aclnn", 5)) {
		/* aclnn<Api>_<Impl>_<KernelType>: the last part is the type */
		us = memchr(s, '_', n);
		if (us) {
			const char *last = s + n;
			while (last > s && last[-1] != '_')
				last--;
			if (last < s + n) {
				*start = last;
				return (size_t)(s + n - last);
			}
		}
		s += 5;
		n -= 5;
	}
	if (n > 6 && !strncmp(s, "trans_", 6)) {
		s += 6;
		n -= 6;
	}
	/* graph-mode and collective suffixes: MatMul_3, hcom_allReduce__586_0_1
	 */
	for (;;) {
		const char *p = s + n;
		while (p > s && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p == s + n || p == s || p[-1] != '_' || p - 1 == s)
			break;
		n = (size_t)(p - 1 - s);
	}
	/* old single-op names: Conv2D12, Cast16 (but keep version suffixes
	 * such as MatMulV3) */
	if (!memchr(s, '_', n)) {
		const char *p = s + n;
		while (p > s && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p > s && p < s + n && !all_digits(s, n))
			/* a version suffix keeps one digit: AxpyV2111 -> AxpyV2
			 */
			n = (size_t)(p - s) + (p[-1] == 'V');
	}
	if (n == 0) {
		s = name;
		n = len;
	}
	*start = s;
	return n;
}

size_t kernels_api_from_name(const char *name, size_t len, const char **start)
{
	const char *us;

	*start = name;
	if (len <= 5 || strncmp(name, "aclnn", 5))
		return 0;
	for (us = name + 5; us < name + len && *us != '_'; us++)
		if (!isalnum((unsigned char)*us))
			return 0; /* an API is a C identifier's letters */
	if (us == name + 5 || us + 1 >= name + len)
		return 0;
	return (size_t)(us - name);
}

void kernels_make_key(struct strbuf *key, const char *type, size_t tl,
                      const char *core, size_t cl, const char *name, size_t nl)
{
	const char *api;
	size_t al = name ? kernels_api_from_name(name, nl, &api) : 0;

	strbuf_reset(key);
	strbuf_add(key, type, tl);
	strbuf_addch(key, '\0');
	strbuf_add(key, core, cl);
	if (al) {
		strbuf_addch(key, '\0');
		strbuf_add(key, api, al);
	}
}

/* ---- messages ---------------------------------------------------------- */

static const char *colname(const struct kreader *r, size_t i)
{
	return csvread_colname(&r->csv, i);
}

/* Marks the current row bad with a reason naming column i and value;
 * code is the reason's stable name (see struct row_warning). */
static void row_fail(struct kreader *r, size_t i, const char *code,
                     const char *what, const char *v, size_t len)
{
	if (r->row_bad)
		return;
	r->row_bad = 1;
	r->reason_code = code;
	strbuf_reset(&r->reason);
	strbuf_addf(&r->reason, "column %zu '%s': %s: ", i + 1, colname(r, i),
	            what);
	strbuf_reset(&r->reason_value);
	strbuf_add_quoted_value(&r->reason_value, v, len, CSVREAD_QUOTE_MAX);
	strbuf_addbuf(&r->reason, &r->reason_value);
	r->reason_col = i;
}

/* Records the reader's (fatal) error: prefix, then the quoted value. */
static void fail(struct kreader *r, const char *prefix, const char *v,
                 size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, prefix);
	if (v)
		strbuf_add_quoted_value(&sb, v, len, CSVREAD_QUOTE_MAX);
	csvread_failf(&r->csv, "%s", sb.buf);
	strbuf_release(&sb);
}

/* ---- header ------------------------------------------------------------ */

/* PMU counter columns (ignored, but they tell the variant apart): with the
 * aic_/aiv_ prefixes of newer chips, or unprefixed on older ones. */
static int is_pmu_column(const char *s, size_t len)
{
	static const char *const marks[] = {
	    "aic_", "aiv_", "aicore_time", "_ratio", "total_cycles", "_bw("};
	char name[128];
	size_t k;

	if (len >= sizeof(name))
		return 0;
	memcpy(name, s, len);
	name[len] = '\0';
	for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++)
		if (strstr(name, marks[k]))
			return 1;
	return 0;
}

static void header_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct kreader *r = c->ctx;
	size_t k;
	enum col c_ = COL_IGNORE;

	for (k = 0; k < sizeof(column_names) / sizeof(column_names[0]); k++)
		if (strlen(column_names[k].header) == len &&
		    !strncasecmp(column_names[k].header, s, len))
			c_ = column_names[k].col;
	for (k = 0; c_ != COL_IGNORE && k < i; k++)
		if (r->colmap[k] == c_) {
			csvread_fail(c, i, "duplicate column", s, len);
			return;
		}
	if (len == 8 && !strncmp(s, "Model ID", 8))
		r->header_flags |= HAS_MODEL_ID;
	else if (len >= 9 && !strncmp(s + len - 9, "Block Num", 9))
		r->header_flags |= HAS_BLOCK_NUM;
	else if (len >= 9 && !strncmp(s + len - 9, "Block Dim", 9))
		r->header_flags |= HAS_BLOCK_DIM;
	else if (is_pmu_column(s, len))
		r->header_flags |= HAS_PMU;
	else if (len == 12 && !strncasecmp(s, "Input Shapes", 12))
		r->header_flags |= HAS_SHAPES;
	r->header_flags |= c_ == COL_STEP ? HAS_STEP : 0;
	r->header_flags |= c_ == COL_DEVICE ? HAS_DEVICE : 0;
	r->colmap = xrealloc(r->colmap, i + 1);
	r->colmap[i] = (unsigned char)c_;
}

static void set_variant(struct kreader *r)
{
	unsigned f = r->header_flags;
	struct strbuf sb = STRBUF_INIT;
	const char *era;

	r->info->level = (f & HAS_MODEL_ID) ? 1 : 0;
	r->info->pmu = (f & HAS_PMU) != 0;
	r->info->shapes = (f & HAS_SHAPES) != 0;
	if (f & HAS_BLOCK_NUM) {
		era = "2026-02+ header (Device_id, Block Num)";
		r->info->era = "2026-02";
	} else if (f & HAS_DEVICE) {
		era = "2025-06+ header (Device_id, Block Dim)";
		r->info->era = "2025-06";
	} else if (f & HAS_STEP) {
		era = "2024-2025 header (Step Id)";
		r->info->era = "2024";
	} else {
		era = "2023 header (no Step Id)";
		r->info->era = "2023";
	}
	strbuf_addf(&sb, "level%d, %s%s", r->info->level, era,
	            (f & HAS_PMU) ? ", PMU columns" : "");
	free(r->info->variant);
	r->info->variant = strbuf_detach(&sb, NULL);
}

static void header_done(struct csvread *c)
{
	struct kreader *r = c->ctx;
	size_t k, i;

	for (k = 0; k < sizeof(required_columns) / sizeof(*required_columns);
	     k++) {
		for (i = 0; i < c->ncols; i++)
			if (!strcasecmp(csvread_colname(c, i),
			                required_columns[k]))
				break;
		if (i == c->ncols) {
			csvread_fail_missing(c, required_columns[k],
			                     CSVREAD_QUOTE_MAX);
			break;
		}
	}
	set_variant(r);
	csvread_want(c, r->colmap);
}

/* ---- rows -------------------------------------------------------------- */

static void data_field(struct kreader *r, size_t i, const char *s, size_t len)
{
	int64_t v;

	switch (r->colmap[i]) {
	case COL_NAME:
		strbuf_reset(&r->kname);
		strbuf_add(&r->kname, s, len);
		break;
	case COL_TYPE:
		strbuf_reset(&r->type);
		strbuf_add(&r->type, s, len);
		break;
	case COL_CORE:
		strbuf_reset(&r->core);
		if (!is_na(s, len))
			strbuf_add(&r->core, s, len);
		break;
	case COL_START:
	case COL_DUR:
		if (is_na(s, len)) {
			row_fail(r, i, "no_value", "no value", s, len);
		} else if (kernels_parse_us(s, len, &v)) {
			row_fail(r, i, "not_a_number", "not a number", s, len);
		} else {
			if (r->colmap[i] == COL_START) {
				r->start = v;
				if (len && s[len - 1] == '\t')
					r->info->start_tab = 1;
			} else {
				r->dur = v;
			}
		}
		break;
	case COL_STEP:
		if (is_na(s, len))
			r->step = STEP_NONE;
		else if (parse_int(s, len, INT32_MIN + 1, INT32_MAX, &v))
			row_fail(r, i, "not_a_step", "not a step number", s,
			         len);
		else
			r->step = (int32_t)v;
		break;
	case COL_DEVICE:
		if (r->info->device_id < 0 && !is_na(s, len) &&
		    !parse_int(s, len, 0, INT32_MAX, &v))
			r->info->device_id = v;
		break;
	default:
		break;
	}
}

static void on_field(struct csvread *c, size_t i, const char *s, size_t len)
{
	struct kreader *r = c->ctx;

	if (!r->row_bad && r->colmap[i] != COL_IGNORE)
		data_field(r, i, s, len);
}

static size_t col_index(const struct kreader *r, enum col c)
{
	size_t i;
	for (i = 0; i < r->csv.ncols; i++)
		if (r->colmap[i] == c)
			return i;
	return 0;
}

/* A new key within the caps on distinct types and their text, and within
 * the memory budget: 0, or -1 with the reader failed. */
static int key_limits(struct kreader *r, const char *t, size_t tl)
{
	struct strbuf msg = STRBUF_INIT;
	const char *what = NULL;

	if (r->kt->keys.n >= KERNELS_MAX_TYPES)
		what = "more than " KERNELS_MAX_TYPES_TEXT " distinct kernel "
		       "types (Type and Accelerator Core pairs)";
	else if (r->key_bytes + r->key.len > KERNELS_MAX_KEY_BYTES)
		what = "more than " KERNELS_MAX_KEY_TEXT " of distinct "
		       "kernel type names";
	if (what) {
		strbuf_addf(&msg,
		            "%s:%" PRIu64 ": %s: not a profile sdperf can "
		            "summarise; the type that went over: ",
		            r->csv.name, r->csv.row_line, what);
		fail(r, msg.buf, t, tl);
	} else if (membudget_charge(KEY_COST(r->key.len))) {
		membudget_fail(r->e, KEY_COST(r->key.len),
		               "%s:%" PRIu64 ": kernel type names (%u types)",
		               r->csv.name, r->csv.row_line, r->kt->keys.n);
		r->csv.failed = 1;
	}
	strbuf_release(&msg);
	return r->csv.failed ? -1 : 0;
}

/* Builds the interned key "Type\0Core"; 0, or -1 when not valid text (the
 * row is skipped) or over a limit (r->csv.failed). */
static int make_key(struct kreader *r, uint32_t *key)
{
	const char *t = r->type.buf;
	size_t tl = r->type.len, bad;
	size_t ci = col_index(r, is_na(t, tl) ? COL_NAME : COL_TYPE);

	if (is_na(t, tl)) {
		tl = kernels_type_from_name(r->kname.buf, r->kname.len, &t);
		r->info->na_type++;
	}
	kernels_make_key(&r->key, t, tl, r->core.buf, r->core.len, r->kname.buf,
	                 r->kname.len);
	*key = strtab_find(&r->kt->keys, r->key.buf, r->key.len);
	if (*key != UINT32_MAX)
		return 0;
	if (!tl || !utf8_is_text(t, tl, &bad) ||
	    !utf8_is_text(r->core.buf, r->core.len, &bad)) {
		row_fail(r, ci, tl ? "not_text" : "empty",
		         tl ? "not valid UTF-8 text" : "empty", t, tl);
		return -1;
	}
	if (key_limits(r, t, tl))
		return -1;
	*key = strtab_intern(&r->kt->keys, r->key.buf, r->key.len);
	r->key_bytes += r->key.len;
	r->kt->charged += KEY_COST(r->key.len);
	return 0;
}

static void skip_row(struct kreader *r)
{
	struct kernels_info *in = r->info;
	struct strbuf msg = STRBUF_INIT;

	in->skipped++;
	if (r->o && r->o->strict) {
		strbuf_addf(&msg, "%s:%" PRIu64 ": %s (--strict)", r->csv.name,
		            r->csv.row_line, r->reason.buf);
		fail(r, msg.buf, NULL, 0);
		strbuf_release(&msg);
		return;
	}
	if (in->nwarn < KERNELS_MAX_WARNINGS) {
		in->warn =
		    xrealloc(in->warn, (in->nwarn + 1) * sizeof(*in->warn));
		struct row_warning *w = &in->warn[in->nwarn++];
		memset(w, 0, sizeof(*w));
		w->line = r->csv.row_line;
		w->reason = xstrdup(r->reason.buf);
		w->code = r->reason_code;
		if (!strcmp(w->code, "field_count")) {
			w->args[0] = xstrfmt("%zu", r->nfields);
			w->args[1] = xstrfmt("%zu", r->csv.ncols);
		} else {
			w->args[0] = xstrfmt("%zu", r->reason_col + 1);
			w->args[1] = xstrdup(colname(r, r->reason_col));
			w->args[2] = xstrdup(r->reason_value.buf);
		}
	}
}

/* Skips kernel k, whose time is implausible (which: see plausible_check),
 * as the row at its line. */
static void skip_implausible(void *ctx, const struct plausible_kernel *k,
                             int which)
{
	struct kreader *r = ctx;
	struct strbuf v = STRBUF_INIT;
	uint64_t row_line = r->csv.row_line;

	numfmt_us(&v, which == 1 ? k->start : k->dur);
	r->csv.row_line = k->line;
	r->row_bad = 0;
	row_fail(r, col_index(r, which == 1 ? COL_START : COL_DUR),
	         "implausible_time", plausible_why(which), v.buf, v.len);
	skip_row(r);
	r->csv.row_line = row_line;
	strbuf_release(&v);
}

/* The probed kernels, the last ones of kt, are judged. Without any, there
 * is nothing to judge by: n stays. */
static void settle_probe(struct kreader *r)
{
	size_t n = plausible_settle(&r->plaus, r->kt->v, skip_implausible, r);

	r->kt->n = r->plaus.has_ref ? n : r->kt->n;
}

/* Room for one more kernel (the table grows by an eighth, charged to the
 * memory budget first): 0, or -1 with the reader failed. */
static int table_grow(struct kreader *r)
{
	struct kernel_table *kt = r->kt;
	uint64_t cost;
	int rc = kernel_table_reserve(kt, &cost);

	if (rc == -1)
		membudget_fail(r->e, cost,
		               "%s:%" PRIu64
		               ": kernel table (%zu kernels read)",
		               r->csv.name, r->csv.row_line, kt->n);
	else if (rc == -2)
		err_set(r->e, ERR_INPUT,
		        "%s:%" PRIu64 ": more than %u kernels in one rank",
		        r->csv.name, r->csv.row_line, (unsigned)KERNELS_MAX);
	else if (rc)
		err_set(r->e, ERR_INPUT,
		        "%s:%" PRIu64 ": out of memory for the kernel table "
		        "(%zu kernels read): lower --max-memory",
		        r->csv.name, r->csv.row_line, kt->n);
	r->csv.failed |= rc != 0;
	return rc ? -1 : 0;
}

static void kref_publish(struct kref *f, int state, const struct plausible *p)
{
	pthread_mutex_lock(&f->mu);
	if (!f->state) {
		f->state = state;
		f->has_ref = p && p->has_ref;
		f->ref = p ? p->ref : 0;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
}

/* A shard after chunk 0 takes the file's reference before judging its
 * first row: 0, or -1 with the shard failed when chunk 0 had none. */
static int kref_wait(struct kreader *r)
{
	struct kref *f = r->ref;
	int state;

	pthread_mutex_lock(&f->mu);
	while (!f->state)
		pthread_cond_wait(&f->cv, &f->mu);
	state = f->state;
	r->plaus.ready = 1;
	r->plaus.has_ref = f->has_ref;
	r->plaus.ref = f->ref;
	pthread_mutex_unlock(&f->mu);
	if (state < 0)
		csvread_failf(&r->csv, "%s: no reference time in chunk 0",
		              r->csv.name);
	return state < 0 ? -1 : 0;
}

void kreader_shard_done(struct csvread *c)
{
	struct kreader *r = c->ctx;

	if (r->ref_pub)
		kref_publish(r->ref, -1, NULL);
}

static void keep_row(struct kreader *r)
{
	struct kernel_table *kt = r->kt;
	struct kernel *k;
	uint32_t key;
	int which;

	if (r->row_bad || make_key(r, &key)) {
		if (!r->csv.failed)
			skip_row(r);
		return;
	}
	if (r->start > INT64_MAX - r->dur) {
		row_fail(r, col_index(r, COL_DUR), "out_of_range",
		         "out of range", "start + duration", 16);
		skip_row(r);
		return;
	}
	if (r->ref && !r->ref_pub && !r->plaus.ready && kref_wait(r))
		return;
	if ((which = plausible_check(&r->plaus, r->start, r->dur))) {
		struct plausible_kernel pk = {r->start, r->dur,
		                              r->csv.row_line};
		skip_implausible(r, &pk, which);
		return;
	}
	if (kt->n == kt->alloc && table_grow(r))
		return;
	k = &kt->v[kt->n++];
	k->start_ns = r->start;
	k->dur_ns = r->dur;
	k->key = key;
	k->step = r->step;
	if (!r->plaus.ready && plausible_add(&r->plaus, r->start, r->dur,
	                                     r->csv.row_line, kt->n - 1)) {
		settle_probe(r);
		if (r->ref_pub)
			kref_publish(r->ref, 1, &r->plaus);
	}
}

static void on_row(struct csvread *c, size_t nfields)
{
	struct kreader *r = c->ctx;
	char what[96];

	r->info->rows++;
	r->nfields = nfields;
	if (nfields != c->ncols && !r->row_bad) {
		r->row_bad = 1;
		r->reason_code = "field_count";
		snprintf(what, sizeof(what),
		         "row has %zu fields, header has %zu", nfields,
		         c->ncols);
		strbuf_reset(&r->reason);
		strbuf_adds(&r->reason, what);
	}
	if (r->row_bad)
		skip_row(r);
	else
		keep_row(r);
	r->row_bad = 0;
	strbuf_reset(&r->kname);
	strbuf_reset(&r->type);
	strbuf_reset(&r->core);
	r->step = STEP_NONE;
}

/* ---- reading ----------------------------------------------------------- */

static const struct csvread_cb callbacks = {header_field, header_done, on_field,
                                            on_row};

static void reader_init_common(struct kreader *r, const struct kernels_opts *o,
                               struct kernel_table *kt,
                               struct kernels_info *info, struct err *e)
{
	uint32_t k;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->kt = kt;
	r->info = info;
	r->e = e;
	r->step = STEP_NONE;
	strbuf_init(&r->kname);
	strbuf_init(&r->type);
	strbuf_init(&r->core);
	strbuf_init(&r->reason);
	strbuf_init(&r->reason_value);
	strbuf_init(&r->key);
	plausible_init(&r->plaus);
	info->device_id = -1;
	for (k = 0; k < kt->keys.n; k++)
		r->key_bytes += kt->keys.lens[k];
}

void kreader_init(struct kreader *r, const char *name,
                  const struct kernels_opts *o, const struct csvread_opts *co,
                  struct kernel_table *kt, struct kernels_info *info,
                  struct err *e)
{
	reader_init_common(r, o, kt, info, e);
	if (!info->path)
		info->path = xstrdup(name);
	csvread_init(&r->csv, name, co, &callbacks, r, e);
}

void kreader_init_shard(struct kreader *r, const struct kreader *hdr, size_t k,
                        struct kernel_table *kt, struct kernels_info *info,
                        struct kref *ref)
{
	reader_init_common(r, hdr->o, kt, info, NULL);
	r->e = &r->shard_err;
	r->shard = 1;
	r->ref = ref;
	r->ref_pub = k == 0;
	r->colmap = hdr->colmap;
	csvread_init_chunk(&r->csv, &hdr->csv, k == 0, r, r->e);
}

void kreader_release(struct kreader *r)
{
	csvread_release(&r->csv);
	if (!r->shard)
		free(r->colmap);
	r->colmap = NULL;
	strbuf_release(&r->kname);
	strbuf_release(&r->type);
	strbuf_release(&r->core);
	strbuf_release(&r->reason);
	strbuf_release(&r->reason_value);
	strbuf_release(&r->key);
	plausible_release(&r->plaus);
}

/* The file as a whole: empty, no header, no rows, nothing usable. */
static void check_whole(struct kreader *r)
{
	struct csvread *c = &r->csv;

	if (c->line == 0)
		csvread_failf(c, "%s: empty file (no header, no rows)",
		              c->name);
	else if (c->in_header)
		csvread_failf(c, "%s: no header row (only blank lines)",
		              c->name);
	else if (r->info->rows == 0)
		csvread_failf(c, "%s:%" PRIu64 ": header only: no kernel rows",
		              c->name, c->line);
	else if (r->info->rows == r->info->skipped)
		csvread_failf(c,
		              "%s: no usable kernel rows: all %" PRIu64
		              " rows are malformed (first: line %" PRIu64
		              ": %s)",
		              c->name, r->info->rows, r->info->warn[0].line,
		              r->info->warn[0].reason);
}

int kreader_finish(struct kreader *r)
{
	int failed;

	csvread_finish(&r->csv);
	if (!r->csv.failed && !r->plaus.ready)
		settle_probe(r);
	if (!r->csv.failed)
		check_whole(r);
	r->info->lines = r->csv.line;
	r->info->bom = r->csv.bom;
	r->info->crlf = r->csv.crlf;
	r->info->size = r->csv.size;
	kernel_table_fit(r->kt);
	failed = r->csv.failed;
	kreader_release(r);
	return failed ? -1 : 0;
}

void kreader_csv_opts(struct csvread_opts *co, const struct kernels_opts *o)
{
	memset(co, 0, sizeof(*co));
	co->what = "kernel_details.csv";
	co->max_columns = MAX_COLUMNS;
	co->keep_tabs = TAB_PROBE_ROWS;
	co->progress = o && o->progress;
}

int kernels_read_mem(const char *name, const void *data, size_t len,
                     const struct kernels_opts *o, struct kernel_table *kt,
                     struct kernels_info *info, struct err *e)
{
	struct kreader r;
	struct csvread_opts co;

	kreader_csv_opts(&co, o);
	kreader_init(&r, name, o, &co, kt, info, e);
	info->chunks = 1;
	csvread_mem(&r.csv, data, len);
	return kreader_finish(&r);
}

int kernels_read(const char *path, const struct kernels_opts *o,
                 struct kernel_table *kt, struct kernels_info *info,
                 struct err *e)
{
	struct kreader r;
	struct csvread_opts co;
	int rc = kernels_read_split(path, o, kt, info, e);

	if (rc <= 0)
		return rc;
	kreader_csv_opts(&co, o);
	kreader_init(&r, path, o, &co, kt, info, e);
	info->chunks = 1;
	csvread_file(&r.csv);
	return kreader_finish(&r);
}
