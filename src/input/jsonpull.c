/* The JSON pull reader: a byte scanner that checks the grammar as it goes
 * and keeps only a small window of the data (or none, for data in
 * memory), so that a document is never built into a tree bigger than the
 * one value a reader asks for. */
#include "input/jsonpull.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define CHUNK      (64u << 10)
#define TEST_CHUNK 4096u /* jp_open_mem_chunked's window */
#define NEAR_MAX   30    /* bytes quoted after a syntax error */

/* ---- the window -------------------------------------------------------- */

/* Moves the captured bytes out of the window before it slides. */
static int flush_capture(struct jpull *p)
{
	size_t n = p->pos - p->cap_from;

	if (!p->capturing)
		return 0;
	if (p->capturing == 2) { /* a prefix only */
		if (p->cap.len < p->cap_max)
			strbuf_add(&p->cap, p->buf + p->cap_from,
			           n < p->cap_max - p->cap.len
			               ? n
			               : p->cap_max - p->cap.len);
		p->cap_from = p->pos;
		return 0;
	}
	strbuf_add(&p->cap, p->buf + p->cap_from, n);
	p->cap_from = p->pos;
	if (p->cap.len > p->cap_max) {
		err_set(p->e, ERR_INPUT,
		        "%s:%" PRIu64 ":%" PRIu64 ": a JSON value larger than "
		        "%" PRIu64 " KiB (the limit for %s)",
		        p->name, p->cap_line, p->cap_col,
		        (uint64_t)p->cap_max >> 10, p->cap_what);
		p->failed = 1;
		return -1;
	}
	return 0;
}

/* Makes at least need bytes available after pos, when the data has them;
 * returns how many are. */
static size_t fill(struct jpull *p, size_t need)
{
	ssize_t n;
	size_t keep;

	while (p->from_file && !p->eof && !p->failed &&
	       p->len - p->pos < need) {
		if (flush_capture(p))
			break;
		keep = p->len - p->pos;
		memmove(p->own, p->own + p->pos, keep);
		p->base += p->pos;
		p->len = keep;
		p->pos = 0;
		p->cap_from = 0;
		if (p->src) {
			n = (ssize_t)(p->srclen - p->srcpos);
			n = n > (ssize_t)p->srcchunk ? (ssize_t)p->srcchunk : n;
			memcpy(p->own + keep, p->src + p->srcpos, (size_t)n);
			p->srcpos += (size_t)n;
		} else {
			n = infile_read(&p->f, p->own + keep, CHUNK - keep,
			                p->e);
		}
		if (n < 0) {
			p->failed = 1;
			break;
		}
		p->eof = n == 0;
		p->len += (size_t)n;
		if (p->base + p->len > p->max) {
			err_set(p->e, ERR_INPUT,
			        "%s: larger than %" PRIu64 " MiB uncompressed "
			        "(the limit for %s)",
			        p->name, p->max >> 20, p->max_what);
			p->failed = 1;
		}
	}
	return p->failed ? 0 : p->len - p->pos;
}

/* The next byte, or -1 at the end of the data (or after an error). */
static inline int peekc(struct jpull *p)
{
	if (p->pos == p->len && !fill(p, 1))
		return -1;
	return (unsigned char)p->buf[p->pos];
}

static inline void adv(struct jpull *p)
{
	if (p->buf[p->pos++] == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
}

static inline int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline void skip_blanks(struct jpull *p)
{
	int c;

	/* most values follow their separator directly */
	if (p->pos < p->len && (unsigned char)p->buf[p->pos] > ' ')
		return;
	while ((c = peekc(p)) >= 0 && is_blank(c))
		adv(p);
}

/* ---- opening and closing ------------------------------------------------ */

static void init(struct jpull *p, const char *name, struct err *e)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->e = e;
	p->line = p->col = 1;
	p->max = UINT64_MAX;
	p->max_what = "this file";
	p->syntax_what = "JSON syntax error";
	strbuf_init(&p->cap);
	strbuf_init(&p->key);
}

