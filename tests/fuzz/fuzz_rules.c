/* libFuzzer target: the rules loader rejects bad rules files cleanly, a
 * loaded rule set classifies any name, and the glob matcher agrees with
 * its definition on the input's bytes. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rules.h"
#include "util/glob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The definition: p[i..] matches s[j..], by dynamic programming. */
static int glob_reference(const char *p, const char *s)
{
	static unsigned char m[65][257];
	size_t lp = strlen(p), ls = strlen(s), i, j;

	for (i = lp + 1; i-- > 0;)
		for (j = ls + 1; j-- > 0;) {
			if (i == lp)
				m[i][j] = j == ls;
			else if (p[i] == '*')
				m[i][j] =
				    m[i + 1][j] || (j < ls && m[i][j + 1]);
			else
				m[i][j] = j < ls &&
				          (p[i] == '?' ||
				           tolower((unsigned char)p[i]) ==
				               tolower((unsigned char)s[j])) &&
				          m[i + 1][j + 1];
		}
	return m[0][0];
}

/* The input as "pattern\0subject" (at most 64 and 256 bytes). */
static void check_glob(const uint8_t *data, size_t size)
{
	char p[65], s[257];
	const uint8_t *nul = memchr(data, '\0', size);
	size_t lp, ls;

	if (!nul)
		return;
	lp = (size_t)(nul - data);
	ls = size - lp - 1;
	if (lp > 64 || ls > 256 || memchr(nul + 1, '\0', ls))
		return;
	memcpy(p, data, lp);
	p[lp] = '\0';
	memcpy(s, nul + 1, ls);
	s[ls] = '\0';
	if (glob_match(p, s) != glob_reference(p, s))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules r;
	struct err e = ERR_INIT;
	char name[4097];
	size_t n = size < 4096 ? size : 4096;

	check_glob(data, size);
	if (rules_load_text(&r, "fuzz.json", (const char *)data, size, &e) ==
	    0) {
		/* a loaded rule set must classify without trouble, also a
		 * name as long and odd as the file itself */
		memcpy(name, data, n);
		name[n] = '\0';
		(void)rules_classify(&r, "MatMulV3", "AI_CORE");
		(void)rules_signature(&r, "Conv2D");
		(void)rules_classify(&r, name, name);
		(void)rules_signature(&r, name);
		rules_release(&r);
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	return 0;
}
