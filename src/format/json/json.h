/* report.json: the machine-readable result (schema in docs/report-schema.md).
 * It doubles as the golden file of the analysis tests. */
#ifndef SDPERF_RENDER_JSON_H
#define SDPERF_RENDER_JSON_H

#include "analysis/result.h"
#include "util/err.h"
#include "util/libversion.h"
#include "util/strbuf.h"

#define REPORT_SCHEMA_VERSION 1

/* Renders r as pretty-printed JSON (ending in a newline) into out: 0, or
 * -1 with e set (ERR_OUTPUT) when the text is too large for the JSON
 * writer (format/json/jsonw.h). */
int render_json(const struct result *r, const char *tool_version,
                struct strbuf *out, struct err *e);

/* cJSON's versions (sdperf --version). */
struct libversion json_cjson_version(void);

#endif
