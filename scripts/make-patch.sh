#!/bin/bash
# make-patch.sh: write our patch as a git format-patch series against the
# base tree (Debian's linux-source-6.12) into out/patches/, then check that
# `git am` applies it to a pristine git tree of the full source and that the
# result is our tree.  scripts/patch-check.sh (make patch-check) then builds
# the kernel after each patch and runs checkpatch on each.
#
# The series, one commit per group, in this order (a commit is left out
# while it would change nothing):
#   uapi       include/uapi/linux/perf_event.h
#   core       include/linux/perf_event.h and kernel/events/ (one commit:
#              the new header does not build with mainline's core.c, nor
#              the new core with mainline's header)
#   arm64      arch/arm64/ and drivers/perf/arm_pmuv3.c
#   selftests  tools/testing/selftests/perf_events/
#   docs       Documentation/
#   tail       every edit not named after a group
# An edit (edits/*.patch) named GROUP-*.patch (edits/core-kconfig.patch,
# edits/docs-toctree.patch) goes into GROUP's commit with the files it
# touches; the others go into the last commit.  A file that edits of
# several groups touch (MAINTAINERS: the selftests' and the docs' lines)
# changes in each of their commits, by that group's hunks.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pristine=$top/build/pristine
base=$top/build/patch/base       # full pristine tree, committed once
work=$top/build/patch/work
out=$top/out/patches
python3 "$top/scripts/tree.py" pristine "$pristine"

# The series' author and Signed-off-by: this repository's git identity
# (PATCH_AUTHOR="Name <email>" overrides it), else "harness".
author=${PATCH_AUTHOR:-$(git -C "$top" config user.name 2>/dev/null || true) <$(git -C "$top" config user.email 2>/dev/null || true)>}
author_name=${author% <*} author_email=${author##*<} author_email=${author_email%>}
[ -n "$author_name" ] && [ -n "$author_email" ] || author_name=harness author_email=harness@localhost
gitq() { git -c user.name="$author_name" -c user.email="$author_email" \
	-c core.autocrlf=false -c gc.auto=0 "$@"; }

stamp=$(cat "$pristine/.harness-pristine")
if [ "$(cat "$base/.git/harness-stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "make-patch.sh: committing the pristine tree (once; a few minutes)"
	rm -rf "$base"
	mkdir -p "$base"
	tar xf "$(ls /usr/src/linux-source-6.12.tar.* | head -n 1)" -C "$base" --strip-components=1
	(cd "$base" && gitq init -q && gitq add -A -f . &&
	 GIT_AUTHOR_DATE="2024-11-17T00:00:00Z" GIT_COMMITTER_DATE="2024-11-17T00:00:00Z" \
	 gitq commit -q -m "Linux 6.12 (Debian linux-source-6.12, $stamp)" &&
	 gitq tag base)
	echo "$stamp" > "$base/.git/harness-stamp"
fi

rm -rf "$work" "$out"
gitq clone -q --shared "$base" "$work"
mkdir -p "$out"

# GROUP|path prefixes of the files it takes.
series=(
	"uapi|include/uapi/linux/perf_event.h"
	"core|include/linux/perf_event.h kernel/events/"
	"arm64|arch/arm64/ drivers/perf/arm_pmuv3.c"
	"selftests|tools/testing/selftests/perf_events/"
	"docs|Documentation/"
	"tail|"
)
groups=" uapi core arm64 selftests docs "

# The commit messages: subject, blank line, body wrapped at 72 columns.
# $1: the group; $2: the files of the commit, one a line.
tested='Tested with the test harness'"'"'s `make test` on x86_64 and arm64 QEMU
guests, each kernel built plain and with KASAN, lockdep, UBSAN and
kmemleak: the perf_events selftests of this series, mainline'"'"'s
perf_events selftests, perf stat/record/report sessions and `perf test`,
then perf_fuzz and a call-by-call comparison of syscall results with the
unmodified kernel.  Every test that passes on the unmodified kernel
passes with this series, and no kernel report (WARN, BUG, lockdep,
KASAN, UBSAN, kmemleak) shows.'
msg() {
	case $1 in
	uapi) cat <<EOF
perf: Rewrite include/uapi/linux/perf_event.h

Replace the userspace ABI header of perf_event_open(2) with a text
written anew, to go with the new perf_event core later in this series.
The ABI of 6.12 does not change: every name, value, structure size and
layout and bit field is that of the header it replaces.  A check in our
test harness compiles both headers and compares what they define (542
names, 15720 values: sizes, offsets, constants and bit positions) and
finds no difference but the names later mainline releases added and the
extensions of the new core, which the old one refuses: the attr's
period_random_bits, the control page's output state, PERF_FLAG_ALL_CPUS
and PERF_FORMAT_PER_CPU (PERF_FORMAT_MAX moves up a bit with it).
Mainline's perf_event.h, kernel/events/ and drivers build on it
unchanged, so this patch stands on its own.

$tested
EOF
	;;
	core) cat <<EOF
perf: Rewrite the perf_event core and include/linux/perf_event.h

Replace kernel/events/ (all but uprobes.c, which stays as it is) and
the in-kernel interface include/linux/perf_event.h with a perf_event
core written from scratch.  The two go in one patch: the new header
does not build with mainline's core.c, nor the new core with mainline's
header.

The core keeps the perf_event_open(2) ABI and the interface PMU drivers
and the rest of the kernel use: every file outside kernel/events/ that
includes the perf headers in wide x86_64 and arm64 configurations (all
PMU drivers, KVM, tracing, BPF) compiles on it unchanged, and the arm64
PMUv3 driver runs on it in QEMU.  core.c is split into one file per
concern; the comment at the top of kernel/events/internal.h lists what
each file owns, and context.c's states the locking rules.  test/ adds,
for debug kernels only, software PMUs that write into the AUX area and
sample made-up branch stacks, registered only while their enable
parameter is 1, so that the AUX and branch-stack code can be tested on
machines without a hardware tracer.  The KUnit
test hw_breakpoint_test.c is not carried over.

Extensions (Documentation/perf/core/uapi.rst), each refused by the old
core: randomised sample periods, the output state in the control page,
mmap() of an inherited per-task event (one buffer for a process), and
one fd that counts on every CPU (PERF_FLAG_ALL_CPUS).

Differences from mainline a program can see: a CPU-wide event whose
CPU goes offline counts again when the CPU comes back (mainline leaves
it stopped); an aux_output member whose leader was closed stays in
error even when enabled again; inherited copies of a tracing event get
no event->prog (the program still runs at every hit of the trace
event); address filters follow mmap and exec of the event's own task
only, not of other threads sharing its address space.

$tested
EOF
	;;
	arm64) cat <<EOF
