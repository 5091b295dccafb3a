/* The PDF reports: the single-run report and the comparison, each the
 * HTML report's content in the same order, laid out on A4 pages with
 * libharu (format/pdf is the only folder that uses it). */
#ifndef SDPERF_FORMAT_PDF_H
#define SDPERF_FORMAT_PDF_H

#include <time.h>

#include "tmpl/template.h"
#include "util/err.h"
#include "util/libversion.h"
#include "util/strbuf.h"

struct pdf_opts {
	/* NULL: /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf */
	const char *font_path;
	/* NULL: bold is synthesised from the regular font (stroked), which
	 * keeps the English report near 120 KB instead of 210 KB: libharu
	 * embeds every TrueType font whole but for its glyphs (~92 KB for
	 * DejaVuSans-Bold.ttf). A path: that font is embedded for bold. */
	const char *font_bold_path;
	/* NULL: /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc (face 0); loaded
	 * only when some string of the report needs it */
	const char *cjk_font_path;
	const char *title;   /* document title (the model's "title") */
	const char *version; /* "0.1.0": the creator is "sdperf VERSION" */
	time_t date;         /* creation date for the metadata (UTC) */
	/* "zh": the punctuation joining Chinese text is set full-width
	 * (util/cjkpunct.h); NULL or another language: text as it is */
	const char *lang;
	/* the logo (accepted by img_check, util/imgcheck.h), NULL: none;
	 * decoded once, drawn at the
	 * right of the running header */
	const unsigned char *logo;
	size_t logo_len;
	int logo_png; /* else JPEG */
};

/* Lays out the report described by model (from model_build) as an A4 PDF
 * appended to out. Returns 0, or -1 with e set:
 *   ERR_INPUT     a font file is missing or libharu cannot load it (the
 *                 message names the file, the Debian package that has it
 *                 and the option that names another one);
 *   ERR_INTERNAL  any other libharu error (the message gives libharu's
 *                 error and detail numbers).
 * Never aborts (libharu errors are caught); on error nothing is appended.
 * Deterministic for a given model, options and fonts. */
int pdf_render(const struct tmpl_vars *model, const struct pdf_opts *o,
               struct strbuf *out, struct err *e);

/* As pdf_render, for a comparison model built by diff_model_build, laid
 * out in the order of templates/diff.html.tmpl with the same fonts,
 * styles, tables and page furniture. */
int pdf_diff_render(const struct tmpl_vars *model, const struct pdf_opts *o,
                    struct strbuf *out, struct err *e);

/* libharu's versions (sdperf --version). */
struct libversion pdf_libharu_version(void);

#endif
