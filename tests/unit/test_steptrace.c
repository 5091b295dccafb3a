/* Unit tests of input/steptrace.c: the step_trace_time.csv reader, on the
 * real sample files and on small CSVs built here. */
#include "unit.h"

#include <zlib.h>

#include "input/profile.h"
#include "input/steptrace.h"

/* The real files: copies in tests/data/samples (PROVENANCE.md there). */
#define samples_dir unit_samples_dir

/* ---- fixture ----------------------------------------------------------- */

struct rd {
	struct steptrace st;
	struct err e;
	int rc;
	char dir[512];
};

static int rd_setup(void **state)
{
	struct rd *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	*state = r;
	return 0;
}

static int rd_teardown(void **state)
{
	struct rd *r = *state;

	steptrace_release(&r->st);
	if (r->dir[0])
		unit_rmtree(r->dir);
	free(r);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, rd_setup, rd_teardown)

static void rd_bytes(struct rd *r, const char *text, size_t len)
{
	struct err e = ERR_INIT;

	steptrace_release(&r->st);
	r->e = e;
	r->rc = steptrace_read_mem("s.csv", text, len, &r->st, &r->e);
}

static void rd_text(struct rd *r, const char *text)
{
	rd_bytes(r, text, strlen(text));
}

static void ok(const struct rd *r, size_t n)
{
	if (r->rc)
		fail_msg("read failed: %s", r->e.msg);
	assert_int_equal(r->e.code, ERR_NONE);
	assert_int_equal(r->st.nrows, n);
}

static void fails(const struct rd *r, const char *msg)
{
	assert_int_equal(r->rc, -1);
	assert_int_equal(r->e.code, ERR_INPUT);
	assert_string_equal(r->e.msg, msg);
}

/* Every column of a row, in struct order. */
static void row_is(const struct step_row *w, const int64_t v[11])
{
	assert_int_equal(w->step, v[0]);
	assert_int_equal(w->device_id, v[1]);
	assert_int_equal(w->computing_ns, v[2]);
	assert_int_equal(w->comm_not_overlapped_ns, v[3]);
	assert_int_equal(w->overlapped_ns, v[4]);
	assert_int_equal(w->comm_ns, v[5]);
	assert_int_equal(w->free_ns, v[6]);
	assert_int_equal(w->stage_ns, v[7]);
	assert_int_equal(w->bubble_ns, v[8]);
	assert_int_equal(w->comm_not_overlapped_excl_recv_ns, v[9]);
	assert_int_equal(w->preparing_ns, v[10]);
}

#define H_2023                                                                 \
	"Step,Computing,Communication(Not Overlapped),Overlapped,"             \
	"Communication,Free,Stage,Bubble,"                                     \
	"Communication(Not Overlapped and Exclude Receive)"
#define H_2024 H_2023 ",Preparing"
#define H_2026 "Device_id," H_2024

/* ---- the real files ---------------------------------------------------- */

/* Expected values computed independently, not with this reader: python3
 * csv.DictReader on each file, every value as Decimal(text) * 1000
 * rounded ROUND_HALF_UP (halves away from zero), -1 for a missing
 * Device_id / Preparing column (script: see the report of this module,
 * tests/data/samples/expected_steps_comm.py). Columns: step, device, computing,
 * comm not overlapped, overlapped, comm, free, stage, bubble, comm not
 * overlapped excl. receive, preparing. */
