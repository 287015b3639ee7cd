#!/bin/bash
# race.sh: the data-race detector over the perf core (make race).
#
# Builds, per tree (RACE_TREES, default "ours") and arch (RACE_ARCHES,
# default "x86_64 arm64"), a kernel with KCSAN (scripts/race/kcsan.config,
# via extra-kernel.sh), boots it and sorts the KCSAN reports of its
# console: a report is ours when a function of one of its racing accesses
# is defined in kernel/events/ (or, on arm64, in the PMUv3 driver) of
# that tree.  Prints each distinct report once with how often it came and
# its two racing functions; exits 1 if a report of ours came (annotate an
# intended race with data_race() or READ_ONCE()/WRITE_ONCE() and a
# comment saying why it is safe; fix the others), or if the guest died or
# its kernel reported anything else.  Logs in out/race/.
#
# What the guests run (RACE_PLAN overrides both):
#   x86_64  our selftests (the races suite among them).  No fuzzer: once
#           it patches kernel text (a tracepoint's static call, a
#           kprobe's ftrace site) the x86_64 KCSAN kernels of both trees
#           die of an int3 nobody claims, the multi-threaded TCG class
#           that fuzz.sh avoids with TCG_THREAD=single; KCSAN needs the
#           vCPUs on host threads of their own (notes/next-steps.md).
#   arm64   our selftests, then the fuzzer as uid 1000 and as root
#           (RACE_FUZZ_PASSES, RACE_FUZZ_OPS calls a pass, default 4000),
#           with the PMU interrupt as a pseudo-NMI, as in make test.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
trees=${RACE_TREES:-ours}
arches=${RACE_ARCHES:-x86_64 arm64}
res=$top/out/race
mkdir -p "$res"
rc=0
for arch in $arches; do
	"$top/scripts/guest-image.sh" "$arch" || exit 2
	case $arch in
	x86_64) plan=${RACE_PLAN:-selftests} ;;
	*) plan=${RACE_PLAN:-selftests,fuzz} ;;
	esac
	for tree in $trees; do
		if ! "$top/scripts/extra-kernel.sh" "$tree" "$arch" race \
			"$top/scripts/race/kcsan.config" > "$res/build-$tree-$arch.txt" 2>&1; then
			tail -n 30 "$res/build-$tree-$arch.txt"
			exit 2
		fi
		tail -n 1 "$res/build-$tree-$arch.txt"
		ICOUNT=0 TIMEOUT=${RACE_TIMEOUT:-3600} \
		APPEND="harness.fuzz_ops=${RACE_FUZZ_OPS:-4000} harness.fuzz_seconds=300 harness.fuzz_passes=${RACE_FUZZ_PASSES:-unpriv,root}" \
			"$top/scripts/guest-run.sh" "race-$tree" "$arch" "" "$plan" \
			"$res/$tree-$arch.log"
		echo "race.sh: race-$tree-$arch: guest rc=$?"
		src=$top/build/src/race-$tree-$arch
		objs=("$src"/kernel/events/*.o "$src"/kernel/events/test/*.o)
		[ "$arch" = arm64 ] && objs+=("$src/arch/arm64/kernel/perf_event.o" "$src/drivers/perf/arm_pmuv3.o")
		python3 "$top/scripts/race/kcsan-report.py" "$res/$tree-$arch.log" \
			"${objs[@]}" || rc=1
	done
done
exit $rc
