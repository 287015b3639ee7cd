#!/usr/bin/env python3
"""kcsan-report.py LOG OBJ...: the KCSAN reports of a console log, sorted.

A report begins with "BUG: KCSAN: data-race in A / B" (or "...: value
changed ..." lines inside it) and lists the two racing accesses, each
with a stack.  A report is ours when a function defined in one of the
object files OBJ (those of kernel/events/ and the PMUv3 driver; nm
lists them) is the first frame of either access.  Prints each distinct
report (its title) with its count, ours first; exit status 1 if any is
ours, or if the guest did not finish ("@@HARNESS done") or its kernel
reported something else (an Oops, a BUG, a WARNING, lockdep): a run that
died part-way checked only what ran before.
"""
import os
import re
import subprocess
import sys

ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|.)")
TITLE = re.compile(r"BUG: KCSAN: (\S+) in (\S+?)(?:\+0x\w+/0x\w+)? / (\S+?)(?:\+0x\w+/0x\w+)?\s*$")
TITLE1 = re.compile(r"BUG: KCSAN: (\S+) in (\S+?)(?:\+0x\w+/0x\w+)?\s*$")
ACCESS = re.compile(r"^(read|write|read-write)( \(marked\))? to .* by ")
FRAME = re.compile(r"^\s*([A-Za-z_][\w.]*)\+0x")
OTHER = re.compile(r"\] (Oops|BUG: (?!KCSAN)|WARNING: |Kernel panic|"
                   r"possible circular locking|possible recursive locking|"
                   r"inconsistent lock state|suspicious RCU usage)")


def other_reports(log):
    """(finished, [the first line of each non-KCSAN kernel report])"""
    finished, other = False, []
    for raw in open(log, errors="replace"):
        line = ANSI.sub("", raw).rstrip("\r\n")
        if line.startswith("@@HARNESS done"):
            finished = True
        if OTHER.search(line):
            other.append(line)
    return finished, other


def our_functions(objs):
    names = set()
    for obj in objs:
        if not os.path.exists(obj):
            continue
        out = subprocess.run(["nm", "--defined-only", obj], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                names.add(parts[2].split(".")[0])
    return names


def reports(log):
    """[(title, [first frame of each access])]"""
    out = []
    cur = None
    want_frame = False
    for raw in open(log, errors="replace"):
        line = ANSI.sub("", raw).rstrip("\r\n")
        line = re.sub(r"^\[\s*\d+\.\d+\]\s*", "", line)
        m = TITLE.search(line) or TITLE1.search(line)
        if m:
            cur = (line[line.index("BUG: KCSAN"):], [])
            out.append(cur)
            want_frame = False
            continue
        if cur is None:
            continue
        if ACCESS.match(line):
            want_frame = True
            continue
        f = FRAME.match(line)
        if want_frame and f:
            cur[1].append(f.group(1))
            want_frame = False
        if line.startswith("=========="):
            want_frame = False
    return out


def main():
    log, objs = sys.argv[1], sys.argv[2:]
    ours = our_functions(objs)
    found = reports(log)
    seen = {}
    for title, frames in found:
        m = TITLE.search(title) or TITLE1.search(title)
        named = [g for g in m.groups()[1:] if g] if m else []
        mine = any(f in ours for f in frames + named)
        key = re.sub(r"\+0x\w+/0x\w+", "", title)
        count, was_mine, fr = seen.get(key, (0, False, frames))
        seen[key] = (count + 1, was_mine or mine, fr)
    mine = {k: v for k, v in seen.items() if v[1]}
    print("%s: %d KCSAN reports, %d distinct, %d distinct in the perf core" %
          (os.path.basename(log), len(found), len(seen), len(mine)))
    for key, (count, m, frames) in sorted(seen.items(), key=lambda kv: (not kv[1][1], kv[0])):
        print("  %s %3dx %s  [%s]" % ("OURS " if m else "other", count, key,
                                      " / ".join(frames)))
    finished, other = other_reports(log)
    for line in other[:20]:
        print("  kernel report: %s" % line)
    if not finished:
        print("  the guest did not finish: only what ran before its end was checked")
    return 1 if mine or other or not finished else 0


if __name__ == "__main__":
    sys.exit(main())
