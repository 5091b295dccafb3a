/* Unit tests of input/csvread.c, the CSV reading skeleton over libcsv, with
 * a recording reader: what the callbacks see, the physical line numbers,
 * the caps and the wording of syntax errors, in memory and from real
 * (plain and gzip) files. */
#include "unit.h"

#include <zlib.h>

#include "input/csvread.h"
#include "util/strbuf.h"

/* A reader that writes down every callback as text. */
struct rec {
	struct strbuf log;
	uint64_t lines_at_row[8];
	size_t nrows;
};

static void rec_header(struct csvread *c, size_t col, const char *s, size_t len)
{
	struct rec *x = c->ctx;

	strbuf_addf(&x->log, "H%zu[%.*s]", col, (int)len, s);
}

static void rec_header_done(struct csvread *c)
{
	struct rec *x = c->ctx;

	strbuf_adds(&x->log, "|");
}

static void rec_field(struct csvread *c, size_t col, const char *s, size_t len)
{
	struct rec *x = c->ctx;

	strbuf_addf(&x->log, "F%zu[%.*s]", col, (int)len, s);
	if (len == 3 && !memcmp(s, "bad", 3))
		csvread_fail(c, col, "not wanted", s, len);
}

static void rec_row(struct csvread *c, size_t nfields)
{
	struct rec *x = c->ctx;

	strbuf_addf(&x->log, "R%zu@%llu;", nfields,
	            (unsigned long long)c->row_line);
	if (x->nrows < ARRAY_LEN(x->lines_at_row))
		x->lines_at_row[x->nrows++] = c->row_line;
}

static const struct csvread_cb rec_cb = {rec_header, rec_header_done, rec_field,
                                         rec_row};

struct run {
	struct rec x;
	struct err e;
	int rc;
	uint64_t lines, rows;
	int bom, crlf, gz;
	int64_t size;
};

static void run_end(struct run *u, struct csvread *c)
{
	if (!u->rc)
		u->rc = csvread_finish(c);
	u->lines = c->line;
	u->rows = c->rows;
	u->bom = c->bom;
	u->crlf = c->crlf;
	u->gz = c->gz;
	u->size = c->size;
	csvread_release(c);
}

static void run_mem(struct run *u, const struct csvread_opts *o,
                    const char *text, size_t len)
{
	struct csvread c;

	memset(u, 0, sizeof(*u));
	strbuf_init(&u->x.log);
	csvread_init(&c, "t.csv", o, &rec_cb, &u->x, &u->e);
	u->rc = csvread_mem(&c, text, len);
	run_end(u, &c);
}

static void run_text(struct run *u, const struct csvread_opts *o,
                     const char *text)
{
	run_mem(u, o, text, strlen(text));
}

static void run_release(struct run *u)
{
	strbuf_release(&u->x.log);
}

static const struct csvread_opts plain = {"test.csv", 8, 0, 0, 0, 0, 0};

static void csvread_reports_header_fields_and_rows_in_order(void **state)
{
	struct run u;

	(void)state;
	run_text(&u, &plain, "a,b\n1,\"x,y\"\n2,3,4\n");
	assert_int_equal(u.rc, 0);
	/* a field past the header's columns is counted, not handed over */
	assert_string_equal(u.x.log.buf, "H0[a]H1[b]|F0[1]F1[x,y]R2@2;"
	                                 "F0[2]F1[3]R3@3;");
	assert_int_equal(u.rows, 2);
	assert_int_equal(u.lines, 3);
	run_release(&u);
}

/* libcsv skips empty lines: the row numbers are physical lines anyway. */
static void csvread_numbers_rows_by_physical_line(void **state)
{
	struct run u;

	(void)state;
	run_text(&u, &plain, "\r\na\n\n\n1\r\n\"2\n3\"\n4");
	assert_int_equal(u.rc, 0);
	assert_string_equal(u.x.log.buf, "H0[a]|F0[1]R1@5;F0[2\n3]R1@6;"
	                                 "F0[4]R1@8;");
	assert_int_equal(u.lines, 8);
	assert_int_equal(u.crlf, 1);
	run_release(&u);
}

static void csvread_strips_bom_and_trims_header_when_asked(void **state)
{
	struct csvread_opts o = plain;
	struct run u;

	(void)state;
	o.trim_header = 1;
	run_text(&u, &o,
	         "\xEF\xBB\xBF"
	         "a,\" b \"\n1,2\n");
	assert_int_equal(u.rc, 0);
	assert_int_equal(u.bom, 1);
	assert_int_equal(u.crlf, 0);
	assert_string_equal(u.x.log.buf, "H0[a]H1[b]|F0[1]F1[2]R2@2;");
	run_release(&u);
}

static void csvread_keeps_tabs_for_the_first_rows_only(void **state)
{
	struct csvread_opts o = plain;
	struct run u;

	(void)state;
	o.keep_tabs = 1;
	run_text(&u, &o, "a\n1\t\n2\t\n");
	assert_int_equal(u.rc, 0);
	assert_string_equal(u.x.log.buf, "H0[a]|F0[1\t]R1@2;F0[2]R1@3;");
	run_release(&u);
}

