#!/usr/bin/env python3
"""Prepare kernel source trees for the harness.

  tree.py pristine DIR          unpack Debian's linux-source-6.12 into DIR
  tree.py prepare ours DIR      make DIR = pristine - replaced files + linux/ + edits/
  tree.py prepare mainline DIR  make DIR = pristine
  tree.py files                 list the paths our patch adds, replaces or edits
  tree.py install KSRC          lay our patch over an existing 6.12 tree

DIR is created as a hard-linked copy of the pristine tree the first time;
afterwards it is synchronised file by file, touching only what changed, so
in-tree incremental builds stay incremental.  Files are replaced by unlinking
them first, never written in place, so the pristine tree stays pristine.
"""
import glob
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINUX = os.path.join(ROOT, "linux")
EDITS = os.path.join(ROOT, "edits")
TARBALL_GLOB = "/usr/src/linux-source-6.12.tar.*"
MANIFEST = ".harness-manifest"

# Mainline paths our patch replaces as a whole, once linux/ provides the
# replacement named on the left.  Paths on the right are removed from our
# tree (all files below a directory), except those listed in KEEP.
REPLACES = [
    ("kernel/events", ["kernel/events"]),
    ("include/linux/perf_event.h", ["include/linux/perf_event.h"]),
    ("include/uapi/linux/perf_event.h", ["include/uapi/linux/perf_event.h"]),
    ("tools/testing/selftests/perf_events",
     ["tools/testing/selftests/perf_events"]),
    ("arch/arm64/kernel/perf_event.c", ["drivers/perf/arm_pmuv3.c"]),
]
# uprobes.c is not perf's; mainline's tests stay next to ours: its KUnit
# test of breakpoint slots (our Makefile builds it) and its four
# perf_events selftests (our selftests Makefile builds them too).
MAINLINE_SELFTESTS = ["sigtrap_threads", "remove_on_exec", "watermark_signal",
                      "mmap"]
KEEP = {"kernel/events/uprobes.c", "kernel/events/hw_breakpoint_test.c"} | {
    "tools/testing/selftests/perf_events/%s.c" % t for t in MAINLINE_SELFTESTS}


def die(msg):
    sys.stderr.write("tree.py: %s\n" % msg)
    sys.exit(1)


def walk_files(base, rel):
    top = os.path.join(base, rel)
    if os.path.isfile(top) or os.path.islink(top):
        return [rel]
    out = []
    for dirpath, _dirs, files in os.walk(top):
        for f in files:
            out.append(os.path.relpath(os.path.join(dirpath, f), base))
    return out


def our_files():
    if not os.path.isdir(LINUX):
        return []
    return sorted(walk_files(LINUX, "."))


def edit_patches():
    return sorted(glob.glob(os.path.join(EDITS, "*.patch")))


def patch_targets(patch):
    targets = []
    with open(patch) as f:
        for line in f:
            if line.startswith("+++ "):
                path = line[4:].split("\t")[0].strip()
                if path.startswith("b/"):
                    path = path[2:]
                targets.append(path)
    return targets


def tarball():
    found = sorted(glob.glob(TARBALL_GLOB))
    if not found:
        die("no %s: apt-get install linux-source-6.12" % TARBALL_GLOB)
    return found[0]


def cmd_pristine(dest):
    tb = tarball()
    stamp = "%s %d" % (os.path.basename(tb), os.path.getsize(tb))
    stampfile = os.path.join(dest, ".harness-pristine")
    if os.path.exists(stampfile) and open(stampfile).read().strip() == stamp:
        return
    if os.path.exists(dest):
        shutil.rmtree(dest)
    tmp = dest + ".tmp"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp)
    subprocess.check_call(["tar", "xf", tb, "-C", tmp, "--strip-components=1"])
    with open(os.path.join(tmp, ".harness-pristine"), "w") as f:
        f.write(stamp + "\n")
    os.rename(tmp, dest)


def same(a, b):
    try:
        if os.path.getsize(a) != os.path.getsize(b):
            return False
    except OSError:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def install(src, dst):
    if same(src, dst):
        return False
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.lexists(dst):
        os.unlink(dst)
    shutil.copy2(src, dst)
    os.utime(dst)  # newer than any object built from the old content
    return True


