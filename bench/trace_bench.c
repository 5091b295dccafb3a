/* trace_collect on one trace_view.json: bytes, seconds, MB/s, events and
 * peak RSS, for bench/trace.sh. The built-in marker globs are used, so the
 * prefilter does the work a real run does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/rules.h"
#include "analysis/tracestages.h"
#include "util/banned.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rules ru = {0};
	struct trace_marker_rule *mr = NULL;
	struct trace_summary s;
	struct err e = ERR_INIT;
	struct rusage ru_self;
	double t0, secs, cpu;
	size_t i;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: trace_bench TRACE_VIEW_JSON\n");
		return 2;
	}
	if (rules_load_builtin(&ru, &e))
		goto out;
	mr = calloc(ru.nmarkers + 1, sizeof(*mr));
	if (!mr)
		goto out;
	for (i = 0; i < ru.nmarkers; i++) {
		mr[i].glob = ru.markers[i].glob;
		mr[i].stage = (enum stage)ru.markers[i].target;
	}
	t0 = now();
	if (trace_collect(argv[1], mr, ru.nmarkers, NULL, 0, &s, &e))
		goto out;
	secs = now() - t0;
	getrusage(RUSAGE_SELF, &ru_self);
	/* CPU time too: on a shared machine wall time measures the others */
	cpu = (double)ru_self.ru_utime.tv_sec +
	      (double)ru_self.ru_utime.tv_usec / 1e6 +
	      (double)ru_self.ru_stime.tv_sec +
	      (double)ru_self.ru_stime.tv_usec / 1e6;
	printf("bytes %" PRId64 " seconds %.3f MB/s %.1f cpu_seconds %.3f "
	       "cpu_MB/s %.1f events %" PRIu64 " parsed %" PRIu64
	       " overlap_events %" PRIu64 " markers %zu flows %" PRIu64
	       " maxrss_kb %ld\n",
	       s.scan.size, secs, (double)s.scan.size / 1e6 / secs, cpu,
	       (double)s.scan.size / 1e6 / cpu, s.scan.elements, s.scan.parsed,
	       s.ov.events, s.nmarkers, s.flows, ru_self.ru_maxrss);
	if (s.nmarkers) { /* the second pass: markers mapped through flows */
		size_t byflows = 0;
		t0 = now();
		if (trace_map_markers(argv[1], &s, &e))
			goto out;
		secs = now() - t0;
		getrusage(RUSAGE_SELF, &ru_self);
		for (i = 0; i < s.nmarkers; i++)
			byflows += s.markers[i].method == MARKER_FLOWS;
		printf("map_markers: seconds %.3f MB/s %.1f markers %zu "
		       "by_flows %zu maxrss_kb %ld\n",
		       secs, (double)s.scan.size / 1e6 / secs, s.nmarkers,
		       byflows, ru_self.ru_maxrss);
	}
	trace_summary_release(&s);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "trace_bench: %s\n", e.msg);
	free(mr);
	rules_release(&ru);
	return rc;
}
