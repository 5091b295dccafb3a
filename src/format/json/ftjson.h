/* A struct written as a JSON object by its field table (util/fieldtab.h):
 * the writer half of the tables input/sumread.h reads. Exact both ways:
 * integers beyond 2^53 are written as decimal strings (a double would
 * round them), doubles with 17 significant digits (inf and nan as the
 * strings "inf", "-inf", "nan"). Equal structs give equal bytes. */
#ifndef SDPERF_FTJSON_H
#define SDPERF_FTJSON_H

#include <cjson/cJSON.h>

#include "util/fieldtab.h"

/* Adds base's members, as t describes them, to object o. */
void ftjson_add_members(cJSON *o, const struct ft_table *t, const void *base);

#endif
