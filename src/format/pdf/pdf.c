/* The PDF renderer's driver, for both reports (the single-run one,
 * pdf_report.c, and the comparison, pdf_diff.c): a libharu document with
 * its errors trapped, its fonts, metadata and outline, the report's pages,
 * the running header and footer of every page, and the finished bytes.
 * One driver, so the two reports cannot drift apart in how they trap
 * libharu errors or what their files carry. */
#include "format/pdf/pdf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/pdf/pdf_diff.h"
#include "format/pdf/pdf_layout.h"
#include "format/pdf/pdf_logo.h"
#include "format/pdf/pdf_report.h"
#include "view/escape.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define DEFAULT_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define DEFAULT_CJK  "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
#define DEFAULT_MONO "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

/* libharu's error handler: a font being loaded gets the font error (which
 * names the package that has it), anything else an internal one; either
 * way the layout is abandoned through the document's jump buffer. */
static void on_error(HPDF_STATUS no, HPDF_STATUS detail, void *data)
{
	struct pdf_doc *d = data;
	char why[96];

	if (d->loading) {
		snprintf(why, sizeof(why),
		         "libharu cannot load it (error 0x%04lX, detail %lu)",
		         (unsigned long)no, (unsigned long)detail);
		pt_font_error(d, d->loading, why);
	}
	err_set(&d->err, ERR_INTERNAL,
	        "pdf: libharu error 0x%04lX (detail %lu)", (unsigned long)no,
	        (unsigned long)detail);
	longjmp(d->jb, 1);
}

/* The formatters the layouts use, from the templates' table, so a number
 * reads the same in the PDF as in the HTML. 0 if one is missing. */
static int formatters(struct pdf_ctx *c)
{
	size_t nf;
	const struct tmpl_formatter *f = escape_formatters(&nf);

	for (; nf; nf--, f++)
		if (!strcmp(f->name, "dur"))
			c->fdur = f->fn;
		else if (!strcmp(f->name, "pct1"))
			c->fpct = f->fn;
		else if (!strcmp(f->name, "int"))
			c->fint = f->fn;
		else if (!strcmp(f->name, "f1"))
			c->ff1 = f->fn;
		else if (!strcmp(f->name, "f2"))
			c->ff2 = f->fn;
	return c->fdur && c->fpct && c->fint && c->ff1 && c->ff2;
}

/* Bold is synthesised from the regular font (filled and stroked) unless a
 * bold font file is named: libharu 2.3.0 embeds every TrueType font with
 * its full name, post, hmtx and loca tables, a complete /W array and
 * CIDToGIDMap, about 92 KB for DejaVu Sans Bold however few glyphs are
 * used, which alone would break the English report's 200 KB budget. */
static void doc_start(struct pdf_ctx *c)
{
	const struct pdf_opts *o = c->o;
	struct pdf_doc *d = &c->d;

	d->pdf = HPDF_New(on_error, d);
	if (!d->pdf || !formatters(c)) {
		err_set(&d->err, ERR_INTERNAL, "pdf: cannot start a document");
		longjmp(d->jb, 1);
	}
	HPDF_SetCompressionMode(d->pdf, HPDF_COMP_ALL);
	HPDF_UseUTFEncodings(d->pdf);
	HPDF_SetCurrentEncoder(d->pdf, "UTF-8");
	c->utf8 = HPDF_GetEncoder(d->pdf, "UTF-8");
	d->cjk_path = o->cjk_font_path ? o->cjk_font_path : DEFAULT_CJK;
	d->cjk_punct = o->lang && !strcmp(o->lang, "zh");
	d->mono_path = DEFAULT_MONO;
	d->reg = pt_load_font(d, o->font_path ? o->font_path : DEFAULT_FONT, 0);
	if (o->font_bold_path)
		d->bold = pt_load_font(d, o->font_bold_path, 0);
	HPDF_SetPageMode(d->pdf, HPDF_PAGE_MODE_USE_OUTLINE);
}

/* One info entry: prefix, then s (NULL: "") as libharu can store it. */
static void info(struct pdf_ctx *c, HPDF_InfoType key, const char *prefix,
                 const char *s)
{
	strbuf_reset(&c->d.sb);
	strbuf_adds(&c->d.sb, prefix);
	pt_clean(&c->d.sb, s ? s : "");
	HPDF_SetInfoAttr(c->d.pdf, key, c->d.sb.buf);
}

static void doc_metadata(struct pdf_ctx *c, const char *subject_var)
{
	const struct pdf_opts *o = c->o;
	HPDF_Date date;
	struct tm tm;

	memset(&date, 0, sizeof(date));
	if (gmtime_r(&o->date, &tm)) {
		date.year = tm.tm_year + 1900;
		date.month = tm.tm_mon + 1;
		date.day = tm.tm_mday;
		date.hour = tm.tm_hour;
		date.minutes = tm.tm_min;
		/* a leap second (60) is not a PDF date */
		date.seconds = tm.tm_sec > 59 ? 59 : tm.tm_sec;
		date.ind = 'Z';
		HPDF_SetInfoDateAttr(c->d.pdf, HPDF_INFO_CREATION_DATE, date);
	}
	info(c, HPDF_INFO_TITLE, "", o->title ? o->title : pdf_v(c, "title"));
	info(c, HPDF_INFO_SUBJECT, "", pdf_v(c, subject_var));
	info(c, HPDF_INFO_CREATOR, "sdperf ", o->version);
}

/* The model's "t_pdf_page" ("Page {n} of {m}") for page i (from 0) into
 * sb; any other '{' is kept as it is. */
