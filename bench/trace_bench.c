/* trace_collect on one trace_view.json: bytes, seconds, MB/s, events and
 * peak RSS, for bench/trace.sh. The built-in marker globs are used, so the
 * prefilter does the work a real run does. With --trace-only, the one pass
 * of a trace-only profile instead (input/traceprof.h: kernels, Overlap
 * Analysis spans, step and marker ranges, flows). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/rules.h"
#include "analysis/tracestages.h"
#include "input/traceprof.h"
#include "util/banned.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(struct rusage *ru)
{
	getrusage(RUSAGE_SELF, ru);
	return (double)ru->ru_utime.tv_sec +
	       (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/* The trace-only pass: what `sdperf report` on a lone trace reads. */
static int trace_only(const char *path, struct trace_marker_rule *mr,
                      size_t nmr)
{
	struct trace_matcher *mt = trace_matcher_new(mr, nmr);
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	struct rusage ru;
	double t0, secs, cpu;
	size_t spans = 0;
	int k, rc = 1;

	kernel_table_init(&kt);
	t0 = now();
	if (traceprof_read(path, trace_matcher_match, mt, &kt, &tp, &e)) {
		fprintf(stderr, "trace_bench: %s\n", e.msg);
		goto out;
	}
	secs = now() - t0;
	cpu = cpu_seconds(&ru);
	for (k = 0; k < OV_KINDS; k++)
		spans += tp.nov[k];
	printf("trace_only: bytes %" PRId64 " seconds %.3f MB/s %.1f "
	       "cpu_seconds %.3f events %" PRIu64 " raw %" PRIu64
	       " parsed %" PRIu64 " kernels %zu Mkernels/s %.2f subtasks "
	       "%" PRIu64 " spans %zu ranges %zu flows %zu maxrss_kb %ld\n",
	       tp.scan.size, secs, (double)tp.scan.size / 1e6 / secs, cpu,
	       tp.scan.elements, tp.scan.raw, tp.scan.parsed, kt.n,
	       (double)kt.n / 1e6 / secs, tp.subtasks, spans, tp.nranges,
	       tp.nflows, ru.ru_maxrss);
	rc = 0;
out:
	traceprof_release(&tp);
	kernel_table_release(&kt);
	trace_matcher_free(mt);
	return rc;
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

	int only = argc == 3 && !strcmp(argv[1], "--trace-only");

	if (argc != 2 && !only) {
		fprintf(stderr,
		        "usage: trace_bench [--trace-only] TRACE_VIEW_JSON\n");
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
	if (only) {
		rc = trace_only(argv[2], mr, ru.nmarkers);
		free(mr);
		rules_release(&ru);
		return rc;
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
