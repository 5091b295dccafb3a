/* PDF text: fonts, per-string font choice, measuring, wrapping, drawing. */
#include "format/pdf/pdf_text.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hpdf_objects.h>

#include "format/pdf/fontcheck.h"
#include "util/banned.h"
#include "util/cjkpunct.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define REPLACEMENT 0xFFFDu
#define ELLIPSIS    "\xE2\x80\xA6" /* U+2026 */

void pt_font_error(struct pdf_doc *d, const char *path, const char *why)
{
	int cjk = d->loading_cjk;

	err_set(&d->err, ERR_INPUT,
	        "font file '%s': %s (install the Debian package %s, or name "
	        "another TrueType font with %s)",
	        path, why, cjk ? "fonts-wqy-zenhei" : "fonts-dejavu-core",
	        cjk ? "--cjk-font" : "--font");
	longjmp(d->jb, 1);
}

/* Replaces the ToUnicode CMap of Type0 font f. libharu 2.3.0 writes its
 * encoding CMap there ("begincidrange", which maps codes to CIDs), and
 * poppler rejects it with a warning per use. With the UTF-8 encoder a
 * character code is the code point itself (Identity-H, CID = code), so
 * the map is the identity: one bfrange per 256 codes (a range may not
 * cross a change of its first byte), at most 100 to a block, the
 * surrogates left out. */
static void to_unicode(struct pdf_doc *d, HPDF_Font f)
{
	HPDF_Dict cmap =
	    HPDF_Dict_GetItem((HPDF_Dict)f, "ToUnicode", HPDF_OCLASS_DICT);
	struct strbuf map = STRBUF_INIT, *sb = &map;
	HPDF_STATUS st;
	unsigned hi, in_block = 0, left = 256 - 8;

	if (!cmap || !cmap->stream)
		return;
	strbuf_adds(sb, "/CIDInit /ProcSet findresource begin\n"
	                "12 dict begin\nbegincmap\n"
	                "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) "
	                "/Supplement 0 >> def\n"
	                "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
	                "1 begincodespacerange\n<0000> <FFFF>\n"
	                "endcodespacerange\n");
	for (hi = 0; hi < 256; hi++) {
		if (hi >= 0xD8 && hi <= 0xDF)
			continue;
		if (!in_block) {
			in_block = left < 100 ? left : 100;
			left -= in_block;
			strbuf_addf(sb, "%u beginbfrange\n", in_block);
		}
		strbuf_addf(sb, "<%02X00> <%02XFF> <%02X00>\n", hi, hi, hi);
		if (!--in_block)
			strbuf_adds(sb, "endbfrange\n");
	}
	strbuf_adds(sb, "endcmap\nCMapName currentdict /CMap defineresource "
	                "pop\nend\nend\n");
	HPDF_MemStream_FreeData(cmap->stream);
	st = HPDF_Stream_Write(cmap->stream, (const HPDF_BYTE *)sb->buf,
	                       (HPDF_UINT)sb->len);
	strbuf_release(&map);
	if (st != HPDF_OK) {
		err_set(&d->err, ERR_INTERNAL,
		        "pdf: cannot write a font's ToUnicode map");
		longjmp(d->jb, 1);
	}
}

HPDF_Font pt_load_font(struct pdf_doc *d, const char *path, int cjk)
{
	const char *name;
	HPDF_Font f;
	struct strbuf bad = STRBUF_INIT;
	FILE *fp = fopen(path, "rb");
	size_t n = strlen(path);
	/* a collection (.ttc): its first face */
	int index = n > 4 && !strcmp(path + n - 4, ".ttc") ? 0 : -1;

	d->loading_cjk = cjk;
	if (!fp)
		pt_font_error(d, path, strerror(errno));
	fclose(fp);
	/* libharu trusts the font's numbers: its structure is checked
	 * first (fontcheck.h) */
	if (fontcheck_file(path, index, &bad)) {
		char why[700];
		snprintf(why, sizeof(why), "not a usable TrueType font: %s",
		         bad.buf);
		strbuf_release(&bad);
		pt_font_error(d, path, why);
	}
	/* a libharu error while loading is the font's fault: the error
	 * handler reads `loading` to say so */
	d->loading = path;
	name = index >= 0 ? HPDF_LoadTTFontFromFile2(
	                        d->pdf, path, (HPDF_UINT)index, HPDF_TRUE)
	                  : HPDF_LoadTTFontFromFile(d->pdf, path, HPDF_TRUE);
	f = HPDF_GetFont(d->pdf, name, "UTF-8");
	d->loading = NULL;
	to_unicode(d, f);
	return f;
}

