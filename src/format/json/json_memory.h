/* report.json's "memory" object and ranks[].memory (device memory from
 * memory_record.csv, see docs/report-schema.md), written by json.c. */
#ifndef SDPERF_RENDER_JSON_MEMORY_H
#define SDPERF_RENDER_JSON_MEMORY_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "memory" to root: always an object ("known": false without
 * samples). */
void json_memory(cJSON *root, const struct result *r);

/* Adds "memory" to a rank's object: null when it has no
 * memory_record.csv read. */
void json_rank_memory(cJSON *o, const struct rank_result *rr);

#endif
