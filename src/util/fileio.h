/* File helpers: directory creation, small reads, paths. Report sets are
 * written by util/outset.h. */
#ifndef SDPERF_FILEIO_H
#define SDPERF_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

/* mkdir -p; -1 with ERR_OUTPUT on failure. */
int fileio_mkdirs(const char *path, struct err *e);
/* Reads a whole small file (at most max bytes, else an ERR_INPUT error)
 * into sb. Used for rules files, config files, templates and logos, never
 * for profile data. Only a regular file is read: a FIFO, a device, a
 * socket or a directory is refused with ERR_INPUT "PATH: not a regular
 * file (a FIFO)", without blocking on the open. */
int fileio_read_small(const char *path, size_t max, struct strbuf *sb,
                      struct err *e);
/* Opens path read-only, never waiting on a FIFO: the descriptor (the
 * caller closes it) with *size its bytes, or -1 with ERR_INPUT "PATH:
 * cannot open: <reason>" or "PATH: not a regular file" (a directory, a
 * FIFO, a device). */
int fileio_open_regular(const char *path, int64_t *size, struct err *e);
/* 1 if path is a directory, 0 if a regular file, -1 (errno set) else. */
int fileio_kind(const char *path);
/* Size in bytes, or -1. */
int64_t fileio_size(const char *path);
/* Writes data to path all or nothing: into a new temporary file in the
 * same folder, flushed (fsync), then renamed over path, so a reader (or a
 * scheduler's re-run of the same task) sees the old file or the new one,
 * never a part. -1 with ERR_OUTPUT naming the file on failure (the
 * temporary file removed). */
int fileio_write_atomic(const char *path, const void *data, size_t len,
                        struct err *e);
/* Joins a and b with exactly one '/'. Caller frees. */
char *fileio_join(const char *a, const char *b);

#endif
