/* The plain-text summary of sdperf diff printed on stdout. */
#ifndef SDPERF_RENDER_DIFF_TEXT_H
#define SDPERF_RENDER_DIFF_TEXT_H

#include "analysis/compare.h"
#include "util/strbuf.h"

/* Stage wall and kernel times base -> new with speedup, category shares
 * of the DiT, verdict changes, the kernel types that moved most, and the
 * shape warnings. ASCII only; names from the data have control characters
 * escaped. */
void render_diff_text(const struct comparison *c, struct strbuf *out);

#endif
