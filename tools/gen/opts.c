/* opts.c: table-driven option parsing; every knob is one row below. */
#include "opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

struct keyword {
	const char *word;
	int value;
};

static const struct keyword VARIANTS[] = {
    {"level1-2026", V_L1_2026}, {"level1-2025", V_L1_2025},
    {"level1-2024", V_L1_2024}, {"level0", V_L0},
    {"level0-old", V_L0_OLD},   {NULL, 0}};
static const struct keyword TES[] = {
    {"t5", TE_T5}, {"clip", TE_CLIP}, {"none", TE_NONE}, {NULL, 0}};
static const struct keyword ATTNS[] = {{"fa", ATTN_FA},
                                       {"fia", ATTN_FIA},
                                       {"laser", ATTN_LASER},
                                       {"sparse", ATTN_SPARSE},
                                       {NULL, 0}};
static const struct keyword COMMS[] = {{"none", COMM_NONE},
                                       {"alltoall", COMM_ALLTOALL},
                                       {"allgather", COMM_ALLGATHER},
                                       {NULL, 0}};
static const struct keyword DENOISERS[] = {
    {"dit", DEN_DIT}, {"unet", DEN_UNET}, {NULL, 0}};
static const struct keyword PROLOGUES[] = {{"broadcast", PROLOGUE_BROADCAST},
                                           {"scatter", PROLOGUE_SCATTER},
                                           {NULL, 0}};
static const struct keyword TRACE_GENS[] = {
    {"2024", TRACE_GEN_2024}, {"2025", TRACE_GEN_2025}, {NULL, 0}};
static const struct keyword FORMS[] = {{"array", 0}, {"object", 1}, {NULL, 0}};
static const struct keyword STEPKEYS[] = {{"stepN", 0}, {"step", 1}, {NULL, 0}};
static const struct keyword EXPORTS[] = {{"text", EXPORT_TEXT},
                                         {"db", EXPORT_DB},
                                         {"both", EXPORT_TEXT | EXPORT_DB},
                                         {NULL, 0}};
static const struct keyword FILES[] = {{"kernels", FILE_KERNELS},
                                       {"steps", FILE_STEPS},
                                       {"trace", FILE_TRACE},
                                       {"comm", FILE_COMM},
                                       {NULL, 0}};

const char *opts_variant_name(enum variant v)
{
	size_t i;

	for (i = 0; VARIANTS[i].word; i++)
		if (VARIANTS[i].value == (int)v)
			return VARIANTS[i].word;
	return "?";
}

/* A Task Type the trace can carry unescaped: 1 or 0. */
static int task_type_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != ' ')
			return 0;
	return 1;
}

