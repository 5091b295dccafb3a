/* Redaction: the map of originals to pseudonyms, the rewriting of one
 * string with it, and the pass over a result (--redact). */
#include "analysis/redact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fieldtab.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const redact_class_names[REDACT_CLASSES] = {
    "hosts",     "users",  "paths",  "rank_folders",
    "addresses", "groups", "kernels"};

const char *const redact_field_names[REDACT_FIELDS] = {
    "torch_npu_version", "cann_version", "profiler_level",
    "aic_metrics",       "chip",         "db_schema_version"};

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

/* A literal's id while it waits to be met: a name registered with
 * redactor_add_name is numbered when first found, so a name that is in
 * no string (the machine's own) takes no number from the others. */
#define LIT_PENDING (UINT32_MAX - 1)

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
	/* haslen[kind][len]: a literal of the kind is len bytes long (0..
	 * maxlen); lens[kind]: those lengths, ascending (nlens of them):
	 * each position tries these lengths alone */
	unsigned char *haslen[2];
	size_t lenalloc[2];
	size_t *lens[2], nlens[2], lensalloc[2];
	/* first[kind][c]: a literal of the kind starts with byte c */
	unsigned char first[2][256];
	char name[48]; /* redactor_kernel's answer */
	/* a name looked up, in lower case: names (hosts, users, rank
	 * folders) are found in any case, as a host name is one host in
	 * any case (ZQHOST_AllReduce) */
	char *low;
	size_t lowalloc;
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
	free(rd->low);
	for (c = 0; c < REDACT_CLASSES; c++)
		strtab_release(&rd->seen[c]);
	for (i = 0; i < 2; i++) {
		strtab_release(&rd->tab[i]);
		free(rd->lits[i]);
		free(rd->haslen[i]);
		free(rd->lens[i]);
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

/* The longest name registered without a number of its own (a name met
 * later, a metadata value dropped): longer ones are not looked for in
 * other strings (no host name is; the value itself is dropped). */
#define NAME_MAX_LEN 256

/* s[0..len) in ASCII lower case, in rd's scratch (kept until the next
 * call). */
static const char *lowered(struct redactor *rd, const char *s, size_t len)
{
	size_t i;

	rd->low = xgrow(rd->low, 1, len + 1, &rd->lowalloc);
	for (i = 0; i < len; i++)
		rd->low[i] = s[i] >= 'A' && s[i] <= 'Z'
		                 ? (char)(s[i] - 'A' + 'a')
		                 : s[i];
	rd->low[len] = '\0';
	return rd->low;
}

/* Adds s[0..len) as a literal of class c looked for in every string,
 * with pseudonym number id. The first class and id given a text keep
 * it. */
static void push_lit(struct redactor *rd, enum redact_class c, const char *s,
                     size_t len, enum lit_kind kind, uint32_t id)
{
	struct strtab *t = &rd->tab[kind];
	uint32_t k;
	unsigned char c0 = (unsigned char)s[0];

	if (kind == LIT_WORD)
		s = lowered(rd, s, len);
	if (strtab_find(t, s, len) != UINT32_MAX)
		return;
	k = strtab_intern(t, s, len);
	rd->lits[kind] = xgrow(rd->lits[kind], sizeof(struct lit),
	                       (size_t)k + 1, &rd->alloc[kind]);
	rd->lits[kind][k] = (struct lit){c, id};
	if (len > rd->maxlen[kind])
		rd->maxlen[kind] = len;
	if (len >= rd->lenalloc[kind]) {
		size_t old = rd->lenalloc[kind];
		rd->haslen[kind] =
		    xgrow(rd->haslen[kind], 1, len + 1, &rd->lenalloc[kind]);
		memset(rd->haslen[kind] + old, 0, rd->lenalloc[kind] - old);
	}
	if (!rd->haslen[kind][len]) {
		size_t j;
		rd->haslen[kind][len] = 1;
		rd->lens[kind] =
		    xgrow(rd->lens[kind], sizeof(size_t), rd->nlens[kind] + 1,
		          &rd->lensalloc[kind]);
		for (j = rd->nlens[kind]; j > 0 && rd->lens[kind][j - 1] > len;
		     j--)
			rd->lens[kind][j] = rd->lens[kind][j - 1];
		rd->lens[kind][j] = len;
		rd->nlens[kind]++;
	}
	rd->first[kind][c0] = 1;
	if (kind == LIT_WORD && c0 >= 'a' && c0 <= 'z')
		rd->first[kind][c0 - 'a' + 'A'] = 1;
	else if (kind == LIT_WORD && c0 >= 'A' && c0 <= 'Z')
		rd->first[kind][c0 - 'A' + 'a'] = 1;
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
	size_t n = name ? strlen(name) : 0;

	/* numbered when first met (LIT_PENDING); counted in the map's cap */
	if (n >= WORD_MIN && n <= NAME_MAX_LEN &&
	    rd->entries < REDACT_MAX_ENTRIES &&
	    (c == REDACT_HOST || c == REDACT_USER)) {
		rd->entries++;
		push_lit(rd, c, name, n, LIT_WORD, LIT_PENDING);
	}
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

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* 1 when a name may begin or end between a and b (a first; 0: the start
 * or the end of the string): at any byte that is no letter or digit
 * ('_', '-', '.', '/', ':', '@', '%', a space...), between letters and
 * digits, and from a lower-case letter to an upper-case one
 * (hcom_allReduce__zqhost_1, ZqhostAllReduce: camelCase). */
static int word_boundary(int a, int b)
{
	if (!a || !b || !is_alnum(a) || !is_alnum(b))
		return 1;
	if (is_digit(a) != is_digit(b))
		return 1;
	return a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z';
}

/* A separator a name may be glued to another with (AllReduce_10.1.2.3,
 * x-/home/u/y): an address or a path after one is looked for too. */
static int glue(int c)
{
	return c == '_' || c == '-' || c == '@' || c == '%';
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
 * where one may (a path: before '/' or what no name holds; a name: at a
 * word boundary): its length (0: none), *l its pseudonym. Each candidate
 * end is one hash lookup. */
static size_t longest_lit(struct redactor *rd, enum lit_kind kind,
                          const char *s, size_t i, size_t n, struct lit **l)
{
	size_t k, e, best = 0;

	if (!rd->first[kind][(unsigned char)s[i]])
		return 0;
	for (k = 0; k < rd->nlens[kind] && rd->lens[kind][k] <= n - i; k++) {
		int next;
		uint32_t id;
		e = i + rd->lens[kind][k];
		next = e < n ? (unsigned char)s[e] : 0;
		if (kind == LIT_PATH
		        ? next && next != '/' && is_name(next)
		        : !word_boundary((unsigned char)s[e - 1], next))
			continue;
		id = strtab_find(&rd->tab[kind],
		                 kind == LIT_WORD ? lowered(rd, s + i, e - i)
		                                  : s + i,
		                 e - i);
		if (id != UINT32_MAX) {
			best = e - i;
			*l = &rd->lits[kind][id];
		}
	}
	return best;
}

/* The literal that s[i..n) starts with: a path (not inside a longer name
 * or path) or a name (at a word boundary: glued to what precedes it by
 * any separator, or by a change from letters to digits or from lower to
 * upper case), the longer of the two, a rank folder when they tie. Its
 * length, or 0. */
static size_t match_lit(struct redactor *rd, const char *s, size_t i, size_t n,
                        struct lit **l)
{
	int prev = i ? (unsigned char)s[i - 1] : 0;
	struct lit *lp = NULL, *lw = NULL;
	size_t p = 0, w = 0;

	if (rd->tab[LIT_PATH].n && !(i && (is_name(prev) || prev == '/')))
		p = longest_lit(rd, LIT_PATH, s, i, n, &lp);
	if (rd->tab[LIT_WORD].n && word_boundary(prev, (unsigned char)s[i]))
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
	/* not part of a longer number or dotted run of numbers; a letter
	 * may follow (glued: 10.1.2.3grp) */
	if (k < n && (is_digit(s[k]) ||
	              (s[k] == '.' && k + 1 < n && is_digit(s[k + 1]))))
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

/* 1 when s[0..n) holds a decimal digit. */
static int has_digit(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (is_digit(s[i]))
			return 1;
	return 0;
}

/* The length of an IPv6 address at s[i..n), or 0: the longest run of hex
 * digits, ':' and '.' that is one (a run ending a sentence loses its
 * '.'; "fe80::1:" loses its ':'). glued: it follows a name (glue()), or a
 * name follows it: then it must hold a decimal digit, as every address
 * in use does and no "Add::dead" of a name does. */
static size_t ipv6_at(const char *s, size_t i, size_t n, int glued)
{
	size_t e = i, colons = 0, len = 0;

	while (e < n && (is_hex(s[e]) || s[e] == ':' || s[e] == '.')) {
		colons += s[e] == ':';
		e++;
	}
	if (colons < 2)
		return 0;
	if (e < n && (is_alnum(s[e]) || s[e] == '_' || s[e] == '-'))
		glued = 1;
	while (e > i && s[e - 1] == '.')
		e--;
	if (ipv6_valid(s + i, e - i))
		len = e - i;
	else if (e > i + 1 && s[e - 1] == ':' && s[e - 2] != ':' &&
	         ipv6_valid(s + i, e - 1 - i))
		len = e - 1 - i;
	if (len && glued && !has_digit(s + i, len))
		return 0;
	return len;
}

/* An address at s[i..n) (IPv4 when v4, IPv6 when v6: where each may
 * start), with what follows it: an HCCL group name
 * (address%interface_NUMBER..., *cls REDACT_GROUP) or a zone
 * (address%interface). glued: see ipv6_at. The length, or 0. */
static size_t address_at(const char *s, size_t i, size_t n, int v4, int v6,
                         int glued, enum redact_class *cls)
{
	size_t a = v4 ? ipv4_at(s, i, n) : 0;
	size_t b = v6 ? ipv6_at(s, i, n, glued) : 0, e, k;

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

/* The length of an absolute (or ~/) path at s[i..n), or 0. One glued to
 * a name (x_/home/u/y) needs two components: "GB/s" and "N/A" are
 * none. */
static size_t path_at(const char *s, size_t i, size_t n)
{
	size_t e = i, k, slashes = 0;
	int glued = i && glue((unsigned char)s[i - 1]);

	if (i && !glued && !path_lead((unsigned char)s[i - 1]))
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
	for (k = i; k < e; k++)
		slashes += s[k] == '/';
	if (glued && slashes < 2)
		return 0;
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
		struct lit *l = NULL;
		enum redact_class cls;
		uint32_t id;
		size_t len;
		int prev = i ? (unsigned char)s[i - 1] : 0;
		/* an IPv4 address after anything but a digit or a '.' that
		 * follows one (AllReduce_10.1.2.3_grp, grp10.1.2.3,
		 * x.10.1.2.3; not 2 of 1.2.3.4.5); an IPv6 one after no
		 * letter, digit, '.' or ':' */
		int v4 = is_digit(s[i]) && !is_digit(prev) &&
		         !(prev == '.' && (i < 2 || is_digit(s[i - 2])));
		int v6 = (is_hex(s[i]) || s[i] == ':') && !is_alnum(prev) &&
		         prev != '.' && prev != ':';

		if ((len = match_lit(rd, s, i, n, &l)) > 0) {
			if (l->id == LIT_PENDING) /* met first here */
				l->id = learn(rd, l->cls, s + i, len);
			add_pseudonym(out, l->cls, l->id);
			i += len;
			continue;
		}
		if ((v4 || v6) &&
		    (len = address_at(s, i, n, v4, v6, glue(prev), &cls)) > 0) {
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

/* A kernel type registered with --redact-kernels: its pseudonym (whatever
 * characters the name has); other types are left to the walk below. */
static void redact_type(struct redactor *rd, char **type)
{
	const char *op = *type ? redactor_kernel(rd, *type) : NULL;

	if (!op)
		return;
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

/* Every string member of the result, as tables of fields
 * (util/fieldtab.h), walked by redact_walk: by construction, a string the
 * tables list is rewritten wherever it sits in the result, and the test
 * redact_fields (tests/redact/fields.py) fails when result.h (or a header
 * it holds structs of) has a string member, or a struct holding one,
 * that no row names. Rows:
 *   FT_STR   rewritten (redactor_rewrite), n of them when n > 1; min > 0:
 *            a metadata field (enum redact_field min - 1) kept only when
 *            it has its kind's shape (meta_shape) and the rewrite leaves
 *            it as it is, else dropped (NULL) and counted; min < 0: a
 *            name never shown (the db's host), of class -min - 1,
 *            looked for in every string (redactor_add_name), then freed
 *   FT_CHARS a string held in the struct (a transport name): rewritten,
 *            "redacted" when the rewrite does not fit
 *   FT_SYM   sdperf's own text, never from the input (static strings,
 *            codes checked against sdperf's tables, hashes it computed):
 *            listed so that the check sees it was decided, not rewritten
 *   FT_SUB   an embedded struct (n of them)
 *   FT_LIST  a pointer to count_off elements; count_off SIZE_MAX: to
 *            one element or NULL */
#define RSTR(T, M) FT_STRF(T, M)
#define RSTRS(T, M, N)                                                         \
	{                                                                      \
#M, FT_STR, offsetof(T, M), N, 0, 0, NULL, 0, NULL, 0, 0, 0    \
	}
#define RMETA(T, M, F)                                                         \
	{                                                                      \
#M, FT_STR, offsetof(T, M), 1, (F) + 1, 0, NULL, 0, NULL, 0,   \
		    0, 0                                                       \
	}
#define RNAME(T, M, C)                                                         \
	{                                                                      \
#M, FT_STR, offsetof(T, M), 1, -(int64_t)(C)-1, 0, NULL, 0,    \
		    NULL, 0, 0, 0                                              \
	}
#define ROWN(T, M)                                                             \
	{                                                                      \
#M, FT_SYM, offsetof(T, M), 1, 0, 0, NULL, 0, NULL, 0, 0, 0    \
	}
#define RSUB(T, M, N, SUB, ET)    FT_SUBF(T, M, N, SUB, ET)
#define RLIST(T, M, CNT, SUB, ET) FT_LISTF(T, M, CNT, SUB, ET, 0)
#define RONE(T, M, SUB, ET)                                                    \
	{                                                                      \
#M, FT_LIST, offsetof(T, M), 1, 0, 0, NULL, 0, &(SUB),         \
		    sizeof(ET), SIZE_MAX, 0                                    \
	}

static const struct ft_field str_f[] = {
    {NULL, FT_STR, 0, 1, 0, 0, NULL, 0, NULL, 0, 0, 0}};
static const struct ft_table str_t = FT_TABLE(str_f);
static const struct ft_field own_f[] = {
    {NULL, FT_SYM, 0, 1, 0, 0, NULL, 0, NULL, 0, 0, 0}};
static const struct ft_table own_t = FT_TABLE(own_f);

static const struct ft_field roww_f[] = {
    RSTR(struct row_warning, reason),
    ROWN(struct row_warning, code),
    RSTRS(struct row_warning, args, 3),
};
static const struct ft_table roww_t = FT_TABLE(roww_f);

static const struct ft_field kinfo_f[] = {
    RSTR(struct kernels_info, path),
    RSTR(struct kernels_info, variant),
    ROWN(struct kernels_info, era),
    RLIST(struct kernels_info, warn, nwarn, roww_t, struct row_warning),
};
static const struct ft_table kinfo_t = FT_TABLE(kinfo_f);

static const struct ft_field input_f[] = {
    ROWN(struct input_desc, role),
    RSUB(struct input_desc, file, 1, kinfo_t, struct kernels_info),
};
static const struct ft_table input_t = FT_TABLE(input_f);

static const struct ft_field type_f[] = {RSTR(struct type_stat, type)};
static const struct ft_table type_t = FT_TABLE(type_f);

static const struct ft_field stage_f[] = {
    RLIST(struct stage_result, top, ntop, type_t, struct type_stat)};
static const struct ft_table stage_t = FT_TABLE(stage_f);

static const struct ft_field gain_f[] = {
    RSTR(struct gain, assumption_en),
    RSTR(struct gain, assumption_zh),
    RSTR(struct gain, source),
    RSTR(struct gain, source_zh),
};
static const struct ft_table gain_t = FT_TABLE(gain_f);

static const struct ft_field verdict_f[] = {
    ROWN(struct verdict, id), /* a rules id: the catalogues' key */
    RSTR(struct verdict, title),
    RSTR(struct verdict, metric),
    RSTR(struct verdict, recommendation),
    RSTR(struct verdict, check),
    RSTR(struct verdict, how),
    ROWN(struct verdict, na_reason),
    ROWN(struct verdict, na_code),
    /* feature doc keys, each checked against feature_doc_keys */
    RLIST(struct verdict, docs, ndocs, own_t, char *),
    RONE(struct verdict, gain, gain_t, struct gain),
};
static const struct ft_table verdict_t = FT_TABLE(verdict_f);

static const struct ft_field warn_f[] = {
    ROWN(struct warning, code),
    RSTR(struct warning, file),
    RSTR(struct warning, message),
    ROWN(struct warning, reason), /* a code: "not_a_number", ... */
    RSTRS(struct warning, args, WARNING_ARGS),
};
static const struct ft_table warn_t = FT_TABLE(warn_f);

static const struct ft_field marker_f[] = {RSTR(struct stage_marker, name)};
static const struct ft_table marker_t = FT_TABLE(marker_f);

static const struct ft_field db_f[] = {
    RSTR(struct rank_db, path),
    RMETA(struct rank_db, schema, REDACT_F_DB_SCHEMA),
};
static const struct ft_table db_t = FT_TABLE(db_f);

static const struct ft_field rcoll_f[] = {
    ROWN(struct rank_collection, export_type),
    ROWN(struct rank_collection, level_source),
    ROWN(struct rank_collection, cpu_source),
    ROWN(struct rank_collection, shapes_source),
    ROWN(struct rank_collection, memory_source),
    ROWN(struct rank_collection, aic_source),
    ROWN(struct rank_collection, steps_source),
};
static const struct ft_table rcoll_t = FT_TABLE(rcoll_f);

static const struct ft_field totals_f[] = {
    ROWN(struct totals_check, source),
    RSTR(struct totals_check, worst_type),
};
static const struct ft_table totals_t = FT_TABLE(totals_f);

static const struct ft_field link_f[] = {
    FT_CHARSF(struct comm_link, transport)};
static const struct ft_table link_t = FT_TABLE(link_f);

static const struct ft_field infile_f[] = {
    ROWN(struct input_file, what),
    RSTR(struct input_file, path),
    ROWN(struct input_file, sha256),
};
static const struct ft_table infile_t = FT_TABLE(infile_f);

static const struct ft_field rank_f[] = {
    ROWN(struct rank_result, id_source),
    RSTR(struct rank_result, dir),
    RSTRS(struct rank_result, files, RF_COUNT),
    RMETA(struct rank_result, torch_npu_version, REDACT_F_TORCH_NPU_VERSION),
    RMETA(struct rank_result, cann_version, REDACT_F_CANN_VERSION),
    RMETA(struct rank_result, profiler_level, REDACT_F_PROFILER_LEVEL),
    RMETA(struct rank_result, aic_metrics, REDACT_F_AIC_METRICS),
    ROWN(struct rank_result, kernel_source),
    ROWN(struct rank_result, steps_source),
    RLIST(struct rank_result, markers, nmarkers, marker_t, struct stage_marker),
    ROWN(struct rank_result, stage_source),
    RSUB(struct rank_result, db, 1, db_t, struct rank_db),
    RSUB(struct rank_result, coll, 1, rcoll_t, struct rank_collection),
    RSUB(struct rank_result, totals, TOT_COUNT, totals_t, struct totals_check),
    RLIST(struct rank_result, links, nlinks, link_t, struct comm_link),
    RLIST(struct rank_result, unused, nunused, str_t, char *),
    RMETA(struct rank_result, chip, REDACT_F_CHIP),
    RNAME(struct rank_result, host, REDACT_HOST),
    RLIST(struct rank_result, inputs, ninputs, infile_t, struct input_file),
    ROWN(struct rank_result, captured_from),
};
static const struct ft_table rank_t = FT_TABLE(rank_f);

static const struct ft_field coll_f[] = {
    RSUB(struct collection, sum, 1, rcoll_t, struct rank_collection),
    ROWN(struct collection, export_type),
    /* borrowed from a rank's (rewritten there; redact_result points
     * them at the rank's again) */
    ROWN(struct collection, torch_npu_version),
    ROWN(struct collection, cann_version),
};
static const struct ft_table coll_t = FT_TABLE(coll_f);

static const struct ft_field mem_f[] = {
    RMETA(struct memory_summary, chip, REDACT_F_CHIP),
    ROWN(struct memory_summary, card_source),
};
static const struct ft_table mem_t = FT_TABLE(mem_f);

static const struct ft_field brand_f[] = {
    RSTR(struct brand, org),       RSTR(struct brand, customer),
    RSTR(struct brand, ticket),    RSTR(struct brand, confidential),
    ROWN(struct brand, logo_mime), ROWN(struct brand, logo_sha256),
};
static const struct ft_table brand_t = FT_TABLE(brand_f);

static const struct ft_field prov_f[] = {
    RSTR(struct provenance, command_line),
    ROWN(struct provenance, version),
    ROWN(struct provenance, build),
    RSTR(struct provenance, rules),
    ROWN(struct provenance, rules_sha256),
    ROWN(struct provenance, captured_from),
};
static const struct ft_table prov_t = FT_TABLE(prov_f);

static const struct ft_field result_f[] = {
    RSTR(struct result, profile_path),
    RSTR(struct result, rank_dir),
    RLIST(struct result, inputs, ninputs, input_t, struct input_desc),
    RSUB(struct result, stages, STAGE_COUNT, stage_t, struct stage_result),
    RSTR(struct result, stage_method),
    RLIST(struct result, unmatched, nunmatched, type_t, struct type_stat),
    RLIST(struct result, verdicts, nverdicts, verdict_t, struct verdict),
    RSTR(struct result, rules_source),
    RLIST(struct result, warnings, nwarnings, warn_t, struct warning),
    RLIST(struct result, ranks, nranks, rank_t, struct rank_result),
    RSUB(struct result, collection, 1, coll_t, struct collection),
    RSUB(struct result, memory, 1, mem_t, struct memory_summary),
    RSUB(struct result, brand, 1, brand_t, struct brand),
    RSUB(struct result, prov, 1, prov_t, struct provenance),
};
static const struct ft_table result_t = FT_TABLE(result_f);

/* ---- metadata: kept when it has its kind's shape ------------------------ */

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A word a release name holds (case aside): 2.5.1.dev20241207,
 * 2.1.0.post10, 8.0.RC3.alpha001, 7.0.T3, 6.3.RC1.B010, 8.0.0.SPC001. */
static int release_word(const char *s, size_t n)
{
	static const char *const words[] = {"rc",   "post", "dev", "alpha",
	                                    "beta", "a",    "b",   "t",
	                                    "spc",  "tr",   "hf"};
	size_t i, k;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strlen(words[i]) != n)
			continue;
		for (k = 0; k < n; k++)
			if ((s[k] | 0x20) != words[i][k])
				break;
		if (k == n)
			return 1;
	}
	return 0;
}

/* A version: at most 40 bytes, parts split by '.', '-', '+' or '_', the
 * first starting with a digit, each digits, a release word, or digits, a
 * release word and digits (0rc1, RC2, post10). */
static int version_shape(const char *s)
{
	size_t n = strlen(s), i = 0;

	if (!n || n > 40 || !is_digit(s[0]))
		return 0;
	while (i < n) {
		size_t b = i, w;
		while (i < n && is_digit(s[i]))
			i++;
		w = i;
		while (i < n && is_alpha(s[i]))
			i++;
		if (i > w && !release_word(s + w, i - w))
			return 0;
		while (i < n && is_digit(s[i]))
			i++;
		if (i == b)
			return 0; /* an empty part, or a byte of no part */
		if (i < n) {
			if (s[i] != '.' && s[i] != '-' && s[i] != '+' &&
			    s[i] != '_')
				return 0;
			if (++i == n)
				return 0;
		}
	}
	return 1;
}

/* s is prefix followed by 1..max bytes of [A-Za-z0-9_] (upper: capitals,
 * digits and '_' only). */
static int ident_shape(const char *s, const char *prefix, size_t max, int upper)
{
	size_t p = strlen(prefix), n = strlen(s), i;

	if (n <= p || n - p > max || strncmp(s, prefix, p))
		return 0;
	for (i = p; i < n; i++)
		if (!(is_digit(s[i]) || s[i] == '_' ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (!upper && is_alpha(s[i]))))
			return 0;
	return 1;
}

/* 1 when s has the shape of metadata field f: a version (torch_npu, CANN,
 * the db's schema), a profiler level (Level0, Level1, Level2,
 * Level_none), an AI Core metrics name (ACL_AICORE_...), a chip model
 * (Ascend...). */
static int meta_shape(enum redact_field f, const char *s)
{
	switch (f) {
	case REDACT_F_TORCH_NPU_VERSION:
	case REDACT_F_CANN_VERSION:
	case REDACT_F_DB_SCHEMA:
		return version_shape(s);
	case REDACT_F_PROFILER_LEVEL:
		return !strcmp(s, "Level0") || !strcmp(s, "Level1") ||
		       !strcmp(s, "Level2") || !strcmp(s, "Level_none");
	case REDACT_F_AIC_METRICS:
		return ident_shape(s, "ACL_AICORE_", 40, 1);
	case REDACT_F_CHIP:
		return ident_shape(s, "Ascend", 30, 0);
	case REDACT_FIELDS:
		break;
	}
	return 0;
}

/* A metadata value: kept when it has its field's shape and nothing in it
 * is replaced, else dropped (a version holding a user name is no version
 * to show, and no rewrite of it would be one) and counted. A value
 * dropped becomes a literal of its own, "redacted" wherever another
 * string quotes it (the db's schema in its input's description). */
static void redact_meta(struct redactor *rd, struct result *r,
                        enum redact_field f, char **s)
{
	char *t;
	size_t n;
	int keep;

	if (!*s)
		return;
	t = redactor_rewrite(rd, *s); /* learns what it holds */
	keep = meta_shape(f, *s) && !strcmp(t, *s);
	free(t);
	if (keep)
		return;
	n = strlen(*s);
	if (n && n <= NAME_MAX_LEN && rd->entries < REDACT_MAX_ENTRIES) {
		rd->entries++;
		push_lit(rd, REDACT_PATH, *s, n, LIT_WORD, UINT32_MAX);
	}
	free(*s);
	*s = NULL;
	r->redaction.dropped[f]++;
}

/* A string held in the struct, of size bytes with its NUL. */
static void redact_chars(struct redactor *rd, char *s, size_t size)
{
	char *t = redactor_rewrite(rd, s);

	if (strlen(t) < size)
		memcpy(s, t, strlen(t) + 1);
	else
		snprintf(s, size, "%s", "redacted");
	free(t);
}

/* The walk's phases, in order: the names never shown (registered),
 * the metadata (kept or dropped), then every other string. */
enum { PHASE_REST, PHASE_META, PHASE_NAMES };

/* Rewrites every string of the n elements of table t at base (stride
 * size), recursively, in phase (the rows of that phase alone). */
static void redact_walk(struct redactor *rd, struct result *r,
                        const struct ft_table *t, void *base, size_t n,
                        size_t size, int phase)
{
	size_t e, i, k;

	for (e = 0; e < n; e++) {
		char *el = (char *)base + e * size;
		for (i = 0; i < t->n; i++) {
			const struct ft_field *f = &t->f[i];
			char *at = el + f->off;
			switch (f->kind) {
			case FT_STR:
				if ((f->min < 0   ? PHASE_NAMES
				     : f->min > 0 ? PHASE_META
				                  : PHASE_REST) != phase)
					break;
				for (k = 0; k < f->n; k++) {
					char **p = (char **)at + k;
					if (f->min < 0) {
						redactor_add_name(
						    rd,
						    (enum redact_class)(
						        -f->min - 1),
						    *p);
						free(*p);
						*p = NULL;
					} else if (f->min > 0)
						redact_meta(rd, r,
						            (enum redact_field)(
						                f->min - 1),
						            p);
					else
						redactor_rewrite_str(rd, p);
				}
				break;
			case FT_CHARS:
				if (phase == PHASE_REST)
					redact_chars(rd, at, f->size);
				break;
			case FT_SUB:
				redact_walk(rd, r, f->sub, at, f->n, f->size,
				            phase);
				break;
			case FT_LIST: {
				void *p = *(void **)at;
				size_t cnt =
				    f->count_off == SIZE_MAX
				        ? (p != NULL)
				        : *(size_t *)(el + f->count_off);
				if (p)
					redact_walk(rd, r, f->sub, p, cnt,
					            f->size, phase);
				break;
			}
			default: /* FT_SYM: sdperf's own */
				break;
			}
		}
	}
}

void redact_result_counts(struct result *r)
{
	int c;

	for (c = 0; c < REDACT_CLASSES; c++)
		r->redaction.replaced[c] =
		    redactor_count(r->redactor, (enum redact_class)c);
}

/* The rank whose string p is (collection's borrowed versions), or
 * SIZE_MAX. */
static size_t owner(const struct result *r, const char *p, int cann)
{
	size_t i;

	for (i = 0; p && i < r->nranks; i++)
		if ((cann ? r->ranks[i].cann_version
		          : r->ranks[i].torch_npu_version) == p)
			return i;
	return SIZE_MAX;
}

void redact_result(struct result *r, struct redactor *rd)
{
	size_t i, tn, cn;

	r->redactor = rd;
	for (i = 0; i < r->nranks; i++)
		redactor_add_rank_dir(rd, r->ranks[i].dir);
	/* a single kernel_details.csv read without rank records */
	if (!r->nranks)
		redactor_add_rank_dir(rd, r->rank_dir);
	redact_types(rd, r);
	tn = owner(r, r->collection.torch_npu_version, 0);
	cn = owner(r, r->collection.cann_version, 1);
	/* the names first, then the metadata: a value dropped is then
	 * replaced wherever another string holds it */
	redact_walk(rd, r, &result_t, r, 1, sizeof(*r), PHASE_NAMES);
	redact_walk(rd, r, &result_t, r, 1, sizeof(*r), PHASE_META);
	redact_walk(rd, r, &result_t, r, 1, sizeof(*r), PHASE_REST);
	/* the collection's versions are the ranks' (or gone with them) */
	r->collection.torch_npu_version =
	    tn == SIZE_MAX ? NULL : r->ranks[tn].torch_npu_version;
	r->collection.cann_version =
	    cn == SIZE_MAX ? NULL : r->ranks[cn].cann_version;
	r->redaction.on = 1;
	r->redaction.kernels = rd->kernels;
	redact_result_counts(r);
}
