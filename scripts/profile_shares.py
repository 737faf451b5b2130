"""The part scripts/jfr-shares and scripts/collapsed-shares share: their options, the counting of a
profile's samples per thread, per frame anywhere on the stack (inclusive) and per top frame
(self), and the printing of those as shares of all samples. Each script only reads its own
format into (thread, frames top first, samples)."""
import collections, re, sys


def options(doc):
    """FILE, --top, --match, --thread from the command line; --help prints doc."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    if "--help" in sys.argv[1:] or len(args) != 1:
        print(doc.strip(), file=sys.stdout if "--help" in sys.argv[1:] else sys.stderr)
        sys.exit(0 if "--help" in sys.argv[1:] else 2)
    return (args[0], int(opts.get("top", 40)),
            re.compile(opts["match"]) if "match" in opts else None,
            re.compile(opts["thread"]) if "thread" in opts else None)


def fold(thread):
    """A thread's name with its numbers folded, so that a pool's threads count as one."""
    return re.sub(r"\d+", "#", thread)


class Shares:
    def __init__(self, thread_re=None):
        self.thread_re = thread_re
        self.total = 0
        self.threads, self.incl, self.self_ = collections.Counter(), collections.Counter(), collections.Counter()

    def add(self, thread, frames, samples=1):
        """frames top first; a frame recurring on one stack counts once (dict.fromkeys keeps the
        stack's order, so tied shares print in the same order on every run, unlike a set's)."""
        if self.thread_re and not self.thread_re.search(thread):
            return
        self.total += samples
        self.threads[thread] += samples
        if frames:
            self.self_[frames[0]] += samples
        for f in dict.fromkeys(frames):
            self.incl[f] += samples

    def print(self, noun, source, top, match=None):
        """The three sections; exits non-zero when no sample was kept."""
        if self.total == 0:
            sys.exit(f"no {noun} in {source}" + (" for --thread" if self.thread_re else ""))
        print(f"{self.total} {noun}" + (f" of threads matching {self.thread_re.pattern}" if self.thread_re else ""))
        inclusive = [(f, n) for f, n in self.incl.most_common() if match is None or match.search(f)]
        for title, rows in (("threads", self.threads.most_common(top)), ("inclusive", inclusive[:top]),
                            ("self", self.self_.most_common(top))):
            print(f"\n== {title}")
            for name, n in rows:
                print(f"{100 * n / self.total:6.1f} %  {name}")
