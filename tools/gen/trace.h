/* trace.h: trace_view.json (Chrome trace, bare array) written step by step. */
#ifndef GEN_TRACE_H
#define GEN_TRACE_H

#include "outbuf.h"
#include "overlap.h"
#include "rankctx.h"

/* '[' and the process/thread metadata events. */
void trace_begin(struct outbuf *ob, const struct rankctx *rc);
/* ProfilerStep, device kernels, HCCL ops and Overlap Analysis of a step. */
void trace_step(struct outbuf *ob, const struct rankctx *rc,
                const struct step *s, const struct overlap *ov);
/* ']' */
void trace_end(struct outbuf *ob);

#endif
