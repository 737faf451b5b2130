#!/usr/bin/env python3
# interpreted.py RUNDIR FILE.jfr: the reading thread's execution samples inside the drain's measurement window
# (from the run's series and its ingest-gc log), by the kind of their top frame, and the interpreted top frames most often seen
import collections, datetime, glob, json, re, subprocess, sys
run, jfr = sys.argv[1], sys.argv[2]
d = json.load(open(run + "/results.json"))
m = re.match(r"\[(\S+?)\]\[([\d.]+)s\]", open(glob.glob(run + "/ingest-gc-*.log")[0]).readline())
t0 = datetime.datetime.strptime(m.group(1)[:23], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp() - float(m.group(2))
drain = [s for s in d["series"] if s["phase"] == "drain"]
w0, w1 = t0 + drain[0]["t"], t0 + drain[-1]["t"]
j = json.loads(subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", jfr],
                              capture_output=True, text=True, check=True).stdout)
kinds, top = collections.Counter(), collections.Counter()
for e in j["recording"]["events"]:
    v = e["values"]
    if "Source: Read" not in str(v["sampledThread"]):
        continue
    if not w0 <= datetime.datetime.fromisoformat(v["startTime"].replace("Z", "+00:00")).timestamp() <= w1:
        continue
    f = v["stackTrace"]["frames"][0]
    kinds[f["type"]] += 1
    if f["type"] == "Interpreted":
        top[f["method"]["type"]["name"] + "." + f["method"]["name"]] += 1
print(f"reading thread, window samples {sum(kinds.values())}: {dict(kinds)}")
for k, n in top.most_common(25):
    print(f"{n:5d} {k}")
