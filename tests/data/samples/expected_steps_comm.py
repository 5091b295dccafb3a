# Independent expected values for tests/unit/test_steptrace.c and test_commjson.c
import csv, json, sys
from decimal import Decimal, ROUND_HALF_UP
import os
S=os.path.join(os.path.dirname(os.path.abspath(__file__)), '')
def ns_us(t):  # exact decimal us -> ns, halves away from zero
    return int((Decimal(t.strip())*1000).to_integral_value(ROUND_HALF_UP))
def ns_ms(x):  # llround(ms * 1e6) on doubles
    return int(Decimal(x*1e6).to_integral_value(ROUND_HALF_UP))
steps=['msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt','msinsight-alexnet-2rank-2024/level0/rank1_ascend_pt',
 'msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt','msinsight-alexnet-2rank-2024/level1/rank1_ascend_pt',
 'msinsight-gpt3-testdata-2023/test_rank_0','msinsight-gpt3-testdata-2023/test_rank_1']
files=[s+'/ASCEND_PROFILER_OUTPUT/step_trace_time.csv' for s in steps]+['paddleocrvl-910b-decode-2026/step_trace_time.csv']
cols=['Computing','Communication(Not Overlapped)','Overlapped','Communication','Free','Stage','Bubble','Communication(Not Overlapped and Exclude Receive)']
for f in files:
    rows=list(csv.DictReader(open(S+f,newline='')))
    for r in rows:
        dev=r.get('Device_id'); prep=r.get('Preparing')
        vals=[int(r['Step'])] + [int(dev) if dev is not None else -1] + [ns_us(r[c]) for c in cols] + [ns_us(prep) if prep is not None else -1]
        print('/* %s */ {%s},' % (f, ', '.join(str(v) for v in vals)))
kinds=['all_gather','all_reduce','all_to_all','reduce_scatter','broadcast','send_recv','other']
def kind(name,p2p):
    if p2p: return 5
    n=name.lower()
    for frag,k in [('allgather',0),('all_gather',0),('allreduce',1),('all_reduce',1),('alltoall',2),('all_to_all',2),('reducescatter',3),('reduce_scatter',3),('broadcast',4),('send',5),('receive',5),('recv',5)]:
        if frag in n: return k
    return 6
tr=['HCCS','RDMA','PCIE','SDMA','SIO']
tf=['Elapse Time(ms)','Transit Time(ms)','Wait Time(ms)','Synchronization Time(ms)','Idle Time(ms)']
for s in ['msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt','msinsight-alexnet-2rank-2024/level1/rank1_ascend_pt','msinsight-gpt3-testdata-2023/test_rank_0','msinsight-gpt3-testdata-2023/test_rank_1']:
    d=json.load(open(S+s+'/ASCEND_PROFILER_OUTPUT/communication.json'))
    coll=[[0]*6 for _ in kinds]; t=[[0,0.0,0] for _ in tr]; ops=0
    tot=[0.0]*5; tott=[[0.0,0.0] for _ in tr]
    for step,v in d.items():
        for sec in ('p2p','collective'):
            for op,o in v.get(sec,{}).items():
                if op=='Total Op Info':
                    for i,k in enumerate(tf): tot[i]+=o['Communication Time Info'].get(k,0)
                    for i,k in enumerate(tr):
                        b=o['Communication Bandwidth Info'].get(k)
                        if b: tott[i][0]+=b['Transit Size(MB)']; tott[i][1]+=b['Transit Time(ms)']
                    continue
                ops+=1; c=coll[kind(op,sec=='p2p')]; c[0]+=1
                for i,k in enumerate(tf): c[1+i]+=ns_ms(o['Communication Time Info'].get(k,0))
                for i,k in enumerate(tr):
                    b=o['Communication Bandwidth Info'].get(k)
                    if not b: continue
                    mb=b['Transit Size(MB)']; ns=ns_ms(b['Transit Time(ms)'])
                    if mb>0 or ns>0: t[i][0]+=1; t[i][1]+=mb; t[i][2]+=ns
    print('/*', s, 'steps', len(d), 'ops', ops, '*/')
    for i,k in enumerate(kinds): print('  /* %s */ {%s},' % (k, ', '.join(str(x) for x in coll[i])))
    for i,k in enumerate(tr): print('  /* %s */ {%d, %.17g, %d},' % (k, t[i][0], t[i][1], t[i][2]))
    print('  /* Total Op Info ms */', ['%.17g'%x for x in tot], ' tr', [('%.17g'%a,'%.17g'%b) for a,b in tott])
