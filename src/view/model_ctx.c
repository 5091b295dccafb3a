/* The view model's shared setters: catalogue look-ups, the report header,
 * raw numbers. */
#include "view/model_ctx.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *model_t(const struct model_ctx *c, const char *key)
{
	return i18n_get(c->o->cat, key);
}

void model_set_common(struct model_ctx *c, struct tmpl_vars *v,
                      const char *title_key)
{
	size_t i;

	for (i = 0; i < i18n_count(c->o->cat); i++) {
		const char *key = i18n_key(c->o->cat, i);
		char *var = xstrfmt("t_%s", key);
		tmpl_set(v, var, i18n_get(c->o->cat, key));
		free(var);
	}
	tmpl_set(v, "lang", i18n_lang(c->o->cat));
	tmpl_set(v, "title", c->o->title ? c->o->title : model_t(c, title_key));
	tmpl_set(v, "version", c->o->version);
	tmpl_set(v, "date", c->o->date);
	/* the running footer's line of every PDF (a report sets it) */
	tmpl_set(v, "confidential", "");
	tmpl_set(v, "css", c->o->css ? c->o->css : "");
	tmpl_set(v, "script", c->o->script ? c->o->script : "");
	tmpl_set(v, "script_csp", c->o->script_csp ? c->o->script_csp : "");
	tmpl_set(v, "fragment", c->o->fragment ? "1" : "");
}

/* Catalogue message `prefix` + `name`, e.g. "stage_" "dit". */
const char *model_tk(const struct model_ctx *c, const char *prefix,
                     const char *name)
{
	char key[128];
	/* the denoising network's stage id is "dit" whatever it is; a UNet
	 * is named for what it is */
	if (c->r && c->r->denoiser_unet && strcmp(name, "dit") == 0 &&
	    (strcmp(prefix, "stage_") == 0 ||
	     strcmp(prefix, "summary_stage_") == 0))
		name = "unet";
	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return i18n_get(c->o->cat, key);
}

const char *model_stage_label(const struct model_ctx *c, int s)
{
	const struct workload *w = &c->r->workload;

	if (s == STAGE_OTHER && w->one_stage)
		return model_tk(c, "workload_stage_",
		                workload_kind_names[w->kind]);
	return model_tk(c, "stage_", stage_names[s]);
}

void model_set_ns(struct tmpl_vars *v, const char *name, int64_t ns)
{
	tmpl_setf(v, name, "%" PRId64, ns);
}

void model_set_pct(struct tmpl_vars *v, const char *name, int64_t part,
                   int64_t whole)
{
	tmpl_setf(v, name, "%.3f", numfmt_pct(part, whole));
}

void model_set_u64(struct tmpl_vars *v, const char *name, uint64_t n)
{
	tmpl_setf(v, name, "%" PRIu64, n);
}

/* Sets `name` to catalogue message key with {placeholders} filled. */
void model_set_msg(struct model_ctx *c, struct tmpl_vars *v, const char *name,
                   const char *key, const char *const *names,
                   const char *const *values, size_t n)
{
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, key, &c->sb, names, values, n);
	tmpl_set(v, name, c->sb.buf);
}

/* A DiT measure taken over a whole profile of one stage (struct
 * workload): its title, check and metric worded for the whole profile
 * (verdict_whole_<what>_title, _metric; the check is the metric), the
 * recommendation the finding's own. */
static void whole_text(struct model_ctx *c, struct tmpl_vars *row,
                       const struct verdict *vd)
{
	static const char *const what[] = {"", "category", "comm", "imbalance"};
	const char *names[] = {"category"};
	const char *values[1];
	char key[96], rec[160];
	const char *s;

	values[0] = model_tk(c, "cat_", category_names[vd->whole_cat]);
	snprintf(key, sizeof(key), "verdict_whole_%s_title",
	         what[vd->whole_profile]);
	model_set_msg(c, row, "title", key, names, values, 1);
	snprintf(key, sizeof(key), "verdict_whole_%s_metric",
	         what[vd->whole_profile]);
	model_set_msg(c, row, "metric", key, names, values, 1);
	tmpl_set(row, "check", tmpl_get(row, "metric"));
	snprintf(rec, sizeof(rec), "verdict_%s_rec", vd->id);
	s = i18n_find(c->o->cat, rec);
	/* the advice is MindIE-SD's, for DiT pipelines: said so first */
	strbuf_reset(&c->sb);
	strbuf_adds(&c->sb, model_t(c, "verdict_whole_rec_note"));
	strbuf_adds(&c->sb, s                    ? s
	                    : vd->recommendation ? vd->recommendation
	                                         : "");
	tmpl_set(row, "recommendation", c->sb.buf);
}

void model_verdict_text(struct model_ctx *c, struct tmpl_vars *row,
                        const struct verdict *vd)
{
	static const struct {
		const char *var, *suffix;
	} parts[] = {{"title", "_title"},
	             {"check", "_check"},
	             {"metric", "_metric"},
	             {"recommendation", "_rec"}};
	const char *fallback[] = {vd->title, vd->check ? vd->check : vd->metric,
	                          vd->metric, vd->recommendation};
	char key[160];
	size_t i;

	if (vd->whole_profile != VW_NONE) {
		whole_text(c, row, vd);
		return;
	}
	for (i = 0; i < 4; i++) {
		const char *s;
		snprintf(key, sizeof(key), "verdict_%s%s", vd->id,
		         parts[i].suffix);
		s = i18n_find(c->o->cat, key);
		tmpl_set(row, parts[i].var,
		         s             ? s
		         : fallback[i] ? fallback[i]
		                       : "");
	}
}
