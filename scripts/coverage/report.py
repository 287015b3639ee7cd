#!/usr/bin/env python3
"""report.py DIR TREE...: the coverage tables of scripts/coverage.sh.

Reads DIR/TREE.info (lcov, merged over the arches) for each TREE and
prints, per tree, one row per source file: lines, functions and branches
hit of those found, and the total; then, for the first tree (ours), every
function no suite reached, also written to DIR/unreached.txt.
"""
import os
import sys


def parse(path):
    """{file: {"lines": (hit, found), "fns": ..., "branches": ..., "unreached": [...]}}"""
    files = {}
    cur = None
    fn_line = {}
    for raw in open(path):
        line = raw.strip()
        if line.startswith("SF:"):
            cur = {"lines": [0, 0], "fns": [0, 0], "branches": [0, 0],
                   "unreached": []}
            files[line[3:]] = cur
            fn_line = {}
        elif cur is None:
            continue
        elif line.startswith("FN:"):
            no, name = line[3:].split(",", 1)
            fn_line[name] = int(no)
        elif line.startswith("FNDA:"):
            count, name = line[5:].split(",", 1)
            if int(count) == 0:
                cur["unreached"].append((fn_line.get(name, 0), name))
        elif line.startswith(("LF:", "LH:", "FNF:", "FNH:", "BRF:", "BRH:")):
            key, val = line.split(":", 1)
            slot = {"LF": ("lines", 1), "LH": ("lines", 0),
                    "FNF": ("fns", 1), "FNH": ("fns", 0),
                    "BRF": ("branches", 1), "BRH": ("branches", 0)}[key]
            cur[slot[0]][slot[1]] = int(val)
    return files


# The perf core's own sources: kernel/events/ and the PMUv3 driver.  The
# headers of the rest of the kernel (their inline functions are counted in
# every object that uses them) and uprobes.c (in kernel/events/ but not
# perf's: it is neither ours nor part of the comparison) are left out.
def is_core(name):
    if name == "kernel/events/uprobes.c":
        return False
    return name.startswith("kernel/events/") or name in (
        "arch/arm64/kernel/perf_event.c", "drivers/perf/arm_pmuv3.c")


def pct(pair):
    hit, found = pair
    return "%5.1f%% %5d/%-5d" % (100.0 * hit / found, hit, found) if found \
        else "     -            "


def table(tree, files):
    print("== %s" % tree)
    print("%-40s %-19s %-19s %-19s" % ("file", "lines", "functions", "branches"))
    total = {"lines": [0, 0], "fns": [0, 0], "branches": [0, 0]}
    for name in sorted(n for n in files if is_core(n)):
        f = files[name]
        print("%-40s %s %s %s" % (name, pct(f["lines"]), pct(f["fns"]),
                                  pct(f["branches"])))
        for k in total:
            total[k][0] += f[k][0]
            total[k][1] += f[k][1]
    print("%-40s %s %s %s" % ("total", pct(total["lines"]), pct(total["fns"]),
                              pct(total["branches"])))
    return total


def main():
    res, trees = sys.argv[1], sys.argv[2:]
    data = {t: parse(os.path.join(res, t + ".info")) for t in trees
            if os.path.exists(os.path.join(res, t + ".info"))}
    totals = {}
    for t in trees:
        if t in data:
            totals[t] = table(t, data[t])
        else:
            print("== %s: no coverage data" % t)
    if len(totals) > 1:
        print("== totals side by side")
        for t in trees:
            if t in totals:
                print("%-40s %s %s %s" % (t, pct(totals[t]["lines"]),
                                          pct(totals[t]["fns"]),
                                          pct(totals[t]["branches"])))
    if not trees or trees[0] not in data:
        return 1
    out = []
    for name in sorted(n for n in data[trees[0]] if is_core(n)):
        for no, fn in sorted(data[trees[0]][name]["unreached"]):
            out.append("%s:%d %s" % (name, no, fn))
    with open(os.path.join(res, "unreached.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("== functions of %s no suite reached: %d (%s)" %
          (trees[0], len(out), os.path.join(res, "unreached.txt")))
    for line in out:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
