/* sdperf --version: the version, the commit and each library's versions,
 * each library described by the module that owns it. */
#include "app/about.h"

#include <stddef.h>

#include "format/json/json.h"
#include "format/pdf/pdf.h"
#include "gitrev.h" /* generated at build time by cmake/GitRev.cmake */
#include "input/csvread.h"
#include "input/db.h"
#include "util/infile.h"
#include "util/libversion.h"
#include "version.h"
#include "util/banned.h"

/* In the order of the --version lines. */
static struct libversion (*const libraries[])(void) = {
    json_cjson_version, csvread_libcsv_version, pdf_libharu_version,
    db_sqlite_version,  infile_zlib_version,
};
#define NLIBRARIES (sizeof(libraries) / sizeof(libraries[0]))

const char *about_commit(void)
{
	return SDPERF_GIT_DIRTY ? SDPERF_GIT_COMMIT "-dirty"
	                        : SDPERF_GIT_COMMIT;
}

void about_version(struct strbuf *out)
{
	size_t k;

	strbuf_addf(out, "sdperf %s\ncommit %s", SDPERF_VERSION,
	            about_commit());
	if (*SDPERF_GIT_DATE)
		strbuf_addf(out, " (%s)", SDPERF_GIT_DATE);
	strbuf_adds(out, "\nlibrary   compiled  running\n");
	for (k = 0; k < NLIBRARIES; k++) {
		struct libversion v = libraries[k]();
		strbuf_addf(out, "%-9s %-9s %s\n", v.name, v.built,
		            v.running ? v.running : "-");
	}
}
