/* Allocation wrappers: the one place out-of-memory is handled (by aborting). */
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static void die_oom(size_t n)
{
	fprintf(stderr, "sdperf: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

void *xgrow(void *p, size_t size, size_t need, size_t *alloc)
{
	size_t n = *alloc;
	if (need <= n)
		return p;
	n = n < 16 ? 16 : n;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			die_oom(SIZE_MAX);
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	*alloc = n;
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}
