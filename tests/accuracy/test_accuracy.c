/* Stage-separation accuracy against generated profiles with ground truth
 * (tools/gen, written by tests/accuracy/make-cases.sh). For every rank of
 * every case it prints the share of kernel time attributed to the right
 * stage and asserts: >= 99% for DiT vs VAE, the text encoder found where
 * there is one, and category totals equal to the generator's to the
 * nanosecond (classification is independent of stage separation), and
 * the first kernels after each VAE -> DiT change (the DiT's prologue after
 * an encode) all DiT; the DiT's and the VAE's kernel time within 1% of the
 * truth's, no kernel of the text encoder labelled otherwise (nor the
 * reverse), and the denoiser named as the truth names it (DiT or UNet:
 * the UNet cases' Conv/GroupNorm ResBlocks are the denoiser's). Then
 * the same profiles from their SQLite db export, through the whole
 * pipeline: every stage's kernel time within 0.1% of the truth and of the
 * CSV run's, and every verdict as the CSV run's. Then every case from its
 * traces alone (CASE/trace-only), as `sdperf report` reads a lone trace:
 * each stage's kernel time within 0.1% of the CSV run's and every verdict
 * the same.
 * Usage: test_accuracy CASES_DIR */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyse.h"
#include "app/cli.h"
#include "input/kernels.h"
#include "app/pipeline.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *cases_dir;

struct truth {
	unsigned char *stage; /* enum stage */
	unsigned char *cat;   /* enum category */
	size_t n;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir whose name ends with suffix (or all if NULL). */
static size_t list_dir(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, ls = suffix ? strlen(suffix) : 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' ||
		    (suffix && (l < ls || strcmp(de->d_name + l - ls, suffix))))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_name);
	*out = v;
	return n;
}

static void free_list(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

static void read_truth(const char *path, struct truth *t)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t alloc = 0;
	int s, c;

	assert_non_null(f);
	memset(t, 0, sizeof(*t));
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		char *comma = strchr(line, ',');
		assert_non_null(comma);
		*comma = '\0';
		comma[strcspn(comma + 1, "\r\n") + 1] = '\0';
		s = stage_from_name(line);
		c = category_from_name(comma + 1);
		assert_true(s >= 0 && c >= 0);
		if (t->n == alloc) {
			alloc = alloc ? alloc * 2 : 4096;
			t->stage = xrealloc(t->stage, alloc);
			t->cat = xrealloc(t->cat, alloc);
		}
		t->stage[t->n] = (unsigned char)s;
		t->cat[t->n++] = (unsigned char)c;
	}
	fclose(f);
}

/* Prints each run of kernels whose stage is wrong (for debugging). */
static void show_mismatches(const struct kernel_table *kt,
                            const unsigned char *stage, const struct truth *t)
{
	size_t i, j;

	for (i = 0; i < kt->n; i = j) {
		int64_t d = 0;
		for (j = i; j < kt->n && stage[j] != t->stage[j] &&
		            stage[j] == stage[i] && t->stage[j] == t->stage[i];
		     j++)
			d += kt->v[j].dur_ns;
		if (j == i) {
			j++;
			continue;
		}
		printf("  kernels %zu-%zu: truth %s, sdperf %s, %.3f ms, first "
		       "%s\n",
		       i, j - 1, stage_names[t->stage[i]],
		       stage_names[stage[i]], (double)d / 1e6,
		       kernel_key_type(kt, kt->v[i].key));
	}
}

/* Per-stage kernel time and exposed communication from the generator's
 * rank<r>.json must match sdperf's to the microsecond decimals printed. */
static void check_stage_totals(const char *case_dir, size_t r,
                               const struct result *res)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	struct err e = ERR_INIT;
	const cJSON *stages, *st;
	cJSON *root;
	int s;

	strbuf_addf(&p, "%s/ground_truth/rank%zu.json", case_dir, r);
	assert_int_equal(fileio_read_small(p.buf, 1 << 20, &text, &e), 0);
	root = cJSON_Parse(text.buf);
	assert_non_null(root);
	stages = cJSON_GetObjectItemCaseSensitive(root, "stages");
	for (s = 0; s < STAGE_OTHER; s++) {
		const cJSON *kt, *ex;
		st = cJSON_GetObjectItemCaseSensitive(stages, stage_names[s]);
		if (!st)
			continue;
		kt = cJSON_GetObjectItemCaseSensitive(st, "kernel_time_us");
		ex = cJSON_GetObjectItemCaseSensitive(st, "exposed_comm_us");
		assert_true(cJSON_IsNumber(kt) && cJSON_IsNumber(ex));
		assert_true(fabs(kt->valuedouble -
		                 (double)res->stages[s].kernel_ns / 1e3) <
		            0.0015);
		assert_true(fabs(ex->valuedouble -
		                 (double)res->stages[s].exposed_comm_ns / 1e3) <
		            0.0015);
	}
	cJSON_Delete(root);
	strbuf_release(&p);
	strbuf_release(&text);
}

