/* String interning: each distinct string gets a small dense id. */
#ifndef SDPERF_STRTAB_H
#define SDPERF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab {
	char **strs;      /* id -> string (owned) */
	size_t *lens;     /* id -> length */
	uint32_t n;       /* number of ids */
	size_t alloc;     /* capacity of strs/lens */
	uint32_t *slots;  /* open addressing: id+1, 0 = empty */
	uint32_t *hashes; /* id -> hash */
	size_t nslots;    /* power of two */
};

void strtab_init(struct strtab *t);
void strtab_release(struct strtab *t);
/* Id of s (len bytes, may contain any byte), adding it when new. */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);
/* Id of s, or UINT32_MAX when absent. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);
static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return t->strs[id];
}

#endif
