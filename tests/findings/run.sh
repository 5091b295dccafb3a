#!/usr/bin/env bash
# The findings on whole stages (vae_parallel, text_encoder: the stage's
# share of end to end) and the VAE split, end to end on generated profiles
# (sdperf-gen, with ground truth): the values against the truth joined
# with kernel_details.csv row by row, firing and not firing, and the split
# in every format.
# Usage: tests/findings/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
gen() { "$GEN" -o "$1" --seed 7 --steps 2 "${@:2}" 2>/dev/null; }
report() { # PROFILE OUT ARGS...
	"$SDPERF" report "$1" -o "$2" -j 2 -q "${@:3}" 2>"$2.err" ||
		{ bad "$2" "sdperf report failed: $(head -3 "$2.err")"; return 1; }
}
# LABEL PROFILE REPORT_DIR CODE: CODE runs with d = report.json,
# truth = per stage {"wall", "kernel", "groupnorm"} (µs) from the ground
# truth's stage of each kernel_details.csv row (one rank), v(id) = verdict
check() {
	if CODE="$4" python3 - "$3/report.json" "$2" <<'PY' 2>"$1.err"; then
import csv, fnmatch, glob, json, os, sys
d = json.load(open(sys.argv[1]))
prof = sys.argv[2]
kd = glob.glob(os.path.join(prof, "*", "ASCEND_PROFILER_OUTPUT", "kernel_details.csv"))[0]
lab = list(csv.DictReader(open(os.path.join(prof, "ground_truth", "rank0.kernels.csv"))))
rows = []
for k, t in zip(csv.DictReader(open(kd, newline="")), lab):
    rows.append((float(k["Start Time(us)"].strip()), float(k["Duration(us)"]),
                 k["Step Id"], t["stage"], t["category"], k["Type"]))
rows.sort()
truth = {}
seg = None  # (stage, step, first start, last end)
def close(seg):
    if seg:
        truth.setdefault(seg[0], {"wall": 0, "kernel": 0, "groupnorm": 0})["wall"] += seg[3] - seg[2]
for st, du, step, stage, cat, typ in rows:
    if not seg or seg[0] != stage or seg[1] != step:
        close(seg)
        seg = [stage, step, st, st + du]
    seg[3] = max(seg[3], st + du)
    t = truth.setdefault(stage, {"wall": 0, "kernel": 0, "groupnorm": 0})
    t["kernel"] += du
    if cat == "Vector" and fnmatch.fnmatch(typ.lower(), "*groupnorm*"):
        t["groupnorm"] += du
close(seg)
busy = sum(t["wall"] for t in truth.values())
def share(stage):
    return 100 * truth[stage]["wall"] / busy
def near(a, b, tol=0.0015):
    assert abs(a - b) <= tol, (a, b)
def v(i):
    return [x for x in d["verdicts"] if x["id"] == i][0]
exec(os.environ["CODE"])
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$1.err")"
	fi
}

# A short video pipeline (3 iterations of 4 blocks): the VAE is most of
# end to end, the CLIP text encoder little. The split: Conv and attention
# are the VAE's Conv and FA categories, GroupNorm its *GroupNorm* Vector
# kernels, the four add up to the VAE's kernel time.
gen video --video --iters 3 --blocks 4 --text-encoder clip
report video video_r
check video_vae_fires video video_r '
near(v("vae_parallel")["value_pct"], share("vae"))
assert v("vae_parallel")["fired"] and share("vae") > 30, share("vae")
assert v("vae_parallel")["docs"] == ["parallelism"]
near(v("text_encoder")["value_pct"], share("text_encoder"))
assert not v("text_encoder")["fired"] and v("text_encoder")["applicable"]
s = d["stages"]["vae"]["split"]
c = d["stages"]["vae"]["categories"]
near(s["conv"]["time_us"], c["Conv"]["time_us"], 0.001)
near(s["attention"]["time_us"], c["FA"]["time_us"], 0.001)
near(s["groupnorm"]["time_us"], truth["vae"]["groupnorm"], 0.01)
assert s["groupnorm"]["time_us"] > 0
near(sum(p["time_us"] for p in s.values()), d["stages"]["vae"]["kernel_time_us"], 0.01)
near(sum(p["share_pct"] for p in s.values()), 100, 0.01)
'

# The image pipeline with a realistic loop (20 iterations of 8 blocks):
# the DiT dominates, neither finding fires.
gen image --iters 20 --blocks 8 --text-encoder t5
report image image_r
check image_nothing_fires image image_r '
near(v("vae_parallel")["value_pct"], share("vae"))
near(v("text_encoder")["value_pct"], share("text_encoder"))
assert not v("vae_parallel")["fired"] and not v("text_encoder")["fired"]
assert v("vae_parallel")["applicable"] and v("text_encoder")["applicable"]
'

# The same image pipeline with a toy loop (3 iterations of 4 blocks): the
# T5 encoder is a large share of the little there is, and fires.
gen toy --iters 3 --blocks 4 --text-encoder t5
report toy toy_r
check toy_text_encoder_fires toy toy_r '
near(v("text_encoder")["value_pct"], share("text_encoder"))
assert v("text_encoder")["fired"] and share("text_encoder") > 10, share("text_encoder")
assert v("text_encoder")["docs"] == ["quantization", "cpu_offload"]
'

# No text encoder: the finding has no value.
gen note --iters 3 --blocks 4 --text-encoder none
report note note_r
check no_text_encoder_not_applicable note note_r '
t = v("text_encoder")
assert not t["applicable"] and t["value_pct"] is None and not t["fired"]
'

# The split and the findings in the documents, en and zh; lower
# thresholds (-t) make the text encoder fire in the video too.
report video video_zh --lang zh -t text_encoder=0.01
python3 - video_r video_zh <<'PY' && ok split_in_every_format || bad split_in_every_format
import sys
en, zh = sys.argv[1:3]
html = open(en + "/report.html").read()
assert 'class="vae-split' in html and "VAE time by part" in html
assert html.count('class="vae-split') == 1  # the VAE only
assert 'id="verdict-vae_parallel"' in html
md = open(en + "/report.md").read()
assert "#### VAE time by part" in md and "| GroupNorm |" in md
zhtml = open(zh + "/report.html").read()
assert "VAE 时间按部分划分" in zhtml and "注意力（FA）" in zhtml
assert "文本编码器占端到端时间的比例很大" in zhtml
import json
d = json.load(open(zh + "/report.json"))
assert [x for x in d["verdicts"] if x["id"] == "text_encoder"][0]["fired"]
PY
"$SDPERF" report video -o video_pdf -f pdf -q -j 2 2>/dev/null &&
	pdftotext video_pdf/report.pdf video_pdf.txt 2>/dev/null &&
	grep -q "^VAE time by part$" video_pdf.txt &&
	ok pdf_with_split || bad pdf_with_split

finish
