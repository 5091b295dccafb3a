/* communication.json's per-collective figures from HCCL task rows (see
 * hccl.h for the rules and where they come from). */
#include "input/hccl.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/xalloc.h"
#include "util/banned.h"

enum task_kind { TK_OTHER, TK_WAIT, TK_COPY, TK_RDMA_SEND };
enum link_kind { LK_OTHER, LK_ON_CHIP, LK_HCCS, LK_PCIE, LK_SIO };
enum xport_kind { XK_OTHER, XK_SDMA, XK_RDMA };

struct hccl_task_rec {
	int64_t plane, size, start_ns, end_ns;
	unsigned char kind, link, xport;
};

static int eq(const char *s, const char *lit)
{
	return s && !strcmp(s, lit);
}

static unsigned char task_kind(const char *s)
{
	if (eq(s, "Notify_Wait"))
		return TK_WAIT;
	if (eq(s, "Memcpy") || eq(s, "Reduce_Inline"))
		return TK_COPY;
	if (eq(s, "RDMASend"))
		return TK_RDMA_SEND;
	return TK_OTHER;
}

static unsigned char link_kind(const char *s)
{
	if (eq(s, "ON_CHIP"))
		return LK_ON_CHIP;
	if (eq(s, "HCCS") || eq(s, "HCCS_SW"))
		return LK_HCCS;
	if (eq(s, "PCIE"))
		return LK_PCIE;
	if (eq(s, "SIO"))
		return LK_SIO;
	return LK_OTHER;
}

static unsigned char xport_kind(const char *s)
{
	if (eq(s, "SDMA"))
		return XK_SDMA;
	if (eq(s, "RDMA"))
		return XK_RDMA;
	return XK_OTHER;
}

void hccl_op_init(struct hccl_op *op)
{
	memset(op, 0, sizeof(*op));
}

void hccl_op_release(struct hccl_op *op)
{
	free(op->name);
	free(op->t);
	hccl_op_init(op);
}

void hccl_op_begin(struct hccl_op *op, const char *name, int64_t start_ns,
                   int64_t end_ns)
{
	free(op->name);
	op->name = xstrdup(name);
	op->start_ns = start_ns;
	op->end_ns = end_ns;
	op->n = 0;
}

int hccl_op_task(struct hccl_op *op, const struct hccl_task *t)
{
	struct hccl_task_rec *r;

	if (op->n >= HCCL_MAX_TASKS)
		return -1;
	op->t = xgrow(op->t, sizeof(*op->t), op->n + 1, &op->alloc);
	r = &op->t[op->n++];
	r->plane = t->plane;
	r->size = t->size > 0 ? t->size : 0;
	r->start_ns = t->start_ns;
	r->end_ns = t->end_ns > t->start_ns ? t->end_ns : t->start_ns;
	r->kind = task_kind(t->type);
	r->link = link_kind(t->link);
	r->xport = xport_kind(t->transport);
	op->detailed += t->type && *t->type && strcmp(t->type, "N/A");
	return 0;
}

/* A transfer over SDMA that leaves the chip. */
static int sdma_transfer(const struct hccl_task_rec *r)
{
	return r->xport == XK_SDMA && r->kind == TK_COPY &&
	       r->link != LK_ON_CHIP;
}

/* An RDMA payload at i: followed on its plane by RDMASend, Notify_Wait. */
static int rdma_transfer(const struct hccl_task_rec *t, size_t i, size_t end)
{
	return t[i].xport == XK_RDMA && i + 2 < end &&
	       t[i + 1].plane == t[i].plane && t[i + 2].plane == t[i].plane &&
	       t[i + 1].kind == TK_RDMA_SEND && t[i + 2].kind == TK_WAIT;
}

struct plane_sum {
	int is_main; /* has a Notify_Wait or a transfer */
	int64_t transit, wait, sync;
	int64_t bytes[TR_COUNT], time[TR_COUNT];
};