static const struct sample {
	const char *rel;
	const char *era;
	int64_t row[11];
} samples[] = {
    {"msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/"
     "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
     "2024",
     {50, -1, 9882852, 31347481, 4215824, 35563305, 3870978, 45101250, 0,
      31347481, 13840000}},
    {"msinsight-alexnet-2rank-2024/level0/rank1_ascend_pt/"
     "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
     "2024",
     {50, -1, 9960802, 30332512, 4223853, 34556365, 5601155, 45894250, 0,
      30332512, 17514500}},
    {"msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt/"
     "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
     "2024",
     {50, -1, 9847664, 66526545, 4260802, 70787347, 7268626, 83643000, 0,
      66526545, 14344250}},
    {"msinsight-alexnet-2rank-2024/level1/rank1_ascend_pt/"
     "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
     "2024",
     {50, -1, 9893263, 50785486, 4246874, 55032360, 5849156, 66528000, 0,
      50785486, 12015500}},
    {"msinsight-gpt3-testdata-2023/test_rank_0/ASCEND_PROFILER_OUTPUT/"
     "step_trace_time.csv",
     "2023",
     {2, -1, 75174575, 146614020, 6987303, 153601324, 69909504, 291698000, 0,
      146614020, -1}},
    {"msinsight-gpt3-testdata-2023/test_rank_1/ASCEND_PROFILER_OUTPUT/"
     "step_trace_time.csv",
     "2023",
     {2, -1, 75422220, 151303540, 7129460, 158433000, 67860800, 294586500, 0,
      151303540, -1}},
    {"paddleocrvl-910b-decode-2026/step_trace_time.csv",
     "2026",
     {0, 6, 2890240, 0, 0, 0, 3190300, 6080500, 0, 0, 1641750}},
};

static void steptrace_read_real_samples_every_column(void **state)
{
	struct rd *r = *state;
	char path[1024];
	size_t i;
	struct stat sb;

	for (i = 0; i < ARRAY_LEN(samples); i++) {
		struct err e = ERR_INIT;

		unit_join(path, sizeof(path), samples_dir(), samples[i].rel);
		steptrace_release(&r->st);
		r->e = e;
		r->rc = steptrace_read(path, &r->st, &r->e);
		ok(r, 1);
		assert_string_equal(r->st.era, samples[i].era);
		assert_string_equal(r->st.path, path);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(r->st.size, sb.st_size);
		assert_int_equal(r->st.gz, 0);
		assert_int_equal(r->st.has_preparing, samples[i].row[10] != -1);
		assert_int_equal(r->st.has_device, samples[i].row[1] != -1);
		row_is(&r->st.rows[0], samples[i].row);
	}
}

static void steptrace_read_gzip_copy(void **state)
{
	struct rd *r = *state;
	char src[1024], dst[1024], buf[4096];
	FILE *in;
	gzFile out;
	size_t n;

	unit_tmpdir(r->dir, sizeof(r->dir));
	unit_join(src, sizeof(src), samples_dir(), samples[6].rel);
	unit_join(dst, sizeof(dst), r->dir, "step_trace_time.csv.gz");
	in = fopen(src, "rb");
	assert_non_null(in);
	out = gzopen(dst, "wb");
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(gzwrite(out, buf, (unsigned)n), (int)n);
	fclose(in);
	assert_int_equal(gzclose(out), Z_OK);
	r->rc = steptrace_read(dst, &r->st, &r->e);
	ok(r, 1);
	assert_int_equal(r->st.gz, 1);
	assert_string_equal(r->st.era, "2026");
	row_is(&r->st.rows[0], samples[6].row);
}

static void steptrace_read_missing_file_names_it(void **state)
{
	struct rd *r = *state;

	r->rc =
	    steptrace_read("/nonexistent/step_trace_time.csv", &r->st, &r->e);
	assert_int_equal(r->rc, -1);
	assert_int_equal(r->e.code, ERR_INPUT);
	assert_non_null(strstr(r->e.msg, "/nonexistent/step_trace_time.csv"));
}

/* ---- header variants --------------------------------------------------- */

static void steptrace_read_2023_header_lf(void **state)
{
	struct rd *r = *state;
	const int64_t want[11] = {2,    -1,   1000, 2000, 3000, 4000,
	                          5000, 6000, 0,    7500, -1};

	rd_text(r, H_2023 "\n2,1,2,3,4,5,6,0,7.5\n");
	ok(r, 1);
	assert_string_equal(r->st.era, "2023");
	assert_int_equal(r->st.has_preparing, 0);
	assert_int_equal(r->st.has_device, 0);
	row_is(&r->st.rows[0], want);
}

