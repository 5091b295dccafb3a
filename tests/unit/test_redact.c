/* Unit tests of analysis/redact.c: what one string becomes, the numbering
 * by first appearance, what is left alone, and the pass over a result. */
#include "unit.h"

#include "analysis/redact.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* s rewritten by rd, compared with want. */
static void expect(struct redactor *rd, const char *s, const char *want)
{
	char *got = redactor_rewrite(rd, s);
	assert_string_equal(got, want);
	free(got);
}

static void redact_rank_folders_hosts_and_paths_under_path(void **state)
{
	const char *paths[] = {"/home/alice/runs/job7"};
	struct redactor *rd = redactor_new(paths, 1, 0);

	(void)state;
	redactor_add_rank_dir(rd,
	                      "/home/alice/runs/job7/"
	                      "gpu-node17_4242_20260102030405678_ascend_pt");
	redactor_add_rank_dir(rd,
	                      "/home/alice/runs/job7/"
	                      "gpu-node18_4243_20260102030405679_ascend_pt");
	expect(rd, "/home/alice/runs/job7", "path-1");
	expect(rd,
	       "/home/alice/runs/job7/gpu-node18_4243_20260102030405679_"
	       "ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv:12: bad",
	       "rank folder 2/ASCEND_PROFILER_OUTPUT/kernel_details.csv:12: "
	       "bad");
	expect(rd, "in gpu-node17_4242_20260102030405678_ascend_pt.",
	       "in rank folder 1.");
	expect(rd, "/home/alice/runs/job7/notes/x.csv", "path-1/notes/x.csv");
	/* the host and the user alone, as words */
	expect(rd, "host gpu-node17 of alice", "host host-1 of user-1");
	expect(rd, "gpu-node170 alicex", "gpu-node170 alicex");
	assert_int_equal(redactor_count(rd, REDACT_HOST), 2);
	assert_int_equal(redactor_count(rd, REDACT_RANK_FOLDER), 2);
	assert_int_equal(redactor_count(rd, REDACT_USER), 1);
	redactor_free(rd);
}

static void redact_path_inside_a_rank_folder_reads_as_the_folder(void **state)
{
	const char *paths[] = {
	    "data/n1_1_1700000000000_ascend_pt/ASCEND_PROFILER_OUTPUT"};
	struct redactor *rd = redactor_new(paths, 1, 0);

	(void)state;
	redactor_add_rank_dir(rd, paths[0]);
	expect(rd, paths[0], "rank folder 1/ASCEND_PROFILER_OUTPUT");
	expect(rd, "data/n1_1_1700000000000_ascend_pt/profiler_info.json",
	       "rank folder 1/profiler_info.json");
	redactor_free(rd);
}

static void redact_addresses_and_group_names(void **state)
{
	struct redactor *rd = redactor_new(NULL, 0, 0);

	(void)state;
	expect(rd, "group 10.170.22.98%enp67s0f5_60000_0_1708156014257149 up",
	       "group group-1 up");
	expect(rd, "10.170.22.98 and 10.170.22.98", "ip-1 and ip-1");
	expect(rd, "[fe80::1ff:fe23:4567:890a%eth0]:80", "[ip-2]:80");
	expect(rd, "2001:db8:85a3:0:0:8a2e:370:7334.", "ip-3.");
	expect(rd, "::ffff:192.0.2.128 x", "ip-4 x");
	expect(rd, "10.170.22.98%enp67s0f5_60000_0_1708156014257149",
	       "group-1");
	expect(rd, "fe80::9%ib0_1_2", "group-2");
	assert_int_equal(redactor_count(rd, REDACT_ADDRESS), 4);
	assert_int_equal(redactor_count(rd, REDACT_GROUP), 2);
	redactor_free(rd);
}

