/* Unit tests of input/snapshot.c, analysis/compare.c and render/diff_json.c:
 * report.json read back exactly, two runs compared, diff.json written.
 * Expected numbers of the examples were computed with python3's json
 * module (round(us * 1000)); those of the hand-made pairs by hand from the
 * texts below. */
#include "unit.h"

#include <math.h>

#include "analysis/compare.h"
#include "input/snapshot.h"
#include "format/json/diff_json.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define EXAMPLES SDPERF_TEST_DATA "/../../examples/"

/* ---- building minimal report.json texts ---------------------------------- */

/* One stage: FA, MatMul, Conv, Vector, Comm times (us text), exposed,
 * top_kernels items (JSON text). Other is 0. */
struct mst {
	unsigned kernels;
	const char *kernel_us, *wall_us;
	const char *cat_us[5];
	const char *exposed_us;
	const char *types;
};

static void add_stage(struct strbuf *sb, const char *name, const struct mst *m)
{
	static const char *const cats[] = {"FA", "MatMul", "Conv", "Vector",
	                                   "Comm"};
	int c;

	strbuf_addf(sb,
	            "\"%s\": {\"kernels\": %u, \"segments\": 1, "
	            "\"kernel_time_us\": %s, \"wall_time_us\": %s, "
	            "\"categories\": {",
	            name, m->kernels, m->kernel_us, m->wall_us);
	for (c = 0; c < 5; c++)
		strbuf_addf(sb,
		            "\"%s\": {\"time_us\": %s, \"count\": 1, "
		            "\"share_pct\": 0.000}, ",
		            cats[c], m->cat_us[c] ? m->cat_us[c] : "0.000");
	strbuf_addf(sb,
	            "\"Other\": {\"time_us\": 0.000, \"count\": 0, "
	            "\"share_pct\": 0.000}}, \"communication\": "
	            "{\"kernel_time_us\": %s, \"busy_time_us\": %s, "
	            "\"exposed_us\": %s, \"exposed_share_of_wall_pct\": 0.0}, "
	            "\"top_kernels\": [%s]}",
	            m->cat_us[4] ? m->cat_us[4] : "0.000",
	            m->cat_us[4] ? m->cat_us[4] : "0.000", m->exposed_us,
	            m->types ? m->types : "");
}

struct mini {
	const char *version;
	unsigned steps;
	const struct mst *dit, *vae;
	const char *verdicts, *ranks;
};

static const struct mst empty_stage = {0,      "0.000", "0.000",
                                       {NULL}, "0.000", NULL};

static char *mini_json(const struct mini *m)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb,
	            "{\"schema_version\": 1, \"tool\": {\"name\": \"sdperf\", "
	            "\"version\": \"%s\"}, \"profile\": {\"kernels\": 1, "
	            "\"steps\": {\"count\": %u, \"ids\": []}}, \"stages\": {",
	            m->version ? m->version : "0.1.0", m->steps);
	add_stage(&sb, "dit", m->dit ? m->dit : &empty_stage);
	strbuf_adds(&sb, ", ");
	add_stage(&sb, "vae", m->vae ? m->vae : &empty_stage);
	strbuf_adds(&sb, ", ");
	add_stage(&sb, "text_encoder", &empty_stage);
	strbuf_adds(&sb, ", ");
	add_stage(&sb, "other", &empty_stage);
	strbuf_addf(&sb, "}, \"verdicts\": [%s], \"ranks\": [%s]}\n",
	            m->verdicts ? m->verdicts : "", m->ranks ? m->ranks : "");
	return strbuf_detach(&sb, NULL);
}

#define RANK(id, comm)                                                         \
	"{\"id\": " #id ", \"analysed\": true, \"stages\": {\"dit\": "         \
	"{\"kernel_time_us\": 100.000, \"wall_time_us\": 120.000, "            \
	"\"exposed_comm_us\": 10.000}}, \"dit_compute_us\": 90.000, "          \
	"\"communication\": " comm ", \"steps\": [{}, {}]}"

static void snap(const char *name, const char *text, struct snapshot *s)
{
	struct err e = ERR_INIT;

	if (snapshot_from_json(name, text, strlen(text), s, &e))
		fail_msg("%s: %s", name, e.msg);
}

static void snap_mini(const char *name, const struct mini *m,
                      struct snapshot *s)
{
	char *text = mini_json(m);
	snap(name, text, s);
	free(text);
}

static void snap_file(const char *path, struct snapshot *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (fileio_read_small(path, 64u << 20, &sb, &e))
		fail_msg("%s", e.msg);
	snap(path, sb.buf, s);
	strbuf_release(&sb);
}

/* ---- the hand-made pair: base and new of one DiT change ------------------ */