/* Decodes the code point at s (n > 0 bytes); *len receives its length
 * (1 for an invalid byte, which decodes as U+FFFD). */
static uint32_t decode(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t l = utf8_seq_len(u, n), i;
	uint32_t cp;

	*len = l ? l : 1;
	if (!l)
		return REPLACEMENT;
	if (l == 1)
		return u[0];
	cp = u[0] & (0x7Fu >> l);
	for (i = 1; i < l; i++)
		cp = (cp << 6) | (u[i] & 0x3Fu);
	return cp;
}

void pt_clean(struct strbuf *out, const char *s)
{
	size_t n = strlen(s), i = 0, len;

	while (i < n) {
		uint32_t cp = decode(s + i, n - i, &len);
		const char *bidi;
		if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
			strbuf_addch(out, ' ');
		else if ((bidi = utf8_bidi_shown((const unsigned char *)s + i,
		                                 len)))
			/* shown, as in every format, not obeyed */
			strbuf_adds(out, bidi);
		else if (cp > 0xFFFF || (len == 1 && cp >= 0x80))
			/* libharu's UTF-8 encoder stops at the BMP */
			strbuf_adds(out, "\xEF\xBF\xBD");
		else
			strbuf_add(out, s + i, len);
		i += len;
	}
}

/* Whether code point cp needs the CJK font. */
static int needs_cjk(const struct pdf_doc *d, uint32_t cp)
{
	if (cp >= 0x2E80)
		return cp != REPLACEMENT;
	return cp > 0x7F && HPDF_Font_GetUnicodeWidth(d->reg, cp) == 0;
}

/* Code points the CJK font lacks, drawn as a look-alike it has when a
 * string is set in it (WenQuanYi Zen Hei has no U+2212 MINUS SIGN) and
 * the Latin font lacks them too (see cp_font). */
static void cjk_substitute(struct pdf_doc *d, HPDF_Font f)
{
	static const char minus[] = "\xE2\x88\x92";
	struct strbuf out = STRBUF_INIT;
	const char *p = d->clean.buf, *hit;

	if (!f || f != d->cjk || !needs_cjk(d, 0x2212) || !strstr(p, minus))
		return;
	while ((hit = strstr(p, minus))) {
		strbuf_add(&out, p, (size_t)(hit - p));
		strbuf_addch(&out, '-');
		p = hit + 3;
	}
	strbuf_adds(&out, p);
	strbuf_reset(&d->clean);
	strbuf_add(&d->clean, out.buf, out.len);
	strbuf_release(&out);
}

HPDF_Font pt_font(struct pdf_doc *d, const char *s, const struct pdf_style *st)
{
	size_t n = strlen(s), i = 0, len;

	for (; i < n; i += len) {
		if (!needs_cjk(d, decode(s + i, n - i, &len)))
			continue;
		if (!d->cjk)
			d->cjk = pt_load_font(d, d->cjk_path, 1);
		return d->cjk;
	}
	return st->bold && d->bold ? d->bold : d->reg;
}

/* The font code point cp is drawn with in a string set in f: a string
 * set in the CJK font has its digits, Latin letters and the rest the Latin
 * font has drawn in the Latin font, so that "其他 22.1%" has the digits of
 * "MatMul 52.3%". */
static HPDF_Font cp_font(const struct pdf_doc *d, HPDF_Font f, uint32_t cp)
{
	return f == d->cjk && f && !needs_cjk(d, cp) ? d->reg : f;
}

static float cp_width(const struct pdf_doc *d, HPDF_Font f, float size,
                      uint32_t cp)
{
	return (float)HPDF_Font_GetUnicodeWidth(cp_font(d, f, cp), cp) * size /
	       1000.0f;
}

float pt_width(const struct pdf_doc *d, HPDF_Font f, float size, const char *s,
               size_t n)
{
	size_t i = 0, len;
	float w = 0;

	for (; i < n; i += len)
		w += cp_width(d, f, size, decode(s + i, n - i, &len));
	return w;
}

/* d->clean = s made safe for libharu, in Chinese with the punctuation
 * next to Chinese text full-width (util/cjkpunct.h). */
static void clean_text(struct pdf_doc *d, const char *s)
{
	strbuf_reset(&d->clean);
	pt_clean(&d->clean, s);
	if (d->cjk_punct)
		cjk_punct(&d->clean, 0, CJK_PLAIN);
}

