#!/usr/bin/env python3
"""Writes tiny valid TrueType fonts, the seeds of fuzz_font.

Usage: seed_fonts.py OUTDIR

Built table by table from the OpenType specification (offset table, head,
hhea, maxp, hmtx, loca, glyf, cmap format 4, name, OS/2, post, cvt, fpgm,
prep): four glyphs (.notdef, a square 'A', a space, a composite 'B' made
of the square), long and short loca, and a one-font collection (.ttc).
Each is about 1 KB, so that the fuzzer mutates structure, not outlines.
"""
import os
import struct
import sys


def pad4(b):
    return b + b'\0' * (-len(b) % 4)


def simple_square():
    # one contour, four on-curve points, coordinates as int16 deltas
    head = struct.pack('>hhhhh', 1, 100, 0, 600, 500)
    return head + struct.pack('>HH', 3, 0) + bytes([1] * 4) + \
        struct.pack('>4h', 100, 500, 0, -500) + \
        struct.pack('>4h', 0, 0, 500, 0)


def composite():
    # ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES, glyph 1 at (0, 0)
    return struct.pack('>hhhhh', -1, 100, 0, 600, 500) + \
        struct.pack('>HHhh', 0x0003, 1, 0, 0)


def glyphs(long_loca):
    gl = [b'', simple_square(), b'', composite()]
    glyf, loca = b'', []
    for g in gl:
        loca.append(len(glyf))
        glyf += g + b'\0' * (len(g) % 2)
    loca.append(len(glyf))
    if long_loca:
        return glyf, struct.pack('>%dI' % len(loca), *loca)
    return glyf, struct.pack('>%dH' % len(loca), *[o // 2 for o in loca])


def cmap():
    # ' ' -> 2, 'A' -> 1, 'B' -> 3, then the closing U+FFFF segment
    segs = [(0x20, 0x20, 2 - 0x20), (0x41, 0x42, 0), (0xFFFF, 0xFFFF, 1)]
    n = len(segs)
    ends = [s[1] for s in segs]
    starts = [s[0] for s in segs]
    deltas = [s[2] & 0xFFFF for s in segs]
    # segment 'A'-'B' reads the glyph index array: idRangeOffset counts
    # from its own entry to the array
    ro = [0, 2 * (n - 1), 0]
    arr = struct.pack('>2H', 1, 3)
    body = struct.pack('>%dH' % n, *ends) + b'\0\0' + \
        struct.pack('>%dH' % n, *starts) + struct.pack('>%dH' % n, *deltas) + \
        struct.pack('>%dH' % n, *ro) + arr
    sub = struct.pack('>7H', 4, 14 + len(body), 0, 2 * n, 4, 1, 2 * n - 4)
    sub += body
    return struct.pack('>HHHHI', 0, 1, 3, 1, 12) + sub


def name():
    strs = [(1, 'SdperfMini'), (2, 'Regular'), (6, 'SdperfMini-Regular')]
    recs, data = [], b''
    for nid, s in strs:
        recs.append((1, 0, 0, nid, len(s), len(data)))
        data += s.encode('ascii')
    for nid, s in strs:
        u = s.encode('utf-16-be')
        recs.append((3, 1, 0x409, nid, len(u), len(data)))
        data += u
    head = struct.pack('>HHH', 0, len(recs), 6 + 12 * len(recs))
    return head + b''.join(struct.pack('>6H', *r) for r in recs) + data


def os2():
    t = struct.pack('>HhHHH', 1, 500, 400, 5, 0)  # version 1, fsType 0
    t += b'\0' * (30 - len(t)) + b'\0' * 12  # sFamilyClass, panose
    t += b'\0' * 16 + b'SDPF' + struct.pack('>HHH', 0x40, 0x20, 0x42)
    t += struct.pack('>hhhHH', 800, -200, 0, 800, 200)  # at 68
    t += struct.pack('>II', 1, 0)  # ulCodePageRange1, 2
    assert len(t) == 86, len(t)
    return t


def font(long_loca):
    glyf, loca = glyphs(long_loca)
    n = 4
    head = struct.pack('>IIIIHH', 0x10000, 0x10000, 0, 0x5F0F3CF5, 0x000B,
                       1000) + b'\0' * 16 + \
        struct.pack('>hhhhHHhhh', 0, 0, 600, 500, 0, 8, 2,
                    1 if long_loca else 0, 0)
    hhea = struct.pack('>IhhhHhhhhhh', 0x10000, 800, -200, 0, 600, 0, 0,
                       600, 1, 0, 0) + b'\0' * 8 + struct.pack('>hH', 0, n)
    maxp = struct.pack('>IH', 0x10000, n) + b'\0' * 26
    hmtx = struct.pack('>8h', 600, 0, 600, 100, 300, 0, 600, 100)
    post = struct.pack('>IIhh', 0x30000, 0, -100, 50) + b'\0' * 16
    return {'head': head, 'hhea': hhea, 'maxp': maxp, 'hmtx': hmtx,
            'loca': loca, 'glyf': glyf, 'cmap': cmap(), 'name': name(),
            'OS/2': os2(), 'post': post, 'cvt ': b'\0' * 4,
            'fpgm': b'\xb0\x00', 'prep': b'\xb0\x00'}


def sfnt(tables, base=0):
    tags = sorted(tables)
    n = len(tags)
    out = struct.pack('>IHHHH', 0x10000, n, 64, 2, n * 16 - 64)
    off = base + 12 + 16 * n
    recs, data = b'', b''
    for t in tags:
        recs += t.encode('latin1') + struct.pack('>III', 0, off + len(data),
                                                 len(tables[t]))
        data += pad4(tables[t])
    return out + recs + data


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'mini-long.ttf'), 'wb') as f:
        f.write(sfnt(font(True)))
    with open(os.path.join(out, 'mini-short.ttf'), 'wb') as f:
        f.write(sfnt(font(False)))
    with open(os.path.join(out, 'mini.ttc'), 'wb') as f:
        f.write(b'ttcf' + struct.pack('>III', 0x10000, 1, 16) +
                sfnt(font(True), base=16))


if __name__ == '__main__':
    main()
