/* report.json's branding and provenance (contract in json_prov.h). */
#include "format/json/json_prov.h"

#include <string.h>

#include "format/json/jsonw.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/banned.h"

static void add_time(cJSON *o, const char *key, int64_t s, int utc)
{
	struct strbuf sb = STRBUF_INIT;

	if (s < 0) {
		jsonw_add_null(o, key);
		return;
	}
	numfmt_time(&sb, s, utc ? NUMFMT_TIME_ISO_Z : NUMFMT_TIME_ISO);
	jsonw_add_str(o, key, sb.buf);
	strbuf_release(&sb);
}

static void branding(cJSON *root, const struct brand *b)
{
	cJSON *o = jsonw_add_object(root, "branding"), *logo;

	jsonw_add_str(o, "org", b->org);
	jsonw_add_str(o, "customer", b->customer);
	jsonw_add_str(o, "ticket", b->ticket);
	jsonw_add_str(o, "confidential", b->confidential);
	if (!b->logo) {
		jsonw_add_null(o, "logo");
		return;
	}
	logo = jsonw_add_object(o, "logo");
	jsonw_add_str(logo, "type", b->logo_mime);
	jsonw_add_u64(logo, "bytes", b->logo_len);
	jsonw_add_str(logo, "sha256", b->logo_sha256);
}

static void inputs(cJSON *o, const struct result *r)
{
	cJSON *a = jsonw_add_array(o, "inputs");
	size_t i, k;

	for (i = 0; i < r->nranks; i++)
		for (k = 0; k < r->ranks[i].ninputs; k++) {
			const struct input_file *f = &r->ranks[i].inputs[k];
			cJSON *x = cJSON_CreateObject();
			jsonw_add_i64(x, "rank", r->ranks[i].id);
			jsonw_add_str(x, "file", f->what);
			jsonw_add_str(x, "path", f->path);
			jsonw_add_u64(x, "bytes", f->size);
			jsonw_add_str(x, "sha256", f->sha256);
			cJSON_AddItemToArray(a, x);
		}
}

void json_provenance(cJSON *root, const struct result *r)
{
	const struct provenance *p = &r->prov;
	cJSON *o, *rules;

	if (!p->set)
		return;
	branding(root, &r->brand);
	o = jsonw_add_object(root, "provenance");
	jsonw_add_str(o, "sdperf_version", p->version);
	jsonw_add_str(o, "build", p->build && *p->build ? p->build : NULL);
	jsonw_add_str(o, "command_line", p->command_line);
	rules = jsonw_add_object(o, "rules");
	jsonw_add_str(rules, "source", p->rules);
	jsonw_add_str(rules, "sha256", p->rules_sha256);
	inputs(o, r);
	add_time(o, "captured", p->captured_s,
	         p->captured_from &&
	             !strcmp(p->captured_from, "profiler_info"));
	jsonw_add_str(o, "captured_from", p->captured_from);
	add_time(o, "generated", p->generated_s, 1);
	jsonw_add_str(o, "generated_from",
	              p->generated_fixed ? "SOURCE_DATE_EPOCH" : "clock");
}
