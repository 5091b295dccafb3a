#!/usr/bin/env bash
# sdperf report --redact (issue 15 §1): secrets planted in a generated
# two-card run (host names in the rank folders, a user's /home path, an
# absolute path, an IPv4 and an IPv6 address and an HCCL group name in the
# kernel data, a title naming the host) and the real samples (their
# absolute paths and folder names, the db export whose strings hold a
# group name) are searched for in every byte of every format: HTML,
# Markdown, JSON, the PDF raw, decompressed, as text and its metadata,
# and the terminal (search.py). Zero hits with --redact; every one found
# without it (so the search can fail). Also: the pseudonyms are the same
# run after run and with any number of threads, --redact-kernels renames
# the Other operators, and a report without --redact has no redaction.
# Usage: tests/redact/run.sh SDPERF SDPERF_GEN
SDPERF=$(realpath "$1")
GEN=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=../testlib.sh
. "$HERE/../testlib.sh"

HOST0=zqhostsecretalpha
HOST1=zqhostsecretbeta
USERNAME=zquserplant
PROJ=zqprojsecret
IPV4=10.171.23.99
IPV6=fd12:3456:789a::42
GROUP=10.170.22.98%enp67s0f5_60000_0_1708156014257149
OPNAME=ZqCustomerFusedBlock

# report NAME PROFILE ARGS...: all five formats (the four and the wiki
# fragment) into NAME/, the terminal (stdout and stderr) into NAME.log; a
# later -f in ARGS replaces the list
report() {
	local name=$1 prof=$2
	shift 2
	if "$SDPERF" report "$prof" -o "$T/$name" -f html,pdf,md,json,fragment \
		"$@" >"$T/$name.log" 2>&1; then
		return 0
	fi
	bad "$name" "sdperf failed: $(head -3 "$T/$name.log")"
	return 1
}
search() { # LABEL NAME MODE SECRET...
	local label=$1 name=$2 mode=$3
	shift 3
	local out
	if out=$(python3 "$HERE/search.py" "$T/$name" "$T/$name.log" "$mode" "$@"); then
		ok "$label"
	else
		bad "$label" "$out"
	fi
}
json() { # LABEL NAME PYTHON: PYTHON runs with d = NAME/report.json
	if python3 - "$T/$2/report.json" "$3" <<'PY' 2>"$T/$1.py.err"; then
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
PY
		ok "$1"
	else
		bad "$1" "$(tail -3 "$T/$1.py.err")"
	fi
}

# --- a generated run with planted secrets ---------------------------------
base="$T/home/$USERNAME/$PROJ/run"
mkdir -p "$base"
"$GEN" -o "$T/gen" --ranks 2 --comm allgather --steps 2 --iters 3 \
	--blocks 2 >/dev/null 2>&1 || bad gen "sdperf-gen failed"
for d in "$T"/gen/synth-node_*_ascend_pt; do
	name=$(basename "$d")
	case $name in
	synth-node_1000_*) host=$HOST0 ;;
	*) host=$HOST1 ;;
	esac
	mv "$d" "$base/${name/synth-node/$host}"
done
# rank 0's kernels: one operator named by a group name, one by a model's
# own name (both Other), and two rows whose durations are addresses
# (skipped, and quoted by the warnings)
python3 - "$base"/"$HOST0"_*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv \
	"$GROUP" "$OPNAME" "$IPV4" "$IPV6" <<'PY'
import sys
path, group, op, ipv4, ipv6 = sys.argv[1:]
data = open(path, "rb").read().decode()
lines = data.split("\r\n")
head = lines[0].split(",")
name, typ, dur = head.index("Name"), head.index("Type"), head.index("Duration(us)")
row = lines[1].split(",")
def planted(n, t, d):
    r = list(row)
    r[name], r[typ], r[dur] = n, t, d
    return ",".join(r)
extra = [planted(group, group, "900.0"), planted(op + "_1", op, "800.0"),
         planted("Bad1", "Add", ipv4), planted("Bad2", "Add", ipv6)]
lines[2:2] = extra
open(path, "wb").write("\r\n".join(lines).encode())
PY
secrets=("$HOST0" "$HOST1" "$USERNAME" "$PROJ" "$T" "$IPV4" "$IPV6"
	"$GROUP" "10.170.22.98" "enp67s0f5"
	"$(basename "$base"/"$HOST0"_*_ascend_pt)")
title="Run on $HOST0 by $USERNAME"

