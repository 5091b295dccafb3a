/* Branding: the config file (JSON, read with cJSON), the branding texts'
 * checks, and the logo. */
#include "app/brand.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/imgcheck.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The keys a config file may hold, and the option each stands for. */
static const struct {
	const char *key;
	size_t off; /* of the const char * in struct options */
} keys[] = {
    {"org", offsetof(struct options, org)},
    {"logo", offsetof(struct options, logo)},
    {"customer", offsetof(struct options, customer)},
    {"ticket", offsetof(struct options, ticket)},
    {"confidential", offsetof(struct options, confidential)},
};
enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };

static const char **field(struct options *o, size_t k)
{
	return (const char **)(void *)((char *)o + keys[k].off);
}

/* A string o owns (freed by cli_release). */
static const char *own(struct options *o, char *s)
{
	o->owned = xrealloc(o->owned, (o->nowned + 1) * sizeof(*o->owned));
	o->owned[o->nowned++] = s;
	return s;
}

static const char *json_type(const cJSON *v)
{
	return cJSON_IsNumber(v)   ? "a number"
	       : cJSON_IsBool(v)   ? "true/false"
	       : cJSON_IsNull(v)   ? "null"
	       : cJSON_IsArray(v)  ? "an array"
	       : cJSON_IsObject(v) ? "an object"
	                           : "not a string";
}

/* The path of a logo named in the file at cfg: relative to its folder. */
static char *logo_path(const char *cfg, const char *logo)
{
	const char *slash = strrchr(cfg, '/');
	char *dir, *p;

	if (logo[0] == '/' || !slash)
		return xstrdup(logo);
	dir = xstrndup(cfg, (size_t)(slash - cfg) + 1);
	p = fileio_join(dir, logo);
	free(dir);
	return p;
}

/* 1-based line and column of byte off in text[0..len). */
static void line_col(const char *text, size_t len, size_t off, size_t *line,
                     size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < len && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

static int apply_object(struct options *o, const char *path, const cJSON *root,
                        const unsigned char *given, struct err *e)
{
	unsigned char seen[NKEYS] = {0};
	const cJSON *v;
	size_t k;

	if (!cJSON_IsObject(root))
		return err_set(e, ERR_USAGE,
		               "%s: expected a JSON object of branding keys "
		               "(org, logo, customer, ticket, confidential)",
		               path);
	cJSON_ArrayForEach (v, root) {
		for (k = 0; k < NKEYS && strcmp(keys[k].key, v->string); k++)
			;
		if (k == NKEYS)
			return err_set(e, ERR_USAGE,
			               "%s: key '%s': unknown key (keys: org, "
			               "logo, customer, ticket, confidential)",
			               path, v->string);
		if (seen[k]++)
			return err_set(e, ERR_USAGE,
			               "%s: key '%s': given twice", path,
			               v->string);
		if (!cJSON_IsString(v))
			return err_set(
			    e, ERR_USAGE,
			    "%s: key '%s': expected a string, got %s", path,
			    v->string, json_type(v));
		if (given[k]) /* the command line wins */
			continue;
		*field(o, k) = own(o, k == 1 ? logo_path(path, v->valuestring)
		                             : xstrdup(v->valuestring));
		o->from_config[k] = 1;
	}
	return 0;
}

/* The config text[0..len) read from path, applied to o. */
static int apply_text(struct options *o, const char *path, const char *text,
                      size_t len, const unsigned char *given, struct err *e)
{
	const char *end = NULL;
	cJSON *root;
	size_t line, col;
	int ret = -1;

	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	/* one value, then nothing but white space */
	while (root && end && end < text + len && *end &&
	       strchr(" \t\r\n", *end))
		end++;
	if (root && end != text + len) {
		cJSON_Delete(root);
		root = NULL;
	}
	if (!root) {
		line_col(text, len, end ? (size_t)(end - text) : 0, &line,
		         &col);
		return err_set(e, ERR_USAGE, "%s:%zu:%zu: invalid JSON", path,
		               line, col);
	}
	ret = apply_object(o, path, root, given, e);
	if (!ret)
		o->config_used = own(o, xstrdup(path));
	cJSON_Delete(root);
	return ret;
}

static int read_config(struct options *o, const char *path,
                       const unsigned char *given, struct err *e)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (fileio_read_small(path, BRAND_CONFIG_MAX, &text, e)) {
		e->code = ERR_USAGE;
		ret = -1;
	} else
		ret = apply_text(o, path, text.buf ? text.buf : "", text.len,
		                 given, e);
	strbuf_release(&text);
	return ret;
}

/* One branding text: UTF-8, no control characters, not too long. where
 * names it ("--org", or "FILE: key 'org'"). */
static int check_text(const char *where, const char *s, struct err *e)
{
	size_t n = strlen(s), i;

	if (n > BRAND_TEXT_MAX)
		return err_set(e, ERR_USAGE, "%s: %zu bytes, at most %u", where,
		               n, BRAND_TEXT_MAX);
	if (!utf8_is_valid(s, n))
		return err_set(e, ERR_USAGE, "%s: not valid UTF-8", where);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return err_set(e, ERR_USAGE,
			               "%s: a control character (byte 0x%02x) "
			               "at byte %zu",
			               where, (unsigned)(unsigned char)s[i], i);
	return 0;
}

const char *brand_image_mime(const unsigned char *d, size_t n)
{
	enum img_kind k = img_sniff(d, n);

	return k == IMG_PNG ? "image/png" : k == IMG_JPEG ? "image/jpeg" : NULL;
}

/* What the PDF's one decode holds at its peak: libharu keeps the decoded
 * rows, a separate alpha mask and two compressed output streams; a
 * 2048x2048 RGBA logo (16 MiB decoded) peaked at about 36 MiB, so the
 * charge is 5/2 of the decoded size. */
