#!/usr/bin/env python3
"""Checks a PDF report with poppler and qpdf (stdlib only).

usage: check_pdf.py REPORT.pdf [--max-kb N] [--title T] [--creator C]
                    [--text S]... [--no-text S]... [--url U]... [--pages-min N]
                    [--table-header S --table-column-before S
                     [--table-cell-marker S] [--table-pages-min N]]
                    [--section-text START END S]...
                    [--section-count START END S N]...
                    [--same-page A B]... [--text-colour S #RRGGBB]...
                    [--text-bold S]... [--text-not-colour S #RRGGBB]...
                    [--fonts-embedded] [--glyphs] [--no-urls] [--cjk-min N] [--cjk-max N]
--section-text: S is in the text from the first START to the first END
after it (e.g. one section's intro and the next section's heading);
--section-count: S is there exactly N times.
--fonts-embedded: pdffonts lists at least one font and every one embedded;
--glyphs: every character drawn with a CID font (Identity-H) has a glyph in
it: its CIDToGIDMap entry is not 0 (.notdef, drawn as an empty box),
and no ASCII letter or digit is drawn with the CJK font (WenQuanYi);
--no-urls: no link annotation at all; --cjk-min N: the extracted text holds
at least N CJK ideographs (Chinese text comes out as Chinese); --cjk-max N:
at most N (no Chinese left in an English report).
--text-colour: a string holding S is drawn in that fill colour;
--text-bold: one is drawn bold (filled and stroked); --text-not-colour:
none is drawn in that colour;
--marks FIRED OK: at least FIRED verdict-state triangles (a filled
three-point path) and OK ticks (a stroked three-point path) are drawn, the
shapes that tell fired from ok without colour;
--row-of S N: a line of `pdftotext -layout` holds S N times or more
(verdict cards side by side, N to a row, as the HTML's print layout);
--same-page: the first line holding A and the first line after it holding
B are on one page (a small table, from its heading to its last row).
Always: qpdf --check finds no error or warning, pdftotext prints nothing
on stderr (poppler's warnings, e.g. about a ToUnicode CMap), and no page
ends with a heading (a line of 11-point text or larger).
Prints one line per check and "N passed, M failed"; exit 1 on any failure.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

results = []


def check(ok, what, detail=""):
    results.append(ok)
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else "\n     " + detail))


def run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def info(pdf):
    rc, out, err = run("pdfinfo", pdf)
    check(rc == 0, "pdfinfo reads it", err.strip())
    fields = {}
    for line in out.splitlines():
        k, _, v = line.partition(":")
        fields[k.strip()] = v.strip()
    return fields


def blank_pages(pdf, tmp):
    run("pdftoppm", "-r", "30", "-gray", pdf, os.path.join(tmp, "page"))
    bad, n = [], 0
    for name in sorted(os.listdir(tmp)):
        if not name.startswith("page"):
            continue
        n += 1
        data = open(os.path.join(tmp, name), "rb").read()
        # binary PGM: "P5\nW H\n255\n" then W*H bytes
        m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        w, h = int(m.group(1)), int(m.group(2))
        px = data[m.end():m.end() + w * h]
        dark = sum(1 for b in px if b < 200)
        # a short last page (one table row, header, footer) is not blank
        if dark < 0.0005 * w * h:
            bad.append(f"{name}: {dark} dark pixels of {w * h}")
    return n, bad


def bbox_pages(pdf):
    rc, out, err = run("pdftotext", "-bbox", pdf, "-")
    root = ET.fromstring(re.sub(r'xmlns="[^"]*"', "", out, count=1))
    pages = []
    for page in root.iter("page"):
        words = [(w.text or "", float(w.get("xMin")), float(w.get("yMin")),
                  float(w.get("xMax")), float(w.get("yMax")))
                 for w in page.iter("word")]
        pages.append((float(page.get("width")), float(page.get("height")), words))
    return pages


# Running header and footer bands (pdf_text.h: TOP and BOTTOM, in points
# from the top of an A4 page as poppler counts them)
HEAD_BAND, FOOT_BAND = 50.0, 841.89 - 45.0
# A word box this tall is a heading's (11 pt and up: DejaVu 12.8, WenQuanYi
# 13.8); body text is 9 pt (10.5, CJK 11.3), tables 8 pt
HEADING_H = 12.5


def page_lines(pages):
    """Per page, its lines of body text top to bottom (words with one top,
    the running header and footer left out): [(text, tallest word, top,
    bottom)]."""
    out = []
    for width, height, ws in pages:
        lines = []
        for t, x0, y0, x1, y1 in sorted(ws, key=lambda w: (round(w[4]), w[1])):
            if y0 < HEAD_BAND or y0 > FOOT_BAND:
                continue
            if lines and abs(lines[-1][3] - y1) < 2.5:
                tx, h, top, bot = lines[-1]
                lines[-1] = (tx + " " + t, max(h, y1 - y0), min(top, y0), max(bot, y1))
            else:
                lines.append((t, y1 - y0, y0, y1))
        out.append(lines)
    return out


def keep_checks(pdf, same_page):
    """No page ends with a heading (pdf_layout.c keeps a heading with what
    follows it); for each (A, B) of same_page, the first line holding A
    and the first line after it holding B are on one page (a small table
    is never split)."""
    lines = page_lines(bbox_pages(pdf))
    alone = [f"page {i + 1}: '{ls[-1][0][:60]}'" for i, ls in enumerate(lines)
             if ls and ls[-1][1] >= HEADING_H]
    check(not alone, "no page ends with a heading", "; ".join(alone[:5]))
    flat = [(i, ln[0]) for i, ls in enumerate(lines) for ln in ls]
    for a, b in same_page:
        start = next((k for k, (i, t) in enumerate(flat) if a in t), None)
        end = None if start is None else next(
            (k for k in range(start + 1, len(flat)) if b in flat[k][1]), None)
        check(end is not None and flat[start][0] == flat[end][0],
              f"'{a}' .. '{b}' on one page",
              "not found" if end is None else
              f"pages {flat[start][0] + 1} and {flat[end][0] + 1}")


def upper_half_checks(pdf, texts):
    """Each text (its words in a row) is on page 1, above the middle of the
    page: the summary must be read without turning past half a page."""
    if not texts:
        return
    width, height, ws = bbox_pages(pdf)[0]
    for t in texts:
        want = t.split()
        hit = None
        for i in range(len(ws) - len(want) + 1):
            if all(ws[i + k][0] == want[k] for k in range(len(want))):
                hit = ws[i:i + len(want)]
                break
        check(hit is not None and max(w[4] for w in hit) <= height / 2,
              f"page 1, upper half: '{t}'",
              "not on page 1" if hit is None else
              f"bottom at {max(w[4] for w in hit):.0f} of {height:.0f} pt")


def header_words(ws, header):
    """Words that start the two-word heading "header" (e.g. "Kernel type")."""
    first, second = header.split(" ", 1)
    return [w for i, w in enumerate(ws) if w[0] == first and i + 1 < len(ws)
            and ws[i + 1][0] == second and abs(ws[i + 1][2] - w[2]) < 2]


def table_checks(pdf, header, next_col, cell_marker, pages_min=2):
    """Every page that shows rows of the table repeats its header (found
    on at least pages_min pages), and no cell of the first column (words
    holding cell_marker) reaches into the next one."""
    pages = bbox_pages(pdf)
    with_header = [i for i, (_, _, ws) in enumerate(pages)
                   if header_words(ws, header)]
    check(len(with_header) >= pages_min,
          f"table header '{header}' on {len(with_header)} pages (>= {pages_min})")
    overflow, outside = [], []
    for i in with_header:
        width, height, ws = pages[i]
        head = header_words(ws, header)[0]
        col = [w for w in ws if w[0] == next_col and abs(w[2] - head[2]) < 2]
        if not col:
            overflow.append(f"page {i + 1}: no '{next_col}' header beside '{header}'")
            continue
        limit = col[0][1]
        for t, x0, y0, x1, y1 in ws:
            if y0 > head[4] and cell_marker in t and x1 > limit - 0.5:
                overflow.append(f"page {i + 1}: '{t[:40]}' spans {x0:.0f}..{x1:.0f} past {limit:.0f}")
        for t, x0, y0, x1, y1 in ws:
            if x0 < 0 or x1 > width or y0 < 0 or y1 > height:
                outside.append(f"page {i + 1}: '{t[:40]}' off the page")
    check(not overflow, "no text of the first column reaches into the next", "; ".join(overflow[:5]))
    check(not outside, "no text outside the page", "; ".join(outside[:5]))


def fonts_embedded(pdf):
    """pdffonts: every font listed is embedded (column "emb" is "yes")."""
    rc, out, err = run("pdffonts", pdf)
    lines = out.splitlines()
    rows = lines[2:] if len(lines) >= 2 and lines[1].startswith("---") else []
    # the name may hold spaces: read the columns from the right
    # (... emb sub uni object-number generation)
    bad = [r for r in rows if len(r.split()) < 6 or r.split()[-5] != "yes"]
    names = [r.split()[0] for r in rows if r.split()]
    check(rc == 0 and rows and not bad,
          f"pdffonts: {len(rows)} fonts, all embedded ({', '.join(names)})",
          err.strip() or "; ".join(bad) or "no fonts listed")


def qpdf_objects(pdf):
    """All objects of pdf as qpdf --json v2 gives them, streams decoded
    (base64 "data"); {} when qpdf cannot."""
    rc, out, err = run("qpdf", "--json", "--json-key=qpdf", "--decode-level=generalized",
                       "--json-stream-data=inline", pdf)
    if rc != 0:
        return {}
    import json
    return json.loads(out)["qpdf"][1]


def obj_value(objs, ref):
    """The value (a dict for a stream) of "N 0 R", or ref itself."""
    if isinstance(ref, str) and ref.endswith(" R"):
        o = objs.get("obj:" + ref, {})
        return o["value"] if "value" in o else o.get("stream", {}).get("dict")
    return ref


def stream_data(objs, ref):
    import base64
    return base64.b64decode(objs.get("obj:" + ref, {}).get("stream", {}).get("data", ""))


def cid_maps(objs, fonts):
    """Resource name -> (font name, CIDToGIDMap bytes) for the Type0 fonts
    of a page's /Font dictionary (an /Identity map is not checked)."""
    maps = {}
    for name, ref in (fonts or {}).items():
        f = obj_value(objs, ref) or {}
        if f.get("/Subtype") != "/Type0":
            continue
        desc = obj_value(objs, f["/DescendantFonts"][0]) or {}
        m = desc.get("/CIDToGIDMap")
        if isinstance(m, str) and m.endswith(" R"):
            maps[name] = (f.get("/BaseFont", name), stream_data(objs, m))
    return maps


