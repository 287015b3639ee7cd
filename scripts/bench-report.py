#!/usr/bin/env python3
"""bench-report.py OUTDIR TREE...: the table of `make bench`.

Reads OUTDIR/logs/TREE-ARCH-REP.log (the console of guest/bench/), prints
one table - benchmark, unit, mainline, ours, ratio ours/mainline, limit,
spread within a run, difference between boots - and writes it as
OUTDIR/bench.csv and OUTDIR/bench.md, the ratios as OUTDIR/bench.png and the
scale curves as OUTDIR/scale.png (when gnuplot is there).

Every figure is the median of the runs inside one boot; "spread" is
(max - min) / median of those runs, the largest of the trees; "boots" is the
largest relative difference of a tree's median between its boots, which
-icount shift=0,sleep=off should make 0.  Rows named *.extra are derived:
the cost with events minus the cost without (the row's limit), i.e. what
perf itself adds.  The exit status is 1 when a guest failed.
"""
import csv
import glob
import math
import os
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"@@BENCH (\S+) (\S+) (\S+) (\S+) (\S+)")
HIGHER_IS_BETTER = ("records_per_s",)


def parse(path):
    vals, order, errors, end = {}, [], [], False
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace").replace("\r", "")
    for line in text.splitlines():
        i = line.find("@@BENCH")
        if i < 0:
            continue
        line = line[i:]
        m = LINE.match(line)
        if m and not line.startswith("@@BENCH-"):
            key = m.group(1)
            vals[key] = tuple(float(m.group(j)) for j in (2, 3, 4)) + (m.group(5),)
            order.append(key)
        elif line.startswith("@@BENCH-ERROR") or line.startswith("@@BENCH-SKIP"):
            errors.append(line)
        elif line.startswith("@@BENCH-END"):
            end = True
    if not end:
        errors.append("no @@BENCH-END: the guest did not finish (last lines below)")
        errors.extend("  | " + l for l in text.splitlines()[-15:])
    return vals, order, errors


def derive(vals, order):
    """Add the *.extra rows: the cost with events over the cost without."""
    def add(key, value_of, limit_key, after):
        if after not in vals or limit_key not in vals:
            return
        v = tuple(value_of(vals[after][i], vals[limit_key][0]) for i in range(3))
        vals[key] = v + (vals[after][3],)
        order.insert(order.index(after) + 1, key)
    base = "ctxsw.task_events.0"
    for k in list(order):
        if k.startswith("ctxsw.") and k != base and not k.endswith(".extra"):
            add(k + ".extra", lambda a, b: a - b, base, k)
    for k, lim in (("sample.pagefault.per_fault", "sample.pagefault.limit.no_event"),
                   ("sideband.mmap_munmap", "sideband.mmap_munmap.limit.no_event"),
                   ("sideband.exec", "sideband.exec.limit.no_event")):
        add(k + ".extra", lambda a, b: a - b, lim, k)


# The "limit" of a benchmark: the same work without perf, or the cheapest
# syscall for read().
LIMITS = {
    "read.single": "read.limit.eventfd",
    "read.group8": "read.limit.null_syscall",
    "sample.pagefault.per_fault": "sample.pagefault.limit.no_event",
    "sideband.mmap_munmap": "sideband.mmap_munmap.limit.no_event",
    "sideband.exec": "sideband.exec.limit.no_event",
    "fork.inherited.8.disabled": "fork.inherited.0",
    "fork.inherited.64.disabled": "fork.inherited.0.fds64",
    "fork.thread.inherited.8.disabled": "fork.thread.inherited.0",
    "fork.thread.inherited.64.disabled": "fork.thread.inherited.0",
}


def limit_for(key):
    return LIMITS.get(key)


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return "%.4g" % v
    if abs(v) >= 100:
        return "%.0f" % v
    return "%.1f" % v


