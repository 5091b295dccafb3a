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
#include "util/err.h"

/* The Overlap Analysis event names, indexed by result.h's enum ov:
 * "Computing", "Communication", "Communication(Not Overlapped)", "Free" */
extern const char *const ov_names[OV_KINDS];

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
};

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
 * budget refuses the markers (charged to out->charged). Marker names are
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
