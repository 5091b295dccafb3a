/* What the pieces of the trace analyses (analysis/tracestages.h) share;
 * internal to them:
 *   tracestages.c   pass 1 (trace_collect) and the re-attribution: the
 *                   per-pid Overlap Analysis sums, the events' callbacks,
 *                   the public entry points;
 *   tracemarkers.c  the marker globs and their cached matcher, the marker
 *                   set (trace_markerset_*);
 *   traceoverlap.c  spans clipped to the stage segments (trace_segclip_*,
 *                   trace_overlap_add, trace_overlap_from_spans);
 *   traceflows.c    pass 2: markers mapped to device time through the
 *                   flows (trace_flowmap_*, trace_markers_from_profile).
 * It names the public header's types without including it, so that
 * tracestages.c may include both. */
#ifndef SDPERF_TRACESTAGES_INT_H
#define SDPERF_TRACESTAGES_INT_H

#include <stddef.h>
#include <stdint.h>

#include "input/trace.h"
#include "util/strbuf.h"

struct err;
struct trace_marker_rule;
struct trace_overlap;
struct trace_summary;

/* Where the input comes from: a file, or bytes in memory. */
struct trace_src {
	const char *name;
	const void *data; /* NULL: name is a path */
	size_t len;
};

/* trace_scan_file or trace_scan_mem on in (tracestages.c). */
int trace_src_scan(const struct trace_src *in, trace_want_fn want,
                   trace_event_fn fn, void *ctx, struct trace_scan *ts,
                   struct err *e);

/* The marker globs with a cache of the verdict per raw name
 * (tracemarkers.c). init: rules may be NULL (no markers wanted); the
 * cache is allocated only when there are rules. */
struct trace_matcher {
	const struct trace_marker_rule *rules;
	size_t nrules;
	struct strbuf tmp;
	struct trace_name_slot *cache; /* NAME_CACHE slots (tracemarkers.c) */
	size_t ncache;
};
void trace_matcher_init(struct trace_matcher *mt,
                        const struct trace_marker_rule *rules, size_t nrules);
void trace_matcher_release(struct trace_matcher *mt);
/* The first rule matching the raw name (cached), or -1; mt must have
 * rules. A name longer than TRACE_MARKER_NAME_MAX is never a marker. */
int trace_matcher_rule(struct trace_matcher *mt, const char *raw, size_t len);

/* to += from, every sum saturating (traceoverlap.c). */
void trace_overlap_merge(struct trace_overlap *to,
                         const struct trace_overlap *from);

/* A flow start or end of the NPU launches: cat "async_npu" or name
 * "torch_to_npu" (traceflows.c). */
int trace_is_npu_flow(const struct trace_event *ev);

/* Pass 2 over in: trace_map_markers (traceflows.c). */
int trace_map_input(const struct trace_src *in, struct trace_summary *s,
                    struct err *e);

#endif
