/* One large CSV file read on several threads: the header is read first,
 * on the calling thread; the data rows are cut into chunks at line ends
 * and each chunk is parsed by its own parser (input/csvread) on its own
 * thread. A chunk boundary is trusted only when the chunk before it ended
 * exactly between two records; otherwise (a quoted field holding a newline
 * across it) the read is reported ambiguous and the caller reads the file
 * whole, on one thread. Plain files only: a gzip stream cannot be entered
 * in the middle. */
#ifndef SDPERF_CSVSPLIT_H
#define SDPERF_CSVSPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "input/csvread.h"

/* Smallest chunk worth a thread of its own. */
#define CSVSPLIT_MIN_CHUNK (1u << 20)

struct csvsplit {
	int fd;
	uint64_t size;        /* bytes on disk when opened */
	uint64_t hdr_lines;   /* physical lines up to the header row's end */
	size_t n;             /* chunks */
	uint64_t *off;        /* n + 1 offsets: chunk k is [off[k], off[k + 1]);
	                         the last one runs to the end of the file */
	uint64_t *first_line; /* n: lines before chunk k (after csvsplit_run)
	                       */
};

/* Opens the file hdr->name and reads its header with hdr (prepared with
 * csvread_init; its header callbacks run here). Returns the number of
 * chunks, 2 to want, the data rows are cut into; or 0 when the file is not
 * to be split: want < 2, it cannot be opened, it is gzip-compressed or
 * over hdr's byte limit, its rows are shorter than two chunks of
 * CSVSPLIT_MIN_CHUNK, or the header failed or did not end (the caller
 * then reads the file whole, with a fresh reader, and meets any error
 * there). Call csvsplit_close in every case. */
size_t csvsplit_open(struct csvsplit *sp, struct csvread *hdr, unsigned want);

/* Parses chunk k with chunks[k] (prepared with csvread_init_chunk from
 * the header's reader) on a thread of its own, chunk 0 on the calling
 * thread, which also draws the progress line. The last chunk is ended
 * with csvread_finish, the others with csvread_chunk_end; then done (if
 * not NULL) is called with it, on its thread. A chunk may wait for what
 * chunk 0 finds (chunk 0 never waits, and runs first if threads are
 * short). Returns 0 when
 * every chunk was read without failing and every boundary was exact
 * (sp->first_line is then set, and a chunk's line k is the file's line
 * first_line[k] + k); 1 when a boundary was ambiguous or the file changed
 * under the read; -1 when a chunk failed (its own error is in its reader).
 * The caller then discards the chunks' work and reads the file whole. */
int csvsplit_run(struct csvsplit *sp, struct csvread **chunks,
                 void (*done)(struct csvread *c));

void csvsplit_close(struct csvsplit *sp);

#endif
