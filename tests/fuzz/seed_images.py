#!/usr/bin/env python3
"""Seeds for fuzz_image (issue 23): small valid PNGs (colour, 16-bit
grey, an 8-bit palette with tRNS, a 2-bit one without, RGBA with a
text chunk, one whose zlib stream is split over one-byte IDAT chunks) and JPEGs written by
hand (a greyscale and a colour baseline frame of one 8x8 block, a restart
interval, a progressive frame). Usage: seed_images.py DIR"""
import os
import struct
import sys
import zlib

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))


def png(name, w, h, depth, ctype, extra=b"", interlace=0):
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    raw = b"".join(b"\0" + bytes((w * ch * depth + 7) // 8) for _ in range(h))
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)) +
                extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def seg(m, d):
    return b"\xff" + bytes([m]) + struct.pack(">H", len(d) + 2) + d


def jpeg(name, sof, ncomp, data, se=0x3f):
    comps = b"".join(bytes([i + 1, 0x11, 0]) for i in range(ncomp))
    sos = bytes([ncomp]) + b"".join(bytes([i + 1, 0]) for i in range(ncomp)) + b"\x00" + bytes([se]) + b"\x00"
    dht = b"\x00" + bytes([1] + [0] * 15) + b"\x00" + b"\x10" + bytes([1] + [0] * 15) + b"\x00"
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\xff\xd8" + seg(0xe0, b"JFIF\0\1\1\0\0\1\0\1\0\0") +
                seg(0xdb, b"\x00" + bytes([1] * 64)) +
                seg(sof, b"\x08" + struct.pack(">HH", 8, 8) + bytes([ncomp]) + comps) +
                seg(0xc4, dht) + seg(0xdd, b"\x00\x01") + seg(0xda, sos) + data + b"\xff\xd9")


png("rgb.png", 4, 3, 8, 2)
png("grey16.png", 3, 2, 16, 0)
png("pal.png", 2, 2, 8, 3, chunk(b"PLTE", bytes(6)) + chunk(b"tRNS", b"\0"))
png("pal2.png", 5, 2, 2, 3, chunk(b"PLTE", bytes(6)))
z = zlib.compress((b"\1" + bytes(8)) * 3)
with open(os.path.join(out, "split.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 3, 16, 4, 0, 0, 0)) +
            b"".join(chunk(b"IDAT", z[i:i + 1]) for i in range(len(z))) +
            chunk(b"IEND", b""))
png("rgba.png", 2, 2, 8, 6, chunk(b"tEXt", b"k\0v"))
jpeg("grey.jpg", 0xc0, 1, b"\x3f")
jpeg("colour.jpg", 0xc0, 3, b"\x03\xff\xd0\x03")
jpeg("progressive.jpg", 0xc2, 3, b"\x1f", se=0)
