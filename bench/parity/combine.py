"""Totals per hash sample (K of --sample K/16) over several runs' cases.jsonl: later re-runs of some
files (`run.py --files ... --exporters onnxify`) replace onnxify's result of a case where both runs
found it runnable in eager; the other exporters' results stay the full runs'.
Usage: combine.py base1.jsonl,base2.jsonl [rerun1.jsonl,rerun2.jsonl]"""
import hashlib, json, sys, collections
def right(res): return bool(res) and res.get('own') == 'yes' and res.get('b1') in ('yes', 'n/a')
def sample(f): return int(hashlib.sha256(f.encode()).hexdigest(), 16) % 16
rows = {}
for p in sys.argv[1].split(','):
    for l in open(p):
        r = json.loads(l); rows[(r['file'], r['case'])] = r
if len(sys.argv) > 2:
    for p in sys.argv[2].split(','):
        for l in open(p):
            r = json.loads(l); k = (r['file'], r['case'])
            if k in rows and r.get('eager') == 'yes':
                rows[k]['onnxify'] = r.get('onnxify')
tot = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # runnable, onnxify, ts; dy: run on, right
for (f, c), r in rows.items():
    if r.get('eager') != 'yes': continue
    t = tot[sample(f)]; t[0] += 1; t[1] += right(r.get('onnxify')); t[2] += right(r.get('ts'))
    if r.get('dy') is not None:
        t[3] += 1; t[4] += right(r.get('dy'))
all_ = [0, 0, 0, 0, 0]
def line(name, n, o, t, dn, d):
    dy = f", dy {d} of {dn} ({100*d/dn:.1f}%)" if dn else ""
    return f"{name}: runnable {n}, onnxify {o} ({100*o/n:.1f}%), ts {t} ({100*t/n:.1f}%){dy}"
for k in sorted(tot):
    all_ = [a + b for a, b in zip(all_, tot[k])]
    print(line(f"sample {k}/16", *tot[k]))
print(line("all", *all_))