TEXT_OPS = re.compile(rb"(/[^\s/\[\]<>()]+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f\s]*)>\s*Tj|\[([^\]]*)\]\s*TJ")


def missing_glyphs(pdf, latin=None):
    """(codes checked, ["page N: U+XXXX 'c' not in FONT", ...]); latin, a
    list, receives "page N: 'c' in FONT" for each ASCII letter or digit
    drawn with the CJK font (WenQuanYi): a run of digits and Latin letters
    is drawn in one font, the Latin one, in Chinese text too."""
    objs = qpdf_objects(pdf)
    rc, out, err = run("qpdf", "--json", "--json-key=pages", pdf)
    import json
    pages = json.loads(out)["pages"] if rc == 0 else []
    checked, missing = 0, []
    for pno, page in enumerate(pages, 1):
        pdict = obj_value(objs, page["object"]) or {}
        res = obj_value(objs, pdict.get("/Resources")) or {}
        maps = cid_maps(objs, obj_value(objs, res.get("/Font")))
        data = b"".join(stream_data(objs, c) for c in page["contents"])
        font = None
        for m in TEXT_OPS.finditer(data):
            if m.group(1):
                font = m.group(1).decode("latin-1")
                continue
            if font not in maps:
                continue
            hexes = [m.group(2)] if m.group(2) is not None else re.findall(rb"<([0-9A-Fa-f\s]*)>", m.group(3))
            fname, cmap = maps[font]
            for h in hexes:
                h = re.sub(rb"\s", b"", h)
                for i in range(0, len(h) - 3, 4):
                    cid = int(h[i:i + 4], 16)
                    checked += 1
                    if latin is not None and "WenQuanYi" in fname and chr(cid).isascii() \
                            and chr(cid).isalnum():
                        hit = f"page {pno}: '{chr(cid)}' in {fname}"
                        if hit not in latin:
                            latin.append(hit)
                    gid = int.from_bytes(cmap[2 * cid:2 * cid + 2], "big") if 2 * cid + 2 <= len(cmap) else 0
                    if gid == 0:
                        miss = f"page {pno}: U+{cid:04X} '{chr(cid)}' not in {fname}"
                        if miss not in missing:
                            missing.append(miss)
    return checked, missing


