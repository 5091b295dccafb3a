/* steptrace.h: step_trace_time.csv, one row per step from the kernels. */
#ifndef GEN_STEPTRACE_H
#define GEN_STEPTRACE_H

#include "outbuf.h"
#include "overlap.h"
#include "rankctx.h"

void steptrace_header(struct outbuf *ob, const struct rankctx *rc);
void steptrace_row(struct outbuf *ob, const struct rankctx *rc,
                   const struct step *s, const struct overlap *ov);

#endif
