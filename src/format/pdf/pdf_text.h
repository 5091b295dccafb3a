/* Text for the PDF renderer: the libharu document with its fonts, the
 * per-string font choice (Latin or CJK), measuring, line wrapping and
 * drawing, pages and paragraphs. Internal to format/pdf (it exposes
 * libharu types), whose layout (pdf_layout.h) is built on it; libharu is
 * used nowhere else.
 *
 * libharu measures and wraps only text it can split at spaces, which
 * Chinese has none of, so all measuring here is ours: UTF-8 is decoded here
 * (invalid bytes become U+FFFD) and widths come per code point from
 * HPDF_Font_GetUnicodeWidth. */
#ifndef SDPERF_FORMAT_PDF_TEXT_H
#define SDPERF_FORMAT_PDF_TEXT_H

#include <setjmp.h>
#include <stddef.h>

#include <hpdf.h>

#include "util/err.h"
#include "util/strbuf.h"

/* A4 portrait in points, margins, and the band left for the running
 * header and footer. */
#define PAGE_W    595.276f
#define PAGE_H    841.89f
#define MARGIN    50.0f
#define CONTENT_W (PAGE_W - 2 * MARGIN)
#define TOP       (PAGE_H - 56.0f)
#define BOTTOM    50.0f

#define PDF_MAX_COLS 12

/* Colours of assets/report.css; FIRED and OK are view/palette.c's
 * states (the palette test checks they agree). */
enum {
	PDF_FG = 0x1d2330,
	PDF_MUTED = 0x5b6475,
	PDF_LINE = 0xdde2ea,
	PDF_PANEL = 0xf5f7fa,
	PDF_FIRED = 0xcc3311,
	PDF_OK = 0x006d8f,
	PDF_NA = 0x8a8f99,
	PDF_LINK = 0x2a5ea8,
	PDF_TRACK = 0xe3e7ee,
	PDF_WHITE = 0xffffff
};

/* The document being built. Any libharu error, and any font that cannot be
 * loaded, longjmps to jb with err set: the caller of the layout does the
 * setjmp and frees everything (HPDF_Free) afterwards. */
struct pdf_doc {
	HPDF_Doc pdf;
	jmp_buf jb;
	struct err err;
	const char *loading;   /* font file being loaded, for messages */
	int loading_cjk;       /* ... and whether it is the CJK one */
	HPDF_Font reg, bold;   /* Latin: DejaVu Sans; bold NULL: synthesised */
	HPDF_Font cjk;         /* NULL until a string needs it */
	const char *cjk_path;  /* where the CJK font is loaded from */
	HPDF_Font mono;        /* code: NULL until a code block needs it */
	const char *mono_path; /* its file; NULL or unreadable: reg */
	struct strbuf clean;   /* scratch: the string being measured */
	struct strbuf scratch; /* scratch: one line being drawn */
	/* layout: the current page, y of the top of its free space, and
	 * every page made so far (headers and footers come last) */
	HPDF_Page page;
	float y;
	HPDF_Page *pages;
	size_t npages, apages;
	struct strbuf sb, para; /* scratch for callers; wrapped paragraph */
	/* NULL, or the layout's headings waiting for what follows them:
	 * pt_need calls it (once) with the height it was asked for, and it
	 * lays the headings out together with that much room */
	void (*held)(struct pdf_doc *d, float h);
	int cjk_punct; /* full-width punctuation next to Chinese */
};

/* A text style: size in points, bold, fill colour 0xRRGGBB. */
struct pdf_style {
	float size;
	int bold;
	unsigned rgb;
};

/* The small grey print of legends, notes and sub-lines, shared by the
 * report body (pdf.c) and the charts (pdf_chart.c). */
static const struct pdf_style PDF_SMALL = {7.5f, 0, PDF_MUTED};

/* Fails the layout with an ERR_INPUT font error (does not return). */
void pt_font_error(struct pdf_doc *d, const char *path, const char *why);
/* Loads a TrueType font (of a .ttc: its first face) with embedding and
 * returns it with the UTF-8 encoding. Fails the layout when the file is
 * missing or libharu refuses it; cjk picks the advice in the message. */
HPDF_Font pt_load_font(struct pdf_doc *d, const char *path, int cjk);

/* s made safe for libharu: valid UTF-8 of the Basic Multilingual Plane
 * (invalid bytes and code points beyond it become U+FFFD, control
 * characters a space), appended to out. */
