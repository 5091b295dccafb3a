#!/usr/bin/env bash
# Branding and provenance end to end: --org, --logo, --customer, --ticket
# and --confidential in every format (escaped for each), the config file
# (--config, the user's own config folder, never ./sdperf.json unless
# named; the command line wins; bad
# keys, types and JSON are usage errors naming the file and key), bad
# logos refused before any input is read, and the "How this report was
# made" block: command line, rules and input SHA-256s checked against
# sha256sum, the capture time from profiler_info or the folder's name.
# Usage: tests/brand/run.sh SDPERF
sdperf=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/testlib.sh"
img=$root/examples/image-dit-1card
export SOURCE_DATE_EPOCH=1767225600

python3 - logo.png <<'PY'
import struct, sys, zlib
w, h = 30, 10
raw = b"".join(b"\0" + b"".join(bytes([x * 8 % 256, 60, y * 25 % 256])
                                for x in range(w)) for y in range(h))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" +
    chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
    chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY

# expect NAME CODE TEXT ARGS...: sdperf report ARGS exits CODE, stderr has TEXT
expect() {
	local name=$1 code=$2 text=$3 rc
	shift 3
	"$sdperf" report "$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" -eq "$code" ] && grep -qF -- "$text" err.txt; then
		ok "$name"
	else
		bad "$name" "exit $rc (want $code)" "$(cat err.txt)"
	fi
}

# --- every format shows the branding, escaped --------------------------
org='ACME <b>R&D</b> *x*'
conf='Confidential: <ACME> & Big|Co only'
"$sdperf" report "$img" -o all -q -j 2 --org "$org" --customer "Big|Co" \
	--ticket "T-42" --logo logo.png --confidential "$conf" &&
	ok report_branded || bad report_branded
grep -qF 'ACME &lt;b&gt;R&amp;D&lt;/b&gt; *x*' all/report.html &&
	! grep -qF '<b>R&D</b>' all/report.html &&
	ok html_org_escaped || bad html_org_escaped
b64=$(base64 -w0 logo.png)
grep -qF "src=\"data:image/png;base64,$b64\"" all/report.html &&
	ok html_logo_data_uri || bad html_logo_data_uri
grep -qF '<div class="confidential" role="note">Confidential: &lt;ACME&gt; &amp; Big|Co only</div>' \
	all/report.html && ok html_confidential || bad html_confidential
grep -qF 'ACME \<b>R&D\</b> \*x\*' all/report.md &&
	grep -qF '**Confidential: \<ACME> & Big\|Co only**' all/report.md &&
	ok md_escaped || bad md_escaped "$(grep -n 'ACME' all/report.md | head -3)"
# the branded Markdown still renders as it reads (tests/md's checker)
if cmark=$(command -v cmark-gfm); then
	python3 "$root/tests/md/check_md.py" "$cmark" all/report.md >md.txt &&
		ok md_renders || bad md_renders "$(cat md.txt)"
else
	bad md_renders "cmark-gfm is missing: run tools/setup.sh test"
fi
python3 - all/report.json "$org" "$conf" "$(sha256sum logo.png | cut -c1-64)" <<'PY' &&
import json, sys
b = json.load(open(sys.argv[1]))["branding"]
assert b["org"] == sys.argv[2] and b["confidential"] == sys.argv[3], b
assert b["customer"] == "Big|Co" and b["ticket"] == "T-42", b
assert b["logo"]["type"] == "image/png" and b["logo"]["sha256"] == sys.argv[4], b
PY
	ok json_branding || bad json_branding
pages=$(pdfinfo all/report.pdf | awk '/^Pages:/ {print $2}')
n=0
for p in $(seq 1 "$pages"); do
	pdftotext -f "$p" -l "$p" all/report.pdf page.txt
	grep -qF "$conf" page.txt && n=$((n + 1))
