/* UTF-8 validation: input text from profiles is checked before it is kept. */
#ifndef SDPERF_UTF8_H
#define SDPERF_UTF8_H

#include <stddef.h>

/* Length (1-4) of the well-formed UTF-8 sequence at s (n bytes available),
 * or 0 when the bytes there are not well-formed UTF-8. */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* Returns 1 when all n bytes are well-formed UTF-8 with no NUL and no C0
 * control other than TAB; otherwise 0 and *bad = offset of the first bad
 * byte. */
int utf8_is_text(const char *s, size_t n, size_t *bad);
/* 1 when s[0..n) is well-formed UTF-8 (any ASCII, controls included). */
int utf8_is_valid(const char *s, size_t n);
/* JSON text s[0..n): counts the \u escapes of UTF-16 surrogates
 * (\uD800-\uDFFF) that are not half of a high-low pair, which JSON
 * parsers refuse; when fix is not NULL (a copy of s, n bytes), rewrites
 * each of them there as \uFFFD, of the same length. Escapes are read
 * pairwise ("\\u" is a backslash, then 'u'), as in a JSON string. */
size_t utf8_json_lone_surrogates(const char *s, size_t n, char *fix);
/* "\\u202E" (a static string) when the k-byte UTF-8 sequence at s is a
 * bidirectional formatting character (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069: they reorder the text around them,
 * "Trojan Source"), else NULL. Every output a person reads shows them so
 * instead of obeying them. */
const char *utf8_bidi_shown(const unsigned char *s, size_t k);

#endif