arm64: perf: A new PMUv3 driver

Replace drivers/perf/arm_pmuv3.c with a PMUv3 driver written for the
new perf_event core.

$tested
EOF
	;;
	selftests) cat <<EOF
selftests/perf_events: Tests of the perf_event_open(2) ABI

Add, beside the directory's tests (mmap, remove_on_exec,
sigtrap_threads, watermark_signal, which stay), kselftest programs that
check what perf_event_open(2) promises: attr checks and errnos,
counting, groups and multiplexing, software events, inheritance,
ioctls, read formats, permissions, CPU hotplug, cgroup events, the ring
buffer, sampling, side-band records, the AUX area (with the aux_test
PMU of debug kernels), callchains, races and robustness (faults found
while writing the new core), conformance with mainline's behaviour,
and the ABI extensions of this core (extensions).  fuzz/ adds
perf_fuzz, a seeded fuzzer of the perf calls, and mkrepro.sh, which
turns its log into a reproducer.

The tests pass on the unmodified kernel too, except those that need
the aux_test PMU, which skip there, newer_abi's tests of what later
kernels changed (the attr size, config4, the deferred-callchain bits,
EPOLLHUP for a pinned event in error), the extensions it refuses, and
pmuv3's check that EL0 counter access does not pass to the next task.

$tested
EOF
	;;
	docs) cat <<EOF
Documentation: perf: Document the perf_event core

Add Documentation/perf/core/: the design of the perf_event core, its
locking rules, how to write a PMU driver for it, the perf sysctls and
permissions for administrators, and the userspace ABI with the
differences from the previous core.
EOF
	;;
	tail)
		if [ "$(printf '%s\n' "$2" | sort -u)" = MAINTAINERS ]; then
			local added
			added=$(gitq -C "$work" diff --cached -- MAINTAINERS |
				sed -n 's/^+\(F:\)[[:space:]]*/  \1 /p')
			if [ -n "$added" ]; then
				cat <<EOF
MAINTAINERS: Add the new perf_event files to PERFORMANCE EVENTS

Cover the files this series adds that the PERFORMANCE EVENTS SUBSYSTEM
entry's patterns do not match yet:

$added
EOF
			else
				cat <<EOF
MAINTAINERS: Update the PERFORMANCE EVENTS SUBSYSTEM entry

Update the entry for the files of the new perf_event core.
EOF
			fi
		else
			cat <<EOF
perf: Build and maintainer file updates for the new core

Update the files outside the perf_event core that refer to its files:

$(printf '%s\n' "$2" | sed 's/^/  /')
EOF
		fi
	;;
	esac
}

