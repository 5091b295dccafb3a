/* trace.h: trace_view.json (Chrome trace) written step by step: a bare
 * array, or with --trace-form object the array inside {"traceEvents": ...}
 * after and before other members. */
#ifndef GEN_TRACE_H
#define GEN_TRACE_H

#include "launch.h"
#include "outbuf.h"
#include "overlap.h"
#include "rankctx.h"

/* '[' (after the object's leading members) and the metadata events. */
void trace_begin(struct outbuf *ob, const struct rankctx *rc);
/* ProfilerStep, device kernels, HCCL ops and Overlap Analysis of a step;
 * with `l` (NULL: none) also its stage ranges and, if rc->o->flows, one
 * torch_to_npu flow per kernel: "s" on the Python thread at the launch,
 * "f" at the kernel's start on the thread of its X event (Ascend Hardware
 * stream 2, or HCCL thread 0 for collectives), id = its connection_id. */
void trace_step(struct outbuf *ob, const struct rankctx *rc,
                const struct step *s, const struct overlap *ov,
                const struct launch *l);
/* ']' and, for the object form, the members after it and '}'. */
void trace_end(struct outbuf *ob, const struct rankctx *rc);

#endif
