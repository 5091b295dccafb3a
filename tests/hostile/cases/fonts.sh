# Fonts (issue 11, defect 8): a corrupt --font / --cjk-font is refused by
# the structure check before libharu reads it; before the check, libharu
# wrote past a heap buffer, divided by zero or read past its arrays. Since
# issue 12 the check runs with the other option values, before the
# profile is read: exit 2, naming the option, the file and what is wrong.
EX="$ROOT/examples/image-dit-1card"
DEJAVU=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf

python3 - "$DEJAVU" <<'EOF'
import random, struct, sys
data = bytes(open(sys.argv[1], 'rb').read())

def tables(d):
    n = struct.unpack('>H', d[4:6])[0]
    t = {}
    for i in range(n):
        o = 12 + 16 * i
        off, ln = struct.unpack('>II', d[o + 8:o + 16])
        t[d[o:o + 4].decode('latin1')] = (o, off, ln)
    return t

T = tables(data)

def save(name, d):
    open(name, 'wb').write(bytes(d))

def patched(name, table, at, fmt, value):
    d = bytearray(data)
    struct.pack_into(fmt, d, T[table][1] + at, value)
    save(name, d)

patched('hmetrics.ttf', 'hhea', 34, '>H', 65535)   # heap write in libharu
patched('upem0.ttf', 'head', 18, '>H', 0)          # division by zero
patched('noglyphs.ttf', 'maxp', 4, '>H', 0)        # heap write
d = bytearray(data)
struct.pack_into('>I', d, T['loca'][0] + 8, len(data) + 1000)
save('beyond.ttf', d)
d = bytearray(data)
struct.pack_into('>H', d, 4, 60000)
save('numtables.ttf', d)
save('truncated.ttf', data[:5000])
save('manyfaces.ttc', b'ttcf' + struct.pack('>III', 0x10000, 0x7fffffff, 16) + data)
save('farface.ttc', b'ttcf' + struct.pack('>III', 0x10000, 1, 0x7ffffff0) + data)
# a hundred fonts with random bytes changed where libharu reads numbers:
# the table directory and the head of head, hhea, maxp, cmap, name, loca
# and OS/2 (fixed seed)
spots = [(0, 12 + 16 * len(T))]
spots += [(T[t][1], 64) for t in ('head', 'hhea', 'maxp', 'cmap', 'name',
                                   'loca', 'OS/2')]
rng = random.Random(5)
for i in range(100):
    d = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        at, n = rng.choice(spots)
        d[at + rng.randrange(n)] = rng.randrange(256)
    save('fuzzed%03d.ttf' % i, d)
EOF

# font NAME FILE 'reason' [--cjk-font]: exit 2 naming the option, the
# file and the reason
font() {
	local name=$1 file=$2 why=$3 opt=${4:---font}
	local lang=en
	[ "$opt" = --cjk-font ] && lang=zh
	bounded "font_$name" 2 300 30 "$opt '$file': not a usable TrueType font: $why" -- \
		"$SDPERF" report "$EX" -o "out_$name" -q -f pdf --lang $lang "$opt" "$file"
	[ -e "out_$name/report.pdf" ] && bad "font_$name" "a report was written"
}
font hmetrics hmetrics.ttf 'hhea: numberOfHMetrics 65535 (1 to numGlyphs 6253 expected)'
font upem0 upem0.ttf 'head: unitsPerEm 0 (16 to 16384 expected)'
font noglyphs noglyphs.ttf 'maxp: numGlyphs is 0'
font beyond beyond.ttf "table 'loca': offset"
font numtables numtables.ttf '60000 tables (1 to 512 expected)'
font truncated truncated.ttf "table 'GPOS': offset 1020 + length 40586 is past the end of the file (5000 bytes)"
font manyfaces manyfaces.ttc 'collection: 2147483647 fonts (1 to 4096 expected)' --cjk-font
font farface farface.ttc 'truncated: 12 bytes at offset 2147483632' --cjk-font

# the random ones: refused by the structure check (exit 2, the reason
# given), refused by libharu while the PDF is drawn (exit 3, the font
# named) or rendered (0), never a crash nor an internal error (before the
# check, with this seed: a SIGSEGV, an abort and three exit 70 among the
# hundred)
crashed=0 refused=0 rendered=0
for f in fuzzed*.ttf; do
	timeout 60 "$SDPERF" report "$EX" -o out_fz -q -f pdf --font "$f" 2>fz.err
	rc=$?
	case $rc in
	0) rendered=$((rendered + 1)) ;;
	2) grep -q -- "--font '$f': not a usable TrueType font" fz.err && refused=$((refused + 1)) ||
		crashed=$((crashed + 1)) ;;
	3) grep -q "font file '$f'" fz.err && refused=$((refused + 1)) ||
		crashed=$((crashed + 1)) ;;
	*) crashed=$((crashed + 1)); echo "     $f: exit $rc $(head -c 200 fz.err)" ;;
	esac
done
[ $crashed -eq 0 ] && ok "font_fuzzed: 100 fonts, $refused refused, $rendered rendered, no crash" ||
	bad font_fuzzed "$crashed of 100 fuzzed fonts crashed or failed without naming the font"
