#!/bin/bash
# bench-image.sh ARCH: build/bench/ARCH/initramfs.cpio, a minimal initramfs
# whose /init is the static program of guest/bench/*.c and /tiny the
# program it execs.
# Needs a kernel tree built by build-kernel.sh (its installed UAPI headers
# and usr/gen_init_cpio); the same image boots on mainline and on ours.
set -euo pipefail
arch=$1
top=$(cd "$(dirname "$0")/.." && pwd)
case $arch in
x86_64) cross= ;;
arm64) cross=aarch64-linux-gnu- ;;
*) echo "bench-image.sh: unknown arch $arch" >&2; exit 2 ;;
esac
src=$top/build/src/mainline-$arch
out=$top/build/bench/$arch
mkdir -p "$out"
[ -x "$src/usr/gen_init_cpio" ] || { echo "bench-image.sh: build the mainline $arch kernel first" >&2; exit 1; }
${cross}gcc -static -O2 -Wall -Wextra -I"$src/usr/include" -o "$out/bench" \
	"$top"/guest/bench/*.c -lpthread
${cross}gcc -static -nostdlib -O2 -o "$out/tiny" "$top/guest/tiny.c"
cat > "$out/list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
file /init $out/bench 0755 0 0
file /tiny $out/tiny 0755 0 0
LIST
"$src/usr/gen_init_cpio" "$out/list" > "$out/initramfs.cpio.tmp"
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
