#!/bin/bash
# compile.sh [ARCH] OBJ...: compile single objects of our tree without
# building the kernel, e.g. scripts/compile.sh x86_64 kernel/events/pmu.o
# (W=1).  The tree is build/src/compile-ARCH, apart from build-kernel.sh's,
# with the plain guest kernel's config (tinyconfig + configs/common.config +
# configs/ARCH.config); the first call configures it (1-3 min).  Full
# builds: make build [ARCH=arm64].
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=x86_64
case ${1:-} in x86_64|arm64) arch=$1; shift ;; esac
src=$top/build/src/compile-$arch
case $arch in
x86_64) karch=x86_64; cross= ;;
arm64) karch=arm64; cross=aarch64-linux-gnu- ;;
esac
python3 "$top/scripts/tree.py" prepare ours "$src" >/dev/null
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache} CCACHE_BASEDIR=$top/build/src CCACHE_NOHASHDIR=1
kmake=(make -C "$src" -s ARCH=$karch CROSS_COMPILE=$cross "CC=ccache ${cross}gcc" "HOSTCC=ccache gcc" -j2 W=1)
if [ ! -f "$src/.config" ]; then
	frags=("$src/kernel/configs/tiny-base.config" "$src/kernel/configs/tiny.config")
	[ -f "$src/arch/$karch/configs/tiny.config" ] && frags+=("$src/arch/$karch/configs/tiny.config")
	[ "$arch" = x86_64 ] && frags+=("$src/arch/x86/configs/tiny.config")
	frags+=("$top/configs/common.config" "$top/configs/$arch.config")
	cat "${frags[@]}" > "$src/harness.config"
	"${kmake[@]}" KCONFIG_ALLCONFIG=harness.config allnoconfig >/dev/null
fi
"${kmake[@]}" "$@"
