/* Plain-text summary. Kernel names from the profile are printed with
 * control characters escaped, so a crafted name cannot drive the terminal. */
#include "format/text/text.h"

#include <inttypes.h>
#include <string.h>

#include "analysis/collection.h"
#include "analysis/totals.h"
#include "format/text/text_summary.h"
#include "util/checked.h"
#include "util/banned.h"
#include "util/numfmt.h"

/* tmp padded to width columns (a UTF-8 continuation byte, as in "µs",
 * takes none) */
static void cell(struct strbuf *out, struct strbuf *tmp, size_t width,
                 int right)
{
	size_t i, cols = 0, pad;

	for (i = 0; i < tmp->len; i++)
		cols += ((unsigned char)tmp->buf[i] & 0xC0) != 0x80;
	pad = cols < width ? width - cols : 0;
	if (right)
		strbuf_addchars(out, ' ', pad);
	strbuf_add(out, tmp->buf, tmp->len);
	if (!right)
		strbuf_addchars(out, ' ', pad);
	strbuf_reset(tmp);
}

static size_t analysed(const struct result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nranks; i++)
		n += r->ranks[i].analysed != 0;
	return n;
}

/* The rank id of the lead card (nranks > 0). */
static int lead_id(const struct result *r)
{
	return r->ranks[r->lead < r->nranks ? r->lead : 0].id;
}

static void stage_table(const struct result *r, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	int64_t total = 0, kmax = 0, wmax = 0;
	enum numfmt_unit ku, wu;
	int s;

	/* one unit per column, from its largest value */
	for (s = 0; s < STAGE_COUNT; s++) {
		checked_accumulate(&total, r->stages[s].kernel_ns);
		if (r->stages[s].kernels) {
			kmax = r->stages[s].kernel_ns > kmax
			           ? r->stages[s].kernel_ns
			           : kmax;
			wmax = r->stages[s].wall_ns > wmax
			           ? r->stages[s].wall_ns
			           : wmax;
		}
	}
	ku = numfmt_unit_of(kmax);
	wu = numfmt_unit_of(wmax);
	if (r->nranks > 1)
		strbuf_addf(
		    out,
		    "stage times below: card-time, summed over %zu cards "
		    "(the summary above: wall time on rank %d, the lead "
		    "card)\n",
		    analysed(r), lead_id(r));
	strbuf_adds(
	    out, "stage           kernels  kernel time    wall time   share\n");
	for (s = 0; s < STAGE_COUNT; s++) {
		const struct stage_result *st = &r->stages[s];
		if (!st->kernels)
			continue;
		strbuf_adds(&t, text_stage_label(r, s));
		cell(out, &t, 13, 0);
		numfmt_count(&t, st->kernels);
		cell(out, &t, 10, 1);
		numfmt_duration_in(&t, st->kernel_ns, ku);
		cell(out, &t, 13, 1);
		numfmt_duration_in(&t, st->wall_ns, wu);
		cell(out, &t, 13, 1);
		text_pct(&t, numfmt_pct(st->kernel_ns, total));
		cell(out, &t, 8, 1);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&t);
	if (r->loop_found)
		strbuf_addf(out, "denoiser        %s (stage dit)\n",
		            r->denoiser_unet ? "UNet" : "DiT");
}

static void categories(const struct result *r, struct strbuf *out)
{
	int s, c;

	for (s = 0; s < STAGE_COUNT; s++) {
		const struct stage_result *st = &r->stages[s];
		/* the rest of a split, unless it is the whole profile */
		if (!st->kernels ||
		    (s == STAGE_OTHER && !r->workload.one_stage))
			continue;
		strbuf_addf(out, "%-13s", text_stage_label(r, s));
		for (c = 0; c < CAT_COUNT; c++) {
			strbuf_addf(out, "  %s ", category_names[c]);
			text_pct(out,
			         numfmt_pct(st->cat[c].time_ns, st->kernel_ns));
		}
		if (st->comm_ns) {
			strbuf_adds(out, "  (exposed comm ");
			text_pct(out,
			         numfmt_pct(st->exposed_comm_ns, st->wall_ns));
			strbuf_adds(out, " of wall)");
		}
		strbuf_addch(out, '\n');
	}
}