done
[ "$n" -eq "$pages" ] && ok pdf_confidential_every_page ||
	bad pdf_confidential_every_page "$n of $pages pages"
imgs=$(pdfimages -list all/report.pdf | awk 'NR > 2 && $3 == "image"' | wc -l)
[ "$imgs" -eq "$pages" ] && ok pdf_logo_every_page ||
	bad pdf_logo_every_page "$imgs images on $pages pages"
pdftotext all/report.pdf all.txt
grep -qF "$org" all.txt && ok pdf_org || bad pdf_org
"$sdperf" report "$img" -o term -j 2 -f json --org "$org" --customer "$(printf 'x\xff')" \
	>term.txt 2>&1
grep -qF -- "--customer: not valid UTF-8" term.txt && ok invalid_utf8_refused ||
	bad invalid_utf8_refused "$(cat term.txt)"
"$sdperf" report "$img" -o term -j 2 -f json --org "$org" >term.txt 2>&1
grep -qF "$org" term.txt && ok terminal_org || bad terminal_org
"$sdperf" report "$img" -o term -j 2 -f json --confidential "$(printf 'C\033]0;x')" \
	>term.txt 2>&1
# control characters are refused in the config's and options' texts
grep -qF -- "--confidential: a control character (byte 0x1b)" term.txt &&
	ok control_character_refused || bad control_character_refused "$(cat term.txt)"
"$sdperf" report "$img" -o term -j 2 -f json --confidential "C only" >term.txt &&
	grep -qx "C only" term.txt && ok terminal_confidential ||
	bad terminal_confidential "$(tail -5 term.txt)"

# the HTML printed (Chromium): the line at the foot of every page, and
# text that could end a CSS string or the <style> stays text
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	bad html_print_confidential "chromium is missing: run tools/setup.sh test"
else
	hostile='Confidential "x" \ </style><b>y</b>'
	"$sdperf" report "$img" -o pr -q -j 2 -f html --confidential "$hostile"
	timeout 300 "$chromium" --headless --no-sandbox --disable-gpu \
		--no-pdf-header-footer --print-to-pdf="$T/pr.pdf" \
		"file://$T/pr/report.html" >/dev/null 2>&1
	pages=$(pdfinfo pr.pdf 2>/dev/null | awk '/^Pages:/ {print $2}')
	n=0
	for p in $(seq 1 "${pages:-0}"); do
		pdftotext -f "$p" -l "$p" pr.pdf page.txt
		grep -qF "$hostile" page.txt && n=$((n + 1))
	done
	[ "${pages:-0}" -gt 1 ] && [ "$n" -eq "$pages" ] &&
		ok html_print_confidential_every_page ||
		bad html_print_confidential_every_page "$n of ${pages:-0} pages"
fi

# --- the logo: checked before any input is read ------------------------
printf 'GIF89a......' >gif.png
expect logo_not_png_or_jpeg 2 "--logo 'gif.png': not a PNG or JPEG image" \
	/nonexistent -o x --logo gif.png
head -c 40 logo.png >trunc.png
expect logo_truncated_png 2 "--logo 'trunc.png': truncated: no IEND chunk" \
	/nonexistent -o x --logo trunc.png
{ cat logo.png; head -c 1100000 /dev/zero; } >big.png
expect logo_too_big 2 "--logo 'big.png': " /nonexistent -o x --logo big.png
grep -qF "at most 1048576" err.txt && ok logo_too_big_says_limit ||
	bad logo_too_big_says_limit "$(cat err.txt)"
expect logo_missing 2 "--logo 'nope.png': no such file" /nonexistent -o x --logo nope.png
# image data libpng would abort on (libharu sets it no recovery point),
# under sound CRCs: refused by the check, not decoded in a child process;
# a colour profile that libpng warns of (libharu takes that for an
# error) is left out of the PDF's copy
python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
def png(name, raw, extra=b""):
    open(name, "wb").write(b"\x89PNG\r\n\x1a\n" +
        chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 2, 0, 0, 0)) + extra +
        chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
