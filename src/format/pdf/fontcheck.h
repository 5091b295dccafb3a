/* The structure check of a TrueType font file before libharu reads it.
 *
 * libharu 2.3.0 trusts the numbers in a font: a corrupt --font made it
 * write past a heap buffer (numberOfHMetrics above numGlyphs), divide by
 * zero (unitsPerEm 0) or read past its tables. This check reads the file
 * the way libharu's TrueType loader does and refuses, with the reason,
 * every structure that loader would mishandle:
 *   - the offset table (sfnt version 1.0 or 'true', 1 to 512 tables) and
 *     for a collection (.ttc) the 'ttcf' header, its face count and the
 *     face's offset;
 *   - every table record inside the file; the tables libharu reads
 *     present (head hhea maxp hmtx loca glyf cmap name OS/2) and long
 *     enough for what it reads of them;
 *   - head: the magic number, unitsPerEm 16 to 16384, indexToLocFormat;
 *     maxp numGlyphs >= 1; hhea numberOfHMetrics 1..numGlyphs; hmtx and
 *     loca long enough for them; loca offsets rising and inside glyf;
 *   - cmap: the subtable libharu picks ((3,1) format 4, else (1,0)
 *     format 0, else (0,3) format 4) inside the table; for format 4
 *     segments in order, ending at U+FFFF, every glyph index array read
 *     inside the array and every code point mapped to a glyph below
 *     numGlyphs;
 *   - name: the records and strings inside the table, the PostScript and
 *     subfamily names libharu copies short enough for its buffer;
 *   - OS/2 long enough for its version; fsType allowing embedding.
 * It is a structure check, not a font validator: a structurally sound but
 * semantically hostile font (odd glyph programs, a composite glyph loop)
 * can still reach libharu (README, "Known limitations"). */
#ifndef SDPERF_FONTCHECK_H
#define SDPERF_FONTCHECK_H

#include <stddef.h>

#include "util/strbuf.h"

/* The largest font file checked (and so loaded): libharu's offsets are
 * 32-bit, and no real TrueType font comes near it. */
#define FONTCHECK_MAX_BYTES (512u << 20)

/* Checks data[0..n) as a TrueType font; face < 0: a single font (.ttf),
 * else that face of a collection (.ttc). Returns 0 when libharu may read
 * it, else -1 with the reason appended to why ("cmap: segment 3 ends
 * before it starts"). Reads nothing outside data. */
int fontcheck_mem(const unsigned char *data, size_t n, int face,
                  struct strbuf *why);

/* The same for the file at path, read with pread (only the tables
 * checked are read, never the glyphs). -1 with why also when the file
 * cannot be opened or read, is not a regular file or is larger than
 * FONTCHECK_MAX_BYTES. */
int fontcheck_file(const char *path, int face, struct strbuf *why);

#endif
