/* Unit tests of kernel_details.csv read in chunks (input/kernels_split.c,
 * input/csvsplit.c): the same table, keys, warnings and errors as one
 * thread, with the file's line numbers, and one thread again when a chunk
 * boundary falls inside a quoted field. Each file is built here: rows of
 * one fixed length, so where the boundaries fall is known. */
#include "unit.h"

#include "input/csvsplit.h"
#include "input/kernels.h"
#include "input/profile.h"
#include "util/strbuf.h"

#define ROW_LEN 256 /* bytes of every data row, newline included */
#define HEADER                                                                 \
	"Name,Type,Accelerator Core,Start Time(us),Duration(us),Input "        \
	"Shapes\n"

struct rd {
	struct kernel_table kt;
	struct kernels_info info;
	struct err e;
	int rc;
};

/* Row i: a kernel of one of 5 types, its last field a quoted shape padded
 * to ROW_LEN; with nl, that field is newlines (still one record); with
 * bad, its Duration is not a number; with far, it starts at 1 us, years
 * before the others (an implausible time). */
static void add_row(struct strbuf *sb, size_t i, int nl, int bad, int far)
{
	static const char *const types[] = {"MatMulV3", "Add", "Cast",
	                                    "FlashAttentionScore", "Mul"};
	size_t at = sb->len, pad;

	strbuf_addf(sb, "k%zu,%s,AI_CORE,%016zu.%03zu\t,%s.5,\"", i,
	            types[(i * 7) % 5], far ? 1 : 1700000000000000 + i * 10,
	            i % 1000, bad ? "x" : "7");
	pad = ROW_LEN - (sb->len - at) - 2;
	while (pad--)
		strbuf_addch(sb, nl ? '\n' : (char)('0' + pad % 10));
	strbuf_adds(sb, "\"\n");
	assert_int_equal(sb->len - at, ROW_LEN);
}

/* A file of n rows; row bad (if not SIZE_MAX) has a Duration that is not
 * a number, row quoted has its last field made of newlines, rows far1 and
 * far2 an implausible start. */