static void verdicts(const struct result *r, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	size_t i, d;

	strbuf_adds(out, "\nverdicts:\n");
	/* fired ones first (by expected gain), then the others in rules
	 * order */
	for (i = 0; i < 2 * r->nverdicts; i++) {
		const struct verdict *v = &r->verdicts[i % r->nverdicts];
		if ((i < r->nverdicts) != (v->fired != 0))
			continue;
		const char *tag = !v->applicable ? "n/a "
		                  : v->fired     ? "FIRE"
		                                 : " ok ";
		strbuf_addf(out, "  [%s] %-16s ", tag, v->id);
		if (v->applicable) {
			/* the value and threshold as the other formats show
			 * them ("0%", "0.04%", "30.0%"); ASCII signs */
			text_pct(&t, v->value);
			cell(out, &t, 6, 1);
			strbuf_adds(out, v->fired ? " >  " : " <= ");
			text_pct(&t, v->threshold);
			cell(out, &t, 5, 1);
			/* a passing check by its neutral name, never its claim
			 */
			strbuf_addf(out, "  %s",
			            v->fired || !v->check ? v->title
			                                  : v->check);
		} else if (v->na_reason)
			strbuf_addf(out, "n/a: %s", v->na_reason);
		else
			strbuf_addf(out, "no %s kernels",
			            stage_names[v->stage]);
		if (v->applicable && v->how && v->rank >= 0)
			strbuf_addf(out, " (%s: rank %d)", v->how, v->rank);
		if (v->fired) {
			strbuf_adds(out, "\n         see:");
			for (d = 0; d < v->ndocs; d++)
				strbuf_addf(out, " %s", v->docs[d]);
			if (v->gain) {
				strbuf_adds(out, "\n         ");
				text_gain(r, v->gain, 1, out);
			}
		}
		strbuf_addch(out, '\n');
	}
	strbuf_release(&t);
}

/* One line per rank: DiT kernel and compute time (the whole profile's
 * when it is one stage), exposed communication, communication wait, free
 * share, and the files it lacked. */
static void ranks(const struct result *r, struct strbuf *out)
{
	size_t i;
	int f, ms = r->workload.one_stage ? STAGE_OTHER : STAGE_DIT;

	if (r->nranks < 2)
		return;
	strbuf_addf(out, "\nranks (%zu):\n", r->nranks);
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		int from_trace = rr->kernel_source &&
		                 !strcmp(rr->kernel_source, "trace_view");
		strbuf_addf(out, "  rank %-4" PRId32, rr->id);
		if (rr->analysed) {
			strbuf_addf(out, " %s ", text_stage_label(r, ms));
			numfmt_duration(out, rr->stage[ms].kernel_ns);
			strbuf_adds(out, ", compute ");
			numfmt_duration(out, rr->compute_ns);
			strbuf_adds(out, ", exposed comm ");
			text_pct(out, numfmt_pct(rr->stage[ms].exposed_comm_ns,
			                         rr->stage[ms].wall_ns));
		} else {
			strbuf_adds(out, " not analysed");
		}
		if (rr->comm_read) {
			strbuf_adds(out, ", wait ");
			numfmt_duration(out, rr->comm.wait_ns);
		}
		if (rr->free_share_ppm >= 0) {
			strbuf_adds(out, ", free ");
			text_pct(out, (double)rr->free_share_ppm / 1e4);
		}
		if (rr->db.used) {
			strbuf_adds(out, ", db export");
			for (f = 0; f < DBGAP_COUNT; f++)
				if (rr->db.gaps & (1u << f))
					strbuf_addf(out, ", no %s",
					            db_gap_keys[f]);
		} else {
			if (from_trace)
				strbuf_adds(out, ", kernels from the trace");
			for (f = 0; f < RF_COUNT; f++)
				if (!rr->files[f] && f != RF_INFO &&
				    !(f == RF_KERNELS && from_trace) &&
				    !(f == RF_STEPS && rr->nsteps))
					strbuf_addf(out, ", no %s",
					            rank_file_names[f]);
		}
		strbuf_addch(out, '\n');
	}
}

static const char *tri_word(int v, const char *yes, const char *no)
{
	return v == TRI_YES ? yes : v == TRI_NO ? no : "unknown";
}

/* Per rank: the checks against the profiler's own totals, and the files
 * nothing reads (names sanitised: they come from the capture). */
