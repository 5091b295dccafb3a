/* Unit tests of util/sha256 across its two compression functions: the
 * portable C code and SHA-NI (x86 SHA extensions, when this CPU has them).
 * Both must give the NIST digests, the same digest as each other for every
 * length and way of feeding, and the digest sha256sum prints. */
#include "unit.h"

#include "util/err.h"
#include "util/sha256.h"

static const char million_a[] =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned char next_byte(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned char)(rng >> 24);
}

static void fill(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = next_byte();
}

static void digest_hex(const void *p, size_t n, char hex[SHA256_HEX])
{
	unsigned char d[32];

	sha256(p, n, d);
	sha256_hex(d, hex);
}

/* FIPS 180-2 appendix B (and the FIPS 180-4 example set): "", "abc", the
 * 448- and 896-bit messages, a million 'a's; under each implementation. */
static void nist_vectors_both_ways(void **state)
{
	static const struct {
		const char *in;
		const char *hex;
	} t[] = {
	    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b"
	         "855"},
	    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f2"
	            "0015ad"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c"
	     "1"},
	    {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d"
	     "1"},
	};
	char hex[SHA256_HEX], *as = malloc(1000000);
	int way;
	size_t i;

	(void)state;
	assert_non_null(as);
	memset(as, 'a', 1000000);
	for (way = 0; way < 2; way++) {
		sha256_accelerated(way ? SHA256_FASTEST : SHA256_PORTABLE);
		for (i = 0; i < ARRAY_LEN(t); i++) {
			digest_hex(t[i].in, strlen(t[i].in), hex);
			assert_string_equal(hex, t[i].hex);
		}
		digest_hex(as, 1000000, hex);
		assert_string_equal(hex, million_a);
	}
	free(as);
	sha256_accelerated(SHA256_DEFAULT);
}

/* Random messages of every length 0..300 (all the padding cases, one to
 * six blocks): the two implementations agree. */
static void random_lengths_agree(void **state)
{
	unsigned char msg[300];
	char a[SHA256_HEX], b[SHA256_HEX];
	size_t n;

	(void)state;
	if (!sha256_accelerated(SHA256_FASTEST))
		skip();
	for (n = 0; n <= sizeof(msg); n++) {
		fill(msg, n);
		sha256_accelerated(SHA256_PORTABLE);
		digest_hex(msg, n, a);
		sha256_accelerated(SHA256_FASTEST);
		digest_hex(msg, n, b);
		assert_string_equal(a, b);
	}
	sha256_accelerated(SHA256_DEFAULT);
}

static void streamed_hex(const unsigned char *p, size_t n, size_t piece,
                         char hex[SHA256_HEX])
{
	struct sha256_ctx c;
	unsigned char d[32];
	size_t done, take;

	sha256_init(&c);
	for (done = 0; done < n; done += take) {
		/* odd sizes, varying: across block boundaries every way */
		take = piece + done % 61;
		if (take > n - done)
			take = n - done;
		sha256_update(&c, p + done, take);
	}
	sha256_final(&c, d);
	sha256_hex(d, hex);
}

/* 3 MB + 17 bytes of random data streamed in odd pieces under SHA-NI,
 * one-shot under the portable code, and as a file through sha256sum. */
static void megabytes_streamed_match_sha256sum(void **state)
{
	const size_t n = (3u << 20) + 17;
	unsigned char *p = malloc(n);
	char one[SHA256_HEX], piece[SHA256_HEX], fhex[SHA256_HEX];
	char path[] = SDPERF_TEST_TMP "/sha-XXXXXX", cmd[256], out[80];
	static const size_t pieces[] = {1, 63, 65, 4093, 65537};
	struct err e = ERR_INIT;
	uint64_t size = 0;
	size_t i;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(p);
	fill(p, n);
	sha256_accelerated(SHA256_PORTABLE);
	digest_hex(p, n, one);
	sha256_accelerated(SHA256_FASTEST);
	for (i = 0; i < ARRAY_LEN(pieces); i++) {
		streamed_hex(p, n, pieces[i], piece);
		assert_string_equal(piece, one);
	}
	mkdir(SDPERF_TEST_TMP, 0755);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	assert_int_equal(sha256_file(path, &size, fhex, &e), 0);
	assert_int_equal(size, n);
	assert_string_equal(fhex, one);
	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (f && fgets(out, sizeof(out), f) && strlen(out) > 64) {
		out[64] = '\0';
		assert_string_equal(out, one);
	}
	if (f)
		pclose(f);
	unlink(path);
	free(p);
	sha256_accelerated(SHA256_DEFAULT);
}

/* SDPERF_SHA256_PORTABLE=1 (set by the unit_sha256_portable run) keeps the
 * portable code; without it, SHA-NI is used exactly when the CPU has it. */
static void environment_chooses(void **state)
{
	const char *env = getenv("SDPERF_SHA256_PORTABLE");
	int has = sha256_accelerated(SHA256_FASTEST);

	(void)state;
	sha256_accelerated(SHA256_DEFAULT);
	if (env && strcmp(env, "1") == 0)
		assert_int_equal(sha256_accelerated(SHA256_ASK), 0);
	else
		assert_int_equal(sha256_accelerated(SHA256_ASK), has);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(nist_vectors_both_ways),
	    cmocka_unit_test(random_lengths_agree),
	    cmocka_unit_test(megabytes_streamed_match_sha256sum),
	    cmocka_unit_test(environment_chooses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
