#!/bin/sh
# perf_fuzz (linux/tools/testing/selftests/perf_events/fuzz/): one pass as
# uid 1000 (perf_event_paranoid=-1), then one as root, each framed as a
# @@PROG for the host.  Kernel command line (harness.X=):
#   fuzz_seed (1; the root pass uses seed+1), fuzz_ops (4000 a pass),
#   fuzz_seconds (240 a pass at most), fuzz_procs (2), fuzz_threads (2),
#   fuzz_passes ("unpriv,root"), fuzz_hotplug (1), fuzz_log (0; 1: every
#   call on the console, for mkrepro.sh; 2: and what each returned),
#   fuzz_steady (1: --steady, for the differential checker),
#   fuzz_corpus (1: replay /harness/fuzz-corpus, the repository's corpus,
#   before each pass; 0: not), fuzz_corpus_ops (calls of it at most; a
#   quarter of fuzz_ops), fuzz_guided (1: each pass is
#   coverage-guided, --guided, on a kernel with KCOV),
#   fuzz_repro (NAME: run
#   /harness/bin/repro/NAME instead, made by mkrepro.sh).
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^harness\.$1=//p" | tail -n 1; }
seed=$(arg fuzz_seed) ops=$(arg fuzz_ops) secs=$(arg fuzz_seconds)
procs=$(arg fuzz_procs) threads=$(arg fuzz_threads) passes=$(arg fuzz_passes)
hotplug=$(arg fuzz_hotplug) log=$(arg fuzz_log) repro=$(arg fuzz_repro)
steady=$(arg fuzz_steady) corpus=$(arg fuzz_corpus) guided=$(arg fuzz_guided)
corpus_ops=$(arg fuzz_corpus_ops)
seed=${seed:-1} ops=${ops:-4000} secs=${secs:-240}
corpus_ops=${corpus_ops:-$((ops / 4))}
procs=${procs:-2} threads=${threads:-2} hotplug=${hotplug:-1}
passes=$(echo "${passes:-unpriv,root}" | tr ',' ' ')
fuzz=/harness/bin/perf_fuzz
cd /tmp || exit 1

if [ -n "$repro" ]; then
	echo "@@PROG repro-$repro begin"
	timeout -s KILL "$((secs + 60))" "/harness/bin/repro/$repro" < /dev/null 2>&1
	echo "@@PROG repro-$repro end rc=$?"
	exit 0
fi
for pass in $passes; do
	set -- --seed "$seed" --ops "$ops" --seconds "$secs" \
		--procs "$procs" --threads "$threads"
	[ "$pass" = unpriv ] && set -- "$@" --unpriv
	[ "$hotplug" = 1 ] || set -- "$@" --no-hotplug
	[ "${log:-0}" != 0 ] && set -- "$@" --log -
	[ "${log:-0}" = 2 ] && set -- "$@" --log-results
	[ "${steady:-0}" = 1 ] && set -- "$@" --steady
	[ "${corpus:-1}" = 1 ] && [ -s /harness/fuzz-corpus ] &&
		set -- "$@" --corpus /harness/fuzz-corpus --corpus-ops "$corpus_ops"
	[ "${guided:-0}" = 1 ] && set -- "$@" --guided
	echo "@@PROG fuzz-$pass begin"
	# The fuzzer has its own watchdog; this one is for a fuzzer stuck
	# in the kernel for good.
	timeout -s KILL "$((secs + 120))" "$fuzz" "$@" < /dev/null 2>&1
	echo "@@PROG fuzz-$pass end rc=$?"
	seed=$((seed + 1))
done
