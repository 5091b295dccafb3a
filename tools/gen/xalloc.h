/* xalloc.h: allocation that aborts on out-of-memory, plus a printf-to-heap. */
#ifndef GEN_XALLOC_H
#define GEN_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grow `*arr` (of `*cap` elements of `size` bytes) to hold `need` elements. */
void xgrow(void *arr, size_t *cap, size_t need, size_t size);

/* printf into a freshly allocated string; the caller frees it. */
char *xfmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
