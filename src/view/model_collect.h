/* The view model's collection check section (internal to view/model.c).
 *
 * Variables set (every text from the catalogue, the gap table or the
 * profile; the templates escape them, the code with fmt="mdcode" in
 * Markdown):
 *   collection ("1" when the check ran), coll_complete ("1": no gap);
 *   loop coll_ranks: id, export, level, cpu, steps, shapes, memory, aic
 *     (each a catalogue text: yes, no, unknown, "5 timed, 2 run before");
 *   coll_versions ("torch_npu 2.6.0, CANN 8.2.RC1", or unknown);
 *   loop coll_gaps: id, title, disables, ranks (" (ranks 0, 2)" when the gap
 *     is not on every analysed rank, else empty), fix (Python code);
 *   coll_snippet (the whole collection as Python code, with gaps only). */
#ifndef SDPERF_MODEL_COLLECT_H
#define SDPERF_MODEL_COLLECT_H

#include "tmpl/template.h"
#include "view/model_ctx.h"

void model_collection(struct model_ctx *c, struct tmpl_vars *v);

#endif
