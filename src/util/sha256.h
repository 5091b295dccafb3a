/* SHA-256 (FIPS 180-4) and base64 (RFC 4648), for the Content-Security-
 * Policy hash of the HTML reports' inline script. */
#ifndef SDPERF_SHA256_H
#define SDPERF_SHA256_H

#include <stddef.h>

#include "util/strbuf.h"

/* The SHA-256 digest of data[0..n) into out. */
void sha256(const void *data, size_t n, unsigned char out[32]);
/* Appends data[0..n) in base64 with '=' padding (the standard alphabet,
 * as CSP hash sources use). */
void base64_add(struct strbuf *sb, const unsigned char *data, size_t n);

#endif
