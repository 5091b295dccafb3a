/* A report set (report.json, .html, .md, .pdf, or the diff's) published
 * into one folder all or nothing. */
#ifndef SDPERF_OUTSET_H
#define SDPERF_OUTSET_H

#include <stddef.h>

#include "util/err.h"

struct outset;

/* The most files one set holds. */
#define OUTSET_MAX 8

/* The test hook: when this environment variable holds a number of
 * milliseconds (at most 10000), outset_add pauses that long after each
 * temporary file it writes, so that a test can signal or race a run in
 * the middle of writing a set. */
#define OUTSET_DELAY_ENV "SDPERF_TEST_WRITE_DELAY_MS"

/* Opens folder dir for a new set: creates it (mkdir -p) if missing, then
 * takes the folder's lock, the file dir/.sdperf.lock (flock; the file is
 * created if missing and never removed). When another run holds the lock,
 * a note goes to stderr (unless quiet) and the call waits for it, so runs
 * into one folder are serialised. From here until outset_free, SIGINT,
 * SIGTERM and SIGHUP remove the set's temporary files before the process
 * dies, and SIGXFSZ is ignored (a write past the file size limit fails
 * with EFBIG instead, an ordinary error). Only one set may be open at a
 * time. Returns 0 and *out, or -1 with an ERR_OUTPUT error naming dir. */
int outset_open(struct outset **out, const char *dir, int quiet, struct err *e);
/* The same, the note naming the folder shown instead of dir (a redacted
 * report's pseudonym of it). */
int outset_open_as(struct outset **out, const char *dir, const char *shown,
                   int quiet, struct err *e);

/* Writes data to a new temporary file in the folder, created with
 * O_EXCL|O_NOFOLLOW under an unpredictable name (".NAME.tmp.XXXXXXXXXX"),
 * and flushes it to disk (fsync). name, the file's final name, is a plain
 * file name. Nothing visible under name changes yet. -1 with an
 * ERR_OUTPUT error naming dir/name on failure (a full disk, no
 * permission). */
int outset_add(struct outset *s, const char *name, const void *data, size_t len,
               struct err *e);

/* Publishes the set: renames each temporary file over its final name, in
 * the order they were added, with the signals above held off until it is
 * done. Each previous file is swapped out (renameat2 RENAME_EXCHANGE) and
 * removed once all are in place. When a rename fails (a directory in the
 * way, an I/O error), the files already renamed are swapped back, so the
 * folder holds the previous set again, and -1 is returned with an
 * ERR_OUTPUT error naming the file; on a file system without
 * RENAME_EXCHANGE a previous file cannot be kept, and the error says which
 * files are then from this run. */
int outset_commit(struct outset *s, struct err *e);

/* Removes every temporary file still there, restores the signal
 * dispositions, releases the lock and frees s (NULL is allowed). */
void outset_free(struct outset *s);

#endif
