/* Glob matching. The two-pointer match (remember the last '*', resume one
 * byte further on a mismatch) is linear for ordinary patterns, but a long
 * run of literals after a '*' ("*aaaa...ab" against "aaaa...a") makes it
 * rescan that run at every byte: O(|p| * |s|), 28 s for one pattern. So it
 * gets a budget, and past the budget a bit-parallel simulation of the
 * pattern's automaton decides: the set of pattern positions reachable
 * after each text byte, updated a machine word (64 positions) at a time,
 * with no backtracking at all. */
#include "util/glob.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_WORDS ((GLOB_MAX_PATTERN + 1 + 63) / 64)

static int fold(int c)
{
	return tolower((unsigned char)c);
}

/* The two-pointer match: 1, 0, or -1 when *budget steps were not enough
 * (*budget is spent either way). */
static int match_greedy(const char *p, const char *s, size_t *budget)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (!*budget)
			return -1;
		--*budget;
		if (*p == '*') {
			star = ++p;
			resume = s;
		} else if (*p && (*p == '?' || fold(*p) == fold(*s))) {
			p++;
			s++;
		} else if (star) {
			p = star;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* The automaton: position j of the (star-collapsed) pattern tok is bit j;
 * bit len means "all of it matched". */
struct nfa {
	size_t len, words;
	uint64_t star[MAX_WORDS];
	uint64_t (*mask)[MAX_WORDS]; /* by folded byte: the positions it
	                              * (or '?') matches */
};

static void set_bit(uint64_t *v, size_t j)
{
	v[j / 64] |= (uint64_t)1 << (j % 64);
}

static void nfa_build(struct nfa *a, const char *p)
{
	size_t j = 0, c;

	memset(a->star, 0, sizeof(a->star));
	a->mask = xcalloc(256, sizeof(*a->mask));
	for (; *p; p++) {
		if (*p == '*' && j && p[-1] == '*')
			continue; /* "**" is "*" */
		if (*p == '*')
			set_bit(a->star, j);
		else if (*p == '?')
			for (c = 0; c < 256; c++)
				set_bit(a->mask[c], j);
		else
			set_bit(a->mask[fold(*p)], j);
		j++;
	}
	a->len = j;
	a->words = (j + 1 + 63) / 64;
}

/* A '*' position reached also reaches the next one (the star matching
 * nothing); stars are collapsed, so one step closes the set. */
static void close_stars(const struct nfa *a, uint64_t *d)
{
	uint64_t carry = 0, t;
	size_t w;

	for (w = 0; w < a->words; w++) {
		t = d[w] & a->star[w];
		d[w] |= (t << 1) | carry;
		carry = t >> 63;
	}
}

/* One text byte: each position whose byte matches moves on, each star
 * stays; 0 when no position is left (no match possible). */
static int nfa_step(const struct nfa *a, uint64_t *d, int c)
{
	const uint64_t *m = a->mask[fold(c)];
	uint64_t carry = 0, x, any = 0;
	size_t w;

	for (w = 0; w < a->words; w++) {
		x = d[w] & m[w];
		d[w] = (x << 1) | carry | (d[w] & a->star[w]);
		carry = x >> 63;
	}
	close_stars(a, d);
	for (w = 0; w < a->words; w++)
		any |= d[w];
	return any != 0;
}

static int match_nfa(const char *p, const char *s)
{
	struct nfa a;
	uint64_t d[MAX_WORDS] = {0};
	int alive = 1;

	nfa_build(&a, p);
	d[0] = 1;
	close_stars(&a, d);
	for (; *s && alive; s++)
		alive = nfa_step(&a, d, *s);
	free(a.mask);
	return alive && (d[a.len / 64] >> (a.len % 64) & 1);
}

int glob_match(const char *pattern, const char *s)
{
	size_t plen = strnlen(pattern, GLOB_MAX_PATTERN + 1), budget = 64;
	int r;

	if (plen > GLOB_MAX_PATTERN)
		return 0;
	/* the common case takes a few steps: no length of s is needed */
	if ((r = match_greedy(pattern, s, &budget)) >= 0)
		return r;
	budget = 4 * (plen + strlen(s)) + 64;
	if ((r = match_greedy(pattern, s, &budget)) >= 0)
		return r;
	return match_nfa(pattern, s);
}