int jp_open_file(struct jpull *p, const char *path, uint64_t max,
                 const char *what, struct err *e)
{
	init(p, path, e);
	p->max = max;
	p->max_what = what;
	if (infile_open(&p->f, path, e)) {
		p->failed = 1;
		return -1;
	}
	p->from_file = 1;
	p->own = xmalloc(CHUNK);
	p->buf = p->own;
	return 0;
}

void jp_open_mem(struct jpull *p, const char *name, const char *text,
                 size_t len, struct err *e)
{
	init(p, name, e);
	p->buf = text ? text : "";
	p->len = text ? len : 0;
	p->eof = 1;
}

void jp_open_mem_chunked(struct jpull *p, const char *name, const char *text,
                         size_t len, size_t chunk, struct err *e)
{
	init(p, name, e);
	p->src = text ? text : "";
	p->srclen = text ? len : 0;
	/* a small window: refills are what is tested */
	p->srcchunk =
	    chunk ? (chunk < TEST_CHUNK / 2 ? chunk : TEST_CHUNK / 2) : 1;
	p->from_file = 1;
	p->own = xmalloc(TEST_CHUNK);
	p->buf = p->own;
}

void jp_close(struct jpull *p)
{
	if (p->from_file && !p->src)
		infile_close(&p->f);
	free(p->own);
	strbuf_release(&p->cap);
	strbuf_release(&p->key);
	p->own = NULL;
	p->buf = NULL;
	p->from_file = 0;
}

void jp_where(const struct jpull *p, uint64_t *line, uint64_t *col)
{
	*line = p->line;
	*col = p->col;
}

int jp_error(struct jpull *p, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	if (p->failed)
		return -1;
	n = fill(p, NEAR_MAX);
	strbuf_add_quoted_value(&sb, p->buf + p->pos,
	                        n < NEAR_MAX ? n : NEAR_MAX, NEAR_MAX);
	err_set(p->e, ERR_INPUT, "%s:%" PRIu64 ":%" PRIu64 ": %s near %s",
	        p->name, p->line, p->col, what, sb.buf);
	strbuf_release(&sb);
	p->failed = 1;
	return -1;
}

static int syntax(struct jpull *p)
{
	return jp_error(p, p->syntax_what);
}

/* ---- scalars ------------------------------------------------------------ */

static int hex4(struct jpull *p, unsigned *cp)
{
	int i, c;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		c = peekc(p);
		if (c >= '0' && c <= '9')
			*cp = *cp * 16 + (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*cp = *cp * 16 + (unsigned)((c | 0x20) - 'a' + 10);
		else
			return syntax(p);
		adv(p);
	}
	return 0;
}