mapfile -t changes < <(python3 "$top/scripts/tree.py" files)
belongs() { # PATH GROUP-PATTERNS
	local p
	for p in $2; do
		case $1 in "$p"*) return 0 ;; esac
	done
	return 1
}
# "GROUP PATH" for every file an edit touches; GROUP is the edit's file
# name prefix, or "tail".
edited=$(for e in "$top"/edits/*.patch; do
	[ -e "$e" ] || continue
	name=$(basename "$e") g=${name%%-*}
	case $groups in *" $g "*) [ "$g" != "$name" ] || g=tail ;; *) g=tail ;; esac
	sed -n "s|^+++ b/||p" "$e" | cut -f1 | sed "s|^|$g |"
done | sort -u)
order=" uapi core arm64 selftests docs tail "
rank() { # GROUP: its place in the series
	local before=${order%% "$1" *}
	echo ${#before}
}
edit_groups() { # PATH: the groups of the edits that touch it, if any
	local g
	g=$(awk -v p="$1" '$2 == p { print $1 }' <<<"$edited")
	[ -n "$g" ] && echo "$g"
}
last_group() { # GROUP...: the one that comes last in the series
	local g last=
	for g in "$@"; do
		[ -n "$last" ] && [ "$(rank "$g")" -le "$(rank "$last")" ] || last=$g
	done
	echo "$last"
}
# PATH GROUP: the pristine file with the hunks for PATH of the edits of
# GROUP and of the groups before it applied, on stdout.
partial_file() {
	local path=$1 upto=$2 e name g tmp
	tmp=$(mktemp -d)
	mkdir -p "$tmp/$(dirname "$path")"
	cp "$pristine/$path" "$tmp/$path"
	for e in "$top"/edits/*.patch; do
		name=$(basename "$e") g=${name%%-*}
		case $groups in *" $g "*) [ "$g" != "$name" ] || g=tail ;; *) g=tail ;; esac
		[ "$(rank "$g")" -le "$(rank "$upto")" ] || continue
		awk -v p="a/$path" '/^--- / { keep = ($2 == p) } keep' "$e" |
			patch -s -p1 -d "$tmp" >/dev/null
	done
	cat "$tmp/$path"
	rm -rf "$tmp"
}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The desired content of every changed file, in a staging tree.
PRISTINE=$pristine python3 - "$stage" "$top" <<'PY'
import os, shutil, sys
stage, top = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(top, "scripts"))
import tree
files, removed, tmp = tree.desired_state(os.environ["PRISTINE"])
for rel, src in files.items():
    dst = os.path.join(stage, rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(src, dst)
shutil.rmtree(tmp)
PY
n=0
long=0
for entry in "${series[@]}"; do
	group=${entry%%|*} pats=${entry#*|}
	paths=
	for line in "${changes[@]}"; do
		kind=${line%% *} path=${line#* }
		partial=
		if gs=$(edit_groups "$path"); then
			grep -qx "$group" <<<"$gs" || continue
			# shellcheck disable=SC2086 # one group a word
			[ "$(last_group $gs)" = "$group" ] || partial=1
		else
			belongs "$path" "$pats" || continue
		fi
		if [ -n "$partial" ]; then
			mkdir -p "$work/$(dirname "$path")"
			partial_file "$path" "$group" > "$work/$path"
			gitq -C "$work" add -f "$path"
		elif [ "$kind" = D ]; then
			gitq -C "$work" rm -q "$path"
		else
			mkdir -p "$work/$(dirname "$path")"
			cp "$stage/$path" "$work/$path"
			gitq -C "$work" add -f "$path"
		fi
		paths+=$path$'\n'
	done
	[ -n "$paths" ] || continue
	n=$((n + 1))
	msg "$group" "${paths%$'\n'}" > "$stage/.msg"
	if awk 'length > 72 { bad = 1 } END { exit !bad }' "$stage/.msg"; then
		echo "make-patch.sh: the $group commit message has lines over 72 columns" >&2
		long=1
	fi
	gitq -C "$work" commit -q -s -F "$stage/.msg"
done
if [ $n = 0 ]; then
	echo "make-patch.sh: linux/ and edits/ change nothing; no series"
	exit 0
fi
gitq -C "$work" format-patch -q -o "$out" base..HEAD
echo "make-patch.sh: $n patch(es) in out/patches/:"
ls "$out" | sed 's/^/  /'

# The check: git am onto a fresh pristine clone gives exactly our tree.
check=$top/build/patch/check
rm -rf "$check"
gitq clone -q --shared "$base" "$check"
gitq -C "$check" am -q "$out"/*.patch
if [ "$(gitq -C "$check" rev-parse 'HEAD^{tree}')" = "$(gitq -C "$work" rev-parse 'HEAD^{tree}')" ]; then
	echo "make-patch.sh: git am applies the series to pristine 6.12; the result is our tree"
else
	echo "make-patch.sh: git am result differs from our tree" >&2
	exit 1
fi
[ $long = 0 ] || exit 1
