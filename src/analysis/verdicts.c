/* Verdicts: value vs threshold, fired when strictly above. */
#include "analysis/verdicts.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

double verdicts_metric(const struct threshold *t, const struct result *r,
                       int *applicable)
{
	const struct stage_result *st = &r->stages[t->stage];

	*applicable = 0;
	if (t->metric == METRIC_CATEGORY_SHARE) {
		if (st->kernel_ns <= 0)
			return 0;
		*applicable = 1;
		return 100.0 * (double)st->cat[t->cat].time_ns /
		       (double)st->kernel_ns;
	}
	if (st->wall_ns <= 0)
		return 0;
	*applicable = 1;
	return 100.0 * (double)st->exposed_comm_ns / (double)st->wall_ns;
}

static char *metric_text(const struct threshold *t)
{
	struct strbuf sb = STRBUF_INIT;

	if (t->metric == METRIC_CATEGORY_SHARE)
		strbuf_addf(&sb, "%s share of %s kernel time",
		            category_names[t->cat], stage_names[t->stage]);
	else
		strbuf_addf(&sb, "exposed communication share of %s wall time",
		            stage_names[t->stage]);
	return strbuf_detach(&sb, NULL);
}

void verdicts_evaluate(const struct rules *ru, struct result *r)
{
	size_t i, d;

	r->verdicts = xcalloc(ru->nth ? ru->nth : 1, sizeof(*r->verdicts));
	r->nverdicts = ru->nth;
	for (i = 0; i < ru->nth; i++) {
		const struct threshold *t = &ru->th[i];
		struct verdict *v = &r->verdicts[i];
		v->id = xstrdup(t->id);
		v->title = xstrdup(t->title);
		v->recommendation = xstrdup(t->recommendation);
		v->metric = metric_text(t);
		v->stage = t->stage;
		v->threshold = t->above;
		v->value = verdicts_metric(t, r, &v->applicable);
		v->fired = v->applicable && v->value > t->above;
		v->docs = xmalloc((t->ndocs ? t->ndocs : 1) * sizeof(char *));
		for (d = 0; d < t->ndocs; d++)
			v->docs[d] = xstrdup(t->docs[d]);
		v->ndocs = t->ndocs;
	}
}
