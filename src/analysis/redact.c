/* Redaction: the map of originals to pseudonyms, the rewriting of one
 * string with it, and the pass over a result (--redact). */
#include "analysis/redact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const redact_class_names[REDACT_CLASSES] = {
    "hosts",     "users",  "paths",  "rank_folders",
    "addresses", "groups", "kernels"};

/* A pseudonym is its class's prefix and a number from 1. */
static const char *const pseudonym_prefix[REDACT_CLASSES] = {
    "host-", "user-", "path-", "rank folder ", "ip-", "group-", "op-"};

/* A host or user name shorter than this is not looked for in free text
 * (it would hit ordinary words); it is still replaced inside the folder
 * or path that holds it. */
#define WORD_MIN 3

/* How a literal original is told from the text around it. */
enum lit_kind {
	LIT_PATH, /* a path: not inside a longer name or path */
	LIT_WORD  /* a name: not inside a longer name (may follow '/') */
};

/* A literal's pseudonym; the original is the key of its kind's table. */
struct lit {
	enum redact_class cls;
	uint32_t id;
};

struct redactor {
	int kernels;
	char **paths; /* the PATH arguments */
	size_t npaths;
	int paths_done; /* the PATHs are in the map (after the ranks) */
	struct strtab seen[REDACT_CLASSES]; /* original -> id, by first
	                                     * appearance */
	uint64_t entries;
	/* literals of each kind (enum lit_kind): original -> its index in
	 * lits[kind], looked up at each place one may start */
	struct strtab tab[2];
	struct lit *lits[2];
	size_t alloc[2];
	size_t maxlen[2]; /* the longest literal of the kind */
	char name[48];    /* redactor_kernel's answer */
};

struct redactor *redactor_new(const char *const *paths, size_t npaths,
                              int kernels)
{
	struct redactor *rd = xcalloc(1, sizeof(*rd));
	size_t i;
	int c;

	rd->kernels = kernels;
	rd->paths = xcalloc(npaths ? npaths : 1, sizeof(*rd->paths));
	for (i = 0; i < npaths; i++)
		rd->paths[i] = xstrdup(paths[i]);
	rd->npaths = npaths;
	for (c = 0; c < REDACT_CLASSES; c++)
		strtab_init(&rd->seen[c]);
	strtab_init(&rd->tab[LIT_PATH]);
	strtab_init(&rd->tab[LIT_WORD]);
	return rd;
}

void redactor_free(struct redactor *rd)
{
	size_t i;
	int c;

	if (!rd)
		return;
	for (i = 0; i < rd->npaths; i++)
		free(rd->paths[i]);
	free(rd->paths);
	for (c = 0; c < REDACT_CLASSES; c++)
		strtab_release(&rd->seen[c]);
	for (i = 0; i < 2; i++) {
		strtab_release(&rd->tab[i]);
		free(rd->lits[i]);
	}
	free(rd);
}

uint64_t redactor_count(const struct redactor *rd, enum redact_class c)
{
	return rd ? rd->seen[c].n : 0;
}

/* ---- the map ------------------------------------------------------------ */

/* The id of original s[0..len) in class c, added when new; UINT32_MAX
 * when the map is full (the original is then replaced without a
 * number). */
static uint32_t learn(struct redactor *rd, enum redact_class c, const char *s,
                      size_t len)
{
	uint32_t id = strtab_find(&rd->seen[c], s, len);

	if (id != UINT32_MAX)
		return id;
	if (rd->entries >= REDACT_MAX_ENTRIES)
		return UINT32_MAX;
	rd->entries++;
	return strtab_intern(&rd->seen[c], s, len);
}

static void add_pseudonym(struct strbuf *out, enum redact_class c, uint32_t id)
{
	if (id == UINT32_MAX)
		strbuf_adds(out, "redacted");
	else
		strbuf_addf(out, "%s%u", pseudonym_prefix[c], id + 1);
}

/* Adds s[0..len) as a literal of class c looked for in every string,
 * with pseudonym number id. The first class and id given a text keep
 * it. */