def main():
    outdir = sys.argv[1]
    given = sys.argv[2:] or ["mainline", "ours"]
    trees = list(given)
    data, order, failed = {}, [], []
    for tree in given:
        for path in sorted(glob.glob(os.path.join(outdir, "logs", tree + "-*-*.log"))):
            m = re.match(r".*/%s-(\w+?)-(\d+)\.log$" % re.escape(tree), path)
            if not m:
                continue
            arch, rep = m.group(1), int(m.group(2))
            vals, ordr, errors = parse(path)
            derive(vals, ordr)
            rcfile = path[:-4] + ".rc"
            rc = open(rcfile).read().strip() if os.path.exists(rcfile) else "?"
            if rc != "0" or errors:
                failed.append("%s-%s boot %d (rc=%s)" % (tree, arch, rep, rc))
                for e in errors:
                    failed.append("  " + e)
            data.setdefault(tree, {}).setdefault(arch, {})[rep] = vals
            for k in ordr:
                if (arch, k) not in order:
                    order.append((arch, k))
    if not data:
        print("bench-report.py: no logs under %s/logs" % outdir)
        return 1

    rows = []
    for arch, key in order:
        if ".limit." in key:
            continue
        row = {"arch": arch, "benchmark": key, "unit": None}
        spread = 0.0
        boots = 0.0
        for tree in trees:
            reps = data.get(tree, {}).get(arch, {})
            first = reps.get(min(reps)) if reps else None
            if not first or key not in first:
                row[tree] = None
                continue
            med, lo, hi, unit = first[key]
            row[tree] = med
            row["unit"] = unit
            if med and not key.endswith(".extra"):
                spread = max(spread, (hi - lo) / abs(med))
            for r in reps.values():
                if key in r and med:
                    boots = max(boots, abs(r[key][0] - med) / abs(med))
        lim = limit_for(key)
        row["limit"] = None
        if lim:
            reps = data.get("mainline", data[trees[0]]).get(arch, {})
            if reps and lim in reps[min(reps)]:
                row["limit"] = reps[min(reps)][lim][0]
        if key.endswith(".extra"):
            row["limit"] = 0.0
        row["spread"] = spread
        row["boots"] = boots
        row["better"] = "higher" if any(h in key for h in HIGHER_IS_BETTER) else "lower"
        ratio = None
        if "ours" in trees and "mainline" in trees and row.get("mainline") and row.get("ours") is not None:
            ratio = row["ours"] / row["mainline"]
        row["ratio"] = ratio
        rows.append(row)

    cols = ["arch", "benchmark", "unit"] + trees
    if "ratio" in [r for r in ("ratio",)] and len(trees) > 1:
        cols.append("ratio")
    cols += ["limit", "better", "spread", "boots"]

    def cell(r, c):
        v = r.get(c)
        if c in ("spread", "boots"):
            return "%.2f%%" % (100 * v)
        if c == "ratio":
            return "-" if v is None else "%.3f" % v
        if isinstance(v, float):
            return fmt(v)
        return "-" if v is None else str(v)

    table = [[cell(r, c) for c in cols] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)]
    line = "  ".join(c.ljust(w) for c, w in zip(cols, widths))
    print(line)
    print("-" * len(line))
    for t in table:
        print("  ".join((v.ljust(w) if i < 3 else v.rjust(w))
                        for i, (v, w) in enumerate(zip(t, widths))))
    with open(os.path.join(outdir, "bench.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([("" if r.get(c) is None else r.get(c)) for c in cols])
    with open(os.path.join(outdir, "bench.md"), "w") as f:
        f.write("| " + " | ".join(cols) + " |\n")
        f.write("|" + "|".join("---" if i < 3 else "---:" for i in range(len(cols))) + "|\n")
        for t in table:
            f.write("| " + " | ".join(t) + " |\n")
    plot(outdir, rows, trees)
    worst = max((r["boots"] for r in rows), default=0.0)
    print("bench-report.py: %d benchmarks; largest difference between boots %.3f%%"
          % (len(rows), 100 * worst))
    if failed:
        print("bench-report.py: FAILED guests:")
        for l in failed:
            print("  " + l)
        return 1
    return 0


def plot(outdir, rows, trees):
    if not shutil.which("gnuplot") or "ours" not in trees or "mainline" not in trees:
        return
    dat = os.path.join(outdir, "ratios.dat")
    n = 0
    with open(dat, "w") as f:
        for r in rows:
            if r["ratio"] is None or not math.isfinite(r["ratio"]):
                continue
            f.write('"%s" %.4f\n' % (r["benchmark"], r["ratio"]))
            n += 1
    script = """
set terminal png size 1400,%d noenhanced
set output '%s'
set title 'ours / mainline (guest instructions; below 1 is better for ours)'
set style fill solid 0.6
set boxwidth 0.7
set yrange [-1:%d]
set ytics nomirror font ',9'
set grid xtics
unset key
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lw 2 lc rgb 'black'
plot '%s' using 2:0:(0):2:($0-0.35):($0+0.35):yticlabels(1) with boxxyerror
unset arrow 1
""" % (200 + 18 * n, os.path.join(outdir, "bench.png"), n, dat)
    # scale curves: per-switch and per-open cost against the event count,
    # one data file per curve
    plots = []
    for where in ("task", "cpu"):
        for what in ("ctxsw", "open"):
            for tree in trees:
                pts = []
                for r in rows:
                    m = re.match(r"scale\.%s\.(\d+)\.%s$" % (where, what), r["benchmark"])
                    if m and r.get(tree) is not None:
                        pts.append("%s %s\n" % (m.group(1), r[tree]))
                if not pts:
                    continue
                path = os.path.join(outdir, "scale-%s-%s-%s.dat" % (where, what, tree))
                with open(path, "w") as f:
                    f.writelines(pts)
                plots.append("'%s' using 1:2 with linespoints title '%s: %s events, ns per %s'"
                             % (path, tree, where, "switch" if what == "ctxsw" else "open"))
    if plots:
        script += """
set terminal png size 1000,700 noenhanced
set output '%s'
set title 'scale: guest ns per context switch / per open against the number of events'
set logscale xy
set xrange [0.5:20000]
set autoscale y
set yrange [*:*]
set key left top
set ytics auto
unset grid
plot %s
""" % (os.path.join(outdir, "scale.png"), ", ".join(plots))
    r = subprocess.run(["gnuplot"], input=script, universal_newlines=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode:
        print("bench-report.py: gnuplot failed:\n" + r.stdout)


if __name__ == "__main__":
    sys.exit(main())
