#!/bin/bash
# fuzz-guided.sh (make fuzz-guided): grow perf_fuzz's corpus.
#
# Builds our kernel with KCOV over the perf core alone and the checkers
# that cost little (extra-kernel.sh kcov, scripts/fuzz/kcov.config), boots
# it with perf_fuzz --guided as root: the repository's corpus
# (linux/tools/testing/selftests/perf_events/fuzz/corpus) runs first, then
# mutations of it, one sequence at a time; every sequence that reached new
# edges is appended to the corpus (scripts/fuzz/guided-report.py), which
# make fuzz's guests replay before their passes.  Fails if the kernel
# reported anything (WARN, BUG, lockdep, UBSAN...).
#
# Environment: GUIDED_ARCH (x86_64), GUIDED_SECONDS (900), GUIDED_OPS
# (calls at most, 1000000), GUIDED_SEED (1), GUIDED_OUT (out/fuzz-guided).
# Under single-threaded TCG, as make fuzz (see scripts/fuzz.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${GUIDED_ARCH:-x86_64}
secs=${GUIDED_SECONDS:-900}
ops=${GUIDED_OPS:-1000000}
seed=${GUIDED_SEED:-1}
res=${GUIDED_OUT:-$top/out/fuzz-guided}
corpus=$top/linux/tools/testing/selftests/perf_events/fuzz/corpus
mkdir -p "$res"
# the guest image is built from both trees' build directories
for tree in mainline ours; do
	"$top/scripts/build-kernel.sh" "$tree" "$arch" > "$res/build-$tree.txt" 2>&1 || {
		tail -n 30 "$res/build-$tree.txt"; exit 2; }
done
"$top/scripts/extra-kernel.sh" ours "$arch" kcov "$top/scripts/fuzz/kcov.config" kcov \
	> "$res/build-kcov.txt" 2>&1 || { tail -n 30 "$res/build-kcov.txt"; exit 2; }
tail -n 1 "$res/build-kcov.txt"
"$top/scripts/guest-image.sh" "$arch"
start=$(date +%s)
TCG_THREAD=single ICOUNT=0 TIMEOUT=$((secs + 900)) \
APPEND="loglevel=5 harness.fuzz_guided=1 harness.fuzz_passes=root harness.fuzz_seed=$seed harness.fuzz_ops=$ops harness.fuzz_seconds=$secs harness.fuzz_procs=1 harness.fuzz_threads=0" \
	"$top/scripts/guest-run.sh" kcov-ours "$arch" "" fuzz "$res/guest.log" ||
	echo "fuzz-guided.sh: guest rc=$?"
echo "fuzz-guided.sh: guest done in $(( $(date +%s) - start ))s"
python3 "$top/scripts/fuzz/guided-report.py" "$res/guest.log" "$corpus"
