#!/usr/bin/env python3
"""Every string of the result goes through --redact (issue 23): checks
src/analysis/redact.c's field tables against the headers that declare
the result.

Usage: fields.py SRC_DIR

From struct result (src/analysis/result.h), every struct reachable through
its members (embedded, pointed to, arrays of) in the headers below is
read. Each member that holds a string (char *, const char *, char **,
char NAME[N], char *NAME[N]), and each member whose struct type holds one
(directly or further down), must be named by a row of redact.c's tables,
`MACRO(struct S, member...)`: RSTR/RSTRS/RMETA (rewritten or kept by
shape), RNAME (a name looked for, never shown), ROWN (sdperf's own text, decided so), FT_CHARSF, RSUB/RLIST/RONE
(walked into). A member no row names fails the check, so a string field
added to the result later cannot silently skip the redaction. Rows that
name no member fail it too (the compiler's offsetof checks the rest)."""
import os
import re
import sys

HEADERS = ("analysis/result.h", "input/profile.h", "input/commmatrix.h",
           "input/commjson.h", "core/tasktype.h")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def structs(text):
    """name -> list of (member, base type, is_pointer_or_array)."""
    out = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", text):
        name, i, depth = m.group(1), m.end(), 1
        body_start = i
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[body_start:i - 1]
        # nested anonymous structs: their own members are not strings
        # here (checked: they would be listed as the outer member)
        flat, depth = [], 0
        for ch in body:
            if ch == "{":
                depth += 1
                if depth == 1:
                    flat.append(" ANON ")
                continue
            if ch == "}":
                depth -= 1
                continue
            if depth == 0:
                flat.append(ch)
        members = []
        for decl in "".join(flat).split(";"):
            decl = " ".join(decl.split())
            if not decl or decl.startswith("#"):
                continue
            if "ANON" in decl:
                continue
            mm = re.match(r"((?:const\s+|unsigned\s+|signed\s+|struct\s+|"
                          r"enum\s+)*\w+)\s*(.*)$", decl)
            if not mm:
                continue
            base, rest = mm.group(1), mm.group(2)
            for d in rest.split(","):
                d = d.strip()
                dm = re.match(r"(\**)\s*(\w+)\s*((?:\[[^\]]*\])*)", d)
                if not dm:
                    continue
                members.append((dm.group(2), base,
                                bool(dm.group(1)) or bool(dm.group(3))))
        out[name] = members
    return out


def is_string(base, indirect):
    words = base.split()
    return (words[-1] == "char" and "unsigned" not in words
            and "signed" not in words and indirect)


def main():
    src = sys.argv[1]
    text = ""
    for h in HEADERS:
        with open(os.path.join(src, h)) as f:
            text += strip_comments(f.read()) + "\n"
    defs = structs(text)

    def struct_of(base):
        m = re.match(r"(?:const\s+)?struct\s+(\w+)$", base)
        return m.group(1) if m and m.group(1) in defs else None

    holds = {}

    def holds_string(name, seen=()):
        if name in holds:
            return holds[name]
        if name in seen:
            return False
        r = False
        for member, base, ind in defs[name]:
            sub = struct_of(base)
            if is_string(base, ind) or (sub and
                                        holds_string(sub, seen + (name,))):
                r = True
        holds[name] = r
        return r

    reach, todo = set(), ["result"]
    while todo:
        s = todo.pop()
        if s in reach:
            continue
        reach.add(s)
        for member, base, ind in defs[s]:
            sub = struct_of(base)
            if sub:
                todo.append(sub)

    with open(os.path.join(src, "analysis/redact.c")) as f:
        red = f.read()
    red = red[red.index("static const struct ft_field"):]
    rows = set(re.findall(
        r"\b(?:RSTR|RSTRS|RMETA|RNAME|ROWN|FT_CHARSF|RSUB|RLIST|RONE)\(\s*"
        r"struct\s+(\w+)\s*,\s*(\w+)", red))

    missing, bad = [], []
    for s in sorted(reach):
        for member, base, ind in defs[s]:
            sub = struct_of(base)
            need = is_string(base, ind) or (sub and holds_string(sub))
            if need and (s, member) not in rows:
                missing.append("%s.%s (%s)" % (s, member, base))
    names = {(s, m) for s in defs for m, _, _ in defs[s]}
    for s, m in sorted(rows):
        if (s, m) not in names:
            bad.append("%s.%s" % (s, m))
    for m in missing:
        print("not in redact.c's tables: " + m)
    for b in bad:
        print("redact.c names no such member: " + b)
    checked = sum(1 for s in reach for m, b, i in defs[s]
                  if is_string(b, i))
    print("%d structs reachable from struct result, %d string members, "
          "%d rows" % (len(reach), checked, len(rows)))
    return 1 if missing or bad else 0


if __name__ == "__main__":
    sys.exit(main())