float pt_text_width(struct pdf_doc *d, const char *s,
                    const struct pdf_style *st)
{
	HPDF_Font f;

	clean_text(d, s);
	f = pt_font(d, d->clean.buf, st);
	cjk_substitute(d, f);
	return pt_width(d, f, st->size, d->clean.buf, d->clean.len);
}

/* ---- wrapping ---------------------------------------------------------- */

struct wrap {
	const struct pdf_doc *d;
	HPDF_Font f;
	float size, width;
	int cut;       /* PT_WRAP_ flags */
	int words;     /* PT_WRAP_WORDS */
	const char *s; /* clean text */
	size_t n;
	struct strbuf *out;
};

/* CJK text may break before and after each character ... */
static int cjk_break(uint32_t cp)
{
	return (cp >= 0x2E80 && cp < 0xA000) || (cp >= 0xAC00 && cp < 0xD7B0) ||
	       (cp >= 0xF900 && cp < 0xFB00) || (cp >= 0xFF00 && cp < 0xFFF0);
}

/* ... but never before closing punctuation (、。，：；！？ and brackets,
 * also their ASCII forms, which Chinese text here often uses). */
static int no_break_before(uint32_t cp)
{
	static const uint32_t closing[] = {
	    0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011,
	    0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F,
	    0x2026, ',',    '.',    ';',    ':',    '!',    '?',
	    ')',    ']',    '}',    '%'};
	size_t i;

	for (i = 0; i < sizeof(closing) / sizeof(closing[0]); i++)
		if (cp == closing[i])
			return 1;
	return 0;
}

static int break_after(uint32_t cp)
{
	return cp == '_' || cp == '-' || cp == '/' || cp == ',' ||
	       cjk_break(cp);
}

/* Appends the longest prefix of [start, end) that fits with "…" after it,
 * then the "…". */
static void add_ellipsized(const struct wrap *w, size_t start, size_t end)
{
	float room = w->width - pt_width(w->d, w->f, w->size, ELLIPSIS, 3);
	float x = 0;
	size_t i = start, len;

	while (i < end) {
		float cw = cp_width(w->d, w->f, w->size,
		                    decode(w->s + i, end - i, &len));
		if (x + cw > room)
			break;
		x += cw;
		i += len;
	}
	while (i > start && w->s[i - 1] == ' ')
		i--;
	strbuf_add(w->out, w->s + start, i - start);
	strbuf_adds(w->out, ELLIPSIS);
}

/* After an unbreakable run is cut at i: where the next line starts. */
static size_t skip_run(const struct wrap *w, size_t i)
{
	size_t len;

	while (i < w->n) {
		uint32_t cp = decode(w->s + i, w->n - i, &len);
		if (cp == ' ' || cjk_break(cp))
			return i;
		i += len;
		if (break_after(cp))
			return i;
	}
	return i;
}

/* A place a line may end (end) and the next begin (next). */
struct brk {
	size_t end, next;
};

/* Records a break opportunity, remembering the one before it. */
static void mark(struct brk *b, size_t end, size_t next)
{
	b[1] = b[0];
	b[0].end = end;
	b[0].next = next;
}

/* Ends the line at the last break opportunity, or cuts the run there.
 * Returns where the next line starts. */
static size_t overflow(const struct wrap *w, size_t start, size_t i, size_t len,
                       const struct brk *b)
{
	size_t be = b->end;

	if (be > start) {
		while (be > start && w->s[be - 1] == ' ')
			be--;
		strbuf_add(w->out, w->s + start, be - start);
		return b->next;
	}
	if (w->cut & PT_WRAP_CUT) {
		add_ellipsized(w, start, i + len);
		return skip_run(w, i);
	}
	strbuf_add(w->out, w->s + start, i - start);
	return i;
}

/* Emits the line starting at start; returns where the next one starts. */
static size_t one_line(const struct wrap *w, size_t start, int last)
{
	struct brk b[2] = {{start, start}, {start, start}};
	size_t i = start, len;
	float x = 0;

	while (i < w->n) {
		uint32_t cp = decode(w->s + i, w->n - i, &len);
		float cw = cp_width(w->d, w->f, w->size, cp);
		if (cp == ' ') { /* spaces never overflow: trailing ones go */
			mark(b, i, i + len);
			x += cw;
			i += len;
			continue;
		}
		if (no_break_before(cp)) {
			if (b[0].end == i) /* keep "，" with what precedes */
				b[0] = b[1];
		} else if (cjk_break(cp) && i > start && !w->words) {
			mark(b, i, i);
		}
		if (x + cw > w->width && i > start) {
			if (!last)
				return overflow(w, start, i, len, b);
			add_ellipsized(w, start, w->n);
			return w->n;
		}
		x += cw;
		i += len;
		if (break_after(cp) && !(w->words && cjk_break(cp)))
			mark(b, i, i);
	}
	while (i > start && w->s[i - 1] == ' ')
		i--;
	strbuf_add(w->out, w->s + start, i - start);
	return w->n;
}