DRAW_OPS = re.compile(rb"([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+rg\b|(\d)\s+Tr\b|<([0-9A-Fa-f\s]*)>\s*Tj")


def drawn_texts(pdf):
    """Every string drawn (Tj), decoded (sdperf's codes are the code
    points: Identity-H over a Unicode CIDToGIDMap), with its fill colour
    "#rrggbb" and whether it is bold (text rendering mode 2: fill and
    stroke, sdperf's synthesised bold)."""
    objs = qpdf_objects(pdf)
    rc, out, err = run("qpdf", "--json", "--json-key=pages", pdf)
    import json
    pages = json.loads(out)["pages"] if rc == 0 else []
    texts = []
    for page in pages:
        data = b"".join(stream_data(objs, c) for c in page["contents"])
        rgb, bold = "#000000", False
        for m in DRAW_OPS.finditer(data):
            if m.group(1):
                rgb = "#" + "".join(f"{round(float(m.group(k)) * 255):02x}" for k in (1, 2, 3))
            elif m.group(4):
                bold = m.group(4) == b"2"
            else:
                h = re.sub(rb"\s", b"", m.group(5))
                t = "".join(chr(int(h[i:i + 4], 16)) for i in range(0, len(h) - 3, 4))
                texts.append((t, rgb, bold))
    return texts


