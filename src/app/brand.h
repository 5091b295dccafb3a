/* Branding options (--org, --logo, --customer, --ticket, --confidential)
 * and the config file that can set them (--config FILE, else the user's
 * own $XDG_CONFIG_HOME/sdperf/config.json or
 * ~/.config/sdperf/config.json; never a file of the current folder or of
 * a profile, which may have come from anybody): the command line wins
 * over the file. */
#ifndef SDPERF_BRAND_H
#define SDPERF_BRAND_H

#include <stddef.h>

#include "app/cli.h"
#include "util/strbuf.h"
#include "util/err.h"

#define BRAND_TEXT_MAX   1024u       /* bytes of one branding text */
#define BRAND_LOGO_MAX   (1u << 20)  /* bytes of the logo image */
#define BRAND_CONFIG_MAX (64u << 10) /* bytes of a config file */

/* For `sdperf report`: reads the config file (o->config, else the user's
 * own when it exists; a ./sdperf.json or ./.sdperf.json is not read, only
 * noted in o->config_ignored for brand_note), sets each branding
 * option the command line did not give (a "logo" path is relative to the
 * file's folder), checks every branding text (valid UTF-8, no control
 * characters but in --confidential none either, at most BRAND_TEXT_MAX
 * bytes), and reads and checks the logo (a regular file of at most
 * BRAND_LOGO_MAX bytes, a PNG or JPEG util/imgcheck.h accepts, so of at
 * most IMG_MAX_SIDE / IMG_MAX_PIXELS pixels, its decoded size charged to
 * the memory budget (ERR_INPUT when it does not fit); img_check makes
 * it decodable by the PDF library, which decodes it once, at render).
 * Strings it makes and the logo's bytes are owned by o (cli_release).
 * Returns 0, or -1 with ERR_USAGE naming the file and the key or the
 * option, and why. */
int brand_resolve(struct options *o, struct err *e);

/* As brand_resolve's reading of a config file, from its text[0..len)
 * (named path in messages, the folder a "logo" is relative to): sets the
 * branding options o does not hold yet and checks every branding text;
 * the logo is not read. 0, or -1 with ERR_USAGE. For the fuzz target. */
int brand_config_text(struct options *o, const char *path, const char *text,
                      size_t len, struct err *e);

/* Appends to out the one-line note (for stderr) that a ./sdperf.json or
 * ./.sdperf.json was found and not read, and how to use it; nothing when
 * there was none. */
void brand_note(const struct options *o, struct strbuf *out);

/* "image/png" or "image/jpeg" from the first bytes of data, else NULL. */
const char *brand_image_mime(const unsigned char *data, size_t n);

#endif
