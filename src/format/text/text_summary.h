/* The executive summary at the top of the plain-text summary (ASCII). */
#ifndef SDPERF_TEXT_SUMMARY_H
#define SDPERF_TEXT_SUMMARY_H

#include "analysis/result.h"
#include "util/strbuf.h"

/* "summary:" and five lines: end-to-end time, stage split (numbers and
 * a 40-column bar), findings, the top action, trust. */
void text_summary(const struct result *r, struct strbuf *out);

/* A finding's expected gain in one line of ASCII (the rules' assumption
 * and source sanitised as they are): "estimated gain: DiT 142.4 ms ->
 * 101.0-113.2 ms; end to end 301.0 ms -> 259.6-271.8 ms per step
 * (-9.7-13.8%)", then, when full, "; assuming ... (source: ...)". The
 * stage part is left out unless full. Nothing when g is NULL. */
void text_gain(const struct result *r, const struct gain *g, int full,
               struct strbuf *out);

/* A share as the reports write it (fmt=pct1): "12.3%", "30.0%", "0.04%"
 * when small (a significant digit kept), "0%" when exactly zero. */
void text_pct(struct strbuf *out, double v);

/* A stage as the terminal's tables name it: its report.json id ("dit",
 * "vae", ...), but the one stage of a profile that is not split named
 * for what it is ("training step", "LLM inference", "VAE alone", "whole
 * profile"), 13 characters at most. */
const char *text_stage_label(const struct result *r, int s);

#endif
