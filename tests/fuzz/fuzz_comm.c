/* libFuzzer target: the communication.json reader must never crash, hang or
 * leak on any input, and what it sums is self-consistent. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input/commjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commstats cs;
	struct err e = ERR_INIT;
	uint64_t n = 0;
	size_t k;

	if (commstats_read_mem("fuzz.json", data, size, &cs, &e) == 0) {
		for (k = 0; k < COLL_COUNT; k++) {
			double w = commstats_wait_ratio(&cs.coll[k]);
			n += cs.coll[k].count;
			if (!(w == w)) /* NaN */
				abort();
		}
		if (n != cs.ops || e.code != ERR_NONE)
			abort();
		for (k = 0; k < TR_COUNT; k++)
			if (cs.tr[k].ops > cs.ops)
				abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	commstats_release(&cs);
	return 0;
}