static void redact_absolute_paths_found_in_text(void **state)
{
	struct redactor *rd = redactor_new(NULL, 0, 0);

	(void)state;
	expect(rd, "rules '/home/bob/my rules.json'",
	       "rules 'path-1 rules.json'");
	expect(rd, "--rules=/opt/x/r.json, then ~/y/z.csv:3",
	       "--rules=path-2, then path-3:3");
	expect(rd, "again /opt/x/r.json.", "again path-2.");
	/* the user found in the path is now a word to replace */
	expect(rd, "bob said", "user-1 said");
	redactor_free(rd);
}

static void redact_leaves_ordinary_text_alone(void **state)
{
	static const char *const same[] = {
	    "1.5-3x faster, 12.3 GB/s, N/A, ms/step",
	    "torch_npu 2.1.0.post3, CANN 8.0.RC3, 2.10.0",
	    "at 18:17:22 on 2026-12-04",
	    "std::vector and aclnn::Add",
	    "column 10 'Duration(us)': not a number: 'abc'",
	    "1.2.3.4.5 and 300.1.1.1",
	    "(a / b) and / alone",
	    "hcom_allReduce__586_0_1@17522688603477080586",
	};
	struct redactor *rd = redactor_new(NULL, 0, 0);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(same); i++)
		expect(rd, same[i], same[i]);
	for (i = 0; i < REDACT_CLASSES; i++)
		assert_int_equal(redactor_count(rd, (enum redact_class)i), 0);
	assert_null(redactor_rewrite(rd, NULL));
	redactor_free(rd);
}

static void redact_numbers_by_first_appearance(void **state)
{
	struct redactor *a = redactor_new(NULL, 0, 0);
	struct redactor *b = redactor_new(NULL, 0, 0);

	(void)state;
	expect(a, "10.0.0.2 10.0.0.1", "ip-1 ip-2");
	expect(a, "10.0.0.1 10.0.0.2", "ip-2 ip-1");
	expect(b, "10.0.0.2 10.0.0.1", "ip-1 ip-2");
	redactor_free(a);
	redactor_free(b);
}

static void redact_own_names_as_words(void **state)
{
	struct redactor *rd = redactor_new(NULL, 0, 0);

	(void)state;
	redactor_add_name(rd, REDACT_HOST, "buildbox7");
	redactor_add_name(rd, REDACT_HOST, "vm"); /* too short: ignored */
	redactor_add_name(rd, REDACT_USER, "dana");
	redactor_add_name(rd, REDACT_PATH, "/not/a/name"); /* refused */
	expect(rd, "dana ran it on buildbox7 (a vm)",
	       "user-1 ran it on host-1 (a vm)");
	expect(rd, "buildbox70 danas", "buildbox70 danas");
	assert_int_equal(redactor_count(rd, REDACT_HOST), 1);
	assert_int_equal(redactor_count(rd, REDACT_PATH), 0);
	redactor_free(rd);
}

static void redact_kernels_only_when_asked(void **state)
{
	struct redactor *keep = redactor_new(NULL, 0, 0);
	struct redactor *ops = redactor_new(NULL, 0, 1);

	(void)state;
	redactor_add_kernel(keep, "MySecretFusedOp");
	expect(keep, "slow MySecretFusedOp", "slow MySecretFusedOp");
	assert_null(redactor_kernel(keep, "MySecretFusedOp"));
	redactor_add_kernel(ops, "MySecretFusedOp");
	redactor_add_kernel(ops, "odd.name");
	expect(ops, "slow MySecretFusedOp, MySecretFusedOpX",
	       "slow op-1, MySecretFusedOpX");
	assert_string_equal(redactor_kernel(ops, "odd.name"), "op-2");
	redactor_free(keep);
	redactor_free(ops);
}