TRIANGLE = re.compile(rb"[-\d.]+ [-\d.]+ m\s+[-\d.]+ [-\d.]+ l\s+[-\d.]+ [-\d.]+ l\s+h\s+f\b")
TICK = re.compile(rb"[-\d.]+ [-\d.]+ m\s+[-\d.]+ [-\d.]+ l\s+[-\d.]+ [-\d.]+ l\s+S\b")


def state_marks(pdf):
    """(triangles, ticks) drawn on all pages: pdf_chart_state_mark's
    shapes for fired and ok."""
    objs = qpdf_objects(pdf)
    rc, out, err = run("qpdf", "--json", "--json-key=pages", pdf)
    import json
    pages = json.loads(out)["pages"] if rc == 0 else []
    data = b"".join(stream_data(objs, c) for p in pages for c in p["contents"])
    return len(TRIANGLE.findall(data)), len(TICK.findall(data))


def style_checks(pdf, colours, bolds, not_colours=()):
    """For each (S, #rrggbb) of colours a string holding S is drawn in that
    colour, and for each of not_colours none is; for each S of bolds, one
    is drawn bold."""
    if not colours and not bolds and not not_colours:
        return
    texts = drawn_texts(pdf)
    for sub, rgb in not_colours:
        seen = sorted({c for t, c, b in texts if sub in t})
        check(seen and rgb.lower() not in seen, f"'{sub}' never drawn in {rgb}",
              f"drawn in {seen or 'nothing'}")
    for sub, rgb in colours:
        seen = sorted({c for t, c, b in texts if sub in t})
        check(rgb.lower() in seen, f"'{sub}' drawn in {rgb}", f"drawn in {seen or 'nothing'}")
    for sub in bolds:
        seen = sorted({b for t, c, b in texts if sub in t})
        check(True in seen, f"'{sub}' drawn bold", "not drawn" if not seen else "not bold")


