/* libFuzzer target: the trace_view.json scanner and the trace analysis
 * must never crash, hang or leak on any input; the first byte picks the
 * chunk size so that state is carried across chunk edges too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tracestages.h"
#include "input/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int want_all(char ph, const char *name, size_t len, void *ctx)
{
	(void)ph;
	(void)ctx;
	if (len && !name)
		abort();
	return 1;
}

static void check(const struct trace_event *ev, void *ctx)
{
	uint64_t *n = ctx;

	if (!ev->name || !ev->cat || !ev->id || !ev->bp || !ev->arg_name ||
	    ev->dur_ns < -1)
		abort();
	(*n)++;
}

static void check_scan(const struct trace_scan *ts, size_t size)
{
	if (ts->parsed > ts->elements || ts->truncated_at > size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct trace_marker_rule rules[] = {
	    {"vae*", STAGE_VAE}, {"*transformer*", STAGE_DIT}};
	const struct segment segs[] = {{STAGE_DIT, 0, 1000000, 0, 0, 0},
	                               {STAGE_VAE, 500000, 3000000, 0, 0, 0}};
	struct trace_scan ts;
	struct trace_summary s;
	struct err e = ERR_INIT;
	uint64_t n = 0;
	size_t chunk = size ? (size_t)(data[0] % 17) + 1 : 1;
	int rc;

	rc = trace_scan_mem_chunked("fuzz.json", data, size, chunk, want_all,
	                            check, &n, &ts, &e);
	if (rc == 0) {
		check_scan(&ts, size);
		if (n != ts.parsed)
			abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	err_clear(&e);
	rc = trace_collect_mem("fuzz.json", data, size, rules, 2, segs, 2, &s,
	                       &e);
	if (rc == 0) {
		int k;
		check_scan(&s.scan, size);
		for (k = 0; k < OV_KINDS; k++)
			if (s.ov.outside[k] < 0 ||
			    s.ov.outside[k] > s.ov.total[k])
				abort();
		/* may fail: pass 2 parses events pass 1 skipped */
		trace_map_markers_mem("fuzz.json", data, size, &s, &e);
	}
	trace_summary_release(&s);
	return 0;
}
