/* kcsv.c: kernel_details.csv rows. Column lists per variant are tables; the
 * hot path writes straight into the output buffer (1 GB inputs). */
#include "kcsv.h"

#include "banned.h"

enum col {
	C_END,
	C_STEP,
	C_DEVICE,
	C_MODEL,
	C_TASK,
	C_STREAM,
	C_NAME,
	C_TYPE,
	C_OPSTATE,
	C_CORE,
	C_START,
	C_DUR,
	C_WAIT,
	C_BLOCK,
	C_BLOCKNUM,
	C_MIXBLOCK,
	C_MIXBLOCKNUM,
	C_HF32,
	C_INSH,
	C_INTY,
	C_INFMT,
	C_OUTSH,
	C_OUTTY,
	C_OUTFMT,
	C_CTX,
	C_PMU
};

/* PipeUtilization counters, names exactly as 910B Level1 files have them. */
#define PMU_HEADER                                                             \
	"aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,"     \
	"aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),"              \
	"aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,"                     \
	"aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,"         \
	"aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,"        \
	"aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"              \
	"aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,"                     \
	"aiv_icache_miss_rate,cube_utilization(%)"
#define PMU_COLS 25

static const char *const COL_NAMES[] = {
    [C_END] = "",
    [C_STEP] = "Step Id",
    [C_DEVICE] = "Device_id",
    [C_MODEL] = "Model ID",
    [C_TASK] = "Task ID",
    [C_STREAM] = "Stream ID",
    [C_NAME] = "Name",
    [C_TYPE] = "Type",
    [C_OPSTATE] = "OP State",
    [C_CORE] = "Accelerator Core",
    [C_START] = "Start Time(us)",
    [C_DUR] = "Duration(us)",
    [C_WAIT] = "Wait Time(us)",
    [C_BLOCK] = "Block Dim",
    [C_BLOCKNUM] = "Block Num",
    [C_MIXBLOCK] = "Mix Block Dim",
    [C_MIXBLOCKNUM] = "Mix Block Num",
    [C_HF32] = "HF32 Eligible",
    [C_INSH] = "Input Shapes",
    [C_INTY] = "Input Data Types",
    [C_INFMT] = "Input Formats",
    [C_OUTSH] = "Output Shapes",
    [C_OUTTY] = "Output Data Types",
    [C_OUTFMT] = "Output Formats",
    [C_CTX] = "Context ID",
    [C_PMU] = PMU_HEADER,
};

#define L1_MID                                                                 \
	C_MODEL, C_TASK, C_STREAM, C_NAME, C_TYPE, C_OPSTATE, C_CORE, C_START, \
	    C_DUR, C_WAIT
#define L1_SHAPES                                                              \
	C_HF32, C_INSH, C_INTY, C_INFMT, C_OUTSH, C_OUTTY, C_OUTFMT, C_CTX,    \
	    C_PMU, C_END

static const enum col COLS_2026[] = {C_STEP,     C_DEVICE,      L1_MID,
                                     C_BLOCKNUM, C_MIXBLOCKNUM, L1_SHAPES};
static const enum col COLS_2025[] = {C_STEP,  C_DEVICE,   L1_MID,
                                     C_BLOCK, C_MIXBLOCK, L1_SHAPES};
static const enum col COLS_2024[] = {C_STEP, L1_MID, C_BLOCK, C_MIXBLOCK,
                                     L1_SHAPES};
static const enum col COLS_L0[] = {C_STEP,  C_DEVICE, C_NAME, C_TYPE,  C_CORE,
                                   C_START, C_DUR,    C_WAIT, C_BLOCK, C_END};
static const enum col COLS_L0_OLD[] = {C_NAME, C_TYPE, C_CORE,  C_START,
                                       C_DUR,  C_WAIT, C_BLOCK, C_END};

