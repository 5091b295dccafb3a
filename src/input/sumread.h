/* A summary file read back into C structs (sdperf summarize's rank-N.json,
 * analysis/ranksum.h): a JSON object whose members a field table
 * (util/fieldtab.h) describes. Summaries are input like any profile file,
 * so the reader trusts nothing: the file's size is capped and charged to
 * the memory budget before it is parsed, every key of the table must be
 * there with a value of its kind and range, lists hold at most their
 * table's maximum, and each error is ERR_INPUT naming the file, the JSON
 * path of the value and quoting it: "rank-3.json: result.ranks.0.id: not
 * an integer from -1 to 2147483647, got '\"x\"'". */
#ifndef SDPERF_SUMREAD_H
#define SDPERF_SUMREAD_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/fieldtab.h"

/* What identifies a summary: its first member "sdperf_summary", a version
 * number, written first so that a file's first bytes tell its kind. */
#define SUMREAD_MAGIC "{\"sdperf_summary\":"

/* 1 when path is a regular file that begins with SUMREAD_MAGIC (blanks
 * before it allowed), else 0. */
int sumread_sniff(const char *path);

/* Reads path (at most max bytes) into base as table t describes its top
 * object, after checking that "sdperf_summary" is version: another
 * number is the error "PATH: a summary of format version N; this sdperf
 * reads version V: run sdperf summarize again with this sdperf". Strings
 * and lists are allocated (malloc); on error what was read stays in base
 * for the caller's release (counts set with their arrays, zeroed). 0, or
 * -1 with e set. */
int sumread_file(const char *path, size_t max, int version,
                 const struct ft_table *t, void *base, struct err *e);

/* The same from text[0..len) in memory (name in messages): the fuzz
 * target's and the unit tests' entry. */
int sumread_text(const char *name, const char *text, size_t len, int version,
                 const struct ft_table *t, void *base, struct err *e);

/* The bytes the strings (FT_STR) of base hold, as table t describes it,
 * lists and embedded structs included (with malloc's overhead): what a
 * summary read costs beyond its fixed size, for the memory budget. */
uint64_t sumread_str_bytes(const struct ft_table *t, const void *base);

#endif
