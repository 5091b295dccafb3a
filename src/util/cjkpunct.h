/* Chinese typography: the half-width punctuation that joins pieces of
 * Chinese text (a label, then ": " and a value; a note in " (...)")
 * becomes full-width, as Chinese text is set. */
#ifndef SDPERF_CJKPUNCT_H
#define SDPERF_CJKPUNCT_H

#include <stddef.h>

#include "util/strbuf.h"

/* What the text is, and so what is left as it is. */
enum cjk_text {
	CJK_PLAIN, /* every character is text */
	CJK_HTML,  /* tags, and the content of script, style, code and pre */
	CJK_MD /* code spans, fenced code blocks and link targets "](...)" */
};

/* Rewrites sb->buf[start..]: each of , : ; ( ) in text with a Chinese
 * character (CJK ideograph, CJK punctuation or a full-width form) right
 * before or right after it becomes its full-width form (，：；（）); so
 * does one with a Chinese character past one space where Latin text puts
 * one and Chinese none, after , : ; ("参阅: x") and before ( ("步骤 (共"),
 * and that space is dropped (so is one between ) and Chinese text). A
 * parenthesis changes with its partner, so that pairs stay alike, and a pair
 * around Chinese text changes too. In Markdown, emphasis marks (*) between are
 * passed over. A character between two ASCII digits ("1,454", "12:30") never
 * changes. Then a space between full-width punctuation (、。（）：；，！？
 * ..., already so or made so) and a letter, digit or Chinese character is
 * dropped ("（Transformer） 阶段", "。 参阅"), passing over tags in HTML;
 * in Markdown a space after an emphasis mark (*) stays, which CommonMark
 * needs to close "**标签：**" before text. The text must be valid UTF-8. */
void cjk_punct(struct strbuf *sb, size_t start, enum cjk_text kind);

/* 1 when code point c is Chinese in the sense above. */
int cjk_is_wide(unsigned long c);

#endif
