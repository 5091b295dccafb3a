/* trace_view.json reader: a streaming scanner over the Chrome-trace event
 * array that hands one event at a time to the caller, in bounded memory.
 * Only this module (with its internal helper input/trace_raw.h, which
 * reads the bytes of one complete element) knows the JSON text of a trace.
 *
 * How: the file is read in 1 MiB chunks (through infile, so .gz works); a
 * byte scanner that respects strings and escapes finds each top-level array
 * element by counting brace/bracket depth. For each element a raw prefilter
 * takes the "ph" value and the "name" string at depth 1 of the object (raw
 * bytes, escapes not decoded, key order and spacing free) and asks the
 * caller's want(); only wanted elements are parsed (cJSON), one at a time,
 * and freed at once. Unwanted elements are never validated beyond their
 * bracket structure: that is what makes the scan fast.
 *
 * Accepted forms: a bare array `[ {...}, ... ]` and an object
 * `{"traceEvents": [ ... ], ...}` whose other members are skipped wherever
 * they stand. Memory: the chunk plus the largest event (an event over
 * TRACE_MAX_EVENT bytes is an error) and its tree when it is wanted (a
 * wanted event over 64 KiB charges the memory budget 48 bytes per byte
 * while it is parsed: util/membudget.h). Reentrant: no mutable static state in
 * this module, so ranks may be read in parallel threads (cJSON itself
 * writes a static error position on each parse, which nothing here reads).
 */
#ifndef SDPERF_TRACE_H
#define SDPERF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define TRACE_CHUNK     (1u << 20)
#define TRACE_MAX_EVENT (16u << 20)

enum trace_form { TRACE_FORM_ARRAY, TRACE_FORM_OBJECT };

/* One parsed event. Strings are valid only during the callback. */
struct trace_event {
	char ph;                /* 'X', 'M', 's', 'f', 'C', ...; 0 if absent */
	const char *name, *cat; /* decoded; "" when absent */
	int64_t pid, tid;       /* number or numeric string; -1 when absent */
	/* "ts": string or number of microseconds, parsed from the decimal
	 * text exactly to the ns (a 4th decimal rounds half up); INT64_MIN
	 * when absent or bad */
	int64_t ts_ns;
	int64_t dur_ns; /* "dur" in us -> ns; -1 when absent or bad */
	const char *id; /* flow id as text (int or string); "" if absent */
	const char *bp; /* "bp" ("e") or "" */
	const char *arg_name; /* M events: args.name; "" otherwise */
	int input_dims;       /* args has "Input Dims" (record_shapes) */
	uint64_t offset;      /* byte offset of the element (uncompressed) */
};

/* What a prefilter wants done with an element. */
enum trace_want {
	TRACE_SKIP = 0, /* nothing */
	TRACE_PARSE =
	    1,        /* parse it (cJSON) and pass it to the event callback */
	TRACE_RAW = 2 /* hand its bytes to the raw callback, unparsed */
};

/* Prefilter: ph is the first character of the raw "ph" string (0 when
 * absent), name/len the raw bytes of the "name" string without its quotes
 * (escapes NOT decoded; "" and 0 when absent; not NUL-terminated). Returns
 * an enum trace_want (any other nonzero value means TRACE_PARSE). */
typedef int (*trace_want_fn)(char ph, const char *name, size_t len, void *ctx);
typedef void (*trace_event_fn)(const struct trace_event *ev, void *ctx);

/* A TRACE_RAW element: its bytes and members, read with input/trace_raw.h
 * (valid only during the call; the scanner checked that its strings and
 * brackets balance, nothing more), and its byte offset. Returns 0 when
 * done with it, 1 to have it parsed and passed to the event callback after
 * all (the slow path, e.g. for a name spelled with escapes). */
struct trace_raw_el;
typedef int (*trace_raw_fn)(const struct trace_raw_el *el, uint64_t offset,
                            void *ctx);

/* The callbacks of a scan. want NULL: every element goes to raw, without
 * the prefilter (a reader that takes most elements raw reads "ph" itself,
 * once), or, without raw, is parsed; raw NULL: TRACE_RAW elements are
 * parsed instead. */
struct trace_handler {
	trace_want_fn want;
	trace_event_fn event;
	trace_raw_fn raw;
	void *ctx;
};

struct trace_scan {
	int64_t size;          /* bytes on disk (the length for _mem) */
	int gz;                /* the file was gzip-compressed */
	enum trace_form form;  /* bare array or {"traceEvents": [...]} */
	uint64_t elements;     /* complete array elements seen */
	uint64_t parsed;       /* of which wanted and parsed */
	uint64_t raw;          /* of which handed over raw (and not parsed) */
	int truncated;         /* the data ends early (see below) */
	uint64_t truncated_at; /* offset where the incomplete element starts,
	                        * or the end of the data when the cut falls
	                        * between elements */
};

/* Scans the trace at path, calling fn for each element want() accepts
 * (want NULL = every element). ts is filled (zeroed first).
 *
 * Returns 0 on success, also when the data is truncated (ends inside an
 * element or before the closing ']', or a truncated .gz stream): every
 * complete element before the cut was delivered, ts->truncated is 1 and
 * the caller should warn.
 *
 * Returns -1 with ERR_INPUT for: an unreadable file; an empty file; a
 * top-level value that is neither an array nor an object; an object
 * without a "traceEvents" array; garbage where an element or a separator
 * must stand; an element that is not an object, that cJSON rejects, or
 * that is over TRACE_MAX_EVENT bytes. Messages read
 * `PATH: byte N: <what>: '<bytes>'` (N = uncompressed byte offset, at most
 * ~40 bytes quoted, control characters escaped). */
int trace_scan_file(const char *path, trace_want_fn want, trace_event_fn fn,
                    void *ctx, struct trace_scan *ts, struct err *e);

/* The same over len bytes in memory; name is used in messages. */
int trace_scan_mem(const char *name, const void *data, size_t len,
                   trace_want_fn want, trace_event_fn fn, void *ctx,
                   struct trace_scan *ts, struct err *e);

/* As trace_scan_mem, but the scanner receives the data in pieces of chunk
 * bytes (>= 1) as if read from a file: for tests and fuzzing of the
 * chunk-boundary handling. */
int trace_scan_mem_chunked(const char *name, const void *data, size_t len,
                           size_t chunk, trace_want_fn want, trace_event_fn fn,
                           void *ctx, struct trace_scan *ts, struct err *e);

/* trace_scan_file and trace_scan_mem_chunked with every callback, raw
 * elements included (chunk 0 = TRACE_CHUNK). */
int trace_scan_file_with(const char *path, const struct trace_handler *h,
                         struct trace_scan *ts, struct err *e);
int trace_scan_mem_with(const char *name, const void *data, size_t len,
                        size_t chunk, const struct trace_handler *h,
                        struct trace_scan *ts, struct err *e);

/* Parses a decimal count of microseconds ("1736408883686740.710", "17",
 * "-3.5") to ns exactly, without floating point; a 4th decimal rounds half
 * away from zero, later ones are ignored. -1 when s is not such a number
 * or it does not fit in int64 ns. */
int trace_parse_us(const char *s, size_t len, int64_t *ns);

#endif
