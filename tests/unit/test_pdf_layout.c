/* Unit tests of format/pdf/pdf_layout: pdf_table, the one table function
 * of both PDF reports, on a real libharu document with DejaVu Sans
 * (fonts-dejavu-core, a build dependency): which rows it lays out, what
 * the row callback is handed, the heading row repeated on every page
 * a table continues on, and a small table kept on one page with the
 * heading held above it. */
#include "unit.h"

#include "format/pdf/pdf_layout.h"
#include "tmpl/template.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define WQY    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

/* What the row callback saw, row by row, in the pass that draws the
 * rows: pdf_table hands the first rows to it once more before that, to
 * measure them, so the first row coming again starts the record over. */
struct seen {
	const struct tmpl_vars *first;
	size_t rows;
	char text[400][3][32]; /* cells' text as handed to the callback */
	size_t page[400];      /* pages so far when the row was handed */
	float y[400];          /* y then: below the previous row */
	size_t heading_page;   /* pages when a held heading was laid out */
};

static struct seen seen;
static void (*held)(struct pdf_doc *d, float h);

/* Stands in for d->held: notes the page the held heading goes on. */
static void spy(struct pdf_doc *d, float h)
{
	held(d, h);
	seen.heading_page = d->npages;
}

static void on_error(HPDF_STATUS no, HPDF_STATUS detail, void *data)
{
	struct pdf_doc *d = data;

	(void)no;
	(void)detail;
	longjmp(d->jb, 1);
}

/* "<value>": shows that a column went through its formatter. */
static void angle(struct strbuf *out, const char *value, size_t len)
{
	strbuf_addch(out, '<');
	strbuf_add(out, value, len);
	strbuf_addch(out, '>');
}

static void record(struct pdf_ctx *c, const struct tmpl_vars *r,
                   struct pdf_cell *cells)
{
	size_t k, i;

	if (!seen.first)
		seen.first = r;
	else if (r == seen.first)
		seen.rows = 0;
	i = seen.rows++;
	assert_true(i < ARRAY_LEN(seen.page));
	for (k = 0; k < 3; k++)
		snprintf(seen.text[i][k], sizeof(seen.text[i][k]), "%s",
		         cells[k].text);
	seen.page[i] = c->d.npages;
	seen.y[i] = c->d.y;
}

/* A model with loop "rows" of n rows: name "row I", value I (empty for
 * every 4th row), keep "yes" on even rows. */
static struct tmpl_vars *model(size_t n)
{
	struct tmpl_vars *m = tmpl_vars_new();
	size_t i;

	tmpl_set(m, "t_name", "Name");
	tmpl_set(m, "t_value", "Value");
	tmpl_set(m, "t_raw", "Raw");
	for (i = 0; i < n; i++) {
		struct tmpl_vars *r = tmpl_add_row(m, "rows");
		tmpl_setf(r, "name", "row %zu", i);
		if (i % 4)
			tmpl_setf(r, "value", "%zu", i);
		if (i % 2 == 0)
			tmpl_set(r, "keep", "yes");
	}
	return m;
}

/* Lays out the table of loop "rows" of m on a fresh document. */
static void lay_out_at(const struct tmpl_vars *m, int dash, const char *when,
                       float y, const char *heading)
{
	static const struct pdf_col spec[] = {
	    {"t_name", 0.5f, 0}, {"t_value", 0.25f, 1}, {"t_raw", 0.25f, 1}};
	static const char *const vars[] = {"name", "value", "value"};
	tmpl_fmt_fn fmts[] = {NULL, angle, NULL};
	struct pdf_table t = {PDF_TABLE(spec, m, "rows"),
	                      .vars = vars,
	                      .fmts = fmts,
	                      .dash = dash,
	                      .row = record,
	                      .when = when};
	struct pdf_ctx *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	memset(&seen, 0, sizeof(seen));
	pdf_ctx_init(c);
	c->m = m;
	if (setjmp(c->d.jb)) {
		pdf_ctx_release(c);
		free(c);
		fail_msg("libharu error");
	}
	c->d.pdf = HPDF_New(on_error, &c->d);
	assert_non_null(c->d.pdf);
	HPDF_UseUTFEncodings(c->d.pdf);
	HPDF_SetCurrentEncoder(c->d.pdf, "UTF-8");
	c->d.cjk_path = WQY;
	c->d.reg = pt_load_font(&c->d, DEJAVU, 0);
	pt_new_page(&c->d);
	c->d.y = y;
	if (heading) {
		pdf_subheading(c, heading);
		held = c->d.held;
		c->d.held = spy;
	}
	pdf_table(c, &t);
	pdf_ctx_release(c);
	free(c);
}

static void lay_out(const struct tmpl_vars *m, int dash, const char *when)
{
	lay_out_at(m, dash, when, TOP, NULL);
}

static void pdf_table_fills_cells_from_vars_and_formatters(void **state)
{
	struct tmpl_vars *m = model(8);

	(void)state;
	lay_out(m, 0, NULL);
	assert_int_equal(seen.rows, 8);
	assert_string_equal(seen.text[1][0], "row 1");
	assert_string_equal(seen.text[1][1], "<1>");
	assert_string_equal(seen.text[1][2], "1");
	/* empty: formatted all the same without dash, as text when raw */
	assert_string_equal(seen.text[4][1], "<>");
	assert_string_equal(seen.text[4][2], "");
	tmpl_vars_free(m);
}

static void pdf_table_dash_marks_empty_formatted_values(void **state)
{
	struct tmpl_vars *m = model(8);

	(void)state;
	lay_out(m, 1, NULL);
	assert_string_equal(seen.text[4][1], "\xE2\x80\x93");
	assert_string_equal(seen.text[4][2], "");
	assert_string_equal(seen.text[5][1], "<5>");
	tmpl_vars_free(m);
}

