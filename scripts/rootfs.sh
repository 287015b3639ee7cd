#!/bin/bash
# rootfs.sh ARCH [clients]: a Debian bookworm userspace for the guest (bash,
# python3, busybox, Debian's perf, PAPI), unpacked from .debs without
# running their maintainer scripts (so no chroot and no binfmt are needed
# for arm64), packed as build/rootfs/ARCH.cpio (newc, uncompressed).
# "clients" adds the BPF tracers, bpftrace and BCC, whose LLVM makes them
# too big for every guest: build/rootfs/ARCH-clients.cpio, for the client
# guests only.
#
# A fetched userspace is also kept in $HARNESS_CACHE (default
# ~/.cache/perf-harness), like ccache's objects, so that a fresh clone (CI)
# does not fetch it again; its stamp says what it holds.
set -euo pipefail
arch=$1 flavour=${2:-}
name=$arch${flavour:+-$flavour}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/rootfs/$name
cpio=$top/build/rootfs/$name.cpio
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkgs=linux-perf,python3,procps,busybox-static,bash,coreutils,util-linux,grep,sed,gawk,findutils,binutils,file,strace,gdb-minimal,libc6-dev,papi-tools,libpapi-dev
case $flavour in
"") ;;
clients) pkgs=$pkgs,bpftrace,bpfcc-tools ;;
*) echo "rootfs.sh: unknown flavour $flavour" >&2; exit 2 ;;
esac
stamp="v2 $arch $pkgs"
[ -f "$cpio" ] && [ "$(cat "$dir.stamp" 2>/dev/null)" = "$stamp" ] && exit 0
cache=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-harness}/rootfs
if [ -f "$cache/$name.cpio" ] && [ "$(cat "$cache/$name.stamp" 2>/dev/null)" = "$stamp" ]; then
	mkdir -p "$(dirname "$cpio")"
	cp "$cache/$name.cpio" "$cpio.tmp"
	mv "$cpio.tmp" "$cpio"
	echo "$stamp" > "$dir.stamp"
	echo "rootfs.sh: build/rootfs/$name.cpio from $cache"
	exit 0
fi

case $arch in
x86_64) debarch=amd64 ;;
arm64) debarch=arm64 ;;
*) echo "rootfs.sh: unknown arch $arch" >&2; exit 2 ;;
esac

rm -rf "$dir" "$cpio" "$dir.stamp"
mkdir -p "$dir"
echo "rootfs.sh: fetching Debian bookworm ($debarch) with $pkgs"
debootstrap --foreign --arch=$debarch --variant=minbase --include=$pkgs \
	bookworm "$dir" "$mirror" > "$dir.log" 2>&1 || {
	tail -20 "$dir.log"; exit 1; }
for deb in "$dir"/var/cache/apt/archives/*.deb; do
	dpkg-deb -x "$deb" "$dir"
done
rm -rf "$dir"/debootstrap "$dir"/var/cache/apt/archives/*.deb \
	"$dir"/usr/share/doc "$dir"/usr/share/man "$dir"/usr/share/info \
	"$dir"/usr/share/locale "$dir"/usr/share/i18n
cp "$dir"/usr/share/base-passwd/passwd.master "$dir"/etc/passwd
cp "$dir"/usr/share/base-passwd/group.master "$dir"/etc/group
echo 'nobody:x:65534:' >> "$dir"/etc/group
[ -e "$dir"/bin/sh ] || ln -s /usr/bin/dash "$dir"/bin/sh
[ -e "$dir"/bin/bash ] || ln -s /usr/bin/bash "$dir"/bin/bash
echo harness > "$dir"/etc/hostname
mkdir -p "$dir"/proc "$dir"/sys "$dir"/dev "$dir"/tmp "$dir"/run "$dir"/root
(cd "$dir" && find . -print0 | cpio --null -o -H newc --quiet) > "$cpio.tmp"
mv "$cpio.tmp" "$cpio"
echo "$stamp" > "$dir.stamp"
if mkdir -p "$cache" 2>/dev/null && cp "$cpio" "$cache/$name.cpio.tmp" 2>/dev/null; then
	mv "$cache/$name.cpio.tmp" "$cache/$name.cpio"
	echo "$stamp" > "$cache/$name.stamp"
fi
echo "rootfs.sh: $(du -sh "$cpio" | cut -f1) in build/rootfs/$name.cpio"
