/* outbuf.c: buffered writer; numbers are formatted by hand because one
 * snprintf per field is too slow for the 1 GB benchmark inputs. */
#include "outbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "banned.h"

int ob_open(struct outbuf *ob, const char *path, size_t cap)
{
	memset(ob, 0, sizeof(*ob));
	ob->buf = malloc(cap);
	if (!ob->buf)
		return -1;
	ob->fp = fopen(path, "wb");
	if (!ob->fp) {
		int saved = errno;
		free(ob->buf);
		ob->buf = NULL;
		errno = saved;
		return -1;
	}
	ob->cap = cap;
	return 0;
}

void ob_flush(struct outbuf *ob)
{
	if (ob->len && ob->fp && fwrite(ob->buf, 1, ob->len, ob->fp) != ob->len)
		ob->failed = 1;
	ob->len = 0;
}

int ob_close(struct outbuf *ob)
{
	int rc = 0;

	if (ob->fp) {
		ob_flush(ob);
		if (fclose(ob->fp) != 0)
			ob->failed = 1;
		rc = ob->failed ? -1 : 0;
	}
	free(ob->buf);
	memset(ob, 0, sizeof(*ob));
	return rc;
}

void ob_mem(struct outbuf *ob, const void *p, size_t n)
{
	if (ob->len + n > ob->cap) {
		ob_flush(ob);
		if (n > ob->cap) {
			if (fwrite(p, 1, n, ob->fp) != n)
				ob->failed = 1;
			ob->total += n;
			return;
		}
	}
	memcpy(ob->buf + ob->len, p, n);
	ob->len += n;
	ob->total += n;
}

void ob_str(struct outbuf *ob, const char *s)
{
	ob_mem(ob, s, strlen(s));
}

/* Writes the decimal digits of v at dst; returns how many. */
static size_t put_u64(char *dst, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

void ob_u64(struct outbuf *ob, uint64_t v)
{
	size_t n;

	ob_reserve(ob, OB_ITEM_MAX);
	n = put_u64(ob->buf + ob->len, v);
	ob->len += n;
	ob->total += n;
}

void ob_i64(struct outbuf *ob, int64_t v)
{
	if (v < 0) {
		ob_ch(ob, '-');
		ob_u64(ob, (uint64_t)0 - (uint64_t)v);
		return;
	}
	ob_u64(ob, (uint64_t)v);
}

/* Writes whole.frac with exactly `digits` fraction digits, where `frac` is
 * already scaled to that many digits. */
static void put_fixed(struct outbuf *ob, uint64_t whole, uint64_t frac,
                      int digits)
{
	char *p;
	size_t n;
	int i;

	ob_reserve(ob, OB_ITEM_MAX);
	p = ob->buf + ob->len;
	n = put_u64(p, whole);
	p[n++] = '.';
	for (i = digits - 1; i >= 0; i--) {
		p[n + (size_t)i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	n += (size_t)digits;
	ob->len += n;
	ob->total += n;
}

/* Negative times never occur in a generated profile; clamp to be safe. */
static uint64_t nonneg(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

void ob_us3(struct outbuf *ob, int64_t ns)
{
	uint64_t v = nonneg(ns);

	put_fixed(ob, v / 1000, v % 1000, 3);
}

void ob_us6(struct outbuf *ob, int64_t ns)
{
	uint64_t v = nonneg(ns);

	put_fixed(ob, v / 1000, (v % 1000) * 1000, 6);
}

void ob_ms6(struct outbuf *ob, int64_t ns)
{
	uint64_t v = nonneg(ns);

	put_fixed(ob, v / 1000000, v % 1000000, 6);
}

/* Shared by ob_us_py and ob_milli: whole part, then the 3-digit fraction
 * with trailing zeros removed (at least one digit kept). */
static void put_trimmed3(struct outbuf *ob, uint64_t whole, uint64_t frac)
{
	int digits = 3;

	while (digits > 1 && frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	put_fixed(ob, whole, frac, digits);
}

void ob_us_py(struct outbuf *ob, int64_t ns)
{
	uint64_t v = nonneg(ns);

	if (v == 0) {
		ob_ch(ob, '0');
		return;
	}
	put_trimmed3(ob, v / 1000, v % 1000);
}

void ob_milli(struct outbuf *ob, int64_t milli)
{
	uint64_t v = nonneg(milli);

	put_trimmed3(ob, v / 1000, v % 1000);
}
