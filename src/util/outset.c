/* Report sets published all or nothing. Every file is rendered first,
 * then written under a temporary name nobody can predict (so a symlink
 * planted in a shared folder is never followed), flushed, and only then
 * renamed into place, each previous file swapped out so that a failure
 * half-way can put it back. A lock serialises runs into one folder; signal
 * handlers remove the temporary files of a run that is killed. */
#define _GNU_SOURCE /* renameat2, flock, getrandom */
#include "util/outset.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define LOCK_NAME  ".sdperf.lock"
#define NAME_TRIES 100

enum state {
	WRITTEN,  /* the new file is under tmp */
	SWAPPED,  /* new under name, the previous file under tmp */
	MOVED,    /* new under name, there was no previous file */
	REPLACED, /* new under name, the previous file is gone */
};

struct member {
	char *name;             /* final name */
	char tmp[NAME_MAX + 1]; /* temporary name */
	enum state state;
};

static const int CAUGHT[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
enum { NCAUGHT = sizeof(CAUGHT) / sizeof(CAUGHT[0]) };

struct outset {
	char *dir;
	char *shown; /* dir as the waiting note names it */
	int dirfd, lockfd;
	size_t n;
	struct member m[OUTSET_MAX];
	struct sigaction old[NCAUGHT];
};

/* What the signal handler removes: the temporary names of the open set.
 * A slot's name is complete before its flag is set (the fence keeps the
 * compiler from reordering), so the handler never reads half a name. */
static struct {
	volatile sig_atomic_t dirfd;
	volatile sig_atomic_t used[OUTSET_MAX];
	char name[OUTSET_MAX][NAME_MAX + 1];
} reg = {-1, {0}, {{0}}};

static void on_signal(int sig)
{
	int saved = errno;
	size_t i;

	for (i = 0; i < OUTSET_MAX; i++)
		if (reg.used[i])
			unlinkat(reg.dirfd, reg.name[i], 0);
	errno = saved;
	/* SA_RESETHAND restored the default action: the signal, held
	 * until this handler returns, then ends the process as it would
	 * have without us */
	raise(sig);
}

static void reg_set(size_t i, const char *name)
{
	memcpy(reg.name[i], name, strlen(name) + 1);
	atomic_signal_fence(memory_order_seq_cst);
	reg.used[i] = 1;
}

static void reg_clear(size_t i)
{
	reg.used[i] = 0;
	atomic_signal_fence(memory_order_seq_cst);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&set, CAUGHT[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void install_handlers(struct outset *s)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&sa.sa_mask, CAUGHT[i]);
	for (i = 0; i < NCAUGHT; i++) {
		sigaction(CAUGHT[i], NULL, &s->old[i]);
		/* a signal ignored when we started (nohup, a background
		 * job's SIGINT) stays ignored */
		if (s->old[i].sa_handler == SIG_IGN)
			continue;
		/* a write past RLIMIT_FSIZE then fails with EFBIG: an
		 * ordinary write error that keeps the previous set */
		sa.sa_handler = CAUGHT[i] == SIGXFSZ ? SIG_IGN : on_signal;
		sa.sa_flags = CAUGHT[i] == SIGXFSZ ? 0 : SA_RESETHAND;
		sigaction(CAUGHT[i], &sa, NULL);
	}
}

static void restore_handlers(struct outset *s)
{
	size_t i;

	for (i = 0; i < NCAUGHT; i++)
		sigaction(CAUGHT[i], &s->old[i], NULL);
}

/* Takes the folder's lock, waiting for another run that holds it. A lock
 * file planted as a symlink or a FIFO is refused (O_NOFOLLOW, O_NONBLOCK,
 * then S_ISREG), never followed. */
static int take_lock(struct outset *s, int quiet, struct err *e)
{
	int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat st;

	s->lockfd = openat(s->dirfd, LOCK_NAME, flags | O_CREAT, 0644);
	if (s->lockfd < 0 && errno == EACCES)
		/* another user's lock file in a sticky folder (Linux's
		 * protected_regular refuses O_CREAT on it) */
		s->lockfd = openat(s->dirfd, LOCK_NAME, flags);
	if (s->lockfd < 0)
		return err_set(e, ERR_OUTPUT, "%s/%s: cannot open the lock: %s",
		               s->dir, LOCK_NAME,
		               errno == ELOOP ? "it is a symbolic link"
		                              : strerror(errno));
	if (fstat(s->lockfd, &st) || !S_ISREG(st.st_mode))
		return err_set(e, ERR_OUTPUT,
		               "%s/%s: the lock is not a regular file", s->dir,
		               LOCK_NAME);
	if (!flock(s->lockfd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno == EWOULDBLOCK && !quiet) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_add_sanitized(&sb, s->shown, strlen(s->shown));
		fprintf(stderr,
		        "sdperf: waiting for another sdperf run writing to "
		        "%s\n",
		        sb.buf);
		strbuf_release(&sb);
	}
	while (flock(s->lockfd, LOCK_EX))
		if (errno != EINTR)
			return err_set(e, ERR_OUTPUT, "%s/%s: cannot lock: %s",
			               s->dir, LOCK_NAME, strerror(errno));
	return 0;
}

int outset_open(struct outset **out, const char *dir, int quiet, struct err *e)
{
	return outset_open_as(out, dir, dir, quiet, e);
}

int outset_open_as(struct outset **out, const char *dir, const char *shown,
                   int quiet, struct err *e)
{
	struct outset *s = xcalloc(1, sizeof(*s));

	*out = s;
	s->dir = xstrdup(dir);
	s->shown = xstrdup(shown);
	s->dirfd = s->lockfd = -1;
	if (reg.dirfd >= 0)
		return err_set(e, ERR_INTERNAL, "two report sets open at once");
	if (fileio_mkdirs(dir, e))
		return -1;
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return err_set(e, ERR_OUTPUT, "%s: cannot open: %s", dir,
		               strerror(errno));
	if (take_lock(s, quiet, e))
		return -1;
	reg.dirfd = s->dirfd;
	install_handlers(s);
	return 0;
}

/* Ten characters from the kernel's random source, so that nobody can
 * plant a file or symlink under the name in advance; O_EXCL makes a
 * guess that hits harmless anyway. */
static void random_suffix(char *out, size_t n)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                          "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long counter;
	unsigned char r[16];
	size_t i;

	if (getrandom(r, n, 0) != (ssize_t)n) {
		/* no entropy source: still unique; O_EXCL still refuses */
		struct timespec ts;
		unsigned long x;
		clock_gettime(CLOCK_REALTIME, &ts);
		x = (unsigned long)ts.tv_nsec ^
		    ((unsigned long)getpid() << 16) ^ ++counter * 2654435761ul;
		for (i = 0; i < n; i++, x = x * 6364136223846793005ul + 1)
			r[i] = (unsigned char)(x >> 33);
	}
	for (i = 0; i < n; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[n] = '\0';
}

/* Creates the temporary file of member i; the signals are held off from
 * its creation until its name is registered, so a signal in between
 * cannot leave it behind. */
static int create_tmp(struct outset *s, size_t i, struct err *e)
{
	struct member *m = &s->m[i];
	char suffix[11];
	sigset_t old;
	int fd = -1, tries, err = EEXIST;

	for (tries = 0; tries < NAME_TRIES && fd < 0 && err == EEXIST;
	     tries++) {
		random_suffix(suffix, 10);
		if ((size_t)snprintf(m->tmp, sizeof(m->tmp), ".%s.tmp.%s",
		                     m->name, suffix) >= sizeof(m->tmp))
			return err_set(e, ERR_OUTPUT, "%s/%s: name too long",
			               s->dir, m->name);
		block_signals(&old);
		fd = openat(
		    s->dirfd, m->tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		err = errno;
		if (fd >= 0)
			reg_set(i, m->tmp);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (fd < 0)
		err_set(e, ERR_OUTPUT,
		        "%s: cannot create a temporary file for %s: %s", s->dir,
		        m->name, strerror(err));
	return fd;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The test hook's pause (OUTSET_DELAY_ENV). */
static void test_delay(void)
{
	const char *env = getenv(OUTSET_DELAY_ENV);
	struct timespec ts;
	long ms;
	char *end;

	if (!env || !*env)
		return;
	ms = strtol(env, &end, 10);
	if (*end || ms <= 0 || ms > 10000)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int outset_add(struct outset *s, const char *name, const void *data, size_t len,
               struct err *e)
{
	struct member *m;
	int fd;

	if (s->n >= OUTSET_MAX)
		return err_set(e, ERR_INTERNAL, "too many files in one set");
	m = &s->m[s->n];
	m->name = xstrdup(name);
	m->state = WRITTEN;
	s->n++;
	fd = create_tmp(s, s->n - 1, e);
	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) || fsync(fd)) {
		err_set(e, ERR_OUTPUT, "%s/%s: write failed: %s", s->dir, name,
		        strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd))
		return err_set(e, ERR_OUTPUT, "%s/%s: write failed: %s", s->dir,
		               name, strerror(errno));
	test_delay();
	return 0;
}

/* Puts member m's new file under its final name, the previous one (if
 * any) under the temporary name. Only a regular file or a symlink is
 * replaced: a directory or a device in the way is an error. */
static int place(struct outset *s, size_t i)
{
	struct member *m = &s->m[i];
	struct stat st;

	if (fstatat(s->dirfd, m->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return -1;
		if (renameat(s->dirfd, m->tmp, s->dirfd, m->name))
			return -1;
		m->state = MOVED;
		reg_clear(i); /* the temporary name is free again */
		return 0;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
		return -1;
	}
	if (!renameat2(s->dirfd, m->tmp, s->dirfd, m->name, RENAME_EXCHANGE)) {
		m->state = SWAPPED;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* no RENAME_EXCHANGE here: replace, and the previous file is lost */
	if (renameat(s->dirfd, m->tmp, s->dirfd, m->name))
		return -1;
	m->state = REPLACED;
	reg_clear(i);
	return 0;
}

/* Undoes place() for members [0, k); the names that could not be
 * restored are listed in lost. */
static void roll_back(struct outset *s, size_t k, struct strbuf *lost)
{
	while (k--) {
		struct member *m = &s->m[k];
		int bad = 0;
		if (m->state == SWAPPED)
			bad = renameat2(s->dirfd, m->tmp, s->dirfd, m->name,
			                RENAME_EXCHANGE) != 0;
		else if (m->state == MOVED)
			bad = unlinkat(s->dirfd, m->name, 0) != 0;
		else if (m->state == REPLACED)
			bad = 1;
		if (bad)
			strbuf_addf(lost, "%s%s", lost->len ? ", " : "",
			            m->name);
		else
			m->state = WRITTEN;
	}
}

static int commit_failed(struct outset *s, size_t k, int errnum, struct err *e)
{
	struct strbuf lost = STRBUF_INIT;

	roll_back(s, k, &lost);
	if (lost.len)
		err_set(e, ERR_OUTPUT,
		        "%s/%s: cannot rename into place: %s; the previous "
		        "reports could not all be restored: %s %s from this "
		        "run",
		        s->dir, s->m[k].name, strerror(errnum), lost.buf,
		        strchr(lost.buf, ',') ? "are" : "is");
	else
		err_set(e, ERR_OUTPUT,
		        "%s/%s: cannot rename into place: %s (the previous "
		        "reports are left as they were)",
		        s->dir, s->m[k].name, strerror(errnum));
	strbuf_release(&lost);
	return -1;
}

int outset_commit(struct outset *s, struct err *e)
{
	sigset_t old;
	size_t i;
	int ret = 0;

	block_signals(&old);
	for (i = 0; i < s->n; i++)
		if (place(s, i)) {
			ret = commit_failed(s, i, errno, e);
			break;
		}
	if (!ret) {
		/* the temporary names now hold the previous files */
		for (i = 0; i < s->n; i++) {
			if (s->m[i].state == SWAPPED)
				unlinkat(s->dirfd, s->m[i].tmp, 0);
			reg_clear(i);
		}
		fsync(s->dirfd);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void outset_free(struct outset *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		if (reg.used[i]) {
			unlinkat(s->dirfd, s->m[i].tmp, 0);
			reg_clear(i);
		}
		free(s->m[i].name);
	}
	if (reg.dirfd == s->dirfd && s->dirfd >= 0) {
		restore_handlers(s);
		reg.dirfd = -1;
	}
	if (s->lockfd >= 0)
		close(s->lockfd);
	if (s->dirfd >= 0)
		close(s->dirfd);
	free(s->dir);
	free(s->shown);
	free(s);
}
