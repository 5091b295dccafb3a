/* commjson.h: communication.json (multi-card Level1): per step a
 * "step{N}" object, or with --comm-step-key step one "step" object for the
 * whole run (what profiles without step information hold). */
#ifndef GEN_COMMJSON_H
#define GEN_COMMJSON_H

#include "outbuf.h"
#include "rankctx.h"
#include "timeline.h"

/* One collective's (or a Total Op Info's) time split. The wait for peers
 * (kern.sync_wait) is in Wait and Synchronization Time. */
struct comm_times {
	int64_t elapse, transit, wait, sync, idle;
	double mb; /* bytes sent by this card, in MB */
};

/* A collective's split, the same for every file that reports it
 * (communication.json, the db's HCCL tasks): deterministic per kernel. */
struct comm_times commjson_split(const struct rankctx *rc, const struct kern *k,
                                 const struct tmpl *t);

/* Writer state: steps written and the running Total Op Info. */
struct commjson {
	int steps;
	struct comm_times tot;
};

void commjson_begin(struct commjson *cj, struct outbuf *ob,
                    const struct rankctx *rc);
void commjson_step(struct commjson *cj, struct outbuf *ob,
                   const struct rankctx *rc, const struct step *s);
void commjson_end(struct commjson *cj, struct outbuf *ob,
                  const struct rankctx *rc);

#endif
