#!/bin/bash
# result-cache-check.sh CLONE: the result-cache keys of mainline's guests as a fresh
# clone at CLONE computes them (run-tests.sh's and fuzz.sh's parameters, copied
# here by hand: keep them in step), and whether each is in the cache.
# Run before a stop, on a fresh clone (git clone /work/main /tmp/ci-check).
top=$1
cd "$top" || exit 1
for a in x86_64 arm64; do scripts/rootfs.sh $a >/dev/null; scripts/rootfs.sh $a clients >/dev/null; done
. scripts/result-cache.sh
chk() { if [ -f "$result_cache_dir/$1/rc" ]; then echo "hit  $2"; else echo "MISS $2 ($1)"; fi; }
result_cache_init suites
while read -r run plan icount timeout retry; do
	chk "$(result_cache_key run-tests "$run" "$plan" "$icount" "$timeout" "$retry")" "$run"
done <<'T'
mainline-x86_64 selftests,mainline-selftests,perf,perf-test,papi 0 2400 1
mainline-arm64 selftests,mainline-selftests,perf,perf-hw,perf-test,papi 0 2700 1
mainline-arm64-icount selftests,perf-hw,papi 1 1500 0
mainline-x86_64-debug selftests,mainline-selftests 0 1800 1
mainline-arm64-debug selftests 0 2400 1
mainline-x86_64-clients bpftrace,bcc 0 2400 1
mainline-arm64-clients bpftrace,bcc 0 2400 1
T
unset HARNESS_INPUTS
result_cache_init
append="loglevel=5 harness.fuzz_seed=1 harness.fuzz_ops=6000 harness.fuzz_seconds=300 harness.fuzz_procs=2 harness.fuzz_threads=2 harness.fuzz_log=0"
for run in mainline-x86_64-debug mainline-arm64-debug; do
	chk "$(result_cache_key fuzz "$run" 2 1740 "$append")" "fuzz $run"
done