static void push_lit(struct redactor *rd, enum redact_class c, const char *s,
                     size_t len, enum lit_kind kind, uint32_t id)
{
	struct strtab *t = &rd->tab[kind];
	uint32_t k;

	if (strtab_find(t, s, len) != UINT32_MAX)
		return;
	k = strtab_intern(t, s, len);
	rd->lits[kind] = xgrow(rd->lits[kind], sizeof(struct lit),
	                       (size_t)k + 1, &rd->alloc[kind]);
	rd->lits[kind][k] = (struct lit){c, id};
	if (len > rd->maxlen[kind])
		rd->maxlen[kind] = len;
}

/* Adds original s[0..len) of class c, numbered, as a literal; its id, or
 * UINT32_MAX when it was not added. */
static uint32_t add_lit(struct redactor *rd, enum redact_class c, const char *s,
                        size_t len, enum lit_kind kind)
{
	uint32_t id;

	if (!len || (kind == LIT_WORD && len < WORD_MIN))
		return UINT32_MAX;
	id = learn(rd, c, s, len);
	if (id != UINT32_MAX)
		push_lit(rd, c, s, len, kind, id);
	return id;
}

/* ---- rank folders, hosts, users ----------------------------------------- */

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* The last component of s[0..n): its start. */
static size_t last_component(const char *s, size_t n)
{
	size_t i = n;
	while (i > 0 && s[i - 1] != '/')
		i--;
	return i;
}

/* A file a rank's dir may name (the PATH given was a file). */
static int is_profile_file(const char *s, size_t n)
{
	return ends_with(s, n, ".csv") || ends_with(s, n, ".json") ||
	       ends_with(s, n, ".gz") || ends_with(s, n, ".db");
}

/* The rank folder in dir: [*start, *end) of its component, the last
 * "*_ascend_pt" one, else the folder that holds ASCEND_PROFILER_OUTPUT or
 * the profile file named, else the last component. 0 when none (".",
 * "..", "/"). */
static int rank_folder(const char *dir, size_t *start, size_t *end)
{
	size_t n = strlen(dir), b, i;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (i = n; i > 0; i = b > 0 ? b - 1 : 0) {
		size_t e = i;
		b = last_component(dir, e);
		if (ends_with(dir + b, e - b, "_ascend_pt") && e - b > 10) {
			*start = b;
			*end = e;
			return 1;
		}
		if (!b)
			break;
	}
	b = last_component(dir, n);
	if (is_profile_file(dir + b, n - b) && b > 1) {
		n = b - 1;
		b = last_component(dir, n);
	}
	if (n - b == 22 && !memcmp(dir + b, "ASCEND_PROFILER_OUTPUT", 22) &&
	    b > 1) {
		n = b - 1;
		b = last_component(dir, n);
	}
	if (n == b || (n - b == 1 && dir[b] == '.') ||
	    (n - b == 2 && !memcmp(dir + b, "..", 2)))
		return 0;
	*start = b;
	*end = n;
	return 1;
}

