/* report.json's "iterations" object: the lead rank's denoising
 * iterations, their median, outliers and an active cache (see
 * docs/report-schema.md), written by json.c. */
#ifndef SDPERF_RENDER_JSON_ITERS_H
#define SDPERF_RENDER_JSON_ITERS_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "iterations" to root: always an object ("found": false when no
 * loop was split). */
void json_iters(cJSON *root, const struct result *r);

#endif
