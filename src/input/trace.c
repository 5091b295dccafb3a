/* trace_view.json streaming scanner: a byte-level state machine finds the
 * top-level array elements, a raw prefilter (input/trace_raw.c) picks the
 * wanted ones, cJSON parses only those. The grammar between elements is
 * checked strictly (so garbage is reported where it stands); the inside of
 * an unwanted element only has its strings and bracket depth followed. */
#include "input/trace.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "input/jsonerr.h"
#include "input/trace_raw.h"
#include "util/infile.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX 40 /* bytes of bad input quoted in a message */
/* wanted events up to this size parse without charging the budget: a
 * real one is a few hundred bytes, and their trees are freed at once */
#define TRACE_FREE_PARSE (64u << 10)

enum state {
	ST_START,    /* before the top-level value */
	ST_ARR_OPEN, /* after '[': an element or ']' */
	ST_ARR_NEXT, /* after ',': an element (or ']': a trailing comma) */
	ST_ELEM,     /* inside an element */
	ST_ARR_SEP,  /* after an element: ',' or ']' */
	ST_OBJ_OPEN, /* after the top-level '{': a key or '}' */
	ST_OBJ_NEXT, /* after ',' in the top-level object */
	ST_KEY,      /* inside a top-level key */
	ST_COLON,
	ST_VALUE,   /* before a top-level member's value */
	ST_SKIP,    /* inside a member value other than traceEvents */
	ST_OBJ_SEP, /* after a member: ',' or '}' */
	ST_TAIL     /* after the top-level value: only white space */
};

enum vkind { V_STRUCT, V_STRING, V_SCALAR };

struct source {
	struct infile *f; /* NULL: read from mem */
	const char *mem;
	size_t memlen, mempos;
	size_t chunk;
	int gz_truncated;
};

struct scanner {
	const char *name;
	struct source src;
	struct trace_handler h;
	struct trace_scan *ts;
	struct err *e;

	char *buf;
	size_t cap, len, pos;
	uint64_t base; /* offset of buf[0] in the data */
	size_t mark;   /* start of the element/key being read */
	int keep;      /* keep buf[mark..] across refills */
	uint64_t tok_at;

	enum state st;
	int in_events, seen_events, is_events_key;
	unsigned bom;
	enum vkind vk;
	/* bracket depth inside a skipped value: 64 bits, as a gzip of a few
	 * MB inflates to 2^31 '[' (an int overflowed there) */
	int64_t depth;
	int in_str, esc;
	/* offsets (from mark) of the strings at depth 1 of the element: its
	 * keys and string values, so the prefilter need not walk it again */
	uint32_t d1[TRACE_RAW_D1_MAX];
	size_t nd1;
	struct strbuf idbuf;
};

static int fail_at(struct scanner *s, size_t at, const char *what)
{
	struct strbuf q;

	strbuf_init(&q);
	strbuf_add_quoted_value(&q, s->buf + at, s->len - at, QUOTE_MAX);
	err_set(s->e, ERR_INPUT, "%s: byte %" PRIu64 ": %s: %s", s->name,
	        s->base + at, what, q.buf);
	strbuf_release(&q);
	return -1;
}

/* The public name of the number parser; the work is raw-byte work. */
int trace_parse_us(const char *s, size_t len, int64_t *ns)
{
	return trace_raw_parse_us(s, len, ns);
}

/* ---- building the event -------------------------------------------------- */

/* The members fill_event reads, by name. */
enum field {
	F_PH,
	F_NAME,
	F_CAT,
	F_BP,
	F_PID,
	F_TID,
	F_TS,
	F_DUR,
	F_ID,
	F_ARGS,
	F_COUNT,
	F_NONE = F_COUNT
};
static const char *const field_keys[F_COUNT] = {
    "ph", "name", "cat", "bp", "pid", "tid", "ts", "dur", "id", "args"};

static const unsigned char field_len[F_COUNT] = {2, 4, 3, 2, 3, 3, 2, 3, 2, 4};

static enum field field_of(const char *k, size_t len)
{
	int f;

	for (f = 0; f < F_COUNT; f++)
		if (len == field_len[f] && !memcmp(k, field_keys[f], len))
			return (enum field)f;
	return F_NONE;
}

