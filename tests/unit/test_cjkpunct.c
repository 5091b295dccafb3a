/* Unit tests of util/cjkpunct.c: full-width punctuation next to Chinese
 * text, and what it leaves alone (numbers, code, markup, link targets). */
#include "unit.h"

#include "util/cjkpunct.h"
#include "util/strbuf.h"

/* in, rewritten as kind from byte start, must read want */
static void expect(const char *in, enum cjk_text kind, size_t start,
                   const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, in);
	cjk_punct(&sb, start, kind);
	if (strcmp(sb.buf, want))
		fail_msg("'%s' -> '%s', want '%s'", in, sb.buf, want);
	strbuf_release(&sb);
}

static void cjkpunct_widens_punctuation_next_to_chinese(void **state)
{
	(void)state;
	expect("重叠:重新选择(首选 Ulysses 并行;CFG 并行)", CJK_PLAIN, 0,
	       "重叠：重新选择（首选 Ulysses 并行；CFG 并行）");
	/* past one space, which goes */
	expect("参阅: parallelism", CJK_PLAIN, 0, "参阅：parallelism");
	expect("每个采集步骤 (共 2 步, 合计 3.4 s)", CJK_PLAIN, 0,
	       "每个采集步骤（共 2 步，合计 3.4 s）");
	/* a pair changes together: the closing one has Latin on both sides */
	expect("抵消 (来源: sdperf assumption)", CJK_PLAIN, 0,
	       "抵消（来源：sdperf assumption）");
	/* a full-width pair next to Chinese takes no space after it */
	expect("对 DiT（Transformer） 阶段, ok", CJK_PLAIN, 0,
	       "对 DiT（Transformer）阶段，ok");
	expect("对 DiT(变换) 阶段", CJK_PLAIN, 0, "对 DiT（变换）阶段");
	/* a pair around Chinese text; emphasis passed over in Markdown */
	expect("**63.5%** (VAE 占比; lead 0)", CJK_PLAIN, 0,
	       "**63.5%**（VAE 占比；lead 0）");
	expect("- **占比**: 39.2%", CJK_MD, 0, "- **占比**：39.2%");
}

/* No space next to full-width punctuation, whether the catalogue wrote
 * it full-width or it was made so, past emphasis marks and tags; a space
 * that Markdown reads (a list marker's, a table cell's) stays. */
static void cjkpunct_drops_a_space_next_to_full_width(void **state)
{
	(void)state;
	expect("按阈值。 参阅：x", CJK_PLAIN, 0, "按阈值。参阅：x");
	expect("DiT（Transformer） 71.96 ms", CJK_PLAIN, 0,
	       "DiT（Transformer）71.96 ms");
	expect("每步 （共 2 步）", CJK_PLAIN, 0, "每步（共 2 步）");
	/* but Markdown keeps a space after an emphasis mark: "**发现：**3"
	 * would not close the emphasis */
	expect("- **发现：** 3 项", CJK_MD, 0, "- **发现：** 3 项");
	expect("- **发现:** 3 项", CJK_MD, 0, "- **发现：** 3 项");
	expect("**时间：** **1.7 s** 每步", CJK_MD, 0,
	       "**时间：** **1.7 s** 每步");
	expect("卡。 **共 4 张**", CJK_MD, 0, "卡。**共 4 张**");
	/* a note after emphasis: full-width, and then no space is needed */
	expect("- **1.47×，更快** (143.91 ms → 97.94 ms)", CJK_MD, 0,
	       "- **1.47×，更快**（143.91 ms → 97.94 ms）");
	expect("<strong>建议：</strong> 主机", CJK_HTML, 0,
	       "<strong>建议：</strong>主机");
	expect("步骤 <span class=\"small\">（共 2 步）</span>", CJK_HTML, 0,
	       "步骤<span class=\"small\">（共 2 步）</span>");
	expect("- （注）\n| （甲） | 乙 |\n", CJK_MD, 0,
	       "- （注）\n| （甲） | 乙 |\n");
	expect("（各阶段） > 30.0%", CJK_PLAIN, 0, "（各阶段） > 30.0%");
}

static void cjkpunct_leaves_latin_numbers_and_code(void **state)
{
	(void)state;
	expect("DiT (transformer): 1.47x, faster", CJK_PLAIN, 0,
	       "DiT (transformer): 1.47x, faster");
	expect("算子数 1,454 个 12:30", CJK_PLAIN, 0, "算子数 1,454 个 12:30");
	expect("<p title=\"中:\">中<code>a(中)</code> &gt;中</p>", CJK_HTML, 0,
	       "<p title=\"中:\">中<code>a(中)</code> &gt;中</p>");
	expect("<script>x=\"中:\"</script>中:", CJK_HTML, 0,
	       "<script>x=\"中:\"</script>中：");
	expect("- `a(中)` [文档](http://x/中(1)) 规则:x", CJK_MD, 0,
	       "- `a(中)` [文档](http://x/中(1)) 规则：x");
	expect("```\n中:\n```\n中:", CJK_MD, 0, "```\n中:\n```\n中：");
	/* before start: as it is */
	expect("中:中:", CJK_PLAIN, 4, "中:中：");
	/* Communication(Not Overlapped) inside Chinese text: no neighbour */
	expect("内的 Communication(Not Overlapped) 时间", CJK_PLAIN, 0,
	       "内的 Communication(Not Overlapped) 时间");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cjkpunct_widens_punctuation_next_to_chinese),
	    cmocka_unit_test(cjkpunct_drops_a_space_next_to_full_width),
	    cmocka_unit_test(cjkpunct_leaves_latin_numbers_and_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
