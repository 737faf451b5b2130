#!/usr/bin/env python3
"""C2's compilations inside a drain's measurement window, from a JFR with jdk.Compilation at threshold 0.
usage: compwin.py RUNDIR/results.json FILE.jfr"""
import json, subprocess, sys, re, datetime, collections
res = json.load(open(sys.argv[1]))
w0, w1 = [x / 1e6 for x in res['ingestion']['cpuWindowEpochMicros']]
out = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.Compilation', sys.argv[2]], capture_output=True, text=True).stdout
evs = json.loads(out)['recording']['events']
def t(s):  # 2026-11-29T15:40:30.123456789Z or with offset
    s = s.replace('Z', '+00:00')
    m = re.match(r'(.*\.\d{6})\d*([+-]\d\d:\d\d)$', s)
    if m: s = m.group(1) + m.group(2)
    return datetime.datetime.fromisoformat(s).timestamp()
def dur(s):  # "PT0.0123S"
    m = re.match(r'PT(?:(\d+)M)?([\d.]+)S', s); return (int(m.group(1) or 0)) * 60 + float(m.group(2))
rows = []
for e in evs:
    v = e['values']
    st = t(v['startTime']); d = dur(v['duration'])
    m = v['method']; name = m['type']['name'] + '::' + m['name']
    rows.append((st, d, name, v.get('compileLevel'), v.get('isOsr'), v.get('codeSize'), v.get('inlinedBytes')))
allc = sum(r[1] for r in rows)
inw = [r for r in rows if w0 <= r[0] + r[1] and r[0] <= w1]
tw = sum(min(r[0] + r[1], w1) - max(r[0], w0) for r in inw)
print(f"window {w1-w0:.1f} s; compilations {len(rows)} taking {allc:.2f} s in all; {len(inw)} in the window taking {tw:.2f} s of it")
pk = collections.Counter()
for r in inw:
    parts = r[2].split('/')
    pk['/'.join(parts[:3])] += min(r[0] + r[1], w1) - max(r[0], w0)
print("by package (first three parts), s in the window:")
for k, v in pk.most_common(15): print(f"  {v:6.2f}  {k}")
print("largest in the window:")
for r in sorted(inw, key=lambda r: -r[1])[:25]:
    print(f"  {r[1]*1000:7.1f} ms  at +{r[0]-w0:5.1f}s  osr={r[4]}  code={r[5]}  inlined={r[6]}  {r[2]}")
