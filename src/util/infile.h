/* Sequential reading of profile files, gzip-compressed or not: a file whose
 * bytes start with the gzip magic is inflated on the fly (zlib), any other
 * file is read as it is. Profile data is never held whole in memory: callers
 * read fixed-size chunks. */
#ifndef SDPERF_INFILE_H
#define SDPERF_INFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"
#include "util/libversion.h"
#include "util/strbuf.h"

struct infile {
	const char *path; /* as given to infile_open (not copied) */
	int64_t size;     /* bytes on disk */
	int gz;           /* 1 if the file is gzip-compressed */
	uint64_t offset;  /* uncompressed bytes delivered so far */
	void *impl;
};

/* Opens path for reading. -1 with an ERR_INPUT error naming the file when it
 * does not exist, is not a regular file or cannot be read. */
int infile_open(struct infile *f, const char *path, struct err *e);
/* Reads up to n bytes into buf: the count (0 at the end of the data), or -1
 * with an ERR_INPUT error naming the file and the uncompressed byte offset
 * (a corrupt or truncated gzip stream, an I/O error). */
ssize_t infile_read(struct infile *f, void *buf, size_t n, struct err *e);
/* 1 if the gzip stream ended early (truncated .gz): the data read so far is
 * valid, the rest is missing. Only meaningful after infile_read returned -1.
 */
int infile_truncated(const struct infile *f);
void infile_close(struct infile *f);

/* Reads the whole (uncompressed) file at path into out, for small profile
 * files. More than max bytes is an ERR_INPUT error: "PATH: larger than
 * N MiB uncompressed (the limit for WHAT)". f receives the file's size and
 * gz flag (it is closed on return). Returns 0 or -1. */
int infile_slurp(const char *path, size_t max, const char *what,
                 struct strbuf *out, struct infile *f, struct err *e);

/* Opens path, or path + ".gz" when path does not exist; returns the path
 * opened (caller frees) or NULL with the error of the plain path. */
char *infile_resolve(const char *path);

/* zlib's versions (sdperf --version). */
struct libversion infile_zlib_version(void);

#endif
