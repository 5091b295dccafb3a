/* libFuzzer target: the branding config file (issue 23). Its bytes are
 * read as a config file named "cfg/sdperf.json": any input is applied or
 * refused with a message naming the file, never a crash; an applied one
 * leaves only valid UTF-8 texts without control characters, at most
 * BRAND_TEXT_MAX bytes, and a logo path under the file's folder unless
 * it was absolute. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/brand.h"
#include "app/cli.h"
#include "util/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s)
{
	size_t n, i;

	if (!s)
		return;
	n = strlen(s);
	if (n > BRAND_TEXT_MAX || !utf8_is_valid(s, n))
		abort();
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options o;
	struct err e = ERR_INIT;

	memset(&o, 0, sizeof(o));
	if (size & 1) /* half the inputs with a command-line value that wins */
		o.ticket = "T-1";
	if (brand_config_text(&o, "cfg/sdperf.json", (const char *)data, size,
	                      &e) == 0) {
		check_text(o.org);
		check_text(o.customer);
		check_text(o.ticket);
		check_text(o.confidential);
		if (o.logo && o.logo[0] != '/' && strncmp(o.logo, "cfg/", 4))
			abort();
		if ((size & 1) && strcmp(o.ticket, "T-1"))
			abort();
	} else if (e.code != ERR_USAGE || !strstr(e.msg, "cfg/sdperf.json")) {
		abort();
	}
	cli_release(&o);
	return 0;
}
