/* info.h: the rank folder's name and its profiler_info[_N].json. */
#ifndef GEN_INFO_H
#define GEN_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "rankctx.h"

/* "{host}_{pid}_{YYYYMMDDhhmmssmmm}_ascend_pt" for a profiler started at
 * epoch ns `start_ns` (UTC). Returns 0, or -1 if `len` is too small. */
int info_folder_name(char *out, size_t len, const struct rankctx *rc);

/* Write profiler_info JSON to `path`; `steps` were recorded and collection
 * ended at epoch ns `end_ns`. Returns 0, or -1 with errno set. */
int info_write(const char *path, const struct rankctx *rc, int steps,
               int64_t end_ns);

#endif
