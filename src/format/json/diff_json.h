/* diff.json: the machine-readable comparison of sdperf diff (schema
 * "sdperf-diff/1", documented in docs/diff-schema.md). */
#ifndef SDPERF_RENDER_DIFF_JSON_H
#define SDPERF_RENDER_DIFF_JSON_H

#include "analysis/compare.h"
#include "util/strbuf.h"

/* Appends c as JSON to out (tool version `version`). Times are
 * microseconds with 3 decimals printed from integer ns, shares and
 * percentages 3 decimals, so equal comparisons give equal bytes. */
void render_diff_json(const struct comparison *c, const char *version,
                      struct strbuf *out);

#endif
