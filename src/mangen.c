/* Build-time tool, not installed: writes the man page sdperf(1) from its
 * hand-written roff source (docs/sdperf.1.in) and the option table.
 *   sdperf-mangen SOURCE OUT
 * In SOURCE, a line "@OPTIONS@" becomes the generated OPTIONS body
 * (cli_man_options), and "@VERSION@" and "@DATE@" anywhere become the
 * version and the date of the commit built, so the page changes only when
 * its source, the options or the commit do. Not built from git (a release
 * tarball), the date is SOURCE_DATE_EPOCH's, else SOURCE's modification
 * time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app/cli.h"
#include "gitrev.h" /* generated at build time by cmake/GitRev.cmake */
#include "util/err.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "version.h"
#include "util/banned.h"

#define SOURCE_MAX (1u << 20)

/* The page's date, YYYY-MM-DD, into buf (at least 11 bytes). */
static void page_date(const char *source, char *buf, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	struct stat st;
	struct tm tm;
	time_t t = 0;

	if (*SDPERF_GIT_DATE) {
		snprintf(buf, size, "%s", SDPERF_GIT_DATE);
		return;
	}
	if (epoch && *epoch)
		t = (time_t)strtoll(epoch, NULL, 10);
	else if (!stat(source, &st))
		t = st.st_mtime;
	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "1970-01-01");
}

/* line (without its '\n') into out, its @VERSION@ and @DATE@ replaced. */
static void add_line(const char *line, size_t n, const char *date,
                     struct strbuf *out)
{
	const struct {
		const char *token, *value;
	} subst[] = {{"@VERSION@", SDPERF_VERSION}, {"@DATE@", date}};
	size_t i = 0, k;

	while (i < n) {
		for (k = 0; k < sizeof(subst) / sizeof(subst[0]); k++) {
			size_t len = strlen(subst[k].token);
			if (n - i >= len &&
			    !memcmp(line + i, subst[k].token, len))
				break;
		}
		if (k < sizeof(subst) / sizeof(subst[0])) {
			strbuf_adds(out, subst[k].value);
			i += strlen(subst[k].token);
		} else
			strbuf_addch(out, line[i++]);
	}
	strbuf_addch(out, '\n');
}

static int write_file(const char *path, const struct strbuf *sb)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(sb->buf, 1, sb->len, f) == sb->len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char *line, *end, *nl;
	char date[32];
	int ret = 1;

	if (argc != 3) {
		fputs("usage: sdperf-mangen SOURCE OUT\n", stderr);
		return 2;
	}
	if (fileio_read_small(argv[1], SOURCE_MAX, &src, &e)) {
		fprintf(stderr, "sdperf-mangen: %s\n", e.msg);
		goto out;
	}
	page_date(argv[1], date, sizeof(date));
	end = src.buf + src.len;
	for (line = src.buf; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		if ((size_t)(nl - line) == strlen("@OPTIONS@") &&
		    !memcmp(line, "@OPTIONS@", (size_t)(nl - line)))
			cli_man_options(&out);
		else
			add_line(line, (size_t)(nl - line), date, &out);
	}
	if (write_file(argv[2], &out)) {
		perror(argv[2]);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&src);
	strbuf_release(&out);
	return ret;
}