/* One event's members: cJSON items (decoded strings) and, for numbers, the
 * raw text (cJSON keeps numbers only as doubles: 19-digit ids and ns
 * timestamps do not survive that). The first of a repeated key counts, as
 * in cJSON's getters. */
struct fields {
	const cJSON *item[F_COUNT];
	const char *raw[F_COUNT];
	size_t rawlen[F_COUNT];
};

static void fields_get(struct fields *fs, const cJSON *root,
                       const struct trace_raw_el *el)
{
	struct trace_raw_it it;
	struct trace_raw_member m;
	const cJSON *c;
	enum field f;

	memset(fs, 0, sizeof(*fs));
	for (c = root->child; c; c = c->next) {
		f = c->string ? field_of(c->string, strlen(c->string)) : F_NONE;
		if (f != F_NONE && !fs->item[f])
			fs->item[f] = c;
	}
	trace_raw_it_init(&it, el);
	while (trace_raw_it_next(&it, &m)) {
		f = field_of(m.key, m.klen);
		if (f != F_NONE && f != F_ARGS && !fs->raw[f]) {
			fs->raw[f] = m.val;
			fs->rawlen[f] = m.vlen;
		}
	}
}

static const char *fs_str(const struct fields *fs, enum field f)
{
	const cJSON *it = fs->item[f];
	return cJSON_IsString(it) && it->valuestring ? it->valuestring : "";
}

/* The text of a string member or of a number member. */
static int fs_text(const struct fields *fs, enum field f, const char **t,
                   size_t *tlen)
{
	const cJSON *it = fs->item[f];

	if (cJSON_IsString(it) && it->valuestring) {
		*t = it->valuestring;
		*tlen = strlen(it->valuestring);
		return 1;
	}
	if (!cJSON_IsNumber(it) || !fs->raw[f])
		return 0;
	*t = fs->raw[f];
	*tlen = fs->rawlen[f];
	return 1;
}

static int64_t fs_int(const struct fields *fs, enum field f)
{
	const char *t;
	size_t tl;
	int64_t v;

	if (fs_text(fs, f, &t, &tl) && !trace_raw_parse_i64(t, tl, &v))
		return v;
	return -1;
}

static void fill_event(struct scanner *s, const cJSON *root,
                       const struct trace_raw_el *el, struct trace_event *ev)
{
	struct fields fs;
	const char *t;
	size_t tl;
	const cJSON *an;

	fields_get(&fs, root, el);
	ev->ph = fs_str(&fs, F_PH)[0];
	ev->name = fs_str(&fs, F_NAME);
	ev->cat = fs_str(&fs, F_CAT);
	ev->bp = fs_str(&fs, F_BP);
	ev->pid = fs_int(&fs, F_PID);
	ev->tid = fs_int(&fs, F_TID);
	if (!fs_text(&fs, F_TS, &t, &tl) ||
	    trace_raw_parse_us(t, tl, &ev->ts_ns))
		ev->ts_ns = INT64_MIN;
	if (!fs_text(&fs, F_DUR, &t, &tl) ||
	    trace_raw_parse_us(t, tl, &ev->dur_ns) || ev->dur_ns < 0)
		ev->dur_ns = -1;
	strbuf_reset(&s->idbuf);
	if (fs_text(&fs, F_ID, &t, &tl))
		strbuf_add(&s->idbuf, t, tl);
	ev->id = s->idbuf.buf;
	an = cJSON_GetObjectItemCaseSensitive(fs.item[F_ARGS], "name");
	ev->arg_name = ev->ph == 'M' && cJSON_IsString(an) && an->valuestring
	                   ? an->valuestring
	                   : "";
	ev->input_dims = cJSON_GetObjectItemCaseSensitive(fs.item[F_ARGS],
	                                                  "Input Dims") != NULL;
	ev->offset = s->base + s->mark;
}

