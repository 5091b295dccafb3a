# --redact against a profile that hides its secrets where the patterns of
# issue 15 did not look (issue 23, "Promises broken" 1): each check runs
# sdperf report --redact into every format and searches every output byte
# (tests/redact/search.py: HTML, fragment, Markdown, JSON, the PDF raw,
# decompressed, as text and its metadata, the terminal) for the secrets.
#   1. a user name and an IP in profiler_info's torch_npu_version and
#      cann_version;
#   2. the db's META_DATA SCHEMA_VERSION and NPU_INFO name carrying a
#      user, an IP and the host of the rank folder;
#   3. an IP, an HCCL group name and the rank folder's host glued to
#      kernel types with '_' (AllReduce_10.1.2.3_grp,
#      hcom_allReduce__zqhostsecret_1), under --redact-kernels;
#   4. the report says which fields it dropped (report.json
#      redaction.dropped, the Markdown's Redacted line).
SEARCH="$ROOT/tests/redact/search.py"
HOST=zqhostsecret
USR=zquserplant
IP=10.9.8.7
IP6=fd12:3456:789a::42
GROUP=10.170.22.98%enp67s0f5_60000_0_1708156014257149

"$GEN" -o gen --ranks 2 --comm allgather --steps 2 --iters 3 --blocks 2 \
	--no-truth >/dev/null 2>&1 || bad redact23_gen "sdperf-gen failed"
"$GEN" -o gdb --export db --steps 2 --iters 3 --blocks 2 --no-truth \
	>/dev/null 2>&1 || bad redact23_gen_db "sdperf-gen failed"
mkdir -p text dbprof
for d in gen/synth-node_*_ascend_pt; do
	n=$(basename "$d")
	mv "$d" "text/${n/synth-node/$HOST}"
done
for d in gdb/synth-node_*_ascend_pt; do
	n=$(basename "$d")
	mv "$d" "dbprof/${n/synth-node/$HOST}"
done
python3 - "$USR" "$IP" "$IP6" "$HOST" "$GROUP" <<'PY'
import glob, json, sqlite3, sys
usr, ip, ip6, host, group = sys.argv[1:]
# 1: profiler_info's versions
for p in glob.glob("text/*_ascend_pt/profiler_info*.json"):
    d = json.load(open(p))
    d["torch_npu_version"] = "2.1.0+%s@%s" % (usr, ip)
    d["cann_version"] = "8.0.RC2_%s_%s" % (ip6, usr)
    json.dump(d, open(p, "w"))
# 3: kernel types with an address, a group name, the host glued by '_'
for p in glob.glob("text/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"):
    raw = open(p, "rb").read().decode()
    lines = raw.split("\r\n")
    head = lines[0].split(",")
    nm, ty, du = head.index("Name"), head.index("Type"), head.index("Duration(us)")
    row = lines[1].split(",")
    def planted(t, d):
        r = list(row)
        r[nm], r[ty], r[du] = t + "_1", t, d
        return ",".join(r)
    lines[2:2] = [planted("AllReduce_%s_grp" % ip, "900.0"),
                  planted("hcom_allReduce__%s_1" % host, "850.0"),
                  planted("HcclBroadcast_%s_x" % group, "800.0"),
                  planted("AllGather-%s-g" % ip6, "750.0")]
    open(p, "wb").write("\r\n".join(lines).encode())
# 2: the db's metadata
for p in glob.glob("dbprof/*_ascend_pt/ASCEND_PROFILER_OUTPUT/*.db"):
    c = sqlite3.connect(p)
    names = {r[0] for r in c.execute(
        "SELECT name FROM sqlite_master WHERE type='table'")}
    if "META_DATA" not in names:
        c.execute("CREATE TABLE META_DATA (name TEXT, value TEXT)")
    c.execute("DELETE FROM META_DATA WHERE name='SCHEMA_VERSION'")
    c.execute("INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', ?)",
              ("1.0.0-%s-%s-%s" % (usr, ip, host),))
    if "NPU_INFO" not in names:
        c.execute("CREATE TABLE NPU_INFO (id INTEGER, name TEXT)")
    c.execute("DELETE FROM NPU_INFO")
    c.execute("INSERT INTO NPU_INFO VALUES (0, ?)",
              ("Ascend910B_%s_%s/%s" % (host, ip, usr),))
    c.commit()
PY

# redacted NAME PROFILE ARGS...: the report in every format with --redact,
# then no secret in any byte of it (exit 1 naming each leak)
redacted() {
	local name=$1 prof=$2
	shift 2
	"$SDPERF" report "$prof" -o "$name" -f html,pdf,md,json,fragment \
		--redact "$@" >"$name.log" 2>&1 || return 2
	python3 "$SEARCH" "$name" "$name.log" absent "$HOST" "$USR" "$IP" \
		"$IP6" "$GROUP" 10.170.22.98 enp67s0f5
}
export -f redacted
export SEARCH HOST USR IP IP6 GROUP

bounded redact23_profinfo_versions 0 400 120 '' -- \
	bash -c 'redacted out_versions text -f json,md,html,fragment,pdf'
bounded redact23_db_metadata 0 400 120 '' -- \
	bash -c 'redacted out_db dbprof'
bounded redact23_glued_kernel_types 0 400 120 '' -- \
	bash -c 'redacted out_glued text --redact-kernels'
bounded redact23_says_what_was_dropped 0 400 120 '' -- \
	bash -c 'redacted out_said dbprof >/dev/null; python3 -c "
import json, sys
r = json.load(open(\"out_said/report.json\"))[\"redaction\"]
d = r[\"dropped\"]
assert d.get(\"chip\") and d.get(\"db_schema_version\"), r
assert r[\"replaced\"][\"hosts\"] >= 1, r
" && grep -q "dropped, as they could not be made safe" out_said/report.md &&
	grep -q "db_schema_version" out_said.log'