static const enum col *columns(enum variant v)
{
	switch (v) {
	case V_L1_2026:
		return COLS_2026;
	case V_L1_2025:
		return COLS_2025;
	case V_L1_2024:
		return COLS_2024;
	case V_L0:
		return COLS_L0;
	case V_L0_OLD:
		return COLS_L0_OLD;
	}
	return COLS_2026;
}

void kcsv_header(struct outbuf *ob, const struct rankctx *rc)
{
	const enum col *c = columns(rc->o->variant);
	int first = 1;

	for (; *c != C_END; c++) {
		if (!first)
			ob_ch(ob, ',');
		ob_str(ob, COL_NAMES[*c]);
		first = 0;
	}
	ob_str(ob, rc->eol);
}

static int is_level0(enum variant v)
{
	return v == V_L0 || v == V_L0_OLD;
}

/* Durations and waits are printed the way each era did: 2026 "4.140" and
 * waits "51.110000"; 2025 "4.140" and "51.11"; older files "4.14". */
static void put_time(struct outbuf *ob, enum variant v, int64_t ns, int is_wait)
{
	if (v == V_L1_2026 && is_wait && ns)
		ob_us6(ob, ns);
	else if ((v == V_L1_2026 || v == V_L1_2025) && !is_wait)
		ob_us3(ob, ns);
	else
		ob_us_py(ob, ns);
}

static void put_na(struct outbuf *ob, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ob_mem(ob, i ? ",N/A" : "N/A", i ? 4 : 3);
}

/* Writes time, cycles, then (name_time, name_ratio) pairs for a core. */
static void pmu_side(struct outbuf *ob, int64_t busy, int block,
                     const int *ratios, int nratios, int icache)
{
	int i;

	ob_us_py(ob, busy);
	ob_ch(ob, ',');
	ob_u64(ob, (uint64_t)busy * 18 / 10 * (uint64_t)(block ? block : 1));
	for (i = 0; i < nratios; i++) {
		ob_ch(ob, ',');
		ob_us_py(ob, busy * ratios[i] / 1000);
		ob_ch(ob, ',');
		ob_milli(ob, ratios[i]);
	}
	ob_ch(ob, ',');
	ob_milli(ob, icache);
}

#define AIC_ZERO "0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0"
#define AIV_ZERO "0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0"

static void put_pmu(struct outbuf *ob, const struct tmpl *t, int64_t dur)
{
	const struct pmu *p = &t->pmu;
	enum core core = t->op->core;
	int64_t busy = dur * p->busy / 1000;

	if (core == CORE_AICPU || core == CORE_HCCL) {
		put_na(ob, PMU_COLS);
		return;
	}
	if (core == CORE_AIV) {
		ob_mem(ob, AIC_ZERO, sizeof(AIC_ZERO) - 1);
	} else {
		const int r[5] = {p->mac, p->scalar, p->mte1, p->mte2,
		                  p->fixpipe};
		pmu_side(ob, busy, t->block, r, 5, p->icache);
	}
	ob_ch(ob, ',');
	if (core == CORE_AIC) {
		ob_mem(ob, AIV_ZERO, sizeof(AIV_ZERO) - 1);
	} else {
		const int r[4] = {p->vec, p->vscalar, p->vmte2, p->vmte3};
		pmu_side(ob, busy, t->mix_block ? t->mix_block : t->block, r, 4,
		         p->vicache);
	}
	ob_ch(ob, ',');
	if (core == CORE_AIV)
		ob_mem(ob, "0.000", 5);
	else
		ob_us3(ob,
		       p->cube_util); /* thousandths of a percent: 3 decimals */
}

static void put_str_or_na(struct outbuf *ob, const char *s)
{
	ob_str(ob, s ? s : "N/A");
}

/* Name of a collective: hcom_alltoall__<n>_0_1, numbered per launch. */
static void put_comm_name(struct outbuf *ob, const struct tmpl *t, uint32_t seq)
{
	ob_str(ob, t->op->type);
	ob_ch(ob, '_');
	ob_u64(ob, seq);
	ob_mem(ob, "_0_1", 4);
}

