/* The PDF layout both reports share: paragraphs, headings, cards and
 * tables (contracts in pdf_layout.h). */
#include "format/pdf/pdf_layout.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "util/numfmt.h"

#include "util/banned.h"

#define PAD  3.0f  /* table cell padding */
#define DOT  10.0f /* room for a colour swatch before cell text */
#define MARK 13.0f /* room for a verdict state's shape before it */
/* A table of this many rows or fewer is never split across pages. */
#define PDF_SMALL_TABLE 8

static const struct pdf_style S_CELL = {8.0f, 0, PDF_FG};
static const struct pdf_style S_HEAD = {8.0f, 1, PDF_FG};
static const struct pdf_style S_SUB = {7.0f, 0, PDF_MUTED};
static const struct pdf_style S_CLINK = {8.0f, 0, PDF_LINK};

/* ---- context ----------------------------------------------------------- */

void pdf_ctx_init(struct pdf_ctx *c)
{
	size_t i;

	pt_doc_init(&c->d);
	for (i = 0; i < PDF_MAX_COLS; i++) {
		strbuf_init(&c->val[i]);
		strbuf_init(&c->head[i]);
		strbuf_init(&c->sub[i]);
		strbuf_init(&c->lines[i]);
		strbuf_init(&c->subl[i]);
	}
	for (i = 0; i < PDF_MAX_HELD; i++)
		strbuf_init(&c->held[i]);
	strbuf_init(&c->held_wrap);
	strbuf_init(&c->bytes);
}

void pdf_ctx_release(struct pdf_ctx *c)
{
	size_t i;

	pt_doc_release(&c->d);
	for (i = 0; i < PDF_MAX_COLS; i++) {
		strbuf_release(&c->val[i]);
		strbuf_release(&c->head[i]);
		strbuf_release(&c->sub[i]);
		strbuf_release(&c->lines[i]);
		strbuf_release(&c->subl[i]);
	}
	for (i = 0; i < PDF_MAX_HELD; i++)
		strbuf_release(&c->held[i]);
	strbuf_release(&c->held_wrap);
	strbuf_release(&c->bytes);
}

const char *pdf_v(const struct pdf_ctx *c, const char *name)
{
	return tmpl_get(c->m, name);
}

const char *pdf_fmt(tmpl_fmt_fn fn, struct strbuf *buf, const char *value)
{
	strbuf_reset(buf);
	fn(buf, value, strlen(value));
	return buf->buf;
}

/* ---- text blocks ------------------------------------------------------- */

void pdf_para(struct pdf_ctx *c, const char *s)
{
	pt_para(&c->d, s, &PDF_BODY, MARGIN, CONTENT_W, 12.0f);
	c->d.y -= 5.0f;
}

void pdf_small(struct pdf_ctx *c, const char *s)
{
	pt_para(&c->d, s, &PDF_SMALL, MARGIN, CONTENT_W, 10.0f);
}

void pdf_strong(struct pdf_ctx *c, const char *s, unsigned rgb)
{
	struct pdf_style st = {9.0f, 1, rgb};

	pt_para(&c->d, s, &st, MARGIN, CONTENT_W, 12.0f);
	c->d.y -= 6.0f;
}

void pdf_bullet(struct pdf_ctx *c, const char *s, const char *sub)
{
	pt_need(&c->d, 12.0f);
	pt_draw_str(&c->d, c->d.page, &PDF_BODY, MARGIN + 4,
	            c->d.y - 12 * 0.72f, "\xE2\x80\xA2");
	pt_para(&c->d, s, &PDF_BODY, MARGIN + 14, CONTENT_W - 14, 12.0f);
	if (sub && *sub)
		pt_para(&c->d, sub, &PDF_SMALL, MARGIN + 14, CONTENT_W - 14,
		        10.0f);
	c->d.y -= 2.0f;
}

/* Heading styles: the text style, line height, space above (not at the
 * top of a page) and below. */
static const struct heading_look {
	const struct pdf_style *st;
	float lead, above, below;
} LOOK_SECTION = {&PDF_H2, 18.0f, 12.0f, 8.0f},
  LOOK_SUB = {&PDF_H3, 15.0f, 4.0f, 3.0f};

/* Room kept below held headings at least: two lines of body text. */
#define KEEP_MIN 24.0f

