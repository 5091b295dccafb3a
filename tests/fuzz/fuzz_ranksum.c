/* libFuzzer target: the summary reader (sdperf summarize's files, read by
 * report, diff and check) must never crash, hang or leak on any input. A
 * summary it accepts writes back to bytes that read again into the same
 * bytes, and merges and renders as a run's one rank would. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cluster.h"
#include "analysis/collection.h"
#include "analysis/ranksum.h"
#include "analysis/rules.h"
#include "format/json/json.h"
#include "format/json/ranksum_json.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rules ru;
static int have_rules;

static void merge_and_render(struct ranksum *s)
{
	struct result r;
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (!have_rules) {
		if (rules_load_builtin(&ru, &e))
			abort();
		have_rules = 1;
	}
	result_init(&r);
	cluster_merge(&s->part, 1, &ru, &r);
	collection_check(&r);
	if (render_json(&r, "0", &out, &e))
		abort(); /* a capped summary is far below the writer's limit */
	result_release(&r);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ranksum s, again;
	struct strbuf w1 = STRBUF_INIT, w2 = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (ranksum_read_text("fuzz.json", (const char *)data, size, &s, &e)) {
		if (e.code != ERR_INPUT || !e.msg[0])
			abort();
		ranksum_release(&s);
		return 0;
	}
	if (render_ranksum(&s, &w1, &e))
		abort();
	if (ranksum_read_text("again.json", w1.buf, w1.len, &again, &e))
		abort(); /* what sdperf writes, it reads */
	if (render_ranksum(&again, &w2, &e))
		abort();
	if (w1.len != w2.len || memcmp(w1.buf, w2.buf, w1.len))
		abort(); /* and writes again byte for byte */
	merge_and_render(&s);
	ranksum_release(&again);
	ranksum_release(&s);
	strbuf_release(&w1);
	strbuf_release(&w2);
	return 0;
}
