/* The SHA-256 compression function on the x86 SHA extensions (SHA-NI):
 * sha256rnds2 does two rounds on the state held as ABEF and CDGH,
 * sha256msg1/msg2 extend the message schedule four words at a time.
 * Compiled for those instructions by a target attribute, so the rest of
 * the build needs no flags; sha256.c calls it only when cpuid says the CPU
 * has them. Elsewhere (not x86-64) it is an empty unit. */
#include "util/sha256_ni.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

#include "util/banned.h"

#define SHA_NI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/* FIPS 180-4, 4.2.2 (the same constants as the portable code's). */
static const uint32_t K[64] __attribute__((aligned(16))) = {
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

int sha256_ni_available(void)
{
	unsigned a, b, c, d;

	/* leaf 1: SSSE3 (ECX 9), SSE4.1 (ECX 19); leaf 7: SHA (EBX 29) */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & 1u << 9) ||
	    !(c & 1u << 19))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b >> 29) & 1;
}

/* Four rounds i..i+3: W plus K, two rounds on the low half, two on the
 * high. rnds2 returns the new ABEF; the old ABEF becomes CDGH. */
SHA_NI_TARGET static inline void quad(__m128i *abef, __m128i *cdgh, __m128i w,
                                      int i)
{
	__m128i wk = _mm_add_epi32(w, _mm_load_si128((const __m128i *)&K[i]));

	*cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, wk);
	*abef =
	    _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

/* W[t..t+3] from the previous sixteen words m0 (W[t-16..t-13]) to m3
 * (W[t-4..t-1]): msg1 adds sigma0 of W[t-15..t-12] to W[t-16..t-13],
 * W[t-7..t-4] is added, msg2 adds sigma1 of W[t-2], W[t-1] and then of
 * the two words it has just made. */
SHA_NI_TARGET static inline __m128i next(__m128i m0, __m128i m1, __m128i m2,
                                         __m128i m3)
{
	__m128i t = _mm_sha256msg1_epu32(m0, m1);

	t = _mm_add_epi32(t, _mm_alignr_epi8(m3, m2, 4));
	return _mm_sha256msg2_epu32(t, m3);
}

SHA_NI_TARGET static void one_block(__m128i *abef, __m128i *cdgh,
                                    const unsigned char *p)
{
	/* big-endian words: reverse the bytes of each 32-bit lane */
	const __m128i swap =
	    _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i m[4], a0 = *abef, c0 = *cdgh;
	int i;

	for (i = 0; i < 4; i++) {
		m[i] = _mm_loadu_si128((const __m128i *)(p + 16 * i));
		m[i] = _mm_shuffle_epi8(m[i], swap);
		quad(abef, cdgh, m[i], 4 * i);
	}
	for (i = 4; i < 16; i++) {
		/* m[i & 3] holds W[4i-16..4i-13], the oldest of the four */
		m[i & 3] = next(m[i & 3], m[(i + 1) & 3], m[(i + 2) & 3],
		                m[(i + 3) & 3]);
		quad(abef, cdgh, m[i & 3], 4 * i);
	}
	*abef = _mm_add_epi32(*abef, a0);
	*cdgh = _mm_add_epi32(*cdgh, c0);
}

SHA_NI_TARGET void sha256_blocks_ni(uint32_t h[8], const unsigned char *p,
                                    size_t nblocks)
{
	/* h[0..3] = A B C D, h[4..7] = E F G H (lane 0 first); rnds2 wants
	 * ABEF = lanes F E B A and CDGH = lanes H G D C */
	__m128i abcd = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i efgh = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i badc = _mm_shuffle_epi32(abcd, 0xb1); /* B A D C */
	__m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b); /* H G F E */
	__m128i abef = _mm_alignr_epi8(badc, hgfe, 8);
	__m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);

	for (; nblocks; nblocks--, p += 64)
		one_block(&abef, &cdgh, p);
	/* back: ABEF -> A B E F, CDGH -> G H C D */
	abef = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(abef, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, abef, 8));
}

#else

int sha256_ni_available(void)
{
	return 0;
}

void sha256_blocks_ni(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	(void)h;
	(void)p;
	(void)nblocks;
}

#endif
