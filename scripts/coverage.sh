#!/bin/bash
# coverage.sh: line, function and branch coverage of the perf core under
# make test's suites, ours beside mainline (make coverage).
#
# For each tree (COV_TREES, default "ours mainline") and arch (COV_ARCHES,
# default "x86_64 arm64") it builds a kernel with the plain guest config
# and gcov (scripts/coverage/coverage.config; extra-kernel.sh, which
# instruments only kernel/events/ and the PMUv3 driver);
# boots it with the suites of make test's plain guest of that arch, then
# the fuzzer (one short pass as uid 1000 and one as root), then a suite
# that prints the gcov counters (scripts/coverage/gcov.sh); and merges
# each tree's counters over its arches with lcov.  Prints a table per
# file, ours beside mainline; writes out/coverage/TREE.info, an HTML
# report in out/coverage/html-TREE/ and the functions of ours no suite
# reached in out/coverage/unreached.txt.
#   COV_PLAN      the suites (default: make test's plain guest's, then fuzz)
#   COV_FUZZ_OPS  calls per fuzz pass (default 6000)
#   GUESTS        guests at once (default 2)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
trees=${COV_TREES:-ours mainline}
arches=${COV_ARCHES:-x86_64 arm64}
res=$top/out/coverage
mkdir -p "$res"

# The guest's initramfs with gcov.sh as one more suite (a second cpio
# archive after the first: its files are laid over).
initrd() {
	local arch=$1 stage=$top/build/guest/$arch/coverage-stage
	local cpio=$top/build/guest/$arch/initramfs-coverage.cpio
	rm -rf "$stage"
	mkdir -p "$stage/harness/suites"
	install -m 755 "$top/scripts/coverage/gcov.sh" "$stage/harness/suites/gcov.sh"
	(cd "$stage" && find . | cpio -o -H newc --quiet) > "$cpio.overlay"
	cat "$top/build/guest/$arch/initramfs.cpio" "$cpio.overlay" > "$cpio"
	rm -f "$cpio.overlay"
}

# Boot TREE's coverage kernel for ARCH with the suites and gcov.sh.
run() {
	local tree=$1 arch=$2 plan timeout
	case $arch in
	x86_64) plan=selftests,mainline-selftests,perf,perf-test,papi timeout=2700 ;;
	arm64) plan=selftests,mainline-selftests,perf,perf-hw,perf-test,papi timeout=3000 ;;
	esac
	plan=${COV_PLAN:-$plan,fuzz},gcov
	echo "coverage.sh: cov-$tree-$arch: $plan"
	INITRD=$top/build/guest/$arch/initramfs-coverage.cpio ICOUNT=0 \
	TIMEOUT=$timeout APPEND="harness.fuzz_ops=${COV_FUZZ_OPS:-6000} harness.fuzz_seconds=300" \
		"$top/scripts/guest-run.sh" "cov-$tree" "$arch" "" "$plan" \
		"$res/$tree-$arch.log" || echo "coverage.sh: cov-$tree-$arch: guest rc=$?"
}

# Put the counters a guest printed next to the objects of its build tree.
unpack() {
	local tree=$1 arch=$2 src=$top/build/src/cov-$tree-$arch
	local tmp=$res/gcda-$tree-$arch
	rm -rf "$tmp"
	mkdir -p "$tmp"
	find "$src" -name '*.gcda' -delete
	sed -n '/^@@GCOV begin/,/^@@GCOV end/p' "$res/$tree-$arch.log" | tr -d '\r' |
		grep -E '^[A-Za-z0-9+/=]+$' | base64 -d | tar -C "$tmp" -xzf - || {
		echo "coverage.sh: cov-$tree-$arch: no gcov data in its log" >&2; return 1; }
	# the guest shows them under the build tree's absolute path
	(cd "$tmp" && find . -name '*.gcda') | while read -r f; do
		rel=${f#*/cov-$tree-$arch/}
		cp "$tmp/$f" "$src/$rel"
	done
}

# lcov's data of one guest, paths relative to the kernel tree.
capture() {
	local tree=$1 arch=$2 src=$top/build/src/cov-$tree-$arch gcov=gcov dirs
	[ "$arch" = arm64 ] && gcov=aarch64-linux-gnu-gcov
	dirs=(--directory "$src/kernel/events")
	if [ "$arch" = arm64 ]; then
		if [ "$tree" = ours ]; then
			dirs+=(--directory "$src/arch/arm64/kernel")
		else
			dirs+=(--directory "$src/drivers/perf")
		fi
	fi
	lcov --quiet --rc lcov_branch_coverage=1 --gcov-tool "$gcov" --capture \
	     "${dirs[@]}" --base-directory "$src" --no-external \
	     --output-file "$res/$tree-$arch.raw.info"
	# one name per source file, whatever tree it was built in
	sed "s|^SF:$src/|SF:|" "$res/$tree-$arch.raw.info" > "$res/$tree-$arch.info"
}

command -v lcov >/dev/null || apt-get install -y -q lcov >/dev/null
for arch in $arches; do
	"$top/scripts/guest-image.sh" "$arch"
	initrd "$arch"
	for tree in $trees; do
		"$top/scripts/extra-kernel.sh" "$tree" "$arch" cov \
			"$top/scripts/coverage/coverage.config" gcov \
			> "$res/build-$tree-$arch.txt" 2>&1 || {
			tail -n 30 "$res/build-$tree-$arch.txt"; exit 2; }
	done
done
export -f run
export top res
for tree in $trees; do for arch in $arches; do echo "$tree $arch"; done; done |
	xargs -P "${GUESTS:-2}" -L 1 bash -c 'run "$0" "$1"'
for tree in $trees; do
	infos=()
	for arch in $arches; do
		unpack "$tree" "$arch" && capture "$tree" "$arch" &&
			infos+=(--add-tracefile "$res/$tree-$arch.info")
	done
	[ ${#infos[@]} -gt 0 ] || continue
	lcov --quiet --rc lcov_branch_coverage=1 "${infos[@]}" --output-file "$res/$tree.info"
	# genhtml reads the sources: those of the first arch's tree
	src=$top/build/src/cov-$tree-$(echo $arches | cut -d' ' -f1)
	(cd "$src" && genhtml --quiet --branch-coverage --output-directory "$res/html-$tree" \
		"$res/$tree.info") || true
done
python3 "$top/scripts/coverage/report.py" "$res" $trees
