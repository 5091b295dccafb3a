/* libFuzzer target: the kernel_details.csv reader must never crash, hang or
 * leak on any input, and a kept kernel always has sane numbers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "input/kernels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct kernels_opts o = {0, 0, 1};
	struct err e = ERR_INIT;
	size_t i;

	kernel_table_init(&kt);
	o.strict = size > 0 && (data[0] & 1);
	if (kernels_read_mem("fuzz.csv", data, size, &o, &kt, &info, &e) == 0) {
		for (i = 0; i < kt.n; i++)
			if (kt.v[i].dur_ns < 0 || kt.v[i].start_ns < 0 ||
			    kt.v[i].key >= kt.keys.n)
				abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	kernels_info_release(&info);
	kernel_table_release(&kt);
	return 0;
}
