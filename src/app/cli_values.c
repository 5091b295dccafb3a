/* Option values checked before any input is read (contract in
 * cli_opts.h): a mistyped value is a usage error (exit 2) at once, not
 * after a long analysis, and never silently ignored. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/rules.h"
#include "app/cli.h"
#include "app/cli_opts.h"
#include "format/pdf/fontcheck.h"
#include "util/fileio.h"
#include "view/i18n.h"
#include "util/banned.h"

/* bytes of a value quoted in a message: the reason must still fit */
#define QUOTE_MAX 200

/* "OPT 'VALUE': reason", the value shortened and shown safely. */
static int bad_value(struct err *e, const char *opt, const char *val,
                     const char *reason)
{
	struct strbuf q = STRBUF_INIT;

	strbuf_add_quoted_value(&q, val, strlen(val), QUOTE_MAX);
	err_set(e, ERR_USAGE, "%s %s: %s", opt, q.buf, reason);
	strbuf_release(&q);
	return -1;
}

int cli_value_format(const char *list, unsigned *out, struct err *e)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {{"json", FORMAT_JSON}, {"html", FORMAT_HTML},
	             {"md", FORMAT_MD},     {"markdown", FORMAT_MD},
	             {"pdf", FORMAT_PDF},   {"fragment", FORMAT_FRAGMENT}};
	const char *p = list;
	size_t i, n;

	*out = 0;
	while (*p) {
		n = strcspn(p, ",");
		for (i = 0; i < sizeof(names) / sizeof(*names); i++)
			if (strlen(names[i].name) == n &&
			    !strncmp(names[i].name, p, n))
				break;
		if (i == sizeof(names) / sizeof(*names))
			return err_set(
			    e, ERR_USAGE,
			    "--format: unknown or unavailable format "
			    "'%.*s' (available: html, pdf, md, json, fragment)",
			    (int)(n > QUOTE_MAX ? QUOTE_MAX : n), p);
		*out |= names[i].bit;
		p += n + (p[n] == ',');
	}
	if (!*out)
		return err_set(e, ERR_USAGE, "--format: empty list");
	return 0;
}

int cli_value_jobs(const char *val, int *out, struct err *e)
{
	long n = 0;
	const char *p = val;

	while (*p >= '0' && *p <= '9' && n <= 1024)
		n = n * 10 + (*p++ - '0');
	if (p == val || *p || n < 1 || n > 1024)
		return err_set(e, ERR_USAGE,
		               "--jobs: expected a whole number from 1 to "
		               "1024, got '%.*s'",
		               QUOTE_MAX, val);
	*out = (int)n;
	return 0;
}

/* Digits with up to 3 decimals, in thousandths: -1 when not such, or
 * past 4096. */
static long thousandths(const char **p)
{
	long v = 0;
	int dec = -1;

	for (; (**p >= '0' && **p <= '9') || (**p == '.' && dec < 0); (*p)++) {
		if (**p == '.') {
			dec = 0;
			continue;
		}
		if (dec >= 3 || v > 4096000)
			return -1;
		v = v * 10 + (**p - '0');
		dec += dec >= 0;
	}
	for (dec = dec < 0 ? 0 : dec; dec < 3; dec++)
		v *= 10;
	return v;
}

int cli_value_device_memory(const char *val, double *gb, struct err *e)
{
	const char *p = val;
	long v = thousandths(&p);
	int ok = p != val && p[-1] != '.';

	if (ok && (!strcasecmp(p, "G") || !strcasecmp(p, "GB")))
		p += strlen(p);
	if (!ok || *p || v <= 0 || v > 4096000)
		return err_set(e, ERR_USAGE,
		               "--device-memory: expected the card's memory "
		               "in GB, above 0 and at most 4096 (e.g. 64 or "
		               "31.5), got '%.*s'",
		               QUOTE_MAX, val);
	*gb = (double)v / 1000.0;
	return 0;
}

/* The languages with a catalogue (view/i18n.h), not a list of our own. */
int cli_value_lang(const char *val, struct err *e)
{
	const char *const *l = i18n_languages();
	struct strbuf why = STRBUF_INIT;
	size_t i;

	for (i = 0; l[i]; i++)
		if (!strcmp(l[i], val))
			return 0;
	strbuf_adds(&why, "no such language (available: ");
	for (i = 0; l[i]; i++)
		strbuf_addf(&why, "%s%s", i ? ", " : "", l[i]);
	strbuf_addch(&why, ')');
	bad_value(e, "--lang", val, why.buf);
	strbuf_release(&why);
	return -1;
}

