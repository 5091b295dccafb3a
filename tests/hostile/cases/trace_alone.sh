# A trace read alone (no kernel_details.csv): the reader keeps kernel
# records of processes not yet named, step ranges and flows, so each of
# these grows with the input; the outcome must stay bounded in time and
# memory. Traces are written by python3 (json module) here.

# a million ProfilerStep ranges, each a step of its own, around one kernel:
# mapping them must not be quadratic
python3 - <<'PY'
import json
with open("steps.json", "w") as f:
    f.write('[{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}}')
    for i in range(1000000):
        f.write(',{"ph":"X","name":"ProfilerStep#%d","pid":5,"ts":"%d","dur":1,"cat":"cpu_op"}' % (i, 10 * i))
    f.write(',{"ph":"X","name":"Add1","pid":7,"ts":"500","dur":1}]')
PY
bounded trace_million_steps 0 600 60 '' -- "$SDPERF" report steps.json -o o1 -q -f json

# 60,000 processes with one event each, the device named only at the end:
# every one is told apart until its name comes
python3 - <<'PY'
with open("pids.json", "w") as f:
    f.write("[")
    for i in range(60000):
        f.write('{"ph":"X","name":"Add%d","pid":%d,"ts":"%d","dur":1},' % (i % 7, 100 + i, i))
    f.write('{"ph":"X","name":"MatMul_1","pid":7,"ts":"5","dur":3},')
    f.write('{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}}]')
PY
bounded trace_many_pids 0 300 60 '' -- "$SDPERF" report pids.json -o o2 -q -f json
# 200,000 processes: more than any profiler writes, an input error
python3 - <<'PY'
with open("pids2.json", "w") as f:
    f.write("[")
    for i in range(200000):
        f.write('{"ph":"X","name":"Add1","pid":%d,"ts":"%d","dur":1},' % (100 + i, i))
    f.write('{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}}]')
PY
bounded trace_too_many_pids 3 300 60 'more than 65536 processes' -- "$SDPERF" report pids2.json -o o5 -q

# 2 million kernel events before their process's name: kept as 24-byte
# records until the name decides
python3 - <<'PY'
with open("late.json", "w") as f:
    f.write("[")
    for i in range(2000000):
        f.write('{"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":7,"ts":"%d.000","dur":0.5},' % i)
    f.write('{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}}]')
PY
bounded trace_late_name 0 500 120 '' -- "$SDPERF" report late.json -o o3 -q -f json

# the same events of a process that turns out to be the host: an input
# error that says why, nothing written
sed 's/"Ascend Hardware"/"Python"/' late.json >host.json
bounded trace_host_only 3 500 120 'no Ascend Hardware kernel events' -- "$SDPERF" report host.json -o o4 -q
[ ! -e o4 ] && ok trace_host_only_writes_nothing || bad trace_host_only_writes_nothing

# 100,000 steps (one kernel each) and 100,000 Overlap Analysis spans over
# the whole profile: the step table must not clip every span to every
# step's window (10^10 clips: 40,000 of each took 6.9 s), nor may the
# per-step sums overflow. 20 times smaller under the sanitizers.
S=1
[ -n "$SANITIZED" ] && S=20
python3 - "$S" <<'PY'
import sys
n = 100000 // int(sys.argv[1])
with open("wide.json", "w") as f:
    f.write('[{"ph":"M","name":"process_name","pid":7,"args":{"name":"Ascend Hardware"}}')
    f.write(',{"ph":"M","name":"process_name","pid":8,"args":{"name":"Overlap Analysis"}}')
    for i in range(n):
        f.write(',{"ph":"X","name":"ProfilerStep#%d","pid":5,"ts":"%d","dur":5,"cat":"cpu_op"}' % (i, 10 * i))
        f.write(',{"ph":"X","name":"Add1","pid":7,"ts":"%d","dur":2}' % (10 * i + 1))
    for i in range(n):
        f.write(',{"ph":"X","name":"Free","pid":8,"ts":"%d","dur":%d}' % (-i, 10 * n + 2 * i))
    f.write(']')
PY
bounded trace_wide_spans 0 400 10 '' -- \
	timeout 120 "$SDPERF" report wide.json -o o6 -q -f json
python3 - o6/report.json "$S" <<'PY' && ok trace_wide_spans_sums || bad trace_wide_spans_sums
import json, sys
d = json.load(open(sys.argv[1]))
n = 100000 // int(sys.argv[2])
steps = d["ranks"][0]["steps"]
# all analysed, the first 2,000 listed (and a warning says so)
assert d["ranks"][0]["steps_total"] == n, d["ranks"][0]["steps_total"]
assert len(steps) == min(n, 2000), len(steps)
assert n <= 2000 or any(w["code"] == "steps_unlisted" for w in d["warnings"])
# every span covers every step's window (its kernel, [10i+1, 10i+3]):
# free = n spans x 2 us in each step
assert all(abs(s["free_us"] - 2 * n) < 1e-6 for s in steps), steps[:2]
PY
