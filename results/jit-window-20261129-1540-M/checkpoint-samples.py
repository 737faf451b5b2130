#!/usr/bin/env python3
"""Execution samples of a JFR (jfr print --stack-depth 200 --events jdk.ExecutionSample F.jfr > samples.txt)
per thread, and those with a checkpoint, snapshot or accumulator frame by their first such frame.
usage: checkpoint-samples.py samples.txt"""
import re, sys, collections
evs = open(sys.argv[1]).read().split('jdk.ExecutionSample {')[1:]
pat = re.compile(r'[Ss]napshot|[Cc]heckpoint|Accumulator|SerializedValue')
tot, ck, what = collections.Counter(), collections.Counter(), collections.Counter()
for e in evs:
    th = re.search(r'sampledThread = "([^"]*)"', e).group(1)[:25]
    tot[th] += 1
    if pat.search(e):
        ck[th] += 1
        frames = [f for f in re.findall(r'^\s+([\w.$<>]+)\(', e, re.M) if pat.search(f)]
        what[(th, frames[0] if frames else '')] += 1
print(sum(tot.values()), "samples;", sum(ck.values()), "with a checkpoint, snapshot or accumulator frame")
print("samples / of them checkpoint-related / thread")
for th, n in tot.most_common(12): print(f"{n:5d} {ck[th]:4d} {th}")
print("checkpoint-related, by thread and first such frame")
for k, v in what.most_common(20): print(v, k)