/* A small result: two ranks, an input, a warning, an Other type. */
static void fill_result(struct result *r)
{
	static const char *dirs[] = {
	    "/home/carol/p/h1-x_10_1700000000001_ascend_pt",
	    "/home/carol/p/h0-y_11_1700000000002_ascend_pt"};
	size_t i;

	result_init(r);
	r->profile_path = xstrdup("/home/carol/p");
	r->nranks = 2;
	r->ranks = xcalloc(2, sizeof(*r->ranks));
	for (i = 0; i < 2; i++) {
		r->ranks[i].id = (int32_t)i;
		r->ranks[i].dir = xstrdup(dirs[i]);
		r->ranks[i].files[RF_KERNELS] = xstrfmt(
		    "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", dirs[i]);
	}
	result_warn(r, "skipped_rows", r->ranks[1].files[RF_KERNELS], 3,
	            "bad value '192.168.7.9' in /home/carol/p");
	r->unmatched = xcalloc(1, sizeof(*r->unmatched));
	r->unmatched[0].type = xstrdup("CarolNet_Block");
	r->unmatched[0].cat = CAT_OTHER;
	r->nunmatched = 1;
}

static void redact_result_rewrites_and_records(void **state)
{
	const char *paths[] = {"/home/carol/p"};
	struct result r;
	struct redactor *rd;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) { /* the same both times */
		fill_result(&r);
		rd = redactor_new(paths, 1, 1);
		redact_result(&r, rd);
		assert_string_equal(r.profile_path, "path-1");
		assert_string_equal(r.ranks[0].dir, "rank folder 1");
		assert_string_equal(r.ranks[1].files[RF_KERNELS],
		                    "rank folder 2/ASCEND_PROFILER_OUTPUT/"
		                    "kernel_details.csv");
		assert_string_equal(r.warnings[0].file,
		                    r.ranks[1].files[RF_KERNELS]);
		assert_string_equal(r.warnings[0].message,
		                    "bad value 'ip-1' in path-1");
		assert_string_equal(r.unmatched[0].type, "op-1");
		assert_true(r.redaction.on);
		assert_true(r.redaction.kernels);
		assert_int_equal(r.redaction.replaced[REDACT_HOST], 2);
		assert_int_equal(r.redaction.replaced[REDACT_RANK_FOLDER], 2);
		assert_int_equal(r.redaction.replaced[REDACT_ADDRESS], 1);
		assert_int_equal(r.redaction.replaced[REDACT_USER], 1);
		/* the map stays with the result for later strings */
		{
			char *s = redactor_rewrite(r.redactor, "h0-y on carol");
			assert_string_equal(s, "host-2 on user-1");
			free(s);
		}
		result_release(&r);
		redactor_free(rd);
	}
}

/* Issue 23: an address, a group name, a known host or user, a path
 * glued into a name by '_', '-', '.', '/', ':', '@', '%' or at a
 * letter/digit or camelCase boundary. */
static void redact_finds_what_is_glued_into_names(void **state)
{
	struct redactor *rd = redactor_new(NULL, 0, 0);

	(void)state;
	redactor_add_name(rd, REDACT_HOST, "zqhost");
	redactor_add_name(rd, REDACT_USER, "zquser");
	expect(rd, "AllReduce_10.1.2.3_grp", "AllReduce_ip-1_grp");
	expect(rd, "grp10.1.2.3", "grpip-1");
	expect(rd, "x.10.1.2.3.y", "x.ip-1.y");
	expect(rd, "AllGather-fd12:3456:789a::42-g", "AllGather-ip-2-g");
	expect(rd, "Bcast_fe80::1%eth0_x", "Bcast_ip-3_x");
	expect(rd, "HcclBroadcast_10.170.22.98%enp67s0f5_60000_0_17_x",
	       "HcclBroadcast_group-1_x");
	expect(rd, "hcom_allReduce__zqhost_1", "hcom_allReduce__host-1_1");
	expect(rd, "zqhost-7.zqhost:zqhost@zqhost%zqhost/a",
	       "host-1-7.host-1:host-1@host-1%host-1/a");
	expect(rd, "Kernel2zqhost", "Kernel2host-1");
	expect(rd, "runByzquser", "runByzquser"); /* no boundary: kept */
	/* a known name in any case is the same name (issue 23 review) */
	expect(rd, "myZquser", "myuser-1");
	expect(rd, "FusedBlockG_ZQHOST", "FusedBlockG_host-1");
	expect(rd, "op_zquser3", "op_user-13");
	expect(rd, "Ascend910B_/home/zq/p/x.db", "Ascend910B_path-1");
	expect(rd, "zqhostx zqhos", "zqhostx zqhos");
	assert_int_equal(redactor_count(rd, REDACT_HOST), 1);
	assert_int_equal(redactor_count(rd, REDACT_USER), 1); /* zq: short */
	assert_int_equal(redactor_count(rd, REDACT_ADDRESS), 3);
	assert_int_equal(redactor_count(rd, REDACT_GROUP), 1);
	redactor_free(rd);
}

