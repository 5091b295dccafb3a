/* report.json's "branding" and "provenance": who the report is for and
 * how it was made (analysis/result.h's struct brand and provenance). */
#ifndef SDPERF_JSON_PROV_H
#define SDPERF_JSON_PROV_H

#include <cjson/cJSON.h>

#include "analysis/result.h"

/* Adds "branding" and "provenance" to root when r->prov is set (a
 * report; a result analysed for a diff has none):
 *   branding: org, customer, ticket, confidential (strings or null),
 *     logo: {type, bytes, sha256} or null;
 *   provenance: sdperf_version, build (null when unknown), command_line,
 *     rules {source, sha256}, inputs [{rank, file, path, bytes, sha256}],
 *     captured ("YYYY-MM-DDThh:mm:ssZ"; without the Z when read from the
 *     folder's name, whose clock's zone is unknown; or null),
 *     captured_from ("profiler_info", "folder", null), generated (UTC),
 *     generated_from ("SOURCE_DATE_EPOCH" or "clock"). */
void json_provenance(cJSON *root, const struct result *r);

#endif
