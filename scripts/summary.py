#!/usr/bin/env python3
"""summary.py [--require-ours] DIR: tables of the guest runs' results.

DIR holds one console log per guest run, named TREE-ARCH[-VARIANT].log, with
TREE-ARCH[-VARIANT].rc beside it (the guest runner's exit status) and
TREE-ARCH[-VARIANT].plan (the suites it was asked to run).  Prints one table
per suite (ours vs mainline, per arch), every test mainline passes and ours
does not, and a closing tally for our tree.  Writes DIR/results.json.

Exit status (with --require-ours): 1 if a test passes on mainline and not on
ours, a test of our own selftests fails on ours, a guest of ours died, or a
debug guest's console shows a report; otherwise 0.
"""
import json
import os
import re
import sys

# The tree compared with mainline.
OURS = "ours"

TAP = re.compile(r"^(not )?ok \d+ (.*?)(?:\s+#\s*(SKIP|TODO)\b(.*))?$")
# perf test's result lines; guest/suites/perf-test.sh adds "(killed after Ns)"
# to the FAILED! line of a test it had to kill.
PERFTEST = re.compile(r"^\s*(\d+(?:\.\d+)?): (.*?)\s*: "
                      r"(Ok|FAILED!(?: \(killed after \d+s\))?|Skip.*)\s*$")
PLAN = re.compile(r"^1\.\.(\d+)")
# What our kernels must never print: lockdep, WARN, BUG, KASAN/UBSAN, Oops,
# object and list debugging.  Any of these on our tree fails the run.
REPORTS = re.compile(
    r"(WARNING: |BUG: |BUG at|Oops|KASAN|UBSAN|general protection fault|"
    r"possible recursive locking|possible circular locking|"
    r"inconsistent lock state|suspicious RCU usage|"
    r"kernel BUG|Kernel panic|unreferenced object|refcount_t: |"
    r"ODEBUG: |list_add corruption|list_del corruption|sleeping function called)")
# What emulation itself can cause (mainline shows it too): shown, not failed.
NOTES = re.compile(r"(INFO: task .* blocked|rcu_.*detected stall|soft lockup)")
ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|.)")


def parse_log(path):
    """Return (results: {suite: {test: status}}, info: dict)."""
    lines = open(path, errors="replace").read().splitlines()
    results = {}
    info = {"booted": False, "done": False, "pmu_nmi": False,
            "reports": [], "notes": [],
            "suites_seen": []}
    suite = prog = None
    progres = {}
    plan = None
    mode = None
    in_dmesg = False
    retry = False

    def close_prog(complete, rc):
        res = results.setdefault(suite, {})
        for k, v in progres.items():
            key = prog + ":" + k
            # A retry can turn a failure into a pass, never the reverse.
            if res.get(key) == "PASS" and v != "PASS":
                continue
            res[key] = v
        if retry and progres:
            res.pop(prog, None)
            res.pop(prog + ":(killed or crashed)", None)
        if plan is not None and len(progres) < plan:
            for i in range(len(progres) + 1, plan + 1):
                res["%s:#%d (not reported)" % (prog, i)] = "FAIL"
        if not progres and (not complete or rc != 0):
            res[prog] = "FAIL"
        elif not complete:
            res[prog + ":(killed or crashed)"] = "FAIL"

    for raw in lines:
        line = ANSI.sub("", raw.rstrip("\r"))
        if line.startswith("@@HARNESS boot"):
            info["booted"] = True
            info["kernel"] = line.split(" ", 2)[2]
            continue
        if line.startswith("@@HARNESS done"):
            info["done"] = True
            continue
        # The kernel log and kmemleak's findings, dumped after the suites.
        if line.startswith(("@@DMESG ", "@@KMEMLEAK ")):
            in_dmesg = line.endswith(" begin")
            continue
        if in_dmesg:
            # arm_pmu's probe line: the PMU interrupt was taken as an NMI.
            if "hw perfevents: " in line and "using NMIs" in line:
                info["pmu_nmi"] = True
            # NOTES first: the watchdog's "BUG: soft lockup" is one
            if NOTES.search(line):
                info["notes"].append(line)
            elif REPORTS.search(line):
                info["reports"].append(line)
            continue
        m = re.match(r"^@@SUITE (\S+) (begin|end)", line)
        if m:
            if m.group(2) == "begin":
                suite = m.group(1)
                info["suites_seen"].append(suite)
                results.setdefault(suite, {})
            else:
                suite = None
            continue
        m = re.match(r"^@@PROG (\S+) (begin|retry|end)(?: rc=(\d+))?", line)
        if m and suite:
            if m.group(2) in ("begin", "retry"):
                retry = m.group(2) == "retry"
                prog, progres, plan = m.group(1), {}, None
                mode = "perftest" if prog == "perf-test" else "tap"
            elif prog:
                close_prog(True, int(m.group(3) or 0))
                prog = None
            continue
        if not prog:
            continue
        if mode == "tap":
            m = PLAN.match(line)
            if m and plan is None:
                plan = int(m.group(1))
                continue
            m = TAP.match(line)
            if m:
                name = m.group(2).split(" # ")[0].strip()
                if m.group(3) == "SKIP":
                    status = "SKIP"
                else:
                    status = "FAIL" if m.group(1) else "PASS"
                progres[name] = status
        else:
            m = PERFTEST.match(line)
            if m:
                name = "%s: %s" % (m.group(1), m.group(2))
                word = m.group(3)
                progres[name] = ("PASS" if word == "Ok" else
                                 "FAIL" if word.startswith("FAILED") else "SKIP")
    if prog and suite:
        close_prog(False, None)
    info["tail"] = lines[-100:]
    return results, info


