/* Keyed hashing for every hash table of sdperf: SipHash-1-3 under a key
 * drawn once per process from the kernel (getrandom). Names, pids and ids
 * come from the input; with an unkeyed hash (FNV-1a) a hostile profile can
 * pick thousands of names that share a bucket and turn each look-up into a
 * walk of the whole table. Without the key the buckets cannot be aimed. */
#ifndef SDPERF_HASH_H
#define SDPERF_HASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash with crounds compression and drounds finalisation rounds of
 * len bytes at p under a 16-byte key (k0 = bytes 0-7, k1 = bytes 8-15,
 * little-endian). hash_sip(key, p, len, 2, 4) is SipHash-2-4, whose
 * published test vectors check the implementation. */
uint64_t hash_sip(const unsigned char key[16], const void *p, size_t len,
                  int crounds, int drounds);

/* SipHash-1-3 of len bytes at p under the process key. Thread-safe; the
 * key is drawn on first use. */
uint64_t hash_bytes(const void *p, size_t len);

/* The same for a pair of 64-bit integers (a pid, a device and inode). */
uint64_t hash_u64x2(uint64_t a, uint64_t b);

/* Replaces the process key (tests only: two keys must give two different
 * bucket layouts). Not thread-safe; call before any hashing thread runs. */
void hash_set_key(const unsigned char key[16]);

#endif
