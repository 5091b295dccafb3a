/* The pipeline, one page: this IS the architecture diagram.
 *
 *   PATH --discover--> profiler files --read--> kernel table
 *        --analyse--> result --render--> report.json, report.html,
 *                                         report.md + stdout summary
 *
 * Readers know nothing of the report, the analysis nothing of rendering,
 * renderers nothing of file formats. */
#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyse.h"
#include "analysis/rules.h"
#include "input/discover.h"
#include "input/kernels.h"
#include "render/json.h"
#include "render/report.h"
#include "render/text.h"
#include "util/banned.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "version.h"

static int load_rules(const struct options *o, struct rules *ru, struct err *e)
{
	size_t i;

	if (o->rules ? rules_load_file(ru, o->rules, e)
	             : rules_load_builtin(ru, e))
		return -1;
	for (i = 0; i < o->nthresholds; i++)
		if (rules_set_threshold(ru, o->thresholds[i], e))
			return -1;
	return 0;
}

/* Renders report format `bit` of r into out. */
static int render_one(const struct options *o, const struct result *r,
                      unsigned bit, time_t date, struct strbuf *out,
                      struct err *e)
{
	struct report_opts ro = {
	    o->lang,        o->title, o->docs_base, o->templates_dir, date,
	    SDPERF_VERSION, NULL,     o->font,      o->cjk_font};

	if (bit == FORMAT_JSON) {
		render_json(r, SDPERF_VERSION, out);
		return 0;
	}
	return report_render(r,
	                     bit == FORMAT_HTML ? REPORT_HTML
	                     : bit == FORMAT_MD ? REPORT_MARKDOWN
	                                        : REPORT_PDF,
	                     &ro, out, e);
}

/* Renders every requested format first, then writes each atomically: a
 * template error leaves no report of this run behind. */
static int write_outputs(const struct options *o, const struct result *r,
                         struct err *e)
{
	static const struct {
		unsigned bit;
		const char *file;
	} formats[] = {{FORMAT_JSON, "report.json"},
	               {FORMAT_HTML, "report.html"},
	               {FORMAT_MD, "report.md"},
	               {FORMAT_PDF, "report.pdf"}};
	enum { NF = sizeof(formats) / sizeof(formats[0]) };
	struct strbuf text[NF], summary = STRBUF_INIT;
	time_t date = report_time();
	char *paths[NF] = {NULL};
	size_t i;
	int ret = -1;

	for (i = 0; i < NF; i++)
		strbuf_init(&text[i]);
	for (i = 0; i < NF; i++)
		if ((o->formats & formats[i].bit) &&
		    render_one(o, r, formats[i].bit, date, &text[i], e))
			goto out;
	if (fileio_mkdirs(o->outdir, e))
		goto out;
	for (i = 0; i < NF; i++) {
		if (!(o->formats & formats[i].bit))
			continue;
		paths[i] = fileio_join(o->outdir, formats[i].file);
		if (fileio_write_atomic(paths[i], text[i].buf, text[i].len, e))
			goto out;
	}
	if (!o->quiet) {
		render_text(r, SDPERF_VERSION, &summary);
		strbuf_addch(&summary, '\n');
		for (i = 0; i < NF; i++)
			if (paths[i])
				strbuf_addf(&summary, "wrote %s\n", paths[i]);
		fputs(summary.buf, stdout);
		fflush(stdout);
	}
	ret = 0;
out:
	for (i = 0; i < NF; i++) {
		strbuf_release(&text[i]);
		free(paths[i]);
	}
	strbuf_release(&summary);
	return ret;
}

int pipeline_report(const struct options *o, struct err *e)
{
	struct rules ru = {0};
	struct discovered d = {0};
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct kernels_opts ko = {o->strict, !o->quiet};
	struct result r;
	int ret = -1;

	kernel_table_init(&kt);
	result_init(&r);
	if (load_rules(o, &ru, e) || discover_profile(o->path, &d, e))
		goto out;
	if (kernels_read(d.kernels_csv, &ko, &kt, &info, e))
		goto out;
	r.profile_path = xstrdup(o->path);
	r.rank_dir = d.rank_dir ? xstrdup(d.rank_dir) : NULL;
	result_add_kernels_input(&r, &info, kt.n);
	analyse(&kt, &ru, &r, NULL);
	ret = write_outputs(o, &r, e);
out:
	result_release(&r);
	kernels_info_release(&info);
	kernel_table_release(&kt);
	discover_release(&d);
	rules_release(&ru);
	return ret;
}
