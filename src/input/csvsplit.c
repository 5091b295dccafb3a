/* One CSV file on several threads. Why a boundary can be trusted: chunk 0
 * starts where the whole-file parse starts (after the header). If chunk k
 * starts right and its parser ends, after its last newline, between two
 * records, then chunk k + 1 starts exactly where the whole-file parser
 * would be, and so on by induction. So each chunk is parsed as if it
 * started between records, and afterwards every boundary is checked; one
 * that fails (a quoted field with a newline across it) voids the split.
 * No byte is scanned twice and no pass over the file runs alone. */
#include "input/csvsplit.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/progress.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define READ_CHUNK (1u << 20)
#define SCAN_STEP  (64u << 10) /* bytes read at once to find a line end */
#define SCAN_LIMIT (4u << 20)  /* bytes searched for one */

static ssize_t pread_full(int fd, char *buf, size_t n, uint64_t at)
{
	ssize_t got;

	do
		got = pread(fd, buf, n, (off_t)at);
	while (got < 0 && errno == EINTR);
	return got;
}

/* Reads the header with hdr; returns the offset just past the line that
 * ended it, or 0 when it did not end or failed. */
static uint64_t read_header(struct csvsplit *sp, struct csvread *hdr)
{
	char *buf = xmalloc(READ_CHUNK);
	uint64_t at = 0;
	ssize_t got;
	size_t used;

	while (hdr->in_header && !hdr->failed &&
	       (got = pread_full(sp->fd, buf, READ_CHUNK, at)) > 0) {
		used = csvread_feed_header(hdr, buf, (size_t)got);
		if (!used)
			break; /* a header line longer than the buffer: no split
			        */
		at += used;
	}
	free(buf);
	sp->hdr_lines = hdr->line;
	return hdr->in_header || hdr->failed ? 0 : at;
}

/* The offset just past the first newline at or after from, or 0 when
 * there is none within SCAN_LIMIT bytes (a file of few, huge lines is
 * not worth cutting, and is never scanned whole here). */
static uint64_t line_end_after(int fd, uint64_t from, uint64_t size)
{
	char buf[SCAN_STEP];
	const char *nl;
	ssize_t got;
	uint64_t stop = from + SCAN_LIMIT < size ? from + SCAN_LIMIT : size;

	while (from < stop &&
	       (got = pread_full(fd, buf, sizeof(buf), from)) > 0) {
		nl = memchr(buf, '\n', (size_t)got);
		if (nl)
			return from + (uint64_t)(nl - buf) + 1;
		from += (uint64_t)got;
	}
	return 0;
}

/* Cuts [start, size) into at most want chunks ending at line ends. */
static size_t cut(struct csvsplit *sp, uint64_t start, size_t want)
{
	uint64_t rows = sp->size - start, at;
	size_t k, n = 1;

	if (rows / CSVSPLIT_MIN_CHUNK < want)
		want = (size_t)(rows / CSVSPLIT_MIN_CHUNK);
	if (want < 2)
		return 0;
	sp->off = xcalloc(want + 1, sizeof(*sp->off));
	sp->off[0] = start;
	for (k = 1; k < want; k++) {
		/* from the byte before the nominal start: a newline there
		 * makes the nominal start a line start */
		at = line_end_after(sp->fd, start + rows * k / want - 1,
		                    sp->size);
		if (!at)
			return 0; /* a line of 4 MiB: read the file whole */
		if (at > sp->off[n - 1] && at < sp->size)
			sp->off[n++] = at;
	}
	sp->off[n] = sp->size;
	sp->n = n;
	return n >= 2 ? n : 0;
}

