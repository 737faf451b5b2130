#!/usr/bin/env python3
"""Each thread group's perf samples split: kernel or not; a kernel sample by what brought it there (a page fault,
a system call by name, an interrupt's return) and, for page faults and system calls, the first user-space frame's
library and function (who faulted or called). Input: `perf script -i perf.data -F comm,time,ip,sym,dso` on stdin;
argument: the thread name prefixes to report (default: the reading and append threads)."""
import collections, re, sys

prefixes = sys.argv[1:] or ['Source: Read', 'streamlab-appen']
blocks = sys.stdin.read().split('\n\n')
for prefix in prefixes:
    kinds, calls, who = collections.Counter(), collections.Counter(), collections.Counter()
    samples = kernel = 0
    for b in blocks:
        lines = [l for l in b.strip().split('\n') if l.strip()]
        if not lines or not lines[0].startswith(prefix):
            continue
        samples += 1
        frames = lines[1:]
        if not frames or '[kernel.kallsyms]' not in frames[0]:
            continue
        kernel += 1
        text = '\n'.join(frames)
        user = next((f for f in frames if '[kernel.kallsyms]' not in f), '')
        m = re.match(r'\s*\S+\s+(.*?)\s+\((.*)\)$', user)
        lib = m.group(2).split('/')[-1] if m else '?'
        sym = m.group(1)[:70] if m else '?'
        if 'exc_page_fault' in text:
            kinds['page fault'] += 1
            who[('page fault', lib, sym)] += 1
        elif 'do_syscall_64' in text:
            kinds['system call'] += 1
            names = [next(x for x in g if x) for g in re.findall(r'__x64_sys_(\w+)|ksys_(\w+)|__do_sys_(\w+)', text)]
            name = names[-1] if names else '?'
            calls[name] += 1
            who[('call ' + name, lib, sym)] += 1
        else:
            kinds['interrupt or return to user'] += 1
    if not samples:
        print(f"{prefix}: no samples"); continue
    print(f"{prefix}: {samples} samples, {kernel} in the kernel ({100 * kernel / samples:.1f} %)")
    for k, v in kinds.most_common():
        print(f"  {k}: {v} ({100 * v / max(kernel, 1):.0f} % of the kernel's, {100 * v / samples:.1f} % of all)")
    print("  system calls: " + ", ".join(f"{k} {v}" for k, v in calls.most_common(12)))
    print("  from (kind, library, function), the most samples first:")
    for (kind, lib, sym), v in who.most_common(15):
        print(f"    {v:5d}  {kind:22s} {lib:28s} {sym}")
