/* Device memory: each rank's samples, from its preferred source, mapped
 * onto the timeline's stages, the peaks, and the card's memory they are
 * measured against. */
#include "analysis/memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/db.h"
#include "input/discover.h"
#include "input/memrec.h"
#include "input/opmem.h"
#include "input/traceprof.h"
#include "util/banned.h"
#include "util/err.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char *const memory_source_names[MEMSRC_COUNT] = {
    NULL,
    "memory_record.csv",
    "db:MEMORY_RECORD",
    "db:NPU_MEM",
    "trace_view.json:NPU MEM",
    "operator_memory.csv",
    "npu_module_mem.csv"};

static void peak_init(struct mem_peak *p)
{
	p->allocated_b = p->reserved_b = p->device_b = -1;
	p->samples = 0;
}

static void max_into(int64_t *dst, int64_t v)
{
	if (v > *dst)
		*dst = v;
}

static void peak_add(struct mem_peak *p, const struct mem_sample *s)
{
	p->samples++;
	if (s->comp == MEMC_APP) {
		max_into(&p->device_b, s->reserved_b);
		return;
	}
	max_into(&p->allocated_b, s->allocated_b);
	max_into(&p->reserved_b, s->reserved_b);
}

/* Index of the segment holding ts, or -1. */
static long find_seg(const struct result *r, int64_t ts)
{
	size_t lo = 0, hi = r->nsegs;

	while (lo < hi) { /* the first segment starting after ts */
		size_t mid = lo + (hi - lo) / 2;
		if (r->segs[mid].start_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || r->segs[lo - 1].end_ns < ts)
		return -1;
	return (long)(lo - 1);
}

static void on_sample(const struct mem_sample *s, void *ctx)
{
	struct result *r = ctx;
	struct rank_memory *m = &r->ranks[0].mem;
	long k = find_seg(r, s->ts_ns);

	peak_add(&m->all, s);
	m->samples++;
	if (k < 0)
		m->outside++;
	else
		peak_add(&m->stage[r->segs[k].stage], s);
}

static void warn_bad(struct result *r, const char *path,
                     const struct memrec_info *in)
{
	struct warning *w;
	char *msg;

	msg =
	    xstrfmt("%s:%" PRIu64 ": %" PRIu64 " of %" PRIu64
	            " memory rows skipped; the first: %s",
	            path, in->first_bad_line, in->bad, in->rows, in->first_bad);
	w = result_warn(r, "memory_bad_rows", path, in->first_bad_line, msg);
	w->args[0] = xstrfmt("%" PRIu64, in->bad);
	w->args[1] = xstrfmt("%" PRIu64, in->rows);
	w->args[2] =
	    xstrfmt("line %" PRIu64 ": %s", in->first_bad_line, in->first_bad);
	free(msg);
}

/* Notes which figures source src gave a rank (call after reading it). */
static void mark_figures(struct rank_memory *m, int src)
{
	if (m->framework_source == MEMSRC_NONE &&
	    (m->all.reserved_b >= 0 || m->all.allocated_b >= 0))
		m->framework_source = src;
	if (m->device_source == MEMSRC_NONE && m->all.device_b >= 0)
		m->device_source = src;
}

static void rank_init(struct rank_memory *m)
{
	int s;

	memset(m, 0, sizeof(*m));
	peak_init(&m->all);
	for (s = 0; s < STAGE_COUNT; s++)
		peak_init(&m->stage[s]);
}

typedef int (*db_mem_fn)(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                         uint64_t *bad, struct err *e);

/* One table of the db (table: its name), its samples added to those of
 * the tables read before (more: 1 for the second); 1 when it gave
 * samples. */
static int read_db_table(struct db *db, db_mem_fn rd, const char *table,
                         int source, int more, struct result *r)
{
	struct rank_memory *m = &r->ranks[0].mem;
	struct rank_memory before = *m;
	struct err e = ERR_INIT;
	uint64_t rows, bad;
	struct warning *w;
	char *msg;

	if (!more)
		rank_init(m);
	if (rd(db, on_sample, r, &rows, &bad, &e)) {
		/* the other table's figures stay */
		*m = before;
		if (!more)
			memset(m, 0, sizeof(*m));
		w = result_warn(r, "memory_unreadable", db_about(db)->path, 0,
		                e.msg);
		w->args[0] = xstrdup(e.msg);
		return 0;
	}
	if (!m->read) {
		m->read = rows > 0;
		m->source = m->read ? source : MEMSRC_NONE;
	}
	m->bad += bad;
	mark_figures(m, source);
	if (bad) {
		msg = xstrfmt("%s: %s: %" PRIu64 " of %" PRIu64
		              " memory rows skipped (a negative or "
		              "non-integer value)",
		              db_about(db)->path, table, bad, rows);
		w = result_warn(r, "memory_bad_rows", db_about(db)->path, 0,
		                msg);
		w->args[0] = xstrfmt("%" PRIu64, bad);
		w->args[1] = xstrfmt("%" PRIu64, rows);
		w->args[2] = xstrdup(table);
		free(msg);
	}
	return m->samples > before.samples;
}

/* Both tables: MEMORY_RECORD is the framework's allocator, NPU_MEM the
 * device memory the process used (the driver's samples), the two figures
 * the text export's memory_record.csv gives in one file (PTA/GE rows and
 * APP rows). */
void memory_read_db(struct db *db, struct result *r)
{
	int got = read_db_table(db, db_read_memory, "MEMORY_RECORD",
	                        MEMSRC_DB_MEMORY_RECORD, 0, r);

	if (db_has(db, DBT_NPU_MEM))
		(void)read_db_table(db, db_read_npu_mem, "NPU_MEM",
		                    MEMSRC_DB_NPU_MEM, got, r);
}

typedef int (*csv_mem_fn)(const char *path, memrec_fn fn, void *ctx,
                          struct memrec_info *info, struct err *e);

static void read_csv(const char *path, csv_mem_fn rd, int source,
                     struct result *r)
{
	struct rank_memory *m = &r->ranks[0].mem;
	struct memrec_info in;
	struct err e = ERR_INIT;
	struct warning *w;

	rank_init(m);
	if (rd(path, on_sample, r, &in, &e)) {
		memset(m, 0, sizeof(*m));
		w = result_warn(r, "memory_unreadable", path, 0, e.msg);
		w->args[0] = xstrdup(e.msg);
		return;
	}
	m->read = 1;
	m->source = source;
	m->bad = in.bad;
	mark_figures(m, source);
	if (in.bad)
		warn_bad(r, path, &in);
}

void memory_read_rank(const char *path, struct result *r)
{
	read_csv(path, memrec_read, MEMSRC_MEMORY_RECORD, r);
}

void memory_read_opmem(const char *path, struct result *r)
{
	read_csv(path, opmem_read, MEMSRC_OPERATOR_MEMORY, r);
}

void memory_read_modmem(const char *path, struct result *r)
{
	read_csv(path, modmem_read, MEMSRC_NPU_MODULE_MEM, r);
}

static void warn_bad_counters(struct result *r, const char *path,
                              const struct traceprof *tp)
{
	uint64_t all = tp->mem_bad + tp->nmem;
	struct warning *w;
	char *msg;

	msg = xstrfmt("%s: byte %" PRIu64 ": %" PRIu64 " of %" PRIu64
	              " NPU MEM counters skipped; the first: %s",
	              path, tp->mem_first_bad_at, tp->mem_bad, all,
	              tp->mem_first_bad_why);
	w = result_warn(r, "memory_bad_rows", path, 0, msg);
	w->args[0] = xstrfmt("%" PRIu64, tp->mem_bad);
	w->args[1] = xstrfmt("%" PRIu64, all);
	w->args[2] = xstrfmt("byte %" PRIu64 ": %s", tp->mem_first_bad_at,
	                     tp->mem_first_bad_why);
	free(msg);
}

void memory_read_trace(const struct traceprof *tp, const char *path,
                       struct result *r)
{
	struct rank_memory *m = &r->ranks[0].mem;
	struct mem_sample s;
	size_t i;

	if (!tp->nmem && !tp->mem_bad)
		return; /* no NPU MEM counters: m is left as it was */
	rank_init(m);
	m->read = 1;
	m->source = MEMSRC_TRACE;
	m->bad = tp->mem_bad;
	for (i = 0; i < tp->nmem; i++) {
		s.comp = MEMC_APP;
		s.ts_ns = tp->mem[i].ts_ns;
		s.allocated_b = -1;
		s.reserved_b = tp->mem[i].bytes;
		on_sample(&s, r);
	}
	mark_figures(m, MEMSRC_TRACE);
	if (tp->mem_bad)
		warn_bad_counters(r, path, tp);
}

static int got_samples(const struct result *r)
{
	return r->ranks[0].mem.read && r->ranks[0].mem.samples > 0;
}

/* operator_memory.csv has the framework's figures only: the device's,
 * when npu_module_mem.csv is beside it, come from its APP module (the two
 * figures wherever the profile has them). */
static void add_device_figure(char *const files[], struct result *r)
{
	struct rank_memory *m = &r->ranks[0].mem, keep = *m;
	struct warning *w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	if (!files[DM_NPU_MODULE_MEM] || m->source != MEMSRC_OPERATOR_MEMORY ||
	    m->all.device_b >= 0)
		return;
	if (modmem_read(files[DM_NPU_MODULE_MEM], on_sample, r, &in, &e)) {
		*m = keep;
		w = result_warn(r, "memory_unreadable",
		                files[DM_NPU_MODULE_MEM], 0, e.msg);
		w->args[0] = xstrdup(e.msg);
		return;
	}
	m->bad += in.bad;
	mark_figures(m, MEMSRC_NPU_MODULE_MEM);
	if (in.bad)
		warn_bad(r, files[DM_NPU_MODULE_MEM], &in);
}

void memory_read_sources(char *const files[], const struct traceprof *tp,
                         const char *trace_path, struct result *r)
{
	memset(&r->ranks[0].mem, 0, sizeof(r->ranks[0].mem));
	if (files[DM_MEMORY_RECORD]) {
		memory_read_rank(files[DM_MEMORY_RECORD], r);
		if (got_samples(r))
			return;
	}
	if (tp) {
		memory_read_trace(tp, trace_path, r);
		if (got_samples(r))
			return;
	}
	if (files[DM_OPERATOR_MEMORY]) {
		memory_read_opmem(files[DM_OPERATOR_MEMORY], r);
		if (got_samples(r)) {
			add_device_figure(files, r);
			return;
		}
	}
	if (files[DM_NPU_MODULE_MEM])
		memory_read_modmem(files[DM_NPU_MODULE_MEM], r);
}

static void peak_max(struct mem_peak *d, const struct mem_peak *s)
{
	max_into(&d->allocated_b, s->allocated_b);
	max_into(&d->reserved_b, s->reserved_b);
	max_into(&d->device_b, s->device_b);
	d->samples += s->samples;
}

int memory_basis(const struct mem_peak *p)
{
	/* the device figure holds the framework's reserved and what the
	 * driver and runtime add; reserved is never below allocated */
	return p->device_b >= 0      ? MEMB_DEVICE
	       : p->reserved_b >= 0  ? MEMB_RESERVED
	       : p->allocated_b >= 0 ? MEMB_ALLOCATED
	                             : MEMB_NONE;
}

int64_t memory_top(const struct mem_peak *p)
{
	switch (memory_basis(p)) {
	case MEMB_DEVICE:
		return p->device_b;
	case MEMB_RESERVED:
		return p->reserved_b;
	case MEMB_ALLOCATED:
		return p->allocated_b;
	default:
		return -1;
	}
}

/* The peaks over the ranks, the lead's per stage. */
static void gather(struct result *r, struct memory_summary *ms)
{
	size_t i;
	int s;

	peak_init(&ms->all);
	for (s = 0; s < STAGE_COUNT; s++)
		peak_init(&ms->stage[s]);
	ms->peak_b = -1;
	ms->peak_rank = -1;
	for (i = 0; i < r->nranks; i++) {
		const struct rank_memory *m = &r->ranks[i].mem;
		int64_t top = memory_top(&m->all);
		if (!m->read || !m->samples)
			continue;
		ms->ranks++;
		ms->sources |= 1u << m->source;
		if (m->framework_source != MEMSRC_NONE)
			ms->framework_sources |= 1u << m->framework_source;
		if (m->device_source != MEMSRC_NONE) {
			ms->device_sources |= 1u << m->device_source;
			ms->sources |= 1u << m->device_source;
		}
		peak_max(&ms->all, &m->all);
		if (top > ms->peak_b) {
			ms->peak_b = top;
			ms->peak_rank = r->ranks[i].id;
			ms->peak_basis = memory_basis(&m->all);
		}
		if (i == r->lead)
			memcpy(ms->stage, m->stage, sizeof(ms->stage));
		if (!ms->chip && r->ranks[i].chip)
			ms->chip = xstrdup(r->ranks[i].chip);
	}
	ms->known = ms->ranks > 0 && ms->peak_b >= 0;
}

void memory_summarise(const struct rules *ru, struct result *r)
{
	struct memory_summary *ms = &r->memory;
	double chip_gb;
	size_t i;

	free(ms->chip);
	memset(ms, 0, sizeof(*ms));
	gather(r, ms);
	for (i = 0; !ms->chip && i < r->nranks; i++)
		if (r->ranks[i].chip)
			ms->chip = xstrdup(r->ranks[i].chip);
	chip_gb = rules_chip_memory(ru, ms->chip);
	if (ru->device_memory_gb > 0) {
		ms->card_gb = ru->device_memory_gb;
		ms->card_source = "option";
	} else if (chip_gb > 0) {
		ms->card_gb = chip_gb;
		ms->card_source = "chip";
	}
	ms->peak_share =
	    ms->known && ms->card_gb > 0
	        ? 100.0 * (double)ms->peak_b / (ms->card_gb * MEMORY_GB)
	        : -1;
}
