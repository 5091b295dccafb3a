/* commjson.h: communication.json (multi-card Level1), one object per step. */
#ifndef GEN_COMMJSON_H
#define GEN_COMMJSON_H

#include "outbuf.h"
#include "rankctx.h"
#include "timeline.h"

void commjson_begin(struct outbuf *ob);
/* `first` is non-zero for the first step written. */
void commjson_step(struct outbuf *ob, const struct rankctx *rc,
                   const struct step *s, int first);
void commjson_end(struct outbuf *ob);

#endif
