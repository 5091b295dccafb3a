/* Variable trees for the template engine (template.h): named string values
 * and named loops of rows, built by the program and read by tmpl_render or
 * directly by code that lays out the same data without a template.
 *
 * Names are case-sensitive and share one namespace per scope: setting a
 * value under a loop's name replaces the loop, adding a row under a value's
 * name replaces the value. Lookup is a hash once a scope has more than a
 * few names.
 *
 * Every tree counts the lookups that find no variable of the kind they want
 * (tmpl_vars_misses): a value read where there is none or a loop, a loop
 * read where there is none or a value. A program that defines every
 * variable its templates and readers use expects 0, and its tests check it;
 * a typo in a name then fails a test instead of rendering "". Which template
 * tags count is in template.h. */
#ifndef TMPL_VARS_H
#define TMPL_VARS_H

#include <stddef.h>

struct tmpl_vars;

/* A new empty tree (never NULL). */
struct tmpl_vars *tmpl_vars_new(void);
/* Frees v, its values and all its rows, recursively. NULL is a no-op. */
void tmpl_vars_free(struct tmpl_vars *v);

/* Sets name to a copy of value (NULL is stored as ""), replacing any
 * earlier value or loop of that name. */
void tmpl_set(struct tmpl_vars *v, const char *name, const char *value);
/* tmpl_set with a printf-formatted value. */
void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a row to loop `loop` of v and returns it (owned by v, valid until
 * v is freed or the loop is replaced by tmpl_set). A row belongs to v's
 * tree: its lookups are counted with v's. */
struct tmpl_vars *tmpl_add_row(struct tmpl_vars *v, const char *loop);
/* Defines loop `loop` of v without adding a row: a loop that stays empty
 * is then found (with 0 rows) rather than missed. Keeps the rows of a loop
 * already there; replaces a value of that name. */
void tmpl_define_loop(struct tmpl_vars *v, const char *loop);

/* Reading a tree back, in v's own scope (not the scopes around it): the
 * value of name ("" when unset or a loop), the number of rows of loop (0
 * when it is not a loop), and row i of loop (NULL when it is not a loop or
 * i is out of range). A name that is not of the kind asked for is a miss,
 * recorded with the caller's file and line (hence the macros); an index
 * out of range is not. */
const char *tmpl_get_at(const struct tmpl_vars *v, const char *name,
                        const char *file, int line);
size_t tmpl_nrows_at(const struct tmpl_vars *v, const char *loop,
                     const char *file, int line);
const struct tmpl_vars *tmpl_row_at(const struct tmpl_vars *v, const char *loop,
                                    size_t i, const char *file, int line);
#define tmpl_get(v, name)    tmpl_get_at((v), (name), __FILE__, __LINE__)
#define tmpl_nrows(v, loop)  tmpl_nrows_at((v), (loop), __FILE__, __LINE__)
#define tmpl_row(v, loop, i) tmpl_row_at((v), (loop), (i), __FILE__, __LINE__)

/* Lookups that found nothing in v's tree (v, its rows, their rows, ...),
 * by tmpl_get, tmpl_nrows, tmpl_row and by the renders of the tree, since
 * the tree was made. */
size_t tmpl_vars_misses(const struct tmpl_vars *v);
/* The first 32 distinct misses of v's tree (by site and name), one line
 * each: "layout.c:168: no value 'width'" for a reader (its file and line),
 * "page.html.tmpl:12:5: TMPL_VAR 'title'" for a template tag; "" when
 * there is none. Owned by the tree, valid until the next miss. */
const char *tmpl_vars_miss_log(const struct tmpl_vars *v);

#endif
