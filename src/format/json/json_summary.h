/* report.json's "summary" object (the executive summary, see
 * docs/report-schema.md), written by format/json/json.c. */
#ifndef SDPERF_JSON_SUMMARY_H
#define SDPERF_JSON_SUMMARY_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "summary" to root. */
void json_summary(cJSON *root, const struct result *r);

#endif