static int tr_of_link(unsigned char link)
{
	return link == LK_HCCS   ? TR_HCCS
	       : link == LK_PCIE ? TR_PCIE
	       : link == LK_SIO  ? TR_SIO
	                         : -1;
}

/* Sums the tasks [i, end) of one plane into p. */
static void plane_walk(const struct hccl_task_rec *t, size_t i, size_t end,
                       struct plane_sum *p)
{
	int before = 1; /* no transfer yet: waiting is synchronisation */

	for (; i < end; i++) {
		/* every sum saturates: times and sizes come from the
		 * input (a forged db's, as a file's) */
		int64_t d = checked_sub_sat(t[i].end_ns, t[i].start_ns);
		if (sdma_transfer(&t[i])) {
			int tr = tr_of_link(t[i].link);
			checked_accumulate(&p->transit, d);
			p->is_main = 1;
			before = 0;
			if (tr >= 0) {
				checked_accumulate(&p->bytes[tr], t[i].size);
				checked_accumulate(&p->time[tr], d);
			}
		} else if (rdma_transfer(t, i, end)) {
			d = checked_sub_sat(t[i + 2].end_ns, t[i].start_ns);
			checked_accumulate(&p->transit, d);
			checked_accumulate(&p->bytes[TR_RDMA], t[i].size);
			checked_accumulate(&p->time[TR_RDMA], d);
			p->is_main = 1;
			before = 0;
			i += 2;
		} else if (t[i].kind == TK_WAIT) {
			checked_accumulate(&p->wait, d);
			checked_accumulate(&p->sync, before ? d : 0);
			p->is_main = 1;
		}
	}
}

static void add_transports(struct commstats *cs, const int64_t *bytes,
                           const int64_t *time)
{
	int64_t b[TR_COUNT], ns[TR_COUNT];
	int k;

	memcpy(b, bytes, sizeof(b));
	memcpy(ns, time, sizeof(ns));
	/* SDMA is what the on-server links carried together */
	b[TR_SDMA] =
	    checked_add_sat(checked_add_sat(b[TR_HCCS], b[TR_PCIE]), b[TR_SIO]);
	ns[TR_SDMA] = checked_add_sat(checked_add_sat(ns[TR_HCCS], ns[TR_PCIE]),
	                              ns[TR_SIO]);
	for (k = 0; k < TR_COUNT; k++) {
		if (!b[k] && !ns[k])
			continue;
		cs->tr[k].ops++;
		cs->tr[k].size_mb += (double)b[k] / 1e6;
		checked_accumulate(&cs->tr[k].time_ns, ns[k]);
	}
}

void hccl_op_end(struct hccl_op *op, struct commstats *cs)
{
	struct plane_sum lead = {0}, all = {0};
	struct coll_stat *c;
	int64_t elapse;
	size_t i = 0, j;
	int found = 0, k;

	while (i < op->n) {
		struct plane_sum p = {0};
		for (j = i; j < op->n && op->t[j].plane == op->t[i].plane; j++)
			;
		plane_walk(op->t, i, j, &p);
		if (p.is_main && !found) {
			lead = p;
			found = 1;
		}
		for (k = 0; k < TR_COUNT; k++) {
			checked_accumulate(&all.bytes[k], p.bytes[k]);
			checked_accumulate(&all.time[k], p.time[k]);
		}
		i = j;
	}
	c = &cs->coll[commstats_kind(op->name ? op->name : "", 0)];
	c->count++;
	elapse = checked_sub_sat(op->end_ns, op->start_ns);
	checked_accumulate(&c->elapse_ns, elapse);
	checked_accumulate(&c->transit_ns, lead.transit);
	checked_accumulate(&c->wait_ns, lead.wait);
	checked_accumulate(&c->sync_ns, lead.sync);
	checked_accumulate(
	    &c->idle_ns,
	    checked_sub_sat(checked_sub_sat(elapse, lead.transit), lead.wait));
	add_transports(cs, all.bytes, all.time);
	cs->ops++;
	op->n = 0;
}
