/* memgen.c: device memory samples (--memory), the same for the text export
 * and the db; see memgen.h. */
#include "memgen.h"

#include <stdio.h>

#include "banned.h"

#define KIB16     16384LL
#define MIB       1048576LL
#define EVERY     16 /* a framework sample at every 16th kernel */
#define APP_EVERY 16 /* the driver's samples at the same pace */

/* The weights stay (4 GiB); each stage's activations come and go: the
 * VAE's are the largest, as a VAE decode's are in real pipelines. */
static int64_t allocated_at(const struct tmpl *t, size_t i)
{
	static const int64_t act[ST_COUNT] = {1536 * MIB, 3072 * MIB,
	                                      512 * MIB};
	int64_t wave = (int64_t)((i * 37) % 101); /* 0..100 */

	return 4096 * MIB + (act[t->stage] * wave / 100) / KIB16 * KIB16;
}

int memgen_next(const struct model *m, const struct step *s, size_t *i,
                struct memsample *out)
{
	for (; *i < s->n * 2; (*i)++) {
		size_t k = *i / 2;
		int app = (int)(*i % 2);
		const struct tmpl *t = &m->t[s->k[k].tmpl];
		int64_t a;
		if (k % (app ? APP_EVERY : EVERY))
			continue;
		a = allocated_at(t, k);
		out->app = app;
		out->ts_ns = s->k[k].start;
		out->allocated_b = a;
		/* the caching allocator keeps 2 MiB blocks and some slack */
		out->reserved_b =
		    (a + 2 * MIB - 1) / (2 * MIB) * (2 * MIB) + 256 * MIB;
		/* the runtime, HCCL and workspaces beside the allocator */
		out->device_b = out->reserved_b + 600 * MIB + 3 * KIB16;
		(*i)++;
		return 1;
	}
	return 0;
}

void memgen_csv_header(struct outbuf *ob, const struct rankctx *rc)
{
	ob_str(ob, "Component,Timestamp(us),Total Allocated(MB),Total "
	           "Reserved(MB),Total Active(MB),Stream Ptr,Device Type");
	ob_str(ob, rc->eol);
}

/* Bytes as MB with six decimals (exact: multiples of 16 KiB). */
static void put_mb(struct outbuf *ob, int64_t b)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%lld.%06lld", (long long)(b / MIB),
	         (long long)((b % MIB) * 1000000 / MIB));
	ob_str(ob, buf);
}

void memgen_csv_step(struct outbuf *ob, const struct rankctx *rc,
                     const struct step *s)
{
	struct memsample ms;
	char dev[32];
	size_t i = 0;

	snprintf(dev, sizeof(dev), "NPU:%d", rc->device);
	while (memgen_next(rc->m, s, &i, &ms)) {
		ob_str(ob, ms.app ? "APP," : "PTA,");
		ob_us3(ob, ms.ts_ns);
		ob_str(ob, "\t,");
		if (ms.app) {
			ob_ch(ob, ',');
			put_mb(ob, ms.device_b);
			ob_str(ob, ",,,");
		} else {
			put_mb(ob, ms.allocated_b);
			ob_ch(ob, ',');
			put_mb(ob, ms.reserved_b);
			ob_ch(ob, ',');
			put_mb(ob, ms.allocated_b);
			ob_str(ob, ",187651234567890,");
		}
		ob_str(ob, dev);
		ob_str(ob, rc->eol);
	}
}

void memgen_peaks_init(struct mempeaks *p)
{
	p->allocated_b = p->reserved_b = p->device_b = -1;
}

static void max_into(int64_t *d, int64_t v)
{
	if (v > *d)
		*d = v;
}

void memgen_peaks_step(struct mempeaks *p, const struct model *m,
                       const struct step *s)
{
	struct memsample ms;
	size_t i = 0;

	while (memgen_next(m, s, &i, &ms)) {
		if (ms.app) {
			max_into(&p->device_b, ms.device_b);
			continue;
		}
		max_into(&p->allocated_b, ms.allocated_b);
		max_into(&p->reserved_b, ms.reserved_b);
	}
}
