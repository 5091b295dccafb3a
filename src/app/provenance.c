/* The report's provenance and branding, gathered in one place: the
 * command line and the input paths stay plain strings here (in
 * result.prov and each rank's inputs), so a redaction pass can cover
 * them. */
#define _GNU_SOURCE /* gettid: the hashing thread's own nice value */
#include "app/provenance.h"

#include "app/about.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "format/report.h"
#include "util/xalloc.h"
#include "version.h"
#include "util/banned.h"

static int safe_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr(
		        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		        "0123456789_-+=.,/:@%",
		        *s))
			return 0;
	return 1;
}

/* The bytes of w the command line keeps: all (SIZE_MAX), none (0), or a
 * bundle's head. */
static size_t kept(const char *w, const struct argv_cut *cuts, size_t ncuts)
{
	size_t k;

	for (k = 0; k < ncuts; k++)
		if (cuts[k].word == w)
			return cuts[k].keep;
	return SIZE_MAX;
}

void prov_command_line(int argc, const char *const *argv,
                       const struct argv_cut *cuts, size_t ncuts,
                       struct strbuf *out)
{
	int i;
	size_t n, k;
	char *w;

	strbuf_adds(out, "sdperf");
	for (i = 1; i < argc; i++) {
		if (!(n = kept(argv[i], cuts, ncuts)))
			continue;
		w = n == SIZE_MAX ? xstrdup(argv[i]) : xstrndup(argv[i], n);
		strbuf_addch(out, ' ');
		if (safe_word(w)) {
			strbuf_adds(out, w);
			free(w);
			continue;
		}
		strbuf_addch(out, '\'');
		for (k = 0; w[k]; k++)
			if (w[k] == '\'')
				strbuf_adds(out, "'\\''");
			else
				strbuf_addch(out, w[k]);
		strbuf_addch(out, '\'');
		free(w);
	}
}

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int num(const char *s, int n)
{
	int v = 0;

	while (n--)
		v = v * 10 + (*s++ - '0');
	return v;
}

int64_t prov_folder_time(const char *path)
{
	static const char tail[] = "_ascend_pt";
	const char *hit = NULL, *p = path, *d;
	int y, mo, da, h, mi, se;

	/* the last "_<17 digits>_ascend_pt" in the path */
	while ((p = strstr(p, tail)) != NULL) {
		d = p - 17;
		if (d - 1 >= path && d[-1] == '_' &&
		    strspn(d, "0123456789") == 17)
			hit = d;
		p += sizeof(tail) - 1;
	}
	if (!hit)
		return -1;
	y = num(hit, 4);
	mo = num(hit + 4, 2);
	da = num(hit + 6, 2);
	h = num(hit + 8, 2);
	mi = num(hit + 10, 2);
	se = num(hit + 12, 2);
	if (y < 2000 || mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 ||
	    mi > 59 || se > 60)
		return -1;
	return days_from_civil(y, mo, da) * 86400 + h * 3600 + mi * 60 + se;
}

/* The hashing thread yields to the parsing threads: 8 nice steps below
 * them (Linux: a thread has its own nice value), it runs mostly on the
 * core time they leave idle (the chunks' wait for the reference, the
 * merge and analysis on one thread). 2.10-2.13 s against 2.19-2.34 s
 * at the same nice, for the 1 GB file with -j 2 on 2 cores. Failing to
 * change it changes nothing else. */
static void lower_priority(void)
{
#ifdef __linux__
	id_t self = (id_t)gettid();
	int now;

	errno = 0;
	now = getpriority(PRIO_PROCESS, self);
	if (errno == 0 && now < 19)
		(void)setpriority(PRIO_PROCESS, self,
		                  now + 8 > 19 ? 19 : now + 8);
#endif
}

static void *prehash_main(void *arg)
{
	struct prov_prehash *ph = arg;
	size_t i;

	lower_priority();

	for (i = 0; i < ph->n; i++) {
		struct prov_hashed *h = &ph->f[i];
		h->rc = sha256_file(h->path, &h->size, h->sha256, &h->e);
	}
	return NULL;
}

static void prehash_add(struct prov_prehash *ph, const char *path)
{
	if (path && ph->n < sizeof(ph->f) / sizeof(*ph->f)) {
		ph->f[ph->n].path = path;
		err_clear(&ph->f[ph->n].e);
		ph->n++;
	}
}

void prov_prehash_start(struct prov_prehash *ph, const struct disc_rank *dr)
{
	memset(ph, 0, sizeof(*ph));
	ph->dr = dr;
	/* the largest first: the kernels file or the db */
	if (dr->use == EXPORT_DB) {
		prehash_add(ph, dr->files[DF_DB]);
	} else {
		prehash_add(ph, dr->files[RF_KERNELS]);
		prehash_add(ph, dr->files[RF_STEPS]);
		prehash_add(ph, dr->files[RF_COMM]);
		prehash_add(ph, dr->memfiles[DM_MEMORY_RECORD]);
	}
	prehash_add(ph, dr->files[RF_INFO]);
	if (!ph->n)
		return;
	if (pthread_create(&ph->tid, NULL, prehash_main, ph)) {
		ph->n = 0; /* hashed in the worker, after the analysis */
		return;
	}
	ph->started = 1;
}

void prov_prehash_join(struct prov_prehash *ph)
{
	if (ph->started)
		pthread_join(ph->tid, NULL);
	ph->started = 0;
}

static const struct prov_hashed *hashed(const struct prov_prehash *ph,
                                        const char *path)
{
	size_t i;

	for (i = 0; ph && i < ph->n; i++)
		if (ph->f[i].path == path || !strcmp(ph->f[i].path, path))
			return &ph->f[i];
	return NULL;
}