static void steptrace_read_2024_header_crlf(void **state)
{
	struct rd *r = *state;
	const int64_t w0[11] = {50,   -1,   1000, 2000, 3000, 4000,
	                        5000, 6000, 7,    8000, 9250};
	const int64_t w1[11] = {51, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9};

	rd_text(r, H_2024 "\r\n50,1,2,3,4,5,6,0.007,8,9.25\r\n"
	                  "51,0.001,0.002,0.003,0.004,0.005,0.006,0.007,0.008,"
	                  "0.009\r\n");
	ok(r, 2);
	assert_string_equal(r->st.era, "2024");
	assert_int_equal(r->st.has_preparing, 1);
	row_is(&r->st.rows[0], w0);
	row_is(&r->st.rows[1], w1);
}

static void steptrace_read_2026_header_bom_device_first(void **state)
{
	struct rd *r = *state;
	const int64_t w[11] = {0, 6, 1000, 0, 0, 0, 2000, 3000, 0, 0, 4000};

	rd_text(r, "\xEF\xBB\xBF" H_2026 "\r\n6,0,1,0,0,0,2,3,0,0,4\r\n");
	ok(r, 1);
	assert_string_equal(r->st.era, "2026");
	assert_int_equal(r->st.has_device, 1);
	assert_int_equal(r->st.has_preparing, 1);
	row_is(&r->st.rows[0], w);
}

static void steptrace_read_ignores_unknown_columns_anywhere(void **state)
{
	struct rd *r = *state;
	const int64_t w[11] = {3,    -1,   1000, 2000, 3000, 4000,
	                       5000, 6000, 0,    7000, 8000};

	/* columns found by name, in any order, with extras between them */
	rd_text(r, "Extra,Preparing,Step,Computing,Communication(Not "
	           "Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
	           "Communication(Not Overlapped and Exclude Receive),Tail\n"
	           "junk,8,3,1,2,3,4,5,6,0,7,x\n");
	ok(r, 1);
	assert_string_equal(r->st.era, "2024");
	row_is(&r->st.rows[0], w);
}

static void steptrace_read_tolerates_trailing_tab_and_space(void **state)
{
	struct rd *r = *state;
	const int64_t w[11] = {4,    -1,   1500, 2000, 3000, 4000,
	                       5000, 6000, 0,    7000, 8000};

	rd_text(r, H_2024 " \t\n4\t,1.5\t,2 ,\"3\t\",4,5,6,0,7,8 \t\n");
	ok(r, 1);
	row_is(&r->st.rows[0], w);
}

static void steptrace_read_empty_step_is_step_none(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\n,1,2,3,4,5,6,0,7,8\n\n,1,2,3,4,5,6,0,7,8\n");
	ok(r, 2);
	assert_int_equal(r->st.rows[0].step, STEP_NONE);
	assert_int_equal(r->st.rows[1].step, STEP_NONE);
}

static void steptrace_read_header_only_has_no_rows(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\r\n");
	ok(r, 0);
	assert_string_equal(r->st.era, "2024");
}

/* Exactness: expected ns worked out by hand from the decimal text
 * (us * 1000, nearest ns, halves away from zero). */
static void steptrace_read_converts_decimal_text_exactly(void **state)
{
	struct rd *r = *state;
	const int64_t w[11] = {1,
	                       -1,
	                       INT64_C(1736408883704903918), /* 19 digits */
	                       0,     /* -1.1368683772161603e-13 us */
	                       3,     /* 2.5e-3 us = 2.5 ns, half up */
	                       -3,    /* -2.5e-3 us: half away from zero */
	                       0,     /* 1e-05 us = 0.01 ns */
	                       12000, /* 1.2E1 */
	                       2,     /* 0.0015 us = 1.5 ns */
	                       123456789000, /* 123456789.0004999 */
	                       300};         /* 0.3000000000000000444 */
	rd_text(r, H_2024 "\n1,1736408883704903.918,-1.1368683772161603e-13,"
	                  "2.5e-3,-2.5e-3,1e-05,1.2E1,0.0015,123456789.0004999,"
	                  "0.3000000000000000444\n");
	ok(r, 1);
	row_is(&r->st.rows[0], w);
}

