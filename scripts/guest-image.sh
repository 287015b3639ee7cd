#!/bin/bash
# guest-image.sh ARCH: build the test programs and the guest's initramfs,
# build/guest/ARCH/initramfs.cpio = Debian userspace + /init + /harness,
# and the client guests' build/guest/ARCH/clients-TREE.cpio = the same
# over the userspace with the BPF tracers (rootfs.sh ARCH clients), with
# the tree's kernel headers.
set -euo pipefail
arch=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/guest/$arch
case $arch in
x86_64) karch=x86_64 srcarch=x86 cross= ;;
arm64) karch=arm64 srcarch=arm64 cross=aarch64-linux-gnu- ;;
*) echo "guest-image.sh: unknown arch $arch" >&2; exit 2 ;;
esac

"$top/scripts/rootfs.sh" "$arch"
"$top/scripts/rootfs.sh" "$arch" clients
python3 "$top/scripts/tree.py" pristine "$top/build/pristine"

rm -rf "$out/stage"
mkdir -p "$out/stage/harness/bin"
# Each selftest suite is built by kselftest's own makefiles, in the tree it
# belongs to (our tree's against our UAPI headers), linked statically.
build_selftests() { # TREE SUITE
	local src=$top/build/src/$1-$arch dest=$out/stage/harness/bin/$2
	python3 "$top/scripts/tree.py" prepare "$1" "$src" >/dev/null
	make -C "$src" -s ARCH=$karch CROSS_COMPILE=$cross headers_install >/dev/null
	mkdir -p "$dest" "$out/obj/$2"
	CFLAGS="-static -O2" make -s -C "$src/tools/testing/selftests/perf_events" \
		ARCH=$karch CROSS_COMPILE=$cross OUTPUT="$out/obj/$2" >/dev/null
	find "$out/obj/$2" -maxdepth 1 -type f -perm -u+x -exec cp {} "$dest/" \;
}
# Mainline's own tests (tree.py MAINLINE_SELFTESTS) are in both trees'
# directory; they run once, as the mainline-selftests suite.
mainline_tests="sigtrap_threads remove_on_exec watermark_signal mmap"
build_selftests ours selftests
for t in $mainline_tests; do rm -f "$out/stage/harness/bin/selftests/$t"; done
build_selftests mainline mainline-selftests
for t in ours mainline; do "$top/scripts/check-links.sh" "$top/build/src/$t-$arch"; done
# perf_fuzz (make fuzz), from our tree against its UAPI headers; the
# userspace ABI is the same, so it runs on mainline's kernel as well.
fuzz=$top/build/src/ours-$arch/tools/testing/selftests/perf_events/fuzz
${cross}gcc -static -O2 -g -Wall -I "$top/build/src/ours-$arch/usr/include" \
	-o "$out/stage/harness/bin/perf_fuzz" "$fuzz"/*.c -lpthread
# The fuzzer's corpus (fuzz/corpus: call sequences that reached new code
# of the core), which guest/suites/fuzz.sh replays before its passes.
rm -f "$out/stage/harness/fuzz-corpus"
[ -f "$fuzz/corpus" ] && cp "$fuzz/corpus" "$out/stage/harness/fuzz-corpus"
# Reproducers made by fuzz/mkrepro.sh, for harness.fuzz_repro=NAME.
if [ -d "$top/build/fuzz-repro/$arch" ]; then
	mkdir -p "$out/stage/harness/bin/repro"
	cp "$top/build/fuzz-repro/$arch"/* "$out/stage/harness/bin/repro/"
fi
${cross}gcc -static -O1 -g -fno-omit-frame-pointer -fno-inline \
	-o "$out/stage/harness/bin/hotloop" "$top/guest/hotloop.c"
${cross}gcc -static -nostdlib -O2 -o "$out/stage/harness/bin/countloop" "$top/guest/countloop.c"

# The PAPI client, linked against the guest userspace's libpapi: papi.h
# and PAPI's libraries are taken out of the userspace's archive (rootfs.sh;
# its unpacked tree is not kept where the archive came from the cache),
# and nothing else, so that the rest (the cross compiler's C library
# above all) stays the compiler's own.
case $arch in
x86_64) triplet=x86_64-linux-gnu ;;
arm64) triplet=aarch64-linux-gnu ;;
esac
rm -rf "$out/papi"
mkdir -p "$out/papi/root"
(cd "$out/papi/root" && cpio -i --quiet -d '*usr/include/papi.h' '*usr/include/papiStdEventDefs.h' \
	"*usr/lib/$triplet/libpapi.so*" "*usr/lib/$triplet/libpfm.so*" "*usr/lib/$triplet/libsde.so*") \
	< "$top/build/rootfs/$arch.cpio"
papi_lib=$out/papi/root/usr/lib/$triplet
${cross}gcc -O1 -g -Wall -I "$out/papi/root/usr/include" -o "$out/stage/harness/bin/papi_selfmon" \
	"$top/guest/papi_selfmon.c" -L "$papi_lib" -Wl,-rpath-link,"$papi_lib" -lpapi

cp "$top/guest/init" "$out/stage/init"
cp -r "$top/guest/suites" "$out/stage/harness/"
(cd "$out/stage" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) > "$out/harness.cpio"
cat "$top/build/rootfs/$arch.cpio" "$out/harness.cpio" > "$out/initramfs.cpio.tmp"
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
# The client guests' images, one per tree: the same /harness over the
# userspace with the BPF tracers, and the tree's kernel headers where BCC
# looks for them (/lib/modules/RELEASE/build: the include directories of
# the kernel's build, generated ones included).
for tree in ours mainline; do
	src=$top/build/src/$tree-$arch
	rm -f "$out/clients-$tree.cpio"
	[ -f "$src/include/config/kernel.release" ] || continue
	hdr=$out/headers-$tree
	build=$hdr/lib/modules/$(cat "$src/include/config/kernel.release")/build
	rm -rf "$hdr"
	mkdir -p "$build/arch/$srcarch"
	cp -a "$src/include" "$build/"
	cp -a "$src/arch/$srcarch/include" "$build/arch/$srcarch/"
	(cd "$hdr" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) > "$out/headers-$tree.cpio"
	rm -rf "$hdr"
	cat "$top/build/rootfs/$arch-clients.cpio" "$out/harness.cpio" "$out/headers-$tree.cpio" \
		> "$out/clients-$tree.cpio.tmp"
	mv "$out/clients-$tree.cpio.tmp" "$out/clients-$tree.cpio"
	rm -f "$out/headers-$tree.cpio"
done
echo "guest-image.sh: build/guest/$arch/initramfs.cpio ($(ls "$out"/stage/harness/bin/selftests | wc -l) selftests, $(ls "$out"/stage/harness/bin/mainline-selftests | wc -l) mainline selftests)"