def load_run(base):
    results, info = parse_log(base + ".log")
    rc = int(open(base + ".rc").read().strip()) if os.path.exists(base + ".rc") else 0
    plan = []
    if os.path.exists(base + ".plan"):
        plan = [s for s in open(base + ".plan").read().strip().split(",") if s]
    info["rc"] = rc
    info["died"] = rc != 0 or not info["booted"] or not info["done"]
    for s in plan:
        if s not in results:
            results[s] = {"(suite did not run)": "FAIL"}
    if info["died"]:
        for s in plan or ["guest"]:
            results.setdefault(s, {})["(guest died: rc=%d)" % rc] = "FAIL"
    return results, info


def tally(res):
    p = sum(1 for v in res.values() if v == "PASS")
    f = sum(1 for v in res.values() if v == "FAIL")
    s = sum(1 for v in res.values() if v == "SKIP")
    return p, f, s


def main():
    args = sys.argv[1:]
    require = "--require-ours" in args
    args = [a for a in args if not a.startswith("--")]
    d = args[0]
    runs = {}
    for fn in sorted(os.listdir(d)):
        if fn.endswith(".log") and not fn.endswith(".build.log"):
            base = fn[:-4]
            parts = base.split("-", 2)
            tree, arch = parts[0], parts[1]
            variant = parts[2] if len(parts) > 2 else ""
            runs[(tree, arch, variant)] = load_run(os.path.join(d, base))
    if not runs:
        print("summary: no guest logs in %s" % d)
        return 1

    configs = sorted(set((a, v) for (_t, a, v) in runs))
    suites = []
    for (_t, _a, _v), (res, _i) in sorted(runs.items()):
        for s in res:
            if s not in suites:
                suites.append(s)
    bad = []
    for suite in suites:
        print("\n== suite: %s ==" % suite)
        print("%-16s %-22s %-22s" % ("arch", "mainline pass/fail/skip",
                                     "ours pass/fail/skip"))
        for arch, variant in configs:
            label = arch + ("-" + variant if variant else "")
            cells = []
            for tree in ("mainline", OURS):
                run = runs.get((tree, arch, variant))
                if not run or suite not in run[0]:
                    cells.append("-")
                else:
                    cells.append("%d / %d / %d" % tally(run[0][suite]))
            if cells != ["-", "-"]:
                print("%-16s %-22s %-22s" % (label, cells[0], cells[1]))
            ours = runs.get((OURS, arch, variant))
            main = runs.get(("mainline", arch, variant))
            if not ours or suite not in ours[0]:
                continue
            ores = ours[0][suite]
            for test, st in sorted(ores.items()):
                if st != "FAIL":
                    continue
                if test.startswith("(guest died"):
                    bad.append((suite, label, test, "our guest died"))
                elif suite == "selftests":
                    bad.append((suite, label, test, "our selftest fails on ours"))
                elif main and main[0].get(suite, {}).get(test) == "PASS":
                    bad.append((suite, label, test, "passes on mainline"))
                elif main and suite in main[0] and test not in main[0][suite] \
                        and not test.startswith("("):
                    bad.append((suite, label, test, "not run on mainline"))
            if main and suite in main[0]:
                for test, st in sorted(main[0][suite].items()):
                    if st == "PASS" and test not in ores:
                        bad.append((suite, label, test,
                                    "passes on mainline, missing on ours"))
    for (tree, arch, variant), (res, info) in sorted(runs.items()):
        label = "%s-%s%s" % (tree, arch, "-" + variant if variant else "")
        if info["notes"]:
            print("\n%s: the kernel log notes (emulation can cause these; not failed):" % label)
            for l in info["notes"][:10]:
                print("  " + l)
        if info["reports"]:
            print("\n%s: the kernel log shows %d report line(s):" %
                  (label, len(info["reports"])))
            for l in info["reports"][:40]:
                print("  " + l)
            if tree == OURS:
                bad.append(("kernel-log", label, "lockdep/WARN/BUG/KASAN/UBSAN/Oops report",
                            "our kernel reported"))
        # Every arm64 guest boots with the PMU interrupt as a pseudo-NMI
        # (guest-run.sh); a finished run whose kernel log does not say so
        # tested the overflow path as an ordinary IRQ.
        if arch == "arm64" and info["done"] and not info["pmu_nmi"]:
            print("\n%s: the kernel log lacks \"hw perfevents: ... using NMIs\"" % label)
            if tree == OURS:
                bad.append(("kernel-log", label, "PMU interrupt not an NMI",
                            "no \"using NMIs\" in the kernel log"))
        if info["died"]:
            print("\n%s: the guest did not finish (rc=%d); its last 100 console lines:" %
                  (label, info["rc"]))
            for l in info["tail"]:
                print("  | " + l)
    if bad:
        print("\n== tests that fail on our tree ==")
        for suite, label, test, why in bad:
            print("  %-20s %-16s %s  (%s)" % (suite, label, test, why))
    elif any(t == OURS for (t, _a, _v) in runs):
        print("\nEvery test that passes on mainline passes on our tree.")
    out = {"%s-%s%s" % (t, a, "-" + v if v else ""): {
        "results": r, "reports": i["reports"], "died": i["died"]}
        for (t, a, v), (r, i) in runs.items()}
    out["regressions"] = [list(b) for b in bad]
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    # A test that fails on our tree and is not a regression (it fails on
    # mainline too, in the same guest) is a known failure of the test bed:
    # listed on its own, not counted as failed in the closing line.
    regressions = set((b[0], b[1], b[2]) for b in bad)
    for tree in (OURS, "mainline"):
        tot = [0, 0, 0]
        known = []
        have = False
        for (t, a, v), (res, _i) in sorted(runs.items()):
            if t != tree:
                continue
            have = True
            label = a + ("-" + v if v else "")
            for suite, sres in res.items():
                for i, n in enumerate(tally(sres)):
                    tot[i] += n
                if tree != OURS:
                    continue
                ml = runs.get(("mainline", a, v), ({}, None))[0].get(suite, {})
                for test, st in sorted(sres.items()):
                    if st == "FAIL" and (suite, label, test) not in regressions:
                        known.append("%s %s: %s (mainline: %s)" %
                                     (label, suite, test,
                                      ml.get(test, "not run").lower()))
        if not have or (tree != OURS and any(t == OURS for (t, _a, _v) in runs)):
            continue
        if known:
            print("\n%s tree: %d known failure(s) of the test bed (none "
                  "passes on mainline in the same guest):" % (tree, len(known)))
            for k in known:
                print("  " + k)
        print("\n%s tree: %d passed, %d failed, %d skipped" %
              (tree, tot[0], tot[1] - len(known), tot[2]))
    return 1 if (require and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
