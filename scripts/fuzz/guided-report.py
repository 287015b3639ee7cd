#!/usr/bin/env python3
"""guided-report.py LOG CORPUS: what a coverage-guided run (fuzz-guided.sh)
found.

Appends every sequence the run kept ("@@FUZZ corpus new=N edges=T ops=O
seq ...") that CORPUS does not hold yet, prints how the edges grew, the
run's last lines and every kernel report (summary.py's REPORTS; NOTES are
shown and do not count).  Exit status 1 if the kernel reported anything,
2 if the guided run never started.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from summary import ANSI, NOTES, REPORTS  # noqa: E402

NEW = re.compile(r"^@@FUZZ corpus new=(\d+) edges=(\d+) ops=(\d+) seq (.*)$")


def main():
    log, corpus = sys.argv[1], sys.argv[2]
    lines = [ANSI.sub("", l).rstrip("\r\n")
             for l in open(log, errors="replace")]
    have = set()
    if os.path.exists(corpus):
        have = {l.split("#")[0].strip() for l in open(corpus)
                if l.strip() and not l.startswith("#")}
    added, growth, started, reports, notes = [], [], False, [], []
    for l in lines:
        m = NEW.match(l)
        if m:
            seq = m.group(4).strip()
            growth.append((int(m.group(3)), int(m.group(2))))
            if seq not in have:
                have.add(seq)
                added.append("%s  # new=%s" % (seq, m.group(1)))
            continue
        if l.startswith("@@FUZZ guided") or l.startswith("@@FUZZ done") or \
           l.startswith("@@FUZZ stuck") or l.startswith("@@FUZZ worker") or \
           l.startswith("@@FUZZ corpus "):
            print(l)
            started = started or l.startswith("@@FUZZ guided start")
        elif REPORTS.search(l):
            reports.append(l)
        elif NOTES.search(l):
            notes.append(l)
    if added:
        new_file = not os.path.exists(corpus)
        with open(corpus, "a") as f:
            if new_file:
                f.write("# perf_fuzz corpus: call sequences that reached new edges of\n"
                        "# the perf core (scripts/fuzz-guided.sh); SEED:OPS segments, then\n"
                        "# the edges each added when it was kept; replayed by\n"
                        "# guest/suites/fuzz.sh before each pass (--corpus-ops).\n")
            for seq in added:
                f.write(seq + "\n")
    print("guided-report.py: %d sequences kept, %d new to %s (%d there now)" %
          (len(growth), len(added), corpus, len(have)))
    step = max(1, len(growth) // 10)
    for ops, edges in growth[::step] + growth[-1:]:
        print("  after %7d calls: %6d edges" % (ops, edges))
    for l in notes:
        print("note: " + l)
    for l in reports:
        print("REPORT: " + l)
    if reports:
        return 1
    return 0 if started else 2


if __name__ == "__main__":
    sys.exit(main())
