/* The denoising iterations section's variables (HTML, Markdown, PDF),
 * read from result.iters. */
#ifndef SDPERF_VIEW_MODEL_ITERS_H
#define SDPERF_VIEW_MODEL_ITERS_H

#include "tmpl/tmpl_vars.h"
#include "view/model_ctx.h"

/* Rows of the iterations table (the chart shows every listed one). */
#define MODEL_ITER_ROWS 100

/* Sets has_iters ("" when no loop was split), iters_intro, iters_loop,
 * iters_outliers, iters_cache, iters_chart (SVG markup: fmt="raw"),
 * iters_capped, and the loop "iters" (call, index, start_ms, dur_ns,
 * kernels, attention, matmul, blocks, mark, mark_label, sym, bar). */
void model_iters(struct model_ctx *c, struct tmpl_vars *v);

/* The cache's hit pattern as a catalogue message ("one full iteration
 * every 4"), into c->sb. */
const char *model_iters_pattern(struct model_ctx *c);

#endif
