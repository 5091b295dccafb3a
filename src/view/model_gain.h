/* The view of a finding's expected gain (analysis/gain.h), in the
 * catalogue's language; internal to the view model.
 *
 * Variables set on a verdict row by model_gain:
 *   gain ("1" when the finding has a gain line), gain_kind ("estimate",
 *   "none": no speed gain, "unknown": the profile does not measure the
 *   part), gain_text ("DiT 142.4 ms → 101.0–113.2 ms; end to end 301.0 ms
 *   → 259.6–271.8 ms per step (−9.7–13.8%)"), gain_note ("; assuming
 *   ..." or, for none, what it buys instead: each begins with its
 *   separator), gain_source, gain_saving_low and gain_saving_high
 *   (percent, "%.3f"; empty unless estimated). */
#ifndef SDPERF_MODEL_GAIN_H
#define SDPERF_MODEL_GAIN_H

#include "tmpl/template.h"
#include "util/strbuf.h"
#include "view/model_ctx.h"

void model_gain(struct model_ctx *c, struct tmpl_vars *row,
                const struct verdict *vd);

/* The end-to-end part of g's estimate ("301.0 ms → 259.6–271.8 ms per
 * step (−9.7–13.8%)"), or the no-gain text, appended to out (nothing when
 * g is NULL). */
void model_gain_short(struct model_ctx *c, const struct gain *g,
                      struct strbuf *out);

/* g's assumption in the catalogue's language (English unless zh). */
const char *model_gain_assumption(const struct model_ctx *c,
                                  const struct gain *g);

#endif
