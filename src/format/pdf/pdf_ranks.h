/* The PDF report's layout context and the helpers its sections share
 * (render/pdf.c), the document machinery both PDF reports share
 * (render/pdf_doc.c), and the multi-file, multi-rank sections laid out by
 * render/pdf_ranks.c from the view model's variables (render/model_ranks.h):
 * ranks, collectives, Overlap Analysis, stage boundaries, steps, and the
 * rank inputs. Internal to the PDF renderer; errors longjmp as in
 * pdf_text.h. */
#ifndef SDPERF_RENDER_PDF_RANKS_H
#define SDPERF_RENDER_PDF_RANKS_H

#include "format/pdf/pdf.h"
#include "format/pdf/pdf_text.h"

struct pdf_ctx {
	struct pdf_doc d;
	const struct tmpl_vars *m;
	const struct pdf_opts *o;
	HPDF_Encoder utf8;
	tmpl_fmt_fn fdur, fpct, fint, ff1, ff2;
	struct strbuf bytes;
	struct strbuf val[PDF_MAX_COLS]; /* formatted cell values */
};

/* The model's value of name ("" when unset). */
const char *pdf_v(const struct pdf_ctx *c, const char *name);
/* value formatted by fn into buf (reset first); returns the text. */
const char *pdf_fmt(tmpl_fmt_fn fn, struct strbuf *buf, const char *value);
/* spec with each heading variable name replaced by its text, in out. */
const struct pdf_col *pdf_heads(const struct pdf_ctx *c,
                                const struct pdf_col *spec, size_t n,
                                struct pdf_col *out);
/* A paragraph, a bullet item (sub: small grey line under it, or NULL), a
 * section heading (catalogue variable var) with its bookmark, a
 * subheading, the space after a table. */
void pdf_para(struct pdf_ctx *c, const char *s);
void pdf_bullet(struct pdf_ctx *c, const char *s, const char *sub);
void pdf_section(struct pdf_ctx *c, const char *var);
void pdf_subheading(struct pdf_ctx *c, const char *s);
void pdf_table_end(struct pdf_ctx *c);
/* cells[0..n) reset to plain text from c->val. */
void pdf_cells_init(struct pdf_ctx *c, struct pdf_cell *cells, size_t n);

/* The document, for both reports (render/pdf_doc.c). pdf_doc_start
 * starts it in c->d with libharu's errors trapped (they longjmp to c->d.jb,
 * c->d.err set), the formatters in c, UTF-8 text, the fonts of c->o (or
 * the Debian defaults) and the outline shown on opening; cannot start:
 * ERR_INTERNAL. pdf_doc_metadata sets the creation date (c->o->date),
 * title (c->o->title, else the model's "title"), subject (the model's
 * subject_var) and creator ("sdperf " c->o->version). pdf_doc_decorate
 * draws the running header (the title, one line, a rule) and the footer
 * (the model's "t_pdf_page" with {n} and {m}) on every page: call it once
 * the last page exists. pdf_doc_save appends the finished document's
 * bytes to c->bytes. */
void pdf_doc_start(struct pdf_ctx *c);
void pdf_doc_metadata(struct pdf_ctx *c, const char *subject_var);
void pdf_doc_decorate(struct pdf_ctx *c);
void pdf_doc_save(struct pdf_ctx *c);

/* The sections, each absent when the model has no data for it (as in
 * templates/report.html.tmpl). */
void pdf_ranks_section(struct pdf_ctx *c);
void pdf_cluster_sections(struct pdf_ctx *c); /* collectives, overlap,
                                               * stage boundaries */
void pdf_steps_section(struct pdf_ctx *c);
void pdf_rank_inputs(struct pdf_ctx *c); /* inside the Inputs section */

#endif