/* Draws held heading i at y; its lines are in c->held_wrap. */
static void held_draw(struct pdf_ctx *c, size_t i, HPDF_Font f)
{
	struct pdf_doc *d = &c->d;
	const struct heading_look *lk =
	    c->held_sec[i] ? &LOOK_SECTION : &LOOK_SUB;
	const char *p, *nl;

	if (d->y < TOP)
		d->y -= lk->above;
	if (c->held_sec[i]) {
		HPDF_Destination dst = HPDF_Page_CreateDestination(d->page);
		HPDF_Outline ol;
		HPDF_Destination_SetFitH(dst, d->y + 4);
		/* held[i] was cleaned when it was held */
		ol = HPDF_CreateOutline(d->pdf, NULL, c->held[i].buf, c->utf8);
		HPDF_Outline_SetDestination(ol, dst);
	}
	for (p = c->held_wrap.buf;; p = nl + 1) {
		nl = strchr(p, '\n');
		d->y -= lk->lead;
		pt_draw(d, d->page, f, lk->st, MARGIN, d->y + 0.28f * lk->lead,
		        p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
	}
	if (c->held_sec[i])
		pt_hline(d->page, MARGIN, MARGIN + CONTENT_W, d->y - 2, 0.6f,
		         PDF_LINE);
	d->y -= lk->below;
}

/* The height of held heading i, space above included (its lines wrapped
 * into c->held_wrap). */
static float held_height(struct pdf_ctx *c, size_t i)
{
	const struct heading_look *lk =
	    c->held_sec[i] ? &LOOK_SECTION : &LOOK_SUB;
	HPDF_Font f;
	size_t n;

	strbuf_reset(&c->held_wrap);
	n = pt_wrap(&c->d, c->held[i].buf, lk->st, CONTENT_W, PT_WRAP_WORDS, 0,
	            &c->held_wrap, &f);

	return lk->above + (float)n * lk->lead + lk->below;
}

/* d->held: lays out the held headings, on a new page unless they fit on
 * this one with h points (at least KEEP_MIN, at most what a page has
 * left) of what follows. pt_para and pt_nlines share d->para, which the
 * caller of pt_need may be reading: they wrap into c->held_wrap. */
static void held_layout(struct pdf_doc *d, float h)
{
	struct pdf_ctx *c =
	    (struct pdf_ctx *)(void *)((char *)d - offsetof(struct pdf_ctx, d));
	float need = 0;
	size_t i;
	HPDF_Font f;

	for (i = 0; i < c->nheld; i++)
		need += held_height(c, i);
	h = h < KEEP_MIN ? KEEP_MIN : h;
	if (need + h > TOP - BOTTOM)
		h = TOP - BOTTOM - need;
	if (d->y - need - h < BOTTOM && d->y < TOP)
		pt_new_page(d);
	for (i = 0; i < c->nheld; i++) {
		const struct heading_look *lk =
		    c->held_sec[i] ? &LOOK_SECTION : &LOOK_SUB;
		strbuf_reset(&c->held_wrap);
		pt_wrap(d, c->held[i].buf, lk->st, CONTENT_W, PT_WRAP_WORDS, 0,
		        &c->held_wrap, &f);
		held_draw(c, i, f);
	}
	c->nheld = 0;
}

static void hold(struct pdf_ctx *c, const char *s, int section)
{
	if (c->nheld == PDF_MAX_HELD)
		pdf_flush_headings(c);
	strbuf_reset(&c->held[c->nheld]);
	pt_clean(&c->held[c->nheld], s);
	c->held_sec[c->nheld++] = section;
	c->d.held = held_layout;
}

void pdf_flush_headings(struct pdf_ctx *c)
{
	if (c->nheld)
		pt_need(&c->d, 0);
}

void pdf_section(struct pdf_ctx *c, const char *var)
{
	hold(c, pdf_v(c, var), 1);
}

void pdf_subheading(struct pdf_ctx *c, const char *s)
{
	hold(c, s, 0);
}

void pdf_title(struct pdf_ctx *c, float label_w)
{
	c->meta_w = label_w;
	pt_para(&c->d, pdf_v(c, "title"), &PDF_H1, MARGIN, CONTENT_W, 24.0f);
	c->d.y -= 6.0f;
}

void pdf_meta(struct pdf_ctx *c, const char *label, const char *value)
{
	pt_need(&c->d, 12.0f);
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, MARGIN, c->d.y - 12 * 0.72f,
	            pdf_v(c, label));
	pt_para(&c->d, value, &PDF_BODY, MARGIN + c->meta_w,
	        CONTENT_W - c->meta_w, 12.0f);
}

