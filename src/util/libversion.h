/* A third-party library's versions, for sdperf --version. Each module
 * that owns a library (architecture.md, rule 4) describes it, so no other
 * file includes the library's header: util/infile zlib, input/csvread
 * libcsv, input/db SQLite, format/json cJSON, format/pdf libharu. */
#ifndef SDPERF_LIBVERSION_H
#define SDPERF_LIBVERSION_H

struct libversion {
	const char *name;    /* "zlib" */
	const char *built;   /* its headers' version, compiled in */
	const char *running; /* the loaded library's own answer; NULL when
	                      * the library has no call that tells it */
};

/* Turns a numeric macro into a string literal: LIBVERSION_STR(3) "3". */
#define LIBVERSION_STR_(x) #x
#define LIBVERSION_STR(x)  LIBVERSION_STR_(x)

#endif
