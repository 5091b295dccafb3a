/* gzip-transparent sequential reads: zlib's inflate driven directly (not
 * its gz* interface), so that an error is placed exactly: the compressed
 * byte where inflate stopped and the uncompressed bytes delivered before
 * it, with the file's own name. */
#include "util/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/banned.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define IN_CHUNK (1u << 17)

struct impl {
	int fd;
	z_stream zs;
	unsigned char *in;
	uint64_t read_in; /* compressed bytes read from the file */
	int in_eof;       /* the file has no more bytes */
	int done;         /* the last gzip member ended */
	int pending;      /* an error found after data was delivered */
	int truncated;
};

int infile_open(struct infile *f, const char *path, struct err *e)
{
	struct impl *im;
	unsigned char magic[2];
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = path;
	fd = fileio_open_regular(path, &f->size, e);
	if (fd < 0)
		return -1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	f->gz =
	    pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	im = xcalloc(1, sizeof(*im));
	im->fd = fd;
	if (f->gz) {
		/* 15 + 16: a gzip header and trailer around the deflate data */
		if (inflateInit2(&im->zs, 15 + 16) != Z_OK) {
			close(fd);
			free(im);
			return err_set(e, ERR_INPUT,
			               "%s: cannot open: out of memory", path);
		}
		im->in = xmalloc(IN_CHUNK);
	}
	f->impl = im;
	return 0;
}

static ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Refills the input buffer when it is empty; -1 on a read error. */
static int fill(struct impl *im)
{
	ssize_t r;

	if (im->zs.avail_in || im->in_eof)
		return 0;
	r = read_some(im->fd, im->in, IN_CHUNK);
	if (r < 0)
		return -1;
	im->in_eof = r == 0;
	im->zs.next_in = im->in;
	im->zs.avail_in = (uInt)r;
	im->read_in += (uint64_t)r;
	return 0;
}

/* After a gzip member: another member follows (gzip allows several), or
 * the data ends; bytes after the last member are ignored, as gzip and
 * zlib's gz* functions do. */
static int next_member(struct impl *im)
{
	if (fill(im))
		return -1;
	if (im->zs.avail_in >= 2 && im->zs.next_in[0] == 0x1f &&
	    im->zs.next_in[1] == 0x8b)
		return inflateReset(&im->zs) == Z_OK ? 0 : -1;
	im->done = 1;
	return 0;
}

static int fail(struct infile *f, struct impl *im, int zret, struct err *e)
{
	uint64_t at = im->read_in - im->zs.avail_in;

	if (zret == Z_ERRNO)
		return err_set(e, ERR_INPUT, "%s: read failed: %s", f->path,
		               strerror(errno));
	if (zret == Z_BUF_ERROR) {
		/* the file ended inside a gzip member */
		im->truncated = 1;
		return err_set(e, ERR_INPUT,
		               "%s: byte %llu (uncompressed): gzip data ends "
		               "early (truncated file) at compressed byte %llu",
		               f->path, (unsigned long long)f->offset,
		               (unsigned long long)at);
	}
	return err_set(
	    e, ERR_INPUT,
	    "%s: corrupt gzip data at compressed byte %llu of %lld, after %llu "
	    "bytes inflated: %s%s",
	    f->path, (unsigned long long)at, (long long)f->size,
	    (unsigned long long)f->offset,
	    im->zs.msg            ? im->zs.msg
	    : zret == Z_MEM_ERROR ? "out of memory"
	                          : "inflate failed",
	    zret == Z_DATA_ERROR && im->zs.msg &&
	            !strcmp(im->zs.msg, "incorrect data check")
	        ? " (the CRC-32 in the gzip trailer does not match the data: "
	          "the file is damaged)"
	        : "");
}

/* Inflates into buf; the count, or -1 with *zret the zlib error. */
static ssize_t inflate_some(struct impl *im, void *buf, size_t n, int *zret)
{
	int r;

	im->zs.next_out = buf;
	im->zs.avail_out = (uInt)n;
	while (im->zs.avail_out && !im->done) {
		if (fill(im)) {
			*zret = Z_ERRNO;
			break;
		}
		r = inflate(&im->zs, Z_NO_FLUSH);
		if (r == Z_STREAM_END) {
			if (next_member(im)) {
				*zret = Z_ERRNO;
				break;
			}
			continue;
		}
		if (r == Z_BUF_ERROR && im->in_eof && !im->zs.avail_in) {
			*zret = Z_BUF_ERROR;
			break;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			*zret = r;
			break;
		}
	}
	return (ssize_t)(n - im->zs.avail_out);
}

ssize_t infile_read(struct infile *f, void *buf, size_t n, struct err *e)
{
	struct impl *im = f->impl;
	ssize_t got;
	int zret = Z_OK;

	if (n > (1u << 30))
		n = 1u << 30;
	if (!f->gz) {
		got = read_some(im->fd, buf, n);
		if (got < 0)
			return err_set(e, ERR_INPUT, "%s: read failed: %s",
			               f->path, strerror(errno));
		f->offset += (uint64_t)got;
		return got;
	}
	if (im->pending)
		return fail(f, im, im->pending, e);
	got = inflate_some(im, buf, n, &zret);
	if (zret != Z_OK && got == 0)
		return fail(f, im, zret, e);
	/* the data before the error first; the error at the next read, at
	 * the exact offset */
	im->pending = zret != Z_OK ? zret : 0;
	f->offset += (uint64_t)got;
	return got;
}

int infile_truncated(const struct infile *f)
{
	const struct impl *im = f->impl;
	return im && im->truncated;
}

void infile_close(struct infile *f)
{
	struct impl *im = f->impl;
	if (im) {
		if (f->gz)
			inflateEnd(&im->zs);
		close(im->fd);
		free(im->in);
		free(im);
	}
	memset(f, 0, sizeof(*f));
}

int infile_slurp(const char *path, size_t max, const char *what,
                 struct strbuf *out, struct infile *f, struct err *e)
{
	enum { CHUNK = 1 << 20 };
	ssize_t n;
	int64_t size;
	int ret = -1, gz;

	if (infile_open(f, path, e))
		return -1;
	for (;;) {
		strbuf_grow(out, CHUNK);
		n = infile_read(f, out->buf + out->len, CHUNK, e);
		if (n <= 0)
			break;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (out->len > max) {
			err_set(
			    e, ERR_INPUT,
			    "%s: larger than %zu MiB uncompressed (the limit "
			    "for %s)",
			    path, max >> 20, what);
			goto out;
		}
	}
	ret = n == 0 ? 0 : -1;
out:
	size = f->size;
	gz = f->gz;
	infile_close(f);
	f->size = size; /* what the caller wants to know of the file */
	f->gz = gz;
	return ret;
}

char *infile_resolve(const char *path)
{
	char *gz;

	if (fileio_kind(path) == 0)
		return xstrdup(path);
	gz = xstrfmt("%s.gz", path);
	if (fileio_kind(gz) == 0)
		return gz;
	free(gz);
	return NULL;
}

struct libversion infile_zlib_version(void)
{
	struct libversion v = {"zlib", ZLIB_VERSION, zlibVersion()};
	return v;
}
