/* The comparison reports' view model (internal to render/diff_report.c,
 * render/pdf_diff.c and render/diff_chart.c): a struct comparison turned
 * into the variable tree templates/diff.html.tmpl and diff.md.tmpl render
 * and the PDF lays out, every human-readable string from the catalogue.
 * Times stay raw ns, shares raw percents ("%.3f"); signed changes, which no
 * formatter writes with their sign, come ready-made ("+1.20 ms", "−3.4%",
 * "+2.1 pp", U+2212 for minus) next to their raw value for sorting.
 *
 * Variables (docs/templates.md, "The comparison report"):
 *   t_<key> for every catalogue key; lang, title, date, version, css,
 *   footer; base_source, new_source, per_step ("1" or ""), times_note,
 *   base_steps, new_steps, base_ranks, new_ranks, cards_note (with
 *   several cards: the times are card-time, summed; else "");
 *   loop summary (stages on both sides): id, label, speedup ("%.3f"),
 *     speedup_text, trend ("faster", "slower", "same"), wall_base_ns,
 *     wall_new_ns;
 *   loop verdicts (appeared, cleared, stayed, never; each in the
 *     comparison's order): id, title, stage_label, change, change_label,
 *     base, new (percents, "" when not applicable), threshold,
 *     base_fired, new_fired; any_change;
 *   loop promises (findings that fired in the base with an expected
 *     gain, in the verdicts' order): id, promised ("−9.7–15.3%": the
 *     end-to-end change the base report estimated), promised_low,
 *     promised_high (its savings, "%.3f"), measured ("−12.0%": the
 *     end-to-end change per step between the runs, empty when a side has
 *     no summary), text (the sentence with both);
 *   loop warnings: code, text;
 *   loop stages (stages on either side): id, label, presence ("" or "only
 *     in ..." text), speedup, speedup_text, trend, and for m in wall,
 *     kernel, exposed: m_base_ns, m_new_ns, m_delta_ns, m_delta, m_pct
 *     ("" when base is 0); exposed_share_base, exposed_share_new,
 *     exposed_share_delta (pp); loop cats: cat, label, base_ns, new_ns,
 *     delta_ns, delta, pct, share_base, share_new, share_delta;
 *   has_comm; chart (SVG);
 *   loop type_tables, two rows: kind ("gained", then "lost"), heading,
 *     loop types (the DIFF_TOP_TYPES types that took most more / less
 *     time; "" when none): type, stage, stage_label, cat, cat_label,
 *     status ("both", "added", "removed"), status_label, base_ns, new_ns,
 *     base_count, new_count, delta_ns, delta, pct;
 *   loops added, removed (at most DIFF_LIST_MAX): type, stage_label, cat,
 *     cat_label, ns, count; added_more, removed_more ("" or "… and N
 *     more"); types_intro;
 *   has_ranks (more than one rank on both sides and ranks in common);
 *     loop ranks: id, and for m in dit_kernel, dit_wall, dit_exposed,
 *     dit_compute, comm_wait: m_base_ns, m_new_ns, m_delta_ns, m_delta,
 *     m_pct (comm_wait unset when a side has no communication.json);
 *     has_wait ("1" when comm_wait is set);
 *   method_steps. */
#ifndef SDPERF_RENDER_DIFF_MODEL_H
#define SDPERF_RENDER_DIFF_MODEL_H

#include <stdint.h>

#include "analysis/compare.h"
#include "tmpl/template.h"
#include "util/strbuf.h"
#include "view/model_ctx.h"

#define DIFF_TOP_TYPES 15 /* rows of the gained and lost tables */
#define DIFF_LIST_MAX  40 /* names listed as added or removed */
#define DIFF_WATERFALL 8  /* types stepped through in the waterfall */

/* Builds the variable tree of c (caller frees with tmpl_vars_free). Only
 * o->cat, title, date, version and css are used. */
struct tmpl_vars *diff_model_build(const struct comparison *c,
                                   const struct model_opts *o);

/* ---- shared with render/diff_chart.c ------------------------------------ */

/* "+1.20 ms" / "−812.4 µs" / "0": a signed duration, in its own unit. */
void diff_add_delta(struct strbuf *sb, int64_t ns);
/* The SVG chart of the model's "stages" loop (their "cats" base_ns and
 * new_ns): one pair of stacked bars per stage, base and new, on one time
 * scale, with a legend; title is the accessible name. */
/* The longest bar of any stage of v, base or new (the sum of its positive
 * category times, ns): the scale shared by the SVG and the PDF chart. */
int64_t diff_chart_max(const struct tmpl_vars *v);
void diff_chart_svg(struct model_ctx *c, const struct tmpl_vars *v,
                    struct strbuf *out);
/* The waterfall of the model's "waterfall" loop (label, stage_label, css,
 * total, from_ns, to_ns, value) on the scale wf_lo_ns..wf_hi_ns: base
 * total, one step per type, new total; out is reset first, and left empty
 * when the loop is. */
void diff_waterfall_svg(struct model_ctx *c, const struct tmpl_vars *v,
                        struct strbuf *out);

#endif