def apply_edit(patch, stage):
    """Apply an edit in stage; an edit already there (install twice) is kept."""
    base = ["patch", "-s", "-p1", "-d", stage, "-i", patch]
    r = subprocess.run(base + ["--forward"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode == 0:
        return
    rev = subprocess.run(base + ["-R", "--dry-run"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    if rev.returncode == 0:
        return
    die("edit %s does not apply:\n%s" % (os.path.basename(patch), r.stdout))


def desired_state(pristine):
    """Return (files: rel -> source path, removed: set of rel, stage: a
    temporary directory holding the edited files, for the caller to remove).
    """
    files = {}
    removed = set()
    ours = our_files()
    for rel in ours:
        files[rel] = os.path.join(LINUX, rel)
    for marker, victims in REPLACES:
        if not os.path.exists(os.path.join(LINUX, marker)):
            continue
        for v in victims:
            if not os.path.exists(os.path.join(pristine, v)):
                continue
            for rel in walk_files(pristine, v):
                if rel not in KEEP and rel not in files:
                    removed.add(rel)
    stage = tempfile.mkdtemp(prefix="harness-edits-")
    for patch in edit_patches():
        for rel in patch_targets(patch):
            dst = os.path.join(stage, rel)
            if not os.path.exists(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                src = os.path.join(pristine, rel)
                if os.path.exists(src):
                    shutil.copy2(src, dst)
        for rel in patch_targets(patch):
            for ext in (".orig", ".rej"):
                if os.path.exists(os.path.join(stage, rel + ext)):
                    os.unlink(os.path.join(stage, rel + ext))
        apply_edit(patch, stage)
        for rel in patch_targets(patch):
            files[rel] = os.path.join(stage, rel)
    return files, removed, stage


def cmd_prepare(which, dest, pristine):
    if not os.path.exists(os.path.join(pristine, ".harness-pristine")):
        die("pristine tree %s missing" % pristine)
    if not os.path.isdir(dest):
        tmp = dest + ".tmp"
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        # Hard links: six trees cost one tree's disk.  Nothing may write a
        # source file in place; install() unlinks first, and build-kernel.sh
        # checks after each build that no linked file was modified.
        subprocess.check_call(["cp", "-al", pristine, tmp])
        os.rename(tmp, dest)
    if which == "mainline":
        files, removed, stage = {}, set(), None
    elif which == "ours":
        files, removed, stage = desired_state(pristine)
    else:
        die("unknown tree %s" % which)
    manifest = os.path.join(dest, MANIFEST)
    before = set()
    if os.path.exists(manifest):
        before = set(l.strip() for l in open(manifest) if l.strip())
    changed = 0
    # Restore what an earlier run replaced, removed or edited but no longer does.
    for rel in sorted(before - set(files) - removed):
        src = os.path.join(pristine, rel)
        dst = os.path.join(dest, rel)
        if os.path.exists(src):
            changed += install(src, dst)
        elif os.path.lexists(dst):
            os.unlink(dst)
            changed += 1
    for rel in sorted(removed):
        dst = os.path.join(dest, rel)
        if os.path.lexists(dst):
            os.unlink(dst)
            changed += 1
    for rel, src in sorted(files.items()):
        changed += install(src, os.path.join(dest, rel))
    with open(manifest + ".new", "w") as f:
        for rel in sorted(set(files) | removed):
            f.write(rel + "\n")
    os.rename(manifest + ".new", manifest)
    if stage:
        shutil.rmtree(stage)
    print("tree.py: %s tree %s: %d file(s) changed" % (which, dest, changed))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # tree.py files | head
    args = sys.argv[1:]
    pristine = os.environ.get("PRISTINE", os.path.join(ROOT, "build", "pristine"))
    if args[:1] == ["pristine"] and len(args) == 2:
        cmd_pristine(args[1])
    elif args[:1] == ["prepare"] and len(args) == 3:
        cmd_prepare(args[1], args[2], pristine)
    elif args[:1] == ["install"] and len(args) == 2:
        ksrc = os.path.abspath(args[1])
        if not os.path.exists(os.path.join(ksrc, "kernel", "events")) and \
                not os.path.exists(os.path.join(ksrc, "Makefile")):
            die("%s does not look like a kernel tree" % ksrc)
        files, removed, stage = desired_state(ksrc)
        n = 0
        for rel in sorted(removed):
            os.unlink(os.path.join(ksrc, rel))
            n += 1
        for rel, src in sorted(files.items()):
            n += install(src, os.path.join(ksrc, rel))
        shutil.rmtree(stage)
        print("tree.py: %d file(s) of %s changed" % (n, ksrc))
    elif args[:1] == ["files"]:
        files, removed, stage = desired_state(pristine)
        shutil.rmtree(stage)
        for rel in sorted(files):
            print("M" if os.path.exists(os.path.join(pristine, rel)) else "A", rel)
        for rel in sorted(removed):
            print("D", rel)
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