static int lookup(const struct keyword *kw, const char *s, int *out)
{
	size_t i;

	for (i = 0; kw[i].word; i++) {
		if (strcmp(kw[i].word, s) == 0) {
			*out = kw[i].value;
			return 0;
		}
	}
	return -1;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v < (uint64_t)lo || v > (uint64_t)hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* "fa=35,matmul=45,vector=15"; keys may come in any order, all three needed. */
static int parse_mix(const char *s, double mix[3])
{
	static const char *const keys[3] = {"fa", "matmul", "vector"};
	char buf[128];
	int seen = 0;
	char *p = buf;

	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	while (p && *p) {
		char *comma = strchr(p, ',');
		char *eq = strchr(p, '=');
		int k;

		if (comma)
			*comma = '\0';
		if (!eq || (comma && eq > comma))
			return -1;
		*eq = '\0';
		for (k = 0; k < 3; k++)
			if (strcmp(p, keys[k]) == 0)
				break;
		if (k == 3 || parse_double(eq + 1, 0.5, 99.0, &mix[k]))
			return -1;
		seen |= 1 << k;
		p = comma ? comma + 1 : NULL;
	}
	return seen == 7 ? 0 : -1;
}

/* "R=F": rank R's compute runs F times longer (F in 1..10). */
static int parse_straggler(const char *s, struct opts *o)
{
	const char *eq = strchr(s, '=');
	char rank[16];

	if (!eq || (size_t)(eq - s) >= sizeof(rank))
		return -1;
	memcpy(rank, s, (size_t)(eq - s));
	rank[eq - s] = '\0';
	return parse_int(rank, 0, 63, &o->straggler) ||
	       parse_double(eq + 1, 1.0, 10.0, &o->straggler_f);
}

static int parse_files(const char *s, unsigned *mask)
{
	char buf[128];
	char *p = buf;

	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	*mask = 0;
	while (p && *p) {
		char *comma = strchr(p, ',');
		int v;

		if (comma)
			*comma = '\0';
		if (lookup(FILES, p, &v))
			return -1;
		*mask |= (unsigned)v;
		p = comma ? comma + 1 : NULL;
	}
	return *mask ? 0 : -1;
}

enum optid {
	O_OUT,
	O_SEED,
	O_STEPS,
	O_FIRST,
	O_ITERS,
	O_BLOCKS,
	O_RANKS,
	O_VIDEO,
	O_VAE_ENC,
	O_TE,
	O_ATTN,
	O_QUANT,
	O_MIX,
	O_COMM,
	O_OVERLAP,
	O_VARIANT,
	O_LF,
	O_TARGET,
	O_FILES,
	O_NOTRUTH,
	O_SELFCHECK,
	O_STRAGGLER,
	O_MARKERS,
	O_MARKERS_NOFLOW,
	O_TRACE_FORM,
	O_TRACE_TARGET,
	O_COMM_KEY,
	O_NO_INFO,
	O_EXPORT,
	O_SUBTASKS,
	O_NPU_ONLY,
	O_PROLOGUE,
	O_CACHE,
	O_MEMSET,
	O_MEMORY,
	O_TRACE_GEN,
	O_UNKNOWN_TT,
	O_WORKLOAD,
	O_DENOISER,
	O_HELP
};

struct optdef {
	const char *name;
	const char *arg; /* NULL: a flag without a value */
	enum optid id;
	const char *help;
};

static const struct optdef OPTDEFS[] = {
    {"-o", "DIR", O_OUT, "output folder, created if missing (required)"},
    {"--seed", "N", O_SEED, "PRNG seed (default 1)"},
    {"--steps", "S", O_STEPS, "profiler steps = pipeline calls (default 5)"},
    {"--first-step", "N", O_FIRST, "Step Id of the first step (default 3)"},
    {"--iters", "K", O_ITERS, "denoising iterations per step (default 8)"},
    {"--blocks", "B", O_BLOCKS, "DiT transformer blocks (default 12)"},
    {"--ranks", "N", O_RANKS, "cards, one rank folder each (default 1)"},
    {"--video", NULL, O_VIDEO, "video DiT/VAE: Conv3D, longer sequences"},
    {"--vae-encode", NULL, O_VAE_ENC, "add a VAE encode (video-to-video)"},
    {"--text-encoder", "KIND", O_TE, "t5 | clip | none (default t5)"},
    {"--attention", "KIND", O_ATTN, "fa | fia | laser | sparse (default fa)"},
    {"--quant", NULL, O_QUANT,
     "DiT linears as DynamicQuant + QuantBatchMatmulV3"},
    {"--mix", "fa=P,matmul=P,vector=P", O_MIX,
     "DiT kernel-time shares in % (default 35/45/15, 30/42/13 with comm)"},
    {"--comm", "KIND", O_COMM,
     "none | alltoall | allgather (default none; needs --ranks > 1)"},
    {"--comm-overlap", "F", O_OVERLAP,
     "overlapped fraction of each collective, 0..1 (0.5)"},
    {"--variant", "V", O_VARIANT,
     "level1-2026 (default) | level1-2025 | level1-2024 | level0 | level0-old"},
    {"--lf", NULL, O_LF, "LF line ends in the profiler CSVs instead of CRLF"},
    {"--target-bytes", "N", O_TARGET,
     "add steps until kernel_details.csv >= N bytes"},
    {"--files", "LIST", O_FILES,
     "comma list of kernels,steps,trace,comm (default all)"},
    {"--no-truth", NULL, O_NOTRUTH, "do not write OUTDIR/ground_truth/"},
    {"--self-check", NULL, O_SELFCHECK,
     "re-read the output, verify it, exit 1 on mismatch"},
    {"--straggler", "R=F", O_STRAGGLER,
     "rank R's compute kernels run F times longer; others wait"},
    {"--markers", NULL, O_MARKERS,
     "record_function stage ranges + torch_to_npu flows in the trace"},
    {"--markers-no-flows", NULL, O_MARKERS_NOFLOW,
     "the stage ranges without any flow events"},
    {"--trace-form", "FORM", O_TRACE_FORM,
     "array (default) | object: {..., \"traceEvents\": [...], ...}"},
    {"--trace-target-bytes", "N", O_TRACE_TARGET,
     "add steps until trace_view.json >= N bytes"},
    {"--comm-step-key", "KEY", O_COMM_KEY,
     "stepN (default: \"step3\", ...) | step (one \"step\" key)"},
    {"--no-profiler-info", NULL, O_NO_INFO,
     "do not write profiler_info[_N].json"},
    {"--export", "KIND", O_EXPORT,
     "text (default) | db (ascend_pytorch_profiler[_N].db) | both"},
    {"--subtasks", NULL, O_SUBTASKS,
     "runtime sub-tasks (EVENT_*, NOTIFY_*, MEMCPY_ASYNC, ...) and HCCL "
     "sub-tasks in the trace"},
    {"--memset", NULL, O_MEMSET,
     "a MemSet helper kernel (clearing the output) before each Conv and "
     "MatMul: Conv2D7_MemSet, aclnnMatmul_MatMulV3Common_MemSet"},
    {"--memory", NULL, O_MEMORY,
     "profile_memory=True: memory_record.csv (PTA and APP rows), the db's "
     "MEMORY_RECORD and NPU_MEM, their peaks in the truth"},
    {"--npu-only", NULL, O_NPU_ONLY,
     "trace of ProfilerActivity.NPU alone: no host events, no "
     "ProfilerStep"},
    {"--trace-generation", "GEN", O_TRACE_GEN,
     "2024 (default) | 2025: every Ascend Hardware event with its Task "
     "Type, HCCL's task level on the collective's stream"},
    {"--unknown-task-type", "NAME", O_UNKNOWN_TT,
     "one Ascend Hardware event a step with this Task Type (1 us; not a "
     "kernel): [A-Za-z0-9_ ], at most 40 bytes"},
    {"--dit-prologue", "KIND", O_PROLOGUE,
     "broadcast | scatter: noise + concat after the VAE encode, the latents "
     "sent to the SP group, then the host's gap (needs --vae-encode)"},
    {"--cache", "KIND:N", O_CACHE,
     "dit:N | attention:N: N-1 of every N denoising iterations hit a "
     "DiTCache / AttentionCache (N >= 2)"},
    {"--workload", "KIND", O_WORKLOAD,
     "diffusion (default) | training | vae-only | iterations: a pipeline "
     "call, a training step, or part of a pipeline per step"},
    {"--denoiser", "KIND", O_DENOISER,
     "dit (default) | unet: an SDXL-like UNet of Conv2D/GroupNorm ResBlocks "
     "and attention blocks, two CLIP encoders with --text-encoder clip"},
    {"--help", NULL, O_HELP, "this text"},
};

void opts_usage(FILE *fp)
{
	size_t i;

	fputs(
	    "usage: sdperf-gen -o OUTDIR [options]\n"
	    "Writes synthetic Ascend profiler output of a diffusion pipeline\n"
	    "(text encoder, DiT denoising loop, VAE) plus ground truth.\n\n",
	    fp);
	for (i = 0; i < sizeof(OPTDEFS) / sizeof(OPTDEFS[0]); i++) {
		const struct optdef *d = &OPTDEFS[i];
		int n = fprintf(fp, "  %s%s%s", d->name, d->arg ? " " : "",
		                d->arg ? d->arg : "");
		fprintf(fp, "%*s%s\n", n < 24 ? 24 - n : 1, "", d->help);
	}
}

static void set_defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->steps = 5;
	o->first_step = 3;
	o->iters = 8;
	o->blocks = 12;
	o->ranks = 1;
	o->truth = 1;
	o->te = TE_T5;
	o->attn = ATTN_FA;
	o->comm = COMM_NONE;
	o->variant = V_L1_2026;
	o->overlap = 0.5;
	o->files = FILE_ALL;
	o->straggler = -1;
	o->straggler_f = 1.0;
	o->profiler_info = 1;
	o->exports = EXPORT_TEXT;
}

