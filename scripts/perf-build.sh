#!/bin/bash
# perf-build.sh ARCH: the perf that ships with 6.12, built from the base
# tree's tools/perf (mainline's source, untouched: a client of the
# kernel, not part of our patch) into build/perf/ARCH/perf, linked
# against Debian bookworm's libraries as the guest userspace has them.
#   ARCH: x86_64 (native) | arm64 (cross, against bookworm's arm64
#   -dev packages, installed multiarch: dpkg --add-architecture arm64)
# Features as far as bookworm has the libraries: libelf, libdw (DWARF and
# its unwinder), libtraceevent, libunwind, zstd, lzma, zlib, libcap,
# libnuma, libcrypto, libpfm4, babeltrace, slang, aio; natively also
# perl and python.  Off: libLLVM (only the client image has it), libbpf
# and its skeletons (NO_LIBBPF, BUILD_BPF_SKEL=0: not tried yet; the
# skeletons need clang), libbfd, capstone, OpenCSD.
# The binary is kept in $HARNESS_CACHE/perf (default ~/.cache/perf-harness)
# under a key of the base tree's version, the compiler and this script,
# so that a fresh clone copies it instead of building it (7-10 minutes
# with one job here).
set -euo pipefail
arch=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/perf/$arch
jobs=${JOBS:-$(nproc)}

case $arch in
x86_64)
	cross=() multi=x86_64-linux-gnu cc=gcc
	dev=(libdw-dev libtraceevent-dev libunwind-dev libzstd-dev libcap-dev
	     libnuma-dev libslang2-dev python3-dev libperl-dev libbabeltrace-dev
	     libpfm4-dev liblzma-dev zlib1g-dev libssl-dev libaio-dev)
	;;
arm64)
	cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- NO_LIBPERL=1
	       NO_LIBPYTHON=1) multi=aarch64-linux-gnu cc=aarch64-linux-gnu-gcc
	dev=(libelf-dev:arm64 libdw-dev:arm64 libtraceevent-dev:arm64
	     libunwind-dev:arm64 libzstd-dev:arm64 libcap-dev:arm64
	     libnuma-dev:arm64 libslang2-dev:arm64 zlib1g-dev:arm64
	     liblzma-dev:arm64 libssl-dev:arm64 libpfm4-dev:arm64
	     libbabeltrace-dev:arm64 libaio-dev:arm64)
	;;
*) echo "perf-build.sh: unknown arch $arch" >&2; exit 2 ;;
esac

missing=()
for p in "${dev[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "perf-build.sh: installing ${missing[*]}"
	[ "$arch" = arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64 &&
		dpkg --add-architecture arm64 && apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi

python3 "$top/scripts/tree.py" pristine "$top/build/pristine"
cache=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-harness}/perf
key=$({
	dpkg-query -W -f='${Version}\n' linux-source-6.12
	"$cc" --version | head -n 1
	sha256sum "$0" | cut -d' ' -f1
	echo "$arch"
} | sha256sum | cut -c1-16)
mkdir -p "$out"
if [ -x "$cache/$key/perf" ]; then
	cp "$cache/$key/perf" "$out/perf"
	echo "perf-build.sh: perf $arch from the cache (key $key) -> build/perf/$arch/perf"
	exit 0
fi

t0=$(date +%s)
PKG_CONFIG_PATH=/usr/lib/$multi/pkgconfig PKG_CONFIG_LIBDIR=/usr/lib/$multi/pkgconfig:/usr/share/pkgconfig \
make -C "$top/build/pristine/tools/perf" O="$out" -j"$jobs" \
	"${cross[@]}" NO_LIBLLVM=1 BUILD_BPF_SKEL=0 NO_LIBBPF=1 WERROR=0 \
	prefix=/usr > "$out/build.txt" 2>&1 || {
	tail -n 30 "$out/build.txt"
	echo "perf-build.sh: perf $arch does not build (build/perf/$arch/build.txt)"
	exit 1
}
mkdir -p "$cache/$key.tmp"
cp "$out/perf" "$cache/$key.tmp/perf"
rm -rf "$cache/$key"
mv "$cache/$key.tmp" "$cache/$key"
echo "perf-build.sh: perf $arch built in $(( $(date +%s) - t0 ))s -> build/perf/$arch/perf"
