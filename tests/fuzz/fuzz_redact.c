/* libFuzzer target: the redactor rewrites any bytes, with any PATH and
 * rank folder, without a fault, and two fresh maps fed the same input
 * give the same pseudonyms (they never depend on anything but the input).
 * Input: PATH '\n' rank dir '\n' text; the rank dir's line is also a
 * known host name (redactor_add_name); the text is rewritten twice (the
 * second time with what the map learnt the first). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/redact.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of s[*at..n) (NUL-free copy), *at moved past it; the
 * whole rest when all is set. */
static char *line(const uint8_t *s, size_t n, size_t *at, int all)
{
	size_t i = *at, e = i;
	char *out;

	while (e < n && (all || s[e] != '\n'))
		e++;
	out = xcalloc(e - i + 1, 1);
	for (size_t k = i; k < e; k++)
		out[k - i] = s[k] ? (char)s[k] : ' ';
	*at = e < n ? e + 1 : e;
	return out;
}

static char *run(const char *path, const char *dir, const char *text,
                 int kernels)
{
	const char *paths[] = {path};
	struct redactor *rd = redactor_new(paths, 1, kernels);
	char *a, *b, *out;
	size_t la, lb;

	redactor_add_rank_dir(rd, dir);
	/* the rank dir's line as a known name too: numbered when met */
	redactor_add_name(rd, REDACT_HOST, dir);
	redactor_add_kernel(rd, text);
	a = redactor_rewrite(rd, text);
	b = redactor_rewrite(rd, text);
	la = strlen(a);
	lb = strlen(b);
	out = xcalloc(la + lb + 2, 1);
	memcpy(out, a, la);
	out[la] = '\n';
	memcpy(out + la + 1, b, lb);
	free(a);
	free(b);
	redactor_free(rd);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t at = 0;
	char *path = line(data, size, &at, 0), *dir = line(data, size, &at, 0);
	char *text = line(data, size, &at, 1);
	int kernels = size && (data[0] & 1);
	char *x = run(path, dir, text, kernels),
	     *y = run(path, dir, text, kernels);

	if (strcmp(x, y))
		abort();
	free(x);
	free(y);
	free(path);
	free(dir);
	free(text);
	return 0;
}