struct score {
	int64_t dv_total, dv_right; /* kernels whose truth is dit or vae */
	int64_t all_total, all_right;
	int te_truth, te_found;
	/* the first kernels of the DiT after a VAE encode: its prologue */
	int64_t prologue_total, prologue_wrong;
	/* kernels of the text encoder labelled otherwise, or the reverse */
	int64_t te_wrong;
	/* DiT / VAE kernel time, sdperf's and the truth's (its labels
	 * summed over the kernel durations) */
	int64_t st_got[2], st_truth[2];
	int den_wrong; /* the denoiser named other than the truth's */
};

/* The truth's "denoiser" ("DiT" or "UNet") against sdperf's. */
static int denoiser_wrong(const char *case_dir, size_t r,
                          const struct result *res)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	struct err e = ERR_INIT;
	const cJSON *d;
	cJSON *root;
	int wrong;

	strbuf_addf(&p, "%s/ground_truth/rank%zu.json", case_dir, r);
	assert_int_equal(fileio_read_small(p.buf, 1 << 20, &text, &e), 0);
	root = cJSON_Parse(text.buf);
	assert_non_null(root);
	d = cJSON_GetObjectItemCaseSensitive(root, "denoiser");
	assert_true(cJSON_IsString(d));
	wrong = (strcmp(d->valuestring, "UNet") == 0) != !!res->denoiser_unet;
	cJSON_Delete(root);
	strbuf_release(&p);
	strbuf_release(&text);
	return wrong;
}

/* Up to 8 kernels after each truth VAE -> DiT change (the DiT's prologue
 * after an encode, then the loop's first kernels) must be DiT: a few
 * short kernels that a time share would not notice. */
static void check_prologues(const unsigned char *got, const struct truth *t,
                            struct score *sc)
{
	size_t i, j;

	for (i = 1; i < t->n; i++) {
		if (t->stage[i - 1] != STAGE_VAE || t->stage[i] != STAGE_DIT)
			continue;
		for (j = i; j < t->n && j < i + 8 && t->stage[j] == STAGE_DIT;
		     j++) {
			sc->prologue_total++;
			sc->prologue_wrong += got[j] != STAGE_DIT;
		}
	}
}

static void check_rank(const char *case_dir, const char *rank, size_t r,
                       struct score *sc)
{
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct kernels_opts ko = {1, 0,
	                          1}; /* strict: generated files are clean */
	struct err e = ERR_INIT;
	struct rules ru;
	struct result res;
	struct truth t;
	unsigned char *stage = NULL;
	struct strbuf p = STRBUF_INIT;
	int64_t cat_truth[CAT_COUNT] = {0}, cat_got[CAT_COUNT] = {0};
	size_t i;
	int c, s;

