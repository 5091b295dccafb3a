/* SHA-256 blocks on the x86 SHA extensions; sha256.c chooses between this
 * and its portable code. Not for other callers. */
#ifndef SDPERF_SHA256_NI_H
#define SDPERF_SHA256_NI_H

#include <stddef.h>
#include <stdint.h>

/* 1 if this CPU has SHA-NI, SSSE3 and SSE4.1 (always 0 off x86-64). */
int sha256_ni_available(void);
/* Compresses nblocks 64-byte blocks at p into h. Only when available. */
void sha256_blocks_ni(uint32_t h[8], const unsigned char *p, size_t nblocks);

#endif
