/* Lifecycle of the parsed-profile structures. */
#include "input/profile.h"

#include <stdlib.h>
#include <string.h>

#include "util/membudget.h"
#include "util/banned.h"

void kernel_table_init(struct kernel_table *kt)
{
	memset(kt, 0, sizeof(*kt));
	strtab_init(&kt->keys);
}

void kernel_table_release(struct kernel_table *kt)
{
	membudget_release(kt->charged);
	free(kt->v);
	strtab_release(&kt->keys);
	kernel_table_init(kt);
}

int kernel_table_reserve_for(struct kernel_table *kt, size_t want,
                             uint64_t *cost)
{
	struct kernel *v;

	*cost = 0;
	if (want <= kt->alloc)
		return 0;
	if (want > KERNELS_MAX)
		return -2;
	*cost = (uint64_t)(want - kt->alloc) * KERNEL_COST_BYTES;
	if (membudget_charge(*cost))
		return -1;
	v = realloc(kt->v, want * sizeof(*v));
	if (!v) {
		membudget_release(*cost);
		return -3;
	}
	kt->v = v;
	kt->alloc = want;
	kt->charged += *cost;
	return 0;
}

int kernel_table_reserve(struct kernel_table *kt, uint64_t *cost)
{
	size_t n = kt->alloc < 1024 ? 1024 : kt->alloc + kt->alloc / 8;

	*cost = 0;
	if (kt->n < kt->alloc)
		return 0;
	if (kt->alloc >= KERNELS_MAX)
		return -2;
	return kernel_table_reserve_for(kt, n > KERNELS_MAX ? KERNELS_MAX : n,
	                                cost);
}

/* A key's text and its share of the table's bookkeeping (as
 * kernels_read charges it). */
#define KEY_COST(len) ((uint64_t)(len) + 96)

int kernel_table_key(struct kernel_table *kt, const char *key, size_t len,
                     uint32_t *id, uint64_t *cost)
{
	*id = strtab_find(&kt->keys, key, len);
	*cost = 0;
	if (*id != UINT32_MAX)
		return 0;
	if (kt->keys.n >= KERNELS_MAX_TYPES)
		return -2;
	if (kt->key_bytes + len > KERNELS_MAX_KEY_BYTES)
		return -3;
	*cost = KEY_COST(len);
	if (membudget_charge(*cost))
		return -1;
	kt->charged += *cost;
	kt->key_bytes += len;
	*id = strtab_intern(&kt->keys, key, len);
	return 0;
}

void kernel_table_fit(struct kernel_table *kt)
{
	uint64_t freed = (uint64_t)(kt->alloc - kt->n) * KERNEL_COST_BYTES;
	struct kernel *v;

	if (kt->n == kt->alloc || !kt->n)
		return;
	v = realloc(kt->v, kt->n * sizeof(*v));
	if (!v)
		return;
	membudget_release(freed);
	kt->charged -= freed;
	kt->v = v;
	kt->alloc = kt->n;
}

const char *kernel_key_type(const struct kernel_table *kt, uint32_t key)
{
	return strtab_str(&kt->keys, key);
}

const char *kernel_key_core(const struct kernel_table *kt, uint32_t key)
{
	const char *s = strtab_str(&kt->keys, key);
	return s + strlen(s) + 1;
}

const char *kernel_key_api(const struct kernel_table *kt, uint32_t key)
{
	const char *s = strtab_str(&kt->keys, key);
	size_t tl = strlen(s), cl = strlen(s + tl + 1);

	/* keys of two parts (an old summary, a hand-built table) have no API */
	return tl + 1 + cl < kt->keys.lens[key] ? s + tl + 1 + cl + 1 : "";
}

void kernels_info_release(struct kernels_info *info)
{
	size_t i;
	for (i = 0; i < info->nwarn; i++) {
		free(info->warn[i].reason);
		free(info->warn[i].args[0]);
		free(info->warn[i].args[1]);
		free(info->warn[i].args[2]);
	}
	free(info->warn);
	free(info->path);
	free(info->variant);
	memset(info, 0, sizeof(*info));
}
