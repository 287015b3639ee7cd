#!/usr/bin/env python3
"""fuzz-summary.py DIR: what make fuzz found, ours beside mainline.

DIR holds one console log per guest run of plan=fuzz, named
TREE-ARCH[-VARIANT].log, with TREE-ARCH[-VARIANT].rc beside it (the guest
runner's exit status).  For each, prints the fuzzer's passes (seed, ops
done, opens that succeeded, stuck or dead workers) and every distinct
kernel report with its first stack lines.  Reports are summary.py's
REPORTS and NOTES: for the fuzzer, RCU stalls, soft lockups and hung tasks
count as reports too, but never fail the run (STALLS).  A guest that
died (panic, timeout) without a
report counts as the report "guest died".

Exit status 1 if, on some arch, our kernel shows a report (by its key: kind
and function, see report_key()) that mainline's run of the same seed does
not, or a kernel-internal errno (odd-errno) out of perf_event_open(); else
0.  Writes DIR/fuzz.json.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import ANSI, NOTES, REPORTS  # noqa: E402

STAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
FRAME = re.compile(r"^\s*(?:\[<[0-9a-f]+>\]\s*)?(?:\?\s*)?"
                   r"([A-Za-z_][\w.]*\+0x[0-9a-f]+/0x[0-9a-f]+)")
PC = re.compile(r"^(?:RIP: [0-9a-f]{4}:|pc : |pc:\s*)([A-Za-z_][\w.]*)\+0x")
ALLOCATORS = re.compile(r"^(kmalloc|__kmalloc|kmem_cache_alloc|kmemleak|"
                        r"slab_post_alloc|__alloc|alloc_pages|kzalloc|"
                        r"__kvmalloc|kvmalloc|krealloc|__do_kmalloc|"
                        r"___slab_alloc|kmalloc_trace|__kmem_cache)")


# Stalls under TCG come from the emulator starving vCPUs (mainline shows
# them too, in the same places, but not always in the same run): shown,
# never failed, as in make test.
STALLS = re.compile(r"^(RCU stall|soft lockup|hung task|.*blocked for more)")


def func(frame):
    return frame.split("+")[0]


def report_key(line, frames, pc):
    """A name for a report that is the same on both kernels for the same
    kind of trouble in the same place (no addresses, line numbers, pids)."""
    first = pc or (func(frames[0]) if frames else "?")
    m = re.search(r"WARNING: CPU: \d+ PID: \d+ at (\S+?)(?::\d+)? (\S+?)\+0x", line)
    if m:
        return "WARNING in %s" % m.group(2)
    m = re.search(r"BUG: KASAN: ([\w-]+) in (\S+?)\+0x", line)
    if m:
        return "KASAN: %s in %s" % (m.group(1), m.group(2))
    m = re.search(r"UBSAN: ([\w-]+(?: [\w-]+)*) in (\S+?):\d+", line)
    if m:
        return "UBSAN: %s in %s" % (m.group(1), m.group(2))
    if re.search(r"soft lockup", line):
        return "soft lockup"
    if re.search(r"rcu_.*detected stall|rcu: INFO: .*stall", line):
        return "RCU stall"
    if re.search(r"INFO: task .* blocked", line):
        return "hung task"
    m = re.search(r"kernel BUG at (\S+?):\d+", line)
    if m:
        return "kernel BUG at %s" % m.group(1)
    if line.startswith("WARNING: ") or "possible recursive locking" in line \
            or "possible circular locking" in line \
            or "inconsistent lock state" in line:
        return re.sub(r"\d+", "N", line.split("] ")[-1]).strip()
    if "unreferenced object" in line:
        alloc = [func(f) for f in frames if not ALLOCATORS.match(func(f))]
        return "kmemleak leak from %s" % (alloc[0] if alloc else "?")
    m = re.search(r"Kernel panic - not syncing: (.*)", line)
    if m:
        return "panic: %s" % re.sub(r"0x[0-9a-f]+|\d+", "N", m.group(1)).strip()
    m = re.search(r"refcount_t: (.*?)[.;]", line)
    if m:
        return "refcount_t: %s in %s" % (m.group(1), first)
    m = re.search(r"(list_add corruption|list_del corruption|ODEBUG: \w+ \w+)", line)
    if m:
        return "%s in %s" % (m.group(1), first)
    m = re.search(r"BUG: sleeping function called from invalid context", line)
    if m:
        return "sleeping function called from invalid context in %s" % first
    if re.search(r"BUG: |Oops|general protection fault", line):
        what = re.sub(r"(address|at|for address):? ?\S+", r"\1", line)
        what = re.sub(r"\b0x[0-9a-f]+\b|\[#\d+\]|\b\d+\b", "N", what).strip()
        return "%s in %s" % (what, first)
    return re.sub(r"0x[0-9a-f]+|\d+", "N", line).strip()


def parse(path):
    """The fuzz passes and the distinct reports of one guest's log."""
    raw = open(path, errors="replace").read().splitlines()
    lines = [STAMP.sub("", ANSI.sub("", l.rstrip("\r"))) for l in raw]
    info = {"passes": [], "reports": {}, "booted": False, "done": False,
            "events": []}
    cur = None
    for i, l in enumerate(lines):
        if l.startswith("@@HARNESS boot"):
            info["booted"] = True
        elif l.startswith("@@HARNESS done"):
            info["done"] = True
        m = re.match(r"^@@PROG (fuzz-\w+|repro-\S+) (begin|end)(?: rc=(\d+))?", l)
        if m:
            if m.group(2) == "begin":
                cur = {"name": m.group(1), "rc": None, "seed": None,
                       "ops": None, "opens_ok": None, "stuck": 0}
                info["passes"].append(cur)
            elif cur:
                cur["rc"] = int(m.group(3) or 0)
                cur = None
            continue
        if l.startswith("@@FUZZ ") and cur is not None:
            kv = dict(re.findall(r"(\w+)=(\S+)", l))
            if l.startswith("@@FUZZ start"):
                cur["seed"] = kv.get("seed")
            elif l.startswith("@@FUZZ done"):
                cur["ops"] = int(kv.get("ops", 0))
                cur["opens_ok"] = int(kv.get("opens_ok", 0))
                cur["stuck"] = int(kv.get("stuck", 0))
            elif l.startswith("@@FUZZ ops="):
                cur["ops_seen"] = int(kv.get("ops", 0))
            elif re.match(r"@@FUZZ (stuck|worker-process|killing|odd-errno)", l):
                info["events"].append("%s: %s" % (cur["name"], l[7:]))
            continue
        if REPORTS.search(l) or NOTES.search(l):
            frames, pc = [], None
            for nxt in lines[i + 1:i + 80]:
                if REPORTS.search(nxt) or "---[ end trace" in nxt:
                    break
                m = PC.match(nxt.strip())
                if m and not pc:
                    pc = m.group(1)
                m = FRAME.match(nxt)
                if m and len(frames) < 8 and not nxt.lstrip().startswith("?"):
                    frames.append(m.group(1))
            key = report_key(l, frames, pc)
            if key not in info["reports"]:
                info["reports"][key] = {"line": l.strip(), "frames": frames,
                                        "pc": pc,
                                        "pass": cur["name"] if cur else None}
    return info


