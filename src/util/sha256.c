/* SHA-256 as FIPS 180-4 specifies it: 512-bit blocks, 64 rounds, the
 * message padded with a 1 bit, zeros and its length in bits; fed in one
 * call or in pieces (a file is streamed, never held whole). */
#include "util/sha256.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/banned.h"
#include "util/sha256_ni.h"

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^
		        (w[i - 2] >> 10)) +
		       w[i - 7] +
		       (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^
		        (w[i - 15] >> 3)) +
		       w[i - 16];
	/* the eight working variables in locals (registers), not an array
	 * shifted each round: about twice as fast, which counts when the
	 * provenance hashes gigabytes of trace */
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	f = h[5];
	g = h[6];
	k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += k;
}

/* 0: not chosen yet, 1: the portable code, 2: SHA-NI. Chosen once, on
 * first use; a race between threads only chooses the same twice. */
static atomic_int impl;

static int choose(void)
{
	const char *env = getenv("SDPERF_SHA256_PORTABLE");
	int m = atomic_load_explicit(&impl, memory_order_relaxed);

	if (m)
		return m;
	m = (env && strcmp(env, "1") == 0) || !sha256_ni_available() ? 1 : 2;
	atomic_store_explicit(&impl, m, memory_order_relaxed);
	return m;
}

int sha256_accelerated(enum sha256_impl how)
{
	if (how == SHA256_PORTABLE)
		atomic_store_explicit(&impl, 1, memory_order_relaxed);
	else if (how == SHA256_FASTEST)
		atomic_store_explicit(&impl, sha256_ni_available() ? 2 : 1,
		                      memory_order_relaxed);
	else if (how == SHA256_DEFAULT)
		atomic_store_explicit(&impl, 0, memory_order_relaxed);
	return choose() == 2;
}

static void blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
	if (choose() == 2) {
		sha256_blocks_ni(h, p, n);
		return;
	}
	for (; n; n--, p += 64)
		block(h, p);
}

void sha256_init(struct sha256_ctx *c)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
	                               0xa54ff53a, 0x510e527f, 0x9b05688c,
	                               0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, h0, sizeof(h0));
	c->bytes = 0;
	c->nbuf = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t take;

	c->bytes += n;
	/* a partial block waits in buf; whole blocks go straight through */
	if (c->nbuf) {
		take = 64 - c->nbuf < n ? 64 - c->nbuf : n;
		memcpy(c->buf + c->nbuf, p, take);
		c->nbuf += take;
		p += take;
		n -= take;
		if (c->nbuf < 64)
			return;
		blocks(c->h, c->buf, 1);
		c->nbuf = 0;
	}
	blocks(c->h, p, n / 64);
	p += n / 64 * 64;
	n %= 64;
	memcpy(c->buf, p, n);
	c->nbuf = n;
}

void sha256_final(struct sha256_ctx *c, unsigned char out[32])
{
	unsigned char tail[128];
	uint64_t bits = c->bytes * 8;
	size_t rest = c->nbuf, len, i;

	/* the last bytes, the 1 bit, zeros, the length: one or two blocks */
	memcpy(tail, c->buf, rest);
	tail[rest] = 0x80;
	len = rest + 9 <= 64 ? 64 : 128;
	memset(tail + rest + 1, 0, len - rest - 1);
	for (i = 0; i < 8; i++)
		tail[len - 1 - i] = (unsigned char)(bits >> (8 * i));
	blocks(c->h, tail, len / 64);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}

void sha256(const void *data, size_t n, unsigned char out[32])
{
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, data, n);
	sha256_final(&c, out);
}

void sha256_hex(const unsigned char d[32], char hex[SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}

int sha256_file(const char *path, uint64_t *size, char hex[SHA256_HEX],
                struct err *e)
{
	struct sha256_ctx c;
	unsigned char buf[64 << 10], d[32];
	int64_t bytes;
	ssize_t got;
	/* a FIFO planted under a file's name must not hang the open: it is
	 * refused as not a regular file */
	int fd = fileio_open_regular(path, &bytes, e);

	if (fd < 0)
		return -1;
	sha256_init(&c);
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err_set(e, ERR_INPUT, "%s: read error: %s", path,
			        strerror(errno));
			close(fd);
			return -1;
		}
		sha256_update(&c, buf, (size_t)got);
	}
	close(fd);
	sha256_final(&c, d);
	sha256_hex(d, hex);
	*size = c.bytes;
	return 0;
}
void base64_add(struct strbuf *sb, const unsigned char *data, size_t n)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                          "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 |
		             (uint32_t)data[i + 1] << 8 | data[i + 2];
		strbuf_addch(sb, set[v >> 18]);
		strbuf_addch(sb, set[(v >> 12) & 63]);
		strbuf_addch(sb, set[(v >> 6) & 63]);
		strbuf_addch(sb, set[v & 63]);
	}
	if (n - i == 1) {
		strbuf_addch(sb, set[data[i] >> 2]);
		strbuf_addch(sb, set[(data[i] & 3) << 4]);
		strbuf_adds(sb, "==");
	} else if (n - i == 2) {
		uint32_t v = (uint32_t)data[i] << 8 | data[i + 1];
		strbuf_addch(sb, set[v >> 10]);
		strbuf_addch(sb, set[(v >> 4) & 63]);
		strbuf_addch(sb, set[(v & 15) << 2]);
		strbuf_addch(sb, '=');
	}
}
