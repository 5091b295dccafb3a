/* libFuzzer target: the step_trace_time.csv reader must never crash, hang
 * or leak on any input, and a row it keeps is consistent with the header. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input/steptrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steptrace st;
	struct err e = ERR_INIT;
	size_t i;

	if (steptrace_read_mem("fuzz.csv", data, size, &st, &e) == 0) {
		if (!st.era || (st.nrows && !st.rows) || e.code != ERR_NONE)
			abort();
		for (i = 0; i < st.nrows; i++)
			if ((!st.has_device && st.rows[i].device_id != -1) ||
			    (st.has_device && st.rows[i].device_id < 0) ||
			    (!st.has_preparing &&
			     st.rows[i].preparing_ns != -1))
				abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	steptrace_release(&st);
	return 0;
}