if report plain "$base" --title "$title"; then
	search planted_found_without_redact plain present "${secrets[@]}" "$OPNAME"
	# the title in the PDF's metadata, the addresses in the terminal's
	# warnings
	if pdfinfo "$T/plain/report.pdf" | grep -q "^Title: *Run on $HOST0" &&
		grep -q "$IPV4" "$T/plain.log"; then
		ok planted_found_in_metadata_and_terminal
	else
		bad planted_found_in_metadata_and_terminal "not in pdfinfo or the terminal"
	fi
	json plain_has_no_redaction plain 'assert "redaction" not in d, d["redaction"]'
fi
if report red "$base" --title "$title" --redact -j 1; then
	search planted_absent_with_redact red absent "${secrets[@]}"
	search operator_names_kept red present "$OPNAME"
	json red_says_so red '
r = d["redaction"]
assert r["redacted"] and r["kernel_names"] == "kept", r
assert r["classes"] == ["hosts", "users", "paths", "rank_folders",
                        "addresses", "groups"], r
n = r["replaced"]
assert n["hosts"] == 2 and n["rank_folders"] == 2 and n["users"] >= 1, n
assert n["addresses"] == 2 and n["groups"] == 1, n
assert d["profile"]["path"] == "path-1", d["profile"]
assert [x["dir"] for x in d["ranks"]] == ["rank folder 1", "rank folder 2"]
types = [t["type"] for s in d["stages"].values() for t in s["top_kernels"]]
types += [t["type"] for t in d["unmatched_types"]]
assert "group-1" in types, types
msgs = " ".join(w["message"] for w in d["warnings"])
assert "ip-1" in msgs and "ip-2" in msgs, msgs'
	for f in report.md report.html; do
		if grep -q "Redacted" "$T/red/$f"; then ok "red_line_$f"; else
			bad "red_line_$f" "no Redacted line"; fi
	done
	if pdftotext "$T/red/report.pdf" - | grep "Redacted" >/dev/null; then
		ok red_line_pdf
	else
		bad red_line_pdf "no Redacted line"
	fi
	if grep -q "^redacted: " "$T/red.log"; then ok red_line_terminal; else
		bad red_line_terminal "no redacted: line"; fi
fi
# the same pseudonyms again, with four threads
if report red2 "$base" --title "$title" --redact -j 4; then
	# the command line (-j 4) and the generation time differ, nothing else
	vol='/^\t\t"(command_line|generated|generated_from)":/d'
	sed -E "$vol" "$T/red/report.json" >"$T/red.cmp"
	sed -E "$vol" "$T/red2/report.json" >"$T/red2.cmp"
	if cmp -s "$T/red.cmp" "$T/red2.cmp"; then
		ok pseudonyms_deterministic
	else
		bad pseudonyms_deterministic \
			"$(diff "$T/red.cmp" "$T/red2.cmp" | head -5)"
	fi
fi
# another run holding the output folder's lock: the note on stderr while
# waiting names the folder by its pseudonym too
mkdir -p "$T/held"
flock "$T/held/.sdperf.lock" sleep 2 &
held=$!
for _ in $(seq 50); do # until the holder has it (a loaded machine)
	flock -n "$T/held/.sdperf.lock" true || break
	sleep 0.1
done
if report held "$base" --redact -f md; then
	wait "$held"
	if grep -q "waiting for another sdperf run writing to path-" "$T/held.log"; then
		search lock_note_absent held absent "${secrets[@]}"
	else
		bad lock_note_absent "no waiting note: $(head -3 "$T/held.log")"
	fi
fi
# a relative PATH: what leads to it is not in the reports either way; the
# host names still go
if (cd "$T/home" && report rel "$USERNAME/$PROJ/run" --redact \
	--title "Run on $HOST1"); then
	search planted_absent_relative_path rel absent "${secrets[@]}"
fi
if report zh "$base" --redact -l zh; then
	search planted_absent_zh zh absent "${secrets[@]}"
	if grep -q "已脱敏" "$T/zh/report.md" && grep -q "已脱敏" "$T/zh/report.html" &&
		pdftotext "$T/zh/report.pdf" - | grep "已脱敏" >/dev/null; then
		ok red_line_zh
	else
		bad red_line_zh "no 已脱敏 line"
	fi
fi
if report ops "$base" --redact-kernels; then
	search operator_names_replaced ops absent "${secrets[@]}" "$OPNAME"
	json ops_renamed ops '
r = d["redaction"]
assert r["kernel_names"] == "replaced" and r["replaced"]["kernels"] >= 2, r
types = {t["type"] for s in d["stages"].values() for t in s["top_kernels"]}
types |= {t["type"] for t in d["unmatched_types"]}
assert "op-1" in types and "FlashAttentionScore" in types, types
assert not any(t.startswith("ZqCustomer") for t in types), types'
fi