static int add_input(struct rank_result *rr, const char *what, const char *path,
                     const struct prov_prehash *ph, struct err *e)
{
	const struct prov_hashed *h = hashed(ph, path);
	struct input_file *f;

	rr->inputs =
	    xrealloc(rr->inputs, (rr->ninputs + 1) * sizeof(*rr->inputs));
	f = &rr->inputs[rr->ninputs];
	memset(f, 0, sizeof(*f));
	if (h && h->rc) {
		*e = h->e;
		return -1;
	}
	if (h) {
		f->size = h->size;
		memcpy(f->sha256, h->sha256, SHA256_HEX);
	} else if (sha256_file(path, &f->size, f->sha256, e)) {
		return -1;
	}
	f->what = what;
	f->path = xstrdup(path);
	rr->ninputs++;
	return 0;
}

/* The memory files memory_read_sources tried, in its order: each one
 * until one gave samples (analysis/memory.c). */
static int memory_inputs(const struct disc_rank *dr, struct rank_result *rr,
                         const struct prov_prehash *ph, struct err *e)
{
	int src = rr->mem.source;
	const char *const *f = (const char *const *)dr->memfiles;

	if (f[DM_MEMORY_RECORD] &&
	    add_input(rr, discover_memfile_names[DM_MEMORY_RECORD],
	              f[DM_MEMORY_RECORD], ph, e))
		return -1;
	if (src == MEMSRC_MEMORY_RECORD || src == MEMSRC_TRACE)
		return 0;
	if (f[DM_OPERATOR_MEMORY] &&
	    add_input(rr, discover_memfile_names[DM_OPERATOR_MEMORY],
	              f[DM_OPERATOR_MEMORY], ph, e))
		return -1;
	if (src == MEMSRC_OPERATOR_MEMORY)
		return 0;
	if (f[DM_NPU_MODULE_MEM] &&
	    add_input(rr, discover_memfile_names[DM_NPU_MODULE_MEM],
	              f[DM_NPU_MODULE_MEM], ph, e))
		return -1;
	return 0;
}

static int text_inputs(const struct disc_rank *dr, struct rank_result *rr,
                       const struct prov_prehash *ph, struct err *e)
{
	static const enum rank_file text[] = {RF_KERNELS, RF_TRACE, RF_STEPS,
	                                      RF_COMM};
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(*text); i++) {
		enum rank_file f = text[i];
		if (!dr->files[f])
			continue;
		/* a trace present but not read (no kernels to map onto) */
		if (f == RF_TRACE && !rr->trace_read &&
		    !(rr->kernel_source &&
		      !strcmp(rr->kernel_source, "trace_view")))
			continue;
		if (add_input(rr, rank_file_names[f], dr->files[f], ph, e))
			return -1;
	}
	return memory_inputs(dr, rr, ph, e);
}

int prov_rank_inputs(const struct disc_rank *dr, struct rank_result *rr,
                     const struct prov_prehash *ph, struct err *e)
{
	rr->captured_s = dr->capture_end_s;
	rr->captured_from = dr->capture_end_s >= 0 ? "profiler_info" : NULL;
	if (rr->captured_s < 0) {
		rr->captured_s = prov_folder_time(dr->dir);
		rr->captured_from = rr->captured_s >= 0 ? "folder" : NULL;
	}
	if (dr->files[RF_INFO] &&
	    add_input(rr, rank_file_names[RF_INFO], dr->files[RF_INFO], ph, e))
		return -1;
	if (dr->use == EXPORT_DB)
		return dr->files[DF_DB]
		           ? add_input(rr, "db", dr->files[DF_DB], ph, e)
		           : 0;
	return text_inputs(dr, rr, ph, e);
}

const char *prov_build(void)
{
	/* the git commit built, as --version says it; "" when sdperf was
	 * not built from a git checkout (the reports show the version alone) */
	const char *c = about_commit();
	return strcmp(c, "unknown") ? c : "";
}

/* An empty branding text is none. */
static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static void fill_brand(const struct options *o, struct brand *b)
{
	unsigned char d[32];

	b->org = dup_or_null(o->org);
	b->customer = dup_or_null(o->customer);
	b->ticket = dup_or_null(o->ticket);
	b->confidential = dup_or_null(o->confidential);
	if (!o->logo_data)
		return;
	b->logo = xmalloc(o->logo_len);
	memcpy(b->logo, o->logo_data, o->logo_len);
	b->logo_len = o->logo_len;
	b->logo_mime = o->logo_mime;
	sha256(b->logo, b->logo_len, d);
	sha256_hex(d, b->logo_sha256);
}

void prov_fill(const struct options *o, const struct rules *ru,
               struct result *r)
{
	struct provenance *p = &r->prov;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	p->set = 1;
	prov_command_line(o->argc, (const char *const *)o->argv, o->cuts,
	                  o->ncuts, &sb);
	p->command_line = strbuf_detach(&sb, NULL);
	p->version = SDPERF_VERSION;
	p->build = prov_build();
	p->rules = xstrdup(ru->source ? ru->source : "built-in");
	memcpy(p->rules_sha256, ru->sha256, sizeof(p->rules_sha256));
	p->captured_s = -1;
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		if (rr->captured_s >= 0 &&
		    (p->captured_s < 0 || rr->captured_s < p->captured_s)) {
			p->captured_s = rr->captured_s;
			p->captured_from = rr->captured_from;
		}
	}
	p->generated_s = (int64_t)report_time_fixed(&p->generated_fixed);
	fill_brand(o, &r->brand);
}
