#!/bin/bash
# make-patch.sh: write our patch as a git format-patch series against the
# base tree (Debian's linux-source-6.12) into out/patches/, then check that
# `git am` applies it to a pristine git tree of the full source and that the
# result is our tree.
#
# The series, one commit per concern, in this order (a commit is left out
# while linux/ has nothing for it):
#   uapi header, kernel header, core, arm64 driver, selftests, docs, edits.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pristine=$top/build/pristine
base=$top/build/patch/base       # full pristine tree, committed once
work=$top/build/patch/work
out=$top/out/patches
python3 "$top/scripts/tree.py" pristine "$pristine"

gitq() { git -c user.name=harness -c user.email=harness@localhost \
	-c core.autocrlf=false -c gc.auto=0 "$@"; }

stamp=$(cat "$pristine/.harness-pristine")
if [ "$(cat "$base/.git/harness-stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "make-patch.sh: committing the pristine tree (once; a minute or two)"
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

# files: path patterns of each commit; messages below.
series=(
	"uapi|include/uapi/linux/perf_event.h"
	"header|include/linux/perf_event.h"
	"core|kernel/events/"
	"arm64|arch/arm64/ drivers/perf/arm_pmuv3.c"
	"selftests|tools/testing/selftests/perf_events/"
	"docs|Documentation/"
	"edits|"
)
msg() {
	case $1 in
	uapi) printf 'perf: uapi: perf_event.h written anew\n\nThe userspace ABI of perf_event_open(2), value for value and layout for\nlayout the same as mainline'"'"'s, with our own comments.\n' ;;
	header) printf 'perf: include/linux/perf_event.h written anew\n\nThe in-kernel interface of perf events for PMU drivers and the rest of\nthe kernel, source-compatible with mainline'"'"'s.\n' ;;
	core) printf 'perf: a new perf_event core in kernel/events/\n\nReplaces kernel/events/ except uprobes.c.\n' ;;
	arm64) printf 'arm64: perf: a new PMUv3 driver\n\nReplaces drivers/perf/arm_pmuv3.c.\n' ;;
	selftests) printf 'selftests/perf_events: new tests of the perf_event_open ABI\n\nReplaces the directory'"'"'s tests with ours.\n' ;;
	docs) printf 'Documentation: perf_event core\n' ;;
	edits) printf 'perf: MAINTAINERS, Kconfig and Makefile edits for the new core\n' ;;
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
edited=$(for e in "$top"/edits/*.patch; do [ -e "$e" ] || continue; sed -n "s|^+++ b/||p" "$e" | cut -f1; done | sort -u)
stage=$(mktemp -d)
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
for entry in "${series[@]}"; do
	group=${entry%%|*} pats=${entry#*|}
	any=0
	for line in "${changes[@]}"; do
		kind=${line%% *} path=${line#* }
		if [ "$group" = edits ]; then
			grep -qx "$path" <<<"$edited" || continue
		else
			grep -qx "$path" <<<"$edited" && continue
			belongs "$path" "$pats" || continue
		fi
		if [ "$kind" = D ]; then
			gitq -C "$work" rm -q "$path"
		else
			mkdir -p "$work/$(dirname "$path")"
			cp "$stage/$path" "$work/$path"
			gitq -C "$work" add -f "$path"
		fi
		any=1
	done
	[ $any = 1 ] || continue
	n=$((n + 1))
	msg "$group" | gitq -C "$work" commit -q -s -F -
done
rm -rf "$stage"
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