def load(d):
    runs = {}
    for fn in sorted(os.listdir(d)):
        if not fn.endswith(".log") or fn.endswith(".build.log"):
            continue
        base = fn[:-4]
        parts = base.split("-", 2)
        if len(parts) < 2:
            continue
        tree, arch = parts[0], parts[1]
        variant = parts[2] if len(parts) > 2 else ""
        info = parse(os.path.join(d, fn))
        rcf = os.path.join(d, base + ".rc")
        info["rc"] = int(open(rcf).read().strip() or 0) if os.path.exists(rcf) else 0
        info["died"] = info["rc"] != 0 or not info["booted"] or not info["done"]
        if info["died"] and not info["reports"]:
            why = "timed out" if info["rc"] == 124 else "rc=%d" % info["rc"]
            info["reports"]["guest died (%s)" % why] = {
                "line": "the guest did not finish: %s" % why, "frames": [],
                "pc": None, "pass": None}
        runs[(tree, arch, variant)] = info
    return runs


def main():
    d = sys.argv[1]
    runs = load(d)
    if not runs:
        print("fuzz-summary: no guest logs in %s" % d)
        return 2
    print("\n== make fuzz ==")
    print("%-18s %-9s %-7s %-34s %s" % ("arch", "tree", "guest", "passes: seed ops (opens ok)",
                                         "reports"))
    for (tree, arch, variant), info in sorted(runs.items(),
                                              key=lambda r: (r[0][1], r[0][2], r[0][0])):
        label = arch + ("-" + variant if variant else "")
        passes = ", ".join(
            "%s s%s %s (%s)" % (p["name"].replace("fuzz-", ""), p["seed"],
                                p["ops"] if p["ops"] is not None
                                else "%s?" % p.get("ops_seen", 0),
                                p["opens_ok"] if p["opens_ok"] is not None else "-")
            for p in info["passes"]) or "-"
        guest = "died" if info["died"] else "ok"
        print("%-18s %-9s %-7s %-34s %d" % (label, tree, guest, passes,
                                           len(info["reports"])))
    bad = []
    arches = sorted(set((a, v) for (_t, a, v) in runs))
    for arch, variant in arches:
        label = arch + ("-" + variant if variant else "")
        main_run = runs.get(("mainline", arch, variant))
        ours = runs.get(("ours", arch, variant))
        for tree, run in (("mainline", main_run), ("ours", ours)):
            if not run:
                continue
            for e in run["events"]:
                print("\n%s %s: %s" % (tree, label, e))
                # our perf_event_open() never lets a kernel-internal
                # errno (512 and up) out (syscall.c perf_open_errno())
                if tree == "ours" and "odd-errno call=perf_event_open " in e:
                    bad.append((label, "kernel-internal errno from perf_event_open: " +
                                e.split("odd-errno ", 1)[1]))
            for key, r in run["reports"].items():
                new = (tree == "ours" and main_run is not None and
                       key not in main_run["reports"])
                stall = STALLS.match(key)
                tag = " (NEW: not on mainline)" if new else \
                    " (mainline too)" if tree == "ours" and main_run else ""
                if stall and tree == "ours":
                    tag += " (emulation class: shown, not failed)"
                print("\n%s %s: %s%s" % (tree, label, key, tag))
                print("    %s" % r["line"])
                if r["pc"]:
                    print("      at %s" % r["pc"])
                for f in r["frames"][:6]:
                    print("      %s" % f)
                if r["pass"]:
                    print("    (during %s)" % r["pass"])
                if (new or (tree == "ours" and main_run is None)) and not stall:
                    bad.append((label, key))
    with open(os.path.join(d, "fuzz.json"), "w") as f:
        json.dump({"%s-%s%s" % (t, a, "-" + v if v else ""): {
            "passes": i["passes"], "reports": i["reports"], "died": i["died"],
            "events": i["events"]} for (t, a, v), i in runs.items()},
            f, indent=1, sort_keys=True)
    if bad:
        print("\nfuzz: our kernel shows %d report(s) that mainline's run of the same seed does not,"
              " or an errno it must never return:" % len(bad))
        for label, key in bad:
            print("  %-18s %s" % (label, key))
        return 1
    print("\nfuzz: no report on our kernel that mainline's run of the same seed does not show.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
