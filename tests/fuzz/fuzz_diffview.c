/* libFuzzer target: sdperf diff on two report.json texts, through to the
 * view. The input is the base and the new report (split at the first NUL
 * byte; without one, the input is compared with itself): each is read by
 * snapshot_from_json (input/snapshot.c), the two are compared, and the
 * comparison is built into the diff's view model (view/diff_model.c: the
 * tables, the stacked bars and the waterfall's scale and SVG) and
 * diff.json. Nothing may crash, overflow (UBSan stops the run), leak or
 * abort; a refusal is an input error with a message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "format/json/diff_json.h"
#include "input/snapshot.h"
#include "tmpl/template.h"
#include "util/strbuf.h"
#include "view/diff_model.h"
#include "view/i18n.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog *cat;

static void show(const struct comparison *c)
{
	struct model_opts mo;
	struct tmpl_vars *v;
	struct strbuf out = STRBUF_INIT;

	memset(&mo, 0, sizeof(mo));
	mo.cat = cat;
	mo.date = "2026-01-01 00:00 UTC";
	mo.version = "0";
	mo.css = "";
	v = diff_model_build(c, &mo);
	tmpl_vars_free(v);
	render_diff_json(c, "0", &out);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t na = nul ? (size_t)(nul - data) : size;
	const char *b = nul ? (const char *)nul + 1 : (const char *)data;
	size_t nb = nul ? size - na - 1 : size;
	struct snapshot base, new_;
	struct comparison c;
	struct err e = ERR_INIT;

	if (!cat && i18n_load("en", &cat, &e))
		abort();
	memset(&c, 0, sizeof(c));
	if (snapshot_from_json("base.json", (const char *)data, na, &base,
	                       &e)) {
		if (e.code != ERR_INPUT || !e.msg[0])
			abort();
		snapshot_release(&base);
		return 0;
	}
	if (snapshot_from_json("new.json", b, nb, &new_, &e)) {
		if (e.code != ERR_INPUT || !e.msg[0])
			abort();
		snapshot_release(&new_);
		snapshot_release(&base);
		return 0;
	}
	if (!compare_snapshots(&base, &new_, size & 1, &c, &e))
		show(&c);
	else if (!e.msg[0])
		abort();
	comparison_release(&c);
	snapshot_release(&base);
	snapshot_release(&new_);
	return 0;
}
