/* What the analysis takes from trace_view.json: the profiler's own Overlap
 * Analysis (Computing / Communication / Not Overlapped / Free spans)
 * attributed to the stage segments, and the user's stage markers (host
 * record_function ranges) mapped to device time through the torch_to_npu
 * flows. Each function is one streamed pass over the file (input/trace.h):
 * nothing of the trace is kept but these sums and the markers. */
#ifndef SDPERF_TRACESTAGES_H
#define SDPERF_TRACESTAGES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "input/trace.h"
#include "input/traceprof.h"
#include "util/err.h"

struct trace_overlap {
	/* an "Overlap Analysis" process was found, by its process_name M
	 * event (never by pid); that event may come before or after its X
	 * events */
	int found;
	uint64_t events;         /* its X events named like the four kinds */
	int64_t total[OV_KINDS]; /* ns */
	/* each span clipped exactly to the segments of each stage; where
	 * segments overlap, the later segment owns the overlap */
	int64_t stage[STAGE_COUNT][OV_KINDS];
	int64_t outside[OV_KINDS]; /* the parts in no segment */
};

/* A rules-file marker glob (matched with rules_glob: case-insensitive). */
struct trace_marker_rule {
	const char *glob;
	enum stage stage;
};

enum marker_method {
	MARKER_FLOWS, /* device range from the flows launched in the range */
	MARKER_TIME   /* "time alignment": host and device share the clock */
};

struct trace_marker {
	/* owned; only the first RESULT_MAX_MARKERS markers (in this order)
	 * keep their names, the others have NULL: the report lists those */
	char *name;
	uint32_t seq; /* position among the markers, in file order */
	enum stage stage;
	/* the host range: an X event with cat "cpu_op" or "user_annotation"
	 * whose name matches a rule (the first matching rule gives the
	 * stage) */
	int64_t host_start_ns, host_end_ns;
	int64_t dev_start_ns, dev_end_ns; /* the device time it maps to */
	enum marker_method method;
	uint64_t flows; /* flows that mapped it (0 for MARKER_TIME) */
};

struct trace_summary {
	struct trace_scan scan; /* of the first pass: size, form, truncation */
	struct trace_overlap ov;
	struct trace_marker *markers; /* sorted by host start (outer first
	                               * when two start together) */
	size_t nmarkers;
	/* flow start events seen: 's' with cat "async_npu" or name
	 * "torch_to_npu" */
	uint64_t flows;
	uint64_t charged; /* bytes charged to the memory budget (markers) */
	/* what pass 1 sees of how the trace was collected, from the
	 * prefilter's "ph" and "name" alone: a process named "Python" (the
	 * host, ProfilerActivity.CPU) or "NPU MEM", ProfilerStep#N ranges,
	 * and counters ("C") named "APP/..." (NPU MEM's, profile_memory);
	 * shapes is 1 when one of the first TRACE_SHAPE_PROBES operators
	 * named "aten::..." (parsed for it) has "Input Dims" */
	int host_process, mem_process, shapes;
	uint64_t step_ranges, app_counters;
};
#define TRACE_SHAPE_PROBES 256

/* Distinct processes named "Overlap Analysis" (the profiler writes one
 * per device): more is an input error. The per-pid sums of Overlap
 * Analysis spans are charged to the memory budget. */
#define TRACE_MAX_OVERLAP_PIDS 4096u

/* A name longer than this is never a stage marker (and is neither copied
 * nor matched against the globs): marker names are short words. */
#define TRACE_MARKER_NAME_MAX 1024

/* The most flow ids waiting for their other end at once in
 * trace_map_markers (the profiler writes each 's' next to its 'f', so real
 * traces need a handful). Beyond it, or when the memory budget refuses a
 * bigger table, every marker falls back to MARKER_TIME. */
#define TRACE_MAX_PENDING_FLOWS (1u << 20)

/* Pass 1: the Overlap Analysis attributed to segs (sorted by start; may be
 * NULL/0), the markers' host ranges (device range = host range, method
 * MARKER_TIME, until trace_map_markers), the flow count. out is
 * overwritten; release it with trace_summary_release (also after an
 * error). A truncated trace is not an error: out->scan.truncated says so.
 * Errors are those of trace_scan_file, and ERR_INPUT when the memory
 * budget refuses the markers (charged to out->charged), the per-pid sums
 * or the clipping sums, or more than TRACE_MAX_OVERLAP_PIDS processes are
 * named "Overlap Analysis". Marker names are
 * matched on their raw text (a name spelled with JSON escapes is not
 * recognised). */
int trace_collect(const char *path, const struct trace_marker_rule *rules,
                  size_t nrules, const struct segment *segs, size_t nsegs,
                  struct trace_summary *out, struct err *e);

/* Pass 2 (only useful when out->nmarkers > 0): pairs the flow 's' (host
 * ts) and 'f' (device ts) events of cat "async_npu" / name "torch_to_npu"
 * by id; a marker's device range becomes [min, max] of the device ts of
 * the flows whose host ts falls in its host range (the innermost marker
 * when they nest), method MARKER_FLOWS. Markers no flow reaches, or all
 * markers when more than TRACE_MAX_PENDING_FLOWS ids wait at once, keep
 * the host range (MARKER_TIME). */
int trace_map_markers(const char *path, struct trace_summary *out,
                      struct err *e);

/* Recomputes *ov from the file for other segments (after the markers
 * changed the stages). */
int trace_attribute_overlap(const char *path, const struct segment *segs,
                            size_t nsegs, struct trace_overlap *ov,
                            struct err *e);

void trace_summary_release(struct trace_summary *s);

/* ---- the same analyses fed by another reader -----------------------------
 * A profile exported as SQLite (input/db.h) holds the same data in tables:
 * these let its rows go through the very arithmetic the trace's events go
 * through. */

