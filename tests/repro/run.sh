#!/usr/bin/env bash
# Reproducible reports: the same command on the same inputs, run twice
# with SOURCE_DATE_EPOCH set, writes byte-identical files in every format
# (report.json, .html, .md, .pdf) and the same terminal summary, branded
# (logo, organisation, confidentiality line) and not, in English and
# Chinese, one card and four. And the checks can fail: another
# SOURCE_DATE_EPOCH changes every format, and without it the generation
# time is the clock's.
# Usage: tests/repro/run.sh SDPERF
sdperf=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/testlib.sh"

python3 - logo.png <<'PY'
import struct, sys, zlib
w, h = 24, 12
raw = b"".join(b"\0" + b"".join(bytes([x * 10 % 256, y * 20 % 256, 90])
                                for x in range(w)) for y in range(h))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" +
    chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
    chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY

FILES="report.json report.html report.md report.pdf stdout"

# run NAME EPOCH ARGS...: the command, run in ./out, its files moved to
# ./NAME (so a second run is the very same command line)
run() {
	local name=$1 epoch=$2
	shift 2
	rm -rf out "$name"
	if [ -n "$epoch" ]; then
		SOURCE_DATE_EPOCH=$epoch "$sdperf" report "$@" -o out -j 2 >stdout
	else
		env -u SOURCE_DATE_EPOCH "$sdperf" report "$@" -o out -j 2 >stdout
	fi || return 1
	mv out "$name" && mv stdout "$name/stdout"
}

# same A B: every file identical
same() {
	local f
	for f in $FILES; do
		cmp -s "$1/$f" "$2/$f" || { echo "$f differs"; return 1; }
	done
}

# differ A B: every file differs
differ() {
	local f
	for f in $FILES; do
		cmp -s "$1/$f" "$2/$f" && { echo "$f is the same"; return 1; }
	done
	return 0
}

brand=(--org "ACME <R&D>" --customer "Big Co" --ticket "T-42" --logo logo.png
	--confidential "Confidential: ACME and Big Co only")
cases=("img-en|$root/examples/image-dit-1card|en|b"
	"img-zh|$root/examples/image-dit-1card|zh|"
	"v4-en|$root/examples/video-dit-4card|en|b"
	"v4-zh|$root/examples/video-dit-4card|zh|b")
for c in "${cases[@]}"; do
	IFS='|' read -r name input lang b <<<"$c"
	extra=()
	[ -n "$b" ] && extra=("${brand[@]}")
	if run "$name-1" 1767225600 "$input" --lang "$lang" "${extra[@]}" &&
		run "$name-2" 1767225600 "$input" --lang "$lang" "${extra[@]}" &&
		msg=$(same "$name-1" "$name-2"); then
		ok "identical_$name"
	else
		bad "identical_$name" "${msg:-sdperf failed}"
	fi
	# the test can fail: another date reaches every format
	if run "$name-3" 1767312000 "$input" --lang "$lang" "${extra[@]}" &&
		msg=$(differ "$name-1" "$name-3"); then
		ok "date_reaches_every_format_$name"
	else
		bad "date_reaches_every_format_$name" "${msg:-sdperf failed}"
	fi
done

# the PDF's metadata carries SOURCE_DATE_EPOCH (2026-01-01), not the clock
if pdfinfo -isodates img-en-1/report.pdf | grep -q '^CreationDate: *2026-01-01T00:00:00'; then
	ok pdf_creation_date
else
	bad pdf_creation_date "$(pdfinfo -isodates img-en-1/report.pdf | grep -i date)"
fi

# without SOURCE_DATE_EPOCH the generation time is the clock's
before=$(date +%s)
run clock "" "$root/examples/image-dit-1card" -f json -q
after=$(date +%s)
if python3 - clock/report.json "$before" "$after" <<'PY'; then
import calendar, json, sys, time
p = json.load(open(sys.argv[1]))["provenance"]
t = calendar.timegm(time.strptime(p["generated"], "%Y-%m-%dT%H:%M:%SZ"))
assert p["generated_from"] == "clock", p
assert int(sys.argv[2]) <= t <= int(sys.argv[3]), (t, sys.argv[2:])
PY
	ok generated_from_clock
else
	bad generated_from_clock
fi
if python3 - img-en-1/report.json <<'PY'; then
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert p["generated"] == "2026-01-01T00:00:00Z", p["generated"]
assert p["generated_from"] == "SOURCE_DATE_EPOCH", p
PY
	ok generated_from_source_date_epoch
else
	bad generated_from_source_date_epoch
fi
finish
