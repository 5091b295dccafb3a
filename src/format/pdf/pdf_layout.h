/* The PDF layout shared by the single-run report and the comparison:
 * the layout context, paragraphs, headings, cards and tables (with their
 * heading row repeated on each new page), drawn from the view model's
 * variables with the text machinery of pdf_text.h. Internal to
 * format/pdf; errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_LAYOUT_H
#define SDPERF_FORMAT_PDF_LAYOUT_H

#include "format/pdf/pdf_text.h"
#include "tmpl/template.h"
#include "util/strbuf.h"

struct pdf_opts; /* format/pdf/pdf.h */

#define PDF_MAX_HELD 4 /* headings in a row, waiting for their content */

/* The layout context of one document; d comes first (pt_need hands the
 * held headings a struct pdf_doc *). */
struct pdf_ctx {
	struct pdf_doc d;
	const struct tmpl_vars *m; /* the view model being laid out */
	const struct pdf_opts *o;
	HPDF_Encoder utf8;
	float meta_w; /* where the title block's values start */
	/* the templates' formatters: dur, pct1, int, f1, f2 */
	tmpl_fmt_fn fdur, fpct, fint, ff1, ff2;
	struct strbuf bytes; /* the finished document */
	/* scratch per column: formatted cell values, heading texts that
	 * live as long as their table (repeated on each new page), and
	 * cell sub-lines val has no room for */
	struct strbuf val[PDF_MAX_COLS], head[PDF_MAX_COLS], sub[PDF_MAX_COLS];
	/* the row being laid out: wrapped lines of each cell's text and
	 * sub-text, their fonts and line counts */
	struct strbuf lines[PDF_MAX_COLS], subl[PDF_MAX_COLS];
	HPDF_Font lfont[PDF_MAX_COLS], sfont[PDF_MAX_COLS];
	size_t nl[PDF_MAX_COLS], ns[PDF_MAX_COLS];
	/* headings not yet laid out (d.held): their texts, whether each is
	 * a section's (else a subheading), and their wrapped lines */
	struct strbuf held[PDF_MAX_HELD], held_wrap;
	int held_sec[PDF_MAX_HELD];
	size_t nheld;
};

/* Styles of assets/report.css: body text, headings, links. */
static const struct pdf_style PDF_BODY = {9.0f, 0, PDF_FG};
static const struct pdf_style PDF_H1 = {18.0f, 1, PDF_FG};
static const struct pdf_style PDF_H2 = {14.0f, 1, PDF_FG};
static const struct pdf_style PDF_H3 = {11.0f, 1, PDF_FG};
static const struct pdf_style PDF_LINK_TEXT = {9.0f, 0, PDF_LINK};

/* Empty buffers; pdf_ctx_release frees them and the document. */
void pdf_ctx_init(struct pdf_ctx *c);
void pdf_ctx_release(struct pdf_ctx *c);

/* The model's value of name ("" when unset). */
const char *pdf_v(const struct pdf_ctx *c, const char *name);
/* value formatted by fn into buf (reset first); returns the text. */
const char *pdf_fmt(tmpl_fmt_fn fn, struct strbuf *buf, const char *value);

/* ---- text blocks -------------------------------------------------------- */

/* A paragraph of body text, with 5 points below it. */
void pdf_para(struct pdf_ctx *c, const char *s);
/* A paragraph in small grey print (notes, captions), no space below. */
void pdf_small(struct pdf_ctx *c, const char *s);
/* A bold paragraph in colour rgb (a good-news line), 6 points below. */
void pdf_strong(struct pdf_ctx *c, const char *s, unsigned rgb);
/* A bullet item; sub (NULL or "": none) in small grey under it. */
void pdf_bullet(struct pdf_ctx *c, const char *s, const char *sub);
/* A section heading (catalogue variable var) with its outline entry
 * (bookmark), and a subheading. Neither is laid out at once: it is held
 * until the content after it asks for room (pt_need), and then laid out
 * with that room on the same page, so a heading never ends a page. */
