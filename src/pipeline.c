/* The pipeline, one page: this IS the architecture diagram.
 *
 *   PATH --discover--> profiler files --read--> kernel table
 *        --analyse--> result --render--> report.json + stdout summary
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

/* Describes the input file in the result and turns skipped rows into
 * warnings. */
static void note_input(struct result *r, const struct kernels_info *in,
                       uint64_t kernels)
{
	struct input_desc *d;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	r->inputs = xrealloc(r->inputs, (r->ninputs + 1) * sizeof(*r->inputs));
	d = &r->inputs[r->ninputs++];
	memset(d, 0, sizeof(*d));
	d->role = xstrdup("kernel_details");
	d->path = xstrdup(in->path);
	d->size = in->size;
	d->variant = xstrdup(in->variant ? in->variant : "unknown");
	d->crlf = in->crlf;
	d->bom = in->bom;
	d->start_tab = in->start_tab;
	d->device_id = in->device_id;
	d->rows = in->rows;
	d->skipped = in->skipped;
	d->kernels = kernels;
	d->typed_from_name = in->na_type;
	if (in->skipped) {
		strbuf_addf(&sb,
		            "%llu malformed row%s skipped (listed below%s); "
		            "use --strict to make this an error",
		            (unsigned long long)in->skipped,
		            in->skipped == 1 ? "" : "s",
		            in->skipped > in->nwarn ? ", the first ones" : "");
		result_warn(r, "skipped_rows", in->path, 0, sb.buf)->args[0] =
		    xstrfmt("%llu", (unsigned long long)in->skipped);
	}
	for (i = 0; i < in->nwarn; i++) {
		const struct row_warning *rw = &in->warn[i];
		struct warning *w = result_warn(r, "skipped_row", in->path,
		                                rw->line, rw->reason);
		w->reason = xstrdup(rw->code);
		for (k = 0; k < 3; k++)
			w->args[k] = rw->args[k] ? xstrdup(rw->args[k]) : NULL;
	}
	strbuf_release(&sb);
}

static int write_outputs(const struct options *o, const struct result *r,
                         struct err *e)
{
	struct strbuf text = STRBUF_INIT;
	char *path = NULL;
	int ret = -1;

	if (fileio_mkdirs(o->outdir, e))
		goto out;
	if (o->formats & FORMAT_JSON) {
		render_json(r, SDPERF_VERSION, &text);
		path = fileio_join(o->outdir, "report.json");
		if (fileio_write_atomic(path, text.buf, text.len, e))
			goto out;
	}
	if (!o->quiet) {
		strbuf_reset(&text);
		render_text(r, SDPERF_VERSION, &text);
		if (path)
			strbuf_addf(&text, "\nreport: %s\n", path);
		fputs(text.buf, stdout);
		fflush(stdout);
	}
	ret = 0;
out:
	free(path);
	strbuf_release(&text);
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
	note_input(&r, &info, kt.n);
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