def section(flat, start, end):
    """The text from the first start to the first end after it, or None."""
    i = flat.find(start)
    if i < 0:
        return None
    j = flat.find(end, i + len(start))
    return flat[i:j] if j >= 0 else None


def section_checks(flat, texts, counts):
    for start, end, s in texts:
        sec = section(flat, start, end)
        check(sec is not None and s in sec, f"text '{s}' between '{start}' and '{end}'",
              "no such section" if sec is None else "")
    for start, end, s, n in counts:
        sec = section(flat, start, end)
        got = -1 if sec is None else sec.count(s)
        check(got == int(n), f"text '{s}' {n} times between '{start}' and '{end}'",
              "no such section" if sec is None else f"found {got} times")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--max-kb", type=int)
    ap.add_argument("--title")
    ap.add_argument("--subject")
    ap.add_argument("--creator")
    ap.add_argument("--pages-min", type=int, default=1)
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--no-text", action="append", default=[])
    ap.add_argument("--upper-half", action="append", default=[])
    ap.add_argument("--url", action="append", default=[])
    ap.add_argument("--outline", action="append", default=[])
    ap.add_argument("--table-header")
    ap.add_argument("--table-column-before")
    ap.add_argument("--table-cell-marker", default="")
    ap.add_argument("--table-pages-min", type=int, default=2)
    ap.add_argument("--section-text", nargs=3, action="append", default=[],
                    metavar=("START", "END", "S"))
    ap.add_argument("--section-count", nargs=4, action="append", default=[],
                    metavar=("START", "END", "S", "N"))
    ap.add_argument("--same-page", nargs=2, action="append", default=[],
                    metavar=("A", "B"))
    ap.add_argument("--text-colour", nargs=2, action="append", default=[],
                    metavar=("S", "RGB"))
    ap.add_argument("--text-bold", action="append", default=[])
    ap.add_argument("--text-not-colour", nargs=2, action="append", default=[],
                    metavar=("S", "RGB"))
    ap.add_argument("--marks", nargs=2, type=int)
    ap.add_argument("--row-of", nargs=2, action="append", default=[])
    ap.add_argument("--fonts-embedded", action="store_true")
    ap.add_argument("--glyphs", action="store_true")
    ap.add_argument("--no-urls", action="store_true")
    ap.add_argument("--cjk-min", type=int)
    ap.add_argument("--cjk-max", type=int)
    a = ap.parse_args()

    size = os.path.getsize(a.pdf)
    rc, out, err = run("qpdf", "--check", a.pdf)
    check(rc == 0 and "WARNING" not in out + err, "qpdf --check: no error or warning",
          (out + err).strip()[-300:])
    if a.max_kb:
        check(size <= a.max_kb * 1024, f"size {size // 1024} KB <= {a.max_kb} KB")
    f = info(a.pdf)
    pages = int(f.get("Pages", "0"))
    check(pages >= a.pages_min, f"{pages} pages (>= {a.pages_min})")
    if a.title:
        check(f.get("Title") == a.title, f"Title is '{a.title}'", f"got '{f.get('Title')}'")
    if a.subject:
        check(f.get("Subject") == a.subject, f"Subject is '{a.subject}'", f"got '{f.get('Subject')}'")
    if a.creator:
        check(f.get("Creator") == a.creator, f"Creator is '{a.creator}'", f"got '{f.get('Creator')}'")
    check(bool(f.get("CreationDate")), "CreationDate is set")
    rc, text, err = run("pdftotext", "-layout", "-enc", "UTF-8", a.pdf, "-")
    # poppler's complaints (e.g. "Invalid 'begincidrange' operator in
    # ToUnicode CMap", libharu's own CMap) go to stderr: a valid PDF has none
    check(rc == 0 and not err.strip(), "pdftotext: nothing on stderr",
          f"{len(err.splitlines())} lines: " + err.strip()[:300])
    # and in drawing order (-raw): a grid of cards side by side reads
    # across both columns in -layout, card by card in -raw; --text may
    # match either, section checks look at the -layout text first
    rc, raw, err = run("pdftotext", "-raw", "-enc", "UTF-8", a.pdf, "-")
    # (where a line break between two Chinese characters is no space)
    raw = re.sub(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u9fff\uff00-\uffef])", "", raw)
    flat = re.sub(r"\s+", " ", text) + " \u00b6 " + re.sub(r"\s+", " ", raw)
    for s in a.text:
        check(s in flat, f"text '{s}'")
    for s in a.no_text:
        check(s not in flat, f"no text '{s}' (section absent)")
    section_checks(flat, a.section_text, a.section_count)
    upper_half_checks(a.pdf, a.upper_half)
    keep_checks(a.pdf, a.same_page)
    style_checks(a.pdf, a.text_colour, a.text_bold, a.text_not_colour)
    if a.cjk_min is not None:
        n = len(re.findall(r"[\u4e00-\u9fff]", flat))
        check(n >= a.cjk_min, f"{n} CJK ideographs in the text (>= {a.cjk_min})")
    if a.cjk_max is not None:
        n = len(re.findall(r"[\u4e00-\u9fff]", flat))
        check(n <= a.cjk_max, f"{n} CJK ideographs in the text (<= {a.cjk_max})")
    if a.fonts_embedded:
        fonts_embedded(a.pdf)
    if a.row_of:
        rc, lay, err = run("pdftotext", "-layout", a.pdf, "-")
        for sub, n in a.row_of:
            most = max((l.count(sub) for l in lay.split("\n")), default=0)
            check(most >= int(n), f"a line holds {sub!r} {n} times (most: {most})")
    if a.marks:
        tri, tick = state_marks(a.pdf)
        check(tri >= a.marks[0] and tick >= a.marks[1],
              f"state shapes: {tri} triangles (>= {a.marks[0]}), {tick} ticks (>= {a.marks[1]})")
    if a.glyphs:
        latin = []
        n, missing = missing_glyphs(a.pdf, latin)
        check(n > 0 and not missing, f"{n} characters drawn, each with a glyph of its font",
              "; ".join(missing[:8]) or "no text drawn with a CID font")
        check(not latin, "no ASCII letter or digit drawn with the CJK font",
              "; ".join(latin[:8]))
    if a.outline:
        rc, out, err = run("qpdf", "--json", "--json-key=outlines", a.pdf)
        import json
        titles = [o["title"] for o in json.loads(out).get("outlines", [])]
        for t in a.outline:
            check(t in titles, f"bookmark '{t}'", f"bookmarks: {titles}")
    rc, urls, err = run("pdfinfo", "-url", a.pdf)
    for u in a.url:
        check(u in urls, f"link annotation to {u}")
    if a.no_urls:
        links = [ln for ln in urls.splitlines()[1:] if ln.strip()]
        check(not links, "no link annotation", "; ".join(links[:5]))
    with tempfile.TemporaryDirectory() as tmp:
        n, bad = blank_pages(a.pdf, tmp)
        check(n == pages and not bad, f"all {n} pages rendered, none blank", "; ".join(bad))
    if a.table_header:
        table_checks(a.pdf, a.table_header, a.table_column_before,
                     a.table_cell_marker, a.table_pages_min)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
