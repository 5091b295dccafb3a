#!/usr/bin/env python3
"""Typography of the Chinese reports: half-width punctuation next to Chinese
text, and English labels left untranslated.

Usage: check_zh.py [--no-labels] FILE...   (report.html / .md, pdftotext output, terminal
output; the kind is told by the suffix: .html, .md, anything else is text)

The rule, on the text a reader sees:
  - HTML: the text of the page, without <script>, <style>, <svg> <title>
    tooltips stay (a reader sees them), <code> and <pre> dropped (code is
    quoted as it is typed), tags removed, entities decoded.
  - Markdown: code spans (`...`) and fenced code blocks dropped, emphasis
    marks (*) removed, backslash escapes undone, link targets dropped.
  - other text (pdftotext, the terminal): as it is.
A character of  , : ; ( )  is an error when the character right before or
right after it is Chinese: a CJK ideograph (U+3400-U+4DBF, U+4E00-U+9FFF,
U+F900-U+FAFF), CJK punctuation (U+3000-U+303F) or a full-width form
(U+FF00-U+FFEF). Exceptions, none of which has Chinese on either side in
correct output anyway: a character between two ASCII digits ("1,454",
"12:30") is never an error.
In HTML and Markdown, a space between full-width punctuation (、。（）：；
，！？ ...) and a letter, digit or Chinese character is an error too
("DiT（Transformer） 阶段"): Chinese sets none there.
A label from DENY (whole words, case as written) anywhere in the text is an
error: each is a label that has a Chinese translation in the catalogue.
Exit status 1 when any file has an error; each error is printed with its
file and some context."""
import html
import re
import sys

CJK = (r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
       r"\uff00-\uffef")
BAD = re.compile(r"(?<=[%s])[,:;()]|[,:;()](?=[%s])" % (CJK, CJK))
# Labels of the English catalogue that must never reach a Chinese report
# (each has a translation): a whole-word, case-sensitive match.
DENY = [
    "Rank folder", "Rank 目录", "Profiler step", "profiler step",
    "id by order found", "built-in", "Device timeline", "card-time",
    "wall time", "summed over", "lead card", "sum of",
]
DENY_RE = re.compile(r"(?<![\w.\-/])(%s)(?![\w\-=])" %
                     "|".join(re.escape(w) for w in DENY))
# Single English words that are labels when they stand in Chinese prose:
# flagged when the nearest character on either side, past one space, is
# Chinese ("2 个 step", "profile 中"), never inside code or a file name
# (step_trace_time.csv, prof.step(), profile_memory=True).
WORDS = ["step", "steps", "profile", "rank", "ranks", "folder", "flow",
         "flows", "host"]
WORDS_RE = re.compile(
    r"(?:(?<=[%s])|(?<=[%s] ))(%s)(?![\w\-=.(])|(?<![\w.\-/])(%s)(?= ?[%s])"
    % (CJK, CJK, "|".join(WORDS), "|".join(WORDS), CJK))


# Full-width punctuation (CJK punctuation 、。〈〉《》「」『』【】 and the
# full-width ！（），．：；？): Chinese sets no space next to it. A space
# between one and a letter, digit or Chinese character is an error, in HTML
# and Markdown (pdftotext -layout and the terminal pad with spaces).
FW = r"\u3001-\u3011\uff01\uff08\uff09\uff0c\uff0e\uff1a\uff1b\uff1f"
SPACED = re.compile(r"[%s] (?=\w)|(?<=\w) [%s]" % (FW, FW))


def html_inline_text(t):
    """The page's text with inline tags removed without a trace (a space
    around "<span>（x）</span>" is the reader's), block tags as line breaks,
    code as one word."""
    t = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "\n", t, flags=re.S)
    t = re.sub(r"<(code|pre)\b[^>]*>.*?</\1>", "c", t, flags=re.S)
    t = re.sub(r"</?(span|a|strong|em|b|i|small|abbr|wbr|sup|sub)\b[^>]*>",
               "", t)
    t = re.sub(r"<[^>]+>", "\n", t)
    return html.unescape(t)


def html_text(t):
    t = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", " ", t, flags=re.S)
    t = re.sub(r"<(code|pre)\b[^>]*>.*?</\1>", " ", t, flags=re.S)
    t = re.sub(r"<[^>]+>", " ", t)
    return html.unescape(t)


def md_text(t):
    t = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", r"\1", t)
    t = re.sub(r"^```.*?^```", " ", t, flags=re.S | re.M)
    t = re.sub(r"`[^`\n]*`", " ", t)
    # a space after a closing emphasis mark is Markdown's, not the
    # reader's: CommonMark needs it after punctuation ("**标签：** x")
    t = re.sub(r"(?<=\S)\*+ (?=\S)", "", t)
    t = t.replace("*", "")  # emphasis: "**标签**:" reads "标签:"
    # link targets are addresses, not prose
    return re.sub(r"\]\([^)\s]*\)", "]", t)


def check(path, labels=True):
    t = open(path, encoding="utf-8").read()
    errors = []
    spaced = None
    if path.endswith(".html"):
        spaced = html_inline_text(t)
        t = html_text(t)
    elif path.endswith(".md"):
        t = md_text(t)
        spaced = t
    for m in SPACED.finditer(spaced or ""):
        i = m.start()
        ctx = spaced[max(0, i - 20):i + 20].replace("\n", " ")
        errors.append("space next to full-width punctuation: ...%s..." % ctx)
    for m in BAD.finditer(t):
        i = m.start() if m.group(0) in ",:;()" else m.start()
        # the match is the punctuation character itself
        p = m.start()
        if p > 0 and p + 1 < len(t) and t[p - 1].isdigit() and \
                t[p + 1].isdigit() and t[p - 1].isascii() and \
                t[p + 1].isascii():
            continue
        ctx = t[max(0, i - 20):i + 20].replace("\n", " ")
        errors.append("half-width %r next to Chinese: ...%s..." %
                      (t[p], ctx))
    for m in (list(DENY_RE.finditer(t)) + list(WORDS_RE.finditer(t))
              if labels else []):
        i = m.start()
        ctx = t[max(0, i - 20):i + 30].replace("\n", " ")
        errors.append("untranslated %r: ...%s..." %
                      (m.group(m.lastindex), ctx))
    return errors


def main():
    status = 0
    args = sys.argv[1:]
    labels = "--no-labels" not in args
    for path in [a for a in args if a != "--no-labels"]:
        errs = check(path, labels)
        for e in errs:
            print("%s: %s" % (path, e))
        if errs:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
