/* Allocation that cannot fail: out of memory aborts with a message. */
#ifndef SDPERF_XALLOC_H
#define SDPERF_XALLOC_H

#include <stddef.h>

/* Each returns usable memory or aborts the process; never NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array to hold at least `need` elements of `size` bytes; *alloc is
 * updated. Aborts on overflow. */
void *xgrow(void *p, size_t size, size_t need, size_t *alloc);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
