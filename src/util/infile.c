/* gzip-transparent sequential reads through zlib's gz* interface, which
 * passes non-gzip files through unchanged (gzdirect). */
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

struct impl {
	gzFile gz;
	int truncated;
};

int infile_open(struct infile *f, const char *path, struct err *e)
{
	struct impl *im;
	struct stat st;
	unsigned char magic[2];
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ERR_INPUT, "%s: cannot open: %s", path,
		               strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, ERR_INPUT, "%s: not a regular file", path);
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	f->size = (int64_t)st.st_size;
	f->gz =
	    pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	im = xcalloc(1, sizeof(*im));
	im->gz = gzdopen(fd, "rb");
	if (!im->gz) {
		close(fd);
		free(im);
		return err_set(e, ERR_INPUT, "%s: cannot open: out of memory",
		               path);
	}
	gzbuffer(im->gz, 1 << 17);
	f->impl = im;
	return 0;
}

ssize_t infile_read(struct infile *f, void *buf, size_t n, struct err *e)
{
	struct impl *im = f->impl;
	int got, errnum;
	const char *msg;

	if (n > (1u << 30))
		n = 1u << 30;
	got = gzread(im->gz, buf, (unsigned)n);
	if (got >= 0) {
		if (got == 0) {
			/* a truncated stream ends with Z_BUF_ERROR recorded
			 * ("unexpected end of file"), even at EOF */
			msg = gzerror(im->gz, &errnum);
			if (errnum != Z_OK)
				goto fail;
		}
		f->offset += (uint64_t)got;
		return got;
	}
	msg = gzerror(im->gz, &errnum);
fail:
	if (errnum == Z_BUF_ERROR)
		im->truncated = 1;
	if (errnum == Z_ERRNO)
		msg = strerror(errno);
	err_set(e, ERR_INPUT, "%s: byte %llu (uncompressed): %s%s", f->path,
	        (unsigned long long)f->offset,
	        errnum == Z_BUF_ERROR ? "gzip data ends early (truncated "
	                                "file): "
	                              : "",
	        msg ? msg : "read failed");
	return -1;
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
		gzclose_r(im->gz);
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
