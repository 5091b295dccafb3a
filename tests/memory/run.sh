#!/usr/bin/env bash
# Device memory end to end (issue 13 §3): which source a rank's memory
# comes from when the profile has several (memory_record.csv, the db's
# MEMORY_RECORD and NPU_MEM, the trace's NPU MEM counters,
# operator_memory.csv, npu_module_mem.csv), as report.json
# (memory.source, ranks[].memory.source), the HTML and Markdown reports
# (en, zh), the PDF and the terminal summary say it; a trace-only profile
# with NPU MEM counters; bad operator_memory.csv rows as a warning.
# Rank folders are assembled here from the real samples (tests/data).
# With GEN (sdperf-gen), a generated run written both ways (--export both
# --memory): the text export and the db give the same two figures, the
# generator's truth.
# Usage: tests/memory/run.sh SDPERF [GEN]
SDPERF=$(realpath "$1")
GEN=${2:+$(realpath "$2")}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=$ROOT/tests/data/samples
AX=$S/msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
G0=$S/msinsight-gpt3-testdata-2023/test_rank_0/ASCEND_PROFILER_OUTPUT
DB=$S/msinsight-alexnet-2rank-2025-db/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

# folder NAME FILE... : a rank folder NAME/ASCEND_PROFILER_OUTPUT with
# copies of the FILEs
folder() {
	local name=$1
	shift
	mkdir -p "$name/ASCEND_PROFILER_OUTPUT"
	cp "$@" "$name/ASCEND_PROFILER_OUTPUT/"
}

# source NAME PATH SOURCE PEAK_MB [ARGS...] : report.json's memory.source
# and its rank's are SOURCE, the peak is PEAK_MB
source_is() {
	local name=$1 path=$2 src=$3 peak=$4
	shift 4
	if ! "$SDPERF" report "$path" -o "out_$name" -q -f json "$@" \
		2>"$T/.err"; then
		bad "$name" "failed" "$(head -3 "$T/.err")"
		return
	fi
	if python3 - "out_$name/report.json" "$src" "$peak" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
m, src, peak = d["memory"], sys.argv[2], float(sys.argv[3])
assert m["known"] and m["source"] == src and m["sources"] == [src], m
assert abs(m["peak_mb"] - peak) < 5e-4, (m["peak_mb"], peak)
assert [r["memory"]["source"] for r in d["ranks"]] == [src], d["ranks"]
PY
		ok "$name"
	else
		bad "$name" "memory source or peak, expected $src $peak"
	fi
}

# The expected peaks, in MB as report.json rounds them (3 decimals),
# were worked out with Python apart from sdperf (tests/unit/test_memsrc.c
# and test_memory.c name the one-offs): memory_record.csv's APP peak
# 2116.09375 MB; the trace's APP/Memory (HBM + DDR) 2166880 KB = 2116.094 MB
# (its APP/HBM alone 2099200 KB = 2050 MB: not the process's figure);
# operator_memory.csv's reserved 1228.0 MB; npu_module_mem.csv's APP
# 25750.0 MB; the db's MEMORY_RECORD reserved 1600913408 B = 1526.75 MB,
# its NPU_MEM app hbm 2212081664 B = 2109.605 MB.

# ---- text folders --------------------------------------------------------
folder all "$AX/kernel_details.csv" "$AX/trace_view.json.gz" \
	"$AX/memory_record.csv.gz" "$AX/operator_memory.csv.gz"
source_is prefers_memory_record all memory_record.csv 2116.094

# without memory_record.csv: a trace read with its kernels gives no
# counters (one pass is not spent on them), so operator_memory.csv
folder noreq "$AX/kernel_details.csv" "$AX/trace_view.json.gz" \
	"$AX/operator_memory.csv.gz"
source_is then_operator_memory noreq operator_memory.csv 1228.0

folder modules "$G0/kernel_details.csv" "$G0/npu_module_mem.csv"
source_is then_npu_module_mem modules npu_module_mem.csv 25750.0

# ---- trace-only profiles -------------------------------------------------
folder tonly "$AX/trace_view.json.gz" "$AX/operator_memory.csv.gz"
source_is trace_counters tonly "trace_view.json:NPU MEM" 2116.094
source_is trace_file_alone "$AX/trace_view.json.gz" \
	"trace_view.json:NPU MEM" 2116.094
folder trec "$AX/trace_view.json.gz" "$AX/memory_record.csv.gz" \
	"$AX/operator_memory.csv.gz"
source_is trace_with_memory_record trec memory_record.csv 2116.094

# ---- the db export -------------------------------------------------------
# the db has both figures (issue 22 §1): MEMORY_RECORD the framework's
# allocator (reserved 1526.75 MB), NPU_MEM the device memory the process
# used (2109.605 MB); the peak, and memory_headroom's share, is the device's
"$SDPERF" report "$DB" -o out_db_both -q -f json --device-memory 4 2>"$T/.err"
python3 - out_db_both/report.json <<'PY' && ok db_both_figures || bad db_both_figures "$(head -3 "$T/.err")"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
assert m["sources"] == ["db:MEMORY_RECORD", "db:NPU_MEM"], m
assert m["framework_source"] == "db:MEMORY_RECORD", m
assert m["device_source"] == "db:NPU_MEM", m
assert abs(m["peak_reserved_mb"] - 1526.75) < 5e-4, m
assert abs(m["peak_device_mb"] - 2109.605) < 5e-4, m
assert abs(m["peak_mb"] - 2109.605) < 5e-4 and m["peak_basis"] == "device", m
# 2212081664 B of a 4 GiB card
assert abs(m["peak_share_pct"] - 100 * 2212081664 / 4 / 2**30) < 1e-3, m
r = d["ranks"][0]["memory"]
assert r["framework_source"] == "db:MEMORY_RECORD" and r["device_source"] == "db:NPU_MEM", r
PY
python3 - "$DB" nompr.db <<'PY' || bad db_copy "could not copy the db"
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
c = sqlite3.connect(sys.argv[2])
c.execute("DROP TABLE MEMORY_RECORD")
c.commit()
PY
source_is db_npu_mem nompr.db db:NPU_MEM 2109.605