/* Ordinary kernel and operator names, versions and times are no
 * addresses, paths or names (issue 23: the glued forms must not
 * over-redact). */
static void redact_leaves_kernel_names_alone(void **state)
{
	static const char *const same[] = {
	    "MatMulV2",
	    "MatMulV3",
	    "FlashAttentionScore",
	    "FlashAttentionScoreGrad",
	    "aclnnAdd_AddAiCore_Add",
	    "aclnnInplaceCopy_TensorMoveKernel",
	    "TransData",
	    "Conv2D",
	    "Conv3DBackpropInput",
	    "GroupNormSilu",
	    "RmsNorm",
	    "QuantBatchMatmulV3",
	    "hcom_allReduce__586_0_1@17522688603477080586",
	    "hcom_allGather__123_4_5@987",
	    "allreduce-top1@17522688603477080586",
	    "at_npu::native::NPUNativeFunctions::add",
	    "std::vector",
	    "AllReduce_dead::beef_x",
	    "Foo_a::b",
	    "Cast_fp16_to_fp32",
	    "2.1.0.post10",
	    "8.0.RC3.alpha001",
	    "v2.5.1",
	    "18:17:22.123",
	    "GB/s",
	    "N/A",
	    "Conv2D7_MemSet",
	    "aclnnMatmul_MatMulV3Common_MemSet",
	    "ProfilerStep#3",
	    "Memcpy_D2H_1.5",
	    "x_/y",
	    "1.2.3.4.5"};
	struct redactor *rd = redactor_new(NULL, 0, 0);
	size_t i;

	(void)state;
	redactor_add_name(rd, REDACT_HOST, "node17");
	redactor_add_name(rd, REDACT_USER, "alice");
	for (i = 0; i < ARRAY_LEN(same); i++)
		expect(rd, same[i], same[i]);
	for (i = 0; i < REDACT_CLASSES; i++)
		assert_int_equal(redactor_count(rd, (enum redact_class)i), 0);
	redactor_free(rd);
}

/* A name registered (the machine's own) takes a number only when met:
 * the profile's pseudonyms do not depend on where sdperf runs. */
static void redact_names_numbered_when_met(void **state)
{
	struct redactor *rd = redactor_new(NULL, 0, 0);

	(void)state;
	redactor_add_name(rd, REDACT_HOST, "thismachine");
	redactor_add_name(rd, REDACT_HOST, "otherhost");
	expect(rd, "on otherhost", "on host-1");
	expect(rd, "thismachine", "host-2");
	assert_int_equal(redactor_count(rd, REDACT_HOST), 2);
	redactor_free(rd);
}

/* Metadata is kept in its field's shape, else dropped and counted; the
 * collection's borrowed versions follow the ranks'. */
