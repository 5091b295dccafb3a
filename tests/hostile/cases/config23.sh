# Configuration and branding from a stranger (issue 23, defects 2, 9, 10
# and 11): a received profile folder's ./sdperf.json configures nothing,
# a logo is checked from its header before anything decodes it (size, and
# a JPEG a PDF viewer can decode), the config, rules, template and logo
# files are read only when they are regular files (a FIFO never blocks),
# and a user's report.css cannot style the wiki page around the fragment.
EX="$ROOT/examples/image-dit-1card"

# --- defect 2: no configuration from the folder the user stands in -----
mkdir -p recv && cp -r "$EX"/synth-node_* recv/
python3 - recv/sdperf.json <<'EOF'
import json, sys
json.dump({"org": "Evil\u202eCorp", "customer": "Victim",
           "confidential": "leak", "logo": "../logo.png"},
          open(sys.argv[1], "w"))
EOF
python3 - logo.png <<'EOF'
import struct, sys, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
raw = b"".join(b"\0" + bytes(30 * 3) for y in range(10))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" +
    chunk(b"IHDR", struct.pack(">IIBBBBB", 30, 10, 8, 2, 0, 0, 0)) +
    chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
EOF
mkdir -p home
bounded cfg_cwd_not_read 0 200 30 'pass --config ./sdperf.json to use it' -- \
	env -C recv HOME="$PWD/home" XDG_CONFIG_HOME= "$SDPERF" report . -o ../cwd_out -f json -q
python3 - cwd_out/report.json <<'EOF' && ok "cfg_cwd_branding_none: nothing from ./sdperf.json" ||
import json, sys
b = json.load(open(sys.argv[1]))["branding"]
assert all(b[k] is None for k in ("org", "customer", "confidential", "logo")), b
EOF
	bad cfg_cwd_branding_none "the folder's sdperf.json was applied" "$(grep -A8 branding cwd_out/report.json)"
# a malformed ./sdperf.json (or ./.sdperf.json) is not a reason to fail
mkdir -p recv2 && cp -r "$EX"/synth-node_* recv2/ && printf '{"org": ' >recv2/.sdperf.json
bounded cfg_cwd_malformed_ignored 0 200 30 './.sdperf.json not read' -- \
	env -C recv2 HOME="$PWD/home" "$SDPERF" report . -o ../cwd_out2 -f json -q
# the user's own config folder is read, its logo relative to it
mkdir -p xdg/sdperf && cp logo.png xdg/sdperf/ &&
	printf '{"org": "Mine", "logo": "logo.png"}' >xdg/sdperf/config.json
bounded cfg_xdg_read 0 200 30 '' -- \
	env -C recv XDG_CONFIG_HOME="$PWD/xdg" "$SDPERF" report . -o ../xdg_out -f json -q
python3 - xdg_out/report.json <<'EOF' && ok "cfg_xdg_branding: org and logo from XDG_CONFIG_HOME" ||
import json, sys
b = json.load(open(sys.argv[1]))["branding"]
assert b["org"] == "Mine" and b["logo"]["type"] == "image/png", b
EOF
	bad cfg_xdg_branding "$(grep -A8 branding xdg_out/report.json)"
# U+202E from a named config file never reaches the terminal as it is
bounded cfg_bidi_terminal 0 200 30 '' -- env HOME="$PWD/home" \
	"$SDPERF" report recv -o bidi_out -f json --config recv/sdperf.json
if grep -q $'\xe2\x80\xae' bidi_out.out 2>/dev/null || grep -q $'\xe2\x80\xae' "$T/cfg_bidi_terminal.out"; then
	bad cfg_bidi_sanitised "U+202E printed to the terminal"
else
	grep -qF 'Evil\u202ECorp' "$T/cfg_bidi_terminal.out" "$T/cfg_bidi_terminal.err" ||
		grep -qF 'leak' "$T/cfg_bidi_terminal.out" &&
		ok "cfg_bidi_sanitised: U+202E shown as \\u202E" ||
		bad cfg_bidi_sanitised "the branding did not reach the terminal" "$(tail -3 "$T/cfg_bidi_terminal.out")"
fi
printf '{"confidential": "a\xe2\x80\xaeb"}' >bidi.json
bounded cfg_bidi_confidential 0 200 30 '' -- env HOME="$PWD/home" \
	"$SDPERF" report recv -o bidi_out2 -f json --config bidi.json
grep -qxF 'a\u202Eb' "$T/cfg_bidi_confidential.out" &&
	ok "cfg_bidi_confidential_shown: a\\u202Eb" ||
	bad cfg_bidi_confidential_shown "$(tail -3 "$T/cfg_bidi_confidential.out" | od -c | head -5)"

# --- defect 9: logo images checked from their header --------------------
# a 16000 x 16000 PNG (250 KB of zlib): refused from its IHDR, before any
# decoding, within a 64 MiB budget
python3 - huge.png <<'EOF'
import struct, sys, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
w = h = 16000
co = zlib.compressobj(9)
row = b"\0" + bytes(w)
data = b"".join(co.compress(row) for _ in range(h)) + co.flush()
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" +
    chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
    chunk(b"IDAT", data) + chunk(b"IEND", b""))
EOF
bounded logo_huge_png 2 100 10 "--logo 'huge.png': 16000 x 16000 pixels" -- \
	timeout 60 "$SDPERF" report "$EX" -o huge_out -f pdf -q --logo huge.png --max-memory 64M
# five JPEGs a PDF viewer cannot decode (written by hand: a frame header,
# quantisation and Huffman tables, a scan of one 8x8 block); a good one
python3 - <<'EOF'
import struct
def seg(m, d):
    return b"\xff" + bytes([m]) + struct.pack(">H", len(d) + 2) + d
