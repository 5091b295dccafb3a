/* SHA-256 (FIPS 180-4) and base64 (RFC 4648): the Content-Security-
 * Policy hash of the HTML reports' inline script, and the checksums of the
 * inputs and the rules in a report's provenance. */
#ifndef SDPERF_SHA256_H
#define SDPERF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

#define SHA256_HEX 65 /* 64 hex digits and the NUL */

/* A digest being computed from pieces: init, update any number of times,
 * final once. */
struct sha256_ctx {
	uint32_t h[8];
	uint64_t bytes;        /* fed so far */
	unsigned char buf[64]; /* a block not yet complete */
	size_t nbuf;
};
void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t n);
void sha256_final(struct sha256_ctx *c, unsigned char out[32]);

/* Which compression function the digests use: the x86 SHA extensions
 * (SHA-NI) when the CPU has them, else the portable C code; the portable
 * one also when SDPERF_SHA256_PORTABLE=1 is set. SHA256_PORTABLE forces
 * the portable code, SHA256_FASTEST SHA-NI if the CPU has it (whatever the
 * environment), SHA256_DEFAULT chooses as on first use, SHA256_ASK
 * changes nothing. Returns 1 if SHA-NI is now in use. For tests and
 * benchmarks; not to be called while other threads hash. */
enum sha256_impl {
	SHA256_ASK,
	SHA256_PORTABLE,
	SHA256_FASTEST,
	SHA256_DEFAULT
};
int sha256_accelerated(enum sha256_impl how);

/* The SHA-256 digest of data[0..n) into out. */
void sha256(const void *data, size_t n, unsigned char out[32]);
/* The digest as 64 lower-case hex digits and a NUL. */
void sha256_hex(const unsigned char d[32], char hex[SHA256_HEX]);
/* Streams the regular file at path (64 KiB at a time, whatever its size)
 * into its digest (hex) and its size in bytes. Returns 0, or -1 with
 * ERR_INPUT naming the file (cannot open, not a regular file, read
 * error). */
int sha256_file(const char *path, uint64_t *size, char hex[SHA256_HEX],
                struct err *e);
/* Appends data[0..n) in base64 with '=' padding (the standard alphabet,
 * as CSP hash sources use). */
void base64_add(struct strbuf *sb, const unsigned char *data, size_t n);

#endif
