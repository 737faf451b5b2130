#!/usr/bin/env python3
"""Per drain of an ab-drains folder: the window's CPU by thread group (and its system part), the
heap's largest size after a young collection, and the full collections, from the drain's run
directory (threads.json, ingest-gc-PID.log). Usage: window.py AB_FOLDER"""
import glob, json, re, sys

for log in sorted(glob.glob(sys.argv[1] + "/*.log")):
    m = re.search(r"results in (\S+)", open(log).read())
    if not m:
        continue
    run = m.group(1)
    t = json.load(open(glob.glob(run + "/*/threads.json")[0]))
    w = t["window"]
    g, s = w["groups"], w["systemSecondsByGroup"]
    gc = open(glob.glob(run + "/*/ingest-gc-*.log")[0]).read()
    heaps = [int(h) for h in re.findall(r"Allocation Failure\) \d+M->\d+M\((\d+)M\)", gc)]
    print("%-40s window %.1f s %.1f CPU-s; reading %.2f (system %.2f), GC %.2f (system %.2f), C2 %.2f, append %.2f;"
          " busy interval %.1f CPU-s; largest heap %d MB; full collections %d, metadata-triggered pauses %d" % (
              log.split("/")[-1][:-4], w["seconds"], w["cpuSeconds"], g.get("Source: Read/Po", 0), s.get("Source: Read/Po", 0),
              g.get("GC Thread#", 0), s.get("GC Thread#", 0), g.get("C CompilerThre", 0), g.get("streamlab-appen", 0),
              t["cpuSeconds"], max(heaps), len(re.findall(r"Pause Full", gc)), len(re.findall(r"Metadata GC Threshold", gc)) // 1))