void pdf_title_end(struct pdf_ctx *c)
{
	struct strbuf *b = &c->val[0];

	pdf_meta(c, "t_meta_date", pdf_v(c, "date"));
	strbuf_reset(b);
	strbuf_addf(b, "sdperf %s", pdf_v(c, "version"));
	pdf_meta(c, "t_meta_version", b->buf);
	c->d.y -= 6.0f;
}

/* ---- cards ------------------------------------------------------------- */

void pdf_card(struct pdf_ctx *c, float h, unsigned long rgb)
{
	if (h > TOP - BOTTOM)
		return;
	pt_need(&c->d, h);
	pdf_card_at(c, MARGIN, CONTENT_W, h, rgb);
}

void pdf_card_at(struct pdf_ctx *c, float x, float w, float h,
                 unsigned long rgb)
{
	pt_rect(&c->d, x, c->d.y - h, w, h, PDF_PANEL);
	pt_rect(&c->d, x, c->d.y - h, 3, h, rgb);
}

void pdf_badge(struct pdf_ctx *c, float x, const char *text, unsigned long rgb)
{
	static const struct pdf_style badge = {7.5f, 1, PDF_WHITE};
	float bw;

	pt_need(&c->d, 17.0f);
	bw = pt_text_width(&c->d, text, &badge) + 12;
	pt_rect(&c->d, x, c->d.y - 13, bw, 13, rgb);
	pt_draw_str(&c->d, c->d.page, &badge, x + 6, c->d.y - 9.5f, text);
	c->d.y -= 17;
}

/* ---- tables ------------------------------------------------------------ */

/* Wraps cell i into lines/subl; returns its content height. */
static float cell_layout(struct pdf_ctx *c, size_t i, const struct pdf_col *col,
                         const struct pdf_cell *cl, const struct pdf_style *st)
{
	/* a heading cell breaks Chinese only at spaces, and a word wider
	 * than its column at a character rather than with "…" */
	int how = st == &S_HEAD ? PT_WRAP_WORDS : PT_WRAP_CUT;
	float w = col->w * CONTENT_W - 2 * PAD - (cl->dot >= 0 ? DOT : 0) -
	          (cl->state ? MARK : 0) - (float)cl->indent * DOT;
	struct pdf_style ts = *st, ss = S_SUB;

	ts.bold |= cl->strong;
	ss.bold |= cl->strong;
	strbuf_reset(&c->lines[i]);
	strbuf_reset(&c->subl[i]);
	c->nl[i] = pt_wrap(&c->d, cl->text ? cl->text : "", &ts, w, how, 30,
	                   &c->lines[i], &c->lfont[i]);
	c->ns[i] = 0;
	if (cl->sub && *cl->sub)
		c->ns[i] = pt_wrap(&c->d, cl->sub, &ss, w, 1, 30, &c->subl[i],
		                   &c->sfont[i]);
	return (float)c->nl[i] * 10.0f + (float)c->ns[i] * 9.0f;
}

/* Draws the wrapped lines of buf (n of them) from top at x in a column of
 * inner width w; returns the y below them. */
static float cell_lines(struct pdf_doc *d, const struct strbuf *buf,
                        HPDF_Font f, const struct pdf_style *st, float x,
                        float w, float top, int right, const char *url)
{
	const char *p = buf->buf, *nl;
	float lead = st->size + 2.0f;

	for (;; p = nl + 1) {
		size_t n;
		float tw, tx;
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		tw = pt_width(d, f, st->size, p, n);
		tx = right ? x + w - tw : x;
		top -= lead;
		pt_draw(d, d->page, f, st, tx, top + 0.25f * lead, p, n);
		if (url)
			pt_link(d, tx, top, tw, lead, url);
		if (!nl)
			return top;
	}
}