row = bytes(12)
png("filter.png", (b"\0" + row) * 2 + b"\7" + row)
png("short.png", (b"\0" + row) * 2)
png("iccp.png", (b"\0" + row) * 3, chunk(b"iCCP", b"x\0\0not a profile"))
PY
expect logo_bad_filter 2 "--logo 'filter.png': IDAT: row 3 has filter type 7" \
	/nonexistent -o x --logo filter.png
expect logo_short_data 2 "--logo 'short.png': IDAT: 26 bytes of image data, short of the 39" \
	/nonexistent -o x --logo short.png
"$sdperf" report "$img" -o iccp -q -f pdf --logo iccp.png 2>err.txt &&
	[ "$(pdfimages -list iccp/report.pdf | grep -c ' image ')" -ge 1 ] &&
	ok logo_iccp_left_out || bad logo_iccp_left_out "$(cat err.txt)"
# a real JPEG (poppler renders one) is drawn too
pdftoppm -jpeg -r 10 -f 1 -l 1 all/report.pdf page && mv page-*1.jpg logo.jpg
"$sdperf" report "$img" -o jpeg -q -j 2 -f pdf,html --logo logo.jpg &&
	[ "$(pdfimages -list jpeg/report.pdf | awk 'NR > 2' | head -1 | awk '{print $9}')" = jpeg ] &&
	grep -qF 'src="data:image/jpeg;base64,' jpeg/report.html &&
	ok logo_jpeg || bad logo_jpeg

# --- the config file ---------------------------------------------------
mkdir -p cfg/sub
cp logo.png cfg/sub/
printf '{"org": "Cfg Org", "ticket": "CFG-1", "logo": "sub/logo.png",\n "confidential": "from cfg"}\n' >cfg/c.json
"$sdperf" report "$img" -o c1 -q -f json --config cfg/c.json --ticket CLI-9 &&
	python3 - c1/report.json <<'PY' && ok config_and_command_line || bad config_and_command_line
import json, sys
b = json.load(open(sys.argv[1]))["branding"]
assert b["org"] == "Cfg Org" and b["confidential"] == "from cfg", b
assert b["ticket"] == "CLI-9", b          # the command line wins
assert b["logo"] is not None, b           # relative to the file's folder
PY
# a ./sdperf.json or ./.sdperf.json (a received profile may hold one) is
# not read, only noted; the user's own config folder is
mkdir -p cwd home xdg/sdperf && cd cwd
printf '{"customer": "Dot Co"}' >.sdperf.json
HOME="$T/home" XDG_CONFIG_HOME= "$sdperf" report "$img" -o ../c2 -q -f json 2>err.txt &&
	grep -qF '"customer":	null' ../c2/report.json &&
	grep -qF 'sdperf: note: ./.sdperf.json not read' err.txt && ok dot_sdperf_json_not_read ||
	bad dot_sdperf_json_not_read "$(grep -F customer ../c2/report.json; cat err.txt)"
printf '{"customer": "Plain Co"}' >sdperf.json
HOME="$T/home" "$sdperf" report "$img" -o ../c3 -q -f json --config sdperf.json &&
	grep -qF '"customer":	"Plain Co"' ../c3/report.json && ok sdperf_json_named ||
	bad sdperf_json_named
printf '{"customer": "Xdg Co"}' >../xdg/sdperf/config.json
XDG_CONFIG_HOME="$T/xdg" "$sdperf" report "$img" -o ../c4 -q -f json 2>err.txt &&
	grep -qF '"customer":	"Xdg Co"' ../c4/report.json &&
	grep -qF 'pass --config ./sdperf.json to use it' err.txt && ok xdg_config ||
	bad xdg_config "$(grep -F customer ../c4/report.json; cat err.txt)"
cp ../xdg/sdperf/config.json ../home/x.json && mkdir -p ../home/.config/sdperf &&
	mv ../home/x.json ../home/.config/sdperf/config.json
