/* Branding: the config file (JSON, read with cJSON), the branding texts'
 * checks, and the logo. */
#include "app/brand.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf.h"
#include "util/fileio.h"
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

/* 1-based line and column of byte off in text. */
static void line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i]; i++) {
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

static int read_config(struct options *o, const char *path,
                       const unsigned char *given, struct err *e)
{
	struct strbuf text = STRBUF_INIT;
	const char *end = NULL;
	cJSON *root = NULL;
	size_t line, col;
	int ret = -1;

	if (fileio_read_small(path, BRAND_CONFIG_MAX, &text, e)) {
		e->code = ERR_USAGE;
		goto out;
	}
	root = cJSON_ParseWithLengthOpts(text.buf ? text.buf : "", text.len,
	                                 &end, 0);
	/* one value, then nothing but white space */
	if (root && end)
		end += strspn(end, " \t\r\n");
	if (root && end != text.buf + text.len) {
		cJSON_Delete(root);
		root = NULL;
	}
	if (!root) {
		line_col(text.buf ? text.buf : "",
		         end && text.buf ? (size_t)(end - text.buf) : 0, &line,
		         &col);
		err_set(e, ERR_USAGE, "%s:%zu:%zu: invalid JSON", path, line,
		        col);
		goto out;
	}
	ret = apply_object(o, path, root, given, e);
	if (!ret)
		o->config_used = own(o, xstrdup(path));
out:
	cJSON_Delete(root);
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
	static const unsigned char png[8] = {0x89, 'P',  'N',  'G',
	                                     '\r', '\n', 0x1a, '\n'};

	if (n >= 8 && !memcmp(d, png, 8))
		return "image/png";
	if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
		return "image/jpeg";
	return NULL;
}

static int read_logo(struct options *o, const char *where, struct err *e)
{
	struct strbuf img = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	int64_t size = fileio_size(o->logo);
	int ret = -1;

	if (fileio_kind(o->logo) != 0)
		strbuf_adds(&why, "no such file, or not a regular file");
	else if (size > (int64_t)BRAND_LOGO_MAX)
		strbuf_addf(&why, "%lld bytes, at most %u (1 MiB)",
		            (long long)size, BRAND_LOGO_MAX);
	else if (fileio_read_small(o->logo, BRAND_LOGO_MAX, &img, e))
		strbuf_adds(&why, e->msg);
	else if (!(o->logo_mime = brand_image_mime(
	               (const unsigned char *)img.buf, img.len)))
		strbuf_adds(&why, "not a PNG or JPEG image (by its first "
		                  "bytes)");
	else if (pdf_image_check(img.buf, img.len,
	                         !strcmp(o->logo_mime, "image/png"), &why))
		;
	else
		ret = 0;
	if (ret) {
		err_clear(e);
		err_set(e, ERR_USAGE, "%s '%s': %s", where, o->logo, why.buf);
		strbuf_release(&img);
	} else {
		o->logo_len = img.len;
		o->logo_data = (unsigned char *)strbuf_detach(&img, NULL);
	}
	strbuf_release(&why);
	return ret;
}

int brand_resolve(struct options *o, struct err *e)
{
	static const char *const defaults[] = {"sdperf.json", ".sdperf.json"};
	unsigned char given[NKEYS];
	size_t k;
	char *where;
	int bad;

	for (k = 0; k < NKEYS; k++)
		given[k] = *field(o, k) != NULL;
	if (o->config) {
		if (read_config(o, o->config, given, e))
			return -1;
	} else
		for (k = 0; k < 2; k++)
			if (fileio_kind(defaults[k]) == 0) {
				if (read_config(o, defaults[k], given, e))
					return -1;
				break;
			}
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
	if (!o->logo)
		return 0;
	where = o->from_config[1] ? xstrfmt("%s: key 'logo'", o->config_used)
	                          : xstrdup("--logo");
	bad = read_logo(o, where, e);
	free(where);
	return bad;
}