size_t pt_wrap(struct pdf_doc *d, const char *s, const struct pdf_style *st,
               float width, int cut, size_t maxlines, struct strbuf *out,
               HPDF_Font *font)
{
	struct wrap w;
	size_t start = 0, lines = 0;

	clean_text(d, s);
	w.d = d;
	w.f = *font = pt_font(d, d->clean.buf, st);
	cjk_substitute(d, w.f);
	w.size = st->size;
	w.width = width;
	w.cut = cut;
	w.words = (cut & PT_WRAP_WORDS) != 0;
	w.s = d->clean.buf;
	w.n = d->clean.len;
	w.out = out;
	do {
		while (start < w.n && w.s[start] == ' ')
			start++;
		if (lines)
			strbuf_addch(out, '\n');
		start = one_line(&w, start, maxlines && lines + 1 == maxlines);
		lines++;
	} while (start < w.n);
	return lines;
}

/* ---- code ---------------------------------------------------------------- */

/* The font of a code line: the monospaced one unless a code point needs
 * the CJK font (or is missing from it). */
static HPDF_Font code_font(struct pdf_doc *d, const char *clean,
                           const struct pdf_style *st)
{
	size_t n = strlen(clean), i = 0, len;

	if (!d->mono)
		d->mono = d->mono_path && !access(d->mono_path, R_OK)
		              ? pt_load_font(d, d->mono_path, 0)
		              : d->reg;
	for (; i < n; i += len) {
		uint32_t cp = decode(clean + i, n - i, &len);
		if (cp > 0x7F && HPDF_Font_GetUnicodeWidth(d->mono, cp) == 0)
			return pt_font(d, clean, st);
	}
	return d->mono;
}

/* One source line (without its newline) as wrapped rows on panels. */
static void code_line(struct pdf_doc *d, const char *p, size_t n, float x,
                      float width, const struct pdf_style *st, float lead,
                      unsigned long bg)
{
	const float pad = 6.0f;
	struct strbuf rows = STRBUF_INIT, raw = STRBUF_INIT, text = STRBUF_INIT;
	struct wrap w;
	size_t ind = 0, start = 0, nrows = 0;
	float iw, sw;
	const char *r, *nl;

	while (ind < n && p[ind] == ' ')
		ind++;
	strbuf_add(&raw, p + ind, n - ind);
	pt_clean(&text, raw.buf ? raw.buf : "");
	w.d = d;
	w.f = code_font(d, text.buf ? text.buf : "", st);
	sw = pt_width(d, w.f, st->size, " ", 1);
	iw = sw * (float)ind;
	w.size = st->size;
	w.width = width - 2 * pad - iw - 4 * sw;
	w.width = w.width < 8 * sw ? 8 * sw : w.width;
	w.cut = 0;
	w.words = 0;
	w.s = text.buf ? text.buf : "";
	w.n = text.len;
	w.out = &rows;
	while (start < w.n || !nrows) {
		if (nrows++)
			strbuf_addch(&rows, '\n');
		start = w.n ? one_line(&w, start, 0) : 0;
		while (start < w.n && w.s[start] == ' ')
			start++;
	}
	for (r = rows.buf ? rows.buf : "", nrows = 0;; r = nl + 1, nrows++) {
		nl = strchr(r, '\n');
		pt_need(d, lead);
		pt_rect(d, x, d->y - lead, width, lead, bg);
		d->y -= lead;
		pt_draw(d, d->page, w.f, st,
		        x + pad + iw + (nrows ? 4 * sw : 0), d->y + 0.3f * lead,
		        r, nl ? (size_t)(nl - r) : strlen(r));
		if (!nl)
			break;
	}
	strbuf_release(&rows);
	strbuf_release(&raw);
	strbuf_release(&text);
}