int cli_value_completion(const char *val, struct err *e)
{
	if (!strcmp(val, "bash"))
		return 0;
	return bad_value(e, "--completion", val,
	                 "no completion for this shell (available: bash)");
}

/* ---- checked once every option is known -------------------------------- */

void cli_threshold_names(struct strbuf *out)
{
	struct rules r;
	struct err e = ERR_INIT;
	size_t i;

	memset(&r, 0, sizeof(r));
	if (rules_load_builtin(&r, &e) == 0)
		for (i = 0; i < r.nth; i++)
			strbuf_addf(out, "%s%s", i ? " " : "", r.th[i].id);
	rules_release(&r);
}

static int builtin_threshold(const struct rules *r, const char *arg)
{
	size_t i, n = strcspn(arg, "=");

	for (i = 0; i < r->nth; i++)
		if (strlen(r->th[i].id) == n && !strncmp(r->th[i].id, arg, n))
			return 1;
	return 0;
}

/* Each --threshold against the built-in thresholds. With --rules, a name
 * the built-in rules lack may come from the file: it is checked when the
 * file is read (app/pipeline.c, before any profile). */
static int check_thresholds(const struct options *o, struct err *e)
{
	struct rules r;
	size_t i;
	int ret = 0;

	if (!o->nthresholds)
		return 0;
	memset(&r, 0, sizeof(r));
	if (rules_load_builtin(&r, e))
		return -1;
	for (i = 0; i < o->nthresholds && !ret; i++)
		if (!o->rules || !strchr(o->thresholds[i], '=') ||
		    builtin_threshold(&r, o->thresholds[i]))
			ret = rules_set_threshold(&r, o->thresholds[i], e);
	rules_release(&r);
	return ret;
}

/* A folder option must name a folder sdperf can read: a mistyped one
 * would silently give the built-in templates. */
static int check_dir(const char *opt, const char *dir, struct err *e)
{
	int kind = fileio_kind(dir);
	DIR *d;

	if (kind == 0 || (kind < 0 && errno == EINVAL))
		return bad_value(e, opt, dir, "not a directory");
	if (kind < 0)
		return bad_value(e, opt, dir,
		                 errno == ENOENT ? "no such directory"
		                                 : strerror(errno));
	d = opendir(dir);
	if (!d) {
		char why[256];
		snprintf(why, sizeof(why), "cannot read: %s", strerror(errno));
		return bad_value(e, opt, dir, why);
	}
	closedir(d);
	return 0;
}

/* A font file: a readable regular file; when a PDF is written, also one
 * libharu may read (the face format/pdf loads: the first of a .ttc). */
static int check_font(const char *opt, const char *path, int pdf, struct err *e)
{
	struct strbuf why = STRBUF_INIT;
	size_t n = strlen(path);
	int face = n > 4 && !strcmp(path + n - 4, ".ttc") ? 0 : -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	struct stat st;

	if (fd < 0)
		strbuf_adds(&why,
		            errno == ENOENT ? "no such file" : strerror(errno));
	else if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		strbuf_adds(&why, "not a regular file");
	else if (pdf) {
		strbuf_adds(&why, "not a usable TrueType font: ");
		ret = fontcheck_file(path, face, &why);
	} else
		ret = 0;
	if (fd >= 0)
		close(fd);
	if (ret)
		bad_value(e, opt, path, why.buf);
	strbuf_release(&why);
	return ret;
}

int cli_values_final(const struct options *o, struct err *e)
{
	int pdf = (o->cmd == CMD_REPORT || o->cmd == CMD_DIFF) &&
	          (o->formats & FORMAT_PDF);

	if (check_thresholds(o, e))
		return -1;
	if (o->templates_dir && check_dir("--templates", o->templates_dir, e))
		return -1;
	if (o->font && check_font("--font", o->font, pdf, e))
		return -1;
	if (o->cjk_font && check_font("--cjk-font", o->cjk_font, pdf, e))
		return -1;
	return 0;
}