static int handle_element(struct scanner *s)
{
	struct trace_raw_el el = {s->buf + s->mark, s->pos - s->mark, s->d1,
	                          s->nd1};
	const char *endp = NULL;
	struct trace_event ev;
	const char *name;
	size_t nlen;
	cJSON *root;
	uint64_t cost;
	char ph;
	int want;

	s->keep = 0;
	if (el.n > TRACE_MAX_EVENT)
		return fail_at(s, s->mark, "event larger than 16 MiB");
	s->ts->elements++;
	if (s->h.want) {
		trace_raw_prefilter(&el, &ph, &name, &nlen);
		want = s->h.want(ph, name, nlen, s->h.ctx);
	} else { /* no prefilter: a raw reader reads "ph" itself */
		want = s->h.raw ? TRACE_RAW : TRACE_PARSE;
	}
	if (want == TRACE_SKIP)
		return 0;
	if (want == TRACE_RAW && s->h.raw &&
	    !s->h.raw(&el, s->base + s->mark, s->h.ctx)) {
		s->ts->raw++;
		return 0;
	}
	s->ts->parsed++;
	/* a large wanted event's tree (up to ~40 times its text) is charged
	 * to the memory budget while it lives */
	cost = el.n > TRACE_FREE_PARSE ? (uint64_t)el.n * 48 : 0;
	if (cost && membudget_charge(cost))
		return membudget_fail(s->e, cost,
		                      "%s: byte %" PRIu64 ": an event of %zu "
		                      "bytes to parse",
		                      s->name, s->base + s->mark, el.n);
	root = jsonerr_cjson_parse(el.p, el.n, &endp);
	if (!root || endp != el.p + el.n) {
		membudget_release(cost);
		cJSON_Delete(root);
		if (!endp || endp < el.p || endp > el.p + el.n)
			endp = el.p;
		return fail_at(s, (size_t)(endp - s->buf), "invalid event");
	}
	memset(&ev, 0, sizeof(ev));
	fill_event(s, root, &el, &ev);
	if (s->h.event)
		s->h.event(&ev, s->h.ctx);
	cJSON_Delete(root);
	membudget_release(cost);
	return 0;
}

/* ---- the byte scanner -----------------------------------------------------
 */

/* Starts a value at buf[pos]; keep = retain its bytes (element, key). */
static int begin_value(struct scanner *s, enum state st, int keep)
{
	unsigned char c = (unsigned char)s->buf[s->pos];

	s->st = st;
	s->tok_at = s->base + s->pos;
	s->mark = s->pos;
	s->keep = keep;
	s->depth = 0;
	s->in_str = s->esc = 0;
	s->nd1 = 0;
	if (c == '{' || c == '[') {
		s->vk = V_STRUCT;
	} else if (c == '"') {
		s->vk = V_STRING;
		s->in_str = 1;
		s->pos++;
	} else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
	           c == 'n') {
		s->vk = V_SCALAR;
	} else {
		return fail_at(s, s->pos, "expected a json value");
	}
	return 0;
}

/* Why scanning a piece of a value stopped. */
enum piece {
	P_MORE,   /* the buffer ran out */
	P_DONE,   /* the string or the value is complete */
	P_STRING, /* an opening quote was passed */
	P_BROKEN  /* a raw line break inside a string */
};

/* Inside a string from p: returns just past its closing quote (P_DONE), at
 * a raw line break (P_BROKEN) or at end (P_MORE; s->esc notes a backslash
 * that was the last byte, its escaped byte is still to come). Inline, with
 * the state in the caller's locals: this and struct_piece are the loop
 * that reads every byte of the trace. */
static inline const unsigned char *string_piece(struct scanner *s,
                                                const unsigned char *p,
                                                const unsigned char *end,
                                                enum piece *r)
{
	for (;;) {
		while (p < end && !trace_raw_str_class[*p])
			p++;
		*r = P_MORE;
		if (p == end)
			return p;
		if (trace_raw_str_class[*p] == TRACE_RAW_STR_BREAK) {
			*r = P_BROKEN;
			return p;
		}
		if (*p++ == '"') {
			*r = P_DONE;
			return p;
		}
		if (p == end) {
			s->esc = 1;
			return p;
		}
		p++; /* the escaped byte */
	}
}

/* Outside strings from p: returns just past an opening quote (P_STRING;
 * one at depth 1 of a kept element is noted in d1 for the prefilter), past
 * the bracket that closes the value (P_DONE) or at end (P_MORE). */
