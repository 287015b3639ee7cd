#!/bin/bash
# patch-check.sh: `make patch-check`.  Writes the series (make-patch.sh),
# then applies it patch by patch to a clone of the pristine git tree
# (build/patch/build-src, a clone of build/patch/base) and after each patch
#   - builds the kernel: x86_64 tinyconfig with PERF_EVENTS, BUG and PRINTK
#     (scripts/config, then olddefconfig; .config is checked to have them),
#     out of tree in build/patch/obj-x86_64, with ccache, under nice;
#   - runs the pristine tree's scripts/checkpatch.pl --strict on the patch.
# Prints a line per patch (build ok/FAILED, compiler warnings, checkpatch
# errors/warnings/checks and the most frequent types) and writes the logs
# to out/patch-check/.  Exits 1 if a patch does not apply or build, or
# checkpatch reports an ERROR.
#   JOBS=N              build parallelism (default 2)
#   PATCH_CHECK_BUILD=0 checkpatch only, no builds
#   PATCH_CHECK_OPTIONS="CGROUP_PERF BPF_SYSCALL ..."  more options to turn
#                       on (tinyconfig builds neither tracepoint.c, bpf.c,
#                       cgroup.c nor the test PMUs of kernel/events/)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pristine=$top/build/pristine
base=$top/build/patch/base
src=$top/build/patch/build-src
obj=$top/build/patch/obj-x86_64
res=$top/out/patch-check
patches=$top/out/patches
jobs=${JOBS:-2}
build=${PATCH_CHECK_BUILD:-1}

"$top/scripts/make-patch.sh" || { echo "patch-check.sh: make-patch.sh failed" >&2; exit 1; }
shopt -s nullglob
series=("$patches"/*.patch)
[ ${#series[@]} -gt 0 ] || { echo "patch-check.sh: no patches"; exit 0; }
rm -rf "$res"
mkdir -p "$res"

gitq() { git -c user.name=harness -c user.email=harness@localhost \
	-c core.autocrlf=false -c gc.auto=0 "$@"; }

# The source tree: kept between runs and reset to the base, so that only
# the files the series changes get new timestamps and the build of the
# first patch stays incremental.
if [ ! -d "$src/.git" ]; then
	rm -rf "$src"
	gitq clone -q --shared "$base" "$src"
fi
gitq -C "$src" am --abort >/dev/null 2>&1 || true
gitq -C "$src" checkout -q --detach base
gitq -C "$src" reset -q --hard base
gitq -C "$src" clean -q -fdx

. "$top/scripts/kbuild-env.sh"
kbuild_env "$top/build/patch"
kmake=(nice -n 10 make -C "$src" O="$obj" -s ARCH=x86_64 "CC=ccache gcc" "HOSTCC=ccache gcc")
need=(PERF_EVENTS BUG PRINTK ${PATCH_CHECK_OPTIONS:-})

configure() { # the config of the tree as it is now; 1 if an option is off
	if [ ! -f "$obj/.config" ]; then
		mkdir -p "$obj"
		"${kmake[@]}" tinyconfig >/dev/null || return 1
	fi
	local o args=()
	for o in "${need[@]}"; do args+=(-e "$o"); done
	"$src/scripts/config" --file "$obj/.config" "${args[@]}"
	"${kmake[@]}" olddefconfig >/dev/null || return 1
	for o in "${need[@]}"; do
		grep -qx "CONFIG_$o=y" "$obj/.config" || {
			echo "CONFIG_$o=y is not in .config"; return 1; }
	done
}

# A fresh tinyconfig each run (options of an earlier PATCH_CHECK_OPTIONS
# would stay otherwise); Kconfig only touches what changed, so the build
# stays incremental.
rm -f "$obj/.config"
status=0
summary=()
i=0
for p in "${series[@]}"; do
	i=$((i + 1))
	name=$(basename "$p" .patch)
	tag=$(printf '%04d' "$i")
	if ! gitq -C "$src" am -q "$p" > "$res/$tag.am.txt" 2>&1; then
		summary+=("$name: does not apply (see out/patch-check/$tag.am.txt)")
		status=1
		break
	fi

	# checkpatch, from the pristine tree
	(cd "$pristine" && perl scripts/checkpatch.pl --strict --show-types "$p") \
		> "$res/$tag.checkpatch.txt" 2>&1
	# checkpatch leaves a CamelCase cache in the tree it runs from: keep
	# the pristine tree (whose files every other tree links to) pristine
	rm -f "$pristine"/.checkpatch-camelcase.*
	read -r e w c < <(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p' \
		"$res/$tag.checkpatch.txt" | tail -n 1)
	e=${e:-?} w=${w:-?} c=${c:-?}
	[ "$e" = 0 ] || status=1
	types=$(grep -oE '^(ERROR|WARNING|CHECK):[A-Z0-9_]+' "$res/$tag.checkpatch.txt" |
		sort | uniq -c | sort -rn | head -n 4 | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}')

	b="build skipped"
	if [ "$build" = 1 ]; then
		t0=$(date +%s)
		if ! configure > "$res/$tag.build.txt" 2>&1; then
			b="build FAILED (config)"
			status=1
		elif "${kmake[@]}" -j"$jobs" >> "$res/$tag.build.txt" 2>&1; then
			nw=$(grep -c 'warning:' "$res/$tag.build.txt")
			b="build ok ($(( $(date +%s) - t0 ))s, $nw compiler warnings)"
		else
			b="build FAILED"
			status=1
		fi
	fi
	line="$name: $b; checkpatch $e errors, $w warnings, $c checks${types:+ ($types)}"
	echo "patch-check.sh: $line"
	summary+=("$line")
done
printf '%s\n' "${summary[@]}" > "$res/summary.txt"
echo "patch-check.sh: summary in out/patch-check/summary.txt, logs beside it"
if [ $status = 0 ]; then
	echo "patch-check.sh: every patch applies, builds and has no checkpatch ERROR"
else
	echo "patch-check.sh: FAILED"
fi
exit $status
