#!/usr/bin/env python3
"""What a fuzz-proof.sh guest showed.

  proof-report.py --any LOG FUNC...  exit 0 if LOG has a kernel report
                                  yet (a stall, soft lockup or hung task
                                  only if it names FUNC)
  proof-report.py LOG FUNC...     print whether a report names one of FUNC

A report is whatever scripts/summary.py counts as one (WARN, BUG, Oops,
KASAN, lockdep...) or notes (soft lockups, RCU stalls, hung tasks: a
deadlock shows as these).  A report is the fault's when its first line or
one of the 80 lines after it (up to the next report or harness line)
names one of the fault's functions.  The calls before it are perf_fuzz's
last progress count ("@@FUZZ ops=N ... elapsed=Ss", every 10 s) before
the report, plus the calls of the passes that ended before it; the
minutes are the guest kernel's clock from the start of the first pass to
the report.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from summary import ANSI, NOTES, REPORTS  # noqa: E402

PROGRESS = re.compile(r"@@FUZZ ops=(\d+) .*elapsed=(\d+)s")
DONE = re.compile(r"@@FUZZ done ops=(\d+)")
PASS = re.compile(r"@@PROG (fuzz-\w+) (begin|end)")
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]")
CONTEXT = 80


def read(path):
    with open(path, errors="replace") as f:
        return [ANSI.sub("", line.rstrip("\n")) for line in f]


def reports(lines):
    """Yield (index, line, text) of each report: its first line, and the
    text of its trace (up to CONTEXT lines, the next report or the next
    harness line)."""
    firsts = [i for i, line in enumerate(lines)
              if REPORTS.search(line) or NOTES.search(line)]
    for n, i in enumerate(firsts):
        end = min(i + CONTEXT, firsts[n + 1] if n + 1 < len(firsts) else len(lines))
        trace = [lines[i]]
        for line in lines[i + 1:end]:
            if line.startswith("@@"):
                break
            trace.append(line)
        yield i, lines[i], "\n".join(trace)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--any"]:
        try:
            lines = read(args[1])
        except OSError:
            return 1
        # a stall alone may be the emulator's (mainline shows them too)
        name = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, args[2:]))) \
            if args[2:] else None
        for i, line, trace in reports(lines):
            if not NOTES.search(line) or (name and name.search(trace)):
                return 0
        return 1
    if not args:
        sys.stderr.write(__doc__)
        return 2
    lines, funcs = read(args[0]), args[1:]
    name = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, funcs)))
    # where each line stands: the pass, and the calls and seconds so far
    state = []
    pass_name, before_ops, ops = "-", 0, 0
    clock = first_pass = None
    for line in lines:
        m = STAMP.match(line)
        if m:
            clock = float(m.group(1))
        m = PASS.search(line)
        if m and m.group(2) == "begin":
            pass_name, ops = m.group(1), 0
            if first_pass is None:
                first_pass = clock or 0.0
        elif m:
            before_ops, ops = before_ops + ops, 0
        m = PROGRESS.search(line)
        if m:
            ops = int(m.group(1))
        m = DONE.search(line)
        if m:
            ops = int(m.group(1))
        minutes = (clock - first_pass) / 60.0 \
            if first_pass is not None and clock is not None else 0.0
        state.append((pass_name, before_ops + ops, max(minutes, 0.0)))
    first = None
    seen = []
    for i, line, trace in reports(lines):
        text = line.strip()
        seen.append(text)
        if first is None and name.search(trace):
            first = (i, text)
    if first:
        i, text = first
        pass_name, calls, minutes = state[i]
        print("found: %s, in pass %s after about %d calls (the last progress"
              " line) and %.1f minutes" % (text, pass_name, calls, minutes))
    else:
        pass_name, calls, minutes = state[-1] if state else ("-", 0, 0.0)
        print("not found: %d calls in %.1f minutes, no report names %s"
              % (calls, minutes, " ".join(funcs)))
    for text in dict.fromkeys(seen):
        print("  report: %s" % text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