/* base: FlashAttentionScore + MatMulV3, comm_overlap fired */
static const struct mst base_dit = {
    100,
    "1000.000",
    "1200.000",
    {"300.000", "400.000", NULL, "100.000", "200.000"},
    "180.000",
    "{\"type\": \"FlashAttentionScore\", \"category\": \"FA\", \"count\": "
    "10, \"total_us\": 300.000}, {\"type\": \"MatMulV3\", \"category\": "
    "\"MatMul\", \"count\": 20, \"total_us\": 400.000}, {\"type\": "
    "\"hcom_allReduce_\", \"category\": \"Comm\", \"count\": 8, "
    "\"total_us\": 200.000}, {\"type\": \"Add\", \"category\": "
    "\"Vector\", \"count\": 31, \"total_us\": 60.000}, {\"type\": \"Mul\", "
    "\"category\": \"Vector\", \"count\": 31, \"total_us\": 40.000}"};
/* new: AdaBlockSparseAttention + QuantBatchMatmulV3, comm_overlap
 * cleared */
static const struct mst new_dit = {
    100,
    "700.000",
    "750.000",
    {"200.000", "250.000", NULL, "100.000", "150.000"},
    "30.000",
    "{\"type\": \"QuantBatchMatmulV3\", \"category\": \"MatMul\", "
    "\"count\": 20, \"total_us\": 250.000}, {\"type\": "
    "\"AdaBlockSparseAttention\", \"category\": \"FA\", \"count\": 10, "
    "\"total_us\": 200.000}, {\"type\": \"hcom_allReduce_\", \"category\": "
    "\"Comm\", \"count\": 8, \"total_us\": 150.000}, {\"type\": \"Mul\", "
    "\"category\": \"Vector\", \"count\": 31, \"total_us\": 40.000}, "
    "{\"type\": \"Add\", \"category\": \"Vector\", \"count\": 31, "
    "\"total_us\": 60.000}"};
static const struct mst base_vae = {
    10,
    "500.000",
    "600.000",
    {NULL, NULL, "500.000", NULL, NULL},
    "0.000",
    "{\"type\": \"Conv3D\", \"category\": \"Conv\", \"count\": 10, "
    "\"total_us\": 500.000}"};
static const struct mst new_vae = {
    10,
    "450.000",
    "520.000",
    {NULL, NULL, "450.000", NULL, NULL},
    "0.000",
    "{\"type\": \"Conv3D\", \"category\": \"Conv\", \"count\": 10, "
    "\"total_us\": 450.000}"};

#define VERDICT(id, stage, appl, fired, value, thr)                            \
	"{\"id\": \"" id "\", \"stage\": \"" stage "\", \"applicable\": " appl \
	", \"fired\": " fired ", \"value_pct\": " value                        \
	", \"threshold_pct\": " thr "}"

static const char base_verdicts[] = VERDICT(
    "matmul_quant", "dit", "true", "false", "40.000",
    "50.0") ", " VERDICT("comm_overlap", "dit", "true", "true", "15.000",
                         "10.0") ", " VERDICT("host_bound", "all", "false",
                                              "false", "null", "20.0");
static const char new_verdicts[] = VERDICT(
    "matmul_quant", "dit", "true", "false", "35.714",
    "50.0") ", " VERDICT("comm_overlap", "dit", "true", "false", "4.000",
                         "10.0") ", " VERDICT("host_bound", "all", "false",
                                              "false", "null",
                                              "20.0") ", " VERDICT("vector_"
                                                                   "fusion",
                                                                   "dit",
                                                                   "true",
                                                                   "true",
                                                                   "14.286",
                                                                   "10.0");

static const struct mini base_mini = {
    "0.1.0",
    2,
    &base_dit,
    &base_vae,
    base_verdicts,
    RANK(0, "{\"wait_us\": 5.000}") ", " RANK(1, "{\"wait_us\": 7.000}")};
static const struct mini new_mini = {
    "0.1.0",      2,
    &new_dit,     &new_vae,
    new_verdicts, RANK(1, "null") ", " RANK(0, "{\"wait_us\": 4.500}")};

static void pair(struct comparison *c, const struct mini *b,
                 const struct mini *n, int per_step)
{
	struct snapshot sb, sn;
	struct err e = ERR_INIT;

	snap_mini("base.json", b, &sb);
	snap_mini("new.json", n, &sn);
	if (compare_snapshots(&sb, &sn, per_step, c, &e))
		fail_msg("compare: %s", e.msg);
	snapshot_release(&sb);
	snapshot_release(&sn);
}

/* ---- reading --------------------------------------------------------------
 */

