/* sdperf summarize's file: the version, then the field tables of
 * analysis/ranksum.c written by format/json/ftjson.c. */
#include "format/json/ranksum_json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "format/json/ftjson.h"
#include "format/json/jsonw.h"
#include "util/banned.h"

int render_ranksum(const struct ranksum *s, struct strbuf *out, struct err *e)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	jsonw_add_i64(root, "sdperf_summary", RANKSUM_VERSION);
	ftjson_add_members(root, &ranksum_table, s);
	text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!text) /* a summary's lists are capped: out of memory */
		return err_set(e, ERR_OUTPUT,
		               "the summary: too large to write (out of "
		               "memory while printing its JSON)");
	strbuf_adds(out, text);
	strbuf_addch(out, '\n');
	free(text);
	return 0;
}
