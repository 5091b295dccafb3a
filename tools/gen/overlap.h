/* overlap.h: a step's Overlap Analysis: computing, communication, exposed
 * communication and free intervals, as step_trace_time.csv defines them. */
#ifndef GEN_OVERLAP_H
#define GEN_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "timeline.h"

struct ivl {
	int64_t a, b; /* [a, b) in epoch ns */
};

struct ivlist {
	struct ivl *v;
	size_t n, cap;
};

struct overlap {
	struct ivlist comp;  /* union of non-comm kernels */
	struct ivlist comm;  /* union of comm kernels */
	struct ivlist commx; /* comm minus comp: "Not Overlapped" */
	struct ivlist freei; /* step span minus everything */
	int64_t t_comp, t_comm, t_commx, t_free;
};

/* Fill `ov` for step `s` (buffers are reused between calls). */
void overlap_compute(struct overlap *ov, const struct model *m,
                     const struct step *s);
void overlap_free(struct overlap *ov);

#endif
