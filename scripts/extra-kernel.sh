#!/bin/bash
# extra-kernel.sh TREE ARCH NAME FRAGMENT [gcov|kcov]: build a kernel of a kind
# make test does not boot (coverage, race detection) into
# build/out/NAME-TREE-ARCH/, from build/src/NAME-TREE-ARCH: the plain guest
# config (tinyconfig + configs/common.config + configs/ARCH.config, and
# configs/ours.config for ours) with FRAGMENT laid over it.  With GCOV=gcov,
# only kernel/events/ and the PMUv3 driver (ours:
# arch/arm64/kernel/perf_event.c; mainline: drivers/perf/arm_pmuv3.c) are
# instrumented, and ccache keeps such objects per tree (gcov writes the
# object's path into it).  With kcov, only those files are instrumented
# for KCOV (the fragment sets CONFIG_KCOV_INSTRUMENT_ALL=n).  Used by
# coverage.sh, race.sh, fuzz-guided.sh and fuzz-proof.sh; make test's
# kernels are build-kernel.sh's.  FAULT=PATCH (fuzz-proof.sh): a patch of
# the repository's linux/ (paths a/linux/...) laid over the tree after it
# is prepared, putting back a fault for the fuzzer to find; the next
# prepare takes it out again.
set -euo pipefail
tree=$1 arch=$2 name=$3 frag=$4 gcov=${5:-}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/src/$name-$tree-$arch
out=$top/build/out/$name-$tree-$arch
case $arch in
x86_64) karch=x86_64 cross= image=arch/x86/boot/bzImage ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- image=arch/arm64/boot/Image ;;
*) echo "extra-kernel.sh: unknown arch $arch" >&2; exit 2 ;;
esac

# profile MAKEFILE LINE: add LINE to MAKEFILE once.  The trees are
# hard-linked to the pristine one: the file is replaced, never written in
# place.
profile() {
	grep -qxF "$2" "$1" && return 0
	{ cat "$1"; echo "$2"; } > "$1.new" && mv "$1.new" "$1"
}

python3 "$top/scripts/tree.py" pristine "$top/build/pristine"
python3 "$top/scripts/tree.py" prepare "$tree" "$src"
if [ -n "${FAULT:-}" ]; then
	# patch(1) writes a new file and renames it over the old one, so the
	# pristine tree the source is hard-linked to stays as it was.
	patch -s -p2 -d "$src" -i "$(realpath "$FAULT")"
fi
. "$top/scripts/kbuild-env.sh"
kbuild_env "$top/build/src"
if [ "$gcov" = gcov ]; then
	profile "$src/kernel/events/Makefile" 'GCOV_PROFILE := y'
	if [ "$arch" = arm64 ] && [ "$tree" = ours ]; then
		profile "$src/arch/arm64/kernel/Makefile" 'GCOV_PROFILE_perf_event.o := y'
	elif [ "$arch" = arm64 ]; then
		profile "$src/drivers/perf/Makefile" 'GCOV_PROFILE_arm_pmuv3.o := y'
	fi
	unset CCACHE_NOHASHDIR
elif [ "$gcov" = kcov ]; then
	profile "$src/kernel/events/Makefile" 'KCOV_INSTRUMENT := y'
	if [ "$arch" = arm64 ] && [ "$tree" = ours ]; then
		profile "$src/arch/arm64/kernel/Makefile" 'KCOV_INSTRUMENT_perf_event.o := y'
	elif [ "$arch" = arm64 ]; then
		profile "$src/drivers/perf/Makefile" 'KCOV_INSTRUMENT_arm_pmuv3.o := y'
	fi
fi
kmake=(make -C "$src" -s ARCH=$karch CROSS_COMPILE=$cross "CC=ccache ${cross}gcc"
       "HOSTCC=ccache gcc" -j"${JOBS:-$(nproc)}")
frags=("$src/kernel/configs/tiny-base.config" "$src/kernel/configs/tiny.config")
[ -f "$src/arch/$karch/configs/tiny.config" ] && frags+=("$src/arch/$karch/configs/tiny.config")
[ "$arch" = x86_64 ] && frags+=("$src/arch/x86/configs/tiny.config")
frags+=("$top/configs/common.config" "$top/configs/$arch.config")
[ "$tree" = ours ] && frags+=("$top/configs/ours.config")
frags+=("$frag")
cat "${frags[@]}" > "$src/harness.config.new"
if ! cmp -s "$src/harness.config.new" "$src/harness.config" || [ ! -f "$src/.config" ]; then
	mv "$src/harness.config.new" "$src/harness.config"
	"${kmake[@]}" KCONFIG_ALLCONFIG=harness.config allnoconfig >/dev/null
	python3 "$top/scripts/check-config.py" "$src/.config" \
		"$top/configs/common.config" "$top/configs/$arch.config" "$frag" || {
		rm -f "$src/harness.config"; exit 1; }
else
	rm -f "$src/harness.config.new"
fi
start=$(date +%s)
"${kmake[@]}" "$(basename $image)" 2>&1 | grep -Ev '^\s*(CC|LD|AR|AS)\b|^$' || true
"${kmake[@]}" "$(basename $image)" >/dev/null
mkdir -p "$out"
cp "$src/$image" "$src/.config" "$out/"
echo "extra-kernel.sh: $name-$tree-$arch built in $(( $(date +%s) - start ))s -> build/out/$name-$tree-$arch/"