static inline const unsigned char *struct_piece(struct scanner *s,
                                                const unsigned char *p,
                                                const unsigned char *end,
                                                int64_t *depth, enum piece *r)
{
	const unsigned char *b = (const unsigned char *)s->buf;

	for (;;) {
		while (p < end && !trace_raw_out_class[*p])
			p++;
		*r = P_MORE;
		if (p == end)
			return p;
		if (*p == '"') {
			if (*depth == 1 && s->keep && s->nd1 < TRACE_RAW_D1_MAX)
				s->d1[s->nd1++] = (uint32_t)(p - b - s->mark);
			*r = P_STRING;
			return p + 1;
		}
		if (*p == '{' || *p == '[') {
			++*depth;
		} else if (--*depth == 0) {
			*r = P_DONE;
			return p + 1;
		}
		p++;
	}
}

/* Advances through a string or a bracketed value: 1 when it is complete
 * (pos just after it), 0 when the buffer ran out first, -1 on a line break
 * inside a string. */
static int scan_struct(struct scanner *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	const unsigned char *p = b + s->pos, *end = b + s->len;
	int64_t depth = s->depth;
	int in_str = s->in_str;
	enum piece r;

	if (s->esc) {
		s->esc = 0;
		p++;
	}
	for (;;) {
		if (in_str) {
			p = string_piece(s, p, end, &r);
			if (r != P_DONE)
				break;
			in_str = 0;
			if (depth == 0)
				break; /* a key or a string value: complete */
		}
		p = struct_piece(s, p, end, &depth, &r);
		if (r != P_STRING)
			break;
		in_str = 1;
	}
	s->depth = depth;
	s->in_str = in_str;
	s->pos = (size_t)(p - b);
	return r == P_DONE ? 1 : r == P_BROKEN ? -1 : 0;
}

static int scan_scalar(struct scanner *s)
{
	while (s->pos < s->len) {
		int c = (unsigned char)s->buf[s->pos];
		if (trace_raw_is_ws(c) || c == ',' || c == '}' || c == ']')
			return 1;
		s->pos++;
	}
	return 0;
}

static int value_done(struct scanner *s)
{
	switch (s->st) {
	case ST_ELEM:
		s->st = ST_ARR_SEP;
		return handle_element(s);
	case ST_KEY:
		s->is_events_key =
		    s->pos - s->mark == 13 &&
		    !memcmp(s->buf + s->mark, "\"traceEvents\"", 13);
		s->keep = 0;
		s->st = ST_COLON;
		return 0;
	default:
		s->st = ST_OBJ_SEP;
		return 0;
	}
}

/* ---- the grammar between elements and members ------------------------- */

/* Consumes the byte at pos and moves to st. */
static int advance(struct scanner *s, enum state st)
{
	s->st = st;
	s->pos++;
	return 0;
}

static int end_array(struct scanner *s)
{
	int in_events = s->in_events;

	s->in_events = 0;
	return advance(s, in_events ? ST_OBJ_SEP : ST_TAIL);
}

static int start(struct scanner *s, int c)
{
	if (s->bom < 3 && c == (unsigned char)"\xef\xbb\xbf"[s->bom] &&
	    s->base + s->pos == s->bom) {
		s->bom++; /* a UTF-8 byte order mark */
		s->pos++;
		return 0;
	}
	if (c == '[') {
		s->ts->form = TRACE_FORM_ARRAY;
		return advance(s, ST_ARR_OPEN);
	}
	if (c == '{') {
		s->ts->form = TRACE_FORM_OBJECT;
		return advance(s, ST_OBJ_OPEN);
	}
	return fail_at(s, s->pos, "not a json array or object of trace events");
}

/* ST_ARR_OPEN, ST_ARR_NEXT, ST_ARR_SEP: inside the array of events. */
static int in_array(struct scanner *s, int c)
{
	if (s->st == ST_ARR_SEP) {
		if (c == ',')
			return advance(s, ST_ARR_NEXT);
		if (c == ']')
			return end_array(s);
		return fail_at(s, s->pos, "expected ',' or ']' after an event");
	}
	if (c == '{')
		return begin_value(s, ST_ELEM, 1);
	if (c == ']')
		return end_array(s);
	return fail_at(s, s->pos, "expected an event object");
}

