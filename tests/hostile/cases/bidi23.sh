# Bidirectional formatting characters (U+202E and kin, "Trojan Source")
# from the data or a config file are shown as \uNNNN in every report
# format a person reads (HTML, its wiki fragment, Markdown, the PDF's
# text), as on the terminal, never obeyed: they would reorder a kernel
# name or a header line. report.json keeps the data as it was.
"$GEN" -o p --steps 2 --iters 3 --blocks 2 >/dev/null 2>&1
kd=$(echo p/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
python3 - "$kd" <<'PY'
import csv, sys
p = sys.argv[1]
rows = list(csv.reader(open(p, encoding="utf-8")))
ti, ni = rows[0].index("Type"), rows[0].index("Name")
for r in rows[1:]:
    if r[ti].startswith("MatMul"):
        r[ti] = "Mat\u202eMulEvil"
        r[ni] = "x\u2066y" + r[ni]
csv.writer(open(p, "w", encoding="utf-8", newline="")).writerows(rows)
PY
mkdir -p cfg
printf '{"org": "Acme \\u202eevil"}\n' >cfg/c.json
bounded bidi_report 0 300 60 '' -- "$SDPERF" report p -o out \
	-f html,md,pdf,json,fragment --config cfg/c.json -q
pdftotext out/report.pdf out/report.pdf.txt 2>/dev/null
for f in out/report.html out/report.fragment.html out/report.md \
	out/report.pdf.txt; do
	n=$(python3 -c 'import sys; t=open(sys.argv[1],encoding="utf-8").read(); print(sum(t.count(c) for c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))' "$f")
	if [ "$n" != 0 ]; then
		bad "bidi_shown_$(basename "$f")" "$n bidi controls written as they are"
	elif ! grep -qF 'Mat\u202EMulEvil' "$f"; then
		bad "bidi_shown_$(basename "$f")" "the kernel type is not shown as Mat\\u202EMulEvil"
	else
		ok "bidi_shown_$(basename "$f")"
	fi
done
if grep -qF 'Acme \u202Eevil' out/report.html; then
	ok "bidi_config_org_shown"
else
	bad "bidi_config_org_shown" "the config's org is not shown with \\u202E"
fi
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=json.dumps(d, ensure_ascii=False); sys.exit(0 if "Mat\u202eMulEvil" in s else 1)' out/report.json; then
	ok "bidi_json_keeps_data"
else
	bad "bidi_json_keeps_data" "report.json lost the kernel type as it was"
fi
