/* The report's colours: one table read by every format that draws (the
 * HTML's report.css carries the same values as CSS variables; the palette
 * test checks both against each other and for colour-blind safety).
 *
 * Each meaning has its own colours: the operator categories, the stages,
 * the overlap parts (computing / exposed comm / free) and the verdict
 * states never share one. Categories and stages are chosen so that every
 * pair within a group stays at least 20 CIEDE2000 units apart under
 * simulated protanopia and deuteranopia (tests/unit/test_palette.c). */
#ifndef SDPERF_PALETTE_H
#define SDPERF_PALETTE_H

#include <stddef.h>

#include "core/vocab.h"

struct palette_colour {
	const char *name;  /* the vocabulary name: "MatMul", "dit", "fired" */
	unsigned long rgb; /* 0xRRGGBB */
};

/* In category_names order (core/vocab.h). */
extern const struct palette_colour palette_categories[CAT_COUNT];
/* In stage_names order. */
extern const struct palette_colour palette_stages[STAGE_COUNT];

enum { PAL_COMPUTING, PAL_NOT_OVERLAPPED, PAL_FREE, PAL_OVERLAP_COUNT };
/* "computing", "not_overlapped", "free" (steps and overlap charts). */
extern const struct palette_colour palette_overlap[PAL_OVERLAP_COUNT];

enum { PAL_FIRED, PAL_OK, PAL_NA, PAL_STATE_COUNT };
/* "fired", "ok", "na": verdict badges, faster/slower. */
extern const struct palette_colour palette_states[PAL_STATE_COUNT];

/* The colour named name in tab[0..n), or fallback when none is. */
unsigned long palette_find(const struct palette_colour *tab, size_t n,
                           const char *name, unsigned long fallback);

/* The colour of category cat ("FA", ...; unknown names: Other's) and of
 * stage id ("dit", ...; unknown ids: the "other" stage's). */
unsigned long palette_cat_rgb(const char *cat);
unsigned long palette_stage_rgb(const char *id);

#endif
