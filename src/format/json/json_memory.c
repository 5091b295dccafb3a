/* report.json's device memory: the run's peaks, per stage, the card. */
#include "format/json/json_memory.h"

#include "analysis/memory.h"
#include "format/json/jsonw.h"
#include "util/banned.h"

#define MIB 1048576.0

static void mb(cJSON *o, const char *key, int64_t b)
{
	jsonw_add_fixed(o, key, (double)b / MIB, b >= 0);
}

static void peak_json(cJSON *o, const struct mem_peak *p)
{
	jsonw_add_u64(o, "samples", p->samples);
	mb(o, "peak_allocated_mb", p->allocated_b);
	mb(o, "peak_reserved_mb", p->reserved_b);
	mb(o, "peak_device_mb", p->device_b);
}

static void stages_json(cJSON *o, const struct mem_peak *st)
{
	cJSON *so = jsonw_add_object(o, "stages");
	int s;

	for (s = 0; s < STAGE_COUNT; s++)
		peak_json(jsonw_add_object(so, stage_names[s]), &st[s]);
}

/* The one source in set, "mixed" when several, NULL when none. */
static const char *one_source(unsigned set)
{
	int k, n = 0, one = MEMSRC_NONE;

	for (k = MEMSRC_NONE + 1; k < MEMSRC_COUNT; k++)
		if (set & 1u << k) {
			n++;
			one = k;
		}
	return n > 1 ? "mixed" : memory_source_names[one];
}

static const char *const basis_names[] = {NULL, "device", "framework_reserved",
                                          "framework_allocated"};

/* The one source of the ranks counted, "mixed" when there are several
 * (the db's two tables, or ranks that differ), null without samples;
 * every source, most preferred first; and the source of each of the two
 * figures. */
static void sources_json(cJSON *o, const struct memory_summary *ms)
{
	unsigned set = ms->sources;
	cJSON *a;
	int k;

	jsonw_add_str(o, "source", one_source(set));
	a = jsonw_add_array(o, "sources");
	for (k = MEMSRC_NONE + 1; k < MEMSRC_COUNT; k++)
		if (set & 1u << k)
			jsonw_add_str(a, NULL, memory_source_names[k]);
	jsonw_add_str(o, "framework_source", one_source(ms->framework_sources));
	jsonw_add_str(o, "device_source", one_source(ms->device_sources));
}

void json_memory(cJSON *root, const struct result *r)
{
	const struct memory_summary *ms = &r->memory;
	cJSON *o = jsonw_add_object(root, "memory");

	jsonw_add_bool(o, "known", ms->known);
	sources_json(o, ms);
	jsonw_add_u64(o, "ranks", ms->ranks);
	mb(o, "peak_mb", ms->known ? ms->peak_b : -1);
	jsonw_add_str(o, "peak_basis",
	              ms->known ? basis_names[ms->peak_basis] : NULL);
	jsonw_add_opt_i64(o, "peak_rank", ms->peak_rank, ms->known);
	if (ms->known) {
		peak_json(o, &ms->all);
		stages_json(o, ms->stage);
	}
	jsonw_add_str(o, "chip", ms->chip);
	jsonw_add_fixed(o, "card_memory_gb", ms->card_gb, ms->card_gb > 0);
	jsonw_add_str(o, "card_source", ms->card_source);
	jsonw_add_fixed(o, "peak_share_pct", ms->peak_share,
	                ms->peak_share >= 0);
}

void json_rank_memory(cJSON *o, const struct rank_result *rr)
{
	const struct rank_memory *m = &rr->mem;
	cJSON *mo;

	if (!m->read) {
		jsonw_add_null(o, "memory");
		return;
	}
	mo = jsonw_add_object(o, "memory");
	jsonw_add_str(mo, "source", memory_source_names[m->source]);
	jsonw_add_str(mo, "framework_source",
	              memory_source_names[m->framework_source]);
	jsonw_add_str(mo, "device_source",
	              memory_source_names[m->device_source]);
	jsonw_add_u64(mo, "bad_rows", m->bad);
	jsonw_add_u64(mo, "outside_stages", m->outside);
	peak_json(mo, &m->all);
	stages_json(mo, m->stage);
}
