/* The template engine's tree walker (tmpl_walk.h): renders the tree that
 * template.c parses, reading the variable trees of tmpl_vars.c. */
#include "tmpl/tmpl_walk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl/tmpl_tree.h"
#include "util/hash.h"
#include "util/xalloc.h"

#include "util/banned.h"

/* ---- rendering ---------------------------------------------------------- */

/* A scope: the variables given to the render, or one row of a loop. */
#define TMPL_MAX_COLS 24 /* column-formatted TMPL_VARs keyed per loop */

/* A column-formatted TMPL_VAR of a loop's body and its column's key. */
struct column {
	const struct node *var;
	double key;
};

struct frame {
	const struct tmpl_vars *vars; /* may be NULL */
	const struct entry *loop;     /* NULL for the outermost scope */
	size_t index;                 /* of the row in loop */
	const struct frame *up;
	struct column *cols; /* loop frames: the body's columns */
	size_t ncols;
};

enum { R_ERR = -1, R_OK = 0, R_BREAK, R_CONTINUE };

struct render {
	const struct tmpl_vars *vars; /* the render's; NULL: none */
	struct strbuf *out;
	size_t start; /* out->len before the render */
	struct err *e;
	void (*dflt)(struct strbuf *out, const char *value, size_t len);
	size_t max_output; /* bytes the render may add to out */
	int level;         /* loops still to leave for a BREAK/CONTINUE */
	char num[24];
	struct strbuf scratch; /* for tmpl_quoted() */
};

static const struct entry *find_entry(const struct frame *f, const char *name,
                                      uint32_t h)
{
	const struct entry *en;

	for (; f; f = f->up)
		if (f->vars && (en = tmpl_vars_find(f->vars, name, h)) != NULL)
			return en;
	return NULL;
}

/* The loop-position variables of the innermost loop; 0 when name is not
 * one (or no loop is open). */
static int loop_var(struct render *rs, const struct frame *f, const char *name,
                    const char **val, size_t *len)
{
	size_t i, n;
	int b;

	if (!f->loop || name[0] != '_' || name[1] != '_')
		return 0;
	i = f->index;
	n = f->loop->nrows;
	if (!strcmp(name, "__first__"))
		b = i == 0;
	else if (!strcmp(name, "__last__"))
		b = i + 1 == n;
	else if (!strcmp(name, "__odd__"))
		b = i % 2 == 0; /* rows count from 1 */
	else if (!strcmp(name, "__even__"))
		b = i % 2 == 1;
	else if (!strcmp(name, "__index__") || !strcmp(name, "__count__"))
		b = -1;
	else
		return 0;
	if (b >= 0) {
		*val = b ? "1" : "";
		*len = (size_t)b;
		return 1;
	}
	snprintf(rs->num, sizeof(rs->num), "%zu", name[2] == 'i' ? i + 1 : n);
	*val = rs->num;
	*len = strlen(rs->num);
	return 1;
}

/* The string value of name (NULL when unset or a loop); *en receives the
 * entry found, if any. */
static const char *value_of(struct render *rs, const struct frame *f,
                            const char *name, uint32_t h, size_t *len,
                            const struct entry **en)
{
	const char *v;

	*en = NULL;
	if (loop_var(rs, f, name, &v, len))
		return v;
	*en = find_entry(f, name, h);
	if (!*en || !(*en)->value)
		return NULL;
	*len = (*en)->len;
	return (*en)->value;
}

static int is_true(struct render *rs, const struct frame *f,
                   const struct cond *c)
{
	const struct entry *en;
	size_t len = 0;
	const char *v = value_of(rs, f, c->name, c->hash, &len, &en);
	int t;

	if (c->value)
		t = len == strlen(c->value) &&
		    (!len || !memcmp(v, c->value, len));
	else if (en && !en->value)
		t = en->nrows > 0;
	else
		t = v && len && !(len == 1 && v[0] == '0');
	return t != c->negate;
}

static int render_seq(struct render *rs, const struct tmpl *t,
                      const struct node *n, const struct frame *f);

/* TMPL_VAR or TMPL_LOOP n of t found no variable of its kind: a miss of the
 * render's tree, described the first time for each tag. */
static void tag_miss(struct render *rs, const struct tmpl *t,
                     const struct node *n)
{
	struct strbuf where = STRBUF_INIT;
	unsigned line, col;
	uint32_t key;

	if (!rs->vars)
		return;
	key = n->hash ^ (uint32_t)hash_u64x2(tmpl_hash_name(t->name), n->off);
	if (!tmpl_vars_miss(rs->vars, key))
		return;
	tmpl_line_col(t->src, n->off, &line, &col);
	strbuf_add_sanitized(&where, t->name, strlen(t->name));
	tmpl_vars_miss_describe(
	    rs->vars, "%s:%u:%u: TMPL_%s %s", where.buf, line, col,
	    n->kind == N_VAR ? "VAR" : "LOOP",
	    tmpl_quoted(&rs->scratch, n->name, strlen(n->name)));
	strbuf_release(&where);
}

