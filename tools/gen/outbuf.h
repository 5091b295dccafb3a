/* outbuf.h: big-buffer file writer with exact fixed-point number output. */
#ifndef GEN_OUTBUF_H
#define GEN_OUTBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Longest single item the number writers emit; ob_reserve guarantees it. */
#define OB_ITEM_MAX 48

struct outbuf {
	FILE *fp;
	char *buf;
	size_t len;
	size_t cap;
	uint64_t total; /* bytes handed to the writer so far */
	int failed;     /* a write or flush failed (errno was set) */
};

/* Open `path` for writing with a `cap`-byte buffer. Returns 0, or -1 with
 * errno set. The outbuf owns the FILE and the buffer until ob_close. */
int ob_open(struct outbuf *ob, const char *path, size_t cap);

/* Flush, close and free. Returns 0, or -1 if any write failed. Safe on an
 * outbuf that was never opened (all zero). */
int ob_close(struct outbuf *ob);

/* Hand the buffered bytes to stdio. */
void ob_flush(struct outbuf *ob);

void ob_mem(struct outbuf *ob, const void *p, size_t n);
void ob_str(struct outbuf *ob, const char *s);
void ob_u64(struct outbuf *ob, uint64_t v);
void ob_i64(struct outbuf *ob, int64_t v);

/* Nanoseconds as microseconds with exactly 3 decimals: 39150 -> "39.150". */
void ob_us3(struct outbuf *ob, int64_t ns);
/* Nanoseconds as microseconds with 6 decimals: 39150 -> "39.150000". */
void ob_us6(struct outbuf *ob, int64_t ns);
/* Nanoseconds as milliseconds with 6 decimals (exact): "0.039150". */
void ob_ms6(struct outbuf *ob, int64_t ns);
/* Nanoseconds as microseconds the way Python prints a float: trailing
 * zeros dropped, "12.0" for whole values, "0" for zero. */
void ob_us_py(struct outbuf *ob, int64_t ns);
/* Thousandths as a short decimal: 269 -> "0.269", 500 -> "0.5", 0 -> "0.0". */
void ob_milli(struct outbuf *ob, int64_t milli);

/* Make room for `n` more bytes in the buffer. */
static inline void ob_reserve(struct outbuf *ob, size_t n)
{
	if (ob->len + n > ob->cap)
		ob_flush(ob);
}

static inline void ob_ch(struct outbuf *ob, char c)
{
	ob_reserve(ob, 1);
	ob->buf[ob->len++] = c;
	ob->total++;
}

#endif
