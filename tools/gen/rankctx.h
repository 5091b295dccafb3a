/* rankctx.h: what every file writer needs to know about the rank it writes. */
#ifndef GEN_RANKCTX_H
#define GEN_RANKCTX_H

#include <stdint.h>

#include "model.h"
#include "opts.h"

struct rankctx {
	const struct opts *o;
	const struct model *m;
	int rank;
	int device;      /* Device_id column: one card per rank */
	const char *eol; /* "\r\n" as torch_npu writes, or "\n" with --lf */
	uint64_t
	    group_hash;   /* communicator id after '@' in communication.json */
	int host_pid;     /* the Python process */
	int64_t start_ns; /* profiler start (epoch ns) */
};

#endif
