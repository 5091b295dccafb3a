/* The rules' chip table: a chip model the profile names -> the card's
 * memory, for the memory_headroom finding. */
#include "analysis/rules.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/glob.h"
#include "util/xalloc.h"

#define MAX_CHIPS   256
#define MAX_CARD_GB 4096.0

static int bad(const char *name, struct err *e, int i, const char *key,
               const char *what)
{
	if (i < 0)
		return err_set(e, ERR_INPUT, "%s: 'chips': %s", name, what);
	return err_set(e, ERR_INPUT, "%s: 'chips[%d].%s': %s", name, i, key,
	               what);
}

static int load_one(const char *name, const cJSON *it, int i,
                    struct chip_rule *c, struct err *e)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(it, "match");
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(it, "memory_gb");

	if (!cJSON_IsString(m) || !m->valuestring[0])
		return bad(name, e, i, "match", "expected a non-empty string");
	if (strlen(m->valuestring) > GLOB_MAX_PATTERN)
		return bad(name, e, i, "match", "pattern too long");
	if (!cJSON_IsNumber(g) || !(g->valuedouble > 0) ||
	    g->valuedouble > MAX_CARD_GB)
		return bad(name, e, i, "memory_gb",
		           "expected a number of GB above 0, at most 4096");
	c->glob = xstrdup(m->valuestring);
	c->memory_gb = g->valuedouble;
	return 0;
}

int rules_load_chips(const char *name, const cJSON *arr, struct rules *r,
                     struct err *e)
{
	const cJSON *it;
	struct chip_rule *add;
	int n, i = 0;

	if (!cJSON_IsArray(arr))
		return bad(name, e, -1, NULL, "expected an array");
	n = cJSON_GetArraySize(arr);
	if (n > MAX_CHIPS || r->nchips + (size_t)n > MAX_CHIPS)
		return bad(name, e, -1, NULL, "more than 256 chips");
	add = xcalloc((size_t)n + r->nchips + 1, sizeof(*add));
	cJSON_ArrayForEach (it, arr) {
		if (load_one(name, it, i, &add[i], e)) {
			while (i--)
				free(add[i].glob);
			free(add);
			return -1;
		}
		i++;
	}
	/* the new entries go first: they win over those loaded before */
	if (r->nchips)
		memcpy(add + n, r->chips, r->nchips * sizeof(*add));
	free(r->chips);
	r->chips = add;
	r->nchips += (size_t)n;
	return 0;
}

void rules_chips_release(struct rules *r)
{
	size_t i;

	for (i = 0; i < r->nchips; i++)
		free(r->chips[i].glob);
	free(r->chips);
	r->chips = NULL;
	r->nchips = 0;
}

double rules_chip_memory(const struct rules *r, const char *chip)
{
	size_t i;

	if (!chip)
		return 0;
	for (i = 0; i < r->nchips; i++)
		if (rules_glob(r->chips[i].glob, chip))
			return r->chips[i].memory_gb;
	return 0;
}
