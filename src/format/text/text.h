/* The plain-text summary printed on stdout: stage table and verdicts, laid
 * out for a terminal and a CI log alike (ASCII only, no colour). */
#ifndef SDPERF_RENDER_TEXT_H
#define SDPERF_RENDER_TEXT_H

#include "analysis/result.h"
#include "util/strbuf.h"

void render_text(const struct result *r, const char *tool_version,
                 struct strbuf *out);

/* The memory line: the peak device memory (its rank), per stage of the
 * lead rank, and the card's memory; nothing without memory samples
 * (text_memory.c). */
void render_text_memory(const struct result *r, struct strbuf *out);

/* The denoising iterations in one line, when a loop was split
 * (text_iters.c). */
void render_text_iters(const struct result *r, struct strbuf *out);

#endif
