#!/usr/bin/env python3
"""Checks a Markdown report the way a ticket or wiki shows it: rendered by
cmark-gfm (CommonMark + GFM tables), and as raw text.

Usage: check_md.py CMARK_GFM FILE.md [--expect-text TEXT]...

Fails (exit 1, one line per defect) when
  - the raw text holds an HTML entity ("&gt;", "&emsp;", "&#39;");
  - the raw text, outside code blocks, holds a backslash escape of a
    character that needed none (only | < ` * [ ] & \\ _ ~ and block markers
    where a block starts are ever escaped: not in a table cell);
  - the rendered text shows a backslash escape, an entity or "**"
    literally (emphasis that did not render), or any HTML made it through
    as HTML (cmark-gfm omits raw HTML and says so);
  - a table line block does not render as a table with its column count;
  - a list follows a paragraph line, or a paragraph line follows a list
    item, with no blank line between (renderers merge them);
  - an expected text (from the data) is not in the rendered text.
"""
import html
import html.parser
import re
import subprocess
import sys

ALLOWED = set('|<`*[]&\\_~')


class Doc(html.parser.HTMLParser):
    """The rendered HTML: its text, and each table's cell counts per row."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.tables = []  # per table: [cells per row]
        self.tags = []
        self.comments = []
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == 'a':
            self.hrefs.append(dict(attrs).get('href') or '')
        if tag == 'table':
            self.tables.append([])
        elif tag == 'tr':
            self.tables[-1].append(0)
        elif tag in ('td', 'th'):
            self.tables[-1][-1] += 1

    def handle_data(self, data):
        self.text.append(data)

    def handle_comment(self, data):
        self.comments.append(data)


def blocks(lines):
    """Lines outside fenced code blocks, as (number, text)."""
    fence = None
    for no, line in enumerate(lines, 1):
        m = re.match(r'^(`{3,}|~{3,})', line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield no, line


def main():
    cmark, path = sys.argv[1], sys.argv[2]
    expect = []
    args = sys.argv[3:]
    while args:
        if args[0] == '--expect-text':
            expect.append(args[1])
            args = args[2:]
        else:
            sys.exit('unknown argument ' + args[0])
    raw = open(path, encoding='utf-8').read()
    bad = []
    lines = raw.split('\n')
    body = list(blocks(lines))

    for no, line in body:
        for m in re.finditer(r'(?<!\\)&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);', line):
            bad.append(f'{no}: HTML entity {m.group(0)} in the raw text')
        for m in re.finditer(r'\\([!-/:-@\[-`{-~])', line):
            # a block marker is escaped only where a block starts: a
            # line, a list item's or a quote's text; never in a table cell
            # ("| \\# x") or after other text ("Kernel: \\# x")
            before = line[:m.start()]
            start = re.search(r'^\s*(([-+*]|[0-9]+[.)]) +|> ?)*[0-9]*$', before)
            if m.group(1) not in ALLOWED and not start:
                bad.append(f'{no}: needless escape {m.group(0)!r} in the raw text')

    # tables: a header line, then its delimiter row
    ntables, cols = 0, []
    for i, (no, line) in enumerate(body):
        if re.match(r'^\|(\s*:?-+:?\s*\|)+\s*$', line) and i > 0:
            ntables += 1
            cols.append((body[i - 1][0], line.count('|') - 1))
            if i > 1 and body[i - 2][1].strip():
                bad.append(f'{body[i - 1][0]}: no blank line before the table')

    # lists against paragraphs, with no blank line between
    prev = ''
    for no, line in body:
        item = re.match(r'^(\s*)([-+*]|[0-9]+[.)])\s', line)
        if item and not item.group(1) and prev.strip() and not re.match(
                r'^(\s*([-+*]|[0-9]+[.)])\s|\s)', prev) and not prev.startswith('#'):
            bad.append(f'{no}: list item right after a paragraph line: {line[:50]!r}')
        if (line.strip() and not item and not line.startswith((' ', '\t', '|', '#'))
                and re.match(r'^([-+*]|[0-9]+[.)])\s', prev)):
            bad.append(f'{no}: text merges into the list item above: {line[:50]!r}')
        prev = line

    out = subprocess.run([cmark, '-e', 'table', '-e', 'strikethrough', '-e',
                          'autolink', '-t', 'html'], input=raw.encode(),
                         capture_output=True, check=True).stdout.decode()
    doc = Doc()
    doc.feed(out)
    text = ''.join(doc.text)
    for e in expect:  # the data's own text may look like an escape
        if e not in text:
            bad.append(f'rendered text lacks {e!r}')
    shown = text
    for e in expect:
        shown = shown.replace(e, '')
    if any('raw HTML omitted' in c for c in doc.comments):
        bad.append('raw HTML in the Markdown (cmark-gfm omitted it)')
    # the templates write ** and links only: emphasis, strikethrough or an
    # image came from the data
    for tag in ('script', 'img', 'iframe', 'del', 'em'):
        if tag in doc.tags:
            bad.append(f'rendered HTML has a <{tag}> element')
    for href in doc.hrefs:
        if not href.startswith(('https://', 'http://', '#')):
            bad.append(f'rendered link to {href!r}')
    for m in re.finditer(r'\\[!-/:-@\[-`{-~]', shown):
        bad.append(f'rendered text shows an escape {m.group(0)!r}: '
                   f'...{shown[max(0, m.start() - 30):m.end() + 10]!r}')
    for m in re.finditer(r'&(#[0-9]+|[A-Za-z]+);', shown):
        bad.append(f'rendered text shows an entity {m.group(0)}')
    # the templates' emphasis renders as emphasis: a "**" left in the
    # rendered text did not open or close ("**标签：**3" cannot close)
    for m in re.finditer(r'\*\*', shown):
        bad.append(f'rendered text shows emphasis marks: '
                   f'...{shown[max(0, m.start() - 30):m.end() + 10]!r}')
    if len(doc.tables) != ntables:
        bad.append(f'{ntables} tables in the Markdown, {len(doc.tables)} rendered')
    else:
        for (no, n), rows in zip(cols, doc.tables):
            if any(r != n for r in rows):
                bad.append(f'{no}: table of {n} columns renders rows of {sorted(set(rows))} cells')
    for b in bad:
        print(f'{path}:{b}')
    print(f'{path}: {ntables} tables, {len(lines)} lines, {len(bad)} defects')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