static void row_draw(struct pdf_ctx *c, const struct pdf_col *cols, size_t n,
                     const struct pdf_cell *cells, const struct pdf_style *st,
                     float h)
{
	struct pdf_doc *d = &c->d;
	float x = MARGIN;
	size_t i;

	for (i = 0; i < n; i++) {
		float w = cols[i].w * CONTENT_W, tx = x + PAD, top = d->y - PAD;
		struct pdf_style ts = cells[i].url ? S_CLINK : *st;
		struct pdf_style ss = S_SUB;
		ts.bold |= cells[i].strong;
		ss.bold |= cells[i].strong;
		if (cells[i].sub_rgb >= 0)
			ss.rgb = (unsigned)cells[i].sub_rgb;
		if (cells[i].dot >= 0) {
			pt_rect(d, tx, top - 8.5f, 7, 7,
			        (unsigned long)cells[i].dot);
			tx += DOT;
		}
		if (cells[i].state) {
			pdf_chart_state_mark(d, tx, top - 0.5f, cells[i].state);
			tx += MARK;
		}
		tx += (float)cells[i].indent * DOT;
		top = cell_lines(d, &c->lines[i], c->lfont[i], &ts, tx,
		                 w - 2 * PAD - (tx - x - PAD), top, cols[i].num,
		                 cells[i].url);
		if (c->ns[i])
			cell_lines(d, &c->subl[i], c->sfont[i], &ss, tx,
			           w - 2 * PAD - (tx - x - PAD), top,
			           cols[i].num, NULL);
		x += w;
	}
	d->y -= h;
	pt_hline(d->page, MARGIN, MARGIN + CONTENT_W, d->y, 0.5f, PDF_LINE);
}

static float row_layout(struct pdf_ctx *c, const struct pdf_col *cols, size_t n,
                        const struct pdf_cell *cells,
                        const struct pdf_style *st)
{
	float h = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		float ch = cell_layout(c, i, &cols[i], &cells[i], st);
		if (ch > h)
			h = ch;
	}
	return h + 2 * PAD;
}

/* The heading row, kept with room for a first row. */
static void table_head(struct pdf_ctx *c, const struct pdf_col *cols, size_t n)
{
	struct pdf_cell cells[PDF_MAX_COLS];
	float h;
	size_t i;

	for (i = 0; i < n; i++) {
		cells[i].text = cols[i].head;
		cells[i].sub = cells[i].url = NULL;
		cells[i].dot = -1;
		cells[i].state = NULL;
		cells[i].indent = 0;
		cells[i].strong = 0;
		cells[i].sub_rgb = -1;
	}
	h = row_layout(c, cols, n, cells, &S_HEAD);
	pt_need(&c->d, h + 24.0f); /* the heading row never ends a page */
	pt_rect(&c->d, MARGIN, c->d.y - h, CONTENT_W, h, PDF_PANEL);
	row_draw(c, cols, n, cells, &S_HEAD, h);
}

/* A body row; on a new page the heading row is repeated first. */
static void table_row(struct pdf_ctx *c, const struct pdf_col *cols, size_t n,
                      const struct pdf_cell *cells, float keep)
{
	float h = row_layout(c, cols, n, cells, &S_CELL);

	if (c->d.y - h - keep < BOTTOM) {
		pt_new_page(&c->d);
		table_head(c, cols, n);
		h = row_layout(c, cols, n, cells, &S_CELL);
	}
	row_draw(c, cols, n, cells, &S_CELL, h);
}

/* An integer value of a duration column; 0 if it is none. */
static int dur_value(const char *s, int64_t *v)
{
	char *end;
	long long ll;

	if (!*s)
		return 0;
	ll = strtoll(s, &end, 10);
	*v = (int64_t)ll;
	return !*end;
}

/* The unit of each duration column (fmts[k] is c->fdur) of t, from its
 * largest value, as the templates' dur columns choose theirs; -1 for other
 * columns. */
static void column_units(const struct pdf_ctx *c, const struct pdf_table *t,
                         int *unit)
{
	size_t i, k, n = tmpl_nrows(t->m, t->loop);
	int64_t v, max;

	for (k = 0; k < t->n; k++) {
		unit[k] = -1;
		if (!t->vars || !t->vars[k] || !t->fmts ||
		    t->fmts[k] != c->fdur)
			continue;
		for (i = 0, max = 0; i < n; i++) {
			const struct tmpl_vars *r = tmpl_row(t->m, t->loop, i);
			if ((t->when && !*tmpl_get(r, t->when)) ||
			    !dur_value(tmpl_get(r, t->vars[k]), &v))
				continue;
			v = v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
			max = v > max ? v : max;
		}
		unit[k] = (int)numfmt_unit_of(max);
	}
}

