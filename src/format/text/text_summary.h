/* The executive summary at the top of the plain-text summary (ASCII). */
#ifndef SDPERF_TEXT_SUMMARY_H
#define SDPERF_TEXT_SUMMARY_H

#include "analysis/result.h"
#include "util/strbuf.h"

/* "summary:" and five lines: end-to-end time, stage split (numbers and
 * a 40-column bar), findings, the top action, trust. */
void text_summary(const struct result *r, struct strbuf *out);

#endif
