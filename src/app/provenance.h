/* How a report was made (result.h's struct provenance and struct brand):
 * the command line, sdperf's version and build, the rules and their hash,
 * each input file's size and SHA-256, when the profile was captured and
 * when the report was generated; and who it is for (the branding). */
#ifndef SDPERF_PROVENANCE_H
#define SDPERF_PROVENANCE_H

#include <pthread.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "app/cli.h"
#include "input/discover.h"
#include "util/err.h"
#include "util/sha256.h"
#include "util/strbuf.h"

/* Appends argv shell-quoted for a POSIX shell, separated by spaces:
 * words of only safe characters as they are, any other in single quotes
 * ('it'\''s'); argv[0] is written "sdperf", whatever path ran it. The
 * cuts (cli.h: the -j words) are left out. */
void prov_command_line(int argc, const char *const *argv,
                       const struct argv_cut *cuts, size_t ncuts,
                       struct strbuf *out);

/* The capture time a rank folder's name {host}_{pid}_{YYYYMMDDhhmmssmmm}
 * _ascend_pt tells, as seconds since the epoch (the clock read as UTC);
 * -1 when path names no such folder. */
int64_t prov_folder_time(const char *path);

/* A rank's input files hashed ahead: in a thread of their own, started
 * when the rank's analysis starts and joined after it, so the hashing
 * overlaps the parsing. Only the files the provenance names whatever the
 * analysis finds (profiler_info, the db or the kernel, step and
 * communication files, memory_record.csv); the others wait for
 * prov_rank_inputs. Each holds what sha256_file gave, error included. */
struct prov_hashed {
	const char *path;
	int rc;
	uint64_t size;
	char sha256[SHA256_HEX];
	struct err e;
};
struct prov_prehash {
	pthread_t tid;
	int started; /* 0: no thread (none could be made): n is 0 */
	const struct disc_rank *dr;
	size_t n;
	struct prov_hashed f[8];
};
/* Starts the hashing thread for dr (ph zeroed first; on failure to start
 * it, nothing is hashed ahead). */
void prov_prehash_start(struct prov_prehash *ph, const struct disc_rank *dr);
/* Waits for the thread, if any. Always called after a start. */
void prov_prehash_join(struct prov_prehash *ph);

/* In the rank's worker thread, after its analysis: streams each file the
 * rank's analysis read (the export used, profiler_info, the memory files
 * it tried) through SHA-256 into rr->inputs, 64 KiB at a time, and sets
 * rr->captured_s from profiler_info, else the folder's name. The files ph
 * (joined; NULL: none) hashed ahead are taken from it. A file that cannot
 * be read gives -1 and e naming it, whether hashed ahead or now. */
int prov_rank_inputs(const struct disc_rank *dr, struct rank_result *rr,
                     const struct prov_prehash *ph, struct err *e);

/* The build sdperf was made from ("" when unknown): the one place a
 * git commit or build id is wired in. */
const char *prov_build(void);

/* Fills r->prov and r->brand for `sdperf report` once the ranks are
 * analysed: the command line, version, build, rules (ru) and their
 * hash, the earliest capture time over the ranks, the generation time
 * (SOURCE_DATE_EPOCH when set, else the clock), and the branding from o
 * (the logo's bytes copied). */
void prov_fill(const struct options *o, const struct rules *ru,
               struct result *r);

#endif