	kernel_table_init(&kt);
	result_init(&res);
	strbuf_addf(&p, "%s/%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
	            case_dir, rank);
	assert_int_equal(kernels_read(p.buf, &ko, &kt, &info, &e), 0);
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	assert_int_equal(analyse(&kt, &ru, &res, &stage, &e), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/ground_truth/rank%zu.kernels.csv", case_dir, r);
	read_truth(p.buf, &t);
	/* the generator writes rows sorted by start; sdperf's stable sort
	 * keeps that order, so row i is kernel i on both sides */
	assert_int_equal(t.n, kt.n);
	if (getenv("SDPERF_ACC_VERBOSE"))
		show_mismatches(&kt, stage, &t);
	for (i = 0; i < kt.n; i++) {
		int64_t d = kt.v[i].dur_ns;
		sc->all_total += d;
		sc->all_right += stage[i] == t.stage[i] ? d : 0;
		if (t.stage[i] == STAGE_DIT || t.stage[i] == STAGE_VAE) {
			sc->dv_total += d;
			sc->dv_right += stage[i] == t.stage[i] ? d : 0;
		}
		sc->te_truth |= t.stage[i] == STAGE_TEXT_ENCODER;
		sc->te_wrong += (t.stage[i] == STAGE_TEXT_ENCODER) !=
		                (stage[i] == STAGE_TEXT_ENCODER);
		for (s = 0; s < 2; s++) {
			sc->st_got[s] += stage[i] == s ? d : 0;
			sc->st_truth[s] += t.stage[i] == s ? d : 0;
		}
		cat_truth[t.cat[i]] += d;
	}
	sc->te_found |= res.text_encoder_detected;
	sc->den_wrong |= denoiser_wrong(case_dir, r, &res);
	check_prologues(stage, &t, sc);
	if (sc->all_right == sc->all_total)
		check_stage_totals(case_dir, r, &res);
	for (s = 0; s < STAGE_COUNT; s++)
		for (c = 0; c < CAT_COUNT; c++)
			cat_got[c] += res.stages[s].cat[c].time_ns;
	for (c = 0; c < CAT_COUNT; c++) {
		if (cat_got[c] != cat_truth[c])
			print_error(
			    "%s: category %s: sdperf %lld ns, truth %lld ns\n",
			    rank, category_names[c], (long long)cat_got[c],
			    (long long)cat_truth[c]);
		assert_int_equal(cat_got[c], cat_truth[c]);
	}
	free(t.stage);
	free(t.cat);
	free(stage);
	strbuf_release(&p);
	result_release(&res);
	rules_release(&ru);
	kernels_info_release(&info);
	kernel_table_release(&kt);
}

static void stage_accuracy_on_generated_profiles(void **state)
{
	char **cases, **ranks;
	size_t nc, nr, i, j;
	double worst = 100.0, dev[2];
	int failed = 0;

	(void)state;
	nc = list_dir(cases_dir, NULL, &cases);
	assert_true(nc >= 5);
	printf("%-22s %5s %12s %12s %s %s %s %s\n", "case", "ranks",
	       "DiT-vs-VAE", "all stages", "text encoder (truth/found/wrong)",
	       "DiT after encode (wrong/kernels)", "DiT/VAE time vs truth",
	       "denoiser");
	for (i = 0; i < nc; i++) {
		struct score sc = {0};
		char *dir = fileio_join(cases_dir, cases[i]);
		double dv, all;
		nr = list_dir(dir, "_ascend_pt", &ranks);
		assert_true(nr >= 1);
		for (j = 0; j < nr; j++)
			check_rank(dir, ranks[j], j, &sc);
		dv = 100.0 * (double)sc.dv_right / (double)sc.dv_total;
		all = 100.0 * (double)sc.all_right / (double)sc.all_total;
		for (j = 0; j < 2; j++)
			dev[j] = sc.st_truth[j]
			             ? 100.0 *
			                   fabs((double)(sc.st_got[j] -
			                                 sc.st_truth[j])) /
			                   (double)sc.st_truth[j]
			             : 0.0;
		printf("%-22s %5zu %11.3f%% %11.3f%% %d/%d/%lld %lld/%lld "
		       "%.3f%%/%.3f%% %s\n",
		       cases[i], nr, dv, all, sc.te_truth, sc.te_found,
		       (long long)sc.te_wrong, (long long)sc.prologue_wrong,
		       (long long)sc.prologue_total, dev[0], dev[1],
		       sc.den_wrong ? "WRONG" : "right");
		worst = dv < worst ? dv : worst;
		/* a stage's kernel time within 1% of the truth; no kernel of
		 * the text encoder elsewhere (its output's last kernels after
		 * its final norm made a short DiT segment) */
		failed |= dv < 99.0 || all < 98.0 ||
		          sc.te_truth != sc.te_found || sc.prologue_wrong ||
		          dev[0] > 1.0 || dev[1] > 1.0 || sc.te_wrong ||
		          sc.den_wrong;
		free_list(ranks, nr);
		free(dir);
	}
	printf("worst DiT-vs-VAE accuracy (kernel time): %.3f%% (required: "
	       ">= 99%%)\n",
	       worst);
	free_list(cases, nc);
	assert_false(failed);
}

/* ---- the db export ------------------------------------------------------
 */

/* The whole pipeline on paths into r. */
static void run_pipeline(const char **paths, size_t n, const struct rules *ru,
                         struct result *r)
{
	struct options o;
	struct err e = ERR_INIT;