static size_t logo_cost(const struct img_info *in)
{
	return in->decoded_bytes / 2 * 5;
}

/* Reads and checks the logo: a regular file of at most BRAND_LOGO_MAX
 * bytes, a PNG or JPEG whose structure and size (from its header, before
 * anything decodes it) img_check accepts (a PNG's image data inflated
 * without keeping its pixels, so that libpng cannot fail on it), its
 * decoded size charged to the budget. It is decoded once, by the PDF
 * (format/pdf/pdf_logo.c), which the charge covers; the HTML embeds its
 * bytes as they are. */
static int read_logo(struct options *o, const char *where, struct err *e)
{
	struct strbuf img = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct img_info info;
	int64_t size = fileio_size(o->logo);
	int ret = -1;

	if (fileio_kind(o->logo) < 0 && errno == ENOENT)
		strbuf_adds(&why, "no such file");
	else if (size > (int64_t)BRAND_LOGO_MAX)
		strbuf_addf(&why, "%lld bytes, at most %u (1 MiB)",
		            (long long)size, BRAND_LOGO_MAX);
	else if (fileio_read_small(o->logo, BRAND_LOGO_MAX, &img, e))
		strbuf_adds(&why, e->msg);
	else if (img_check((const unsigned char *)img.buf, img.len, &info,
	                   &why))
		;
	else if (membudget_charge(logo_cost(&info))) {
		err_clear(e);
		strbuf_release(&img);
		strbuf_release(&why);
		return membudget_fail(
		    e, logo_cost(&info), "%s '%s': %ux%u image", where, o->logo,
		    (unsigned)info.width, (unsigned)info.height);
	} else {
		o->logo_charged = logo_cost(&info);
		ret = 0;
	}
	if (ret) {
		err_clear(e);
		err_set(e, ERR_USAGE, "%s '%s': %s", where, o->logo, why.buf);
		strbuf_release(&img);
	} else {
		o->logo_mime =
		    brand_image_mime((const unsigned char *)img.buf, img.len);
		o->logo_len = img.len;
		o->logo_data = (unsigned char *)strbuf_detach(&img, NULL);
	}
	strbuf_release(&why);
	return ret;
}

/* The user's own config file: $XDG_CONFIG_HOME/sdperf/config.json (an
 * absolute XDG_CONFIG_HOME, as the XDG base directory specification
 * asks), else $HOME/.config/sdperf/config.json; NULL without either. */
static char *user_config(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return fileio_join(xdg, "sdperf/config.json");
	if (home && home[0])
		return fileio_join(home, ".config/sdperf/config.json");
	return NULL;
}

/* 1 if something is at path: a file, a folder or anything else that
 * stat sees (fileio_kind's EINVAL). A path that cannot be looked at (a
 * HOME of somebody else's, a broken symbolic link) is nothing. */
static int exists(const char *path)
{
	return fileio_kind(path) >= 0 || errno == EINVAL;
}

/* Which config file is read: --config, else the user's own when it
 * exists. A ./sdperf.json or ./.sdperf.json (a received profile may hold
 * one) is never read unless named; it is noted in o->config_ignored. */
static int find_config(struct options *o, const unsigned char *given,
                       struct err *e)
{
	static const char *const here[] = {"sdperf.json", ".sdperf.json"};
	char *user = NULL;
	size_t k;
	int ret = 0;

	if (!o->config)
		for (k = 0; k < 2 && !o->config_ignored; k++)
			if (exists(here[k]))
				o->config_ignored = here[k];
	if (o->config)
		return read_config(o, o->config, given, e);
	user = user_config();
	if (user && exists(user))
		ret = read_config(o, user, given, e);
	free(user);
	return ret;
}

/* Every branding text, from the command line or the config file. */
static int check_texts(struct options *o, struct err *e)
{
	size_t k;
	char *where;
	int bad;

	for (k = 0; k < NKEYS; k++) {
		const char *v = *field(o, k);
		if (!v || k == 1)
			continue;
		where = o->from_config[k] ? xstrfmt("%s: key '%s'",
		                                    o->config_used, keys[k].key)
		                          : xstrfmt("--%s", keys[k].key);
		bad = check_text(where, v, e);
		free(where);
		if (bad)
			return -1;
	}
	return 0;
}

static void given_keys(struct options *o, unsigned char *given)
{
	size_t k;

	for (k = 0; k < NKEYS; k++)
		given[k] = *field(o, k) != NULL;
}

int brand_config_text(struct options *o, const char *path, const char *text,
                      size_t len, struct err *e)
{
	unsigned char given[NKEYS];

	given_keys(o, given);
	if (len > BRAND_CONFIG_MAX)
		return err_set(e, ERR_USAGE,
		               "%s: file too large (limit %u bytes)", path,
		               BRAND_CONFIG_MAX);
	return apply_text(o, path, text, len, given, e) || check_texts(o, e);
}

int brand_resolve(struct options *o, struct err *e)
{
	unsigned char given[NKEYS];
	char *where;
	int bad;

	given_keys(o, given);
	if (find_config(o, given, e) || check_texts(o, e))
		return -1;
	if (!o->logo)
		return 0;
	where = o->from_config[1] ? xstrfmt("%s: key 'logo'", o->config_used)
	                          : xstrdup("--logo");
	bad = read_logo(o, where, e);
	free(where);
	return bad;
}

void brand_note(const struct options *o, struct strbuf *out)
{
	if (!o->config_ignored)
		return;
	strbuf_addf(out,
	            "sdperf: note: ./%s not read (a config file is read only "
	            "from --config or ~/.config/sdperf/config.json); pass "
	            "--config ./%s to use it\n",
	            o->config_ignored, o->config_ignored);
}
