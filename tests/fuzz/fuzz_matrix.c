/* libFuzzer target: the communication_matrix.json reader must never crash,
 * hang or leak on any input; its links are within their caps. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/commmatrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commmatrix cm;
	struct err e = ERR_INIT;
	size_t i;

	if (commmatrix_read_mem("fuzz.json", data, size, &cm, &e) == 0) {
		if ((cm.nlinks && !cm.links) || e.code != ERR_NONE ||
		    cm.nlinks > COMMMATRIX_MAX_LINKS)
			abort();
		for (i = 0; i < cm.nlinks; i++)
			if (cm.links[i].src < 0 || cm.links[i].dst < 0 ||
			    cm.links[i].time_ns < 0 ||
			    !(cm.links[i].size_mb >= 0) ||
			    !memchr(cm.links[i].transport, 0,
			            sizeof(cm.links[i].transport)))
				abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	commmatrix_release(&cm);
	return 0;
}