	memset(&o, 0, sizeof(o));
	o.cmd = CMD_REPORT;
	o.paths = paths;
	o.path = paths[0];
	o.npaths = n;
	o.jobs = 2;
	o.quiet = 1;
	o.strict = 1; /* generated files are clean */
	if (pipeline_analyse(&o, ru, r, &e))
		fail_msg("%s", e.msg);
}

/* The truth's kernel time of stage s summed over the case's ranks. */
static int64_t truth_stage_ns(const char *case_dir, size_t nranks, int s)
{
	int64_t t = 0;
	size_t r;

	for (r = 0; r < nranks; r++) {
		struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
		struct err e = ERR_INIT;
		const cJSON *st, *kt;
		cJSON *root;
		strbuf_addf(&p, "%s/ground_truth/rank%zu.json", case_dir, r);
		assert_int_equal(fileio_read_small(p.buf, 1 << 20, &text, &e),
		                 0);
		root = cJSON_Parse(text.buf);
		assert_non_null(root);
		st = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(root, "stages"),
		    stage_names[s]);
		kt = cJSON_GetObjectItemCaseSensitive(st, "kernel_time_us");
		if (cJSON_IsNumber(kt))
			t += (int64_t)(kt->valuedouble * 1e3 + 0.5);
		cJSON_Delete(root);
		strbuf_release(&p);
		strbuf_release(&text);
	}
	return t;
}

/* CASE/RANK/ASCEND_PROFILER_OUTPUT/kernel_details.csv of each rank: the
 * text export, even where the folder also holds a db. */
static char **csv_paths(const char *dir, char **ranks, size_t nr)
{
	char **csv = xcalloc(nr ? nr : 1, sizeof(*csv));
	size_t i;

	for (i = 0; i < nr; i++)
		csv[i] =
		    xstrfmt("%s/%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
		            dir, ranks[i]);
	return csv;
}

static int within(int64_t got, int64_t want, double frac)
{
	double d = (double)(got > want ? got - want : want - got);
	return d <= frac * (double)(want > 0 ? want : 1) + 1.0;
}

/* One case: db run against the truth and against the CSV run. 0 = ok. */
static int check_db_case(const char *name, const char *dir,
                         const struct rules *ru)
{
	char **ranks, **csv, **rdirs;
	size_t nr = list_dir(dir, "_ascend_pt", &ranks), i;
	struct result db, text;
	int s, bad = 0;
	double worst = 0;

	csv = csv_paths(dir, ranks, nr);
	/* the rank folders, not CASE/ (which also holds trace-only/) */
	rdirs = xcalloc(nr, sizeof(*rdirs));
	for (i = 0; i < nr; i++)
		rdirs[i] = fileio_join(dir, ranks[i]);
	run_pipeline((const char **)rdirs, nr, ru, &db);
	run_pipeline((const char **)csv, nr, ru, &text);
	assert_int_equal(db.nranks, nr);
	for (i = 0; i < db.nranks; i++)
		bad |= !db.ranks[i].db.used; /* the folder has both: db read */
	for (s = 0; s < STAGE_COUNT; s++) {
		int64_t got = db.stages[s].kernel_ns;
		int64_t want =
		    s == STAGE_OTHER ? 0 : truth_stage_ns(dir, nr, s);
		double dev =
		    want ? 100.0 *
		               (double)(got > want ? got - want : want - got) /
		               (double)want
		         : 0.0;
		worst = dev > worst ? dev : worst;
		bad |= !within(got, want, 0.001) ||
		       !within(got, text.stages[s].kernel_ns, 0.001);
	}
	bad |= db.nverdicts != text.nverdicts;
	for (i = 0; !bad && i < db.nverdicts; i++) {
		const struct verdict *a = &db.verdicts[i],
		                     *b = &text.verdicts[i];
		bad |= strcmp(a->id, b->id) || a->fired != b->fired ||
		       a->applicable != b->applicable;
		if (bad)
			printf("  verdict %s: db fired=%d applicable=%d, csv "
			       "fired=%d applicable=%d\n",
			       a->id, a->fired, a->applicable, b->fired,
			       b->applicable);
	}
	printf("%-22s %5zu %10.4f%% %s\n", name, nr, worst,
	       bad ? "MISMATCH" : "same verdicts");
	result_release(&db);
	result_release(&text);
	free_list(csv, nr);
	free_list(rdirs, nr);
	free_list(ranks, nr);
	return bad;
}

static void db_export_gives_the_csv_results(void **state)
{
	char **cases;
	size_t nc = list_dir(cases_dir, NULL, &cases), i;
	struct err e = ERR_INIT;
	struct rules ru;
	int failed = 0;

	(void)state;
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	printf("\nfrom the db export:\n%-22s %5s %11s %s\n", "case", "ranks",
	       "worst stage", "verdicts vs CSV");
	for (i = 0; i < nc; i++) {
		char *dir = fileio_join(cases_dir, cases[i]);
		failed |= check_db_case(cases[i], dir, &ru);
		free(dir);
	}
	printf("stage kernel time from the db vs the truth and the CSV run: "
	       "within 0.1%% required\n");
	rules_release(&ru);
	free_list(cases, nc);
	assert_false(failed);
}

