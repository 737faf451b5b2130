#!/usr/bin/env python3
"""The reading threads' perf samples split: kernel or not; a kernel sample by what brought it there
(a page fault, a system call by name, an interrupt's return); and per second, all samples and page
faults. Input: `perf script -i perf.data -F comm,time,ip,sym,dso` on stdin."""
import collections, re, sys

blocks = sys.stdin.read().split('\n\n')
kinds, calls, per_second, faults_per_second = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
samples = kernel = 0
t0 = None
for b in blocks:
    lines = [l for l in b.strip().split('\n') if l.strip()]
    if not lines or not lines[0].startswith('Source: Read'):
        continue
    t = float(re.search(r'(\d+\.\d+):', lines[0]).group(1))
    t0 = t if t0 is None else t0
    second = int(t - t0)
    samples += 1
    per_second[second] += 1
    frames = '\n'.join(lines[1:])
    if len(lines) < 2 or '[kernel.kallsyms]' not in lines[1]:
        continue
    kernel += 1
    if 'exc_page_fault' in frames:
        kinds['page fault'] += 1
        faults_per_second[second] += 1
    elif 'do_syscall_64' in frames:
        kinds['system call'] += 1
        names = [next(x for x in g if x) for g in re.findall(r'__x64_sys_(\w+)|ksys_(\w+)|__do_sys_(\w+)', frames)]
        calls[names[-1] if names else '?'] += 1
    else:
        kinds['interrupt or return to user'] += 1
print(f"reading threads: {samples} samples, {kernel} in the kernel ({100 * kernel / samples:.1f} %)")
for k, v in kinds.most_common():
    print(f"  {k}: {v} ({100 * v / kernel:.0f} % of the kernel's, {100 * v / samples:.1f} % of all)")
print("  system calls: " + ", ".join(f"{k} {v}" for k, v in calls.most_common()))
print("second of the sampling: samples, of them page faults")
for s in sorted(per_second):
    print(f"  {s}: {per_second[s]}, {faults_per_second[s]}")