static void pdf_table_leaves_out_rows_without_when(void **state)
{
	struct tmpl_vars *m = model(9);
	size_t i;

	(void)state;
	lay_out(m, 0, "keep");
	assert_int_equal(seen.rows, 5);
	for (i = 0; i < seen.rows; i++) {
		char want[32];
		snprintf(want, sizeof(want), "row %zu", 2 * i);
		assert_string_equal(seen.text[i][0], want);
	}
	tmpl_vars_free(m);
}

/* Each row's height is the y step between two rows on one page; the
 * first row on a continuation page starts lower than the page's top by
 * more than that: the heading row is drawn above it again. */
static void pdf_table_repeats_its_heading_on_each_page(void **state)
{
	struct tmpl_vars *m = model(300);
	float row_h = 0;
	size_t i, breaks = 0;

	(void)state;
	lay_out(m, 0, NULL);
	assert_int_equal(seen.rows, 300);
	assert_true(seen.page[299] >= 3);
	/* seen.y[i] is y below row i - 1, seen.page[i] its page */
	for (i = 2; i < seen.rows && !row_h; i++)
		if (seen.page[i] == seen.page[i - 1])
			row_h = seen.y[i - 1] - seen.y[i];
	assert_true(row_h > 5.0f);
	for (i = 1; i < seen.rows; i++) {
		if (seen.page[i] == seen.page[i - 1])
			continue;
		/* row i - 1 began a new page: y below it is below the top
		 * by the repeated heading and the row itself */
		breaks++;
		assert_true(seen.y[i] < TOP - row_h - 8.0f);
		assert_true(seen.y[i] > TOP - 3 * row_h - 8.0f);
	}
	assert_int_equal(breaks, seen.page[299] - 1);
	tmpl_vars_free(m);
}

/* Eight rows that do not fit below y go to the next page together, the
 * held heading above them with them; nine rows start on this page. */
static void pdf_table_keeps_eight_rows_and_its_heading_together(void **state)
{
	struct tmpl_vars *m = model(8), *m9 = model(9);
	size_t i;

	(void)state;
	lay_out_at(m, 0, NULL, BOTTOM + 120.0f, "A heading");
	assert_int_equal(seen.rows, 8);
	assert_int_equal(seen.heading_page, 2);
	for (i = 0; i < seen.rows; i++)
		assert_int_equal(seen.page[i], 2);
	lay_out_at(m, 0, NULL, TOP, "A heading");
	assert_int_equal(seen.heading_page, 1);
	assert_int_equal(seen.page[7], 1);
	lay_out_at(m9, 0, NULL, BOTTOM + 120.0f, "A heading");
	assert_int_equal(seen.rows, 9);
	assert_int_equal(seen.heading_page, 1);
	assert_int_equal(seen.page[0], 1);
	assert_int_equal(seen.page[8], 2);
	tmpl_vars_free(m);
	tmpl_vars_free(m9);
}

/* A heading cell (PT_WRAP_WORDS) breaks Chinese at spaces only, so a word
 * stays whole ("换行符", not "换行" and "符"); a word wider than the line
 * still breaks, at a character. Body text breaks between characters. */
#define HUANHANG "\xE6\x8D\xA2\xE8\xA1\x8C" /* 换行 */
#define FU       "\xE7\xAC\xA6"             /* 符 */

static void pt_wrap_words_keeps_chinese_words_whole(void **state)
{
	static const struct pdf_style st = {8.0f, 1, PDF_FG};
	struct pdf_ctx *c = calloc(1, sizeof(*c));
	struct strbuf out = STRBUF_INIT;
	HPDF_Font f;
	float w;

	(void)state;
	assert_non_null(c);
	pdf_ctx_init(c);
	if (setjmp(c->d.jb))
		fail_msg("libharu error");
	c->d.pdf = HPDF_New(on_error, &c->d);
	HPDF_UseUTFEncodings(c->d.pdf);
	HPDF_SetCurrentEncoder(c->d.pdf, "UTF-8");
	c->d.cjk_path = WQY;
	c->d.reg = pt_load_font(&c->d, DEJAVU, 0);
	/* room for "DiT 换行" but not for "DiT 换行符" */
	w = pt_text_width(&c->d, "DiT " HUANHANG, &st) + 1;
	assert_int_equal(pt_wrap(&c->d, "DiT " HUANHANG FU, &st, w,
	                         PT_WRAP_WORDS, 0, &out, &f),
	                 2);
	assert_string_equal(out.buf, "DiT\n" HUANHANG FU);
	strbuf_reset(&out);
	pt_wrap(&c->d, "DiT " HUANHANG FU, &st, w, 0, 0, &out, &f);
	assert_string_equal(out.buf, "DiT " HUANHANG "\n" FU);
	strbuf_reset(&out);
	w = pt_text_width(&c->d, FU, &st) + 1;
	assert_int_equal(
	    pt_wrap(&c->d, HUANHANG, &st, w, PT_WRAP_WORDS, 0, &out, &f), 2);
	strbuf_release(&out);
	pdf_ctx_release(c);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pdf_table_fills_cells_from_vars_and_formatters),
	    cmocka_unit_test(pdf_table_dash_marks_empty_formatted_values),
	    cmocka_unit_test(pdf_table_leaves_out_rows_without_when),
	    cmocka_unit_test(pdf_table_repeats_its_heading_on_each_page),
	    cmocka_unit_test(
	        pdf_table_keeps_eight_rows_and_its_heading_together),
	    cmocka_unit_test(pt_wrap_words_keeps_chinese_words_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
