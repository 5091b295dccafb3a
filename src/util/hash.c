/* SipHash (Aumasson and Bernstein, 2012), written here from the paper's
 * description, and the per-process key. */
#include "util/hash.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/banned.h"

static unsigned char process_key[16];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static uint64_t rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

static uint64_t load_le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Eight bytes, little-endian: one load where the machine is. */
static uint64_t load_word(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
#else
	return load_le(p, 8);
#endif
}

struct sip {
	uint64_t v0, v1, v2, v3;
};

static void rounds(struct sip *s, int n)
{
	while (n-- > 0) {
		s->v0 += s->v1;
		s->v1 = rotl(s->v1, 13) ^ s->v0;
		s->v0 = rotl(s->v0, 32);
		s->v2 += s->v3;
		s->v3 = rotl(s->v3, 16) ^ s->v2;
		s->v0 += s->v3;
		s->v3 = rotl(s->v3, 21) ^ s->v0;
		s->v2 += s->v1;
		s->v1 = rotl(s->v1, 17) ^ s->v2;
		s->v2 = rotl(s->v2, 32);
	}
}

static void absorb(struct sip *s, uint64_t m, int crounds)
{
	s->v3 ^= m;
	rounds(s, crounds);
	s->v0 ^= m;
}

uint64_t hash_sip(const unsigned char key[16], const void *p, size_t len,
                  int crounds, int drounds)
{
	const unsigned char *in = p;
	uint64_t k0 = load_word(key), k1 = load_word(key + 8);
	struct sip s = {k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
	                k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull};
	size_t i, tail = len % 8;

	for (i = 0; i + 8 <= len; i += 8)
		absorb(&s, load_word(in + i), crounds);
	/* the last block: the remaining bytes and the length's low byte */
	absorb(&s, (tail ? load_le(in + i, tail) : 0) | (uint64_t)len << 56,
	       crounds);
	s.v2 ^= 0xff;
	rounds(&s, drounds);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

/* The kernel's randomness; if that fails (no getrandom, no /dev/urandom
 * in a chroot), the clock, the pid and an address: weaker, but still not
 * known to whoever wrote the input. */
static void draw_key(void)
{
	unsigned char *k = process_key;
	size_t got = 0;
	ssize_t n;
	int fd;

	while (got < sizeof(process_key) &&
	       (n = getrandom(k + got, sizeof(process_key) - got, 0)) > 0)
		got += (size_t)n;
	if (got < sizeof(process_key) &&
	    (fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) >= 0) {
		while (got < sizeof(process_key) &&
		       (n = read(fd, k + got, sizeof(process_key) - got)) > 0)
			got += (size_t)n;
		close(fd);
	}
	if (got < sizeof(process_key)) {
		struct timespec ts;
		uint64_t mix[3];
		clock_gettime(CLOCK_REALTIME, &ts);
		mix[0] =
		    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		mix[1] = (uint64_t)getpid();
		mix[2] = (uint64_t)(uintptr_t)&mix;
		memcpy(k, mix, sizeof(process_key));
		mix[0] = hash_sip(k, mix, sizeof(mix), 2, 4);
		mix[1] = hash_sip(k, mix, sizeof(mix), 2, 4);
		memcpy(k, mix, sizeof(process_key));
	}
}

uint64_t hash_bytes(const void *p, size_t len)
{
	pthread_once(&key_once, draw_key);
	return hash_sip(process_key, p, len, 1, 3);
}

uint64_t hash_u64x2(uint64_t a, uint64_t b)
{
	unsigned char buf[16];
	int i;

	for (i = 0; i < 8; i++) {
		buf[i] = (unsigned char)(a >> (8 * i));
		buf[8 + i] = (unsigned char)(b >> (8 * i));
	}
	return hash_bytes(buf, sizeof(buf));
}

void hash_set_key(const unsigned char key[16])
{
	pthread_once(&key_once, draw_key);
	memcpy(process_key, key, sizeof(process_key));
}
