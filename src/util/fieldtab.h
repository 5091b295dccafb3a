/* A struct described as a table of fields, so that one writer and one
 * reader can serialise it both ways without a line of code per field: each
 * row names a member (its key), its kind and where it sits (offsetof).
 * Used by sdperf's rank summaries (analysis/ranksum.h describes the
 * result, format/json/ writes it, input/sumread.h reads it back).
 * Header only: tables are data. */
#ifndef SDPERF_FIELDTAB_H
#define SDPERF_FIELDTAB_H

#include <stddef.h>
#include <stdint.h>

enum ft_kind {
	FT_I64,   /* int64_t */
	FT_U64,   /* uint64_t */
	FT_I32,   /* int32_t */
	FT_INT,   /* int */
	FT_UINT,  /* unsigned */
	FT_UCH,   /* unsigned char */
	FT_SIZE,  /* size_t */
	FT_DBL,   /* double */
	FT_STR,   /* char *, owned (malloc), or NULL */
	FT_SYM,   /* const char *: NULL or one of syms (a static string) */
	FT_CHARS, /* char[size]: a string held in the struct, shorter than
	           * size (a hash's hex digits) */
	FT_SUB,   /* an embedded struct (sub, size), or an array of n of them */
	FT_LIST   /* a pointer to count elements (sub, size) at off and the
	           * count (size_t) at count_off; at most max */
};

struct ft_table;

struct ft_field {
	const char *key; /* NULL in a one-row table: the element itself */
	enum ft_kind kind;
	size_t off;
	size_t n; /* >1: a fixed array of n (stride: the kind's size, or
	           * size for FT_SUB) */
	/* integers: the least and the most a reader accepts */
	int64_t min, max;
	const char *const *syms; /* FT_SYM: the allowed strings */
	size_t nsyms;
	const struct ft_table *sub; /* FT_SUB, FT_LIST: the element */
	size_t size;                /* FT_SUB, FT_LIST: sizeof an element */
	size_t count_off;           /* FT_LIST */
	size_t maxn;                /* FT_LIST: elements at most */
};

struct ft_table {
	const struct ft_field *f;
	size_t n;
};

#define FT_TABLE(rows)                                                         \
	{                                                                      \
		rows, sizeof(rows) / sizeof((rows)[0])                         \
	}

/* Row builders: T the struct, M its member. */
#define FT_NUM(T, M, K, LO, HI)                                                \
	{                                                                      \
#M, K, offsetof(T, M), 1, LO, HI, NULL, 0, NULL, 0, 0, 0       \
	}
#define FT_NUMS(T, M, K, N, LO, HI)                                            \
	{                                                                      \
#M, K, offsetof(T, M), N, LO, HI, NULL, 0, NULL, 0, 0, 0       \
	}
/* min == max: the kind's whole range */
#define FT_I64F(T, M) FT_NUM(T, M, FT_I64, 0, 0)
#define FT_U64F(T, M) FT_NUM(T, M, FT_U64, 0, 0)
/* a time or a size: within +-2^61 (in ns, 73 years, or an epoch time
 * until 2043), so that a few of them add up without overflow */
#define FT_TIME_MAX    ((int64_t)1 << 61)
#define FT_TIMEF(T, M) FT_NUM(T, M, FT_I64, -FT_TIME_MAX, FT_TIME_MAX)
#define FT_BOOL(T, M)  FT_NUM(T, M, FT_INT, 0, 1)
/* a double: finite, within +-FT_TIME_MAX; FT_DBLR: within LO..HI */
#define FT_DBLF(T, M)         FT_NUM(T, M, FT_DBL, 0, 0)
#define FT_DBLR(T, M, LO, HI) FT_NUM(T, M, FT_DBL, LO, HI)
#define FT_STRF(T, M)                                                          \
	{                                                                      \
#M, FT_STR, offsetof(T, M), 1, 0, 0, NULL, 0, NULL, 0, 0, 0    \
	}
#define FT_SYMF(T, M, S)                                                       \
	{                                                                      \
#M, FT_SYM, offsetof(T, M), 1, 0, 0, S,                        \
		    sizeof(S) / sizeof((S)[0]), NULL, 0, 0, 0                  \
	}
#define FT_CHARSF(T, M)                                                        \
	{                                                                      \
#M, FT_CHARS, offsetof(T, M), 1, 0, 0, NULL, 0, NULL,          \
		    sizeof(((T *)0)->M), 0, 0                                  \
	}
#define FT_SUBF(T, M, N, SUB, ET)                                              \
	{                                                                      \
#M, FT_SUB, offsetof(T, M), N, 0, 0, NULL, 0, &(SUB),          \
		    sizeof(ET), 0, 0                                           \
	}
#define FT_LISTF(T, M, CNT, SUB, ET, MAXN)                                     \
	{                                                                      \
#M, FT_LIST, offsetof(T, M), 1, 0, 0, NULL, 0, &(SUB),         \
		    sizeof(ET), offsetof(T, CNT), MAXN                         \
	}

#endif