static void redact_result_drops_unsafe_metadata(void **state)
{
	const char *paths[] = {"/data/p"};
	struct result r;
	struct redactor *rd = redactor_new(paths, 1, 0);

	(void)state;
	result_init(&r);
	r.profile_path = xstrdup("/data/p");
	r.nranks = 2;
	r.ranks = xcalloc(2, sizeof(*r.ranks));
	r.ranks[0].dir = xstrdup("/data/p/zqhost_1_1700000000001_ascend_pt");
	r.ranks[1].dir = xstrdup("/data/p/zqhost_2_1700000000002_ascend_pt");
	r.ranks[0].torch_npu_version = xstrdup("2.1.0.post10");
	r.ranks[0].cann_version = xstrdup("8.0.RC3.alpha001");
	r.ranks[0].profiler_level = xstrdup("Level1");
	r.ranks[0].aic_metrics = xstrdup("ACL_AICORE_PIPE_UTILIZATION");
	r.ranks[0].chip = xstrdup("Ascend910B4");
	r.ranks[0].db.schema = xstrdup("1.0.0");
	r.ranks[1].torch_npu_version = xstrdup("2.1.0+alice@10.1.2.3");
	r.ranks[1].cann_version = xstrdup("8.0.RC3_zqhost");
	r.ranks[1].profiler_level = xstrdup("Level1 by alice");
	r.ranks[1].aic_metrics = xstrdup("ACL_AICORE_zqhost");
	r.ranks[1].chip = xstrdup("Ascend910B_zqhost");
	r.ranks[1].db.schema = xstrdup("1.0.0-alice");
	r.memory.chip = xstrdup("Ascend910B_10.1.2.3");
	r.collection.torch_npu_version = r.ranks[1].torch_npu_version;
	r.collection.cann_version = r.ranks[0].cann_version;
	result_warn(&r, "x", NULL, 0, "schema 1.0.0-alice, level1");
	redact_result(&r, rd);
	assert_string_equal(r.ranks[0].torch_npu_version, "2.1.0.post10");
	assert_string_equal(r.ranks[0].cann_version, "8.0.RC3.alpha001");
	assert_string_equal(r.ranks[0].profiler_level, "Level1");
	assert_string_equal(r.ranks[0].aic_metrics,
	                    "ACL_AICORE_PIPE_UTILIZATION");
	assert_string_equal(r.ranks[0].chip, "Ascend910B4");
	assert_string_equal(r.ranks[0].db.schema, "1.0.0");
	assert_null(r.ranks[1].torch_npu_version);
	assert_null(r.ranks[1].cann_version);
	assert_null(r.ranks[1].profiler_level);
	assert_null(r.ranks[1].aic_metrics);
	assert_null(r.ranks[1].chip);
	assert_null(r.ranks[1].db.schema);
	assert_null(r.memory.chip);
	assert_null(r.collection.torch_npu_version);
	assert_ptr_equal(r.collection.cann_version, r.ranks[0].cann_version);
	/* a dropped value quoted elsewhere goes too */
	assert_string_equal(r.warnings[0].message, "schema redacted, level1");
	assert_int_equal(r.redaction.dropped[REDACT_F_TORCH_NPU_VERSION], 1);
	assert_int_equal(r.redaction.dropped[REDACT_F_CANN_VERSION], 1);
	assert_int_equal(r.redaction.dropped[REDACT_F_PROFILER_LEVEL], 1);
	assert_int_equal(r.redaction.dropped[REDACT_F_AIC_METRICS], 1);
	assert_int_equal(r.redaction.dropped[REDACT_F_CHIP], 2);
	assert_int_equal(r.redaction.dropped[REDACT_F_DB_SCHEMA], 1);
	result_release(&r);
	redactor_free(rd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(redact_rank_folders_hosts_and_paths_under_path),
	    cmocka_unit_test(
	        redact_path_inside_a_rank_folder_reads_as_the_folder),
	    cmocka_unit_test(redact_addresses_and_group_names),
	    cmocka_unit_test(redact_absolute_paths_found_in_text),
	    cmocka_unit_test(redact_leaves_ordinary_text_alone),
	    cmocka_unit_test(redact_numbers_by_first_appearance),
	    cmocka_unit_test(redact_own_names_as_words),
	    cmocka_unit_test(redact_kernels_only_when_asked),
	    cmocka_unit_test(redact_result_rewrites_and_records),
	    cmocka_unit_test(redact_finds_what_is_glued_into_names),
	    cmocka_unit_test(redact_leaves_kernel_names_alone),
	    cmocka_unit_test(redact_names_numbered_when_met),
	    cmocka_unit_test(redact_result_drops_unsafe_metadata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