static void csvread_words_syntax_errors_with_column_and_value(void **state)
{
	struct run u;

	(void)state;
	run_text(&u, &plain, "a,b\n1,2\n\n3,x\"y\n");
	assert_int_equal(u.rc, -1);
	assert_int_equal(u.e.code, ERR_INPUT);
	assert_string_equal(u.e.msg,
	                    "t.csv:4: column 2 'b': malformed quoting (a quote "
	                    "inside an unquoted field, or text after a "
	                    "closing quote): 'x'");
	run_release(&u);
	run_text(&u, &plain, "a,b\n1,\"2\n");
	assert_string_equal(u.e.msg, "t.csv:2: column 2 'b': unterminated "
	                             "quoted field: '2\\x0A'");
	run_release(&u);
	/* a callback's failure stops the read: no later callback runs */
	run_text(&u, &plain, "a,b\nbad,1\n2,3\n");
	assert_string_equal(u.e.msg,
	                    "t.csv:2: column 1 'a': not wanted: 'bad'");
	assert_string_equal(u.x.log.buf, "H0[a]H1[b]|F0[bad]");
	run_release(&u);
}

static void csvread_caps_columns_names_and_fields(void **state)
{
	struct run u;
	char *big = malloc(CSVREAD_MAX_FIELD + 64);

	(void)state;
	assert_non_null(big);
	run_text(&u, &plain, "a,b,c,d,e,f,g,h,i\n1\n");
	assert_string_equal(
	    u.e.msg, "t.csv:1: column 9: too many columns (limit 8): 'i'");
	run_release(&u);
	memset(big, 'n', CSVREAD_MAX_NAME + 1);
	memcpy(big + CSVREAD_MAX_NAME + 1, "\n1\n", 4);
	run_text(&u, &plain, big);
	assert_memory_equal(u.e.msg,
	                    "t.csv:1: column 1: header name longer than 4096 "
	                    "bytes: 'nnn",
	                    sizeof("t.csv:1: column 1: header name longer "
	                           "than 4096 bytes: 'nnn") -
	                        1);
	run_release(&u);
	memcpy(big, "a\n\"", 3);
	memset(big + 3, 'x', CSVREAD_MAX_FIELD + 8);
	run_mem(&u, &plain, big, CSVREAD_MAX_FIELD + 11);
	assert_memory_equal(u.e.msg,
	                    "t.csv:2: column 1 'a': field longer than 1 MiB "
	                    "(unterminated quote?): 'xxx",
	                    sizeof("t.csv:2: column 1 'a': field longer than 1 "
	                           "MiB (unterminated quote?): 'xxx") -
	                        1);
	free(big);
	run_release(&u);
}

static void csvread_calls_a_binary_header_binary(void **state)
{
	static const char bin[] = "a,b\x00\xff,c\n1,2,3\n";
	struct run u;

	(void)state;
	run_mem(&u, &plain, bin, sizeof(bin) - 1);
	assert_string_equal(u.e.msg, "t.csv:1: column 2: not a CSV text header "
	                             "(binary data?): 'b\\x00\\xFF'");
	run_release(&u);
	run_text(&u, &plain, "ok,\xff\xfe\n1,2\n");
	assert_string_equal(u.e.msg, "t.csv:1: column 2: not a CSV text header "
	                             "(binary data?): '\\xFF\\xFE'");
	run_release(&u);
}

/* Files: plain and gzip read the same; a byte cap counts uncompressed
 * bytes and names the kind of file. */
static void csvread_reads_files_plain_and_gzip_with_a_byte_cap(void **state)
{
	static const char text[] = "a,b\n1,2\n3,4\n";
	struct csvread_opts o = plain;
	char dir[512], path[600], gzpath[600];
	struct csvread c;
	struct run u;
	gzFile gz;
	FILE *f;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	snprintf(gzpath, sizeof(gzpath), "%s/t.csv.gz", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	gz = gzopen(gzpath, "wb");
	assert_non_null(gz);
	gzputs(gz, text);
	gzclose(gz);
	for (int i = 0; i < 2; i++) {
		memset(&u, 0, sizeof(u));
		strbuf_init(&u.x.log);
		csvread_init(&c, i ? gzpath : path, &o, &rec_cb, &u.x, &u.e);
		u.rc = csvread_file(&c);
		run_end(&u, &c);
		assert_int_equal(u.rc, 0);
		assert_int_equal(u.gz, i);
		assert_string_equal(u.x.log.buf, "H0[a]H1[b]|F0[1]F1[2]R2@2;"
		                                 "F0[3]F1[4]R2@3;");
		run_release(&u);
	}
	o.max_bytes = 8;
	memset(&u, 0, sizeof(u));
	strbuf_init(&u.x.log);
	csvread_init(&c, gzpath, &o, &rec_cb, &u.x, &u.e);
	u.rc = csvread_file(&c);
	run_end(&u, &c);
	assert_int_equal(u.rc, -1);
	assert_string_equal(u.x.log.buf, "");
	if (!strstr(u.e.msg, "t.csv.gz: larger than ") ||
	    !strstr(u.e.msg, " MiB uncompressed (the limit for test.csv)"))
		fail_msg("%s", u.e.msg);
	run_release(&u);
	run_mem(&u, &o, text, sizeof(text) - 1);
	assert_int_equal(u.rc, -1);
	run_release(&u);
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(csvread_reports_header_fields_and_rows_in_order),
	    cmocka_unit_test(csvread_numbers_rows_by_physical_line),
	    cmocka_unit_test(csvread_strips_bom_and_trims_header_when_asked),
	    cmocka_unit_test(csvread_keeps_tabs_for_the_first_rows_only),
	    cmocka_unit_test(csvread_words_syntax_errors_with_column_and_value),
	    cmocka_unit_test(csvread_caps_columns_names_and_fields),
	    cmocka_unit_test(csvread_calls_a_binary_header_binary),
	    cmocka_unit_test(
	        csvread_reads_files_plain_and_gzip_with_a_byte_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
