/* steptrace.c: step_trace_time.csv; Stage = Computing + exposed comm + Free,
 * i.e. the device span of the step; Bubble is 0 (no pipeline receive). */
#include "steptrace.h"

#include "banned.h"

#define ST_COLS                                                                \
	"Step,Computing,Communication(Not Overlapped),Overlapped,"             \
	"Communication,Free,Stage,Bubble,"                                     \
	"Communication(Not Overlapped and Exclude Receive)"

void steptrace_header(struct outbuf *ob, const struct rankctx *rc)
{
	enum variant v = rc->o->variant;

	if (v == V_L1_2026)
		ob_str(ob, "Device_id,");
	ob_str(ob, ST_COLS);
	if (v != V_L0_OLD) /* the 2023 layout had no Preparing */
		ob_str(ob, ",Preparing");
	ob_str(ob, rc->eol);
}

static void field(struct outbuf *ob, int64_t ns)
{
	ob_ch(ob, ',');
	ob_us_py(ob, ns);
}

void steptrace_row(struct outbuf *ob, const struct rankctx *rc,
                   const struct step *s, const struct overlap *ov)
{
	enum variant v = rc->o->variant;

	if (v == V_L1_2026) {
		ob_u64(ob, (uint64_t)rc->device);
		ob_ch(ob, ',');
	}
	ob_u64(ob, (uint64_t)s->number);
	field(ob, ov->t_comp);
	field(ob, ov->t_commx);
	field(ob, ov->t_comm - ov->t_commx);
	field(ob, ov->t_comm);
	field(ob, ov->t_free);
	field(ob, ov->t_comp + ov->t_commx + ov->t_free);
	field(ob, 0);
	field(ob, ov->t_commx);
	if (v != V_L0_OLD)
		field(ob, s->first_start - s->host_start);
	ob_str(ob, rc->eol);
}