static void snapshot_reads_the_video_example_exactly(void **state)
{
	struct snapshot s;
	const struct snap_stage *dit, *vae;

	(void)state;
	snap_file(EXAMPLES "video-dit-4card/report/report.json", &s);
	dit = &s.stage[STAGE_DIT];
	vae = &s.stage[STAGE_VAE];
	assert_string_equal(s.tool_version, "0.1.0");
	assert_int_equal(s.kernels, 4664);
	assert_int_equal(s.nsteps, 2);
	assert_true(dit->present && vae->present);
	assert_false(s.stage[STAGE_OTHER].present);
	assert_int_equal(dit->kernels, 2456);
	assert_int_equal(dit->kernel_ns, 4795628170LL);
	assert_int_equal(dit->wall_ns, 4743446798LL);
	assert_int_equal(dit->exposed_ns, 2276258944LL);
	assert_int_equal(dit->comm_ns, 2334108650LL);
	assert_int_equal(dit->cat_ns[CAT_MATMUL], 1882120820LL);
	assert_int_equal(dit->ntypes, 19);
	assert_string_equal(dit->types[0].type, "hcom_alltoall_");
	assert_int_equal(dit->types[0].cat, CAT_COMM);
	assert_int_equal(dit->types[0].count, 192);
	assert_int_equal(dit->types[0].total_ns, 2334108650LL);
	assert_int_equal(vae->kernel_ns, 9264232260LL);
	assert_int_equal(s.nverdicts, 10);
	/* by expected gain: vae_parallel (its gain read back), then
	 * comm_overlap, then rank_imbalance; the passing ones after */
	assert_string_equal(s.verdicts[0].id, "vae_parallel");
	assert_true(s.verdicts[0].fired);
	assert_true(s.verdicts[0].value == 63.529);
	assert_int_equal(s.verdicts[0].stage, STAGE_VAE);
	assert_true(s.verdicts[0].has_gain);
	assert_true(s.verdicts[0].gain_low_pct == 21.147);
	assert_true(s.verdicts[0].gain_high_pct == 31.721);
	assert_string_equal(s.verdicts[8].id, "memory_headroom");
	assert_false(s.verdicts[8].fired);
	assert_false(s.verdicts[8].has_gain);
	/* the loop, 3 iterations of 4 blocks a call, is 36.2% of end to
	 * end: the cache finding passes */
	assert_string_equal(s.verdicts[9].id, "cache");
	assert_false(s.verdicts[9].fired);
	assert_true(s.verdicts[9].value == 36.179);
	assert_string_equal(s.verdicts[1].id, "comm_overlap");
	assert_true(s.verdicts[1].fired);
	assert_true(s.verdicts[1].value == 53.633);
	assert_true(s.verdicts[1].threshold == 30.0);
	assert_string_equal(s.verdicts[2].id, "rank_imbalance");
	assert_string_equal(s.verdicts[6].id, "host_bound");
	assert_int_equal(s.verdicts[6].stage, STAGE_ALL);
	assert_true(s.has_e2e);
	assert_int_equal(s.e2e_ns, 1724006219LL);
	assert_int_equal(s.nranks, 4);
	assert_int_equal(s.ranks[2].id, 2);
	assert_int_equal(s.ranks[2].dit_kernel_ns, 1008168710LL);
	assert_int_equal(s.ranks[2].dit_wall_ns, 995300757LL);
	assert_int_equal(s.ranks[2].dit_exposed_ns, 273495311LL);
	assert_int_equal(s.ranks[2].dit_compute_ns, 720289220LL);
	assert_int_equal(s.ranks[2].comm_wait_ns, 73523800LL);
	assert_int_equal(s.ranks[2].nsteps, 2);
	snapshot_release(&s);
}

static void snapshot_reads_null_communication_and_value(void **state)
{
	struct snapshot s;

	(void)state;
	snap_file(EXAMPLES "image-dit-1card/report/report.json", &s);
	assert_int_equal(s.nranks, 1);
	assert_int_equal(s.ranks[0].comm_wait_ns, -1);
	assert_int_equal(s.ranks[0].dit_compute_ns, 142443370LL);
	/* fired: vae_parallel, fa_quant_sparse, text_encoder; then the
	 * others in rules order: matmul_quant, vector_fusion,
	 * comm_overlap, host_bound, rank_imbalance, memory_headroom */
	assert_string_equal(s.verdicts[7].id, "rank_imbalance");
	assert_false(s.verdicts[7].applicable);
	assert_int_equal(s.stage[STAGE_DIT].wall_ns, 143913186LL);
	snapshot_release(&s);
}

/* Asserts reading text fails with ERR_INPUT and a message containing
 * want. */
