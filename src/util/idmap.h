/* A hash map from a pair of 64-bit integers (a pid; a device and an inode;
 * a rank id) to a 64-bit value, keyed with the process hash key
 * (util/hash.h) so that hostile ids cannot pile into one bucket: each
 * look-up is O(1) expected, whatever the input. */
#ifndef SDPERF_IDMAP_H
#define SDPERF_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap_slot {
	uint64_t a, b, value;
	int used;
};

struct idmap {
	struct idmap_slot *slots;
	size_t nslots; /* 0 or a power of two, at least twice n */
	size_t n;
};

#define IDMAP_INIT                                                             \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

void idmap_init(struct idmap *m);
void idmap_release(struct idmap *m);

/* The value stored for (a, b), or NULL. The pointer stays valid until the
 * next idmap_put. */
uint64_t *idmap_get(const struct idmap *m, uint64_t a, uint64_t b);

/* Stores value for (a, b) unless the pair is there already. Returns 1 when
 * it was added, 0 when present (*old, if not NULL, receives the value
 * stored; it is not replaced). */
int idmap_put(struct idmap *m, uint64_t a, uint64_t b, uint64_t value,
              uint64_t *old);

#endif
