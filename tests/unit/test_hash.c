/* Unit tests of util/hash.c (keyed SipHash), util/idmap.c and the string
 * table under names chosen to collide. */
#include "unit.h"

#include "util/hash.h"
#include "util/idmap.h"
#include "util/strtab.h"

/* ---- hash --------------------------------------------------------------- */

static void hash_sip24_matches_the_published_vectors(void **state)
{
	/* SipHash-2-4, key 00..0f, message 00..(n-1): the paper's vectors */
	static const struct {
		size_t n;
		uint64_t h;
	} t[] = {{0, 0x726fdb47dd0e0e31ull},  {1, 0x74f839c593dc67fdull},
	         {7, 0xab0200f58b01d137ull},  {8, 0x93f5f5799a932462ull},
	         {15, 0xa129ca6149be45e5ull}, {63, 0x958a324ceb064572ull}};
	unsigned char key[16], msg[64];
	size_t i;

	(void)state;
	for (i = 0; i < 16; i++)
		key[i] = (unsigned char)i;
	for (i = 0; i < 64; i++)
		msg[i] = (unsigned char)i;
	for (i = 0; i < ARRAY_LEN(t); i++)
		if (hash_sip(key, msg, t[i].n, 2, 4) != t[i].h)
			fail_msg("SipHash-2-4 of %zu bytes", t[i].n);
}

/* Names an unkeyed table (FNV-1a, as strtab had) puts in one bucket of
 * 2^16: a three-byte suffix steers the low 16 bits of FNV's state. */
static size_t fnv_colliding_names(char (*out)[24], size_t n)
{
	static unsigned char steer[1 << 16][3];
	static char have[1 << 16];
	const uint32_t P = 16777619u, T = 0x1234;
	uint32_t pinv = 1, s;
	size_t got = 0, i, k;
	int a, b, c;

	for (i = 0; i < 16; i++) /* P^-1 mod 2^16 by Newton's iteration */
		pinv = (pinv * (2 - P * pinv)) & 0xFFFF;
	memset(have, 0, sizeof(have));
	for (a = 'a'; a <= 'z'; a++)
		for (b = 'a'; b <= 'z'; b++)
			for (c = 'a'; c <= 'z'; c++) {
				s = (T * pinv) & 0xFFFF; /* before "\0" */
				s = ((s * pinv) & 0xFFFF) ^ (uint32_t)c;
				s = ((s * pinv) & 0xFFFF) ^ (uint32_t)b;
				s = ((s * pinv) & 0xFFFF) ^ (uint32_t)a;
				have[s] = 1;
				steer[s][0] = (unsigned char)a;
				steer[s][1] = (unsigned char)b;
				steer[s][2] = (unsigned char)c;
			}
	for (i = 0; got < n && i < 10000000; i++) {
		uint32_t h = 2166136261u;
		char pre[16];
		int len = snprintf(pre, sizeof(pre), "K%zu_", i);
		for (k = 0; k < (size_t)len; k++)
			h = (h ^ (unsigned char)pre[k]) * P;
		if (!have[h & 0xFFFF])
			continue;
		snprintf(out[got++], 24, "%s%c%c%c", pre, steer[h & 0xFFFF][0],
		         steer[h & 0xFFFF][1], steer[h & 0xFFFF][2]);
	}
	return got;
}

static void hash_keyed_spreads_names_an_unkeyed_hash_piles_up(void **state)
{
	static char names[4096][24];
	static unsigned char used[1 << 16];
	size_t n = fnv_colliding_names(names, 4096), i, buckets = 0;
	uint32_t h, k;

	(void)state;
	assert_int_equal(n, 4096);
	for (i = 0; i < n; i++) { /* all one bucket without a key... */
		const char *p = names[i];
		for (h = 2166136261u, k = 0; p[k]; k++)
			h = (h ^ (unsigned char)p[k]) * 16777619u;
		h = (h ^ 0) * 16777619u; /* strtab's key ends in "\0" */
		assert_int_equal(h & 0xFFFF, 0x1234);
	}
	memset(used, 0, sizeof(used));
	for (i = 0; i < n; i++) { /* ... about 3,970 of 4,096 with it */
		h = (uint32_t)hash_bytes(names[i], strlen(names[i]) + 1);
		buckets += !used[h & 0xFFFF];
		used[h & 0xFFFF] = 1;
	}
	assert_true(buckets > 3800);
}

static void hash_depends_on_the_process_key(void **state)
{
	unsigned char k1[16], k2[16];
	uint64_t a, b;

	(void)state;
	memset(k1, 1, sizeof(k1));
	memset(k2, 2, sizeof(k2));
	hash_set_key(k1);
	a = hash_bytes("MatMulV3", 8);
	assert_true(a == hash_bytes("MatMulV3", 8)); /* stable under a key */
	assert_true(a == hash_sip(k1, "MatMulV3", 8, 1, 3));
	hash_set_key(k2);
	b = hash_bytes("MatMulV3", 8);
	assert_true(a != b);
	assert_true(hash_u64x2(1, 2) != hash_u64x2(2, 1));
}

static void strtab_finds_names_chosen_to_collide(void **state)
{
	static char names[4096][24];
	size_t n = fnv_colliding_names(names, 4096), i;
	struct strtab t;

	(void)state;
	strtab_init(&t);
	for (i = 0; i < n; i++)
		assert_int_equal(strtab_intern(&t, names[i], strlen(names[i])),
		                 i);
	for (i = 0; i < n; i++)
		assert_int_equal(strtab_find(&t, names[i], strlen(names[i])),
		                 i);
	strtab_release(&t);
}

/* ---- idmap --------------------------------------------------------------- */

static void idmap_keeps_the_first_value_of_each_pair(void **state)
{
	struct idmap m = IDMAP_INIT;
	uint64_t old = 0, i;

	(void)state;
	assert_null(idmap_get(&m, 1, 2));
	for (i = 0; i < 100000; i++)
		assert_int_equal(idmap_put(&m, i, i * 7, i, NULL), 1);
	assert_int_equal(idmap_put(&m, 5, 35, 99, &old), 0);
	assert_int_equal(old, 5);
	for (i = 0; i < 100000; i++)
		assert_int_equal(*idmap_get(&m, i, i * 7), i);
	assert_null(idmap_get(&m, 5, 36));
	assert_int_equal(m.n, 100000);
	idmap_release(&m);
	assert_null(idmap_get(&m, 1, 7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(hash_sip24_matches_the_published_vectors),
	    cmocka_unit_test(hash_keyed_spreads_names_an_unkeyed_hash_piles_up),
	    cmocka_unit_test(hash_depends_on_the_process_key),
	    cmocka_unit_test(strtab_finds_names_chosen_to_collide),
	    cmocka_unit_test(idmap_keeps_the_first_value_of_each_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
