/* libFuzzer target: the rules loader rejects bad rules files cleanly. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules r;
	struct err e = ERR_INIT;

	if (rules_load_text(&r, "fuzz.json", (const char *)data, size, &e) ==
	    0) {
		/* a loaded rule set must classify without trouble */
		(void)rules_classify(&r, "MatMulV3", "AI_CORE");
		(void)rules_signature(&r, "Conv2D");
		rules_release(&r);
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	return 0;
}