/* ---- errors ------------------------------------------------------------ */

static void steptrace_read_rejects_bad_number(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\n1,1,2,3,4,5,6,0,7,8\n\n2,1,2,abc,4,5,6,0,7,8\n");
	fails(r, "s.csv:4: column 4 'Overlapped': not a number: 'abc'");
	rd_text(r, H_2024 "\n1,1,2,3,4,5,6,,7,8\n");
	fails(r, "s.csv:2: column 8 'Bubble': not a number: ''");
	rd_text(r, H_2024 "\n1,1,2,3,4,5,6,0,7,1e\n");
	fails(r, "s.csv:2: column 10 'Preparing': not a number: '1e'");
	rd_text(r, H_2024 "\n1,1,2,3,4,5,6,0,7,nan\n");
	fails(r, "s.csv:2: column 10 'Preparing': not a number: 'nan'");
	/* beyond int64 ns */
	rd_text(r, H_2024 "\n1,1e16,2,3,4,5,6,0,7,8\n");
	fails(r, "s.csv:2: column 2 'Computing': not a number: '1e16'");
}

static void steptrace_read_rejects_bad_step_and_device(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\n-1,1,2,3,4,5,6,0,7,8\n");
	fails(r, "s.csv:2: column 1 'Step': not a step number: '-1'");
	rd_text(r, H_2026 "\nx,1,1,2,3,4,5,6,0,7,8\n");
	fails(r, "s.csv:2: column 1 'Device_id': not a device id: 'x'");
}

static void steptrace_read_rejects_missing_column(void **state)
{
	struct rd *r = *state;

	rd_text(r, "Step,Computing,Communication(Not Overlapped),Overlapped,"
	           "Communication,Stage,Bubble,"
	           "Communication(Not Overlapped and Exclude Receive)\n"
	           "1,2,3,4,5,6,7,8\n");
	fails(r, "s.csv:1: missing required column 'Free' (is this a "
	         "step_trace_time.csv?); header: 'Step,Computing,"
	         "Communication(Not Overlapped),Overlapped,Communication,Stage,"
	         "Bubble,Communication(Not Overlapped and Exclude Receive)'");
}

static void steptrace_read_rejects_duplicate_column(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 ",Free\n");
	fails(r, "s.csv:1: column 11: duplicate column: 'Free'");
}

static void steptrace_read_rejects_short_and_long_rows(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\r\n1,1,2,3,4,5,6,0,7,8\r\n2,1,2,3\r\n");
	fails(r, "s.csv:3: row has 4 fields, header has 10");
	rd_text(r, H_2024 "\n\n\n1,1,2,3,4,5,6,0,7,8,9\n");
	fails(r, "s.csv:4: row has 11 fields, header has 10");
}

static void steptrace_read_rejects_bad_quoting(void **state)
{
	struct rd *r = *state;

	rd_text(r, H_2024 "\n1,1,2,3,4,5,6,0,7,\"8\n");
	fails(r, "s.csv:2: column 10 'Preparing': unterminated quoted field: "
	         "'8\\x0A'");
	rd_text(r, H_2024 "\n1,1\"2,3,4,5,6,0,7,8,9\n");
	fails(r, "s.csv:2: column 2 'Computing': malformed quoting (a quote "
	         "inside an unquoted field, or text after a closing quote): "
	         "'1'");
}

static void steptrace_read_rejects_empty_file(void **state)
{
	struct rd *r = *state;

	rd_text(r, "");
	fails(r, "s.csv: empty file (no header, no rows)");
	rd_text(r, "\n\r\n\n");
	fails(r, "s.csv: empty file (no header, no rows)");
}

