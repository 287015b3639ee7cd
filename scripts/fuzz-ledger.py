#!/usr/bin/env python3
"""The fuzzer's ledger (notes/fuzz-ledger.md): every fuzz run on record.

  fuzz-ledger.py              sum the ledger per arch (make fuzz-ledger)
  fuzz-ledger.py add DIR HOW  append DIR's runs (make fuzz's output
                              directory, its fuzz.json) as one row per
                              arch; HOW is the command that made them

A row is one arch's guests of one run: the date, our commit, the kernel
flavour, the seeds, the calls perf_fuzz made on our kernel and on
mainline's (the passes' "ops"), the distinct reports on each, and how
many of ours mainline's run of the same seeds did not show ("ours
only": fuzz-summary.py's verdict, emulation classes left out).  The sum
counts our calls per arch, those with mainline's run beside them, and
the rows with a report of ours only; it exits 1 if the newest row of an
arch has one.
"""
import datetime
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEDGER = os.path.join(TOP, "notes", "fuzz-ledger.md")
GOAL = 10 * 1000 * 1000
STALLS = re.compile(r"^(RCU stall|soft lockup|hung task|.*blocked for more)")
COLUMNS = ["date", "commit", "arch", "kernel", "seeds", "calls ours",
           "calls mainline", "reports ours", "reports mainline", "ours only",
           "how"]


def rows():
    """The ledger's rows, as dicts of COLUMNS."""
    out = []
    with open(LEDGER) as f:
        for line in f:
            if not line.startswith("|") or line.startswith("|--"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "date" or len(cells) != len(COLUMNS):
                continue
            out.append(dict(zip(COLUMNS, cells)))
    return out


def number(cell):
    cell = cell.replace(",", "")
    return int(cell) if cell.isdigit() else None


def total():
    per = {}
    for r in rows():
        a = per.setdefault(r["arch"], {"ours": 0, "beside": 0, "rows": 0,
                                       "bad": 0, "last_bad": False})
        ours, main = number(r["calls ours"]), number(r["calls mainline"])
        a["rows"] += 1
        a["ours"] += ours or 0
        if ours and main:
            a["beside"] += ours
        bad = number(r["ours only"]) or 0
        a["bad"] += bad > 0
        a["last_bad"] = bad > 0
    rc = 0
    print("%-8s %6s %14s %22s %9s  %s" % ("arch", "rows", "calls ours",
                                          "with mainline beside", "of 10M",
                                          "rows with a report of ours only"))
    for arch in sorted(per):
        a = per[arch]
        print("%-8s %6d %14s %22s %8.1f%%  %d%s" % (
            arch, a["rows"], "{:,}".format(a["ours"]),
            "{:,}".format(a["beside"]), 100.0 * a["ours"] / GOAL, a["bad"],
            " (the newest row too)" if a["last_bad"] else ""))
        rc |= a["last_bad"]
    return 1 if rc else 0


def add(d, how):
    with open(os.path.join(d, "fuzz.json")) as f:
        runs = json.load(f)
    commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE,
                            universal_newlines=True).stdout.strip()
    by_arch = {}
    for name, run in runs.items():
        tree, arch, variant = (name.split("-", 2) + [""])[:3]
        by_arch.setdefault((arch, variant), {})[tree] = run
    lines = []
    for (arch, variant), trees in sorted(by_arch.items()):
        def calls(tree):
            run = trees.get(tree)
            if not run:
                return "-"
            return "{:,}".format(sum(p.get("ops") or p.get("ops_seen") or 0
                                     for p in run["passes"]))
        ours, main = trees.get("ours"), trees.get("mainline")
        seeds = "/".join(str(p["seed"]) for p in (ours or main)["passes"])
        only = "-"
        if ours and main:
            only = str(sum(1 for k in ours["reports"]
                           if k not in main["reports"] and not STALLS.match(k)))
        elif ours:
            only = str(sum(1 for k in ours["reports"] if not STALLS.match(k)))
        cells = [datetime.date.today().isoformat(), commit, arch,
                 variant or "plain", seeds, calls("ours"), calls("mainline"),
                 str(len(ours["reports"])) if ours else "-",
                 str(len(main["reports"])) if main else "-", only, how]
        lines.append("| " + " | ".join(cells) + " |\n")
    with open(LEDGER, "a") as f:
        f.writelines(lines)
    sys.stdout.writelines(lines)
    return 0


def main():
    args = sys.argv[1:]
    if not args:
        return total()
    if args[0] == "add" and len(args) == 3:
        return add(args[1], args[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
