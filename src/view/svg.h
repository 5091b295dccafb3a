/* Inline SVG charts for the HTML report: built here as markup, inserted
 * with fmt="raw". Every text that goes in is XML-escaped here. */
#ifndef SDPERF_SVG_H
#define SDPERF_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct svg_part {
	const char *label; /* legend text */
	const char *css;   /* class giving its colour, e.g. "c-FA" */
	int64_t value;     /* share of the whole is value / sum */
};

/* Every chart is followed by its legend as HTML text: a
 * <ul class="legend"> of items with a swatch (<span class="dot CSS">). */

/* The 1-2-5 step (1, 2, 5, 10, 20, ... ns) that cuts [0, span] into fewer
 * than max_ticks intervals; 1 when span <= 0. */
int64_t svg_tick_step(int64_t span, int max_ticks);

/* The first tick of an axis from lo: the first multiple of step at or
 * after lo (0 when lo <= 0), saturated rather than overflowing. */
int64_t svg_tick_first(int64_t lo, int64_t step);
/* Moves *t to the next tick: 1, or 0 when it would pass int64's end (*t
 * was the last tick). Every axis, SVG and PDF, walks its ticks so. */
int svg_tick_next(int64_t *t, int64_t step);

/* Tick t (a multiple of step) as an axis label: "0", "20 ms", "1,500 ms",
 * "2 s", in the largest unit (s, ms, µs, ns) not larger than step. */
void svg_tick_label(struct strbuf *out, int64_t t, int64_t step);

/* The height a time axis takes under a chart. */
#define SVG_AXIS_H 26
/* A time axis at y along [x, x + w] for times lo..hi ns (hi > lo): a base
 * line and 1-2-5 ticks with their labels (svg_tick_label). */
void svg_axis(struct strbuf *out, int x, int w, int y, int64_t lo, int64_t hi);
/* svg_axis with at most `ticks` ticks (a phone's narrow chart: fewer). */
void svg_axis_ticks(struct strbuf *out, int x, int w, int y, int64_t lo,
                    int64_t hi, int ticks);
/* The view box width of a chart drawn for a phone (class "narrow"; the
 * wide one, class "wide", is 960): a report's every chart is drawn both
 * ways, the style sheet showing one. */
#define SVG_NARROW_W 360

/* A 100% stacked horizontal bar with a legend (label and percent of each
 * part with a value); title is the accessible name. */
void svg_stacked_bar(struct strbuf *out, const char *title,
                     const struct svg_part *parts, size_t n);

struct svg_span {
	const char *label; /* tooltip text */
	const char *css;   /* class giving its colour, e.g. "s-dit" */
	int64_t start, end;
};

/* A strip of spans placed on [t0, t1] (e.g. stage segments along the
 * device timeline) over a time axis from t0, with the legend given as
 * parts (value unused). The strip is labelled inside the chart with
 * strip_label, above it ("Rank 0 (lead card)": whose timeline it is),
 * unless it is NULL or empty. */
void svg_timeline(struct strbuf *out, const char *title,
                  const char *strip_label, const struct svg_span *spans,
                  size_t n, int64_t t0, int64_t t1,
                  const struct svg_part *legend, size_t nlegend);

/* Horizontal stacked bars, one per row, all on one scale (the largest
 * row total fills the width), each with its label on the left, a time
 * axis under them, and a legend of the parts (label, css; value unused). values
 * holds nrows rows of nparts values (ns: each bar's tooltip gives its
 * duration). */
void svg_bars(struct strbuf *out, const char *title,
              const struct svg_part *parts, size_t nparts,
              const char *const *row_labels, const int64_t *values,
              size_t nrows);

/* Marker shapes of svg_points: told apart by shape as well as colour. */
enum svg_shape { SVG_CIRCLE, SVG_DIAMOND, SVG_SQUARE, SVG_TRIANGLE };

struct svg_point {
	int64_t x, y; /* ns: x from the axis' origin, y a duration */
	enum svg_shape shape;
	const char *css;   /* class giving its colour */
	const char *label; /* tooltip text */
};

/* A scatter of points on a time axis (x, in ms, ticks at 1-2-5 steps)
 * and a duration axis (y, in ms, from 0), each axis with its label, and
 * a legend of shapes (legend[i].label, .css; value unused) drawn with
 * shapes[i]. */
void svg_points(struct strbuf *out, const char *title,
                const struct svg_point *p, size_t n, const char *xlabel,
                const char *ylabel, const struct svg_part *legend_parts,
                const enum svg_shape *shapes, size_t nlegend);

/* s escaped as SVG text, cut to at most max bytes (max >= 4) at a UTF-8
 * character boundary with "…" when longer. */
void svg_cut_label(struct strbuf *out, const char *s, size_t max);

struct svg_hbar {
	const char
	    *label; /* row label, cut to fit with the whole in the tooltip */
	const char *css; /* class giving its colour, e.g. "c-MatMul" */
	int64_t value;   /* ns */
};

/* One horizontal bar per row (a ranking, largest first), all on one time
 * scale, each with its label on the left and its duration after it, a
 * time axis under them and a legend of parts (label, css; value unused). */
void svg_hbars(struct strbuf *out, const char *title,
               const struct svg_hbar *bars, size_t n,
               const struct svg_part *legend, size_t nlegend);

#endif
