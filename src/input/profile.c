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
