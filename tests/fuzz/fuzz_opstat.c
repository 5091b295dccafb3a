/* libFuzzer target: the op_statistic.csv reader must never crash, hang or
 * leak on any input; what it keeps is consistent (sums of its rows). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input/opstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct opstat os;
	struct err e = ERR_INIT;
	uint64_t count = 0;
	size_t i;

	if (opstat_read_mem("fuzz.csv", data, size, &os, &e) == 0) {
		if ((os.nrows && !os.rows) || e.code != ERR_NONE ||
		    os.nrows > OPSTAT_MAX_ROWS || os.total_ns < 0)
			abort();
		for (i = 0; i < os.nrows; i++) {
			if (!os.rows[i].type || !os.rows[i].core ||
			    os.rows[i].total_ns < 0)
				abort();
			count = count + os.rows[i].count < count
			            ? UINT64_MAX
			            : count + os.rows[i].count;
		}
		if (count != os.count)
			abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	opstat_release(&os);
	return 0;
}