static void page_text(struct pdf_ctx *c, size_t i, struct strbuf *sb)
{
	const char *p = pdf_v(c, "t_pdf_page"), *hit;

	strbuf_reset(sb);
	while ((hit = strchr(p, '{'))) {
		int n = !strncmp(hit, "{n}", 3), m = !strncmp(hit, "{m}", 3);
		strbuf_add(sb, p, (size_t)(hit - p));
		if (n)
			strbuf_addf(sb, "%zu", i + 1);
		else if (m)
			strbuf_addf(sb, "%zu", c->d.npages);
		else
			strbuf_addch(sb, '{');
		p = hit + (n || m ? 3 : 1);
	}
	strbuf_adds(sb, p);
}

/* The running header (the title, one line, the logo at its right, a
 * rule) and the footer (the model's "t_pdf_page" with {n} and {m}, and
 * under it the confidentiality line when there is one) on every page:
 * once the last page exists. */
static void doc_decorate(struct pdf_ctx *c)
{
	struct pdf_doc *d = &c->d;
	const char *conf = pdf_v(c, "confidential");
	HPDF_Font f, cf = NULL;
	HPDF_Image logo;
	/* the confidentiality line, wrapped once (a libharu error longjmps
	 * past its release: an error path that ends the process's report) */
	struct strbuf cl = STRBUF_INIT;
	float lw, lh, w;
	size_t i;

	lw = pdf_logo_load(d, c->o->logo, c->o->logo_len, c->o->logo_png, &logo,
	                   &lh);
	strbuf_reset(&d->para);
	pt_wrap(d, pdf_v(c, "title"), &PDF_SMALL,
	        CONTENT_W - (lw > 0 ? lw + 8 : 0), 1, 1, &d->para, &f);
	/* the confidentiality line: one line, cut to the page's width */
	if (*conf)
		pt_wrap(d, conf, &PDF_SMALL, CONTENT_W, 1, 1, &cl, &cf);
	for (i = 0; i < d->npages; i++) {
		HPDF_Page page = d->pages[i];
		pt_draw(d, page, f, &PDF_SMALL, MARGIN, PAGE_H - 36,
		        d->para.buf, d->para.len);
		if (logo)
			HPDF_Page_DrawImage(page, logo, MARGIN + CONTENT_W - lw,
			                    PAGE_H - 39, lw, lh);
		pt_hline(page, MARGIN, MARGIN + CONTENT_W, PAGE_H - 41, 0.5f,
		         PDF_LINE);
		page_text(c, i, &d->sb);
		d->page = page;
		w = pt_text_width(d, d->sb.buf, &PDF_SMALL);
		pt_draw_str(d, page, &PDF_SMALL, (PAGE_W - w) / 2, 30,
		            d->sb.buf);
		if (cf) {
			w = pt_text_width(d, cl.buf, &PDF_SMALL);
			pt_draw(d, page, cf, &PDF_SMALL, (PAGE_W - w) / 2, 20,
			        cl.buf, cl.len);
		}
	}
	strbuf_release(&cl);
}

/* The finished document's bytes, appended to c->bytes. */
static void doc_save(struct pdf_ctx *c)
{
	HPDF_UINT32 size;

	HPDF_SaveToStream(c->d.pdf);
	size = HPDF_GetStreamSize(c->d.pdf);
	strbuf_grow(&c->bytes, size);
	while (size) {
		HPDF_UINT32 got = size;
		HPDF_STATUS st = HPDF_ReadFromStream(
		    c->d.pdf, (HPDF_BYTE *)c->bytes.buf + c->bytes.len, &got);
		c->bytes.len += got;
		c->bytes.buf[c->bytes.len] = '\0';
		size -= got;
		if (st == HPDF_STREAM_EOF || !got)
			break;
	}
}

/* Lays out the whole document, body(c) its content; libharu errors longjmp
 * out of it. */
static void build(struct pdf_ctx *c, const char *subject_var,
                  void (*body)(struct pdf_ctx *c))
{
	doc_start(c);
	doc_metadata(c, subject_var);
	pt_new_page(&c->d);
	body(c);
	pdf_flush_headings(c);
	doc_decorate(c);
	doc_save(c);
}

static int render(const struct tmpl_vars *model, const struct pdf_opts *o,
                  const char *subject_var, void (*body)(struct pdf_ctx *c),
                  struct strbuf *out, struct err *e)
{
	/* on the heap: what setjmp/longjmp cross must not live in
	 * registers */
	struct pdf_ctx *c = xcalloc(1, sizeof(*c));
	int ret = 0;

	c->m = model;
	c->o = o;
	pdf_ctx_init(c);
	if (setjmp(c->d.jb))
		ret = err_set(e, c->d.err.code ? c->d.err.code : ERR_INTERNAL,
		              "%s", c->d.err.msg);
	else
		build(c, subject_var, body);
	if (!ret)
		strbuf_addbuf(out, &c->bytes);
	pdf_ctx_release(c);
	free(c);
	return ret;
}

int pdf_render(const struct tmpl_vars *model, const struct pdf_opts *o,
               struct strbuf *out, struct err *e)
{
	return render(model, o, "t_pdf_subject", pdf_report_layout, out, e);
}

int pdf_diff_render(const struct tmpl_vars *model, const struct pdf_opts *o,
                    struct strbuf *out, struct err *e)
{
	return render(model, o, "t_diff_pdf_subject", pdf_diff_layout, out, e);
}

struct libversion pdf_libharu_version(void)
{
	struct libversion v = {"libharu", HPDF_VERSION_TEXT, HPDF_GetVersion()};
	return v;
}
