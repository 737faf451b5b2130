#!/usr/bin/env python3
# per-interval CPU (cores) of: ingestion JVM, run JVM (generator), broker JVM, postgres (all), other; and machine idle/iowait
import os, sys, time
HZ = os.sysconf('SC_CLK_TCK'); iv = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
def label(pid):
    try: cmd = open(f'/proc/{pid}/cmdline','rb').read().replace(b'\0', b' ').decode(errors='replace')
    except Exception: return None
    if 'postgres' in cmd.split(' ')[0] or cmd.startswith('postgres'): return 'pg'
    if 'java' not in cmd.split(' ')[0]: return 'other'
    if ' ingest ' in cmd: return 'ingest'
    if 'kafka.Kafka' in cmd: return 'broker'
    if 'streamlab' in cmd: return 'run'
    return 'java'
def snap():
    t = {}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try: f = open(f'/proc/{p}/stat').read().rsplit(')',1)[1].split()
        except Exception: continue
        l = label(p)
        if l is None: continue
        t[l] = t.get(l, 0) + int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])
    c = open('/proc/stat').readline().split()[1:]
    return t, [int(x) for x in c]
prev, pc = snap(); pt = time.time()
print('time ingest run broker pg other busy iowait', flush=True)
while True:
    time.sleep(iv)
    cur, cc = snap(); ct = time.time(); dt = ct - pt
    d = {k: max(0, cur.get(k, 0) - prev.get(k, 0)) / HZ / dt for k in set(cur) | set(prev)}
    tot = sum(cc) - sum(pc); idle = cc[3] - pc[3]; iow = cc[4] - pc[4]
    print('%s %.2f %.2f %.2f %.2f %.2f %.2f %.2f' % (time.strftime('%H:%M:%S'), d.get('ingest',0), d.get('run',0), d.get('broker',0), d.get('pg',0), d.get('other',0)+d.get('java',0), 2*(tot-idle-iow)/max(tot,1), 2*iow/max(tot,1)), flush=True)
    prev, pc, pt = cur, cc, ct
