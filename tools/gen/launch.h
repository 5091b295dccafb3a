/* launch.h: the host side of a step: when Python launched each device
 * kernel, and the record_function("text_encoder" / "transformer" / "vae")
 * ranges a user would wrap around the pipeline stages. */
#ifndef GEN_LAUNCH_H
#define GEN_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "opts.h"
#include "rng.h"
#include "timeline.h"

/* One stage range: consecutive kernels (in start order) of one stage. */
struct marker {
	int step;
	enum stage stage;
	int64_t host_start, host_end; /* the cpu_op range on the host */
	int64_t dev_start, dev_end;   /* first and last kernel START */
};

struct launch {
	struct rng rng;
	int64_t *host; /* host launch time of each kernel of the step */
	size_t cap;
	struct marker *mk; /* this step's ranges, in time order */
	size_t nmk, capmk;
};

/* Own PRNG stream per rank, so markers never change the other files. */
void launch_init(struct launch *l, const struct opts *o, int rank);
void launch_free(struct launch *l);

/* Fill l->host and l->mk for step `s` (kernels sorted by start). Launch
 * times strictly increase, each precedes its kernel's start by a lag that
 * varies per range and per kernel, and lies inside its range; ranges are
 * disjoint, in time order and inside the ProfilerStep. */
void launch_step(struct launch *l, const struct model *m, const struct step *s);

/* record_function name of a stage: "transformer" for the DiT. */
const char *launch_marker_name(enum stage st);

#endif
