/* libFuzzer target: the report.json reader must never crash, hang or leak
 * on any input; a snapshot it accepts compares with itself without error
 * unless no stage has kernels, and renders to diff.json. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/compare.h"
#include "input/snapshot.h"
#include "format/json/diff_json.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int any_stage(const struct snapshot *s)
{
	int k;

	for (k = 0; k < STAGE_COUNT; k++)
		if (s->stage[k].present)
			return 1;
	return 0;
}

/* sdperf check's look-ups by path on an accepted report. */
static void looks(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
	    "stages.dit.kernels",  "ranks.0.id",         "verdicts.1",
	    "tool.name",           "Stages.DIT.x",       "ranks.99999999",
	    "profile.steps.ids.0", "kernel_details.csv", ""};
	struct snapdoc *d = NULL;
	struct strbuf why = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *str;
	double num;
	size_t i;

	if (snapdoc_parse("fuzz.json", (const char *)data, size, &d, &e))
		abort(); /* snapshot_from_json accepted it */
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		strbuf_reset(&why);
		if (snapdoc_get(d, paths[i], &num, &str, &why) ==
		        SNAPDOC_MISSING &&
		    !why.len)
			abort(); /* a miss says why */
	}
	snapdoc_free(d);
	strbuf_release(&why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s;
	struct comparison c;
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	int rc;

	if (snapshot_from_json("fuzz.json", (const char *)data, size, &s, &e)) {
		if (e.code != ERR_INPUT || !e.msg[0])
			abort();
		snapshot_release(&s);
		return 0;
	}
	looks(data, size);
	rc = compare_snapshots(&s, &s, size & 1, &c, &e);
	if ((rc == 0) != any_stage(&s))
		abort();
	if (rc == 0) {
		if (c.nwarnings)
			abort(); /* a run never differs in shape from itself */
		render_diff_json(&c, "0", &out);
	}
	comparison_release(&c);
	snapshot_release(&s);
	strbuf_release(&out);
	return 0;
}
