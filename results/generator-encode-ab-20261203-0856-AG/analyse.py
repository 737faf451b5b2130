"""Each run of the A/B: the measure window's mean CPU per kind of process (proc-cpu.csv joined on
results.json's seconds), events/s, p99, lost, duplicated, and the run JVM's CPU-us per event."""
import csv, json, glob, re, os, datetime, statistics as st, collections
import sys
O=sys.argv[1] if len(sys.argv) > 1 else "."
for d in sorted(glob.glob(O+"/[0-9]-*")):
    txt=open(d+"/run.txt").read()
    rundir=d
    r=json.load(open(rundir+"/results.json"))
    secs={datetime.datetime.utcfromtimestamp(s["epochMillis"]/1000).strftime("%H:%M:%S") for s in r["series"] if s.get("phase")=="measure" and "epochMillis" in s}
    by=collections.defaultdict(collections.Counter)
    for row in list(csv.reader(open(d+"/proc-cpu.csv")))[1:]:
        if row[0] not in secs: continue
        l=",".join(row[2:-1]); k="ingest" if l.endswith(":ingest") else "broker" if l.startswith("java:Kafka") else "run" if l.endswith(":run") else "pg" if l.startswith("postgres") else "other"
        by[row[0]][k]+=int(row[-1])
    mean={k: round(st.mean(by[t][k] for t in by)) for k in ["run","ingest","broker","pg","other"]}
    summ=re.search(r"^SUMMARY.*", txt, re.M).group(0)
    p99=re.search(r"p99=(\d+)ms", summ).group(1); ev=re.search(r"measured-events/s=(\d+)", summ).group(1); lost=re.search(r"lost=(\d+)",summ).group(1); dup=re.search(r" duplicated=(\d+)",summ).group(1)
    print(os.path.basename(d), len(by), "s", mean, "total", sum(mean.values()), "events/s", ev, "p99", p99, "lost", lost, "dup", dup, "run us/event %.2f" % (mean["run"]*1000/int(ev)))