static void totals_lines(const struct result *r, struct strbuf *out)
{
	size_t i, k;
	int f;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		int n = 0;
		for (f = 0; rr->analysed && f < TOT_COUNT; f++) {
			const struct totals_check *c = &rr->totals[f];
			if (!c->checked)
				continue;
			if (!n++)
				strbuf_addf(out,
				            "  rank %d profiler totals check:",
				            (int)rr->id);
			strbuf_addf(
			    out, "%s %s %s (off by %.1f points, %.1f allowed)",
			    n > 1 ? "," : "", totals_figure_names[f],
			    c->passed ? "agrees" : "DISAGREES", c->diff_points,
			    c->tolerance);
		}
		if (n)
			strbuf_adds(out, rr->totals_failed
			                     ? "; see the warnings\n"
			                     : "; passed\n");
		if (r->nranks > 1 && rr->nlinks) { /* the most transit time */
			const struct comm_link *l = &rr->links[0];
			strbuf_addf(
			    out,
			    "  rank %d links (communication_matrix.json): "
			    "%zu; most time: %d -> %d ",
			    (int)rr->id, rr->links_total, (int)l->src,
			    (int)l->dst);
			strbuf_add_sanitized(
			    out, l->transport,
			    strnlen(l->transport, sizeof(l->transport)));
			strbuf_addf(out, " %.3f MB in %.3f ms\n", l->size_mb,
			            (double)l->time_ns / 1e6);
		}
		if (!rr->nunused)
			continue;
		strbuf_addf(out, "  rank %d files not read:", (int)rr->id);
		for (k = 0; k < rr->nunused; k++) {
			strbuf_adds(out, k ? ", " : " ");
			strbuf_add_sanitized(out, rr->unused[k],
			                     strlen(rr->unused[k]));
		}
		if (rr->unused_total > rr->nunused)
			strbuf_addf(out, " and %zu more",
			            rr->unused_total - rr->nunused);
		strbuf_adds(out, "\n");
	}
}

/* Two lines: the run's collection facts, then its gaps (or that it is
 * complete). */
static void collection(const struct result *r, struct strbuf *out)
{
	const struct rank_collection *s = &r->collection.sum;
	const char *level = collection_level_name(s->level);
	int g, n = 0;

	if (!r->collection.checked || !s->export_type)
		return;
	strbuf_addf(out,
	            "\ncollection: %s%s, %s, CPU events %s, %" PRIu64
	            " timed step%s, shapes %s, memory %s, AI Core metrics "
	            "%s\n",
	            strcmp(s->export_type, "trace") ? s->export_type
	                                            : "the trace alone",
	            strcmp(s->export_type, "trace") ? " export" : "",
	            level ? level : "level unknown",
	            tri_word(s->cpu, "yes", "no"), s->timed,
	            s->timed == 1 ? "" : "s", tri_word(s->shapes, "yes", "no"),
	            tri_word(s->memory, "yes", "no"),
	            tri_word(s->aic, "yes", "no"));
	totals_lines(r, out);
	if (!s->gaps) {
		strbuf_adds(out,
		            "  complete: nothing to add to the collection\n");
		return;
	}
	strbuf_adds(out, "  gaps:");
	for (g = 0; g < GAP_COUNT; g++)
		if (s->gaps & (1u << g))
			strbuf_addf(out, "%s %s", n++ ? "," : "",
			            coll_gap_defs[g].id);
	strbuf_adds(out, " (report: Collection check, with the code that "
	                 "fixes each)\n");
}

/* Who the report is for, one line (when branded). */
static void branding(const struct brand *b, struct strbuf *out)
{
	const char *part[3] = {b->org, b->customer, b->ticket};
	const char *label[3] = {"", "for ", "ticket "};
	size_t i, n = 0;

	for (i = 0; i < 3; i++) {
		if (!part[i])
			continue;
		strbuf_adds(out, n++ ? ", " : "");
		strbuf_adds(out, label[i]);
		strbuf_add_sanitized(out, part[i], strlen(part[i]));
	}
	if (n)
		strbuf_addch(out, '\n');
}

/* How the report was made, short: the full block is in every report
 * file. */
