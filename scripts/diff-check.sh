#!/bin/bash
# diff-check.sh (make diffcheck): the differential checker.  Runs the same
# seeded sequence of perf calls on mainline's kernel and ours and reports
# every call whose result differs (scripts/diff-check.py).
#
# The sequence is perf_fuzz's with one worker process and no threads or
# hotplug, each call logged with what it returned (--log --log-results):
# a call's arguments never depend on what an earlier call returned, so
# both kernels get the same calls, in the same order.  Each seed is one
# pass as uid 1000 (perf_event_paranoid -1) and one as root (seed + 1).
# The plain kernels (no debug options: faster, same behaviour), booted
# without icount.  --steady fixes perf_event_max_sample_rate at 2000 and
# keeps either kernel from lowering it when an interrupt took long (the
# emulator's timing, not the kernel's decision), which would refuse
# frequency events on one kernel and not the other.  A pass has 240 s; a
# worker stuck in a call for that long ends its sequence there, and only
# the calls both kernels made are compared (a stuck or dead guest is
# make fuzz's business; the comparer reports it as a note).
#
# The fuzzer's corpus is not replayed here (harness.fuzz_corpus=0): its
# sequences are make fuzz's, and the seeds' sequences stay comparable
# from run to run.
#
# The two kernels of a round run side by side (one host thread each).  A
# difference is only counted if a second run of the seed on both kernels
# shows it again at the same call (children that exit at another moment
# are not the kernel's doing); the second round runs only when the first
# shows a difference that is not on the list.  Exits 1 if a counted difference is
# not on scripts/diff-allow.txt, the list of deliberate differences.
#
# Environment:
#   DIFF_ARCHES  "x86_64 arm64"
#   DIFF_SEEDS   "1 3" (the root passes use seed + 1)
#   DIFF_OPS     calls a pass (2500)
#   DIFF_OUT     out/diff-check
# Mainline's runs may come from an earlier run with the same inputs
# (scripts/result-cache.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
res=${DIFF_OUT:-$top/out/diff-check}
arches=${DIFF_ARCHES:-x86_64 arm64}
seeds=${DIFF_SEEDS:-1 3}
ops=${DIFF_OPS:-2500}
rm -rf "$res"
mkdir -p "$res"
start=$(date +%s)

for arch in $arches; do
	for tree in mainline ours; do
		if ! "$top/scripts/build-kernel.sh" "$tree" "$arch" > "$res/$tree-$arch.build.txt" 2>&1; then
			tail -n 40 "$res/$tree-$arch.build.txt"
			echo "diff-check.sh: the $tree-$arch kernel does not build"
			exit 2
		fi
	done
	"$top/scripts/guest-image.sh" "$arch" > /dev/null || exit 2
done

. "$top/scripts/result-cache.sh"
result_cache_init

# run TREE ARCH SEED ROUND: one guest, both passes of the seed.
run() {
	local tree=$1 arch=$2 seed=$3 round=$4 key=
	local log=$res/$tree-$arch-s$seed-r$round.log
	# loglevel=1: no kernel message may cut into a line of the log
	local append="loglevel=1 harness.fuzz_seed=$seed harness.fuzz_ops=$ops harness.fuzz_seconds=240 harness.fuzz_procs=1 harness.fuzz_threads=0 harness.fuzz_hotplug=0 harness.fuzz_log=2 harness.fuzz_steady=1 harness.fuzz_corpus=0"
	if [ "$tree" = mainline ]; then
		key=$(result_cache_key diff-check "$arch" "$round" "$append")
		result_cache_get "$key" "$log" "$log.rc" && return
	fi
	TCG_THREAD=single ICOUNT=0 TIMEOUT=900 APPEND="$append" \
		"$top/scripts/guest-run.sh" "$tree" "$arch" "" fuzz "$log" > /dev/null 2>&1
	echo $? > "$log.rc"
	[ -z "$key" ] || result_cache_put "$key" "$log" "$log.rc"
}

rc=0
for arch in $arches; do
	for seed in $seeds; do
		run mainline "$arch" "$seed" 1 & run ours "$arch" "$seed" 1; wait
		args=("$res/mainline-$arch-s$seed-r1.log" "$res/ours-$arch-s$seed-r1.log")
		if ! python3 "$top/scripts/diff-check.py" --quiet \
			--allow "$top/scripts/diff-allow.txt" "${args[@]}"; then
			# something differs that is not on the list: a second
			# round tells the kernels' differences from the moments
			# children exited at
			run mainline "$arch" "$seed" 2 & run ours "$arch" "$seed" 2; wait
			args+=("$res/mainline-$arch-s$seed-r2.log" "$res/ours-$arch-s$seed-r2.log")
		fi
		echo "== $arch, seed $seed (root: $((seed + 1))), $ops calls a pass"
		python3 "$top/scripts/diff-check.py" \
			--allow "$top/scripts/diff-allow.txt" "${args[@]}" || rc=1
	done
done
echo "diff-check.sh: done after $(( $(date +%s) - start ))s"
exit $rc
