/* communication.json reader (Level1+ multi-card runs): HCCL's per-operation
 * communication times and per-transport bandwidth, summed by collective
 * kind and by transport over every step of the file. */
#ifndef SDPERF_COMMJSON_H
#define SDPERF_COMMJSON_H

#include <stddef.h>
#include <stdint.h>

#include "core/vocab.h"
#include "util/err.h"

/* Uncompressed bytes accepted (the document is streamed: this bounds the
 * time, not the memory), and bytes of one operation's value: the one
 * value parsed into a tree at a time. */
#define COMMJSON_MAX_BYTES (256u << 20)
#define COMMJSON_MAX_OP    (256u << 10)

/* Kind of a collective (enum coll_kind, core/vocab.h), from its operation
 * name, case-insensitively: allgather/all_gather, allreduce/all_reduce,
 * alltoall/alltoallv/all_to_all, reducescatter/reduce_scatter, broadcast,
 * send/receive/recv (and every operation under "p2p"), anything else is
 * other. Transports (enum transport) are the keys of "Communication
 * Bandwidth Info" (other keys there are ignored). */

/* Sums over the operations of one kind; times are ns (the file's ms,
 * rounded to the nearest ns). A missing time field counts as 0. */
struct coll_stat {
	uint64_t count;
	int64_t elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns;
};

/* Sums over the operations that used a transport: only an operation with
 * Transit Size > 0 or Transit Time > 0 counts in ops (every operation lists
 * every transport, mostly with zeros). Bandwidth in GB/s is
 * size_mb / (time_ns / 1e6). */
struct transport_stat {
	uint64_t ops;
	double size_mb;
	int64_t time_ns;
};

struct commstats {
	char *path;
	int64_t size;  /* bytes on disk (or given to _read_mem) */
	int gz;        /* the file was gzip-compressed */
	size_t nsteps; /* step keys read ("step50", or "step" alone) */
	uint64_t ops;  /* operations summed ("Total Op Info" excluded) */
	struct coll_stat coll[COLL_COUNT];
	struct transport_stat tr[TR_COUNT];
};

/* Wait ratio as HCCL defines it: wait / (wait + transit), 0 when both are
 * 0. The sync ratio likewise with sync. */
double commstats_wait_ratio(const struct coll_stat *c);
double commstats_sync_ratio(const struct coll_stat *c);

/* The kind an operation name stands for ("hcom_allReduce__586_0_1@1..."
 * -> COLL_ALLREDUCE); p2p is nonzero for an operation under "p2p". */
enum coll_kind commstats_kind(const char *op, int p2p);

/* Reads communication.json (or its .gz) at path into cs, which need not be
 * initialised; the caller releases cs with commstats_release, also on
 * error. Layout: {step: {"p2p"|"collective": {op: {"Communication Time
 * Info": {...}, "Communication Bandwidth Info": {transport: {...}}}}}};
 * every step key is read and summed; "Total Op Info" (HCCL's own sum) is
 * skipped; other keys inside a step are ignored. Returns 0, or -1 with an
 * ERR_INPUT error:
 *   "PATH: empty file (no JSON value)"
 *   "PATH: larger than 256 MiB uncompressed (the limit for
 *    communication.json)"
 *   "PATH:LINE:COL: JSON syntax error near '...'"
 *   "PATH: top level: expected an object of steps, got an array"
 *   "PATH: step50/collective/OP: expected an object, got '[1]'"
 *   "PATH: step50/collective/OP/Communication Time Info/Wait Time(ms):
 *    expected a number, got '\"abc\"'" (or: out of range: '1e300')
 *   "PATH: step50/collective: sums out of range"
 *   "PATH:LINE:COL: a JSON value larger than 256 KiB (the limit for one
 *    operation in communication.json)" */
int commstats_read(const char *path, struct commstats *cs, struct err *e);

/* The same for bytes in memory; name stands for the path in messages. */
int commstats_read_mem(const char *name, const void *data, size_t len,
                       struct commstats *cs, struct err *e);

/* Frees what cs owns and zeroes it. */
void commstats_release(struct commstats *cs);

#endif
