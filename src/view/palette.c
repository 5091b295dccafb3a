/* The report palette. Sources: Okabe & Ito, "Color Universal Design"
 * (2008) and Paul Tol's qualitative schemes ("bright", "muted", "light";
 * https://personal.sron.nl/~pault/). The selection per group was checked
 * with CIEDE2000 under Machado et al. (2009) simulation: see
 * tests/unit/test_palette.c and the README's "Colours" section. */
#include "view/palette.h"

#include <string.h>

#include "util/banned.h"

/* Okabe-Ito vermillion, Tol muted indigo, Okabe-Ito sky blue, Okabe-Ito
 * yellow, Tol light mint, dark grey. */
const struct palette_colour palette_categories[CAT_COUNT] = {
    {"FA", 0xd55e00},     {"MatMul", 0x332288}, {"Conv", 0x56b4e9},
    {"Vector", 0xf0e442}, {"Comm", 0x44bb99},   {"Other", 0x555555}};

/* Tol muted purple, Tol muted green, Tol light pear, pale grey: no blue,
 * no orange, so a stage never looks like a category. */
const struct palette_colour palette_stages[STAGE_COUNT] = {
    {"dit", 0xaa4499},
    {"vae", 0x117733},
    {"text_encoder", 0xbbcc33},
    {"other", 0xdddddd}};

/* Tol bright blue, Tol muted wine, light grey. */
const struct palette_colour palette_overlap[PAL_OVERLAP_COUNT] = {
    {"computing", 0x4477aa}, {"not_overlapped", 0x882255}, {"free", 0xcccccc}};

/* Tol vibrant red against a deep teal blue: red/green would collapse to
 * one olive under protanopia. White text is readable on both. */
const struct palette_colour palette_states[PAL_STATE_COUNT] = {
    {"fired", 0xcc3311}, {"ok", 0x006d8f}, {"na", 0x8a8f99}};

unsigned long palette_find(const struct palette_colour *tab, size_t n,
                           const char *name, unsigned long fallback)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name))
			return tab[i].rgb;
	return fallback;
}

unsigned long palette_cat_rgb(const char *cat)
{
	return palette_find(palette_categories, CAT_COUNT, cat,
	                    palette_categories[CAT_OTHER].rgb);
}

unsigned long palette_stage_rgb(const char *id)
{
	return palette_find(palette_stages, STAGE_COUNT, id,
	                    palette_stages[STAGE_OTHER].rgb);
}
