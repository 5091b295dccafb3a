/* The terminal summary's iterations line: count, median, the loop's
 * share, outliers, and an active cache with its hit pattern. */
#include "format/text/text.h"

#include "analysis/iterations.h"
#include "util/banned.h"
#include "util/numfmt.h"

static void cache(const struct cache_seen *c, struct strbuf *out)
{
	if (c->kind == CACHE_NONE) {
		strbuf_adds(out, "; no cache");
		return;
	}
	strbuf_addf(out, "; %s %llu hits, ",
	            c->kind == CACHE_DIT ? "DiTCache" : "AttentionCache",
	            (unsigned long long)c->hits);
	if (c->period)
		strbuf_addf(out, "%sone full iteration every %llu",
		            c->regular ? "" : "mostly ",
		            (unsigned long long)c->period);
	else
		strbuf_adds(out, "no period");
	strbuf_adds(out, ", saved ");
	numfmt_duration(out, c->saved_ns);
}

void render_text_iters(const struct result *r, struct strbuf *out)
{
	const struct iter_summary *s = &r->iters;
	double share = iterations_loop_share(r);

	if (!s->found)
		return;
	strbuf_addf(out, "\niterations: %llu in %llu call%s, median ",
	            (unsigned long long)s->total, (unsigned long long)s->calls,
	            s->calls == 1 ? "" : "s");
	numfmt_duration(out, s->median_ns);
	strbuf_addf(out, ", %llu outlier%s", (unsigned long long)s->outliers,
	            s->outliers == 1 ? "" : "s");
	if (share >= 0)
		strbuf_addf(out, ", loop %.1f%% of end to end", share);
	cache(&s->cache, out);
	strbuf_addch(out, '\n');
}