size_t csvsplit_open(struct csvsplit *sp, struct csvread *hdr, unsigned want)
{
	struct stat st;
	unsigned char magic[2];
	uint64_t start;

	memset(sp, 0, sizeof(*sp));
	sp->fd = -1;
	if (want < 2)
		return 0;
	sp->fd = open(hdr->name, O_RDONLY | O_CLOEXEC);
	if (sp->fd < 0 || fstat(sp->fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	sp->size = (uint64_t)st.st_size;
	if (pread_full(sp->fd, (char *)magic, 2, 0) == 2 && magic[0] == 0x1f &&
	    magic[1] == 0x8b)
		return 0; /* gzip: one stream, read from its start only */
	if (hdr->o->max_bytes && sp->size > hdr->o->max_bytes)
		return 0;
	hdr->size = (int64_t)sp->size;
	start = read_header(sp, hdr);
	if (!start)
		return 0;
	return cut(sp, start, want);
}

/* ---- the chunks' threads --------------------------------------------- */

struct job {
	struct csvsplit *sp;
	struct csvread *c;
	size_t k;
	int io_failed; /* a read error, or the file ended early */
	int end;       /* csvread_chunk_end's or csvread_finish's answer */
	struct progress *pg; /* chunk 0 only */
	void (*done)(struct csvread *c);
};

static void *run_chunk(void *arg)
{
	struct job *j = arg;
	struct csvsplit *sp = j->sp;
	int last = j->k + 1 == sp->n;
	uint64_t at = sp->off[j->k], to = sp->off[j->k + 1];
	char *buf = xmalloc(READ_CHUNK);
	size_t want;
	ssize_t got;

	while (!j->c->failed) {
		want = READ_CHUNK;
		if (!last && to - at < want)
			want = (size_t)(to - at);
		if (!want)
			break;
		got = pread_full(sp->fd, buf, want, at);
		if (got <= 0) {
			/* the last chunk reads to the end, as the whole-file
			 * read does; any other ends at its boundary */
			j->io_failed = got < 0 || !last;
			break;
		}
		at += (uint64_t)got;
		csvread_feed(j->c, buf, (size_t)got);
		if (j->pg) /* chunks are about equal: chunk 0 stands for all */
			progress_add(j->pg, got * (int64_t)sp->n);
	}
	free(buf);
	j->end = last ? csvread_finish(j->c) : csvread_chunk_end(j->c);
	if (j->done)
		j->done(j->c);
	return NULL;
}

static int verdict(const struct csvsplit *sp, const struct job *jobs)
{
	size_t k;
	int rc = 0;

	/* in file order: a chunk's failure counts only where every boundary
	 * before it held (otherwise it may have started inside a field) */
	for (k = 0; k < sp->n && !rc; k++)
		if (jobs[k].io_failed)
			rc = 1;
		else if (jobs[k].end)
			rc = jobs[k].end < 0 ? -1 : 1;
	return rc;
}

int csvsplit_run(struct csvsplit *sp, struct csvread **chunks,
                 void (*done)(struct csvread *c))
{
	struct job *jobs = xcalloc(sp->n, sizeof(*jobs));
	pthread_t *tid = xcalloc(sp->n, sizeof(*tid));
	char *started = xcalloc(sp->n, 1);
	struct progress pg;
	struct strbuf label = STRBUF_INIT;
	size_t k;
	int rc;

	strbuf_addf(&label, "reading %s", chunks[0]->o->what);
	progress_start(&pg, label.buf, (int64_t)sp->size,
	               chunks[0]->o->progress);
	for (k = 0; k < sp->n; k++) {
		jobs[k] =
		    (struct job){sp, chunks[k], k, 0, 0, k ? NULL : &pg, done};
		if (k)
			started[k] =
			    !pthread_create(&tid[k], NULL, run_chunk, &jobs[k]);
	}
	run_chunk(&jobs[0]);
	for (k = 1; k < sp->n; k++)
		if (started[k])
			pthread_join(tid[k], NULL);
		else
			run_chunk(&jobs[k]); /* no thread: read it here */
	progress_stop(&pg);
	rc = verdict(sp, jobs);
	/* the first data row must not be mistaken: chunk 0 kept TABs for the
	 * first keep_tabs rows; the next chunk must lie beyond them */
	if (!rc && chunks[0]->rows < chunks[0]->o->keep_tabs)
		rc = 1;
	sp->first_line = xcalloc(sp->n, sizeof(*sp->first_line));
	sp->first_line[0] = sp->hdr_lines;
	for (k = 1; k < sp->n; k++)
		sp->first_line[k] = sp->first_line[k - 1] + chunks[k - 1]->line;
	strbuf_release(&label);
	free(started);
	free(tid);
	free(jobs);
	return rc;
}

void csvsplit_close(struct csvsplit *sp)
{
	if (sp->fd >= 0)
		close(sp->fd);
	free(sp->off);
	free(sp->first_line);
	memset(sp, 0, sizeof(*sp));
	sp->fd = -1;
}
