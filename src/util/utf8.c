/* UTF-8 validation (RFC 3629: no overlongs, no surrogates, max U+10FFFF). */
#include "util/utf8.h"

#include <string.h>

#include "util/banned.h"

static int cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c;

	if (n == 0)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && cont(s[1]) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || !cont(s[1]) || !cont(s[2]))
			return 0;
		if (c == 0xE0 && s[1] < 0xA0)
			return 0; /* overlong */
		if (c == 0xED && s[1] > 0x9F)
			return 0; /* surrogate */
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || !cont(s[1]) || !cont(s[2]) || !cont(s[3]))
			return 0;
		if (c == 0xF0 && s[1] < 0x90)
			return 0;
		if (c == 0xF4 && s[1] > 0x8F)
			return 0;
		return 4;
	}
	return 0;
}

int utf8_is_text(const char *s, size_t n, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (u[i] < 0x80) {
			if ((u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7F)
				goto fail;
			i++;
			continue;
		}
		k = utf8_seq_len(u + i, n - i);
		if (!k)
			goto fail;
		i += k;
	}
	return 1;
fail:
	if (bad)
		*bad = i;
	return 0;
}

int utf8_is_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		k = u[i] < 0x80 ? 1 : utf8_seq_len(u + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/* The value of the 4 hex digits at s, or -1. */
static long hex4(const char *s)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
		        : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10
		                               : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* The \uXXXX escape at s[i] (n bytes): its value, or -1. */
static long escape_at(const char *s, size_t n, size_t i)
{
	if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u')
		return -1;
	return hex4(s + i + 2);
}

size_t utf8_json_lone_surrogates(const char *s, size_t n, char *fix)
{
	size_t i = 0, count = 0;
	const char *p;
	long v, low;

	while (i < n && (p = memchr(s + i, '\\', n - i))) {
		i = (size_t)(p - s);
		v = escape_at(s, n, i);
		if (v < 0xD800 || v > 0xDFFF) {
			i += v < 0 ? 2 : 6; /* any other escape */
			continue;
		}
		low = v <= 0xDBFF ? escape_at(s, n, i + 6) : -1;
		if (low >= 0xDC00 && low <= 0xDFFF) {
			i += 12; /* a well-formed pair */
			continue;
		}
		if (fix)
			memcpy(fix + i + 2, "FFFD", 4);
		count++;
		i += 6;
	}
	return count;
}

const char *utf8_bidi_shown(const unsigned char *u, size_t k)
{
	static const char *const shown[] = {
	    "\\u061C", "\\u200E", "\\u200F", "\\u202A", "\\u202B", "\\u202C",
	    "\\u202D", "\\u202E", "\\u2066", "\\u2067", "\\u2068", "\\u2069"};

	if (k == 2 && u[0] == 0xD8 && u[1] == 0x9C)
		return shown[0];
	if (k != 3 || u[0] != 0xE2)
		return NULL;
	if (u[1] == 0x80 && (u[2] == 0x8E || u[2] == 0x8F))
		return shown[1 + (u[2] - 0x8E)];
	if (u[1] == 0x80 && u[2] >= 0xAA && u[2] <= 0xAE)
		return shown[3 + (u[2] - 0xAA)];
	if (u[1] == 0x81 && u[2] >= 0xA6 && u[2] <= 0xA9)
		return shown[8 + (u[2] - 0xA6)];
	return NULL;
}
