#!/bin/bash
# compat.sh [--tree ours|mainline] [ARCH...]   (ARCH: x86_64 arm64, default both)
# Compiles, against the tree's perf headers, every C file outside our patch
# that includes them (directly or through other headers) and that a wide
# config builds: defconfig + configs/compat-ARCH.config (KVM, every PMU
# driver, tracing, probes, BPF; all builtin).  Which files: every C object
# `make -n` lists for that config whose source reaches include/linux/
# perf_event.h or include/uapi/linux/perf_event.h by #include lines, resolved
# with the object's own -I flags, less the paths our patch replaces (REPLACES
# in tree.py) or provides.  Each is compiled as a kbuild single target
# (`make -k path/foo.o`), so with the flags the real build uses.
# Trees: build/compat/TREE-ARCH (hard links into build/pristine, in-tree
# build); logs: out/compat/ARCH.log (mainline: mainline-ARCH.log) and a
# status line per file in out/compat/*.files.  Prints
# "compat ARCH: N files compiled, N failed" with the first error of each
# failure and any warning located in the perf headers; exits 1 on either.
# On arm64 it also compiles mainline's drivers/perf/arm_pmuv3.c, which our
# tree replaces, against our core.
#   JOBS=N          compiles at once (default 2)
#   COMPAT_LIMIT=N  compile only N of the files, spread over the list
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=ours
arches=()
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:-}; shift 2 ;;
	--tree=*) tree=${1#--tree=}; shift ;;
	x86_64|arm64) arches+=("$1"); shift ;;
	*) echo "usage: compat.sh [--tree ours|mainline] [x86_64] [arm64]" >&2; exit 2 ;;
	esac
done
case $tree in ours|mainline) ;; *) echo "compat.sh: unknown tree '$tree'" >&2; exit 2 ;; esac
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 arm64)
jobs=${JOBS:-2}
limit=${COMPAT_LIMIT:-0}
results=$top/out/compat
mkdir -p "$results" "$top/build/compat"

. "$top/scripts/kbuild-env.sh"
kbuild_env "$top/build/compat"

python3 "$top/scripts/tree.py" pristine "$top/build/pristine"

# Paths never counted, in both trees alike: what our patch replaces as a
# whole (kernel/events/ but uprobes.c, the perf headers, arm_pmuv3.c) and
# every file it adds or edits.  "+path" keeps a path.
excludes() {
	python3 - "$top/scripts" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import tree
for _marker, victims in tree.REPLACES:
    for v in victims:
        print(v)
for k in sorted(tree.KEEP):
    print("+" + k)
EOF
	python3 "$top/scripts/tree.py" files | awk '{print $2}'
}

