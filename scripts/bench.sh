#!/bin/bash
# bench.sh [TREE...]: `make bench` (mainline and ours) and `make bench-mainline`.
#
# Builds each tree's plain kernel for every arch in BENCH_ARCHES, boots each
# BENCH_REPEAT times (default 2) in QEMU with -icount shift=0,sleep=off and
# one CPU (BENCH_SMP=N for N), with guest/bench/ as /init, and hands the logs to
# scripts/bench-report.py, which prints the table and writes out/bench/.
# Guest time is an exact count of guest instructions and "norandmaps" turns
# off address-space randomisation (which otherwise moves fork and exec costs
# by ~1% from boot to boot), so the boots of one tree must agree; the report
# prints how far they differ.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(mainline ours)
arches=(${BENCH_ARCHES:-x86_64 arm64})
repeat=${BENCH_REPEAT:-2}
jobs=${GUESTS:-2}
out=${BENCH_OUT:-$top/out/bench}
start=$(date +%s)

rm -rf "$out/logs"
mkdir -p "$out/logs"
for arch in "${arches[@]}"; do
	# mainline first: the bench image takes its headers and gen_init_cpio
	scripts/build-kernel.sh mainline "$arch" > "$out/logs/mainline-$arch.build.txt" 2>&1 ||
		{ tail -20 "$out/logs/mainline-$arch.build.txt"; exit 1; }
	for tree in "${trees[@]}"; do
		[ "$tree" = mainline ] && continue
		scripts/build-kernel.sh "$tree" "$arch" > "$out/logs/$tree-$arch.build.txt" 2>&1 ||
			{ tail -20 "$out/logs/$tree-$arch.build.txt"; exit 1; }
	done
	scripts/bench-image.sh "$arch"
done
echo "bench.sh: kernels and images ready after $(( $(date +%s) - start ))s"

run_one() { # TREE ARCH REP
	local t0=$(date +%s) rc=0
	INITRD=$top/build/bench/$2/initramfs.cpio ICOUNT=exact SMP=${BENCH_SMP:-1} MEM=2G \
		APPEND="norandmaps ${BENCH_APPEND:-}" \
		TIMEOUT=${BENCH_TIMEOUT:-1200} \
		scripts/guest-run.sh "$1" "$2" "" bench "$out/logs/$1-$2-$3.log" || rc=$?
	echo "$rc" > "$out/logs/$1-$2-$3.rc"
	echo "bench.sh: $1-$2 boot $3 done in $(( $(date +%s) - t0 ))s (rc=$rc)"
}
# x86_64 first: its boots are the long ones
for arch in "${arches[@]}"; do
	for rep in $(seq 1 "$repeat"); do
		for tree in "${trees[@]}"; do
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
			run_one "$tree" "$arch" "$rep" &
		done
	done
done
wait
echo "bench.sh: guests done after $(( $(date +%s) - start ))s"
python3 scripts/bench-report.py "$out" "${trees[@]}"
