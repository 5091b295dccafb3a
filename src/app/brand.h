/* Branding options (--org, --logo, --customer, --ticket, --confidential)
 * and the config file that can set them (--config FILE, else ./sdperf.json
 * or ./.sdperf.json): the command line wins over the file. */
#ifndef SDPERF_BRAND_H
#define SDPERF_BRAND_H

#include <stddef.h>

#include "app/cli.h"
#include "util/err.h"

#define BRAND_TEXT_MAX   1024u       /* bytes of one branding text */
#define BRAND_LOGO_MAX   (1u << 20)  /* bytes of the logo image */
#define BRAND_CONFIG_MAX (64u << 10) /* bytes of a config file */

/* For `sdperf report`: reads the config file (o->config, else the first
 * of ./sdperf.json and ./.sdperf.json that exists), sets each branding
 * option the command line did not give (a "logo" path is relative to the
 * file's folder), checks every branding text (valid UTF-8, no control
 * characters but in --confidential none either, at most BRAND_TEXT_MAX
 * bytes), and reads and checks the logo (a PNG or JPEG by its first
 * bytes, at most BRAND_LOGO_MAX bytes, decodable by the PDF library).
 * Strings it makes and the logo's bytes are owned by o (cli_release).
 * Returns 0, or -1 with ERR_USAGE naming the file and the key or the
 * option, and why. */
int brand_resolve(struct options *o, struct err *e);

/* "image/png" or "image/jpeg" from the first bytes of data, else NULL. */
const char *brand_image_mime(const unsigned char *data, size_t n);

#endif
