/* The PDF's device memory section: the peak, the card, the stages. */
#include "format/pdf/pdf_memory.h"

#include "util/banned.h"

void pdf_memory_section(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_stage", 0.28f, 0},
	                                      {"t_col_mem_samples", 0.12f, 1},
	                                      {"t_col_mem_allocated", 0.2f, 1},
	                                      {"t_col_mem_reserved", 0.2f, 1},
	                                      {"t_col_mem_device", 0.2f, 1}};
	static const char *const vars[] = {"stage_label", "samples",
	                                   "allocated_gb", "reserved_gb",
	                                   "device_gb"};
	tmpl_fmt_fn fmts[] = {NULL, c->fint, c->ff2, c->ff2, c->ff2};

	if (!*pdf_v(c, "has_memory"))
		return;
	pdf_section(c, "t_sec_memory");
	pdf_para(c, pdf_v(c, "memory_intro"));
	pdf_para(c, pdf_v(c, "memory_peak_line"));
	pdf_para(c, pdf_v(c, "memory_card"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "memory_stages"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
}
