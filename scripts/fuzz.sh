#!/bin/bash
# fuzz.sh (make fuzz): perf_fuzz on mainline's kernel and ours, same seeds.
#
# Builds the kernels (debug variant where it builds, else plain) for each
# arch in FUZZ_ARCHES, the guest images (with perf_fuzz, built from our
# tree), boots each kernel with plan=fuzz (one pass as uid 1000, one as
# root; guest/suites/fuzz.sh) and prints what each run did and every kernel
# report it showed, ours beside mainline (scripts/fuzz-summary.py).  Exits
# 1 if our kernel shows a report that mainline's run of the same seed does
# not, 2 if something did not build.
#
# Environment:
#   FUZZ_ARCHES   "x86_64 arm64"
#   FUZZ_SEED     1 (the root pass uses seed+1)
#   FUZZ_OPS      calls a pass (default 6000; LONG=1: 200000)
#   FUZZ_SECONDS  a pass's time limit (default 300; LONG=1: 3600)
#   LONG          1: long runs, SMP=4 guests, 4 worker processes + 4 threads
#   FUZZ_VARIANT  debug (default) or "" for the plain kernels
#   FUZZ_TREES    "mainline ours"
#   FUZZ_LOG      1: every call on the console (for mkrepro.sh), 2: with results
#   FUZZ_OUT      out/fuzz; GUESTS (guests at once, 2); JOBS (build)
#   FUZZ_LEDGER   "HOW": append the run's rows to notes/fuzz-ledger.md,
#                 HOW being the command (make fuzz-ledger sums them)
# Mainline's guests may be the logs of an earlier run with the same inputs
# (scripts/result-cache.sh).
#
# The guests run under single-threaded TCG (TCG_THREAD=single): with one
# host thread per vCPU, QEMU runs code that the kernel has just patched
# (kprobes, ftrace, static calls of tracepoints) stale on another vCPU, and
# both kernels die of it in minutes ("Oops: int3", a call to NULL).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
res=${FUZZ_OUT:-$top/out/fuzz}
arches=${FUZZ_ARCHES:-x86_64 arm64}
trees=${FUZZ_TREES:-mainline ours}
seed=${FUZZ_SEED:-1}
variant=${FUZZ_VARIANT-debug}
if [ "${LONG:-0}" = 1 ]; then
	ops=${FUZZ_OPS:-200000} secs=${FUZZ_SECONDS:-3600} smp=4 procs=4 threads=4
else
	ops=${FUZZ_OPS:-6000} secs=${FUZZ_SECONDS:-300} smp=2 procs=2 threads=2
fi
# Boot (debug kernels take a while under TCG), two passes with their
# watchdogs, kmemleak's scans and the dmesg dump.
timeout=$((600 + 2 * (secs + 120) + 300))
rm -rf "$res"
mkdir -p "$res"
start=$(date +%s)

runs=()
for arch in $arches; do
	v=$variant
	for tree in $trees; do
		name=$tree-$arch${v:+-$v}
		if ! "$top/scripts/build-kernel.sh" "$tree" "$arch" $v > "$res/$name.build.txt" 2>&1; then
			if [ -n "$v" ] && [ "$tree" = "$(echo $trees | cut -d' ' -f1)" ]; then
				# No debug kernel for this arch (its config does
				# not build): the plain kernels, for every tree.
				echo "fuzz.sh: no $name kernel (see $res/$name.build.txt); plain kernels for $arch"
				v=
				name=$tree-$arch
				"$top/scripts/build-kernel.sh" "$tree" "$arch" > "$res/$name.build.txt" 2>&1 || {
					tail -n 40 "$res/$name.build.txt"
					echo "fuzz.sh: the $name kernel does not build"
					exit 2
				}
			else
				tail -n 40 "$res/$name.build.txt"
				echo "fuzz.sh: the $name kernel does not build"
				exit 2
			fi
		fi
		tail -n 1 "$res/$name.build.txt"
		runs+=("$name")
	done
	"$top/scripts/guest-image.sh" "$arch" || exit 2
done
. "$top/scripts/result-cache.sh"
result_cache_init
echo "fuzz.sh: kernels and images ready after $(( $(date +%s) - start ))s; seed $seed, $ops calls a pass, SMP=$smp"

guest() {
	local run=$1 tree arch variant t0
	IFS=- read -r tree arch variant <<<"$run"
	local append="loglevel=5 harness.fuzz_seed=$seed harness.fuzz_ops=$ops harness.fuzz_seconds=$secs harness.fuzz_procs=$procs harness.fuzz_threads=$threads harness.fuzz_log=${FUZZ_LOG:-0}"
	local key=
	echo fuzz > "$res/$run.plan"
	t0=$(date +%s)
	if [ "$tree" = mainline ]; then
		key=$(result_cache_key fuzz "$run" "$smp" "$timeout" "$append")
		if result_cache_get "$key" "$res/$run.log" "$res/$run.rc"; then
			echo "fuzz.sh: guest $run: the log of an earlier run with the same inputs (result-cache.sh, key $key)"
			return
		fi
	fi
	TCG_THREAD=single ICOUNT=0 SMP=$smp TIMEOUT=$timeout APPEND="$append" \
		"$top/scripts/guest-run.sh" "$tree" "$arch" "$variant" fuzz "$res/$run.log"
	echo $? > "$res/$run.rc"
	echo "fuzz.sh: guest $run finished in $(( $(date +%s) - t0 ))s (rc=$(cat "$res/$run.rc"))"
	[ -z "$key" ] || result_cache_put "$key" "$res/$run.log" "$res/$run.rc"
}
export -f guest result_cache_key result_cache_get result_cache_put
export top res seed ops secs smp procs threads timeout result_cache_dir
printf '%s\n' "${runs[@]}" | xargs -P "${GUESTS:-2}" -I{} bash -c 'guest {}'
echo "fuzz.sh: all guests done after $(( $(date +%s) - start ))s"
python3 "$top/scripts/fuzz-summary.py" "$res"
rc=$?
# FUZZ_LEDGER="HOW": this run's rows into notes/fuzz-ledger.md
[ -z "${FUZZ_LEDGER:-}" ] || python3 "$top/scripts/fuzz-ledger.py" add "$res" "$FUZZ_LEDGER"
exit $rc