static void steptrace_read_rejects_over_64_mib(void **state)
{
	struct rd *r = *state;
	size_t len = STEPTRACE_MAX_BYTES + 1;
	char *big = calloc(1, len);

	assert_non_null(big);
	rd_bytes(r, big, len);
	free(big);
	fails(r, "s.csv: larger than 64 MiB uncompressed (the limit for "
	         "step_trace_time.csv)");
}

#define HEADER9                                                                \
	"Step,Computing,Communication(Not Overlapped),Overlapped,"             \
	"Communication,Free,Stage,Bubble,Communication(Not Overlapped and "    \
	"Exclude Receive)\n"

/* The file is streamed: a runaway field, a header of thousands of columns
 * and 65 MiB behind a small .gz are refused without being held. */
static void steptrace_read_caps_fields_columns_and_size(void **state)
{
	struct rd *r = *state;
	char *big = malloc((1u << 20) + 256), path[600];
	gzFile gz;
	size_t i;

	assert_non_null(big);
	memcpy(big, HEADER9 "\"", sizeof(HEADER9));
	memset(big + sizeof(HEADER9), 'x', (1u << 20) + 10);
	big[sizeof(HEADER9) + (1u << 20) + 10] = '\0';
	rd_text(r, big);
	free(big);
	assert_int_equal(r->rc, -1);
	if (!strstr(r->e.msg,
	            "s.csv:2: column 1 'Step': field longer than 1 MiB "
	            "(unterminated quote?): 'xxx"))
		fail_msg("%s", r->e.msg);
	rd_text(r, "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
	           "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,x\n");
	fails(r, "s.csv:1: column 257: too many columns (limit 256): 'w'");
	unit_tmpdir(r->dir, sizeof(r->dir));
	unit_join(path, sizeof(path), r->dir, "step_trace_time.csv.gz");
	gz = gzopen(path, "wb1");
	assert_non_null(gz);
	gzputs(gz, HEADER9);
	big = malloc(1u << 20);
	assert_non_null(big);
	memset(big, '\n', 1u << 20); /* blank lines: no rows, only bytes */
	for (i = 0; i < 65; i++)
		assert_int_equal(gzwrite(gz, big, 1u << 20), 1u << 20);
	free(big);
	gzclose(gz);
	steptrace_release(&r->st);
	memset(&r->e, 0, sizeof(r->e));
	r->rc = steptrace_read(path, &r->st, &r->e);
	assert_int_equal(r->rc, -1);
	if (!strstr(r->e.msg,
	            "step_trace_time.csv.gz: larger than 64 MiB "
	            "uncompressed (the limit for step_trace_time.csv)"))
		fail_msg("%s", r->e.msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(steptrace_read_real_samples_every_column),
	    T(steptrace_read_gzip_copy),
	    T(steptrace_read_missing_file_names_it),
	    T(steptrace_read_2023_header_lf),
	    T(steptrace_read_2024_header_crlf),
	    T(steptrace_read_2026_header_bom_device_first),
	    T(steptrace_read_ignores_unknown_columns_anywhere),
	    T(steptrace_read_tolerates_trailing_tab_and_space),
	    T(steptrace_read_empty_step_is_step_none),
	    T(steptrace_read_header_only_has_no_rows),
	    T(steptrace_read_converts_decimal_text_exactly),
	    T(steptrace_read_rejects_bad_number),
	    T(steptrace_read_rejects_bad_step_and_device),
	    T(steptrace_read_rejects_missing_column),
	    T(steptrace_read_rejects_duplicate_column),
	    T(steptrace_read_rejects_short_and_long_rows),
	    T(steptrace_read_rejects_bad_quoting),
	    T(steptrace_read_rejects_empty_file),
	    T(steptrace_read_rejects_over_64_mib),
	    T(steptrace_read_caps_fields_columns_and_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
