#!/bin/bash
# deps.sh: install, non-interactively, whatever the harness needs and this
# machine lacks (Debian bookworm; needs root for apt-get).
set -euo pipefail
pkgs=(linux-source-6.12 qemu-system-x86 qemu-system-arm busybox-static
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross ccache flex bison bc
      libelf-dev libssl-dev cpio kmod debootstrap e2fsprogs patch python3
      make gcc git rsync gnuplot-nox)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
echo "deps.sh: installing ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: not root; install these first: ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
