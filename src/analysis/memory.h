/* Device memory from memory_record.csv: peaks over the run, per stage of
 * the timeline and per rank, against the card's memory. */
#ifndef SDPERF_MEMORY_H
#define SDPERF_MEMORY_H

#include "analysis/result.h"
#include "analysis/rules.h"

/* Reads the rank's memory_record.csv at path into r->ranks[0].mem, each
 * sample placed in the stage of the segment of r->segs (this rank's
 * timeline, sorted by start) whose [start, end] holds its timestamp: the
 * file's Timestamp(us) is on the kernels' clock. The file is optional: a
 * file that cannot be used becomes a "memory_unreadable" warning and bad
 * rows a "memory_bad_rows" warning (naming the first: line, column,
 * value); neither fails the run. */
void memory_read_rank(const char *path, struct result *r);

/* The same from the db export's MEMORY_RECORD (when the db has one; its
 * rows are already in bytes and ns): bad rows are counted and one
 * "memory_bad_rows" warning says how many. */
struct db;
void memory_read_db(struct db *db, struct result *r);

/* Fills r->memory over the analysed ranks: the peaks (largest over the
 * ranks, the lead rank's per stage), the chip (the first rank that names
 * one), the card memory (--device-memory in ru, else ru's chip table) and
 * the peak's share of it. */
void memory_summarise(const struct rules *ru, struct result *r);

/* 1 << 30: the GB of card memory and of the report (GiB, as npu-smi's
 * 65536 MB for a 64 GB card). */
#define MEMORY_GB 1073741824.0

#endif
