/* report.json's "summary" object (the executive summary, see
 * docs/report-schema.md), written by format/json/json.c. */
#ifndef SDPERF_JSON_SUMMARY_H
#define SDPERF_JSON_SUMMARY_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "summary" to root. */
void json_summary(cJSON *root, const struct result *r);
/* Adds a finding's expected gain g as member key of o (null when g is
 * NULL): see docs/report-schema.md. */
void json_gain(cJSON *o, const char *key, const struct result *r,
               const struct gain *g);

#endif