static void render_var(struct render *rs, const struct tmpl *t,
                       const struct node *n, const struct frame *f)
{
	const struct entry *en;
	size_t len = 0, i;
	const char *v = value_of(rs, f, n->name, n->hash, &len, &en);

	if (!v && !n->dflt)
		tag_miss(rs, t, n);
	if ((!v || !len) && n->dflt) {
		v = n->dflt;
		len = strlen(v);
	}
	if (n->col && f->loop)
		for (i = 0; i < f->ncols; i++)
			if (f->cols[i].var == n) {
				n->col(rs->out, v ? v : "", len,
				       f->cols[i].key);
				return;
			}
	(n->fmt ? n->fmt : rs->dflt)(rs->out, v ? v : "", len);
}

/* Keys the columns of loop en's body (body of t): each column-formatted
 * TMPL_VAR found in the body, its IFs and includes (not its inner loops,
 * whose rows are other tables), scanned over the rows that hold it. Past
 * TMPL_MAX_COLS, cells are formatted one by one. */
static void key_columns(const struct node *n, const struct entry *en,
                        struct frame *row)
{
	const struct cond *c;
	const struct entry *v;
	size_t i, held;
	double key;

	for (; n && row->ncols < TMPL_MAX_COLS; n = n->next) {
		if (n->kind == N_IF) {
			for (c = n->conds; c; c = c->next)
				key_columns(c->body, en, row);
			key_columns(n->else_body, en, row);
		} else if (n->kind == N_INCLUDE) {
			key_columns(n->inc->root, en, row);
		}
		if (n->kind != N_VAR || !n->col)
			continue;
		for (i = 0; i < row->ncols; i++)
			if (row->cols[i].var == n)
				break;
		if (i < row->ncols)
			continue;
		for (i = held = 0, key = 0; i < en->nrows; i++) {
			v = tmpl_vars_find(en->rows[i], n->name, n->hash);
			if (v && v->value) {
				key = n->scan(key, v->value, v->len);
				held++;
			}
		}
		if (held)
			row->cols[row->ncols++] = (struct column){n, key};
	}
}

static int render_if(struct render *rs, const struct tmpl *t,
                     const struct node *n, const struct frame *f)
{
	const struct cond *c;

	for (c = n->conds; c; c = c->next)
		if (is_true(rs, f, c))
			return render_seq(rs, t, c->body, f);
	return render_seq(rs, t, n->else_body, f);
}

static int render_loop(struct render *rs, const struct tmpl *t,
                       const struct node *n, const struct frame *f)
{
	const struct entry *en = find_entry(f, n->name, n->hash);
	const struct frame *g;
	struct column cols[TMPL_MAX_COLS];
	struct frame row = {NULL, en, 0, f, cols, 0};
	int r;

	if (!en || en->value) {
		tag_miss(rs, t, n);
		return R_OK;
	}
	/* the rows of a loop are looked up from inside it too: iterating them
	 * again there would nest without end, multiplying the work */
	for (g = f; g; g = g->up)
		if (g->loop == en)
			return tmpl_error_at(rs->e, t, n->off,
			                     "TMPL_LOOP %s inside itself",
			                     tmpl_quoted(&rs->scratch, n->name,
			                                 strlen(n->name)));
	key_columns(n->body, en, &row);
	for (row.index = 0; row.index < en->nrows; row.index++) {
		row.vars = en->rows[row.index];
		r = render_seq(rs, t, n->body, &row);
		if (r == R_ERR ||
		    ((r == R_BREAK || r == R_CONTINUE) && --rs->level > 0))
			return r;
		if (r == R_BREAK)
			break;
	}
	return R_OK;
}

static int render_node(struct render *rs, const struct tmpl *t,
                       const struct node *n, const struct frame *f)
{
	switch (n->kind) {
	case N_TEXT:
		strbuf_add(rs->out, n->text, n->len);
		return R_OK;
	case N_VAR:
		render_var(rs, t, n, f);
		return R_OK;
	case N_IF:
		return render_if(rs, t, n, f);
	case N_LOOP:
		return render_loop(rs, t, n, f);
	case N_BREAK:
	case N_CONTINUE:
		rs->level = n->level;
		return n->kind == N_BREAK ? R_BREAK : R_CONTINUE;
	default:
		return render_seq(rs, n->inc, n->inc->root, f);
	}
}

static int render_seq(struct render *rs, const struct tmpl *t,
                      const struct node *n, const struct frame *f)
{
	int r;

	for (; n; n = n->next) {
		if ((r = render_node(rs, t, n, f)) != R_OK)
			return r;
		if (rs->out->len - rs->start > rs->max_output)
			return tmpl_error_at(rs->e, t, n->off,
			                     "output larger than %zu MiB",
			                     rs->max_output >> 20);
	}
	return R_OK;
}

int tmpl_walk(const struct tmpl *t, const struct tmpl_vars *vars,
              void (*dflt)(struct strbuf *out, const char *value, size_t len),
              size_t max_output, struct strbuf *out, struct err *e)
{
	struct frame top = {vars, NULL, 0, NULL, NULL, 0};
	struct render rs;
	int r;

	memset(&rs, 0, sizeof(rs));
	rs.vars = vars;
	rs.out = out;
	rs.start = out->len;
	rs.e = e;
	rs.dflt = dflt;
	rs.max_output = max_output;
	strbuf_init(&rs.scratch);
	r = render_seq(&rs, t, t->root, &top);
	strbuf_release(&rs.scratch);
	return r == R_OK ? 0 : -1;
}