/* Segments (sorted by start; may be NULL/0) made ready for clipping
 * spans to them: per-stage prefix sums, so a span over many segments
 * costs O(log n). init allocates (STAGE_COUNT x nsegs int64), charged to
 * the memory budget: 0, or -1 with an ERR_INPUT error naming name when
 * the budget refuses (nothing allocated; release is still safe). release
 * frees and gives the charge back; segs must outlive it. */
struct trace_segclip {
	const struct segment *segs;
	size_t nsegs;
	int64_t *pre[STAGE_COUNT]; /* pre[st][i]: ns of stage st in segments
	                            * 0..i-1 (each up to the next's start) */
	uint64_t charged;
};
int trace_segclip_init(struct trace_segclip *sc, const struct segment *segs,
                       size_t nsegs, const char *name, struct err *e);
void trace_segclip_release(struct trace_segclip *sc);

/* Adds one Overlap Analysis span of kind k (enum ov) [start, start + dur)
 * to ov: to its total, its parts inside sc's segments to their stages,
 * the rest to outside. Bad spans are ignored. */
void trace_overlap_add(struct trace_overlap *ov, const struct trace_segclip *sc,
                       int k, int64_t start_ns, int64_t dur_ns);

/* Index of the first rule whose glob matches name, or -1. */
int trace_marker_rule_of(const struct trace_marker_rule *rules, size_t n,
                         const char *name);

/* Markers as a reader finds them (the trace's events, the db's rows, a
 * trace-only profile's ranges): the array grows charged to the memory
 * budget, and only the first RESULT_MAX_MARKERS in the final order (host
 * start, outer first, then the order found) keep their names, in a
 * bounded heap, whatever the number found. */
struct trace_markerset {
	struct trace_marker *m;
	size_t n, alloc;
	uint64_t charged;
	int refused; /* the budget refused the array's growth */
	/* the first RESULT_MAX_MARKERS, the last of them on top */
	struct trace_marker named[RESULT_MAX_MARKERS];
	size_t nnamed;
};
void trace_markerset_init(struct trace_markerset *ms);
/* Adds a marker of stage st over the host range [start, end] (device range
 * the same, MARKER_TIME): 0, or -1 once the budget refused (ms->refused;
 * later adds do nothing). */
int trace_markerset_add(struct trace_markerset *ms, const char *name,
                        enum stage st, int64_t start_ns, int64_t end_ns);
/* Sorts the markers (as trace_summary.markers are), gives the kept names
 * to the first of them and moves them to out (markers, nmarkers, charged).
 * ms is empty afterwards. */
void trace_markerset_finish(struct trace_markerset *ms,
                            struct trace_summary *out);
void trace_markerset_release(struct trace_markerset *ms);
/* The error for a refused set: "NAME: stage markers (N found)". */
int trace_markerset_fail(const struct trace_markerset *ms, const char *name,
                         struct err *e);

/* trace_map_markers' mapping, fed one host -> device link at a time: begin
 * on s (markers sorted), pair each link's host and device times, end to
 * set every marker's device range and method (MARKER_FLOWS when links
 * reached it, else MARKER_TIME) and free the map. */
struct trace_flowmap;
/* NULL with an ERR_INPUT error naming name when the memory budget refuses
 * the markers' search tree (up to 32 bytes a marker). */
struct trace_flowmap *trace_flowmap_begin(struct trace_summary *s,
                                          const char *name, struct err *e);
void trace_flowmap_pair(struct trace_flowmap *m, int64_t host_ns,
                        int64_t dev_ns);
void trace_flowmap_end(struct trace_flowmap *m);

/* ---- a trace read in one pass (input/traceprof.h: a trace-only profile) */

/* The marker globs as a traceprof_match_fn (pass the matcher as its ctx):
 * the first rule a range name matches, cached per raw name. rules must
 * outlive the matcher. */
struct trace_matcher;
struct trace_matcher *trace_matcher_new(const struct trace_marker_rule *rules,
                                        size_t nrules);
int trace_matcher_match(const char *name, size_t len, void *matcher);
void trace_matcher_free(struct trace_matcher *mt);

/* The markers of tp (its ranges with a rule; rules as given to the
 * matcher) into out->markers, sorted and mapped to device time through tp's
 * flows exactly as trace_map_markers maps them, charged and named as
 * trace_collect's (a trace_markerset). out must start zeroed (or hold no
 * markers). 0, or -1 with an ERR_INPUT error naming name (tp's file)
 * when the memory budget refuses the markers or their flow mapping. */
int trace_markers_from_profile(const struct traceprof *tp, const char *name,
                               const struct trace_marker_rule *rules,
                               size_t nrules, struct trace_summary *out,
                               struct err *e);

/* *ov from tp's Overlap Analysis spans, clipped to segs as trace_collect
 * clips the events: 0, or -1 when the budget refuses the clipping sums
 * (trace_segclip_init). */
int trace_overlap_from_spans(const struct traceprof *tp, const char *name,
                             const struct segment *segs, size_t nsegs,
                             struct trace_overlap *ov, struct err *e);

/* The same three over len bytes in memory (name is used in messages): for
 * tests and fuzzing. */
int trace_collect_mem(const char *name, const void *data, size_t len,
                      const struct trace_marker_rule *rules, size_t nrules,
                      const struct segment *segs, size_t nsegs,
                      struct trace_summary *out, struct err *e);
int trace_map_markers_mem(const char *name, const void *data, size_t len,
                          struct trace_summary *out, struct err *e);
int trace_attribute_overlap_mem(const char *name, const void *data, size_t len,
                                const struct segment *segs, size_t nsegs,
                                struct trace_overlap *ov, struct err *e);

#endif
