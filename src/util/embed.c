/* Lookup in the embedded asset table. */
#include "util/embed.h"

#include <string.h>

#include "util/banned.h"

const struct embedded_file *embed_find(const char *path)
{
	const struct embedded_file *f;
	for (f = sdperf_assets; f->path; f++)
		if (!strcmp(f->path, path))
			return f;
	return NULL;
}
