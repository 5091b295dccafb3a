/* Unit tests of util/infile: plain and gzip files read in chunks, gzip
 * errors placed exactly (the file's name, the compressed byte, the bytes
 * inflated before it). The gzip files are written with zlib here. */
#include "unit.h"

#include <unistd.h>
#include <zlib.h>

#include "util/fileio.h"
#include "util/infile.h"
#include "util/strbuf.h"

struct dir {
	char path[512];
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	unit_tmpdir(d->path, sizeof(d->path));
	*state = d;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;

	unit_rmtree(d->path);
	free(d);
	return 0;
}

#define TD(f) cmocka_unit_test_setup_teardown(f, dir_setup, dir_teardown)

/* Writes text gzip-compressed to path (members: text written in that many
 * gzip members, one after the other); returns the file's size. */
static long write_gz(const char *path, const char *text, int members)
{
	FILE *f = fopen(path, "wb");
	size_t n = strlen(text), part = n / (size_t)members, at = 0;
	int m;

	assert_non_null(f);
	for (m = 0; m < members; m++) {
		size_t len = m == members - 1 ? n - at : part;
		unsigned char *out = malloc(len + 1024);
		z_stream z;
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
		                              Z_DEFAULT_STRATEGY),
		                 Z_OK);
		z.next_in = (unsigned char *)text + at;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)(len + 1024);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		fwrite(out, 1, len + 1024 - z.avail_out, f);
		deflateEnd(&z);
		free(out);
		at += len;
	}
	fclose(f);
	return (long)fileio_size(path);
}

/* Reads the whole file through infile in small chunks: the text read
 * into sb, the result of the last read returned, e set. */
static ssize_t read_all(const char *path, struct strbuf *sb, struct err *e)
{
	struct infile f;
	char buf[100];
	ssize_t n;

	strbuf_reset(sb);
	if (infile_open(&f, path, e))
		return -2;
	while ((n = infile_read(&f, buf, sizeof(buf), e)) > 0)
		strbuf_add(sb, buf, (size_t)n);
	infile_close(&f);
	return n;
}

static void infile_reads_gzip_members_and_plain_files(void **state)
{
	struct dir *d = *state;
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *text = "Name,Type\nMatMulV3,MatMulV3\nAdd,Add\n";
	char path[600];

	unit_join(path, sizeof(path), d->path, "one.gz");
	write_gz(path, text, 1);
	assert_int_equal(read_all(path, &sb, &e), 0);
	assert_string_equal(sb.buf, text);
	unit_join(path, sizeof(path), d->path, "three.gz");
	write_gz(path, text, 3);
	assert_int_equal(read_all(path, &sb, &e), 0);
	assert_string_equal(sb.buf, text);
	unit_join(path, sizeof(path), d->path, "plain.csv");
	unit_write(path, text, strlen(text));
	assert_int_equal(read_all(path, &sb, &e), 0);
	assert_string_equal(sb.buf, text);
	assert_int_equal(e.code, ERR_NONE);
	strbuf_release(&sb);
}

/* A bad CRC is found at the trailer: all the data is delivered first,
 * then the error names the file, the compressed byte and the count. */
static void infile_places_a_bad_crc(void **state)
{
	struct dir *d = *state;
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;
	struct err e = ERR_INIT;
	char path[600], want[900];
	unsigned char b;
	long size;
	FILE *f;
	int i;

	for (i = 0; i < 2000; i++)
		strbuf_addf(&text, "%d,MatMulV3,AI_CORE,%d\n", i, i * 7);
	unit_join(path, sizeof(path), d->path, "crc.gz");
	size = write_gz(path, text.buf, 1);
	f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, size - 8, SEEK_SET); /* the CRC-32 of the trailer */
	b = (unsigned char)fgetc(f);
	fseek(f, size - 8, SEEK_SET);
	fputc(b ^ 0xFF, f);
	fclose(f);
	assert_int_equal(read_all(path, &sb, &e), -1);
	assert_int_equal(sb.len, text.len);
	snprintf(want, sizeof(want),
	         "%s: corrupt gzip data at compressed byte %ld of %ld, after "
	         "%zu bytes inflated: incorrect data check (the CRC-32",
	         path, size - 4, size, text.len);
	assert_memory_equal(e.msg, want, strlen(want));
	strbuf_release(&sb);
	strbuf_release(&text);
}

static void infile_places_a_cut_gzip_file(void **state)
{
	struct dir *d = *state;
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct infile f;
	char path[600];
	int i;

	for (i = 0; i < 20000; i++)
		strbuf_addf(&text, "%d,%d\n", i * 31, i * 17);
	unit_join(path, sizeof(path), d->path, "cut.gz");
	write_gz(path, text.buf, 1);
	assert_int_equal(truncate(path, 3000), 0);
	assert_int_equal(read_all(path, &sb, &e), -1);
	assert_true(sb.len > 0 && sb.len < text.len);
	assert_memory_equal(sb.buf, text.buf, sb.len);
	assert_non_null(strstr(e.msg, "gzip data ends early (truncated file) "
	                              "at compressed byte 3000"));
	/* the flag the trace reader reads */
	err_clear(&e);
	assert_int_equal(infile_open(&f, path, &e), 0);
	while (infile_read(&f, sb.buf, 64, &e) > 0)
		;
	assert_true(infile_truncated(&f));
	infile_close(&f);
	strbuf_release(&sb);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TD(infile_reads_gzip_members_and_plain_files),
	    TD(infile_places_a_bad_crc),
	    TD(infile_places_a_cut_gzip_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