static int all_digits(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* The {host} of a folder named {host}_{pid}_{timestamp}_ascend_pt: its
 * length, or 0 when the name is not of that form. */
static size_t folder_host(const char *name, size_t n)
{
	size_t e, t, p;

	if (!ends_with(name, n, "_ascend_pt"))
		return 0;
	e = n - 10; /* end of the timestamp */
	for (t = e; t > 0 && name[t - 1] != '_'; t--)
		;
	if (!t || !all_digits(name + t, e - t))
		return 0;
	for (p = t - 1; p > 0 && name[p - 1] != '_'; p--)
		;
	if (!p || !all_digits(name + p, t - 1 - p))
		return 0;
	return p - 1;
}

/* Users named in a path: NAME of /home/NAME/ or /Users/NAME/. */
static void learn_users(struct redactor *rd, const char *s, size_t n)
{
	static const char *const homes[] = {"/home/", "/Users/"};
	size_t i, h, k;

	for (h = 0; h < 2; h++) {
		size_t hl = strlen(homes[h]);
		for (i = 0; i + hl < n; i++) {
			if (memcmp(s + i, homes[h], hl))
				continue;
			for (k = i + hl; k < n && s[k] != '/'; k++)
				;
			add_lit(rd, REDACT_USER, s + i + hl, k - i - hl,
			        LIT_WORD);
		}
	}
}

void redactor_add_rank_dir(struct redactor *rd, const char *dir)
{
	size_t b, e, h;
	uint32_t id;

	if (!dir || !rank_folder(dir, &b, &e))
		return;
	/* the folder with what leads to it, and its name alone: one id */
	id = add_lit(rd, REDACT_RANK_FOLDER, dir, e, LIT_PATH);
	if (b > 0 && id != UINT32_MAX && e - b >= WORD_MIN)
		push_lit(rd, REDACT_RANK_FOLDER, dir + b, e - b, LIT_WORD, id);
	h = folder_host(dir + b, e - b);
	if (h)
		add_lit(rd, REDACT_HOST, dir + b, h, LIT_WORD);
	learn_users(rd, dir, e);
}

/* The PATH arguments, once the ranks are in: a PATH inside a rank folder
 * is left to the folder's literal (rank folder 1/ASCEND_PROFILER_OUTPUT). */
static void add_paths(struct redactor *rd)
{
	size_t i, k;

	rd->paths_done = 1;
	for (i = 0; i < rd->npaths; i++) {
		const char *p = rd->paths[i];
		size_t n = strlen(p);
		int inside = 0;
		while (n > 1 && p[n - 1] == '/')
			n--;
		for (k = 1; k <= n && !inside; k++) {
			uint32_t id;
			if (k < n && p[k] != '/')
				continue;
			id = strtab_find(&rd->tab[LIT_PATH], p, k);
			inside =
			    id != UINT32_MAX &&
			    rd->lits[LIT_PATH][id].cls == REDACT_RANK_FOLDER;
		}
		learn_users(rd, p, n);
		if (!inside)
			add_lit(rd, REDACT_PATH, p, n, LIT_PATH);
	}
}

void redactor_add_name(struct redactor *rd, enum redact_class c,
                       const char *name)
{
	if (name && (c == REDACT_HOST || c == REDACT_USER))
		add_lit(rd, c, name, strlen(name), LIT_WORD);
}

void redactor_add_kernel(struct redactor *rd, const char *name)
{
	if (rd->kernels && name && *name)
		learn(rd, REDACT_KERNEL, name, strlen(name));
}

const char *redactor_kernel(struct redactor *rd, const char *name)
{
	uint32_t id;

	if (!rd->kernels || !name)
		return NULL;
	id = strtab_find(&rd->seen[REDACT_KERNEL], name, strlen(name));
	if (id == UINT32_MAX)
		return NULL;
	snprintf(rd->name, sizeof(rd->name), "%s%u",
	         pseudonym_prefix[REDACT_KERNEL], id + 1);
	return rd->name;
}

/* ---- rewriting one string ----------------------------------------------- */

static int is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* A character of a name (host, user, operator, interface). */
static int is_word(int c)
{
	return is_alnum(c) || c == '_' || c == '-';
}

/* A character of a file or folder name. */
static int is_name(int c)
{
	return is_word(c) || c == '.' || c == '~' || c == '+' || c == '@' ||
	       (unsigned char)c >= 0x80;
}

/* Where an absolute path may start: after one of these (or at the
 * start). */
static int path_lead(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' ||
	       c == '\'' || c == '`' || c == '(' || c == '[' || c == '{' ||
	       c == '<' || c == '=' || c == ',' || c == ';' || c == ':';
}

/* Where a path found in text ends. */
static int path_stop(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' ||
	       c == '\'' || c == '`' || c == '<' || c == '>' || c == '|' ||
	       c == ',' || c == ';' || c == ':' || c == ')' || c == ']' ||
	       c == '}' || c == '\0';
}

/* The longest literal of kind that s[i..n) starts with and that ends
 * where end_ok says one may: its length (0: none), *l its pseudonym. Each
 * candidate end is one hash lookup. */
static size_t longest_lit(const struct redactor *rd, enum lit_kind kind,
                          const char *s, size_t i, size_t n,
                          const struct lit **l)
{
	size_t e, lim = rd->maxlen[kind] < n - i ? i + rd->maxlen[kind] : n;
	size_t best = 0;

	for (e = i + 1; e <= lim; e++) {
		int next = e < n ? (unsigned char)s[e] : 0;
		uint32_t id;
		if (kind == LIT_PATH ? next && next != '/' && is_name(next)
		                     : next && is_word(next))
			continue;
		id = strtab_find(&rd->tab[kind], s + i, e - i);
		if (id != UINT32_MAX) {
			best = e - i;
			*l = &rd->lits[kind][id];
		}
	}
	return best;
}

/* The literal that s[i..n) starts with: a path (not inside a longer name
 * or path) or a name (not inside a longer name; it may follow '/'), the
 * longer of the two, a rank folder when they tie. Its length, or 0. */
static size_t match_lit(const struct redactor *rd, const char *s, size_t i,
                        size_t n, const struct lit **l)
{
	int prev = i ? (unsigned char)s[i - 1] : 0;
	const struct lit *lp = NULL, *lw = NULL;
	size_t p = 0, w = 0;

	if (rd->tab[LIT_PATH].n && !(i && (is_name(prev) || prev == '/')))
		p = longest_lit(rd, LIT_PATH, s, i, n, &lp);
	if (rd->tab[LIT_WORD].n && !(i && is_word(prev)))
		w = longest_lit(rd, LIT_WORD, s, i, n, &lw);
	if (!p && !w)
		return 0;
	if (p > w || (p == w && lp->cls == REDACT_RANK_FOLDER)) {
		*l = lp;
		return p;
	}
	*l = lw;
	return w;
}

/* The length of an IPv4 address at s[i..n), or 0. */
static size_t ipv4_at(const char *s, size_t i, size_t n)
{
	size_t k = i;
	int part;

	for (part = 0; part < 4; part++) {
		size_t d = 0;
		unsigned v = 0;
		if (part) {
			if (k >= n || s[k] != '.')
				return 0;
			k++;
		}
		while (k < n && d < 4 && s[k] >= '0' && s[k] <= '9') {
			v = v * 10 + (unsigned)(s[k] - '0');
			k++;
			d++;
		}
		if (!d || d > 3 || v > 255)
			return 0;
	}
	if (k < n && (is_alnum(s[k]) ||
	              (s[k] == '.' && k + 1 < n && is_alnum(s[k + 1]))))
		return 0;
	return k - i;
}

/* 1 when s[0..n) is an IPv6 address: hex groups of 1-4 digits separated
 * by ':', eight of them, or fewer with one "::", the last two may be an
 * IPv4 address; at least one group. */
static int ipv6_valid(const char *s, size_t n)
{
	size_t i = 0, groups = 0;
	int gap = 0;

	if (n >= 2 && s[0] == ':' && s[1] == ':') {
		gap = 1;
		i = 2;
	} else if (n && s[0] == ':')
		return 0;
	while (i < n) {
		size_t d = 0;
		if (ipv4_at(s, i, n) == n - i && groups <= 6)
			return groups + 2 == 8 || (gap && groups + 2 < 8);
		while (i + d < n && d < 5 && is_hex(s[i + d]))
			d++;
		if (!d || d > 4)
			return 0;
		groups++;
		i += d;
		if (i == n)
			break;
		if (s[i] != ':')
			return 0;
		i++;
		if (i < n && s[i] == ':') {
			if (gap)
				return 0;
			gap = 1;
			i++;
		} else if (i == n)
			return 0;
	}
	return groups && (groups == 8 ? !gap : gap && groups < 8);
}

/* The length of an IPv6 address at s[i..n), or 0: the longest run of hex
 * digits, ':' and '.' that is one (a run ending a sentence loses its
 * '.'; "fe80::1:" loses its ':'). */
static size_t ipv6_at(const char *s, size_t i, size_t n)
{
	size_t e = i, colons = 0;

	while (e < n && (is_hex(s[e]) || s[e] == ':' || s[e] == '.')) {
		colons += s[e] == ':';
		e++;
	}
	if (colons < 2 || (e < n && (is_alnum(s[e]) || s[e] == '_')))
		return 0;
	while (e > i && s[e - 1] == '.')
		e--;
	if (ipv6_valid(s + i, e - i))
		return e - i;
	if (e > i + 1 && s[e - 1] == ':' && s[e - 2] != ':' &&
	    ipv6_valid(s + i, e - 1 - i))
		return e - 1 - i;
	return 0;
}

/* An address at s[i..n) (IPv4 or IPv6), with what follows it: an HCCL
 * group name (address%interface_NUMBER..., *cls REDACT_GROUP) or a zone
 * (address%interface). The length, or 0. */
static size_t address_at(const char *s, size_t i, size_t n,
                         enum redact_class *cls)
{
	size_t a = ipv4_at(s, i, n), b = ipv6_at(s, i, n), e, k;

	if (b > a)
		a = b;
	if (!a)
		return 0;
	*cls = REDACT_ADDRESS;
	e = i + a;
	if (e + 1 < n && s[e] == '%' && is_alnum(s[e + 1])) {
		for (k = e + 1;
		     k < n && (is_alnum(s[k]) || s[k] == '.' || s[k] == '-');
		     k++)
			;
		e = k;
		while (e + 1 < n && s[e] == '_' && s[e + 1] >= '0' &&
		       s[e + 1] <= '9') {
			for (k = e + 1; k < n && s[k] >= '0' && s[k] <= '9';
			     k++)
				;
			e = k;
			*cls = REDACT_GROUP;
		}
	}
	return e - i;
}

/* The length of an absolute (or ~/) path at s[i..n), or 0. */
static size_t path_at(const char *s, size_t i, size_t n)
{
	size_t e = i;

	if (i && !path_lead((unsigned char)s[i - 1]))
		return 0;
	if (s[i] == '~') {
		if (i + 1 >= n || s[i + 1] != '/')
			return 0;
		e++;
	} else if (s[i] != '/')
		return 0;
	if (e + 1 >= n || !is_name((unsigned char)s[e + 1]))
		return 0;
	while (e < n && !path_stop((unsigned char)s[e]))
		e++;
	while (e > i + 2 && s[e - 1] == '.') /* the end of a sentence */
		e--;
	return e - i;
}

/* An operator name at s[i..n) to replace: its length, or 0. */
static size_t kernel_at(const struct redactor *rd, const char *s, size_t i,
                        size_t n, uint32_t *id)
{
	size_t e = i;

	if (!rd->kernels || !rd->seen[REDACT_KERNEL].n ||
	    (i && (is_alnum(s[i - 1]) || s[i - 1] == '_')))
		return 0;
	while (e < n && (is_alnum(s[e]) || s[e] == '_'))
		e++;
	if (e == i)
		return 0;
	*id = strtab_find(&rd->seen[REDACT_KERNEL], s + i, e - i);
	return *id == UINT32_MAX ? 0 : e - i;
}

/* Rewrites s[0..n) into out. What each position may start, in order: a
 * known literal (longest first), an address or group name, an absolute
 * path, a registered operator name. */
static void rewrite(struct redactor *rd, const char *s, size_t n,
                    struct strbuf *out)
{
	size_t i = 0;

	if (!rd->paths_done)
		add_paths(rd);
	while (i < n) {
		const struct lit *l = NULL;
		enum redact_class cls;
		uint32_t id;
		size_t len;
		int prev = i ? (unsigned char)s[i - 1] : 0;

		if ((len = match_lit(rd, s, i, n, &l)) > 0) {
			add_pseudonym(out, l->cls, l->id);
			i += len;
			continue;
		}
		if ((is_hex(s[i]) || s[i] == ':') &&
		    !(i && (is_alnum(prev) || prev == '_' || prev == '.' ||
		            prev == ':')) &&
		    (len = address_at(s, i, n, &cls)) > 0) {
			add_pseudonym(out, cls, learn(rd, cls, s + i, len));
			i += len;
			continue;
		}
		if ((s[i] == '/' || s[i] == '~') &&
		    (len = path_at(s, i, n)) > 0) {
			learn_users(rd, s + i, len);
			add_pseudonym(out, REDACT_PATH,
			              learn(rd, REDACT_PATH, s + i, len));
			i += len;
			continue;
		}
		if ((len = kernel_at(rd, s, i, n, &id)) > 0) {
			add_pseudonym(out, REDACT_KERNEL, id);
			i += len;
			continue;
		}
		strbuf_addch(out, s[i]);
		i++;
	}
}

char *redactor_rewrite(struct redactor *rd, const char *s)
{
	struct strbuf out = STRBUF_INIT;

	if (!s)
		return NULL;
	rewrite(rd, s, strlen(s), &out);
	return strbuf_detach(&out, NULL);
}

void redactor_rewrite_str(struct redactor *rd, char **s)
{
	char *t;

	if (!*s)
		return;
	t = redactor_rewrite(rd, *s);
	free(*s);
	*s = t;
}

/* ---- the pass over a result --------------------------------------------- */

/* A kernel type: its pseudonym when registered (whatever characters the
 * name has), else rewritten like any string. */
static void redact_type(struct redactor *rd, char **type)
{
	const char *op = redactor_kernel(rd, *type);

	if (!op) {
		redactor_rewrite_str(rd, type);
		return;
	}
	free(*type);
	*type = xstrdup(op);
}

/* With --redact-kernels: the Other-category kernel types, numbered in the
 * order the report lists them (stage by stage, by time), then renamed. */
static void redact_types(struct redactor *rd, struct result *r)
{
	size_t s, i;

	for (s = 0; s < STAGE_COUNT; s++)
		for (i = 0; i < r->stages[s].ntop; i++)
			if (r->stages[s].top[i].cat == CAT_OTHER)
				redactor_add_kernel(rd,
				                    r->stages[s].top[i].type);
	for (i = 0; i < r->nunmatched; i++)
		redactor_add_kernel(rd, r->unmatched[i].type);
	for (s = 0; s < STAGE_COUNT; s++)
		for (i = 0; i < r->stages[s].ntop; i++)
			redact_type(rd, &r->stages[s].top[i].type);
	for (i = 0; i < r->nunmatched; i++)
		redact_type(rd, &r->unmatched[i].type);
}

static void redact_rank(struct redactor *rd, struct rank_result *rr)
{
	size_t i;

	redactor_rewrite_str(rd, &rr->dir);
	for (i = 0; i < RF_COUNT; i++)
		redactor_rewrite_str(rd, &rr->files[i]);
	redactor_rewrite_str(rd, &rr->db.path);
	for (i = 0; i < rr->nmarkers; i++)
		redactor_rewrite_str(rd, &rr->markers[i].name);
	for (i = 0; i < rr->ninputs; i++) /* provenance: the files hashed */
		redactor_rewrite_str(rd, &rr->inputs[i].path);
}

static void redact_warning(struct redactor *rd, struct warning *w)
{
	size_t k;

	redactor_rewrite_str(rd, &w->file);
	redactor_rewrite_str(rd, &w->message);
	redactor_rewrite_str(rd, &w->reason);
	for (k = 0; k < WARNING_ARGS; k++)
		redactor_rewrite_str(rd, &w->args[k]);
}

void redact_result_counts(struct result *r)
{
	int c;

	for (c = 0; c < REDACT_CLASSES; c++)
		r->redaction.replaced[c] =
		    redactor_count(r->redactor, (enum redact_class)c);
}

void redact_result(struct result *r, struct redactor *rd)
{
	size_t i;

	r->redactor = rd;
	for (i = 0; i < r->nranks; i++)
		redactor_add_rank_dir(rd, r->ranks[i].dir);
	/* a single kernel_details.csv read without rank records */
	if (!r->nranks)
		redactor_add_rank_dir(rd, r->rank_dir);
	redact_types(rd, r);
	redactor_rewrite_str(rd, &r->profile_path);
	redactor_rewrite_str(rd, &r->rank_dir);
	for (i = 0; i < r->ninputs; i++)
		redactor_rewrite_str(rd, &r->inputs[i].file.path);
	for (i = 0; i < r->nranks; i++)
		redact_rank(rd, &r->ranks[i]);
	for (i = 0; i < r->nwarnings; i++)
		redact_warning(rd, &r->warnings[i]);
	redactor_rewrite_str(rd, &r->rules_source);
	redactor_rewrite_str(rd, &r->stage_method);
	/* provenance: the command line and the rules file */
	redactor_rewrite_str(rd, &r->prov.command_line);
	redactor_rewrite_str(rd, &r->prov.rules);
	r->redaction.on = 1;
	r->redaction.kernels = rd->kernels;
	redact_result_counts(r);
}
