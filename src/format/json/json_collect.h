/* report.json's "collection" object (the collection check, see
 * docs/report-schema.md), written by render/json.c. Internal to the JSON
 * writer: it is the only other file that includes cJSON there. */
#ifndef SDPERF_RENDER_JSON_COLLECT_H
#define SDPERF_RENDER_JSON_COLLECT_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "collection" to root: null when the check did not run. */
void json_collection(cJSON *root, const struct result *r);

#endif
