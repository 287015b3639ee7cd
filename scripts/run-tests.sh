#!/bin/bash
# run-tests.sh TREE...: build the kernels of the given trees (ours, mainline),
# boot each in QEMU with its suites, two guests at a time, and summarise.
#
# The guest runs (name, plan, icount):
#   TREE-x86_64        selftests, mainline-selftests, perf sessions, perf
#                      test, PAPI
#   TREE-arm64         selftests, mainline-selftests, perf sessions,
#                      perf-hw (perf on the PMUv3: cycles), perf test, PAPI
#   TREE-arm64-icount  selftests, perf-hw, PAPI, under -icount shift=0,
#                      which gives QEMU's PMUv3 its exact instructions event
#   TREE-x86_64-debug  selftests, mainline-selftests on the debug config
#   TREE-arm64-debug   selftests on the debug config (KASAN, lockdep, ...)
#   TREE-ARCH-clients  bpftrace, BCC, on the plain kernel with the client
#                      image
# Mainline's guests may be the logs of an earlier run with the same inputs
# (scripts/result-cache.sh; HARNESS_RESULT_CACHE=0 runs them all).
# Correctness runs go without icount: under it, SMP guests stall (RCU stall
# reports, on mainline too) and the base tree's selftests take 20+ minutes
# on arm64 instead of a few.
# QUICK=1: the x86_64 plain guests only, with our selftests and perf test
# (make test QUICK=1, a first look at ours beside mainline).
# Progress: each kernel and each guest is counted as it is done ("3/8").
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
trees=("$@")
res=${RESULTS:-$top/out/test}
quick=${QUICK:-0}
if [ "$quick" = 1 ]; then
	arches=${ARCHES:-x86_64}
else
	arches=${ARCHES:-x86_64 arm64 arm64-icount x86_64-debug arm64-debug x86_64-clients arm64-clients}
fi
rm -rf "$res"
mkdir -p "$res"

runs=()
for a in $arches; do
	for tree in "${trees[@]}"; do
		runs+=("$tree-$a")
	done
done

start=$(date +%s)
kernels=()
for run in "${runs[@]}"; do
	IFS=- read -r tree arch variant <<<"$run"
	# The plain kernel, booted with icount or the client image.
	[ "$variant" = icount ] || [ "$variant" = clients ] && continue
	kernels+=("$run")
done
n=0
for run in "${kernels[@]}"; do
	IFS=- read -r tree arch variant <<<"$run"
	n=$((n + 1))
	echo "run-tests.sh: kernel $n/${#kernels[@]}: $run (a cold build takes 10-30 minutes here; $(( $(date +%s) - start ))s so far)"
	if ! "$top/scripts/build-kernel.sh" "$tree" "$arch" $variant > "$res/$run.build.txt" 2>&1; then
		tail -n 40 "$res/$run.build.txt"
		echo "run-tests.sh: the $run kernel does not build"
		exit 2
	fi
	tail -n 1 "$res/$run.build.txt"
done
for arch in $(printf '%s\n' $arches | sed 's/-.*//' | sort -u); do
	"$top/scripts/guest-image.sh" "$arch" || exit 2
done
. "$top/scripts/result-cache.sh"
result_cache_init suites
echo "run-tests.sh: kernels and guest images ready after $(( $(date +%s) - start ))s"

guest() {
	local run=$1 tree arch variant plan icount timeout
	IFS=- read -r tree arch variant <<<"$run"
	case $arch${variant:+-$variant} in
	x86_64) plan=selftests,mainline-selftests,perf,perf-test,papi icount=0 timeout=2400 ;;
	arm64) plan=selftests,mainline-selftests,perf,perf-hw,perf-test,papi icount=0 timeout=2700 ;;
	arm64-icount) plan=selftests,perf-hw,papi icount=1 timeout=1500 ;;
	arm64-debug) plan=selftests icount=0 timeout=2400 ;;
	*-clients) plan=bpftrace,bcc icount=0 timeout=2400 ;;
	*) plan=selftests,mainline-selftests icount=0 timeout=1800 ;;
	esac
	[ "$quick" = 1 ] && plan=selftests,perf-test
	# Under icount a run nearly repeats itself and is slow: no retry.
	local retry=$((1 - icount))
	echo "$plan" > "$res/$run.plan"
	local t0=$(date +%s) key=
	if [ "$tree" = mainline ]; then
		key=$(result_cache_key run-tests "$run" "$plan" "$icount" "$timeout" "$retry")
		if result_cache_get "$key" "$res/$run.log" "$res/$run.rc"; then
			echo "run-tests.sh: guest $run: the log of an earlier run with the same inputs (result-cache.sh, key $key); $(ls "$res"/*.rc | wc -l)/$nruns guests done"
			return
		fi
	fi
	RETRY=$retry ICOUNT=$icount TIMEOUT=$timeout "$top/scripts/guest-run.sh" "$tree" "$arch" "$variant" \
		"$plan" "$res/$run.log"
	echo $? > "$res/$run.rc"
	echo "run-tests.sh: guest $run finished in $(( $(date +%s) - t0 ))s (rc=$(cat "$res/$run.rc")); $(ls "$res"/*.rc | wc -l)/$nruns guests done after $(( $(date +%s) - start ))s"
	[ -z "$key" ] || result_cache_put "$key" "$res/$run.log" "$res/$run.rc"
}
export -f guest result_cache_key result_cache_get result_cache_put
nruns=${#runs[@]}
echo "run-tests.sh: $nruns guests, ${GUESTS:-2} at a time: ${runs[*]}"
export top res result_cache_dir quick start nruns
printf '%s\n' "${runs[@]}" | xargs -P "${GUESTS:-2}" -I{} bash -c 'guest {}'
echo "run-tests.sh: all guests done after $(( $(date +%s) - start ))s"
if printf '%s\n' "${trees[@]}" | grep -qx ours; then
	python3 "$top/scripts/summary.py" --require-ours "$res"
else
	python3 "$top/scripts/summary.py" "$res"
fi
