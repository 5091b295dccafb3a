/* The shared vocabulary's name tables. */
#include "core/vocab.h"

#include <string.h>
#include <strings.h>

#include "util/banned.h"

const char *const category_names[CAT_COUNT] = {"FA",     "MatMul", "Conv",
                                               "Vector", "Comm",   "Other"};
const char *const fa_part_names[FA_PART_COUNT] = {"attention", "preparation"};
const char *const stage_names[STAGE_COUNT + 1] = {"dit", "vae", "text_encoder",
                                                  "other", "all"};
const char *const rank_file_names[RF_COUNT] = {
    "kernel_details.csv", "trace_view.json", "step_trace_time.csv",
    "communication.json", "profiler_info.json"};
const char *const ov_keys[OV_KINDS] = {"computing", "communication",
                                       "not_overlapped", "free"};
const char *const ov_trace_names[OV_KINDS] = {
    "Computing", "Communication", "Communication(Not Overlapped)", "Free"};
const char *const coll_names[COLL_COUNT] = {
    "all_gather", "all_reduce", "all_to_all", "reduce_scatter",
    "broadcast",  "send_recv",  "other"};
const char *const transport_names[TR_COUNT] = {"HCCS", "RDMA", "PCIE", "SDMA",
                                               "SIO"};

int category_from_name(const char *s)
{
	int i;
	for (i = 0; i < CAT_COUNT; i++)
		if (!strcasecmp(category_names[i], s))
			return i;
	return -1;
}

int fa_part_from_name(const char *s)
{
	int i;
	for (i = 0; i < FA_PART_COUNT; i++)
		if (!strcmp(fa_part_names[i], s))
			return i;
	return -1;
}

int stage_from_name(const char *s)
{
	int i;
	for (i = 0; i < STAGE_COUNT; i++)
		if (!strcmp(stage_names[i], s))
			return i;
	return -1;
}