/* ST_VALUE: traceEvents opens the array of events, any other member's
 * value is skipped. */
static int member_value(struct scanner *s, int c)
{
	if (!s->is_events_key)
		return begin_value(s, ST_SKIP, 0);
	if (c != '[')
		return fail_at(s, s->pos, "\"traceEvents\" is not an array");
	s->in_events = s->seen_events = 1;
	return advance(s, ST_ARR_OPEN);
}

/* The top-level object's punctuation: every state but ST_START, the
 * array states and ST_VALUE. */
static int in_object(struct scanner *s, int c)
{
	switch (s->st) {
	case ST_OBJ_OPEN:
	case ST_OBJ_NEXT:
		if (c == '"')
			return begin_value(s, ST_KEY, 1);
		if (c == '}')
			return advance(s, ST_TAIL);
		return fail_at(s, s->pos, "expected a key");
	case ST_COLON:
		if (c != ':')
			return fail_at(s, s->pos, "expected ':'");
		return advance(s, ST_VALUE);
	case ST_OBJ_SEP:
		if (c == ',')
			return advance(s, ST_OBJ_NEXT);
		if (c == '}')
			return advance(s, ST_TAIL);
		return fail_at(s, s->pos, "expected ',' or '}'");
	default: /* ST_TAIL */
		return fail_at(s, s->pos, "data after the end of the trace");
	}
}

/* One non-white byte of the grammar between elements and members. */
static int grammar(struct scanner *s, int c)
{
	switch (s->st) {
	case ST_START:
		return start(s, c);
	case ST_ARR_OPEN:
	case ST_ARR_NEXT:
	case ST_ARR_SEP:
		return in_array(s, c);
	case ST_VALUE:
		return member_value(s, c);
	default:
		return in_object(s, c);
	}
}

static int step(struct scanner *s)
{
	int c, done;

	if (s->st == ST_ELEM || s->st == ST_KEY || s->st == ST_SKIP) {
		done = s->vk == V_SCALAR ? scan_scalar(s) : scan_struct(s);
		if (done < 0)
			return fail_at(
			    s, s->keep ? s->mark : s->pos,
			    "unterminated string (a line break inside "
			    "a string)");
		return done ? value_done(s) : 0;
	}
	c = (unsigned char)s->buf[s->pos];
	if (trace_raw_is_ws(c)) {
		s->pos++;
		return 0;
	}
	return grammar(s, c);
}

/* ---- input ----------------------------------------------------------------
 */

static ssize_t source_read(struct scanner *s, char *dst, size_t n)
{
	struct source *src = &s->src;
	struct err le = ERR_INIT;
	ssize_t got;

	if (!src->f) {
		if (n > src->memlen - src->mempos)
			n = src->memlen - src->mempos;
		memcpy(dst, src->mem + src->mempos, n);
		src->mempos += n;
		return (ssize_t)n;
	}
	got = infile_read(src->f, dst, n, &le);
	if (got >= 0)
		return got;
	if (infile_truncated(src->f)) {
		src->gz_truncated = 1; /* keep what came: a cut, not garbage */
		return 0;
	}
	return err_set(s->e, le.code, "%s", le.msg);
}

/* Drops consumed bytes, then reads more: 1 when bytes came, 0 at the end of
 * the data, -1 on an error. */
static int refill(struct scanner *s)
{
	size_t from = s->keep ? s->mark : s->len;
	ssize_t n;

	if (from) {
		memmove(s->buf, s->buf + from, s->len - from);
		s->base += from;
		s->len -= from;
		s->pos -= from;
		s->mark -= s->keep ? from : 0;
	}
	if (s->keep && s->len > TRACE_MAX_EVENT)
		return fail_at(s, 0,
		               s->st == ST_KEY ? "key larger than 16 MiB"
		                               : "event larger than 16 "
		                                 "MiB");
	if (s->cap < s->len + s->src.chunk) {
		s->cap = s->len + s->src.chunk;
		s->buf = xrealloc(s->buf, s->cap);
	}
	n = source_read(s, s->buf + s->len, s->src.chunk);
	if (n < 0)
		return -1;
	s->len += (size_t)n;
	return n > 0;
}