def jpeg(path, sof=0xc0, prec=8, ncomp=1, data=b"\x3f", scan=True):
    comps = b"".join(bytes([i + 1, 0x11, 0]) for i in range(ncomp))
    b = (b"\xff\xd8" + seg(0xdb, b"\x00" + bytes([1] * 64)) +
         seg(sof, bytes([prec]) + struct.pack(">HH", 8, 8) + bytes([ncomp]) + comps) +
         seg(0xc4, b"\x00" + bytes([1] + [0] * 15) + b"\x00" +
                   b"\x10" + bytes([1] + [0] * 15) + b"\x00"))
    if scan:
        b += seg(0xda, bytes([ncomp]) + b"".join(bytes([i + 1, 0]) for i in range(ncomp)) +
                 b"\x00\x3f\x00") + data
    open(path, "wb").write(b + b"\xff\xd9")
jpeg("good.jpg")
jpeg("sof_only.jpg", scan=False)
jpeg("bits12.jpg", sof=0xc1, prec=12)
jpeg("cmyk.jpg", ncomp=4)
jpeg("cmyk_progressive.jpg", sof=0xc2, ncomp=4)
jpeg("empty_scan.jpg", data=b"")
EOF
bounded logo_jpeg_good 0 200 30 '' -- "$SDPERF" report "$EX" -o good_out -f pdf -q --logo good.jpg
qpdf --check --decode-level=all good_out/report.pdf >qpdf.txt 2>&1 &&
	ok "logo_jpeg_good_decodes: qpdf decodes the PDF's streams" ||
	bad logo_jpeg_good_decodes "$(tail -3 qpdf.txt)"
bounded logo_jpeg_sof_only 2 100 10 "--logo 'sof_only.jpg': no scan (SOS)" -- \
	timeout 60 "$SDPERF" report "$EX" -o j1 -f pdf -q --logo sof_only.jpg
bounded logo_jpeg_12bit 2 100 10 "--logo 'bits12.jpg': 12-bit samples" -- \
	timeout 60 "$SDPERF" report "$EX" -o j2 -f pdf -q --logo bits12.jpg
bounded logo_jpeg_cmyk 2 100 10 "--logo 'cmyk.jpg': 4 components" -- \
	timeout 60 "$SDPERF" report "$EX" -o j3 -f pdf -q --logo cmyk.jpg
bounded logo_jpeg_cmyk_progressive 2 100 10 "--logo 'cmyk_progressive.jpg': 4 components" -- \
	timeout 60 "$SDPERF" report "$EX" -o j4 -f pdf -q --logo cmyk_progressive.jpg
bounded logo_jpeg_empty_scan 2 100 10 "--logo 'empty_scan.jpg': a scan (SOS) with no data" -- \
	timeout 60 "$SDPERF" report "$EX" -o j5 -f pdf -q --logo empty_scan.jpg

# --- defect 10: FIFOs are refused, never waited on ----------------------
mkfifo fifo
bounded fifo_config 2 100 10 'fifo: not a regular file (a FIFO)' -- \
	timeout 20 "$SDPERF" report "$EX" -o f1 -f json -q --config fifo
bounded fifo_rules 3 100 10 'fifo: not a regular file (a FIFO)' -- \
	timeout 20 "$SDPERF" report "$EX" -o f2 -f json -q --rules fifo
bounded fifo_logo 2 100 10 "--logo 'fifo': fifo: not a regular file (a FIFO)" -- \
	timeout 20 "$SDPERF" report "$EX" -o f3 -f json -q --logo fifo
mkdir -p tdir && mkfifo tdir/report.html.tmpl
bounded fifo_template 3 100 10 'report.html.tmpl: not a regular file (a FIFO)' -- \
	timeout 20 "$SDPERF" report "$EX" -o f4 -f html -q --templates tdir
mkdir -p cdir && mkfifo cdir/report.css
bounded fifo_report_css 3 100 10 'report.css: not a regular file (a FIFO)' -- \
	timeout 20 "$SDPERF" report "$EX" -o f6 -f fragment -q --templates cdir
printf '{"logo": "fifo"}' >fifo_logo.json
bounded fifo_config_logo 2 100 10 "key 'logo' 'fifo': fifo: not a regular file" -- \
	timeout 20 "$SDPERF" report "$EX" -o f5 -f json -q --config fifo_logo.json

# --- defect 11: the fragment's CSS stays inside the fragment ------------
mkdir -p css
{ cat "$ROOT/assets/report.css"; printf '\n~ * { display: none }\n+ div, > p { color: red }\n'; } >css/report.css
bounded fragment_css_scoped 0 200 30 '' -- \
	"$SDPERF" report "$EX" -o frag -f fragment -q --templates css
if grep -qE '\.sdperf-report *[~+]' frag/report.fragment.html; then
	bad fragment_sibling_selector "a selector reaches the root's siblings" \
		"$(grep -oE '\.sdperf-report *[~+][^{]*' frag/report.fragment.html | head -3)"
elif ! grep -qF '.sdperf-report > p { color: red }' frag/report.fragment.html; then
	bad fragment_sibling_selector "the user's child rule is missing"
else
	ok "fragment_sibling_selector: ~ * and + div dropped, > p scoped"
fi

# a FIFO given as PATH is refused at once, named for what it is
mkfifo path.fifo
bounded fifo_path 3 64 10 'path.fifo: not a regular file or folder' -- \
	timeout 10 "$SDPERF" report path.fifo -o fifo_path_out -f json
