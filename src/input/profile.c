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

int kernel_table_reserve(struct kernel_table *kt, uint64_t *cost)
{
	size_t n = kt->alloc < 1024 ? 1024 : kt->alloc + kt->alloc / 8;
	struct kernel *v;

	*cost = 0;
	if (kt->n < kt->alloc)
		return 0;
	if (kt->alloc >= KERNELS_MAX)
		return -2;
	n = n > KERNELS_MAX ? KERNELS_MAX : n;
	*cost = (uint64_t)(n - kt->alloc) * KERNEL_COST_BYTES;
	if (membudget_charge(*cost))
		return -1;
	v = realloc(kt->v, n * sizeof(*v));
	if (!v) {
		membudget_release(*cost);
		return -3;
	}
	kt->v = v;
	kt->alloc = n;
	kt->charged += *cost;
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