/* "dit:N" or "attention:N", 2 <= N <= 1000. */
const char *const WORKLOAD_KINDS[4] = {"diffusion_inference", "training",
                                       "partial", "partial"};
const char *const WORKLOAD_PARTS[4] = {"none", "none", "vae_only", "loop_only"};

static const struct keyword WORKLOADS[] = {{"diffusion", WORKLOAD_DIFFUSION},
                                           {"training", WORKLOAD_TRAINING},
                                           {"vae-only", WORKLOAD_VAE_ONLY},
                                           {"iterations", WORKLOAD_ITERATIONS},
                                           {NULL, 0}};

static int parse_cache(const char *v, struct opts *o)
{
	static const struct keyword KINDS[] = {
	    {"dit", CACHE_DIT}, {"attention", CACHE_ATTENTION}, {NULL, 0}};
	const char *colon = strchr(v, ':');
	char kind[16];
	size_t len = colon ? (size_t)(colon - v) : 0;

	if (!colon || len >= sizeof(kind))
		return -1;
	memcpy(kind, v, len);
	kind[len] = '\0';
	if (lookup(KINDS, kind, &o->cache) ||
	    parse_int(colon + 1, 2, 1000, &o->cache_period))
		return -1;
	return 0;
}

/* The options added for stragglers, markers and file forms. */
static int apply_new(struct opts *o, enum optid id, const char *v)
{
	int k = 0, rc = 0;

	switch (id) {
	case O_STRAGGLER:
		rc = parse_straggler(v, o);
		break;
	case O_MARKERS:
		o->markers = 1;
		o->flows = 1;
		break;
	case O_MARKERS_NOFLOW:
		o->markers = 1;
		o->flows = 0;
		break;
	case O_TRACE_FORM:
		rc = lookup(FORMS, v, &k);
		o->trace_object = k;
		break;
	case O_TRACE_TARGET:
		rc = parse_u64(v, &o->trace_target);
		break;
	case O_COMM_KEY:
		rc = lookup(STEPKEYS, v, &k);
		o->comm_single_key = k;
		break;
	case O_NO_INFO:
		o->profiler_info = 0;
		break;
	case O_EXPORT:
		rc = lookup(EXPORTS, v, &k);
		o->exports = (unsigned)k;
		break;
	case O_SUBTASKS:
		o->subtasks = 1;
		break;
	case O_NPU_ONLY:
		o->npu_only = 1;
		break;
	case O_MEMSET:
		o->memset = 1;
		break;
	case O_MEMORY:
		o->memory = 1;
		break;
	case O_PROLOGUE:
		rc = lookup(PROLOGUES, v, &k);
		o->prologue = k;
		break;
	case O_CACHE:
		rc = parse_cache(v, o);
		break;
	case O_TRACE_GEN:
		rc = lookup(TRACE_GENS, v, &k);
		o->trace_gen = k;
		break;
	case O_UNKNOWN_TT:
		rc = task_type_ok(v) ? 0 : -1;
		o->unknown_tt = v;
		break;
	case O_WORKLOAD:
		rc = lookup(WORKLOADS, v, &k);
		o->workload = k;
		break;
	case O_DENOISER:
		rc = lookup(DENOISERS, v, &k);
		o->denoiser = (enum denoiser_kind)k;
		break;
	default:
		break;
	}
	return rc;
}

