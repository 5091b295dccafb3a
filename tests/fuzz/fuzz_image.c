/* libFuzzer target: the logo's check from its bytes (util/imgcheck.h,
 * issue 23). Any input is accepted or refused with a reason, reading
 * nothing past its end (ASan); an accepted one is a PNG or JPEG by its
 * first bytes, within the size limits, with the decoded size that follows
 * from its header. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/imgcheck.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	struct img_info in;
	/* a copy of exactly size bytes, so ASan sees any read past it */
	unsigned char *copy = malloc(size ? size : 1);
	int r;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	r = img_check(copy, size, &in, &why);
	if (r == 0) {
		if (in.kind == IMG_NONE || in.kind != img_sniff(copy, size) ||
		    !in.width || !in.height || in.width > IMG_MAX_SIDE ||
		    in.height > IMG_MAX_SIDE ||
		    (uint64_t)in.width * in.height > IMG_MAX_PIXELS ||
		    in.decoded_bytes < (uint64_t)in.width * in.height ||
		    why.len)
			abort();
	} else if (r != -1 || !why.len) {
		abort();
	}
	strbuf_release(&why);
	free(copy);
	return 0;
}
