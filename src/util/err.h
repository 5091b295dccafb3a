/* Error values: how failures travel up to main, which alone prints them. */
#ifndef SDPERF_ERR_H
#define SDPERF_ERR_H

/* Exit codes, documented in README.md ("Exit codes"). */
enum err_code {
	ERR_NONE = 0,
	ERR_CHECK = 1,  /* sdperf check: a check failed */
	ERR_USAGE = 2,  /* bad command line */
	ERR_INPUT = 3,  /* unreadable or invalid profile / rules file */
	ERR_OUTPUT = 4, /* the report could not be written */
	ERR_INTERNAL = 70
};

struct err {
	enum err_code code;
	char msg[1024]; /* lower case, names file:line and quotes the value */
};

#define ERR_INIT                                                               \
	{                                                                      \
		ERR_NONE,                                                      \
		{                                                              \
			0                                                      \
		}                                                              \
	}

/* Records the first error only (later ones are usually consequences) and
 * returns -1 so callers can write `return err_set(e, ERR_INPUT, ...)`. */
int err_set(struct err *e, enum err_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void err_clear(struct err *e);

#endif
