#!/usr/bin/env python3
"""Searches every byte sdperf wrote for secrets (tests/redact/run.sh).

Usage: search.py OUTDIR TERMINAL_LOG MODE SECRET...
  MODE absent: no secret may occur anywhere (exit 1 naming each hit);
  MODE present: every secret must occur in each format written (so the
  search can fail).

Where it looks: every file in OUTDIR (report.html, report.fragment.html,
report.md, report.json, report.pdf) as raw bytes, and as the text they
stand for (the HTML and the fragment without their <wbr>
line-break hints and with entities decoded, the Markdown without its
backslash escapes, the JSON's strings decoded); the PDF with its streams decompressed (qpdf --qdf
--object-streams=disable); the PDF's text (pdftotext, also with every
space, line break and hyphen removed, as a wrapped line splits a word);
its metadata (pdfinfo: Title, Subject, Keywords, Author, Creator...);
the terminal output (stdout and stderr) in TERMINAL_LOG."""
import html
import json
import os
import re
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True).stdout


# MODE present: the secret must be in each format written, as text
FORMATS = ("report.html (text)", "report.fragment.html (text)",
           "report.md (text)", "report.json (strings)",
           "report.pdf (pdftotext, squeezed)")


def squeeze(b):
    return bytes(c for c in b if c not in b" \t\r\n\f-")


def places(outdir, log):
    """Every place to search: name -> bytes (the formats written)."""
    out = {}
    for name in sorted(os.listdir(outdir)):  # every file written
        path = os.path.join(outdir, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    for name in ("report.html", "report.fragment.html"):
        if name in out:
            text = re.sub(r"<wbr>", "", out[name].decode())
            out[name + " (text)"] = html.unescape(text).encode()
    if "report.md" in out:
        text = re.sub(rb"\\([!-/:-@\[-`{-~])", rb"\1", out["report.md"])
        out["report.md (text)"] = text
    if "report.json" in out:
        strings = []
        def walk(v):
            if isinstance(v, str):
                strings.append(v)
            elif isinstance(v, dict):
                for k, x in v.items():
                    strings.append(k)
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(json.loads(out["report.json"]))
        out["report.json (strings)"] = "\n".join(strings).encode()
    pdf = os.path.join(outdir, "report.pdf")
    if os.path.exists(pdf):
        qdf = os.path.join(outdir, "qdf.pdf")
        subprocess.run(["qpdf", "--qdf", "--object-streams=disable", pdf,
                        qdf], check=False, capture_output=True)
        with open(qdf, "rb") as f:
            out["report.pdf (qpdf --qdf)"] = f.read()
        os.unlink(qdf)
        text = run("pdftotext", "-enc", "UTF-8", pdf, "-")
        out["report.pdf (pdftotext)"] = text
        out["report.pdf (pdftotext, squeezed)"] = squeeze(text)
        out["report.pdf (pdfinfo)"] = run("pdfinfo", "-enc", "UTF-8", pdf)
        out["report.pdf (pdfinfo -meta)"] = run("pdfinfo", "-meta", pdf)
    if not out:
        sys.exit("no report in " + outdir)
    with open(log, "rb") as f:
        out["terminal"] = f.read()
    return out


def main():
    outdir, log, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    secrets = [s.encode() for s in sys.argv[4:]]
    where = places(outdir, log)
    bad = 0
    for s in secrets:
        hits = [name for name, data in where.items()
                if s in data or ("squeezed" in name and squeeze(s) in data)]
        if mode == "absent" and hits:
            print("leak: %r in %s" % (s.decode(), ", ".join(hits)))
            bad += 1
        missing = [n for n in FORMATS if n in where and n not in hits]
        if mode == "present" and missing:
            print("not found in %s (the search could not fail): %r"
                  % (", ".join(missing), s.decode()))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