/* Row r's cells: empty, then filled from t->vars and by t->row. */
static void row_cells(struct pdf_ctx *c, const struct pdf_table *t,
                      const struct tmpl_vars *r, struct pdf_cell *cells,
                      const int *unit)
{
	int64_t v;

	size_t k;

	for (k = 0; k < t->n; k++) {
		const char *value;
		tmpl_fmt_fn fn = t->fmts ? t->fmts[k] : NULL;
		strbuf_reset(&c->val[k]);
		cells[k].text = c->val[k].buf ? c->val[k].buf : "";
		cells[k].sub = cells[k].url = NULL;
		cells[k].dot = -1;
		cells[k].state = NULL;
		cells[k].indent = 0;
		cells[k].strong = 0;
		cells[k].sub_rgb = -1;
		if (!t->vars || !t->vars[k])
			continue;
		value = tmpl_get(r, t->vars[k]);
		if (!fn)
			cells[k].text = value;
		else if (t->dash && !*value)
			strbuf_adds(&c->val[k], "\xE2\x80\x93");
		else if (unit[k] >= 0 && dur_value(value, &v))
			numfmt_duration_in(&c->val[k], v,
			                   (enum numfmt_unit)unit[k]);
		else
			pdf_fmt(fn, &c->val[k], value);
		if (fn)
			cells[k].text = c->val[k].buf;
	}
	if (t->row)
		t->row(c, r, cells);
}

/* The height a table keeps on one page from its start: the whole table
 * (and keep_last) when it has PDF_SMALL_TABLE rows or fewer, else its
 * heading row and first row; at most a page. */
static float table_keep(struct pdf_ctx *c, const struct pdf_table *t,
                        const struct pdf_col *cols, const int *unit)
{
	struct pdf_cell cells[PDF_MAX_COLS];
	size_t i, k, n = tmpl_nrows(t->m, t->loop), shown = 0;
	float first = 0, all = 0, h;

	for (i = 0; i < n && shown <= PDF_SMALL_TABLE; i++) {
		const struct tmpl_vars *r = tmpl_row(t->m, t->loop, i);
		if (t->when && !*tmpl_get(r, t->when))
			continue;
		row_cells(c, t, r, cells, unit);
		h = row_layout(c, cols, t->n, cells, &S_CELL);
		if (!shown++)
			first = h;
		all += h;
	}
	h = shown > PDF_SMALL_TABLE ? first : all + t->keep_last;
	for (k = 0; k < t->n; k++) {
		cells[k].text = cols[k].head;
		cells[k].sub = cells[k].url = NULL;
		cells[k].dot = -1;
		cells[k].state = NULL;
		cells[k].indent = 0;
		cells[k].strong = 0;
		cells[k].sub_rgb = -1;
	}
	h += row_layout(c, cols, t->n, cells, &S_HEAD);
	return h < TOP - BOTTOM ? h : TOP - BOTTOM;
}

void pdf_table(struct pdf_ctx *c, const struct pdf_table *t)
{
	struct pdf_col cols[PDF_MAX_COLS];
	struct pdf_cell cells[PDF_MAX_COLS];
	size_t i, k, n = tmpl_nrows(t->m, t->loop);
	int unit[PDF_MAX_COLS];

	column_units(c, t, unit);
	for (k = 0; k < t->n; k++) {
		cols[k] = t->cols[k];
		if (!t->head_text)
			cols[k].head = pdf_v(c, t->cols[k].head);
	}
	pt_need(&c->d, table_keep(c, t, cols, unit));
	table_head(c, cols, t->n);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(t->m, t->loop, i);
		if (t->when && !*tmpl_get(r, t->when))
			continue;
		row_cells(c, t, r, cells, unit);
		table_row(c, cols, t->n, cells, i + 1 < n ? 0 : t->keep_last);
	}
	c->d.y -= 10.0f;
}
