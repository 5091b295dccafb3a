/* File helpers: directory creation, small reads, paths. */
#include "util/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/banned.h"
#include "util/xalloc.h"

int fileio_mkdirs(const char *path, struct err *e)
{
	char *p, *s;
	int ret = 0;

	if (!*path)
		return err_set(e, ERR_OUTPUT, "empty output directory name");
	p = xstrdup(path);
	for (s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			ret = err_set(e, ERR_OUTPUT,
			              "%s: cannot create directory: %s", p,
			              strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	if (!ret && fileio_kind(path) != 1)
		ret = err_set(e, ERR_OUTPUT, "%s: not a directory", path);
	free(p);
	return ret;
}

/* What a path that is not a regular file is, for the message. */
static const char *kind_name(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
	                     : "not a plain file";
}

/* Opens path read-only without waiting: O_NONBLOCK, so that a FIFO with
 * no writer (or one swapped in after discovery's lstat) cannot hang the
 * open. *st is the descriptor's own (so what is read is the file that was
 * checked: no stat-then-open race; st_mode 0 when fstat fails); a regular
 * file's descriptor is made blocking again. The fd, or -1 with e set. */
static int open_nowait(const char *path, struct stat *st, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return err_set(e, ERR_INPUT, "%s: cannot open: %s", path,
		               strerror(errno));
	if (fstat(fd, st))
		memset(st, 0, sizeof(*st));
	if (S_ISREG(st->st_mode))
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int fileio_open_regular(const char *path, int64_t *size, struct err *e)
{
	struct stat st;
	int fd = open_nowait(path, &st, e);

	if (fd < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, ERR_INPUT, "%s: not a regular file", path);
	}
	*size = (int64_t)st.st_size;
	return fd;
}

int fileio_read_small(const char *path, size_t max, struct strbuf *sb,
                      struct err *e)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	int ret = 0, fd = open_nowait(path, &st, e);

	if (fd < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, ERR_INPUT, "%s: not a regular file (%s)",
		               path, kind_name(st.st_mode));
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return err_set(e, ERR_INPUT,
		               "%s: file too large (limit %zu bytes)", path,
		               max);
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = err_set(e, ERR_INPUT, "%s: read failed: %s", path,
			              strerror(errno));
			break;
		}
		if (sb->len + (size_t)n > max) {
			ret = err_set(e, ERR_INPUT,
			              "%s: file too large (limit %zu bytes)",
			              path, max);
			break;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return ret;
}

int fileio_kind(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return -1;
	if (S_ISDIR(st.st_mode))
		return 1;
	if (S_ISREG(st.st_mode))
		return 0;
	errno = EINVAL;
	return -1;
}

int64_t fileio_size(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return -1;
	return (int64_t)st.st_size;
}

char *fileio_join(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	strbuf_add(&sb, a, la);
	if (!(la == 1 && a[0] == '/'))
		strbuf_addch(&sb, '/');
	while (*b == '/')
		b++;
	strbuf_adds(&sb, b);
	return strbuf_detach(&sb, NULL);
}

/* A temporary name beside path that no other writer picks: the process
 * id and a counter (tasks of a job array may write into one folder). */
static char *tmp_name(const char *path)
{
	static unsigned counter;
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;

	return xstrfmt("%.*s.%s.tmp.%ld.%u", (int)dirlen, path, path + dirlen,
	               (long)getpid(), counter++);
}

static int write_fd(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fileio_write_atomic(const char *path, const void *data, size_t len,
                        struct err *e)
{
	char *tmp = tmp_name(path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	              0644);
	int ret = 0, why = 0;

	if (fd < 0) {
		ret = err_set(e, ERR_OUTPUT, "%s: cannot create: %s", tmp,
		              strerror(errno));
		goto out;
	}
	errno = 0;
	if (write_fd(fd, data, len) || fsync(fd))
		why = errno ? errno : EIO;
	if (close(fd) && !why)
		why = errno;
	if (!why && rename(tmp, path))
		why = errno;
	if (why) {
		unlink(tmp);
		ret = err_set(e, ERR_OUTPUT, "%s: cannot write: %s", path,
		              strerror(why));
	}
out:
	free(tmp);
	return ret;
}
