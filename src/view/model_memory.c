/* The memory section's variables, read from result.memory. */
#include "view/model_memory.h"

#include <stdio.h>
#include <string.h>

#include "analysis/memory.h"
#include "util/strbuf.h"
#include "util/banned.h"

static void gb(struct tmpl_vars *v, const char *name, int64_t b)
{
	if (b < 0)
		tmpl_set(v, name, "");
	else
		tmpl_setf(v, name, "%.3f", (double)b / MEMORY_GB);
}

static void card(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct memory_summary *ms = &c->r->memory;
	const char *names[] = {"gb", "chip", "share"};
	const char *values[3];
	char g[32], share[32];

	if (ms->card_gb <= 0) {
		values[1] = ms->chip ? ms->chip : "";
		model_set_msg(c, v, "memory_card",
		              ms->chip ? "memory_card_unknown_chip"
		                       : "memory_card_unknown",
		              names + 1, values + 1, 1);
		tmpl_set(v, "memory_share", "");
		return;
	}
	snprintf(g, sizeof(g), "%g", ms->card_gb);
	snprintf(share, sizeof(share), "%.1f", ms->peak_share);
	values[0] = g;
	values[1] = ms->chip ? ms->chip : "";
	values[2] = share;
	model_set_msg(c, v, "memory_card",
	              strcmp(ms->card_source, "chip") ? "memory_card_option"
	                                              : "memory_card_chip",
	              names, values, 3);
	tmpl_setf(v, "memory_share", "%.3f", ms->peak_share);
}

static void stage_rows(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct memory_summary *ms = &c->r->memory;
	int s;

	tmpl_define_loop(v, "memory_stages");
	for (s = 0; s < STAGE_COUNT; s++) {
		const struct mem_peak *p = &ms->stage[s];
		struct tmpl_vars *row;
		if (!p->samples)
			continue;
		row = tmpl_add_row(v, "memory_stages");
		tmpl_set(row, "stage", stage_names[s]);
		tmpl_set(row, "stage_label", model_stage_label(c, s));
		model_set_u64(row, "samples", p->samples);
		gb(row, "allocated_gb", p->allocated_b);
		gb(row, "reserved_gb", p->reserved_b);
		gb(row, "device_gb", p->device_b);
	}
}

/* The sources the ranks' samples came from, most preferred first:
 * "memory_record.csv" or "operator_memory.csv, npu_module_mem.csv". */
static void sources(const struct memory_summary *ms, struct strbuf *out)
{
	int k;

	for (k = MEMSRC_NONE + 1; k < MEMSRC_COUNT; k++) {
		if (!(ms->sources & 1u << k))
			continue;
		if (out->len)
			strbuf_adds(out, ", ");
		strbuf_adds(out, memory_source_names[k]);
	}
}

/* The peak line: both figures, each named by what it measures (the
 * device memory the process used; the framework allocator's reserved and
 * allocated), or the one the profile has. */
static void peak_line(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct mem_peak *p = &c->r->memory.all;
	const char *names[] = {"device", "reserved", "allocated"};
	const char *values[3];
	char d[32], rs[32], al[32];
	int64_t fw = p->reserved_b >= 0 ? p->reserved_b : p->allocated_b;

	snprintf(d, sizeof(d), "%.2f", (double)p->device_b / MEMORY_GB);
	snprintf(rs, sizeof(rs), "%.2f", (double)fw / MEMORY_GB);
	if (p->allocated_b >= 0)
		snprintf(al, sizeof(al), "%.2f",
		         (double)p->allocated_b / MEMORY_GB);
	else
		snprintf(al, sizeof(al), "–");
	values[0] = d;
	values[1] = rs;
	values[2] = al;
	if (p->device_b >= 0 && fw >= 0)
		model_set_msg(c, v, "memory_peak_line", "memory_peak_both",
		              names, values, 3);
	else if (p->device_b >= 0)
		model_set_msg(c, v, "memory_peak_line", "memory_peak_device",
		              names, values, 1);
	else
		model_set_msg(c, v, "memory_peak_line", "memory_peak_framework",
		              names + 1, values + 1, 2);
}

void model_memory(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct memory_summary *ms = &c->r->memory;
	const char *names[] = {"rank", "source"};
	const char *values[2];
	char rank[24];
	struct strbuf src = STRBUF_INIT;

	tmpl_set(v, "has_memory", ms->known ? "1" : "");
	if (!ms->known)
		return;
	sources(ms, &src);
	snprintf(rank, sizeof(rank), "%d", ms->peak_rank);
	values[0] = rank;
	values[1] = src.buf;
	model_set_msg(c, v, "memory_intro",
	              c->r->nranks > 1 ? "sec_memory_intro_ranks"
	                               : "sec_memory_intro",
	              names, values, 2);
	strbuf_release(&src);
	gb(v, "memory_peak_gb", ms->peak_b);
	peak_line(c, v);
	gb(v, "memory_allocated_gb", ms->all.allocated_b);
	gb(v, "memory_reserved_gb", ms->all.reserved_b);
	gb(v, "memory_device_gb", ms->all.device_b);
	card(c, v);
	stage_rows(c, v);
}
