#!/usr/bin/env bash
# The denoising iterations and the cache report end to end on generated
# profiles (sdperf-gen --cache, with ground truth): every iteration's
# kernel count, start and duration against the generator's own iterations,
# the hits against the truth's hit indices, the period, the saved time
# recomputed from the truth, the cache finding, and the section in every
# format (en, zh); a UNet denoiser's iterations and its name in every
# format.
# Usage: tests/iterations/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"
gen() { "$GEN" -o "$1" --seed 11 --steps 2 "${@:2}" 2>/dev/null ||
	bad "$1" "sdperf-gen ${*:2} failed"; }
report() { # PROFILE OUT ARGS...
	"$SDPERF" report "$1" -o "$2" -j 2 -q "${@:3}" 2>"$2.err" ||
		{ bad "$2" "sdperf report failed: $(head -3 "$2.err")"; return 1; }
}
# LABEL PROFILE REPORT_DIR: report.json's iterations against the truth
# (rank 0, the lead).
check() {
	if python3 - "$3/report.json" "$2/ground_truth/rank0.json" <<'PY' 2>"$1.err"; then
import json, sys
d = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))["iterations"]
it = d["iterations"]
def near(a, b, tol=0.0015):
    assert abs(a - b) <= tol, (a, b)
steps = len({x["step"] for x in t["list"]})
assert it["found"]
assert it["calls"] == steps, (it["calls"], steps)
assert it["total"] == len(t["list"]) == it["listed"], (it["total"], len(t["list"]))
hit_kind = {"none": None, "dit": "dit", "attention": "attention"}[t["cache"]]
full = []
for got, want in zip(it["list"], t["list"]):
    where = (want["step"], want["index"])
    assert got["step"] == want["step"] and got["index"] == want["index"], (got, want)
    assert got["kernels"] == want["kernels"], (where, got["kernels"], want["kernels"])
    near(got["start_us"], want["start_us"])
    near(got["duration_us"], want["duration_us"])
    hit = want["index"] in t["hits_per_step"]
    assert got["hit"] == (hit_kind if hit else None), (where, got["hit"])
    if not hit:
        full.append(want["duration_us"])
full.sort()
median = full[(len(full) - 1) // 2]
near(it["median_us"], median)
c = it["cache"]
assert c["kind"] == t["cache"], c
v = [x for x in d["verdicts"] if x["id"] == "cache"][0]
if t["cache"] == "none":
    assert c["hits"] == 0 and c["period"] is None
    near(v["value_pct"], it["loop_share_pct"], 0.001)
    assert v["applicable"] and v["fired"] == (it["loop_share_pct"] > 50)
else:
    assert c["hits"] == steps * len(t["hits_per_step"]), c
    assert c["period"] == t["period"] and c["regular"], c
    saved = sum(median - x["duration_us"] for x in t["list"]
                if x["index"] in t["hits_per_step"] and x["duration_us"] < median)
    near(c["saved_us"], saved, 0.01)
    assert not v["applicable"] and not v["fired"]
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$1.err")"
	fi
}

# No cache: every iteration in full; the loop dominates, the finding fires.
gen plain --iters 6 --blocks 6
report plain plain_r && check no_cache plain plain_r

# DiTCache, one full iteration in 3 (7 iterations: 0, 3, 6 in full).
gen dit --iters 7 --blocks 6 --cache dit:3
report dit dit_r && check ditcache dit dit_r

# AttentionCache, one in 2, on two video cards with Ulysses all-to-all:
# the collectives land among the iterations' kernels.
gen attn --iters 6 --blocks 6 --cache attention:2 --video --ranks 2 \
	--comm alltoall
report attn attn_r && check attention_cache_two_ranks attn attn_r

# AttentionCache with sparse attention and quantized linears (the
# attention's preparation and DynamicQuant kernels), one in 4.
gen sparse --iters 8 --blocks 5 --cache attention:4 --attention sparse --quant
report sparse sparse_r && check attention_cache_sparse_quant sparse sparse_r

# DiTCache after a VAE encode and the DiT's prologue (video-to-video).
gen v2v --iters 6 --blocks 4 --cache dit:2 --video --vae-encode \
	--dit-prologue broadcast --text-encoder clip
