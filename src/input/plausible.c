/* The plausible window of kernel times: a median, then a distance. */
#include "input/plausible.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/xalloc.h"
#include "util/banned.h"

void plausible_init(struct plausible *p)
{
	memset(p, 0, sizeof(*p));
}

void plausible_release(struct plausible *p)
{
	free(p->probe);
	p->probe = NULL;
	p->n = 0;
}

int plausible_add(struct plausible *p, int64_t start, int64_t end,
                  uint64_t line)
{
	if (!p->probe)
		p->probe = xmalloc(PLAUSIBLE_PROBE * sizeof(*p->probe));
	p->probe[p->n].start = start;
	p->probe[p->n].end = end;
	p->probe[p->n++].line = line;
	return p->n == PLAUSIBLE_PROBE;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void plausible_settle(struct plausible *p)
{
	int64_t *v;
	size_t i;

	if (!p->n)
		return; /* nothing to judge by: all plausible */
	p->ready = 1;
	v = xmalloc(p->n * sizeof(*v));
	for (i = 0; i < p->n; i++)
		v[i] = p->probe[i].start;
	qsort(v, p->n, sizeof(*v), cmp_i64);
	p->ref = v[p->n / 2];
	free(v);
}

static int far(int64_t t, int64_t ref)
{
	return checked_abs_diff(t, ref) > PLAUSIBLE_SPAN_NS;
}

int plausible_check(const struct plausible *p, int64_t start, int64_t end)
{
	if (!p->ready)
		return 0;
	if (far(start, p->ref))
		return 1;
	return far(end, p->ref) ? 2 : 0;
}
