/* sdperf summarize's file: the version, then the field tables of
 * analysis/ranksum.c written by format/json/ftjson.c. */
#include "format/json/ranksum_json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "format/json/ftjson.h"
#include "format/json/jsonw.h"
#include "util/banned.h"

void render_ranksum(const struct ranksum *s, struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	jsonw_add_i64(root, "sdperf_summary", RANKSUM_VERSION);
	ftjson_add_members(root, &ranksum_table, s);
	text = cJSON_PrintUnformatted(root);
	strbuf_adds(out, text);
	strbuf_addch(out, '\n');
	free(text);
	cJSON_Delete(root);
}
