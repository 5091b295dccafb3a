/* Redaction (--redact): host names, user names, paths, IP addresses and
 * HCCL group names (and, on request, model-specific operator names)
 * replaced by deterministic pseudonyms, in the result and in any string
 * given later (a provenance block's command line, say).
 *
 * A redactor is a map from originals to pseudonyms. It is filled in a
 * fixed order (the PATHs in command-line order, the rank folders in rank
 * order, then whatever the strings hold, in the order they are rewritten),
 * and each class is numbered by first appearance in that order: the same
 * input always gives the same pseudonyms, whatever the thread timing.
 *
 *   class         pseudonym        found as
 *   hosts         host-1           the {host} of a rank folder named
 *                                  {host}_{pid}_{timestamp}_ascend_pt
 *   users         user-1           NAME in /home/NAME/ or /Users/NAME/
 *   paths         path-1           a PATH argument; any other absolute
 *                                  (or ~/) path in a string
 *   rank_folders  rank folder 1    a rank's folder, with whatever leads to
 *                                  it: paths below it stay relative to it
 *   addresses     ip-1             an IPv4 or IPv6 address (with a %zone)
 *   groups        group-1          an HCCL group name: an address, '%', an
 *                                  interface and _NUMBER parts
 *                                  (10.170.22.98%enp67s0f5_60000_0_17...)
 *   kernels       op-1             a kernel type outside the rules'
 *                                  categories (Other), with --redact-kernels
 *
 * Paths under a PATH stay relative to it: PATH/a/b.csv -> path-1/a/b.csv,
 * and rank-folder/ASCEND_PROFILER_OUTPUT/kernel_details.csv ->
 * rank folder 1/ASCEND_PROFILER_OUTPUT/kernel_details.csv.
 *
 * Inside a name (issue 23): a known host, user or rank folder is found at
 * a word boundary (any byte that is no letter or digit, '_', '-', '.',
 * '/', ':', '@', '%' among them, a change between letters and digits, a
 * lower-case letter before an upper-case one); an IPv4 address wherever
 * it is no part of a longer dotted number (AllReduce_10.1.2.3_grp ->
 * AllReduce_ip-1_grp); an IPv6 one after no letter or digit (glued to a
 * name, with a decimal digit); an absolute path glued by '_', '-', '@'
 * or '%' with two components or more. Names registered with
 * redactor_add_name take their number when first met.
 *
 * redact_result walks every string member of the result by a table per
 * struct (redact.c; tests/redact/fields.py checks the tables against
 * result.h): each is rewritten, or (the profile's metadata: versions,
 * profiler level, AI Core metrics, chip, db schema) kept only in the
 * shape of its kind and unchanged by the rewrite, else dropped and
 * counted in result.redaction.dropped.
 *
 * The map holds at most REDACT_MAX_ENTRIES originals; past that an
 * original becomes "redacted" without a number (still replaced). */
#ifndef SDPERF_REDACT_H
#define SDPERF_REDACT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"

#define REDACT_MAX_ENTRIES 100000

struct redactor;

/* A new, empty map for a run of the npaths PATH arguments (copied);
 * kernels: replace operator names registered with redactor_add_kernel
 * (--redact-kernels). Free with redactor_free. */
struct redactor *redactor_new(const char *const *paths, size_t npaths,
                              int kernels);
void redactor_free(struct redactor *rd); /* NULL is fine */

/* Registers a rank's folder (rank_result.dir: the rank folder, a file or
 * folder inside it, or the PATH given): the folder and its host are
 * numbered in the order of the calls, so call it in rank order before
 * rewriting anything. */
void redactor_add_rank_dir(struct redactor *rd, const char *dir);

/* Registers a host or user name (c REDACT_HOST or REDACT_USER) looked
 * for as a word in every later string: the machine's and the user's own
 * names, say, which a title or a command line may hold. Names shorter than
 * 3 bytes are ignored (they would hit ordinary words). */
void redactor_add_name(struct redactor *rd, enum redact_class c,
                       const char *name);

/* Registers an operator name to replace (kernels mode only; else a
 * no-op), numbered in the order of the calls. */
void redactor_add_kernel(struct redactor *rd, const char *name);

/* s with every original replaced by its pseudonym, newly allocated (the
 * caller frees it); NULL for NULL. Learns what it finds, so a later call
 * gives the same pseudonym for the same original. Any string may be given:
 * the profile's, the command line, a message. */
char *redactor_rewrite(struct redactor *rd, const char *s);
/* *s rewritten in place (the old string freed); *s may be NULL. */
void redactor_rewrite_str(struct redactor *rd, char **s);
/* The pseudonym of kernel type name when it is registered, else NULL
 * (borrowed until the next call). */
const char *redactor_kernel(struct redactor *rd, const char *name);

/* Originals of class c in the map so far. */
uint64_t redactor_count(const struct redactor *rd, enum redact_class c);

/* Redacts r in place with rd, which r then points to (r->redactor: there
 * to rewrite strings added later; the caller frees rd after releasing r):
 * the rank folders are
 * registered in rank order, with --redact-kernels the Other-category
 * kernel types in the order the report lists them, then the names r
 * holds but never shows (the db's host), then the metadata (kept or
 * dropped), then every other string of r that comes from the profile,
 * the file system or the command line is rewritten, and r->redaction
 * filled. Strings sdperf writes itself (codes, its version, hashes) are
 * left alone. */
void redact_result(struct result *r, struct redactor *rd);

/* r->redaction's counts again from r->redactor, after strings were
 * rewritten later (redactor_rewrite learns new originals). */
void redact_result_counts(struct result *r);

#endif
