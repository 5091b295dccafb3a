/* The plausible window of kernel times: a median, then a distance. */
#include "input/plausible.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/sortcmp.h"
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

int plausible_add(struct plausible *p, int64_t start, int64_t dur,
                  uint64_t line, size_t idx)
{
	if (!p->probe)
		p->probe = xmalloc(PLAUSIBLE_PROBE * sizeof(*p->probe));
	if (!p->n)
		p->from = idx;
	p->probe[p->n].start = start;
	p->probe[p->n].dur = dur;
	p->probe[p->n++].line = line;
	return p->n == PLAUSIBLE_PROBE;
}

static int far(int64_t t, int64_t ref)
{
	return checked_abs_diff(t, ref) > PLAUSIBLE_SPAN_NS;
}

int plausible_check(const struct plausible *p, int64_t start, int64_t dur)
{
	if (!p->has_ref)
		return 0;
	if (far(start, p->ref))
		return 1;
	return far(checked_add_sat(start, dur), p->ref) ? 2 : 0;
}

const char *plausible_why(int which)
{
	return which == 1 ? "implausible: more than 7 days from the median "
	                    "start of the file's first kernels"
	                  : "implausible: ends more than 7 days from the "
	                    "median start of the file's first kernels";
}

size_t plausible_settle(struct plausible *p, struct kernel *v,
                        plausible_skip_fn skip, void *ctx)
{
	size_t i, from = p->from, out = from;
	int64_t *t;
	int which;

	p->ready = 1;
	if (!p->n)
		return from; /* nothing probed, nothing to judge by */
	t = xmalloc(p->n * sizeof(*t));
	for (i = 0; i < p->n; i++)
		t[i] = p->probe[i].start;
	qsort(t, p->n, sizeof(*t), sortcmp_i64);
	p->ref = t[p->n / 2];
	p->has_ref = 1;
	free(t);
	for (i = 0; i < p->n; i++) {
		which = plausible_check(p, p->probe[i].start, p->probe[i].dur);
		if (which)
			skip(ctx, &p->probe[i], which);
		else
			v[out++] = v[from + i];
	}
	plausible_release(p);
	return out;
}