report v2v v2v_r && check ditcache_after_encode v2v v2v_r

# A UNet denoiser (SDXL-like): its iterations are found like a DiT's, and
# every format names the denoiser a UNet (report.json keeps the stage id
# dit and says stage_detection.denoiser "UNet", as the truth does).
gen unet --iters 5 --blocks 3 --denoiser unet --text-encoder clip
report unet unet_r -f json,html,md && check unet_iterations unet unet_r
report unet unet_zh --lang zh -f html,md,pdf
"$SDPERF" report unet -o unet_txt -j 2 -f json 2>/dev/null >unet.txt
python3 - unet_r unet_zh unet.txt unet/ground_truth/rank0.json <<'PY' && ok unet_named_in_every_format || bad unet_named_in_every_format
import json, sys
en, zh, txt, truth = sys.argv[1:5]
d = json.load(open(en + "/report.json"))
assert json.load(open(truth))["denoiser"] == "UNet"
assert d["stage_detection"]["denoiser"] == "UNet", d["stage_detection"]
assert d["stages"]["dit"]["kernel_time_us"] > 0 and "unet" not in d["stages"]
html = open(en + "/report.html").read()
assert "UNet (denoiser)" in html and "DiT (transformer)" not in html
assert "it is a UNet" in html
md = open(en + "/report.md").read()
assert "UNet (denoiser)" in md and "DiT (transformer)" not in md
zh_html = open(zh + "/report.html").read()
assert "UNet（去噪网络）" in zh_html and "DiT（Transformer）" not in zh_html
assert "UNet（去噪网络）" in open(zh + "/report.md").read()
t = open(txt).read()
assert "stage split  per step: UNet " in t and "denoiser        UNet (stage dit)" in t, t
PY

# The section in every format, en and zh; the terminal line.
report dit dit_zh --lang zh -f html,md,pdf
"$SDPERF" report dit -o dit_txt -j 2 -f json 2>/dev/null >dit.txt
python3 - dit_r dit_zh dit.txt <<'PY' && ok iterations_in_every_format || bad iterations_in_every_format
import sys
en, zh, txt = sys.argv[1:4]
html = open(en + "/report.html").read()
assert 'id="iterations"' in html and "A DiTCache is active: 8 of 14 iterations" in html
assert html.count('<polygon class="it-hit"') >= 8  # hits drawn as diamonds
assert '<circle class="it-full"' in html
assert "time since the first iteration (ms)" in html
# durations in sentences carry their unit and thousands separators
# (numfmt_duration): "saved 1,234.56 ms" or "10.127 s", never "10127.50 ms"
import re
saved = re.search(r"they saved ([^ ]+) (µs|ms|s)\.", html)
assert saved, "no unit after the saved time"
assert re.fullmatch(r"\d{1,3}(,\d{3})*(\.\d+)?", saved.group(1)), saved.group(0)
for m in re.finditer(r"(\d+)(\.\d+)? (µs|ms|s)\b", html):
    assert len(m.group(1)) <= 3, "a duration without separators: " + m.group(0)
md = open(en + "/report.md").read()
assert "## Denoising iterations" in md and "| ◆ cache hit |" in md and "| ● full iteration |" in md
zhtml = open(zh + "/report.html").read()
assert "去噪迭代" in zhtml and "DiTCache 已启用" in zhtml and "缓存命中" in zhtml
assert "DiTCache 已经启用" in zhtml  # the finding says why it does not apply
zmd = open(zh + "/report.md").read()
assert "## 去噪迭代" in zmd
t = open(txt).read()
assert "iterations: 14 in 2 calls" in t and "DiTCache 8 hits, one full iteration every 3" in t, t
assert re.search(r", saved \d{1,3}(,\d{3})*\.\d+ (µs|ms|s)\n", t), t
PY
pdftotext dit_zh/report.pdf dit_zh.txt 2>/dev/null &&
	grep -q "^去噪迭代$" dit_zh.txt && grep -q "缓存命中" dit_zh.txt &&
	ok pdf_section || bad pdf_section

finish