/* Applies one option; returns -1 when its value is bad. */
static int apply(struct opts *o, enum optid id, const char *v)
{
	int k = 0, rc = 0;

	switch (id) {
	case O_OUT:
		o->outdir = v;
		break;
	case O_SEED:
		rc = parse_u64(v, &o->seed);
		break;
	case O_STEPS:
		rc = parse_int(v, 1, 1000000, &o->steps);
		break;
	case O_FIRST:
		rc = parse_int(v, 0, 100000000, &o->first_step);
		break;
	case O_ITERS:
		rc = parse_int(v, 1, 1000, &o->iters);
		break;
	case O_BLOCKS:
		rc = parse_int(v, 1, 200, &o->blocks);
		break;
	case O_RANKS:
		rc = parse_int(v, 1, 64, &o->ranks);
		break;
	case O_VIDEO:
		o->video = 1;
		break;
	case O_VAE_ENC:
		o->vae_encode = 1;
		break;
	case O_TE:
		rc = lookup(TES, v, &k);
		o->te = (enum te_kind)k;
		break;
	case O_ATTN:
		rc = lookup(ATTNS, v, &k);
		o->attn = (enum attn_kind)k;
		break;
	case O_QUANT:
		o->quant = 1;
		break;
	case O_MIX:
		rc = parse_mix(v, o->mix);
		o->mix_given = 1;
		break;
	case O_COMM:
		rc = lookup(COMMS, v, &k);
		o->comm = (enum comm_kind)k;
		break;
	case O_OVERLAP:
		rc = parse_double(v, 0.0, 1.0, &o->overlap);
		break;
	case O_VARIANT:
		rc = lookup(VARIANTS, v, &k);
		o->variant = (enum variant)k;
		break;
	case O_LF:
		o->lf = 1;
		break;
	case O_TARGET:
		rc = parse_u64(v, &o->target_bytes);
		break;
	case O_FILES:
		rc = parse_files(v, &o->files);
		break;
	case O_NOTRUTH:
		o->truth = 0;
		break;
	case O_SELFCHECK:
		o->self_check = 1;
		break;
	default:
		return apply_new(o, id, v);
	}
	return rc;
}