# ---- every format names the source ----------------------------------------
for lang in en zh; do
	if ! "$SDPERF" report tonly -o "out_fmt_$lang" -q -l "$lang" \
		-f json,html,md,pdf 2>"$T/.err"; then
		bad "formats_$lang" "failed" "$(head -3 "$T/.err")"
		continue
	fi
	want="From trace_view.json:NPU MEM"
	[ "$lang" = zh ] && want="来自 trace_view.json:NPU MEM"
	for f in html md; do
		# as it is in Markdown too: an underscore inside a word needs no
		# backslash
		if grep -qF "$want" "out_fmt_$lang/report.$f"; then
			ok "${f}_$lang"
		else
			bad "${f}_$lang" "no '$want' in report.$f"
		fi
	done
	if command -v pdftotext >/dev/null; then
		pdftotext "out_fmt_$lang/report.pdf" - 2>/dev/null | tr -s ' \n' ' ' \
			>"$T/pdf.txt"
		if grep -qF "trace_view.json:NPU MEM" "$T/pdf.txt"; then
			ok "pdf_$lang"
		else
			bad "pdf_$lang" "the PDF does not name the source"
		fi
	fi
done
if "$SDPERF" report tonly -o out_term -f json 2>/dev/null |
	grep -q "^memory: peak 2.07 GB.*; from trace_view.json:NPU MEM$"; then
	ok terminal
else
	bad terminal "the summary's memory line does not name the source"
fi

# ---- hostile operator_memory.csv ------------------------------------------
folder hostile "$G0/kernel_details.csv"
{
	printf 'Name,Size(KB),Allocation Time(us),Release Time(us),'
	printf 'Allocation Total Allocated(MB),Allocation Total Reserved(MB),'
	printf 'Release Total Allocated(MB),Release Total Reserved(MB)\n'
	printf 'a,64,100,200,1.0,300.0,0.5,300.0\n'
	printf 'b,64,100,200,1.0,9e99,0.5,300.0\n'
	printf 'c,64,100,200,1.0\n'
} >hostile/ASCEND_PROFILER_OUTPUT/operator_memory.csv
if "$SDPERF" report hostile -o out_hostile -q -f json 2>"$T/.err" &&
	python3 - out_hostile/report.json \
		"hostile/ASCEND_PROFILER_OUTPUT/operator_memory.csv" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
w = [w for w in d["warnings"] if w["code"] == "memory_bad_rows"]
assert len(w) == 1, d["warnings"]
w = w[0]
assert w["file"] == sys.argv[2] and w["line"] == 3, w
assert "2 of 3 memory rows skipped; the first: column 6 " \
    "'Allocation Total Reserved(MB)': not a size in MB: '9e99'" \
    in w["message"], w["message"]
assert d["memory"]["source"] == "operator_memory.csv"
assert d["memory"]["peak_mb"] == 300.0, d["memory"]
PY
	ok hostile_rows
else
	bad hostile_rows "no memory_bad_rows warning naming row and value" \
		"$(head -3 "$T/.err")"
fi

# ---- one run, both exports: the same two figures, the truth's ------------
if [ -n "$GEN" ]; then
	"$GEN" -o gen --memory --export both --seed 7 --steps 2 --iters 4 \
		--blocks 6 >/dev/null 2>&1 || bad gen_memory "sdperf-gen failed"
	r=$(ls -d gen/*_ascend_pt)
	"$SDPERF" report "$r/ASCEND_PROFILER_OUTPUT/kernel_details.csv" -o out_gt -q -f json
	"$SDPERF" report "$r/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler.db" -o out_gd -q -f json
	python3 - out_gt/report.json out_gd/report.json gen/ground_truth/rank0.json <<'PY' &&
import json, sys
t, d, g = (json.load(open(p)) for p in sys.argv[1:4])
want = g["memory"]
for rep, fw, dev in ((t, "memory_record.csv", "memory_record.csv"),
                     (d, "db:MEMORY_RECORD", "db:NPU_MEM")):
    m = rep["memory"]
    assert (m["framework_source"], m["device_source"]) == (fw, dev), m
    for k in ("allocated", "reserved", "device"):
        got = m["peak_%s_mb" % k]
        assert abs(got - want["peak_%s_b" % k] / 2**20) < 5e-4, (k, got, want)
    assert m["peak_basis"] == "device", m
    assert abs(m["peak_mb"] - want["peak_device_b"] / 2**20) < 5e-4, m
assert t["memory"]["peak_mb"] == d["memory"]["peak_mb"]
PY
		ok text_and_db_same_figures || bad text_and_db_same_figures "see above"
fi

finish
