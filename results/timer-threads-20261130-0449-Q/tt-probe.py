#!/usr/bin/env python3
# Per-thread user/sys CPU and context switches of a running ingest process, over SPAN seconds after DELAY.
#   tt-probe.py [DELAY [SPAN [perf]]]   (perf: also perf record -g the "Time Trigger" threads into /tmp/probe/tt.perf)
import os, sys, time, re, subprocess
match = "io.streamlab.cli.Main ingest"
delay = float(sys.argv[1]) if len(sys.argv) > 1 else 12
span = float(sys.argv[2]) if len(sys.argv) > 2 else 5
perf = len(sys.argv) > 3
def find():
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if match in open(f"/proc/{p}/cmdline").read().replace("\0", " "): return p
            except OSError: pass
pid = None
while pid is None:
    pid = find(); time.sleep(0.2)
time.sleep(delay)
tick = os.sysconf("SC_CLK_TCK")
def snap():
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{t}/comm").read().strip()
            st = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
            s = open(f"/proc/{pid}/task/{t}/status").read()
            vol = int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", s).group(1))
            nv = int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", s).group(1))
            out[t] = (name, int(st[11]) / tick, int(st[12]) / tick, vol, nv)
        except (OSError, AttributeError): pass
    return out
a = snap()
pr = None
if perf:
    tids = ",".join(t for t, v in a.items() if v[0].startswith("Time Trigger"))
    pr = subprocess.Popen(["perf", "record", "-q", "-g", "-o", "/tmp/probe/tt.perf", "-t", tids, "--", "sleep", str(span)])
t0 = time.time(); time.sleep(span); b = snap(); dt = time.time() - t0
if pr: pr.wait()
rows = []
for t, v in b.items():
    if t in a:
        u = v[1] - a[t][1]; s = v[2] - a[t][2]; cs = v[3] - a[t][3]; nv = v[4] - a[t][4]
        if u + s > 0.005 or cs > 50: rows.append((u + s, v[0], t, u, s, cs / dt, nv / dt))
print(f"pid {pid}, {dt:.1f} s")
print(f"{'cpu-s':>6} {'user':>6} {'sys':>6} {'vcsw/s':>8} {'ivcsw/s':>8}  thread")
for r in sorted(rows, reverse=True)[:25]:
    print(f"{r[0]:6.2f} {r[3]:6.2f} {r[4]:6.2f} {r[5]:8.0f} {r[6]:8.0f}  {r[1]} ({r[2]})")