static const struct optdef *find_opt(const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(OPTDEFS) / sizeof(OPTDEFS[0]); i++)
		if (strcmp(OPTDEFS[i].name, arg) == 0)
			return &OPTDEFS[i];
	return NULL;
}

/* Cross-option rules, checked once everything is read. */
static int validate(struct opts *o, char *err, size_t errlen)
{
	if (!o->outdir) {
		snprintf(err, errlen, "missing -o OUTDIR");
		return -1;
	}
	if (o->mix_given && o->mix[0] + o->mix[1] + o->mix[2] > 99.0) {
		snprintf(err, errlen,
		         "--mix: fa+matmul+vector must leave at least "
		         "1%% for Conv/Other/Comm");
		return -1;
	}
	if (o->ranks == 1)
		o->comm = COMM_NONE; /* one card has nobody to talk to */
	if ((o->target_bytes || o->trace_target) &&
	    !(o->exports & EXPORT_TEXT)) {
		snprintf(err, errlen,
		         "--target-bytes and --trace-target-bytes size text "
		         "files: they need --export text or both");
		return -1;
	}
	if (o->target_bytes && !(o->files & FILE_KERNELS)) {
		snprintf(err, errlen,
		         "--target-bytes needs kernels in --files");
		return -1;
	}
	if (o->trace_target && (!(o->files & FILE_TRACE) || o->target_bytes)) {
		snprintf(err, errlen,
		         "--trace-target-bytes needs trace in --files and "
		         "excludes --target-bytes");
		return -1;
	}
	if (o->npu_only && o->markers) {
		snprintf(err, errlen,
		         "--npu-only: the host events --markers writes are "
		         "not collected with ProfilerActivity.NPU alone");
		return -1;
	}
	if (o->prologue && !o->vae_encode) {
		snprintf(err, errlen,
		         "--dit-prologue: the prologue follows a VAE encode: "
		         "it needs --vae-encode");
		return -1;
	}
	if (o->denoiser == DEN_UNET &&
	    (o->video || o->comm != COMM_NONE || o->cache || o->quant ||
	     o->prologue || o->attn != ATTN_FA)) {
		snprintf(err, errlen,
		         "--denoiser unet: an image UNet on one card: no "
		         "--video, --comm, --cache, --quant, --dit-prologue "
		         "or --attention");
		return -1;
	}
	if (o->straggler >= o->ranks) {
		snprintf(err, errlen,
		         "--straggler: rank %d does not exist (--ranks %d)",
		         o->straggler, o->ranks);
		return -1;
	}
	if (o->self_check && (!o->truth || ((o->exports & EXPORT_TEXT) &&
	                                    !(o->files & FILE_KERNELS)))) {
		snprintf(err, errlen,
		         "--self-check needs the ground truth and "
		         "kernel_details.csv");
		return -1;
	}
	return 0;
}

/* A realistic default mix; with comm, leave room so comm is a sizeable
 * share of DiT time instead of a sliver. */
static void default_mix(struct opts *o)
{
	if (o->mix_given)
		return;
	o->mix[0] = o->comm == COMM_NONE ? 35.0 : 30.0;
	o->mix[1] = o->comm == COMM_NONE ? 45.0 : 42.0;
	o->mix[2] = o->comm == COMM_NONE ? 15.0 : 13.0;
}

enum opts_result opts_parse(struct opts *o, int argc, char **argv, char *err,
                            size_t errlen)
{
	int i;

	set_defaults(o);
	for (i = 1; i < argc; i++) {
		const struct optdef *d = find_opt(argv[i]);
		const char *val = NULL;

		if (!d) {
			snprintf(err, errlen,
			         "unknown option '%s' (see --help)", argv[i]);
			return OPTS_ERROR;
		}
		if (d->id == O_HELP)
			return OPTS_HELP;
		if (d->arg) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "option %s needs a value",
				         d->name);
				return OPTS_ERROR;
			}
			val = argv[++i];
		}
		if (apply(o, d->id, val)) {
			snprintf(err, errlen, "option %s: bad value '%s'",
			         d->name, val);
			return OPTS_ERROR;
		}
	}
	if (validate(o, err, errlen))
		return OPTS_ERROR;
	default_mix(o);
	return OPTS_OK;
}