/* ---- the trace alone against the CSV set ------------------------------ */

/* The largest difference of a stage's kernel time, in percent of the CSV
 * set's; prints and counts the verdicts that differ (fired or applicable),
 * and gives the largest difference of a verdict's value in *vdiff. */
static double compare_runs(const char *name, const struct result *csv,
                           const struct result *tr, int *bad_verdicts,
                           double *vdiff)
{
	double worst = 0;
	size_t i;
	int s;

	for (s = 0; s < STAGE_COUNT; s++) {
		double a = (double)csv->stages[s].kernel_ns;
		double b = (double)tr->stages[s].kernel_ns;
		double d = a > 0 ? 100.0 * fabs(a - b) / a : (b > 0 ? 100 : 0);
		worst = d > worst ? d : worst;
	}
	assert_int_equal(csv->nverdicts, tr->nverdicts);
	for (i = 0; i < csv->nverdicts; i++) {
		const struct verdict *x = &csv->verdicts[i],
		                     *y = &tr->verdicts[i];
		assert_string_equal(x->id, y->id);
		if (x->applicable && y->applicable &&
		    fabs(x->value - y->value) > *vdiff)
			*vdiff = fabs(x->value - y->value);
		if (x->fired == y->fired && x->applicable == y->applicable)
			continue;
		print_error("%s: verdict %s: CSV set %s%s, trace alone %s%s\n",
		            name, x->id, x->fired ? "fired" : "ok",
		            x->applicable ? "" : " (n/a)",
		            y->fired ? "fired" : "ok",
		            y->applicable ? "" : " (n/a)");
		++*bad_verdicts;
	}
	return worst;
}

static void trace_alone_equals_csv_set(void **state)
{
	char **cases, **ranks, **csvp;
	size_t nc, nr, i, j;
	struct err e = ERR_INIT;
	struct rules ru;
	int failed = 0;

	(void)state;
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	nc = list_dir(cases_dir, NULL, &cases);
	printf("\nfrom the traces alone:\n");
	printf("%-22s %5s %8s %13s %11s %s\n", "case", "ranks", "steps",
	       "stage kernel", "verdict val", "verdicts");
	for (i = 0; i < nc; i++) {
		char *dir = fileio_join(cases_dir, cases[i]);
		char *tdir = fileio_join(dir, "trace-only");
		struct result csv, tr;
		int bad = 0;
		double worst, vdiff = 0;

		nr = list_dir(dir, "_ascend_pt", &ranks);
		/* the CSV set, not the db beside it */
		csvp = csv_paths(dir, ranks, nr);
		run_pipeline((const char **)csvp, nr, &ru, &csv);
		run_pipeline((const char **)&tdir, 1, &ru, &tr);
		assert_int_equal(csv.nranks, tr.nranks);
		assert_int_equal(csv.kernels, tr.kernels);
		for (j = 0; j < tr.nranks; j++)
			assert_string_equal(tr.ranks[j].kernel_source,
			                    "trace_view");
		worst = compare_runs(cases[i], &csv, &tr, &bad, &vdiff);
		printf("%-22s %5zu %3zu/%-4zu %12.4f%% %9.3fpt %s\n", cases[i],
		       nr, csv.nsteps, tr.nsteps, worst, vdiff,
		       bad ? "DIFFER" : "all equal");
		failed |= worst > 0.1 || bad;
		result_release(&csv);
		result_release(&tr);
		free_list(csvp, nr);
		free_list(ranks, nr);
		free(tdir);
		free(dir);
	}
	printf("steps: profiler steps found from the CSV set / the trace "
	       "alone (NPU-only traces have none); stage kernel: the "
	       "largest difference of a stage's kernel time (required: <= "
	       "0.1%%); verdict val: the largest difference of a verdict's "
	       "value, in points\n");
	rules_release(&ru);
	free_list(cases, nc);
	assert_false(failed);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(stage_accuracy_on_generated_profiles),
	    cmocka_unit_test(db_export_gives_the_csv_results),
	    cmocka_unit_test(trace_alone_equals_csv_set),
	};
	if (argc != 2) {
		fprintf(stderr, "usage: test_accuracy CASES_DIR\n");
		return 2;
	}
	cases_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