HOME="$T/home" XDG_CONFIG_HOME=relative "$sdperf" report "$img" -o ../c5 -q -f json &&
	grep -qF '"customer":	"Xdg Co"' ../c5/report.json && ok home_config ||
	bad home_config "$(grep -F customer ../c5/report.json)"
rm ../home/.config/sdperf/config.json
export HOME="$T/home"
printf '{"customer": "A", "costumer": "B"}' >sdperf.json
expect config_unknown_key 2 "sdperf.json: key 'costumer': unknown key" "$img" -o ../x --config sdperf.json
printf '{"ticket": 42}' >sdperf.json
expect config_wrong_type 2 "sdperf.json: key 'ticket': expected a string, got a number" "$img" -o ../x --config sdperf.json
printf '{"org": "a", "org": "b"}' >sdperf.json
expect config_duplicate_key 2 "sdperf.json: key 'org': given twice" "$img" -o ../x --config sdperf.json
printf '{\n  "org": "a",\n}' >sdperf.json
expect config_bad_json 2 "sdperf.json:3:1: invalid JSON" "$img" -o ../x --config sdperf.json
printf '["org"]' >sdperf.json
expect config_not_object 2 "sdperf.json: expected a JSON object" "$img" -o ../x --config sdperf.json
printf '{"logo": "missing.png"}' >sdperf.json
expect config_bad_logo 2 "sdperf.json: key 'logo' 'missing.png': no such file" "$img" -o ../x --config sdperf.json
# a malformed ./sdperf.json that is not named is no reason to fail
expect config_unnamed_malformed 0 "./sdperf.json not read" "$img" -o ../x -f json
cd ..
expect config_missing 2 "nope.json: cannot" "$img" -o x --config nope.json

# --- provenance ----------------------------------------------------------
cp -r "$img/synth-node_1000_20260512095011733_ascend_pt" .
rm synth-node_1000_20260512095011733_ascend_pt/profiler_info.json
printf '{"extends": "builtin"}' >rules.json
"$sdperf" report synth-node_1000_20260512095011733_ascend_pt -o prov -q -f json,md \
	--rules rules.json --title "it's" -j 2 &&
	python3 - prov/report.json "$root/assets/rules.json" <<'PY' && ok provenance_json || bad provenance_json
import hashlib, json, os, sys
p = json.load(open(sys.argv[1]))["provenance"]
h = lambda f: hashlib.sha256(open(f, "rb").read()).hexdigest()
assert p["command_line"] == ("sdperf report synth-node_1000_20260512095011733_ascend_pt"
    " -o prov -q -f json,md --rules rules.json --title 'it'\\''s'"), p["command_line"]  # -j: left out
assert p["rules"] == {"source": "rules.json + built-in", "sha256": h("rules.json")}, p["rules"]
names = [i["file"] for i in p["inputs"]]
assert names == ["kernel_details.csv", "trace_view.json", "step_trace_time.csv"], names
for i in p["inputs"]:
    assert i["sha256"] == h(i["path"]) and i["bytes"] == os.path.getsize(i["path"]), i
assert p["captured"] == "2026-05-12T09:50:11" and p["captured_from"] == "folder", p
PY
grep -qF "Captured: 2026-05-12 09:50 (rank folder's name: the capturing host's clock)" prov/report.md &&
	ok provenance_md_captured_folder || bad provenance_md_captured_folder
"$sdperf" report "$img" -o prov2 -q -f json -j 2 &&
	python3 - prov2/report.json "$root/assets/rules.json" <<'PY' && ok provenance_profiler_info || bad provenance_profiler_info
import hashlib, json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert p["rules"]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert p["captured_from"] == "profiler_info" and p["captured"].endswith("Z"), p
assert p["inputs"][0]["file"] == "profiler_info.json", p["inputs"]
PY
finish