void pdf_section(struct pdf_ctx *c, const char *var);
void pdf_subheading(struct pdf_ctx *c, const char *s);
/* Lays out the held headings now (at the end of the document). */
void pdf_flush_headings(struct pdf_ctx *c);
/* The title block: pdf_title draws the document title (the model's
 * "title"); each pdf_meta adds a line, the text of catalogue variable
 * label in small grey, value at label_w from the margin; pdf_title_end
 * adds the date and "sdperf VERSION" lines (the model's "date" and
 * "version") and the space below the block. */
void pdf_title(struct pdf_ctx *c, float label_w);
void pdf_meta(struct pdf_ctx *c, const char *label, const char *value);
void pdf_title_end(struct pdf_ctx *c);

/* ---- cards -------------------------------------------------------------- */

/* A card h points high: a panel with a bar of colour rgb on its left,
 * on a new page unless it fits on this one; taller than a page, it gets
 * no panel (its content flows). Draws only the panel: y is unchanged. */
void pdf_card(struct pdf_ctx *c, float h, unsigned long rgb);
/* The panel of a card w points wide at x, from y down h points (a card in
 * a grid row, which the caller has made room for). */
void pdf_card_at(struct pdf_ctx *c, float x, float w, float h,
                 unsigned long rgb);
/* A badge at x: text in small white bold on rgb, 17 points of height
 * (taken from y). */
void pdf_badge(struct pdf_ctx *c, float x, const char *text, unsigned long rgb);

/* ---- tables ------------------------------------------------------------- */

struct pdf_col {
	const char *head; /* heading: a catalogue variable, or its text */
	float w;          /* share of the content width */
	int num;          /* right-aligned (numbers) */
};

struct pdf_cell {
	const char *text;
	const char *sub;   /* smaller grey text under it, or NULL */
	const char *url;   /* makes the text a link, or NULL */
	long dot;          /* colour swatch 0xRRGGBB before the text, or -1 */
	const char *state; /* a verdict state ("fired", "ok", other): its
	                    * shape before the text, as the HTML's ▲ and ✓
	                    * (pdf_chart_state_mark), or NULL */
	int indent;        /* swatch widths the text starts further right (a
	                    * sub-row of the row above: 2), or 0 */
	int strong;        /* text in bold (the row the HTML sets in bold) */
	long sub_rgb;      /* colour 0xRRGGBB of sub, or -1: grey */
};

/* What a row callback fills in: the cells of row r (text "" from
 * c->val[k], no sub, url, dot or state, not strong, sub_rgb -1, unless vars
 * filled them). */
typedef void (*pdf_row_fn)(struct pdf_ctx *c, const struct tmpl_vars *r,
                           struct pdf_cell *cells);

/* A table of the rows of loop `loop` of m, one row each. */
struct pdf_table {
	const struct pdf_col *cols; /* n <= PDF_MAX_COLS columns */
	size_t n;
	int head_text; /* cols' heads are texts, else catalogue variables */
	const struct tmpl_vars *m;
	const char *loop;
	/* NULL, or per column: the row's variable shown (NULL: none),
	 * through fmts[k] (NULL or no fmts: as text), into c->val[k];
	 * dash: an empty value is "–" rather than formatted */
	const char *const *vars;
	const tmpl_fmt_fn *fmts;
	int dash;
	pdf_row_fn row;   /* NULL, or fills (the rest of) each row's cells */
	const char *when; /* NULL, or a row variable: rows without it are
	                   * left out */
	float keep_last;  /* points kept on the page below the last row */
};

/* The start of a struct pdf_table's initialiser: the columns of array
 * spec, the rows of loop `loop` of model m. */
#define PDF_TABLE(spec, model, loopname)                                       \
	.cols = (spec), .n = sizeof(spec) / sizeof((spec)[0]), .m = (model),   \
	.loop = (loopname)

/* Lays out table t: its heading row (kept with its first row, and with
 * all its rows when there are eight or fewer: a small table is never
 * split), then each row; a row that does not fit starts a new page with
 * the heading row repeated. Cell text wraps in its column; a run too long for
 * it is cut with "…". Leaves 10 points below the table. */
void pdf_table(struct pdf_ctx *c, const struct pdf_table *t);

#endif
