/* jscan.h: a small streaming JSON scanner for the self-check. It reads a
 * file in fixed chunks and reports every value with the member names that
 * lead to it, so multi-GB traces could be walked in bounded memory. */
#ifndef GEN_JSCAN_H
#define GEN_JSCAN_H

#include <stddef.h>

#define JS_MAX_DEPTH 32
#define JS_KEY_MAX   160

enum js_kind {
	JS_STRING,  /* text: the string's bytes, simple escapes decoded */
	JS_NUMBER,  /* text: the number as written */
	JS_LITERAL, /* text: true, false or null */
	JS_OBJECT,  /* an object opens */
	JS_ARRAY,   /* an array opens */
	JS_END      /* the container opened at `depth` closes */
};

/* One scanner event. `depth` counts the containers around the value (the
 * root value has depth 0). path[i], for i < depth, is the member name under
 * which enclosing container i (0 = the root) was found: "" for the root and
 * for array elements. `key` is the value's own member name ("" in arrays).
 * Strings are valid only during the callback. */
struct js_ev {
	enum js_kind kind;
	int depth;
	const char *key;
	const char *text;
	size_t len;
	const char *const *path;
};

/* Return non-zero from the callback to stop the scan (jscan_file then
 * returns 1). */
typedef int (*js_cb)(void *ctx, const struct js_ev *ev);

/* Scan the JSON document in `path`. Returns 0 when the whole file is one
 * well-formed JSON value, 1 when the callback stopped it, -1 on malformed
 * JSON, nesting deeper than JS_MAX_DEPTH or a string over 64 KiB (message
 * in `err` with the byte offset). */
int jscan_file(const char *path, js_cb cb, void *ctx, char *err, size_t errlen);

#endif