void pt_code(struct pdf_doc *d, const char *s, float x, float width, float size,
             float lead, unsigned long bg)
{
	const struct pdf_style st = {size, 0, PDF_FG};
	const char *p = s, *nl;

	pt_need(d, 2 * lead);
	pt_rect(d, x, d->y - 4, width, 4, bg);
	d->y -= 4;
	for (;; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl && !*p)
			break; /* a final newline ends the last line */
		code_line(d, p, nl ? (size_t)(nl - p) : strlen(p), x, width,
		          &st, lead, bg);
		if (!nl)
			break;
	}
	pt_rect(d, x, d->y - 4, width, 4, bg);
	d->y -= 4;
}

/* ---- drawing ----------------------------------------------------------- */

static void rgb_fill(HPDF_Page page, unsigned long rgb)
{
	HPDF_Page_SetRGBFill(page, (float)((rgb >> 16) & 0xFF) / 255.0f,
	                     (float)((rgb >> 8) & 0xFF) / 255.0f,
	                     (float)(rgb & 0xFF) / 255.0f);
}

/* Draws n bytes of s in one font. */
static void draw_run(struct pdf_doc *d, HPDF_Page page, HPDF_Font f,
                     const struct pdf_style *st, float x, float y,
                     const char *s, size_t n)
{
	/* without a bold face (always so for CJK), bold is drawn filled and
	 * stroked */
	int fake_bold = st->bold && (!d->bold || f != d->bold);

	strbuf_reset(&d->scratch);
	strbuf_add(&d->scratch, s, n);
	rgb_fill(page, st->rgb);
	if (fake_bold) {
		HPDF_Page_SetRGBStroke(page,
		                       (float)((st->rgb >> 16) & 0xFF) / 255.0f,
		                       (float)((st->rgb >> 8) & 0xFF) / 255.0f,
		                       (float)(st->rgb & 0xFF) / 255.0f);
		HPDF_Page_SetLineWidth(page, st->size * 0.04f);
	}
	HPDF_Page_BeginText(page);
	HPDF_Page_SetFontAndSize(page, f, st->size);
	if (fake_bold)
		HPDF_Page_SetTextRenderingMode(page, HPDF_FILL_THEN_STROKE);
	HPDF_Page_TextOut(page, x, y, d->scratch.buf);
	if (fake_bold)
		HPDF_Page_SetTextRenderingMode(page, HPDF_FILL);
	HPDF_Page_EndText(page);
}

void pt_draw(struct pdf_doc *d, HPDF_Page page, HPDF_Font f,
             const struct pdf_style *st, float x, float y, const char *s,
             size_t n)
{
	size_t i = 0, start = 0, len;
	HPDF_Font run = NULL;

	if (!d->cjk || f != d->cjk) {
		draw_run(d, page, f, st, x, y, s, n);
		return;
	}
	/* runs of one font each (cp_font) */
	for (; i <= n; i += len) {
		HPDF_Font cf = NULL;
		len = 1;
		if (i < n)
			cf = cp_font(d, f, decode(s + i, n - i, &len));
		if (cf == run)
			continue;
		if (run) {
			draw_run(d, page, run, st, x, y, s + start, i - start);
			x += pt_width(d, run, st->size, s + start, i - start);
		}
		run = cf;
		start = i;
	}
}

float pt_draw_str(struct pdf_doc *d, HPDF_Page page, const struct pdf_style *st,
                  float x, float y, const char *s)
{
	HPDF_Font f;
	float w;

	clean_text(d, s);
	f = pt_font(d, d->clean.buf, st);
	cjk_substitute(d, f);
	w = pt_width(d, f, st->size, d->clean.buf, d->clean.len);
	/* pt_draw reuses scratch, not clean: clean stays valid */
	pt_draw(d, page, f, st, x, y, d->clean.buf, d->clean.len);
	return w;
}

/* ---- pages and paragraphs --------------------------------------------- */

void pt_doc_init(struct pdf_doc *d)
{
	strbuf_init(&d->sb);
	strbuf_init(&d->para);
	strbuf_init(&d->clean);
	strbuf_init(&d->scratch);
}

void pt_doc_release(struct pdf_doc *d)
{
	if (d->pdf)
		HPDF_Free(d->pdf);
	d->pdf = NULL;
	strbuf_release(&d->sb);
	strbuf_release(&d->para);
	strbuf_release(&d->clean);
	strbuf_release(&d->scratch);
	free(d->pages);
	d->pages = NULL;
}

void pt_rect(struct pdf_doc *d, float x, float y, float w, float h,
             unsigned long rgb)
{
	rgb_fill(d->page, rgb);
	HPDF_Page_Rectangle(d->page, x, y, w, h);
	HPDF_Page_Fill(d->page);
}

