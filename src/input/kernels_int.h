/* kernel_details.csv reader, inside: the reader's state and the steps that
 * the whole-file read (kernels.c) and the read in chunks (kernels_split.c)
 * share. Not for other modules. */
#ifndef SDPERF_KERNELS_INT_H
#define SDPERF_KERNELS_INT_H

#include <pthread.h>
#include <stdint.h>

#include "input/csvread.h"
#include "input/plausible.h"
#include "input/profile.h"
#include "util/strbuf.h"

/* what one interned "Type\0Core" key costs: its text, the malloc header,
 * and its share of the table's arrays (string pointer, length, hash, two
 * hash slots), with room for their growth */
#define KEY_COST(len) ((uint64_t)(len) + 96)
/* libcsv trims unquoted TABs; for the first rows it is told to keep them,
 * so the TAB the profiler writes after Start Time can be seen and reported */
#define TAB_PROBE_ROWS 16

struct kernels_opts; /* input/kernels.h */

/* The plausibility reference shared by the shards of one file. */
struct kref {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state; /* 0: not yet; 1: set; -1: chunk 0 ended without */
	int has_ref;
	int64_t ref;
};

struct kreader {
	const struct kernels_opts *o;
	struct kernel_table *kt;
	struct kernels_info *info;
	struct err *e;
	struct csvread csv;
	uint64_t key_bytes; /* text of the interned keys */

	unsigned header_flags;
	unsigned char *colmap; /* a shard's is its header reader's */
	size_t nfields;        /* fields of the row that ended */

	/* the current row */
	struct strbuf kname, type, core, reason, key;
	const char *reason_code;    /* see struct row_warning */
	size_t reason_col;          /* column index of the reason */
	struct strbuf reason_value; /* the bad value, quoted */
	int64_t start, dur;
	int32_t step;
	int row_bad;

	struct plausible plaus; /* the file's plausible kernel times */

	/* A shard reads one chunk of the file on its own thread into its own
	 * table and warnings, merged later in file order. Shard 0 judges the
	 * plausibility of times as the whole-file read does and publishes
	 * the reference (the median start of the file's first kernels, all
	 * in chunk 0) in *ref; the others wait for it at their first kept
	 * row, then judge their rows alike. */
	int shard;
	struct kref *ref;
	int ref_pub; /* shard 0: publishes *ref */
	struct err shard_err;
};

/* The whole-file reader's options for csvread. */
void kreader_csv_opts(struct csvread_opts *co, const struct kernels_opts *o);

/* Prepares r to read name into kt and info. */
void kreader_init(struct kreader *r, const char *name,
                  const struct kernels_opts *o, const struct csvread_opts *co,
                  struct kernel_table *kt, struct kernels_info *info,
                  struct err *e);

/* Prepares shard r to read chunk k (k == 0: the first) of the file whose
 * header hdr read, into its own kt and info, sharing ref. */
void kreader_init_shard(struct kreader *r, const struct kreader *hdr, size_t k,
                        struct kernel_table *kt, struct kernels_info *info,
                        struct kref *ref);

/* Shard 0's chunk ended: a shard still waiting for the reference fails
 * (the file's first kernels lie beyond chunk 0: read it whole). */
void kreader_shard_done(struct csvread *c);

/* Releases what r holds (not kt or info). */
void kreader_release(struct kreader *r);

/* After the last row: the probe settled, the file checked as a whole,
 * info completed, the table cut to size; then r is released. 0 or -1. */
int kreader_finish(struct kreader *r);

/* Reads path in chunks on up to o->threads threads (input/csvsplit.h)
 * into the empty kt and info. Returns 0 or -1 as kernels_read does, with
 * the same result and error as the whole-file read; or 1 when the file
 * was not read that way (one thread, gzip, small, an ambiguous boundary,
 * or any error, which the whole-file read then words exactly): kt and
 * info are then as given. */
int kernels_read_split(const char *path, const struct kernels_opts *o,
                       struct kernel_table *kt, struct kernels_info *info,
                       struct err *e);

#endif
