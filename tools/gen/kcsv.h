/* kcsv.h: kernel_details.csv in the five real header variants. */
#ifndef GEN_KCSV_H
#define GEN_KCSV_H

#include "outbuf.h"
#include "rankctx.h"
#include "timeline.h"

/* Header line of the variant in rc->o->variant. */
void kcsv_header(struct outbuf *ob, const struct rankctx *rc);

/* One row per kernel of the step, in the step's (start time) order. */
void kcsv_step(struct outbuf *ob, const struct rankctx *rc,
               const struct step *s);

#endif
