/* UTF-8 validation (RFC 3629: no overlongs, no surrogates, max U+10FFFF). */
#include "util/utf8.h"

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
