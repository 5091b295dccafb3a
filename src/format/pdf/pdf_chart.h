/* Charts for the PDF renderer: the category and stage colours, the stacked
 * category bar, the stage timeline strip and the verdict meter, drawn as
 * vector shapes on the current page of a pdf_doc. Internal to format/pdf
 * (it exposes libharu types through pdf_text.h).
 *
 * Each chart starts at d->y (taking a new page first when it does not fit)
 * and leaves d->y below what it drew. label is scratch for legend texts
 * (owned by the caller; its content is overwritten); fpct formats a percent
 * value for the legend shares. Errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_CHART_H
#define SDPERF_FORMAT_PDF_CHART_H

#include "format/pdf/pdf_text.h"
#include "tmpl/template.h"
#include "util/strbuf.h"

/* Colour 0xRRGGBB of a kernel category ("FA", "MatMul", ...; anything else
 * is grey) and of a stage id ("dit", "vae", ..., "other"). */
long pdf_chart_cat_rgb(const char *cat);
long pdf_chart_stage_rgb(const char *id);

/* A verdict state's shape, so that it does not rest on colour alone: a
 * triangle for "fired", a tick for "ok", a dash otherwise, in the
 * state's colour, in the 10 x 10 box whose top left is (x, top). */
void pdf_chart_state_mark(struct pdf_doc *d, float x, float top,
                          const char *state);

/* A time axis under d->y along [x, x + w] for lo..hi ns: a line and
 * 1-2-5 ticks labelled as the HTML's (view/svg.h). */
void pdf_chart_axis(struct pdf_doc *d, float x, float w, double lo, double hi,
                    struct strbuf *label);

/* A ranking: the first limit rows of loop, one bar each of value_key (ns)
 * in the colour of the row's "cat", its name_key on the left (cut to
 * fit) and its duration (fdur) after it, on one scale with a time axis. */
void pdf_chart_ranking(struct pdf_doc *d, const struct tmpl_vars *m,
                       const char *loop, const char *name_key,
                       const char *value_key, size_t limit,
                       struct strbuf *label, tmpl_fmt_fn fdur);

/* A 100% stacked bar of a stage's "categories" rows (at most 8: label,
 * time_ns, cat), with a legend giving each non-empty one's share. */
void pdf_chart_categories(struct pdf_doc *d, const struct tmpl_vars *st,
                          struct strbuf *label, tmpl_fmt_fn fpct);

/* The stage timeline of model m: its "timeline_rank" label (when not
 * empty), a strip with one span per row of its
 * "segments" loop, placed on [span_start_ns, span_end_ns], then a
 * legend of its "stages" (at most 8), then "segments_note". */
void pdf_chart_timeline(struct pdf_doc *d, const struct tmpl_vars *m,
                        struct strbuf *label, tmpl_fmt_fn fpct);

/* A verdict row r's value bar at x, w wide: a track, filled to "value" in
 * rgb, with a mark at "threshold" (both percents, clamped to 0..100). */
void pdf_chart_meter(struct pdf_doc *d, const struct tmpl_vars *r, float x,
                     float w, unsigned long rgb);

/* Horizontal stacked bars, one per row of loop `loop` of m, all on one
 * scale (the largest row total fills the width), each with the row's
 * "label" on the left, then a legend of the parts: part k of a row is its
 * variable keys[k] (ns), drawn in rgb[k], named names[k] (at most 8). */
void pdf_chart_bars(struct pdf_doc *d, const struct tmpl_vars *m,
                    const char *loop, const char *const *keys,
                    const char *const *names, const long *rgb, size_t nparts,
                    struct strbuf *label, tmpl_fmt_fn fpct);

#endif