static void add_utf8(struct strbuf *out, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		b[0] = (char)(0xF0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	strbuf_add(out, b, n);
}

/* After "\u": the code point, a surrogate pair joined, a lone surrogate
 * as U+FFFD. */
static int unicode_escape(struct jpull *p, unsigned *cp)
{
	unsigned lo;

	if (hex4(p, cp))
		return -1;
	if (*cp < 0xD800 || *cp > 0xDFFF)
		return 0;
	if (*cp <= 0xDBFF && fill(p, 6) >= 6 && p->buf[p->pos] == '\\' &&
	    p->buf[p->pos + 1] == 'u') {
		struct jp_mark back;
		back.pos = p->pos;
		back.line = p->line;
		back.col = p->col;
		adv(p);
		adv(p);
		if (hex4(p, &lo))
			return -1;
		if (lo >= 0xDC00 && lo <= 0xDFFF) {
			*cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
			return 0;
		}
		/* not a pair: the second escape stands on its own */
		p->pos = back.pos;
		p->line = back.line;
		p->col = back.col;
	}
	*cp = 0xFFFD;
	return 0;
}

static int escape(struct jpull *p, struct strbuf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned cp;
	int c = peekc(p);

	if (c == 'u') {
		adv(p);
		if (unicode_escape(p, &cp))
			return -1;
		if (out)
			add_utf8(out, cp);
		return 0;
	}
	k = c > 0 ? strchr(from, c) : NULL;
	if (!k)
		return syntax(p);
	adv(p);
	if (out)
		strbuf_addch(out, to[k - from]);
	return 0;
}

/* A string (at its opening quote), decoded into out when not NULL, which
 * may hold at most max bytes. */
static int string(struct jpull *p, struct strbuf *out, size_t max)
{
	int c;

	adv(p);
	for (;;) {
		if (!out) { /* skipping: plain bytes in a run */
			size_t i = p->pos;
			while (i < p->len && (unsigned char)p->buf[i] >= 0x20 &&
			       p->buf[i] != '"' && p->buf[i] != '\\')
				i++;
			p->col += i - p->pos;
			p->pos = i;
		}
		c = peekc(p);
		if (c < 0x20)
			return c < 0 && p->failed ? -1 : syntax(p);
		adv(p);
		if (c == '"')
			return 0;
		if (c == '\\') {
			if (escape(p, out))
				return -1;
		} else if (out) {
			strbuf_addch(out, c);
		}
		if (out && out->len > max)
			return jp_error(p, "JSON key longer than 64 KiB");
	}
}

static int digits(struct jpull *p)
{
	int c, n = 0;

	for (;;) {
		/* within the window: no function call per digit */
		size_t i = p->pos;
		while (i < p->len && p->buf[i] >= '0' && p->buf[i] <= '9')
			i++;
		n += (int)(i - p->pos);
		p->col += i - p->pos;
		p->pos = i;
		if (i < p->len || (c = peekc(p)) < '0' || c > '9')
			return n;
	}
}

/* A value ends at a blank, a separator or the end of the data. */
static int delimited(struct jpull *p)
{
	int c = peekc(p);

	if (c < 0 || is_blank(c) || c == ',' || c == ']' || c == '}' ||
	    c == ':')
		return p->failed ? -1 : 0;
	return syntax(p);
}

static int number(struct jpull *p)
{
	int c = peekc(p);

	if (c == '-') {
		adv(p);
		c = peekc(p);
	}
	if (c == '0')
		adv(p);
	else if (c < '1' || c > '9' || !digits(p))
		return syntax(p);
	if (peekc(p) == '.') {
		adv(p);
		if (!digits(p))
			return syntax(p);
	}
	c = peekc(p);
	if (c == 'e' || c == 'E') {
		adv(p);
		c = peekc(p);
		if (c == '+' || c == '-')
			adv(p);
		if (!digits(p))
			return syntax(p);
	}
	return delimited(p);
}

/* true, false or null: checked whole before it is passed, so that an
 * error points at its start */
static int literal(struct jpull *p)
{
	static const char *const words[] = {"true", "false", "null"};
	const char *w = NULL;
	size_t i, n = 0;
	int c = peekc(p);

	for (i = 0; i < 3; i++)
		if (words[i][0] == c)
			w = words[i];
	if (w)
		n = strlen(w);
	if (!w || fill(p, n) < n || memcmp(p->buf + p->pos, w, n))
		return syntax(p);
	for (i = 0; i < n; i++)
		adv(p);
	return delimited(p);
}

/* ---- structure ---------------------------------------------------------- */

enum jp_type jp_type(struct jpull *p)
{
	int c;

	if (p->failed)
		return JP_NONE;
	skip_blanks(p);
	c = peekc(p);
	if (c == '{')
		return JP_OBJECT;
	if (c == '[')
		return JP_ARRAY;
	if (c == '"')
		return JP_STRING;
	if (c == '-' || (c >= '0' && c <= '9'))
		return JP_NUMBER;
	if (c == 't' || c == 'f' || c == 'n')
		return JP_LITERAL;
	return JP_NONE;
}

int jp_enter(struct jpull *p)
{
	enum jp_type t = jp_type(p);

	if (t != JP_OBJECT && t != JP_ARRAY)
		return syntax(p);
	if (p->depth >= JP_MAX_DEPTH)
		return jp_error(p, "JSON nested deeper than 1000 levels");
	adv(p);
	p->depth++;
	p->is_obj[p->depth] = t == JP_OBJECT;
	p->first[p->depth] = 1;
	return 0;
}

int jp_next(struct jpull *p, struct strbuf *key)
{
	unsigned d = p->depth;
	int c;

	if (p->failed || !d)
		return -1;
	skip_blanks(p);
	c = peekc(p);
	if (c == (p->is_obj[d] ? '}' : ']')) {
		adv(p);
		p->depth--;
		return 0;
	}
	if (!p->first[d]) {
		if (c != ',')
			return syntax(p);
		adv(p);
		skip_blanks(p);
		c = peekc(p);
	}
	p->first[d] = 0;
	if (p->is_obj[d]) {
		if (c != '"')
			return syntax(p);
		if (key)
			strbuf_reset(key);
		if (string(p, key, JP_MAX_KEY))
			return -1;
		skip_blanks(p);
		if (peekc(p) != ':')
			return syntax(p);
		adv(p);
	}
	if (jp_type(p) == JP_NONE)
		return syntax(p);
	return 1;
}

static int scalar(struct jpull *p, enum jp_type t)
{
	switch (t) {
	case JP_STRING:
		return string(p, NULL, 0);
	case JP_NUMBER:
		return number(p);
	case JP_LITERAL:
		return literal(p);
	default:
		return syntax(p);
	}
}

int jp_skip(struct jpull *p)
{
	unsigned base = p->depth;
	enum jp_type t;
	int r;

	for (;;) {
		t = jp_type(p);
		if (t == JP_OBJECT || t == JP_ARRAY) {
			if (jp_enter(p))
				return -1;
		} else if (scalar(p, t)) {
			return -1;
		}
		/* the next value at this depth, or the containers that end */
		do {
			if (p->depth == base)
				return 0;
			r = jp_next(p, NULL);
			if (r < 0)
				return -1;
		} while (r == 0);
	}
}

int jp_eof(struct jpull *p)
{
	skip_blanks(p);
	return !p->failed && peekc(p) < 0;
}

int jp_end(struct jpull *p)
{
	if (p->failed)
		return -1;
	skip_blanks(p);
	if (peekc(p) >= 0)
		return syntax(p);
	return p->failed ? -1 : 0;
}

/* ---- values for cJSON ---------------------------------------------------- */

/* cJSON refused text the scanner accepted: an escape that is no character
 * (a lone surrogate is read as U+FFFD before it gets there), or no memory
 * for the tree. Named at the spot it stopped. */
static int refused(struct jpull *p, const char *text, size_t n, const char *end,
                   uint64_t line, uint64_t col)
{
	size_t off =
	    end && end >= text && end <= text + n ? (size_t)(end - text) : 0;
	struct strbuf q = STRBUF_INIT;

	jsonerr_linecol(text, off, &line, &col);
	strbuf_add_quoted_value(
	    &q, text + off, n - off < NEAR_MAX ? n - off : NEAR_MAX, NEAR_MAX);
	err_set(p->e, ERR_INPUT,
	        "%s:%" PRIu64 ":%" PRIu64 ": JSON value not read (out of "
	        "memory, or an escape cJSON does not take) near %s",
	        p->name, line, col, q.buf);
	strbuf_release(&q);
	p->failed = 1;
	return -1;
}

struct cJSON *jp_parse(struct jpull *p, size_t max, const char *what)
{
	uint64_t line, col;
	const char *text, *end = NULL;
	size_t start, n;
	cJSON *root;

	if (jp_type(p) == JP_NONE) {
		syntax(p);
		return NULL;
	}
	line = p->line;
	col = p->col;
	start = p->pos;
	if (p->from_file) {
		p->capturing = 1;
		p->cap_from = p->pos;
		p->cap_max = max;
		p->cap_what = what;
		p->cap_line = line;
		p->cap_col = col;
		strbuf_reset(&p->cap);
	}
	if (jp_skip(p) || flush_capture(p)) {
		p->capturing = 0;
		return NULL;
	}
	p->capturing = 0;
	text = p->from_file ? p->cap.buf : p->buf + start;
	n = p->from_file ? p->cap.len : p->pos - start;
	if (n > max) {
		err_set(p->e, ERR_INPUT,
		        "%s:%" PRIu64 ":%" PRIu64 ": a JSON value larger than "
		        "%zu KiB (the limit for %s)",
		        p->name, line, col, max >> 10, what);
		p->failed = 1;
		return NULL;
	}
	/* a lone surrogate escape reads as U+FFFD, as in every reader */
	root = jsonerr_cjson_parse(text, n, &end);
	if (!root)
		refused(p, text, n, end, line, col);
	return root;
}

/* Drops the blanks outside strings, as cJSON prints a value compactly. */
static void minify(struct strbuf *sb)
{
	size_t i, o = 0;
	int in_str = 0, esc = 0;

	for (i = 0; i < sb->len; i++) {
		char c = sb->buf[i];
		if (in_str) {
			in_str = esc || c != '"';
			esc = !esc && c == '\\';
		} else if (is_blank((unsigned char)c)) {
			continue;
		} else {
			in_str = c == '"';
		}
		sb->buf[o++] = c;
	}
	sb->len = o;
	sb->buf[o] = '\0';
}

int jp_skip_quote(struct jpull *p, struct strbuf *out, size_t max)
{
	size_t start;
	int ret;

	strbuf_reset(out);
	if (jp_type(p) == JP_NONE)
		return syntax(p);
	start = p->pos;
	if (p->from_file) {
		p->capturing = 2; /* keep the first max bytes, no error */
		p->cap_from = p->pos;
		p->cap_max = max;
		strbuf_reset(&p->cap);
	}
	ret = jp_skip(p);
	if (!ret && p->from_file)
		flush_capture(p);
	if (p->from_file)
		strbuf_add(out, p->cap.buf, p->cap.len);
	else
		strbuf_add(out, p->buf + start,
		           p->pos - start < max ? p->pos - start : max);
	p->capturing = 0;
	minify(out);
	return ret;
}

/* ---- marks --------------------------------------------------------------- */

void jp_mark(struct jpull *p, struct jp_mark *m)
{
	skip_blanks(p);
	m->pos = p->pos;
	m->line = p->line;
	m->col = p->col;
	m->depth = p->depth;
	m->is_obj = p->is_obj[p->depth];
	m->first = p->first[p->depth];
}

int jp_find(struct jpull *p, const struct jp_mark *obj, const char *key,
            struct jp_mark *val)
{
	size_t n = strlen(key);
	int more;

	jp_reset(p, obj);
	if (jp_type(p) != JP_OBJECT)
		return 0;
	if (jp_enter(p))
		return -1;
	while ((more = jp_next(p, &p->key)) == 1) {
		if (p->key.len == n && !memcmp(p->key.buf, key, n)) {
			jp_mark(p, val);
			return 1;
		}
		if (jp_skip(p))
			return -1;
	}
	return more;
}

void jp_reset(struct jpull *p, const struct jp_mark *m)
{
	p->pos = m->pos;
	p->line = m->line;
	p->col = m->col;
	p->depth = m->depth;
	p->is_obj[m->depth] = m->is_obj;
	p->first[m->depth] = m->first;
}
