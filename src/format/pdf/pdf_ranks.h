/* The single-run PDF report's multi-file, multi-rank sections, laid out
 * from the view model's variables (view/model_ranks.h): ranks,
 * collectives, Overlap Analysis, stage boundaries, steps, and the rank
 * inputs. Internal to format/pdf; errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_RANKS_H
#define SDPERF_FORMAT_PDF_RANKS_H

#include "format/pdf/pdf_layout.h"

/* The sections, each absent when the model has no data for it (as in
 * templates/report.html.tmpl). */
void pdf_ranks_section(struct pdf_ctx *c);
void pdf_cluster_sections(struct pdf_ctx *c); /* collectives, overlap,
                                               * stage boundaries */
void pdf_steps_section(struct pdf_ctx *c);
void pdf_rank_inputs(struct pdf_ctx *c); /* inside the Inputs section */

#endif
