#!/bin/bash
# fuzz-proof.sh (make fuzz-proof): does make fuzz LONG=1 find the faults
# that were found from outside?
#
# Each scripts/fuzz/faults/NAME.patch puts one such fault back into our
# tree (its header says which, on which arch, and which functions a report
# of it names).  For each fault given (default: all), this builds our
# debug kernel with the patch laid over it (extra-kernel.sh, FAULT=, into
# build/out/fault-ours-ARCH), boots it with make fuzz LONG=1's passes
# (4 CPUs, 4 worker processes + 4 threads, seed PROOF_SEED unprivileged
# then PROOF_SEED+1 as root, each starting from the corpus), and stops the
# guest a minute after the first kernel report (a stall only if it names
# one of the fault's functions: the emulator causes stalls by itself).  It prints, per fault,
# whether a report naming one of the fault's functions came, after how
# many calls and minutes, and the first line of every report.
#
# Environment: PROOF_SEED (101), PROOF_SECONDS (a pass's limit, 3600 as
# make fuzz LONG=1), PROOF_OUT (out/fuzz-proof), PROOF_IMAGE (0: boot the
# guest image as it is, without building the plain trees and the image
# first).  Exit status 1 if a fault was not found.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
faults=$top/scripts/fuzz/faults
res=${PROOF_OUT:-$top/out/fuzz-proof}
seed=${PROOF_SEED:-101}
secs=${PROOF_SECONDS:-3600}
mkdir -p "$res"
[ $# -gt 0 ] || set -- $(cd "$faults" && ls *.patch | sed 's/\.patch$//')

field() { sed -n "s/^$2: //p" "$faults/$1.patch" | head -n 1; }

rc=0
for fault in "$@"; do
	[ -f "$faults/$fault.patch" ] || { echo "fuzz-proof.sh: no fault $fault"; exit 2; }
	arch=$(field "$fault" Arch)
	log=$res/$fault.log
	for tree in mainline ours; do	# guest-image.sh needs both trees' selftests
		[ "${PROOF_IMAGE:-1}" = 1 ] || break
		"$top/scripts/build-kernel.sh" "$tree" "$arch" > "$res/$fault.build-$tree.txt" 2>&1 || {
			tail -n 30 "$res/$fault.build-$tree.txt"; exit 2; }
	done
	FAULT=$faults/$fault.patch "$top/scripts/extra-kernel.sh" ours "$arch" fault \
		"$top/configs/debug.config" > "$res/$fault.build.txt" 2>&1 || {
		tail -n 30 "$res/$fault.build.txt"; exit 2; }
	tail -n 1 "$res/$fault.build.txt"
	[ "${PROOF_IMAGE:-1}" = 1 ] &&
		{ "$top/scripts/guest-image.sh" "$arch" > "$res/$fault.image.txt" 2>&1 || {
			tail -n 30 "$res/$fault.image.txt"; exit 2; }; }
	echo "fuzz-proof.sh: $fault ($(field "$fault" Fault)) on $arch, seed $seed, passes of ${secs}s"
	append="loglevel=5 harness.fuzz_seed=$seed harness.fuzz_ops=200000 harness.fuzz_seconds=$secs harness.fuzz_procs=4 harness.fuzz_threads=4"
	start=$(date +%s)
	TCG_THREAD=single ICOUNT=0 SMP=4 TIMEOUT=$((600 + 2 * (secs + 120) + 300)) APPEND="$append" \
		"$top/scripts/guest-run.sh" fault-ours "$arch" "" fuzz "$log" &
	guest=$!
	# Stop the guest a minute after the first report: its trace is out
	# by then, and the fuzzer's work after it proves nothing more.
	seen=
	while kill -0 "$guest" 2>/dev/null; do
		sleep 10
		if [ -z "$seen" ] && python3 "$top/scripts/fuzz/proof-report.py" --any "$log" \
			$(field "$fault" Trace); then
			seen=$(date +%s)
		fi
		if [ -n "$seen" ] && [ $(( $(date +%s) - seen )) -ge 60 ]; then
			# (guest-run.sh's timeout(1) has a process group of
			# its own: QEMU is found by the kernel it boots)
			pkill -KILL -f "build/out/fault-ours-$arch/" 2>/dev/null
			break
		fi
	done
	wait "$guest" 2>/dev/null
	echo "fuzz-proof.sh: $fault: guest ran $(( $(date +%s) - start ))s"
	python3 "$top/scripts/fuzz/proof-report.py" "$log" $(field "$fault" Trace) |
		tee "$res/$fault.result"
	grep -q '^found' "$res/$fault.result" || rc=1
done
exit $rc
