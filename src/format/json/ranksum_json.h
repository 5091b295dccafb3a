/* A rank summary (analysis/ranksum.h) written as JSON: the one writer of
 * sdperf summarize's files, read back by input/sumread.h. The version
 * member "sdperf_summary" comes first (input/sumread.h sniffs it); the
 * rest is compact, and equal summaries give equal bytes. */
#ifndef SDPERF_RANKSUM_JSON_H
#define SDPERF_RANKSUM_JSON_H

#include "analysis/ranksum.h"
#include "util/err.h"
#include "util/strbuf.h"

/* Appends s as JSON, then a newline, to out: 0, or -1 with e set
 * (ERR_OUTPUT) when cJSON cannot print it (out of memory). */
int render_ranksum(const struct ranksum *s, struct strbuf *out, struct err *e);

#endif