static void bad_json(const char *text, const char *want)
{
	struct snapshot s;
	struct err e = ERR_INIT;

	assert_int_equal(
	    snapshot_from_json("r.json", text, strlen(text), &s, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	if (!strstr(e.msg, want))
		fail_msg("message '%s' lacks '%s'", e.msg, want);
	snapshot_release(&s);
}

static void snapshot_errors_name_the_json_path(void **state)
{
	char *text = mini_json(&base_mini), *p;

	(void)state;
	/* a string where a number belongs */
	p = strstr(text, "\"wall_time_us\": 1200.000");
	assert_non_null(p);
	memcpy(p + 16, "\"12.0\"  ", 8);
	bad_json(text, "r.json: stages.dit.wall_time_us: expected a number, "
	               "got '\"12.0\"'");
	free(text);
	text = mini_json(&base_mini);
	p = strstr(text, "\"category\": \"MatMul\"");
	memcpy(p + 13, "Matrix", 6);
	bad_json(text, "r.json: stages.dit.top_kernels.1.category: unknown "
	               "category, got '\"Matrix\"'");
	free(text);
	text = mini_json(&base_mini);
	p = strstr(text, "\"dit_compute_us\"");
	memcpy(p + 1, "xit", 3);
	bad_json(text, "r.json: ranks.0.dit_compute_us: missing");
	free(text);
	bad_json("{\"schema_version\": 1, \"tool\": {\"name\": \"sdperf\", "
	         "\"version\": \"1\"}, \"profile\": {\"kernels\": 1.5}}",
	         "r.json: profile.kernels: not an integer, got '1.5'");
	bad_json("{\"schema_version\": 1,\n  \"tool\": }", "r.json:2:11: JSON "
	                                                   "syntax error near "
	                                                   "'}'");
	bad_json("[1, 2]", "r.json: not an sdperf report (not a JSON object)");
	bad_json("", "r.json: empty file");
	bad_json("{\"a\": 1} {}", "r.json:1:10: JSON syntax error");
}

/* mini's report.json with a summary whose end-to-end time is e2e_us
 * (NULL: no summary). */
static char *with_summary(const struct mini *m, const char *e2e_us)
{
	char *text = mini_json(m), *end = strrchr(text, '}');
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, text, (size_t)(end - text));
	if (e2e_us)
		strbuf_addf(&sb,
		            ", \"summary\": {\"e2e_known\": true, "
		            "\"e2e_time_us\": %s}",
		            e2e_us);
	strbuf_adds(&sb, "}\n");
	free(text);
	return strbuf_detach(&sb, NULL);
}

/* The base's comm_overlap promised 9.7-14.6% end to end (its gain); the
 * summaries say 300 ms -> 255 ms a step: the comparison carries both. A
 * gain not estimated promises nothing; a bad saving names its path. */
static void promised_gain_and_e2e_are_compared(void **state)
{
	static const char gain[] =
	    "\"threshold_pct\": 10.0, \"gain\": {\"estimated\": true, "
	    "\"saving_low_pct\": 9.700, \"saving_high_pct\": 14.600}}";
	struct snapshot sb, sn;
	struct comparison c;
	struct err e = ERR_INIT;
	struct strbuf t = STRBUF_INIT;
	char *base = with_summary(&base_mini, "300000.000");
	char *new_ = with_summary(&new_mini, "255000.000");
	char *p = strstr(base, "\"threshold_pct\": 10.0}");

	(void)state;
	assert_non_null(p);
	strbuf_add(&t, base, (size_t)(p - base));
	strbuf_adds(&t, gain);
	strbuf_adds(&t, p + strlen("\"threshold_pct\": 10.0}"));
	snap("base.json", t.buf, &sb);
	snap("new.json", new_, &sn);
	assert_true(sb.has_e2e);
	assert_int_equal(sb.e2e_ns, 300000000);
	assert_true(sb.verdicts[1].has_gain);
	if (compare_snapshots(&sb, &sn, 0, &c, &e))
		fail_msg("compare: %s", e.msg);
	assert_string_equal(c.verdicts[1].id, "comm_overlap");
	assert_true(c.verdicts[1].promised);
	assert_true(c.verdicts[1].promised_low_pct == 9.7);
	assert_true(c.verdicts[1].promised_high_pct == 14.6);
	assert_false(c.verdicts[0].promised);
	assert_true(c.e2e_known);
	assert_int_equal(c.e2e.base, 300000000);
	assert_int_equal(c.e2e.new_, 255000000);
	assert_true(cmp_saving_pct(c.e2e) == 15.0);
	comparison_release(&c);
	snapshot_release(&sn);
	/* a side without a summary: nothing measured */
	free(new_);
	new_ = with_summary(&new_mini, NULL);
	snap("new.json", new_, &sn);
	if (compare_snapshots(&sb, &sn, 0, &c, &e))
		fail_msg("compare: %s", e.msg);
	assert_false(c.e2e_known);
	assert_true(c.verdicts[1].promised);
	comparison_release(&c);
	snapshot_release(&sn);
	snapshot_release(&sb);
	/* a bad saving */
	p = strstr(t.buf, "9.700");
	memcpy(p, "\"9.7\"", 5);
	bad_json(t.buf, "r.json: verdicts.1.gain.saving_low_pct: expected a "
	                "number");
	strbuf_release(&t);
	free(base);
	free(new_);
}

static void snapshot_rejects_other_schema_and_tools(void **state)
{
	(void)state;
	bad_json("{\"schema_version\": 2, \"tool\": {\"name\": \"sdperf\"}}",
	         "r.json: schema_version: unsupported schema_version (this "
	         "sdperf reads 1), got '2'");
	bad_json("{\"tool\": {\"name\": \"sdperf\"}}",
	         "r.json: not an sdperf report (no schema_version)");
	bad_json("{\"schema_version\": 1, \"tool\": {\"name\": \"hta\", "
	         "\"version\": \"1\"}}",
	         "r.json: tool.name: not an sdperf report, got '\"hta\"'");
}

/* ---- a report against itself ----------------------------------------------
 */

static void self_compare(const char *path)
{
	struct snapshot s;
	struct comparison c;
	struct err e = ERR_INIT;
	size_t i;
	int st, k, fired = 0;

	snap_file(path, &s);
	assert_int_equal(compare_snapshots(&s, &s, 0, &c, &e), 0);
	for (st = 0; st < STAGE_COUNT; st++) {
		const struct cmp_stage *x = &c.stages[st];
		assert_int_equal(x->kernel.base, x->kernel.new_);
		assert_int_equal(x->wall.base, x->wall.new_);
		assert_int_equal(x->exposed.base, x->exposed.new_);
		for (k = 0; k < CAT_COUNT; k++)
			assert_int_equal(x->cat[k].base, x->cat[k].new_);
		if (s.stage[st].present)
			assert_true(x->speedup == 1.0);
		else
			assert_true(x->speedup == 0.0);
	}
	assert_int_equal(c.nverdicts, s.nverdicts);
	for (i = 0; i < c.nverdicts; i++) {
		assert_int_equal(c.verdicts[i].change,
		                 s.verdicts[i].fired ? VC_STAYED : VC_NEVER);
		fired += s.verdicts[i].fired;
	}
	assert_true(fired > 0); /* "stayed" is exercised */
	assert_true(c.ntypes > 0);
	for (i = 0; i < c.ntypes; i++) {
		assert_int_equal(c.types[i].status, TS_BOTH);
		assert_int_equal(c.types[i].time.base, c.types[i].time.new_);
	}
	assert_int_equal(c.nranks, s.nranks);
	assert_int_equal(c.nwarnings, 0);
	comparison_release(&c);
	snapshot_release(&s);
}

static void a_report_against_itself_changes_nothing(void **state)
{
	(void)state;
	self_compare(EXAMPLES "image-dit-1card/report/report.json");
	self_compare(EXAMPLES "video-dit-4card/report/report.json");
	self_compare(EXAMPLES "video-v2v-1card/report/report.json");
}

/* ---- the hand-made pair ---------------------------------------------------
 */

static void pair_gives_exact_stage_deltas(void **state)
{
	struct comparison c;
	const struct cmp_stage *d, *v;
	int defined;

	(void)state;
	pair(&c, &base_mini, &new_mini, 0);
	d = &c.stages[STAGE_DIT];
	v = &c.stages[STAGE_VAE];
	assert_true(d->in_base && d->in_new);
	assert_int_equal(d->kernel.base, 1000000);
	assert_int_equal(d->kernel.new_, 700000);
	assert_true(cmp_pct(d->kernel, &defined) == -30.0 && defined);
	assert_int_equal(d->wall.base, 1200000);
	assert_int_equal(d->wall.new_, 750000);
	assert_true(d->speedup == 1.6); /* 1200 / 750 */
	assert_int_equal(d->exposed.base, 180000);
	assert_int_equal(d->exposed.new_, 30000);
	assert_true(d->exposed_share.base == 15.0); /* 180 / 1200 */
	assert_true(d->exposed_share.new_ == 4.0);  /* 30 / 750 */
	assert_true(d->cat_share[CAT_FA].base == 30.0);
	assert_true(fabs(d->cat_share[CAT_FA].new_ - 200.0 / 7.0) < 1e-9);
	assert_true(d->cat_share[CAT_MATMUL].base == 40.0);
	assert_true(fabs(d->cat_share[CAT_MATMUL].new_ - 250.0 / 7.0) < 1e-9);
	assert_int_equal(d->cat[CAT_COMM].new_ - d->cat[CAT_COMM].base, -50000);
	assert_true(fabs(v->speedup - 600.0 / 520.0) < 1e-12);
	assert_false(c.stages[STAGE_OTHER].in_base);
	assert_true(c.stages[STAGE_OTHER].speedup == 0.0);
	assert_int_equal(c.nwarnings, 0);
	comparison_release(&c);
}

static void pair_matches_verdicts_by_id(void **state)
{
	struct comparison c;

	(void)state;
	pair(&c, &base_mini, &new_mini, 0);
	assert_int_equal(c.nverdicts, 4);
	assert_string_equal(c.verdicts[0].id, "matmul_quant");
	assert_int_equal(c.verdicts[0].change, VC_NEVER);
	assert_true(c.verdicts[0].base == 40.0 && c.verdicts[0].new_ == 35.714);
	assert_string_equal(c.verdicts[1].id, "comm_overlap");
	assert_int_equal(c.verdicts[1].change, VC_CLEARED);
	assert_string_equal(c.verdicts[2].id, "host_bound");
	assert_int_equal(c.verdicts[2].stage, STAGE_ALL);
	assert_false(c.verdicts[2].base_applicable);
	/* only in new: listed last, not applicable in the base */
	assert_string_equal(c.verdicts[3].id, "vector_fusion");
	assert_int_equal(c.verdicts[3].change, VC_APPEARED);
	assert_false(c.verdicts[3].base_applicable);
	assert_true(c.verdicts[3].new_applicable);
	assert_true(c.verdicts[3].new_ == 14.286);
	assert_true(c.verdicts[3].threshold == 10.0);
	comparison_release(&c);
}

static void pair_matches_types_and_sorts_by_delta(void **state)
{
	/* |delta| us: MatMulV3 400 (removed), FlashAttentionScore 300
	 * (removed), QuantBatchMatmulV3 250 (added), AdaBlockSparseAttention
	 * 200 (added), hcom_allReduce_ 50 (dit) and Conv3D 50 (vae): dit
	 * first, Add 0 and Mul 0: by name */
	static const struct {
		const char *type;
		enum stage st;
		enum type_status status;
		int64_t base, new_;
	} want[] = {
	    {"MatMulV3", STAGE_DIT, TS_REMOVED, 400000, 0},
	    {"FlashAttentionScore", STAGE_DIT, TS_REMOVED, 300000, 0},
	    {"QuantBatchMatmulV3", STAGE_DIT, TS_ADDED, 0, 250000},
	    {"AdaBlockSparseAttention", STAGE_DIT, TS_ADDED, 0, 200000},
	    {"hcom_allReduce_", STAGE_DIT, TS_BOTH, 200000, 150000},
	    {"Conv3D", STAGE_VAE, TS_BOTH, 500000, 450000},
	    {"Add", STAGE_DIT, TS_BOTH, 60000, 60000},
	    {"Mul", STAGE_DIT, TS_BOTH, 40000, 40000},
	};
	struct comparison c;
	size_t i;

	(void)state;
	pair(&c, &base_mini, &new_mini, 0);
	assert_int_equal(c.ntypes, ARRAY_LEN(want));
	for (i = 0; i < ARRAY_LEN(want); i++) {
		assert_string_equal(c.types[i].type, want[i].type);
		assert_int_equal(c.types[i].stage, want[i].st);
		assert_int_equal(c.types[i].status, want[i].status);
		assert_int_equal(c.types[i].time.base, want[i].base);
		assert_int_equal(c.types[i].time.new_, want[i].new_);
	}
	assert_int_equal(c.types[0].cat, CAT_MATMUL);
	assert_int_equal(c.types[0].base_count, 20);
	assert_int_equal(c.types[0].new_count, 0);
	assert_int_equal(c.types[3].cat, CAT_FA);
	comparison_release(&c);
}

static void pair_matches_ranks_by_id(void **state)
{
	struct comparison c;

	(void)state;
	pair(&c, &base_mini, &new_mini, 0);
	assert_int_equal(c.nranks, 2);
	assert_int_equal(c.ranks[0].id, 0);
	assert_int_equal(c.ranks[0].comm_wait.base, 5000);
	assert_int_equal(c.ranks[0].comm_wait.new_, 4500);
	assert_int_equal(c.ranks[1].id, 1);
	assert_int_equal(c.ranks[1].comm_wait.base, 7000);
	assert_int_equal(c.ranks[1].comm_wait.new_, -1);
	assert_int_equal(c.ranks[1].dit_compute.base, 90000);
	assert_int_equal(c.ranks[1].dit_wall.new_, 120000);
	comparison_release(&c);
}

/* ---- per step --------------------------------------------------------------
 */

static void per_step_divides_by_each_sides_steps(void **state)
{
	/* base: 2 steps, 1000.001 us -> 500000.5 ns per step -> 500001;
	 * new: 4 steps, 2000.002 us -> 500000.5 -> 500001 */
	struct mst b = base_dit, n = base_dit;
	struct mini mb = base_mini, mn = base_mini;
	struct comparison c;
	size_t i;

	(void)state;
	b.kernel_us = "1000.001";
	n.kernel_us = "2000.002";
	n.wall_us = "2400.000";
	n.kernels = 200;
	n.types = "{\"type\": \"MatMulV3\", \"category\": \"MatMul\", "
	          "\"count\": 40, \"total_us\": 800.002}";
	mb.dit = &b;
	mn.dit = &n;
	mn.steps = 4;
	mn.vae = NULL;
	pair(&c, &mb, &mn, 1);
	assert_true(c.per_step);
	assert_int_equal(c.base_steps, 2);
	assert_int_equal(c.new_steps, 4);
	assert_int_equal(c.stages[STAGE_DIT].kernel.base, 500001);
	assert_int_equal(c.stages[STAGE_DIT].kernel.new_, 500001);
	assert_int_equal(c.stages[STAGE_DIT].wall.base, 600000);
	assert_int_equal(c.stages[STAGE_DIT].wall.new_, 600000);
	assert_true(c.stages[STAGE_DIT].speedup == 1.0);
	/* 400 us / 2 = 200000 ns; 800.002 us / 4 = 200000.5 -> 200001 */
	for (i = 0; i < c.ntypes; i++)
		if (!strcmp(c.types[i].type, "MatMulV3"))
			break;
	assert_true(i < c.ntypes);
	assert_int_equal(c.types[i].time.base, 200000);
	assert_int_equal(c.types[i].time.new_, 200001);
	assert_int_equal(c.ranks[0].dit_kernel.base, 50000); /* 100 us / 2 */
	assert_int_equal(c.ranks[0].dit_kernel.new_, 25000); /* 100 us / 4 */
	/* 50 DiT kernels per step on both sides: only the steps differ */
	assert_int_equal(c.nwarnings, 1);
	assert_string_equal(c.warnings[0].code, "steps_differ");
	assert_string_equal(c.warnings[0].args[0], "2");
	assert_string_equal(c.warnings[0].args[1], "4");
	assert_non_null(strstr(c.warnings[0].message, "per step"));
	comparison_release(&c);
	/* the same without per_step: totals, and the advice */
	pair(&c, &mb, &mn, 0);
	assert_int_equal(c.stages[STAGE_DIT].kernel.new_, 2000002);
	assert_true(c.stages[STAGE_DIT].speedup == 0.5);
	assert_non_null(strstr(c.warnings[0].message, "--per-step"));
	comparison_release(&c);
}

/* ---- warnings and errors --------------------------------------------------
 */

static const struct cmp_warning *find_warning(const struct comparison *c,
                                              const char *code)
{
	size_t i;

	for (i = 0; i < c->nwarnings; i++)
		if (!strcmp(c->warnings[i].code, code))
			return &c->warnings[i];
	return NULL;
}

static void shape_differences_warn(void **state)
{
	struct mini mn = new_mini;
	struct mst n = new_dit;
	struct comparison c;
	const struct cmp_warning *w;

	(void)state;
	mn.version = "0.2.0";
	mn.ranks = RANK(0, "null");
	/* the types both runs have: Mul and Add 31 -> 33 (x1.065), the
	 * all-reduce 8 -> 8: median x1.065, more than 5% */
	n.kernels = 106;
	n.types = "{\"type\": \"Mul\", \"category\": \"Vector\", \"count\": "
	          "33, \"total_us\": 40.000}, {\"type\": \"Add\", "
	          "\"category\": \"Vector\", \"count\": 33, \"total_us\": "
	          "60.000}, {\"type\": \"hcom_allReduce_\", \"category\": "
	          "\"Comm\", \"count\": 8, \"total_us\": 150.000}";
	mn.dit = &n;
	pair(&c, &base_mini, &mn, 0);
	assert_int_equal(c.nwarnings, 3);
	w = find_warning(&c, "ranks_differ");
	assert_non_null(w);
	assert_string_equal(w->args[0], "2");
	assert_string_equal(w->args[1], "1");
	w = find_warning(&c, "iterations_differ");
	assert_non_null(w);
	assert_string_equal(w->args[0], "50.0");
	assert_string_equal(w->args[1], "53.0");
	assert_non_null(strstr(w->message, "1.06 times as often"));
	w = find_warning(&c, "versions_differ");
	assert_non_null(w);
	assert_string_equal(w->args[0], "0.1.0");
	assert_string_equal(w->args[1], "0.2.0");
	assert_null(find_warning(&c, "steps_differ"));
	assert_int_equal(c.nranks, 1);
	comparison_release(&c);
	/* the types both have run as often: more kernels in all (types
	 * added) is no sign of more iterations */
	n.types = new_dit.types;
	pair(&c, &base_mini, &mn, 0);
	assert_null(find_warning(&c, "iterations_differ"));
	comparison_release(&c);
}

/* x1.05 exactly is not "more than 5%"; x1.10 is */
static void iterations_warning_threshold(void **state)
{
	struct mini mb = base_mini, mn = base_mini;
	struct mst b = base_dit, n = base_dit;
	struct comparison c;

	(void)state;
	b.types = "{\"type\": \"Add\", \"category\": \"Vector\", \"count\": "
	          "20, \"total_us\": 60.000}";
	n.types = "{\"type\": \"Add\", \"category\": \"Vector\", \"count\": "
	          "21, \"total_us\": 60.000}";
	mb.dit = &b;
	mn.dit = &n;
	pair(&c, &mb, &mn, 0);
	assert_null(find_warning(&c, "iterations_differ"));
	comparison_release(&c);
	n.types = "{\"type\": \"Add\", \"category\": \"Vector\", \"count\": "
	          "22, \"total_us\": 60.000}";
	pair(&c, &mb, &mn, 0);
	assert_non_null(find_warning(&c, "iterations_differ"));
	comparison_release(&c);
}

static void no_common_stage_is_an_error(void **state)
{
	struct mini mb = base_mini, mn = new_mini;
	struct snapshot sb, sn;
	struct comparison c;
	struct err e = ERR_INIT;

	(void)state;
	mb.vae = NULL;
	mn.dit = NULL;
	snap_mini("base.json", &mb, &sb);
	snap_mini("new.json", &mn, &sn);
	assert_int_equal(compare_snapshots(&sb, &sn, 0, &c, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, "no common stage: base.json has dit; "
	                           "new.json has vae");
	comparison_release(&c);
	snapshot_release(&sb);
	snapshot_release(&sn);
}

/* ---- diff.json ------------------------------------------------------------
 */

static void expect_num(const struct snapdoc *d, const char *path, double want)
{
	double v = 0;

	if (snapdoc_get(d, path, &v, NULL, NULL) != SNAPDOC_NUMBER)
		fail_msg("%s: not a number", path);
	if (v != want)
		fail_msg("%s: %.6f, want %.6f", path, v, want);
}

static void expect_str(const struct snapdoc *d, const char *path,
                       const char *want)
{
	const char *v = NULL;

	if (snapdoc_get(d, path, NULL, &v, NULL) != SNAPDOC_STRING)
		fail_msg("%s: not a string", path);
	assert_string_equal(v, want);
}

static void diff_json_is_valid_and_exact(void **state)
{
	struct comparison c;
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct snapdoc *d = NULL;
	struct err e = ERR_INIT;

	(void)state;
	pair(&c, &base_mini, &new_mini, 0);
	render_diff_json(&c, "9.9.9", &out);
	render_diff_json(&c, "9.9.9", &again);
	assert_string_equal(out.buf, again.buf);
	if (snapdoc_parse("diff.json", out.buf, out.len, &d, &e))
		fail_msg("%s\n%s", e.msg, out.buf);
	expect_str(d, "schema", "sdperf-diff/1");
	expect_str(d, "tool.version", "9.9.9");
	expect_str(d, "base.source", "base.json");
	expect_num(d, "new.ranks", 2);
	expect_num(d, "stages.dit.wall_time_us.delta", -450.0);
	expect_num(d, "stages.dit.kernel_time_us.delta_pct", -30.0);
	expect_num(d, "stages.dit.speedup", 1.6);
	expect_num(d, "stages.dit.categories.FA.share_pct.new", 28.571);
	expect_num(d, "stages.dit.exposed_share_of_wall_pct.delta", -11.0);
	assert_int_equal(
	    snapdoc_get(d, "stages.other.speedup", NULL, NULL, NULL),
	    SNAPDOC_NULL);
	assert_int_equal(snapdoc_get(d, "types.2.delta_pct", NULL, NULL, NULL),
	                 SNAPDOC_NULL); /* added: base 0 */
	expect_str(d, "types.0.type", "MatMulV3");
	expect_str(d, "types.0.status", "removed");
	expect_num(d, "types.0.delta_pct", -100.0);
	expect_str(d, "verdicts.1.change", "cleared");
	expect_str(d, "verdicts.3.change", "appeared");
	assert_int_equal(
	    snapdoc_get(d, "verdicts.3.base_pct", NULL, NULL, NULL),
	    SNAPDOC_NULL);
	assert_int_equal(
	    snapdoc_get(d, "ranks.1.comm_wait_us.new", NULL, NULL, NULL),
	    SNAPDOC_NULL);
	assert_non_null(strstr(out.buf, "\"delta\": -450.000,"));
	assert_non_null(strstr(out.buf, "\"speedup\": 1.600,"));
	assert_non_null(strstr(out.buf, "\"warnings\": []"));
	snapdoc_free(d);
	strbuf_release(&out);
	strbuf_release(&again);
	comparison_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(snapshot_reads_the_video_example_exactly),
	    cmocka_unit_test(snapshot_reads_null_communication_and_value),
	    cmocka_unit_test(snapshot_errors_name_the_json_path),
	    cmocka_unit_test(promised_gain_and_e2e_are_compared),
	    cmocka_unit_test(snapshot_rejects_other_schema_and_tools),
	    cmocka_unit_test(a_report_against_itself_changes_nothing),
	    cmocka_unit_test(pair_gives_exact_stage_deltas),
	    cmocka_unit_test(pair_matches_verdicts_by_id),
	    cmocka_unit_test(pair_matches_types_and_sorts_by_delta),
	    cmocka_unit_test(pair_matches_ranks_by_id),
	    cmocka_unit_test(per_step_divides_by_each_sides_steps),
	    cmocka_unit_test(shape_differences_warn),
	    cmocka_unit_test(iterations_warning_threshold),
	    cmocka_unit_test(no_common_stage_is_an_error),
	    cmocka_unit_test(diff_json_is_valid_and_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
