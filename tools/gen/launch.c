/* launch.c: host launch times. Eager PyTorch launches kernels one by one
 * and runs ahead of the device by a queue of work whose length varies; a
 * launch can never come after the kernel it starts. */
#include "launch.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

#define US 1000LL

void launch_init(struct launch *l, const struct opts *o, int rank)
{
	memset(l, 0, sizeof(*l));
	rng_seed(&l->rng, o->seed, 0x6c61756e6300ULL + (uint64_t)rank);
}

void launch_free(struct launch *l)
{
	free(l->host);
	free(l->mk);
	memset(l, 0, sizeof(*l));
}

const char *launch_marker_name(enum stage st)
{
	return st == ST_DIT ? "transformer" : STAGE_NAMES[st];
}

/* Opens a range for kernel `k`. Python works a little before its first
 * launch; the previous range (or the step start) ends before that. The
 * stage gap on the device (>= 150 us) leaves room for these <= 75 us. */
static int64_t open_range(struct launch *l, const struct step *s,
                          const struct kern *k, enum stage st)
{
	int64_t prev = l->nmk ? l->mk[l->nmk - 1].host_end : s->host_start;
	struct marker *mk;

	xgrow(&l->mk, &l->capmk, l->nmk + 1, sizeof(*l->mk));
	mk = &l->mk[l->nmk++];
	mk->step = s->number;
	mk->stage = st;
	mk->host_start = prev + rng_between(&l->rng, 1 * US, 20 * US);
	mk->dev_start = mk->dev_end = k->start;
	return mk->host_start + rng_between(&l->rng, 3 * US, 30 * US);
}

/* Launch time of a kernel starting at `start`, after the launch at `prev`
 * (or no earlier than `lo` for a range's first kernel). */
static int64_t launch_time(struct launch *l, int64_t prev, int64_t start,
                           int64_t lag)
{
	int64_t h = start - lag * (700 + rng_between(&l->rng, 0, 600)) / 1000;
	int64_t next = prev + rng_between(&l->rng, 1 * US, 4 * US);

	if (h < next)
		h = next;       /* the host is the bottleneck here */
	if (h > start - 1 * US) /* launched at least 1 us before it runs */
		h = prev + 1 > start - 1 * US ? prev + 1 : start - 1 * US;
	return h;
}

void launch_step(struct launch *l, const struct model *m, const struct step *s)
{
	int64_t prev = 0, lag = 0;
	size_t i;
	int cur = -1;

	xgrow(&l->host, &l->cap, s->n ? s->n : 1, sizeof(*l->host));
	l->nmk = 0;
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		enum stage st = m->t[k->tmpl].stage;

		if ((int)st != cur) {
			if (l->nmk) /* Python returns from the last launch */
				l->mk[l->nmk - 1].host_end =
				    prev +
				    rng_between(&l->rng, 2 * US, 20 * US);
			/* launch_time adds >= 1 us to prev: first >= lo */
			prev = open_range(l, s, k, st) - 1 * US;
			lag = rng_between(&l->rng, 80 * US, 1500 * US);
			cur = (int)st;
		}
		l->host[i] = prev = launch_time(l, prev, k->start, lag);
		l->mk[l->nmk - 1].dev_end = k->start;
	}
	if (l->nmk)
		l->mk[l->nmk - 1].host_end =
		    prev + rng_between(&l->rng, 2 * US, 20 * US);
}
