/* info.c: profiler_info JSON modelled on real 2024 (Level0/Level1) and 2026
 * files; folder timestamps use our own UTC calendar (gmtime is banned). */
#include "info.h"

#include <stdio.h>

#include "banned.h"

struct civil {
	int64_t y;
	int mo, d, h, mi, s, ms;
};

/* Days since 1970-01-01 to a proleptic Gregorian date (Hinnant's method). */
static void civil_from_days(int64_t z, struct civil *c)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	c->d = (int)(doy - (153 * mp + 2) / 5 + 1);
	c->mo = (int)(mp < 10 ? mp + 3 : mp - 9);
	c->y = yoe + era * 400 + (c->mo <= 2);
}

static struct civil to_civil(int64_t ns)
{
	struct civil c;
	int64_t s = ns / 1000000000, sod = s % 86400;

	civil_from_days(s / 86400, &c);
	c.h = (int)(sod / 3600);
	c.mi = (int)(sod / 60 % 60);
	c.s = (int)(sod % 60);
	c.ms = (int)(ns / 1000000 % 1000);
	return c;
}

int info_folder_name(char *out, size_t len, const struct rankctx *rc)
{
	struct civil c = to_civil(rc->start_ns);
	int n = snprintf(
	    out, len, "synth-node_%d_%04lld%02d%02d%02d%02d%02d%03d_ascend_pt",
	    rc->host_pid, (long long)c.y, c.mo, c.d, c.h, c.mi, c.s, c.ms);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int is_level1(enum variant v)
{
	return v == V_L1_2026 || v == V_L1_2025 || v == V_L1_2024;
}

/* Newer profilers record their versions; 2024 and older files do not. */
static int has_versions(enum variant v)
{
	return v == V_L1_2026 || v == V_L1_2025 || v == V_L0;
}

static void write_config(FILE *fp, const struct rankctx *rc, int steps)
{
	const struct opts *o = rc->o;
	int l1 = is_level1(o->variant);
	int skip = o->first_step >= 2 ? o->first_step - 2 : 0;

	/* --npu-only: activities=[ProfilerActivity.NPU], as the trace has
	 * no host events */
	fprintf(fp,
	        "{\n    \"config\": {\n        \"common_config\": {\n"
	        "            \"activities\": [\n%s"
	        "                \"ProfilerActivity.NPU\"\n            ],\n",
	        o->npu_only ? ""
	                    : "                \"ProfilerActivity.CPU\",\n");
	fprintf(
	    fp,
	    "            \"schedule\": {\n                \"wait\": 0,\n"
	    "                \"active\": %d,\n                \"warmup\": %d,\n"
	    "                \"repeat\": 1,\n                \"skip_first\": "
	    "%d\n"
	    "            },\n",
	    steps, o->first_step >= 2 ? 2 : o->first_step, skip);
	fprintf(fp,
	        "            \"record_shapes\": %s,\n"
	        "            \"profile_memory\": false,\n"
	        "            \"with_stack\": false,\n"
	        "            \"with_flops\": false,\n"
	        "            \"with_modules\": false\n        },\n",
	        l1 ? "true" : "false");
	fprintf(
	    fp,
	    "        \"experimental_config\": {\n"
	    "            \"_profiler_level\": \"%s\",\n"
	    "            \"_aic_metrics\": \"%s\",\n"
	    "            \"_l2_cache\": false,\n"
	    "            \"_msprof_tx\": false,\n"
	    "            \"_data_simplification\": true,\n"
	    "            \"record_op_args\": false,\n"
	    "            \"_export_type\": \"%s\",\n"
	    "            \"_op_attr\": false,\n"
	    "            \"_gc_detect_threshold\": null\n        }\n    },\n",
	    l1 ? "Level1" : "Level0",
	    l1 ? "ACL_AICORE_PIPE_UTILIZATION" : "ACL_AICORE_NONE",
	    o->exports & EXPORT_TEXT ? "text" : "db");
}

int info_write(const char *path, const struct rankctx *rc, int steps,
               int64_t end_ns)
{
	FILE *fp = fopen(path, "wb");
	/* A monotonic clock that started when the machine booted ~19 days ago.
	 */
	int64_t mono0 = 1647363860566660LL + (int64_t)rc->rank * 7919;
	int rc_close;

	if (!fp)
		return -1;
	write_config(fp, rc, steps);
	fprintf(fp,
	        "    \"start_info\": {\n        \"syscnt_enable\": true,\n"
	        "        \"freq\": 100,\n        \"start_cnt\": %lld,\n"
	        "        \"start_monotonic\": %lld\n    },\n",
	        (long long)(mono0 / 10), (long long)mono0);
	fprintf(fp,
	        "    \"end_info\": {\n        \"collectionTimeEnd\": %lld,\n"
	        "        \"MonotonicTimeEnd\": %lld\n    }",
	        (long long)end_ns,
	        (long long)(mono0 + (end_ns - rc->start_ns)));
	if (rc->o->ranks > 1)
		fprintf(fp, ",\n    \"rank_id\": %d", rc->rank);
	if (has_versions(rc->o->variant))
		fprintf(fp,
		        ",\n    \"torch_npu_version\": \"%s\",\n"
		        "    \"cann_version\": \"%s\"",
		        rc->o->variant == V_L1_2026 ? "2.10.0" : "2.6.0",
		        rc->o->variant == V_L1_2026 ? "9.0.0" : "8.2.RC1");
	fputs("\n}", fp);
	rc_close = ferror(fp);
	if (fclose(fp) != 0 || rc_close)
		return -1;
	return 0;
}
