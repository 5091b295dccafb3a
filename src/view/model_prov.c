/* Branding and provenance for the templates and the PDF layout (contract
 * in model_prov.h). */
#include "view/model_prov.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/sha256.h"
#include "util/banned.h"

static void branding(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct brand *b = &c->r->brand;
	struct strbuf uri = STRBUF_INIT;

	tmpl_set(v, "org", b->org ? b->org : "");
	tmpl_set(v, "customer", b->customer ? b->customer : "");
	tmpl_set(v, "ticket", b->ticket ? b->ticket : "");
	tmpl_set(v, "confidential", b->confidential ? b->confidential : "");
	tmpl_set(v, "has_brand",
	         b->org || b->customer || b->ticket || b->logo ? "1" : "");
	if (b->logo) {
		strbuf_addf(&uri, "data:%s;base64,", b->logo_mime);
		base64_add(&uri, b->logo, b->logo_len);
	}
	tmpl_set(v, "logo_uri", uri.buf ? uri.buf : "");
	/* beside the organisation's name the logo is decoration */
	tmpl_set(v, "logo_alt", b->org ? "" : model_t(c, "logo_alt"));
	strbuf_release(&uri);
}

/* The capture and generation times, in words. */
static void times(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct provenance *p = &c->r->prov;
	const char *names[] = {"time"};
	const char *values[1];
	struct strbuf t = STRBUF_INIT;

	if (p->captured_s < 0)
		tmpl_set(v, "captured", model_t(c, "unknown"));
	else {
		numfmt_time(&t, p->captured_s, NUMFMT_TIME_TEXT);
		values[0] = t.buf;
		model_set_msg(c, v, "captured",
		              strcmp(p->captured_from, "profiler_info")
		                  ? "captured_folder"
		                  : "captured_profiler_info",
		              names, values, 1);
	}
	if (p->generated_fixed) {
		names[0] = "date";
		values[0] = c->o->date;
		model_set_msg(c, v, "date", "generated_fixed", names, values,
		              1);
	}
	strbuf_release(&t);
}

static void inputs(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i, k;

	tmpl_define_loop(v, "prov_inputs");
	for (i = 0; i < r->nranks; i++)
		for (k = 0; k < r->ranks[i].ninputs; k++) {
			const struct input_file *f = &r->ranks[i].inputs[k];
			struct tmpl_vars *row = tmpl_add_row(v, "prov_inputs");
			tmpl_setf(row, "rank", "%d", (int)r->ranks[i].id);
			tmpl_set(row, "file", f->what);
			tmpl_set(row, "path", f->path);
			tmpl_setf(row, "bytes", "%" PRIu64, f->size);
			tmpl_set(row, "sha256", f->sha256);
		}
}

void model_provenance(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct provenance *p = &c->r->prov;
	const char *names[] = {"build"};
	const char *values[1];

	branding(c, v);
	tmpl_set(v, "has_prov", p->set ? "1" : "");
	tmpl_set(v, "captured", model_t(c, "unknown"));
	tmpl_set(v, "prov_version", c->o->version ? c->o->version : "");
	tmpl_set(v, "prov_build", "");
	tmpl_set(v, "prov_command", p->command_line ? p->command_line : "");
	/* the built-in rules in the report's language, as in Inputs */
	tmpl_set(v, "prov_rules",
	         !p->rules || !strcmp(p->rules, "built-in")
	             ? model_t(c, "rules_builtin")
	             : p->rules);
	tmpl_set(v, "prov_rules_sha256", p->rules_sha256);
	if (!p->set) {
		tmpl_define_loop(v, "prov_inputs");
		return;
	}
	if (p->build && *p->build) {
		values[0] = p->build;
		model_set_msg(c, v, "prov_build", "prov_build", names, values,
		              1);
	}
	times(c, v);
	inputs(c, v);
}