static void provenance(const struct result *r, struct strbuf *out)
{
	const struct provenance *p = &r->prov;
	size_t i, files = 0;

	if (!p->set)
		return;
	for (i = 0; i < r->nranks; i++)
		files += r->ranks[i].ninputs;
	strbuf_addf(out, "\nmade by sdperf %s%s%s, rules ", p->version,
	            *p->build ? " " : "", p->build);
	strbuf_add_sanitized(out, p->rules, strlen(p->rules));
	strbuf_addf(out, " (sha256 %.12s), %zu input file%s hashed, captured ",
	            p->rules_sha256, files, files == 1 ? "" : "s");
	if (p->captured_s < 0)
		strbuf_adds(out, "unknown");
	else {
		numfmt_time(out, p->captured_s, NUMFMT_TIME_TEXT);
		strbuf_adds(out, strcmp(p->captured_from, "profiler_info")
		                     ? " (folder name)"
		                     : " UTC");
	}
	strbuf_adds(out, ", generated ");
	numfmt_time(out, p->generated_s, NUMFMT_TIME_TEXT);
	strbuf_adds(out, " UTC");
	strbuf_adds(out, p->generated_fixed ? " (SOURCE_DATE_EPOCH)\n" : "\n");
	if (r->brand.confidential) {
		strbuf_add_sanitized(out, r->brand.confidential,
		                     strlen(r->brand.confidential));
		strbuf_addch(out, '\n');
	}
}

/* The redaction line's second half: what this profile held of each class,
 * and the metadata fields dropped (view/model.c's redaction_found says
 * the same in the reports). */
static void redaction_found(const struct redaction *rd, struct strbuf *out)
{
	static const char *const what[REDACT_CLASSES] = {
	    "host names",        "user names",   "paths",
	    "rank folder names", "IP addresses", "HCCL group names",
	    "operator names"};
	int k, any = 0;

	strbuf_adds(out, "redacted: found in this profile and replaced: ");
	for (k = 0; k < REDACT_CLASSES; k++) {
		if (!rd->replaced[k])
			continue;
		strbuf_addf(out, "%s%s %" PRIu64, any ? ", " : "", what[k],
		            rd->replaced[k]);
		any = 1;
	}
	strbuf_adds(out, any ? "\n" : "none\n");
	any = 0;
	for (k = 0; k < REDACT_FIELDS; k++) {
		if (!rd->dropped[k])
			continue;
		strbuf_addf(out, "%s%s (%" PRIu64 ")",
		            any ? ", "
		                : "redacted: dropped, as they could not "
		                  "be made safe: ",
		            redact_field_names[k], rd->dropped[k]);
		any = 1;
	}
	if (any)
		strbuf_addch(out, '\n');
}

void render_text(const struct result *r, const char *tool_version,
                 struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "sdperf %s: ", tool_version);
	strbuf_add_quoted_value(out, r->profile_path, strlen(r->profile_path),
	                        200);
	strbuf_adds(out, "\n");
	if (r->redaction.on)
		strbuf_addf(out,
		            "redacted: host names, user names, paths, rank "
		            "folder names, IP addresses and HCCL group names "
		            "replaced by pseudonyms; %s\n",
		            r->redaction.kernels
		                ? "operator names outside the built-in "
		                  "categories replaced too"
		                : "kernel type names kept");
	if (r->redaction.on)
		redaction_found(&r->redaction, out);
	branding(&r->brand, out);
	numfmt_count(out, r->kernels);
	strbuf_addf(out, " kernels, %zu profiler step%s, ", r->steps_total,
	            r->steps_total == 1 ? "" : "s");
	numfmt_duration(out, checked_sub_sat(r->span_end_ns, r->span_start_ns));
	if (r->nranks > 1)
		strbuf_addf(
		    out, " on the device timeline of rank %d (lead card)\n\n",
		    lead_id(r));
	else
		strbuf_adds(out, " on the device timeline\n\n");
	text_summary(r, out);
	stage_table(r, out);
	strbuf_addch(out, '\n');
	categories(r, out);
	ranks(r, out);
	collection(r, out);
	render_text_memory(r, out);
	render_text_iters(r, out);
	verdicts(r, out);
	if (r->nwarnings)
		strbuf_addf(out, "\nwarnings (%zu):\n", r->nwarnings);
	for (i = 0; i < r->nwarnings && i < 10; i++) {
		strbuf_adds(out, "  - ");
		if (r->warnings[i].line)
			strbuf_addf(out, "line %llu: ",
			            (unsigned long long)r->warnings[i].line);
		strbuf_add_sanitized(out, r->warnings[i].message,
		                     strlen(r->warnings[i].message));
		strbuf_addch(out, '\n');
	}
	if (r->nwarnings > 10)
		strbuf_addf(out, "  ... and %zu more in report.json\n",
		            r->nwarnings - 10);
	provenance(r, out);
}
