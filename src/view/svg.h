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
 * device timeline), with the legend given as parts (value unused). */
void svg_timeline(struct strbuf *out, const char *title,
                  const struct svg_span *spans, size_t n, int64_t t0,
                  int64_t t1, const struct svg_part *legend, size_t nlegend);

/* Horizontal stacked bars, one per row, all on one scale (the largest
 * row total fills the width), each with its label on the left, and a
 * legend of the parts (label, css; value unused). values holds nrows rows
 * of nparts values (ns: each bar's tooltip gives its duration). */
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

#endif