# candidates SRC SRCARCH DRYRUN EXCLUDES: print "target.o file.c" for each C
# object of the dry run whose source reaches a perf header.
candidates() {
	python3 - "$@" <<'EOF'
import os
import re
import sys

src, srcarch, dryrun, excludes = sys.argv[1:5]
TARGETS = {"include/linux/perf_event.h", "include/uapi/linux/perf_event.h"}
# define_trace.h pulls in the event machinery (and so linux/perf_event.h)
# only where CREATE_TRACE_POINTS is defined: model that instead of
# following its #include lines.
TRACE_DEFINERS = {"include/trace/define_trace.h",
                  "include/trace/define_custom_trace.h"}
TRACE_MACHINERY = [("<", "trace/trace_events.h"), ("<", "trace/perf.h"),
                   ("<", "trace/bpf_probe.h"),
                   ("<", "trace/trace_custom_events.h")]
INCLUDE = re.compile(rb'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
CREATE = re.compile(rb'^\s*#\s*define\s+CREATE_(CUSTOM_)?TRACE_(POINTS|EVENTS)\b',
                    re.M)
COMPILE = re.compile(r' -c -o (\S+\.o) (\S+\.c)(?:\s|;|$)')
FLAG = re.compile(r'(?:^|\s)(-I|-include)\s*(\S+)')


def norm(p):
    p = p.strip("'\"")
    if os.path.isabs(p):
        p = os.path.relpath(p, src)
    return os.path.normpath(p)


# Each object with its include context: its -I directories (in order) and
# its -include files.  Host programs (scripts/, tools/) are not the kernel.
objs, contexts = [], {}
for line in open(dryrun, errors="replace"):
    m = COMPILE.search(line)
    if not m:
        continue
    obj, c = m.group(1), norm(m.group(2))
    if c.split("/")[0] in ("scripts", "tools", "usr") or \
            not os.path.isfile(os.path.join(src, c)):
        continue
    dirs, forced = [], []
    for flag, val in FLAG.findall(line[:m.start()]):
        (dirs if flag == "-I" else forced).append(norm(val))
    ctx = contexts.setdefault((tuple(dirs), tuple(forced)), len(contexts))
    objs.append((obj, c, ctx))

parsed, isfile = {}, {}


def includes(rel):
    if rel not in parsed:
        try:
            with open(os.path.join(src, rel), "rb") as f:
                text = f.read()
        except OSError:
            text = b""
        out = []
        if rel not in TRACE_DEFINERS:
            out = [(k.decode(), n.decode("latin-1"))
                   for k, n in INCLUDE.findall(text)]
            if CREATE.search(text):
                out += TRACE_MACHINERY
        parsed[rel] = out
    return parsed[rel]


def exists(rel):
    if rel not in isfile:
        isfile[rel] = os.path.isfile(os.path.join(src, rel))
    return isfile[rel]


def resolve(kind, name, here, dirs):
    if kind == '"':
        p = os.path.normpath(os.path.join(os.path.dirname(here), name))
        if exists(p):
            return p
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if exists(p):
            return p
    return None  # the compiler's own headers, or a computed name


# Per context: the include graph of its objects, then every file from which
# a perf header can be reached (None: all of them, through an -include).
reach_by_ctx = {}
for (dirs, forced), ctx in contexts.items():
    edges = {}
    stack = [c for _o, c, x in objs if x == ctx] + list(forced)
    while stack:
        rel = stack.pop()
        if rel in edges:
            continue
        out = [p for p in (resolve(k, n, rel, dirs) for k, n in includes(rel)) if p]
        edges[rel] = out
        stack.extend(p for p in out if p not in edges)
    rev = {}
    for f, gs in edges.items():
        for g in gs:
            rev.setdefault(g, []).append(f)
    reach, stack = set(), list(TARGETS)
    while stack:
        f = stack.pop()
        if f not in reach:
            reach.add(f)
            stack.extend(rev.get(f, ()))
    reach_by_ctx[ctx] = None if reach & set(forced) else reach

excl, keep = [], set()
for line in open(excludes):
    line = line.strip()
    if line.startswith("+"):
        keep.add(line[1:])
    elif line:
        excl.append(line)


def excluded(c):
    return c not in keep and any(c == e or c.startswith(e + "/") for e in excl)


seen = set()
for o, c, ctx in objs:
    r = reach_by_ctx[ctx]
    if (r is None or c in r) and not excluded(c) and o not in seen:
        seen.add(o)
        print(o, c)
sys.stderr.write("%d C objects in the config, %d reach the perf headers "
                 "outside our files\n" % (len(set(o for o, _c, _x in objs)), len(seen)))
EOF
}

# report SRC LIST LOG FILES: read the compile log; write a status per file;
# print the failures and the perf-header warnings; last line "FAILED WARNINGS
# CONFIRMED".
report() {
	python3 - "$@" <<'EOF'
import os
import re
import sys

src, listing, log, files = sys.argv[1:5]
HEADERS = ("include/linux/perf_event.h", "include/uapi/linux/perf_event.h")
cands = [l.split() for l in open(listing) if l.strip()]
# With make -O each compile's output comes as one block after its "CC" line.
blocks, cur = {}, None
warn = []
for line in open(log, errors="replace"):
    line = re.sub(r"\x1b\[[0-9;]*[mK]", "", line).rstrip("\n")
    m = re.match(r"^  CC \s*(?:\[M\]\s*)?(\S+\.o)$", line)
    if m:
        cur = m.group(1)
        blocks.setdefault(cur, [])
        continue
    if cur is not None:
        blocks[cur].append(line)
    if re.search(r"(^|/)include/(uapi/)?linux/perf_event\.h:\d+(:\d+)?: warning:", line):
        warn.append("%s: %s" % (cur, line.strip()))
failed, confirmed = [], 0
with open(files, "w") as out:
    for obj, c in cands:
        path = os.path.join(src, obj)
        if not os.path.exists(path):
            lines = blocks.get(obj, [])
            err = next((l for l in lines if " error:" in l or "Error " in l), None)
            if err is None:
                err = next((l.strip() for l in open(log, errors="replace")
                            if obj in l and ("No rule" in l or "***" in l)),
                           "no object and no error found in the log")
            failed.append((c, err))
            out.write("FAIL %s %s\n" % (obj, c))
            continue
        cmd = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".cmd")
        text = open(cmd, errors="replace").read() if os.path.exists(cmd) else ""
        inc = any(h in text for h in HEADERS)
        confirmed += inc
        out.write("%s %s %s\n" % ("ok" if inc else "ok-no-perf-header", obj, c))
for c, err in failed:
    print("  FAIL %s: %s" % (c, err.strip()))
for w in sorted(set(warn))[:50]:
    print("  WARNING in %s" % w)
print(len(failed), len(set(warn)), confirmed)
EOF
}

