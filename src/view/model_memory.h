/* The view model's memory section (internal to view/model.c): the peak
 * device memory over the run, per stage, and the card's memory.
 *
 * Variables set (numbers raw: GB with three decimals, percents with
 * three; texts from the catalogue or the profile, escaped by the
 * templates):
 *   has_memory ("1" when some rank has memory samples), memory_intro,
 *   memory_peak_gb, memory_peak_line (both figures: "Device memory used by the
 *   process: 2.07 GB at most ...; the framework's allocator ..."),
 *   memory_allocated_gb, memory_reserved_gb,
 *   memory_device_gb (empty when unknown), memory_card (one sentence: the
 *   card's memory and where it comes from, or that it is unknown),
 *   memory_share (empty when unknown);
 *   loop memory_stages (stages with samples): stage, stage_label, samples,
 *   allocated_gb, reserved_gb, device_gb (each empty when unknown). */
#ifndef SDPERF_MODEL_MEMORY_H
#define SDPERF_MODEL_MEMORY_H

#include "tmpl/template.h"
#include "view/model_ctx.h"

/* Sets every variable listed above into v. */
void model_memory(struct model_ctx *c, struct tmpl_vars *v);

#endif
