# Smaller defects (issue 11, defect 9): a 64 KiB --title, a missing
# --templates folder, an unreadable ASCEND_PROFILER_OUTPUT/, step totals
# of 0, a gzip file with a bad CRC or cut short. Each must be told as what
# it is.
EX="$ROOT/examples/image-dit-1card"
"$GEN" -o prof --steps 2 --iters 2 --blocks 2 --no-truth --lf 2>/dev/null
OUT=$(ls -d prof/*/ASCEND_PROFILER_OUTPUT)

# --- --title: bounded at 1 KiB (libharu refused 64 KiB: 0x105B, exit 70)
big=$(head -c 65536 /dev/zero | tr '\0' T)
bounded title_64k 2 200 30 '--title: 65536 bytes, at most 1024' -- \
	"$SDPERF" report "$EX" -o out_title -q --title "$big"
# the longest accepted title, in Chinese (3 bytes a character), renders
cjk=$(for _ in $(seq 341); do printf '标'; done)
bounded title_1k 0 300 60 '' -- \
	"$SDPERF" report "$EX" -o out_title1k -q --lang zh --title "$cjk"
if qpdf --check out_title1k/report.pdf >/dev/null 2>&1 &&
	grep -q "<title>$cjk</title>" out_title1k/report.html; then
	ok "title_1k: a 1023-byte Chinese title in every report, the PDF valid"
else
	bad title_1k "the title is not in report.html or the PDF is invalid"
fi

# --- a --templates folder that is not there is an error, not ignored --
bounded templates_missing 2 200 30 "--templates 'no/such/dir': no such directory" -- \
	"$SDPERF" report "$EX" -o out_tpl -q --templates no/such/dir

# --- an ASCEND_PROFILER_OUTPUT/ sdperf may not read --------------------
# Permissions do not bind root: as root the run is made as nobody, in a
# folder nobody can reach.
pub=$(mktemp -d /tmp/sdperf-hostile.XXXXXX)
chmod 755 "$pub"
cp -r prof "$pub/perm"
mkdir -m 777 "$pub/out"
chmod -R a+rX "$pub/perm"
chmod 000 "$pub"/perm/*/ASCEND_PROFILER_OUTPUT
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
bounded unreadable_output 3 200 30 'ASCEND_PROFILER_OUTPUT: cannot read the folder: Permission denied' -- \
	"${as_user[@]}" "$SDPERF" report "$pub/perm" -o "$pub/out/o" -q
grep -q 'export_type=db' "$T/unreadable_output.err" &&
	bad unreadable_output "still guesses a db-only export"
chmod -R u+rwX "$pub"
rm -rf "$pub"

# --- step totals of 0: not "no step_trace_time.csv" -------------------
cp -r prof steps0
python3 - steps0/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv <<'EOF'
import sys
p = sys.argv[1]
rows = open(p).read().splitlines()
head = rows[0].split(',')
zero = [head.index(c) for c in ('Computing', 'Communication(Not Overlapped)', 'Free')]
out = [rows[0]]
for r in rows[1:]:
    c = r.split(',')
    for i in zero:
        c[i] = '0'
    out.append(','.join(c))
open(p, 'w').write('\n'.join(out) + '\n')
EOF
bounded step_totals 0 200 30 '' -- "$SDPERF" report steps0 -o out_steps -f json,md,html
if grep -q 'no step_trace_time.csv' "$T/step_totals.out"; then
	bad step_totals "reported as a missing step_trace_time.csv" \
		"$(grep host_bound "$T/step_totals.out")"
elif grep -q "n/a: step_trace_time.csv: no step's Computing + Communication(Not Overlapped) + Free is above 0" \
	"$T/step_totals.out" &&
	grep -q 'step_trace_time.csv has no step whose Computing' out_steps/report.html; then
	ok "step_totals: the summary and the report say the totals are 0"
else
	bad step_totals "no reason given" "$(grep host_bound "$T/step_totals.out")"
fi

# --- gzip: a bad CRC, a file cut short --------------------------------
cp -r prof crc
gzip crc/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv
python3 - crc/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz <<'EOF'
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
d[-8] ^= 0xFF  # the first byte of the trailer's CRC-32
open(p, 'wb').write(bytes(d))
EOF
size=$(stat -c %s crc/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz)
raw=$(stat -c %s "$OUT/kernel_details.csv")
bounded gzip_crc 3 200 30 "kernel_details.csv.gz: corrupt gzip data at compressed byte $((size - 4)) of $size, after $raw bytes inflated: incorrect data check" -- \
	"$SDPERF" report crc -o out_crc -q
grep -q '<fd:' "$T/gzip_crc.err" && bad gzip_crc "zlib's <fd:N> instead of the file name"

cp -r prof cut
gzip cut/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv
f=$(ls cut/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv.gz)
head -c 20000 "$f" >cut.gz && mv cut.gz "$f"
bounded gzip_cut 3 200 30 'gzip data ends early (truncated file) at compressed byte 20000' -- \
	"$SDPERF" report cut -o out_cut -q