status=0
for arch in "${arches[@]}"; do
	case $arch in
	x86_64) karch=x86_64 srcarch=x86 cross= ;;
	arm64) karch=arm64 srcarch=arm64 cross=aarch64-linux-gnu- ;;
	esac
	name=$tree-$arch
	label=$arch
	log=$results/$arch.log
	if [ "$tree" != ours ]; then label="$arch ($tree)"; log=$results/$tree-$arch.log; fi
	src=$top/build/compat/$name
	work=$top/build/compat/$name.work
	mkdir -p "$work"
	start=$(date +%s)
	: > "$log"
	python3 "$top/scripts/tree.py" prepare "$tree" "$src" >> "$log"
	kmake=(make -C "$src" "ARCH=$karch" "CROSS_COMPILE=$cross" "CC=ccache ${cross}gcc" "HOSTCC=ccache gcc")

	# defconfig + our fragment; redone only when the fragment changes.
	frag=$top/configs/compat-$arch.config
	if ! cmp -s "$frag" "$src/compat.config" || [ ! -f "$src/.config" ]; then
		rm -f "$src/compat.config"
		{
			"${kmake[@]}" -s defconfig
			(cd "$src" && ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -m .config "$frag")
			"${kmake[@]}" -s olddefconfig
		} >> "$log" 2>&1
		python3 "$top/scripts/check-config.py" "$src/.config" "$frag"
		cp "$frag" "$src/compat.config"
	fi
	echo "== make modules_prepare" >> "$log"
	"${kmake[@]}" -s -j"$jobs" modules_prepare >> "$log" 2>&1 || {
		grep -m 5 -E 'error|Error' "$log" >&2 || true
		echo "compat.sh: $name: make modules_prepare failed; see $log" >&2; exit 1; }

	# What the config compiles, from a dry run of the whole build.  A dry run
	# lists only what is out of date, so the objects earlier runs compiled
	# (all listed in $work/compiled) are removed first.
	if [ -f "$work/compiled" ]; then
		(cd "$src" && xargs rm -f < "$work/compiled")
	fi
	"${kmake[@]}" -n -k -j1 all > "$work/dryrun" 2>&1 || true
	excludes > "$work/excludes"
	candidates "$src" "$srcarch" "$work/dryrun" "$work/excludes" \
		> "$work/candidates" 2> "$work/candidates.msg"
	total=$(wc -l < "$work/candidates")
	if [ "$limit" -gt 0 ] && [ "$limit" -lt "$total" ]; then
		awk -v n="$limit" -v t="$total" 'int(NR*n/t) > int((NR-1)*n/t)' \
			"$work/candidates" > "$work/list"
	else
		cp "$work/candidates" "$work/list"
	fi
	n=$(wc -l < "$work/list")
	[ "$n" -gt 0 ] || { echo "compat.sh: $name: no files found; see $work" >&2; exit 1; }

	# Compile them: every object removed first, so that a file compiled iff
	# its object exists afterwards.
	awk '{print $1}' "$work/list" >> "$work/compiled"
	sort -u -o "$work/compiled" "$work/compiled"
	(cd "$src" && awk '{print $1}' "$work/list" | xargs rm -f)
	echo "== make -k $n objects" >> "$log"
	awk '{print $1}' "$work/list" | xargs "${kmake[@]}" -k -Otarget -j"$jobs" \
		>> "$log" 2>&1 || true
	"$top/scripts/check-links.sh" "$src"
	rep=$(report "$src" "$work/list" "$log" "${log%.log}.files")
	read -r nfail nwarn nconf <<< "$(tail -n 1 <<< "$rep")"
	secs=$(( $(date +%s) - start ))
	echo "compat $label: $n files compiled, $nfail failed"
	sample=
	[ "$n" -lt "$total" ] && sample=" (COMPAT_LIMIT=$limit: $n of them compiled)"
	echo "  $(tr -d '\n' < "$work/candidates.msg")$sample"
	echo "  $nconf of the $((n - nfail)) compiled include a perf header (gcc's dependency lists); $nwarn warning(s) in the perf headers; $((secs / 60)) min $((secs % 60)) s; log ${log#"$top"/}"
	sed '$d' <<< "$rep"
	[ "$nfail" -eq 0 ] && [ "$nwarn" -eq 0 ] || status=1

	# Our tree replaces mainline's PMUv3 driver; mainline's must still
	# build against our core: compile it as an external module object.
	if [ "$tree" = ours ] && [ "$arch" = arm64 ]; then
		ext=$work/mainline-arm_pmuv3
		rm -rf "$ext" && mkdir -p "$ext"
		cp "$top/build/pristine/drivers/perf/arm_pmuv3.c" "$ext/"
		echo 'obj-m := arm_pmuv3.o' > "$ext/Kbuild"
		if "${kmake[@]}" M="$ext" W=1 arm_pmuv3.o > "$ext/log" 2>&1 &&
		   [ -f "$ext/arm_pmuv3.o" ]; then
			echo "  mainline's drivers/perf/arm_pmuv3.c compiles against our core ($(grep -c 'warning:' "$ext/log") warnings with W=1)"
		else
			echo "  FAIL mainline's drivers/perf/arm_pmuv3.c against our core: $(grep -m 1 'error' "$ext/log")"
			status=1
		fi
	fi
done
exit $status
