#!/bin/bash
# build-kernel.sh TREE ARCH [VARIANT]
#   TREE: ours | mainline; ARCH: x86_64 | arm64; VARIANT: "" | debug
# Prepares build/src/TREE-ARCH[-VARIANT] (an in-tree build, so that ccache
# shares objects between our tree and mainline), configures it from
# tinyconfig + configs/*.config and builds the kernel image and UAPI headers.
# The image lands in build/out/TREE-ARCH[-VARIANT]/.
set -euo pipefail
tree=$1 arch=$2 variant=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
name=$tree-$arch${variant:+-$variant}
src=$top/build/src/$name
out=$top/build/out/$name
jobs=${JOBS:-$(nproc)}

case $arch in
x86_64) karch=x86_64; cross=; image=arch/x86/boot/bzImage ;;
arm64) karch=arm64; cross=aarch64-linux-gnu-; image=arch/arm64/boot/Image ;;
*) echo "build-kernel.sh: unknown arch $arch" >&2; exit 2 ;;
esac

python3 "$top/scripts/tree.py" pristine "$top/build/pristine"
python3 "$top/scripts/tree.py" prepare "$tree" "$src"

. "$top/scripts/kbuild-env.sh"
kbuild_env "$top/build/src"
kmake=(make -C "$src" -s ARCH=$karch CROSS_COMPILE=$cross "CC=ccache ${cross}gcc" "HOSTCC=ccache gcc" -j"$jobs")

# The configuration: tinyconfig's fragments, then ours.  Rebuilt only when a
# fragment changes.
frags=("$src/kernel/configs/tiny-base.config" "$src/kernel/configs/tiny.config")
[ -f "$src/arch/$karch/configs/tiny.config" ] && frags+=("$src/arch/$karch/configs/tiny.config")
[ "$arch" = x86_64 ] && frags+=("$src/arch/x86/configs/tiny.config")
frags+=("$top/configs/common.config" "$top/configs/$arch.config")
[ -n "$variant" ] && frags+=("$top/configs/$variant.config")
# Options only our tree has (configs/ours.config): mainline's Kconfig does
# not know them.
ours_frag=
[ "$tree" = ours ] && ours_frag=$top/configs/ours.config && frags+=("$ours_frag")
cat "${frags[@]}" > "$src/harness.config.new"
if ! cmp -s "$src/harness.config.new" "$src/harness.config" || [ ! -f "$src/.config" ]; then
	mv "$src/harness.config.new" "$src/harness.config"
	"${kmake[@]}" KCONFIG_ALLCONFIG=harness.config allnoconfig >/dev/null
	python3 "$top/scripts/check-config.py" "$src/.config" \
		"$top/configs/common.config" "$top/configs/$arch.config" \
		${variant:+"$top/configs/$variant.config"} ${ours_frag:+"$ours_frag"} || {
		rm -f "$src/harness.config"; exit 1; }
else
	rm -f "$src/harness.config.new"
fi

# Mainline's kernel is the same from one run to the next while the base
# tree, its configuration, the compilers and these scripts are: its image
# is kept in $HARNESS_CACHE/kernels (default ~/.cache/perf-harness), so a
# fresh clone (CI) builds only our tree.  The tree is still prepared as
# for a build, with its UAPI headers and usr/gen_init_cpio: guest-image.sh
# builds mainline's selftests against the headers and gives BCC the
# generated ones, bench-image.sh packs with gen_init_cpio.
# HARNESS_KERNEL_CACHE=0 builds it anyway.
kcache=
if [ "$tree" = mainline ] && [ "${HARNESS_KERNEL_CACHE:-1}" = 1 ]; then
	kkey=$({
		dpkg-query -W -f='${Version}\n' linux-source-6.12
		gcc --version | head -n 1
		${cross}gcc --version | head -n 1
		cat "$src/harness.config"
		cd "$top" && sha256sum scripts/build-kernel.sh scripts/kbuild-env.sh \
			scripts/check-config.py scripts/tree.py scripts/check-links.sh
	} | sha256sum | cut -c1-16)
	kcache=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-harness}/kernels/$name-$kkey
	if [ -f "$kcache/$(basename $image)" ] && [ -f "$kcache/config" ]; then
		"${kmake[@]}" prepare headers_install >/dev/null
		"${kmake[@]}" usr/ >/dev/null
		"$top/scripts/check-links.sh" "$src"
		mkdir -p "$out"
		cp "$kcache/$(basename $image)" "$kcache/config" "$out/"
		cp "$kcache/System.map" "$out/" 2>/dev/null || true
		echo "build-kernel.sh: $name from the kernel cache (key $kkey) -> build/out/$name/$(basename $image)"
		exit 0
	fi
fi

start=$(date +%s)
"${kmake[@]}" "$(basename $image)" 2>&1 | grep -v '^$' | grep -Ev '^\s*(CC|LD|AR|AS)\b' || true
"${kmake[@]}" "$(basename $image)" >/dev/null  # fails loudly if the first did
"${kmake[@]}" headers_install >/dev/null
"$top/scripts/check-links.sh" "$src"
mkdir -p "$out"
cp "$src/$image" "$out/"
cp "$src/.config" "$out/config"
cp "$src/System.map" "$out/" 2>/dev/null || true
if [ -n "$kcache" ]; then
	rm -rf "$kcache.tmp" && mkdir -p "$kcache.tmp" &&
		cp "$out"/* "$kcache.tmp/" && rm -rf "$kcache" && mv "$kcache.tmp" "$kcache"
fi
echo "build-kernel.sh: $name built in $(( $(date +%s) - start ))s -> build/out/$name/$(basename $image)"
