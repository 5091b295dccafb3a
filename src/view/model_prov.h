/* The view of who a report is for and how it was made (result.h's
 * struct brand and struct provenance). Sets, on the report's variables:
 *   org, customer, ticket, confidential ("" when not given), has_brand,
 *   logo_uri ("data:image/png;base64,...", "" without a logo), logo_alt
 *   ("" beside the organisation's name, else the catalogue's "Logo");
 *   captured (the capture time and where it comes from, in words), date
 *   (the generation time, marked when SOURCE_DATE_EPOCH gave it);
 *   has_prov, prov_version ("0.1.0", with the build when known),
 *   prov_command, prov_rules, prov_rules_sha256, loop prov_inputs: rank,
 *   file, path, bytes, sha256. */
#ifndef SDPERF_MODEL_PROV_H
#define SDPERF_MODEL_PROV_H

#include "view/model_ctx.h"

void model_provenance(struct model_ctx *c, struct tmpl_vars *v);

#endif