/* Columns that only depend on the kernel's template and stream. */
static void put_static(struct outbuf *ob, enum col c, const struct tmpl *t,
                       enum variant v, int comm)
{
	int l0 = is_level0(v);
	int aicpu = t->op->core == CORE_AICPU;

	switch (c) {
	case C_MODEL:
		ob_mem(ob, "4294967295", 10);
		break;
	case C_STREAM:
		if (comm)
			ob_mem(ob, "N/A", 3);
		else
			ob_ch(ob, '2');
		break;
	/* Level0 leaves Type N/A even on HCCL rows (seen in real files). */
	case C_TYPE:
		ob_str(ob, l0 ? "N/A" : t->op->type);
		break;
	case C_OPSTATE:
		ob_str(ob, comm ? "N/A" : "dynamic");
		break;
	case C_CORE:
		ob_str(ob, l0 && !comm ? "N/A" : CORE_NAMES[t->op->core]);
		break;
	case C_BLOCK:
	case C_BLOCKNUM:
		ob_u64(ob, l0 ? 0 : (uint64_t)t->block);
		break;
	case C_MIXBLOCK:
	case C_MIXBLOCKNUM:
		if (comm)
			ob_mem(ob, "N/A", 3);
		else
			ob_u64(ob, (uint64_t)t->mix_block);
		break;
	case C_HF32:
		ob_str(ob, comm ? "N/A" : "NO");
		break;
	case C_INSH:
		put_str_or_na(ob, t->in_shapes);
		break;
	case C_INTY:
		put_str_or_na(ob, t->in_types);
		break;
	case C_INFMT:
		put_str_or_na(ob, t->in_fmts);
		break;
	case C_OUTSH:
		put_str_or_na(ob, t->out_shapes);
		break;
	case C_OUTTY:
		put_str_or_na(ob, t->out_types);
		break;
	case C_OUTFMT:
		put_str_or_na(ob, t->out_fmts);
		break;
	case C_CTX:
		ob_str(ob, !aicpu && !comm && t->op->core >= CORE_MIX_AIC
		               ? "0"
		               : "N/A");
		break;
	default:
		break;
	}
}

static void put_row(struct outbuf *ob, const struct rankctx *rc,
                    const enum col *cols, const struct step *s,
                    const struct kern *k)
{
	const struct tmpl *t = &rc->m->t[k->tmpl];
	enum variant v = rc->o->variant;
	int comm = t->op->core == CORE_HCCL;
	const enum col *c;

	for (c = cols; *c != C_END; c++) {
		if (c != cols)
			ob_ch(ob, ',');
		switch (*c) {
		case C_STEP:
			ob_u64(ob, (uint64_t)s->number);
			break;
		case C_DEVICE:
			ob_u64(ob, (uint64_t)rc->device);
			break;
		case C_TASK:
			if (comm)
				ob_mem(ob, "N/A", 3);
			else
				ob_u64(ob, k->seq);
			break;
		case C_NAME:
			if (comm)
				put_comm_name(ob, t, k->seq);
			else
				ob_str(ob, t->name);
			break;
		case C_START:
			ob_us3(ob, k->start);
			ob_ch(ob, '\t');
			break;
		case C_DUR:
			put_time(ob, v, k->dur, 0);
			break;
		case C_WAIT:
			put_time(ob, v, k->wait, 1);
			break;
		case C_PMU:
			if (comm)
				put_na(ob, PMU_COLS);
			else
				put_pmu(ob, t, k->dur);
			break;
		default:
			if (comm && *c >= C_HF32)
				ob_mem(ob, "N/A", 3);
			else
				put_static(ob, *c, t, v, comm);
			break;
		}
	}
	ob_str(ob, rc->eol);
}

void kcsv_step(struct outbuf *ob, const struct rankctx *rc,
               const struct step *s)
{
	const enum col *cols = columns(rc->o->variant);
	size_t i;

	for (i = 0; i < s->n; i++)
		put_row(ob, rc, cols, s, &s->k[i]);
}
