/* The terminal summary's memory line (the peaks, where they come from). */
#include "format/text/text.h"

#include <inttypes.h>
#include <string.h>

#include "analysis/memory.h"
#include "format/text/text_summary.h"
#include "util/banned.h"

static void gb(struct strbuf *out, int64_t b)
{
	strbuf_addf(out, "%.2f GB", (double)b / MEMORY_GB);
}

static void card(const struct memory_summary *ms, struct strbuf *out)
{
	if (ms->card_gb <= 0) {
		strbuf_adds(out, "; card memory unknown (--device-memory GB)");
		return;
	}
	strbuf_addf(out, "; card %.3g GB (", ms->card_gb);
	if (!strcmp(ms->card_source, "chip"))
		strbuf_add_sanitized(out, ms->chip, strlen(ms->chip));
	else
		strbuf_adds(out, "--device-memory");
	strbuf_addf(out, "), peak %.1f%%", ms->peak_share);
}

/* "; from memory_record.csv" (the sources, most preferred first) */
static void from(const struct memory_summary *ms, struct strbuf *out)
{
	const char *sep = "; from ";
	int k;

	for (k = MEMSRC_NONE + 1; k < MEMSRC_COUNT; k++)
		if (ms->sources & 1u << k) {
			strbuf_adds(out, sep);
			strbuf_adds(out, memory_source_names[k]);
			sep = ", ";
		}
}

/* " (device, process; framework reserved 1.49 GB, allocated 1.16 GB)":
 * which figure the peak is, and the framework allocator's beside it. */
static void figures(const struct mem_peak *p, struct strbuf *out)
{
	const char *sep = "";

	strbuf_adds(out, p->device_b >= 0 ? " (device, process" : " (");
	if (p->device_b >= 0)
		sep = "; ";
	if (p->reserved_b >= 0) {
		strbuf_addf(out, "%sframework reserved ", sep);
		gb(out, p->reserved_b);
		sep = ", ";
	}
	if (p->allocated_b >= 0) {
		strbuf_addf(out, "%s%sallocated ", sep,
		            p->reserved_b >= 0 ? "" : "framework ");
		gb(out, p->allocated_b);
	}
	strbuf_addch(out, ')');
}

void render_text_memory(const struct result *r, struct strbuf *out)
{
	const struct memory_summary *ms = &r->memory;
	int s;

	if (!ms->known)
		return;
	strbuf_adds(out, "\nmemory: peak ");
	gb(out, ms->peak_b);
	if (r->nranks > 1)
		strbuf_addf(out, " (rank %d)", ms->peak_rank);
	figures(&ms->all, out);
	for (s = 0; s < STAGE_COUNT; s++) {
		if (memory_top(&ms->stage[s]) < 0)
			continue;
		strbuf_addf(out, ", %s ", text_stage_label(r, s));
		gb(out, memory_top(&ms->stage[s]));
	}
	card(ms, out);
	from(ms, out);
	strbuf_addch(out, '\n');
}
