/* commjson.c: communication.json. Each collective's Elapse Time is its
 * kernel duration, split into transit / wait / idle the way HCCL reports:
 * Elapse = Transit + Wait + Idle, Synchronization <= Wait. */
#include "commjson.h"

#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "banned.h"

/* A deterministic split per collective (no PRNG state: the same kernel
 * always reports the same breakdown). The wait for peers comes on top of
 * the transfer's own split: HCCL counts it as Wait and Synchronization. */
struct comm_times commjson_split(const struct rankctx *rc, const struct kern *k,
                                 const struct tmpl *t)
{
	struct comm_times c;
	uint64_t h = rng_mix(k->seq * 2654435761ULL + (uint64_t)rc->rank);
	int tr = 520 + (int)(h % 200), wt = 180 + (int)((h >> 16) % 150);
	int n = rc->o->ranks;
	int64_t base, own_wait;

	/* Transit + Wait may not exceed Elapse: Idle would go negative (and
	 * print clamped to 0). Only splits that did so change. */
	if (tr + wt > 1000)
		wt = 1000 - tr;
	base = k->dur - k->sync_wait;
	own_wait = base * wt / 1000;

	c.elapse = k->dur;
	c.transit = base * tr / 1000;
	c.wait = own_wait + k->sync_wait;
	c.idle = c.elapse - c.transit - c.wait;
	c.sync =
	    own_wait * (300 + (int)((h >> 32) % 500)) / 1000 + k->sync_wait;
	c.mb = (double)t->comm_bytes * (double)(n - 1) / (double)n / 1e6;
	return c;
}

static void num(struct outbuf *ob, const char *key, double v, int prec)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "\"%s\": %.*f", key, prec, v);
	ob_str(ob, buf);
}

static void ms(struct outbuf *ob, const char *key, int64_t ns)
{
	ob_ch(ob, '"');
	ob_str(ob, key);
	ob_str(ob, "\": ");
	ob_ms6(ob, ns);
}

static double ratio(int64_t part, int64_t other)
{
	return part + other > 0 ? (double)part / (double)(part + other) : 0.0;
}

static void time_info(struct outbuf *ob, const struct comm_times *c,
                      const struct kern *k)
{
	ob_str(ob, "{\"Communication Time Info\": {");
	if (k) {
		ob_str(ob, "\"Start Timestamp(us)\": ");
		ob_us3(ob, k->start);
		ob_str(ob, ", ");
	}
	ms(ob, "Elapse Time(ms)", c->elapse);
	ob_str(ob, ", ");
	ms(ob, "Transit Time(ms)", c->transit);
	ob_str(ob, ", ");
	ms(ob, "Wait Time(ms)", c->wait);
	ob_str(ob, ", ");
	ms(ob, "Synchronization Time(ms)", c->sync);
	ob_str(ob, ", ");
	ms(ob, "Idle Time(ms)", c->idle);
	ob_str(ob, ", ");
	num(ob, "Wait Time Ratio", ratio(c->wait, c->transit), 4);
	ob_str(ob, ", ");
	num(ob, "Synchronization Time Ratio", ratio(c->sync, c->transit), 4);
	ob_str(ob, "}, ");
}

static void link_zero(struct outbuf *ob, const char *name)
{
	ob_ch(ob, '"');
	ob_str(ob, name);
	ob_str(ob, "\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, "
	           "\"Bandwidth(GB/s)\": 0, \"Large Packet Ratio\": 0, "
	           "\"Size Distribution\": {}}");
}

/* HCCS carries the traffic between cards of one node; SDMA repeats it
 * without the size distribution, as real files do. */
static void link_used(struct outbuf *ob, const char *name,
                      const struct comm_times *c, int with_dist)
{
	double tms = (double)c->transit / 1e6;
	double pkt = c->mb > 2.097152 ? 2.097152 : c->mb;
	long count = pkt > 0 ? (long)(c->mb / pkt + 0.999) : 0;
	char buf[96];

	ob_ch(ob, '"');
	ob_str(ob, name);
	ob_str(ob, "\": {");
	num(ob, "Transit Size(MB)", c->mb, 6);
	ob_str(ob, ", ");
	ms(ob, "Transit Time(ms)", c->transit);
	ob_str(ob, ", ");
	num(ob, "Bandwidth(GB/s)", tms > 0 ? c->mb / tms : 0.0, 4);
	ob_str(ob, ", ");
	num(ob, "Large Packet Ratio", pkt >= 1.0 && with_dist ? 1.0 : 0.0, 1);
	ob_str(ob, ", \"Size Distribution\": {");
	if (with_dist && count > 0) {
		snprintf(buf, sizeof(buf), "\"%.6f\": [%ld, ", pkt, count);
		ob_str(ob, buf);
		ob_ms6(ob, c->transit);
		ob_ch(ob, ']');
	}
	ob_str(ob, "}}");
}

static void bandwidth_info(struct outbuf *ob, const struct comm_times *c)
{
	ob_str(ob, "\"Communication Bandwidth Info\": {");
	link_zero(ob, "RDMA");
	ob_str(ob, ", ");
	link_used(ob, "HCCS", c, 1);
	ob_str(ob, ", ");
	link_zero(ob, "PCIE");
	ob_str(ob, ", ");
	link_used(ob, "SDMA", c, 0);
	ob_str(ob, ", ");
	link_zero(ob, "SIO");
	ob_str(ob, "}}");
}

static void add_times(struct comm_times *tot, const struct comm_times *c)
{
	tot->elapse += c->elapse;
	tot->transit += c->transit;
	tot->wait += c->wait;
	tot->sync += c->sync;
	tot->idle += c->idle;
	tot->mb += c->mb;
}

static void total_op_info(struct outbuf *ob, const struct comm_times *tot)
{
	ob_str(ob, "\"Total Op Info\": ");
	time_info(ob, tot, NULL);
	bandwidth_info(ob, tot);
	ob_str(ob, "}}");
}

void commjson_begin(struct commjson *cj, struct outbuf *ob,
                    const struct rankctx *rc)
{
	memset(cj, 0, sizeof(*cj));
	ob_ch(ob, '{');
	if (rc->o->comm_single_key)
		ob_str(ob, "\"step\": {\"p2p\": {}, \"collective\": {");
}

void commjson_step(struct commjson *cj, struct outbuf *ob,
                   const struct rankctx *rc, const struct step *s)
{
	char buf[96];
	size_t i;

	if (!rc->o->comm_single_key) {
		memset(&cj->tot, 0, sizeof(cj->tot));
		snprintf(buf, sizeof(buf),
		         "%s\"step%d\": {\"p2p\": {}, \"collective\": {",
		         cj->steps ? ", " : "", s->number);
		ob_str(ob, buf);
	}
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		const struct tmpl *t = &rc->m->t[k->tmpl];
		struct comm_times c;

		if (t->op->cat != CAT_COMM)
			continue;
		c = commjson_split(rc, k, t);
		snprintf(buf, sizeof(buf), "\"%s_%u_0_1@%llu\": ", t->op->type,
		         (unsigned)k->seq, (unsigned long long)rc->group_hash);
		ob_str(ob, buf);
		time_info(ob, &c, k);
		bandwidth_info(ob, &c);
		ob_str(ob, ", ");
		add_times(&cj->tot, &c);
	}
	if (!rc->o->comm_single_key)
		total_op_info(ob, &cj->tot);
	cj->steps++;
}

void commjson_end(struct commjson *cj, struct outbuf *ob,
                  const struct rankctx *rc)
{
	if (rc->o->comm_single_key)
		total_op_info(ob, &cj->tot);
	ob_ch(ob, '}');
}