# --- the db export and a trace read alone, with markers --------------------
forms="$T/home/$USERNAME/$PROJ/forms"
mkdir -p "$forms"
"$GEN" -o "$T/gdb" --ranks 2 --comm allgather --steps 2 --iters 3 \
	--blocks 2 --export db >/dev/null 2>&1 || bad gen_db "sdperf-gen failed"
"$GEN" -o "$T/gtr" --files trace --markers --steps 2 --iters 3 \
	--blocks 2 >/dev/null 2>&1 || bad gen_trace "sdperf-gen failed"
for d in "$T"/gdb/synth-node_*_ascend_pt "$T"/gtr/synth-node_*_ascend_pt; do
	name=$(basename "$d")
	case $d in
	*/gdb/*) mv "$d" "$forms/${name/synth-node/$HOST0}" ;;
	*) mv "$d" "$forms/${name/synth-node/${HOST1}_trace}" ;;
	esac
done
form_secrets=("$HOST0" "$HOST1" "$USERNAME" "$PROJ" "$T")
if report forms_plain "$forms"; then
	search forms_found_without_redact forms_plain present "${form_secrets[@]}"
fi
if report forms_red "$forms" --redact; then
	search forms_absent_with_redact forms_red absent "${form_secrets[@]}"
	json forms_rank_folders forms_red '
dirs = [x["dir"] for x in d["ranks"]]
assert dirs == ["rank folder %d" % (i + 1) for i in range(len(dirs))], dirs
assert len(dirs) == 3, dirs'
fi

# --- issue 23: secrets in every field of every input kind ----------------
# plant23.py plants the host of the rank folders, the user of the /home
# path, an IPv4 and an IPv6 address, an HCCL group name and an absolute
# path into kernel names and types (at their start, middle and end, glued
# by '_', '-' and '.'), profiler_info's versions, communication.json's
# operator names, the db's STRING_IDS, SCHEMA_VERSION and NPU_INFO and a
# lone trace's kernel names; then the rank summaries of the text export.
# Found in every format without --redact; in no byte with it.
i23="$T/home/$USERNAME/$PROJ/i23"
H23=zqhostsecretgamma
ABS="$T/home/$USERNAME/$PROJ/data/weights.bin"
plant_secrets=("$H23" "$USERNAME" "$IPV4" "$IPV6" "$GROUP" "$ABS")
mkdir -p "$i23"
"$GEN" -o "$T/g23t" --ranks 2 --comm allgather --steps 2 --iters 3 \
	--blocks 2 --no-truth >/dev/null 2>&1 || bad gen23 "sdperf-gen failed"
"$GEN" -o "$T/g23d" --export db --steps 2 --iters 3 --blocks 2 \
	--no-truth >/dev/null 2>&1 || bad gen23 "sdperf-gen failed"
"$GEN" -o "$T/g23r" --files trace --markers --steps 2 --iters 3 \
	--blocks 2 --no-truth >/dev/null 2>&1 || bad gen23 "sdperf-gen failed"
for k in t d r; do
	mkdir -p "$i23/$k"
	for d in "$T"/g23$k/synth-node_*_ascend_pt; do
		name=$(basename "$d")
		mv "$d" "$i23/$k/${name/synth-node/$H23}"
	done
done
python3 "$HERE/plant23.py" text "$i23/t" "${plant_secrets[@]}"
python3 "$HERE/plant23.py" db "$i23/d" "${plant_secrets[@]}"
python3 "$HERE/plant23.py" trace "$i23/r" "${plant_secrets[@]}"
mkdir -p "$i23/s"
n=0
for d in "$i23"/t/*_ascend_pt; do
	"$SDPERF" summarize "$d" -q -o "$i23/s/rank-$n.json" ||
		bad summarize23 "sdperf summarize $d failed"
	n=$((n + 1))
done
# what each report shows of them without --redact (the search can fail)
shown_t=("$IPV4" "$IPV6" "$GROUP" "$ABS" "$USERNAME-FusedBlockE"
	"FusedBlockC.$H23" "hcom_allReduce__${H23}_1" "2.1.0+$USERNAME@$IPV4")
shown_r=("$IPV4" "$IPV6" "$GROUP" "$ABS" "$USERNAME-FusedBlockE"
	"FusedBlockC.$H23")
shown_d=("${shown_r[@]}" "FusedBlockF_zqdbhostdelta")
shown_s=("$IPV4" "$IPV6" "$GROUP" "$ABS" "$USERNAME-FusedBlockE"
	"FusedBlockC.$H23")
# a known host in capitals (FusedBlockG_ZQHOSTSECRETGAMMA) is the same host
shown_t+=("FusedBlockG_${H23^^}")
all23=("${secrets[@]}" "$H23" "${H23^^}" "$ABS" "weights.bin" zqdbhostdelta)
for k in t d r s; do
	declare -n shown="shown_$k"
	if report "i23${k}_plain" "$i23/$k"; then
		search "i23_${k}_found_without_redact" "i23${k}_plain" present \
			"${shown[@]}"
	fi
	if report "i23${k}_red" "$i23/$k" --redact-kernels; then
		search "i23_${k}_absent_with_redact" "i23${k}_red" absent \
			"${all23[@]}"
	fi
	unset -n shown
done
# --redact keeps kernel types: a known host in them is found in any case
if report i23t_keep "$i23/t" --redact -f json,md; then
	search i23_t_capital_host_absent i23t_keep absent "$H23" "${H23^^}"
fi
# the command line's --docs-base (its links) is rewritten too
DOCS="https://10.55.66.77/$USERNAME/docs"
if report i23docs_plain "$i23/t" --docs-base "$DOCS" -f html,md,pdf; then
	search i23_docs_base_found_without_redact i23docs_plain present \
		"10.55.66.77/$USERNAME/docs"
fi
if report i23docs_red "$i23/t" --redact --docs-base "$DOCS"; then
	search i23_docs_base_absent_with_redact i23docs_red absent \
		10.55.66.77 "$USERNAME"
fi
# the db's metadata is in report.json without --redact
json i23_db_metadata_found_without_redact i23d_plain '
x = d["ranks"][0]
assert x["chip"] == "Ascend910B-zqhostsecretgamma_fd12:3456:789a::42", x
s = json.dumps(d)
assert "1.0.0-zquserplant.10.171.23.99" in s, "schema"'
# the metadata that could not be made safe is dropped, and said so
json i23_text_dropped i23t_red '
r = d["redaction"]
assert r["dropped"] == {"torch_npu_version": 2, "cann_version": 2}, r
assert all(x.get("torch_npu_version") is None for x in d["ranks"]), d["ranks"]'
json i23_db_dropped i23d_red '
r = d["redaction"]
assert r["dropped"].get("db_schema_version") == 1, r
assert r["dropped"].get("chip") >= 1, r'
if grep -q "dropped, as they could not be made safe" "$T/i23t_red/report.md" &&
	grep -q "torch_npu_version (2)" "$T/i23t_red/report.md" &&
	pdftotext "$T/i23t_red/report.pdf" - | tr -d ' \n-' |
	grep -q "dropped,astheycouldnotbemadesafe" &&
	grep -q "^redacted: dropped, as they could not be made safe: " \
		"$T/i23t_red.log"; then
	ok i23_dropped_said_in_every_format
else
	bad i23_dropped_said_in_every_format "no Dropped line"
fi
if report i23t_zh "$i23/t" --redact -l zh &&
	grep -q "无法安全保留" "$T/i23t_zh/report.md" &&
	grep -q "无法安全保留" "$T/i23t_zh/report.html" &&
	pdftotext "$T/i23t_zh/report.pdf" - | tr -d ' \n' | grep -q "无法安全保留"; then
	ok i23_dropped_said_zh
else
	bad i23_dropped_said_zh "no 无法安全保留 line"
fi
# what is glued into a communication kernel's type goes even where
# --redact-kernels keeps the type; real kernel names are not over-redacted
json i23_glued_replaced_names_kept i23t_red '
types = {t["type"] for s in d["stages"].values() for t in s["top_kernels"]}
for t in ("AllReduce_group-1_grp", "hcom_allReduce__host-1_1",
          "FlashAttentionScore", "MatMulV2", "GroupNormSilu", "RmsNorm"):
    assert t in types, (t, types)'

# --- the real samples -----------------------------------------------------
S="$ROOT/tests/data/samples"
sample() { # LABEL PATH SECRET...: absolute PATH, secrets found, then gone
	local label=$1 p=$2
	shift 2
	if report "$label" "$p"; then
		search "${label}_found_without_redact" "$label" present "$p" "$@"
	fi
	if report "${label}_red" "$p" --redact; then
		search "${label}_absent_with_redact" "${label}_red" absent "$p" "$@"
	fi
}
sample gpt3 "$S/msinsight-gpt3-testdata-2023" test_rank_0 test_rank_1 \
	msinsight-gpt3-testdata-2023
sample db "$S/msinsight-alexnet-2rank-2025-db/level1" rank0_ascend_pt \
	rank1_ascend_pt msinsight-alexnet-2rank-2025-db
sample paddle "$S/paddleocrvl-910b-decode-2026" paddleocrvl-910b-decode-2026
# the db's HCCL group name is in no report, redacted or not
if [ -d "$T/db_red" ]; then
	search db_group_absent db_red absent \
		"90.91.105.46%enp189s0f0_60000_0_1736410538306028" "90.91.105.46"
fi
finish
