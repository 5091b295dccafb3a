/* Files embedded into the binary at build time (see cmake/Embed.cmake). */
#ifndef SDPERF_EMBED_H
#define SDPERF_EMBED_H

#include <stddef.h>

struct embedded_file {
	const char
	    *path; /* relative to the source tree, e.g. "assets/rules.json" */
	const unsigned char *data; /* NUL-terminated for convenience */
	size_t len;
};

/* The table of assets (rules, later templates and CSS), ending with {0}. */
extern const struct embedded_file sdperf_assets[];

/* Finds an embedded file by path; NULL if absent. */
const struct embedded_file *embed_find(const char *path);

#endif
