/* File helpers: atomic report writes, directory creation, small reads. */
#ifndef SDPERF_FILEIO_H
#define SDPERF_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

/* Writes len bytes to path atomically: a temporary file in the same
 * directory is written, flushed to disk and renamed over path, so readers
 * see the old file or the whole new one, never half of it. On failure the
 * temporary is removed and -1 returned with an ERR_OUTPUT error. */
int fileio_write_atomic(const char *path, const void *data, size_t len,
                        struct err *e);
/* mkdir -p; -1 with ERR_OUTPUT on failure. */
int fileio_mkdirs(const char *path, struct err *e);
/* Reads a whole small file (at most max bytes, else an ERR_INPUT error)
 * into sb. Used for rules files, never for profile data. */
int fileio_read_small(const char *path, size_t max, struct strbuf *sb,
                      struct err *e);
/* 1 if path is a directory, 0 if a regular file, -1 (errno set) else. */
int fileio_kind(const char *path);
/* Size in bytes, or -1. */
int64_t fileio_size(const char *path);
/* Joins a and b with exactly one '/'. Caller frees. */
char *fileio_join(const char *a, const char *b);

#endif
