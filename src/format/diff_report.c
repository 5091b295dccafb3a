/* The comparison reports of sdperf diff: report.c's driver with the
 * comparison's view model (diff_model.c), templates (diff.html.tmpl,
 * diff.md.tmpl) and PDF layout (pdf_diff.c). */
#include "format/diff_report.h"

#include "view/diff_model.h"
#include "format/pdf/pdf.h"
#include "util/banned.h"

static struct tmpl_vars *build_comparison(const void *data,
                                          const struct model_opts *mo)
{
	return diff_model_build(data, mo);
}

int diff_report_render(const struct comparison *c, enum report_kind kind,
                       const struct report_opts *o, struct strbuf *out,
                       struct err *e)
{
	static const struct report_spec spec = {
	    build_comparison, "diff.html.tmpl", "diff.md.tmpl", "diff.js",
	    pdf_diff_render};
	return report_render_with(&spec, c, kind, o, out, e);
}