static void make_file_far(const char *path, size_t n, size_t bad, size_t quoted,
                          size_t far1, size_t far2)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_adds(&sb, HEADER);
	for (i = 0; i < n; i++)
		add_row(&sb, i, i == quoted, i == bad, i == far1 || i == far2);
	unit_write(path, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void make_file(const char *path, size_t n, size_t bad, size_t quoted)
{
	make_file_far(path, n, bad, quoted, SIZE_MAX, SIZE_MAX);
}

static void rd_file(struct rd *r, const char *path, unsigned threads,
                    int strict)
{
	struct kernels_opts o = {strict, 0, threads};

	memset(r, 0, sizeof(*r));
	kernel_table_init(&r->kt);
	r->rc = kernels_read(path, &o, &r->kt, &r->info, &r->e);
}

static void rd_release(struct rd *r)
{
	kernel_table_release(&r->kt);
	kernels_info_release(&r->info);
}

/* Everything the rest of sdperf sees of a read is the same. */
static void same_read(const struct rd *a, const struct rd *b)
{
	size_t i;

	assert_int_equal(a->rc, b->rc);
	assert_string_equal(a->e.msg, b->e.msg);
	assert_int_equal(a->kt.n, b->kt.n);
	assert_memory_equal(a->kt.v, b->kt.v, a->kt.n * sizeof(*a->kt.v));
	assert_int_equal(a->kt.keys.n, b->kt.keys.n);
	for (i = 0; i < a->kt.keys.n; i++)
		assert_string_equal(strtab_str(&a->kt.keys, (uint32_t)i),
		                    strtab_str(&b->kt.keys, (uint32_t)i));
	assert_int_equal(a->info.lines, b->info.lines);
	assert_int_equal(a->info.rows, b->info.rows);
	assert_int_equal(a->info.skipped, b->info.skipped);
	assert_int_equal(a->info.start_tab, b->info.start_tab);
	assert_int_equal(a->info.nwarn, b->info.nwarn);
	for (i = 0; i < a->info.nwarn; i++) {
		assert_int_equal(a->info.warn[i].line, b->info.warn[i].line);
		assert_string_equal(a->info.warn[i].reason,
		                    b->info.warn[i].reason);
	}
}

/* n rows: enough for 3 chunks of CSVSPLIT_MIN_CHUNK, an odd count so that
 * the middle of the rows (where 2 chunks meet) is inside row n / 2 */
#define NROWS ((3 * CSVSPLIT_MIN_CHUNK) / ROW_LEN + 1)

static void kernels_split_reads_as_one_thread(void **state)
{
	char dir[512], path[600];
	struct rd one, many;
	unsigned t;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	make_file(path, NROWS, SIZE_MAX, SIZE_MAX);
	rd_file(&one, path, 1, 0);
	assert_int_equal(one.rc, 0);
	assert_int_equal(one.info.chunks, 1);
	assert_int_equal(one.kt.n, NROWS);
	for (t = 2; t <= 7; t++) {
		rd_file(&many, path, t, 0);
		assert_int_equal(many.info.chunks, t < 3 ? t : 3);
		same_read(&one, &many);
		rd_release(&many);
	}
	rd_release(&one);
	unit_rmtree(dir);
}

/* A malformed row in the last chunk: its warning names the file's line,
 * and with --strict the error is one thread's, word for word. */
static void kernels_split_names_the_line_of_a_late_bad_row(void **state)
{
	char dir[512], path[600], want[64];
	struct rd one, many;
	size_t bad = NROWS - 100;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	make_file(path, NROWS, bad, SIZE_MAX);
	rd_file(&one, path, 1, 0);
	rd_file(&many, path, 3, 0);
	assert_int_equal(many.info.chunks, 3);
	assert_int_equal(many.info.nwarn, 1);
	assert_int_equal(many.info.warn[0].line, bad + 2); /* header, 1-based */
	same_read(&one, &many);
	rd_release(&one);
	rd_release(&many);

	rd_file(&one, path, 1, 1);
	rd_file(&many, path, 3, 1);
	snprintf(want, sizeof(want), "kernel_details.csv:%zu: column 5",
	         bad + 2);
	assert_int_equal(many.rc, -1);
	assert_non_null(strstr(many.e.msg, want));
	same_read(&one, &many);
	rd_release(&one);
	rd_release(&many);
	unit_rmtree(dir);
}

/* Implausible times, one among the file's first kernels (judged when the
 * probe settles, in chunk 0) and one early in the last chunk (judged at
 * its row, against chunk 0's reference: were it judged by a probe of its
 * own chunk, its warning would come after the malformed row's), then a
 * malformed row: the same warnings, in the same order, with the file's
 * lines. */
static void kernels_split_judges_times_against_chunk_0(void **state)
{
	char dir[512], path[600];
	struct rd one, many;
	size_t far2 = NROWS - 4000, bad = far2 + 20;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	make_file_far(path, NROWS, bad, SIZE_MAX, 100, far2);
	rd_file(&one, path, 1, 0);
	rd_file(&many, path, 3, 0);
	assert_int_equal(many.info.chunks, 3);
	assert_int_equal(many.info.nwarn, 3);
	assert_int_equal(many.info.warn[0].line, 102);
	assert_int_equal(many.info.warn[1].line, far2 + 2);
	assert_string_equal(many.info.warn[1].code, "implausible_time");
	assert_int_equal(many.info.warn[2].line, bad + 2);
	assert_int_equal(many.kt.n, NROWS - 3);
	same_read(&one, &many);
	rd_release(&one);
	rd_release(&many);
	unit_rmtree(dir);
}

/* The middle of the rows falls inside row NROWS / 2, whose quoted field
 * is all newlines: with 2 (or 4) chunks that boundary is ambiguous, and
 * the file is read on one thread; with 3 chunks the row lies inside one
 * chunk and the split stands. Both read as one thread does. */
static void kernels_split_falls_back_on_a_quoted_newline(void **state)
{
	char dir[512], path[600];
	struct rd one, many;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	make_file(path, NROWS, SIZE_MAX, NROWS / 2);
	rd_file(&one, path, 1, 0);
	assert_int_equal(one.rc, 0);
	assert_int_equal(one.kt.n, NROWS);
	assert_true(one.info.lines > NROWS + 1); /* the newlines count */
	rd_file(&many, path, 2, 0);
	assert_int_equal(many.info.chunks, 1);
	same_read(&one, &many);
	rd_release(&many);
	rd_file(&many, path, 3, 0);
	assert_int_equal(many.info.chunks, 3);
	same_read(&one, &many);
	rd_release(&many);
	rd_release(&one);
	unit_rmtree(dir);
}

/* Rows of every awkward shape, drawn from a fixed seed: quoted fields
 * with newlines, commas and doubled quotes, blank and blank-looking
 * lines, CR LF, short and long rows, bad numbers, implausible times.
 * 2 to 7 threads read it as one thread does: the skipped rows, the first
 * 50 warnings of 2,610, the lines. */
static void add_odd_row(struct strbuf *sb, uint64_t *seed, size_t i)
{
	static const char *const tails[] = {
	    "\"x,y\"\"z\"", "plain", "\"\"", "N/A", "\"1,2;3\"", "\"a\nb\""};
	uint64_t x;

	*seed = *seed * 6364136223846793005u + 1442695040888963407u;
	x = *seed >> 33;
	if (x % 97 == 0)
		strbuf_adds(sb, x % 2 ? "\n" : "  \n"); /* blank(-looking) */
	strbuf_addf(sb, "k%zu,%s,AI_CORE,%s%08zu.5,%s,%s%s", i,
	            x % 5 ? "MatMul" : "N/A", x % 211 ? "17000000" : "", i * 3,
	            x % 89 ? "2.25" : "bad",
	            tails[(x >> 8) % 97 ? (x >> 8) % 5 : 5],
	            x % 13 ? "\n" : "\r\n");
	if (x % 101 == 0)
		strbuf_adds(sb, "k,Add,AI_CORE,1700000000000.5\n"); /* short */
}

static void kernels_split_reads_odd_rows_as_one_thread(void **state)
{
	char dir[512], path[600];
	struct strbuf sb = STRBUF_INIT;
	struct rd one, many;
	uint64_t seed = 16;
	size_t i;
	unsigned t;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	strbuf_adds(&sb, HEADER);
	for (i = 0; sb.len < 5 * CSVSPLIT_MIN_CHUNK; i++)
		add_odd_row(&sb, &seed, i);
	unit_write(path, sb.buf, sb.len);
	strbuf_release(&sb);
	rd_file(&one, path, 1, 0);
	assert_int_equal(one.rc, 0);
	assert_true(one.info.skipped > 0);
	for (t = 2; t <= 7; t++) {
		rd_file(&many, path, t, 0);
		assert_true(many.info.chunks > 1); /* no cut fell in a field */
		same_read(&one, &many);
		rd_release(&many);
	}
	rd_release(&one);
	unit_rmtree(dir);
}

/* Fewer good rows than the probe (1,024 kernels) in the whole file, all
 * in chunk 0, one of them implausible; the later chunks keep no row, so
 * none waits for chunk 0's reference. The probe settles only at the end
 * of the file: it is read on one thread, and the kernel is skipped. */
static void kernels_split_settles_a_short_probe_on_one_thread(void **state)
{
	char dir[512], path[600];
	struct strbuf sb = STRBUF_INIT;
	struct rd one, many;
	size_t i;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	strbuf_adds(&sb, HEADER);
	for (i = 0; i < NROWS; i++)
		add_row(&sb, i, 0, i % 16 != 0 || i >= 4000, i == 800);
	unit_write(path, sb.buf, sb.len);
	strbuf_release(&sb);
	rd_file(&one, path, 1, 0);
	rd_file(&many, path, 3, 0);
	assert_int_equal(one.rc, 0);
	assert_int_equal(one.kt.n, 4000 / 16 - 1);
	assert_int_equal(many.info.chunks, 1);
	same_read(&one, &many);
	rd_release(&one);
	rd_release(&many);
	unit_rmtree(dir);
}

/* A gzip file is one stream: read on one thread. Small files too. */
static void kernels_split_keeps_small_files_whole(void **state)
{
	char dir[512], path[600];
	struct rd r;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "kernel_details.csv");
	make_file(path, 100, SIZE_MAX, SIZE_MAX);
	rd_file(&r, path, 7, 0);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.info.chunks, 1);
	assert_int_equal(r.kt.n, 100);
	rd_release(&r);
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(kernels_split_reads_as_one_thread),
	    cmocka_unit_test(kernels_split_names_the_line_of_a_late_bad_row),
	    cmocka_unit_test(kernels_split_judges_times_against_chunk_0),
	    cmocka_unit_test(kernels_split_falls_back_on_a_quoted_newline),
	    cmocka_unit_test(kernels_split_reads_odd_rows_as_one_thread),
	    cmocka_unit_test(kernels_split_settles_a_short_probe_on_one_thread),
	    cmocka_unit_test(kernels_split_keeps_small_files_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