/* Data that ends inside a string of an element although its last byte
 * closes the top-level value was written whole: a string was left open
 * (it swallowed the rest of the file), nothing was cut. */
static int string_left_open(const struct scanner *s)
{
	size_t i = s->len;
	char closer = s->ts->form == TRACE_FORM_OBJECT ? '}' : ']';

	if (!s->in_str || !s->keep || s->src.gz_truncated)
		return 0;
	while (i > 0 && trace_raw_is_ws((unsigned char)s->buf[i - 1]))
		i--;
	return i > 0 && s->buf[i - 1] == closer;
}

static int at_end(struct scanner *s)
{
	struct trace_scan *ts = s->ts;

	if (s->st == ST_START)
		return err_set(s->e, ERR_INPUT,
		               "%s: empty file: no trace events", s->name);
	if (s->st == ST_TAIL && !s->src.gz_truncated) {
		if (ts->form == TRACE_FORM_OBJECT && !s->seen_events)
			return err_set(s->e, ERR_INPUT,
			               "%s: no \"traceEvents\" array in the "
			               "top-level object",
			               s->name);
		return 0;
	}
	if (string_left_open(s))
		return fail_at(s, s->mark, "unterminated string");
	ts->truncated = 1;
	ts->truncated_at = s->base + s->len;
	if (s->st == ST_ELEM || s->st == ST_KEY || s->st == ST_SKIP)
		ts->truncated_at = s->tok_at;
	return 0;
}

static int run(struct scanner *s)
{
	int r;

	for (;;) {
		if (s->pos == s->len) {
			r = refill(s);
			if (r <= 0)
				return r < 0 ? -1 : at_end(s);
		}
		if (step(s))
			return -1;
	}
}

static int scan(struct scanner *s)
{
	int rc;

	strbuf_init(&s->idbuf);
	rc = run(s);
	strbuf_release(&s->idbuf);
	free(s->buf);
	return rc;
}

static void scanner_init(struct scanner *s, const char *name,
                         const struct trace_handler *h, struct trace_scan *ts,
                         struct err *e)
{
	memset(s, 0, sizeof(*s));
	memset(ts, 0, sizeof(*ts));
	s->name = name;
	s->h = *h;
	s->ts = ts;
	s->e = e;
	s->st = ST_START;
	s->src.chunk = TRACE_CHUNK;
}

int trace_scan_file_with(const char *path, const struct trace_handler *h,
                         struct trace_scan *ts, struct err *e)
{
	struct scanner s;
	struct infile f;
	int rc;

	scanner_init(&s, path, h, ts, e);
	if (infile_open(&f, path, e))
		return -1;
	ts->size = f.size;
	ts->gz = f.gz;
	s.src.f = &f;
	rc = scan(&s);
	infile_close(&f);
	return rc;
}

int trace_scan_mem_with(const char *name, const void *data, size_t len,
                        size_t chunk, const struct trace_handler *h,
                        struct trace_scan *ts, struct err *e)
{
	struct scanner s;

	scanner_init(&s, name, h, ts, e);
	ts->size = (int64_t)len;
	s.src.mem = data;
	s.src.memlen = data ? len : 0;
	s.src.chunk = chunk ? chunk : TRACE_CHUNK;
	return scan(&s);
}

int trace_scan_file(const char *path, trace_want_fn want, trace_event_fn fn,
                    void *ctx, struct trace_scan *ts, struct err *e)
{
	struct trace_handler h = {want, fn, NULL, ctx};
	return trace_scan_file_with(path, &h, ts, e);
}

int trace_scan_mem_chunked(const char *name, const void *data, size_t len,
                           size_t chunk, trace_want_fn want, trace_event_fn fn,
                           void *ctx, struct trace_scan *ts, struct err *e)
{
	struct trace_handler h = {want, fn, NULL, ctx};
	return trace_scan_mem_with(name, data, len, chunk ? chunk : 1, &h, ts,
	                           e);
}

int trace_scan_mem(const char *name, const void *data, size_t len,
                   trace_want_fn want, trace_event_fn fn, void *ctx,
                   struct trace_scan *ts, struct err *e)
{
	return trace_scan_mem_chunked(name, data, len, TRACE_CHUNK, want, fn,
	                              ctx, ts, e);
}