void pt_clean(struct strbuf *out, const char *s);
/* The font for the whole of (clean) string s in style st: the CJK font
 * (loaded on first use) when s has a code point the Latin font lacks. */
HPDF_Font pt_font(struct pdf_doc *d, const char *s, const struct pdf_style *st);
/* Width in points of the first n bytes of clean string s set in font f
 * (the CJK font: with its runs of Latin-font characters, as pt_draw draws
 * them). */
float pt_width(const struct pdf_doc *d, HPDF_Font f, float size, const char *s,
               size_t n);
/* Width of string s (any bytes) in style st. */
float pt_text_width(struct pdf_doc *d, const char *s,
                    const struct pdf_style *st);

/* pt_wrap's flags: cut a run too wide for the line with "…"; break
 * Chinese text only at spaces (a heading cell: a word such as 换行符 is
 * not split while the line has room for it). */
#define PT_WRAP_CUT   1
#define PT_WRAP_WORDS 2

/* Wraps s (any bytes) to lines no wider than width in style st, appended
 * to out separated by '\n'; returns the number of lines (>= 1). Lines break
 * at spaces, after '_' '-' '/' ',' and around CJK characters (with
 * PT_WRAP_WORDS in cut, not around CJK characters). A run with no break
 * that is wider than the line is cut with "…" when cut has PT_WRAP_CUT
 * (table cells) and broken at a code point otherwise. More than maxlines lines
 * (0: no limit): the last kept one ends with "…". *font receives the font
 * to draw the lines with. */
size_t pt_wrap(struct pdf_doc *d, const char *s, const struct pdf_style *st,
               float width, int cut, size_t maxlines, struct strbuf *out,
               HPDF_Font *font);

/* Draws n bytes of clean text at (x, baseline y) with font f in style st;
 * with the CJK font, the characters the Latin font has (digits, Latin
 * letters, spaces, ASCII punctuation) are drawn in the Latin font. */
void pt_draw(struct pdf_doc *d, HPDF_Page page, HPDF_Font f,
             const struct pdf_style *st, float x, float y, const char *s,
             size_t n);
/* Draws string s (any bytes) on one line; returns its width. */
float pt_draw_str(struct pdf_doc *d, HPDF_Page page, const struct pdf_style *st,
                  float x, float y, const char *s);

/* A block of code at x, width wide: every line of s (split at '\n') on a
 * panel of colour bg, in the monospaced font (mono_path, loaded on first
 * use; the Latin one when it cannot be read, the CJK one for a line that
 * needs it) at size points, lead points per line; leading spaces are
 * kept as indentation and a line too long for the width wraps, its
 * continuation indented by four spaces more. Continues on a new page
 * when the page is full. */
void pt_code(struct pdf_doc *d, const char *s, float x, float width, float size,
             float lead, unsigned long bg);

/* ---- pages and paragraphs --------------------------------------------- */

/* Empty buffers; pt_doc_release frees them and the libharu document. */
void pt_doc_init(struct pdf_doc *d);
void pt_doc_release(struct pdf_doc *d);
/* A filled rectangle / a horizontal rule. */
void pt_rect(struct pdf_doc *d, float x, float y, float w, float h,
             unsigned long rgb);
void pt_hline(HPDF_Page page, float x0, float x1, float y, float width,
              unsigned long rgb);
/* A filled marker centred on (x, y), r points from its centre to its
 * corners: shape 0 a circle, 1 a diamond, 2 a square, 3 a triangle (the
 * shapes of view/svg.h's enum svg_shape). */
void pt_marker(struct pdf_doc *d, int shape, float x, float y, float r,
               unsigned long rgb);

/* Adds an A4 page and makes it current, y at its top. */
void pt_new_page(struct pdf_doc *d);
/* Starts a new page unless h points still fit on this one (or the page is
 * still empty); first lays out the held headings (d->held), if any, so
 * that they stay with these h points. */
void pt_need(struct pdf_doc *d, float h);
/* A link over the box (x, y)-(x + w, y + h) to url, when it is an http,
 * https or mailto URL (others get no link). */
void pt_link(struct pdf_doc *d, float x, float y, float w, float h,
             const char *url);
/* Draws s wrapped to width at x, lead points per line, continuing on a new
 * page when the page is full. */
void pt_para(struct pdf_doc *d, const char *s, const struct pdf_style *st,
             float x, float width, float lead);
/* Number of lines s takes wrapped to width. */
size_t pt_nlines(struct pdf_doc *d, const char *s, const struct pdf_style *st,
                 float width);

#endif
