/* libFuzzer target: the JSON pull reader must never crash, hang or leak;
 * it gives the same answer through a window refilled a few bytes at a time
 * as with the text in memory; what it accepts cJSON accepts too (through
 * jsonerr_cjson_parse, which reads a lone surrogate escape as U+FFFD, as
 * the reader does); and a walk driven by the input's bytes keeps to its
 * contract. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(const char *t, size_t n, size_t chunk, struct err *e)
{
	struct jpull p;
	int rc;

	if (chunk)
		jp_open_mem_chunked(&p, "f.json", t, n, chunk, e);
	else
		jp_open_mem(&p, "f.json", t, n, e);
	rc = jp_type(&p) == JP_NONE        ? jp_error(&p, "no value")
	     : (jp_skip(&p) || jp_end(&p)) ? -1
	                                   : 0;
	jp_close(&p);
	return rc;
}

/* Members and elements in order, each value entered, skipped, quoted or
 * parsed as the next input byte says. */
static void walk(const char *t, size_t n, size_t chunk, const uint8_t *how,
                 size_t nhow)
{
	struct jpull p;
	struct err e = ERR_INIT;
	struct strbuf key = STRBUF_INIT, q = STRBUF_INIT;
	size_t step = 0;
	unsigned depth = 0;
	cJSON *v;
	int more = 0;

	jp_open_mem_chunked(&p, "f.json", t, n, chunk, &e);
	for (;;) {
		unsigned c = nhow ? how[step++ % nhow] : 0;
		enum jp_type ty = jp_type(&p);
		if (ty == JP_NONE)
			break;
		if ((ty == JP_OBJECT || ty == JP_ARRAY) && c % 4 == 0) {
			if (jp_enter(&p))
				break;
			depth++;
		} else if (c % 4 == 1) {
			if (jp_skip(&p))
				break;
		} else if (c % 4 == 2) {
			if (jp_skip_quote(&p, &q, c % 64) || q.len > c % 64)
				break;
		} else {
			v = jp_parse(&p, 64 + c * 16, "fuzz");
			if (!v)
				break;
			cJSON_Delete(v);
		}
		/* then the next member, or the containers that end */
		while (depth && (more = jp_next(&p, &key)) == 0)
			depth--;
		if (!depth || more < 0)
			break;
		if (key.len > JP_MAX_KEY)
			abort();
	}
	if (p.failed && (e.code != ERR_INPUT || !e.msg[0]))
		abort();
	jp_close(&p);
	strbuf_release(&key);
	strbuf_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	struct err a = ERR_INIT, b = ERR_INIT;
	size_t chunk = size ? data[0] % 17 + 1 : 1;
	int ra = check(t, size, 0, &a), rb = check(t, size, chunk, &b);
	const char *end = NULL;
	cJSON *c;

	if (ra != rb || strcmp(a.msg, b.msg))
		abort(); /* the window changed the answer */
	if (ra && (a.code != ERR_INPUT || !a.msg[0]))
		abort();
	if (!ra) {
		c = jsonerr_cjson_parse(t, size, &end);
		if (!c)
			abort(); /* accepted what cJSON refuses */
		cJSON_Delete(c);
	}
	walk(t, size, chunk, data, size < 64 ? size : 64);
	return 0;
}
