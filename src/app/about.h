/* What sdperf --version prints: the version, the git commit it was built
 * from (captured at every build, so never stale) and the versions of the
 * libraries it uses, compiled with and running with. */
#ifndef SDPERF_ABOUT_H
#define SDPERF_ABOUT_H

#include "util/strbuf.h"

/* The --version text, appended to out. Its first line is always
 * "sdperf VERSION" (scripts read the version from it); then
 * "commit HASH (DATE)", with "-dirty" after HASH when tracked files
 * differed from that commit, or "commit unknown" when not built from a
 * git work tree; then one line per library: name, the version of the
 * headers it was compiled with, the version the loaded library reports
 * ("-" when the library has no call that tells it). */
void about_version(struct strbuf *out);

/* The commit line's value alone: "e5552268cebb", "e5552268cebb-dirty"
 * or "unknown" (a static string). */
const char *about_commit(void);

#endif