void pt_hline(HPDF_Page page, float x0, float x1, float y, float width,
              unsigned long rgb)
{
	HPDF_Page_SetRGBStroke(page, (float)((rgb >> 16) & 0xFF) / 255.0f,
	                       (float)((rgb >> 8) & 0xFF) / 255.0f,
	                       (float)(rgb & 0xFF) / 255.0f);
	HPDF_Page_SetLineWidth(page, width);
	HPDF_Page_MoveTo(page, x0, y);
	HPDF_Page_LineTo(page, x1, y);
	HPDF_Page_Stroke(page);
}

void pt_marker(struct pdf_doc *d, int shape, float x, float y, float r,
               unsigned long rgb)
{
	rgb_fill(d->page, rgb);
	switch (shape) {
	case 1:
		HPDF_Page_MoveTo(d->page, x, y + r);
		HPDF_Page_LineTo(d->page, x + r, y);
		HPDF_Page_LineTo(d->page, x, y - r);
		HPDF_Page_LineTo(d->page, x - r, y);
		HPDF_Page_ClosePath(d->page);
		break;
	case 2:
		HPDF_Page_Rectangle(d->page, x - r * 0.8f, y - r * 0.8f,
		                    r * 1.6f, r * 1.6f);
		break;
	case 3:
		HPDF_Page_MoveTo(d->page, x, y + r);
		HPDF_Page_LineTo(d->page, x + r, y - r * 0.8f);
		HPDF_Page_LineTo(d->page, x - r, y - r * 0.8f);
		HPDF_Page_ClosePath(d->page);
		break;
	default:
		HPDF_Page_Circle(d->page, x, y, r * 0.75f);
	}
	HPDF_Page_Fill(d->page);
}

void pt_new_page(struct pdf_doc *d)
{
	d->page = HPDF_AddPage(d->pdf);
	HPDF_Page_SetSize(d->page, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
	if (d->npages == d->apages) {
		d->apages = d->apages ? 2 * d->apages : 16;
		d->pages = xrealloc(d->pages, d->apages * sizeof(*d->pages));
	}
	d->pages[d->npages++] = d->page;
	d->y = TOP;
}

void pt_need(struct pdf_doc *d, float h)
{
	void (*held)(struct pdf_doc *, float) = d->held;

	if (held) {
		d->held = NULL;
		held(d, h);
	}
	if (d->y - h < BOTTOM && d->y < TOP)
		pt_new_page(d);
}

/* A link over the box (x, y)-(x + w, y + h) to url, when it is a web or
 * mail address; bytes a URI may not hold are percent-encoded. */
void pt_link(struct pdf_doc *d, float x, float y, float w, float h,
             const char *url)
{
	HPDF_Rect r = {x, y, x + w, y + h};
	HPDF_Annotation a;
	const unsigned char *p = (const unsigned char *)url;

	if (strncmp(url, "https://", 8) && strncmp(url, "http://", 7) &&
	    strncmp(url, "mailto:", 7))
		return;
	strbuf_reset(&d->sb);
	for (; *p; p++)
		if (*p <= 0x20 || *p >= 0x7F || *p == '"' || *p == '<' ||
		    *p == '>' || *p == '\\')
			strbuf_addf(&d->sb, "%%%02X", *p);
		else
			strbuf_addch(&d->sb, *p);
	a = HPDF_Page_CreateURILinkAnnot(d->page, r, d->sb.buf);
	HPDF_LinkAnnot_SetBorderStyle(a, 0, 0, 0);
}

/* Draws s wrapped to width at x in style st, lead points per line,
 * continuing on a new page when the page is full. */
void pt_para(struct pdf_doc *d, const char *s, const struct pdf_style *st,
             float x, float width, float lead)
{
	HPDF_Font f;
	const char *p, *nl;

	strbuf_reset(&d->para);
	pt_wrap(d, s, st, width, 0, 0, &d->para, &f);
	for (p = d->para.buf;; p = nl + 1) {
		nl = strchr(p, '\n');
		pt_need(d, lead);
		d->y -= lead;
		pt_draw(d, d->page, f, st, x, d->y + 0.28f * lead, p,
		        nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
	}
}

/* Number of lines s takes wrapped to width in style st. */
size_t pt_nlines(struct pdf_doc *d, const char *s, const struct pdf_style *st,
                 float width)
{
	HPDF_Font f;

	strbuf_reset(&d->para);
	return pt_wrap(d, s, st, width, 0, 0, &d->para, &f);
}
