/* What every part of the view model shares: the options a report is
 * built with, the context a section builder gets, and the small setters
 * that turn numbers and catalogue messages into template variables. */
#ifndef SDPERF_MODEL_CTX_H
#define SDPERF_MODEL_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "tmpl/template.h"
#include "util/strbuf.h"
#include "view/i18n.h"

struct model_opts {
	const struct catalog *cat;
	const char *title;     /* NULL: the catalogue's default title */
	const char *docs_base; /* e.g. https://gitcode.com/Ascend/MindIE-SD */
	const char *date;      /* "2026-12-02 16:15 UTC" */
	const char *version;
	const char *css;        /* inlined into the HTML report */
	const char *script;     /* its inline script (HTML) */
	const char *script_csp; /* "sha256-..." that lets only it run */
	int fragment; /* the HTML is a wiki fragment: no head, no script */
};

struct model_ctx {
	const struct result *r;
	const struct model_opts *o;
	struct strbuf sb; /* scratch */
};

/* Catalogue message key; prefix + name ("stage_" "dit"). */
const char *model_t(const struct model_ctx *c, const char *key);
/* What every report's header sets: t_<key> for every catalogue message,
 * lang, title (o->title, else catalogue message title_key), version,
 * date, css, script, script_csp and fragment ("1" or ""). */
void model_set_common(struct model_ctx *c, struct tmpl_vars *v,
                      const char *title_key);
const char *model_tk(const struct model_ctx *c, const char *prefix,
                     const char *name);
/* A stage's name (enum stage s, STAGE_ALL included): the catalogue's
 * stage_<id>, except the one stage of a profile that is not split
 * (struct workload), named for what the profile is:
 * workload_stage_<kind>. */
const char *model_stage_label(const struct model_ctx *c, int s);
void model_set_ns(struct tmpl_vars *v, const char *name, int64_t ns);
void model_set_pct(struct tmpl_vars *v, const char *name, int64_t part,
                   int64_t whole);
void model_set_u64(struct tmpl_vars *v, const char *name, uint64_t n);
/* A verdict's title, check, metric and recommendation: the catalogue's
 * (verdict_<id>_title, _check, _metric, _rec) when it knows the id (the
 * built-in ones), else the rules file's own text. */
void model_verdict_text(struct model_ctx *c, struct tmpl_vars *row,
                        const struct verdict *vd);
/* name = message key with {names[i]} replaced by values[i]. */
void model_set_msg(struct model_ctx *c, struct tmpl_vars *v, const char *name,
                   const char *key, const char *const *names,
                   const char *const *values, size_t n);

#endif
