# result-cache.sh: sourced by run-tests.sh, fuzz.sh and diff-check.sh.
#
# Mainline's kernel does not change from one run of the harness to the
# next, so a mainline guest run whose every input is the same as an
# earlier one's is not run again: its console log and exit status are
# taken from $HARNESS_CACHE/results (default ~/.cache/perf-harness).  The
# key covers the base tree's version, the config fragments, the scripts
# that build the kernels and the guest image, the guest's files, the test
# and fuzzer sources with the UAPI headers they are built against, the
# guest's Debian userspace, the compilers, QEMU, and the run's own
# parameters (plan, icount, time limits, seed...).  Only runs that ended
# by themselves are kept.  Our tree's runs are never reused.
# HARNESS_RESULT_CACHE=0 runs everything.

result_cache_dir=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-harness}/results

# The inputs that every run shares, hashed once (in the parent; exported).
# result_cache_init suites: for guests whose plans never run the fuzzer
# (run-tests.sh): the fuzzer's sources, corpus and guest suite are left
# out, so that a change to the fuzzer alone does not run mainline's suite
# guests again.
result_cache_init() {
	[ "${HARNESS_RESULT_CACHE:-1}" = 1 ] || return 0
	local skip= skip2=
	if [ "${1:-}" = suites ]; then
		skip=linux/tools/testing/selftests/perf_events/fuzz
		skip2=guest/suites/fuzz.sh
	fi
	HARNESS_INPUTS=$({
		dpkg-query -W -f='${Version}\n' linux-source-6.12
		qemu-system-x86_64 --version | head -n 1
		qemu-system-aarch64 --version | head -n 1
		gcc --version | head -n 1
		aarch64-linux-gnu-gcc --version | head -n 1
		sha256sum "$top"/build/rootfs/*.cpio | cut -d' ' -f1
		cd "$top" && find configs guest linux/tools linux/include/uapi \
			scripts/build-kernel.sh scripts/kbuild-env.sh \
			scripts/check-config.py scripts/tree.py \
			scripts/guest-image.sh scripts/guest-run.sh \
			scripts/rootfs.sh scripts/check-links.sh \
			${skip:+-path "$skip" -prune -o -path "$skip2" -prune -o} \
			-type f -print0 |
			sort -z | xargs -0 sha256sum
	} | sha256sum | cut -c1-16)
	export HARNESS_INPUTS
}

# result_cache_key PARAM...: the key of a mainline run with these parameters
result_cache_key() {
	printf '%s\n' "$HARNESS_INPUTS" "$@" | sha256sum | cut -c1-16
}

# result_cache_get KEY LOG RC: copy a kept run's log and status; false if none
result_cache_get() {
	[ -n "${HARNESS_INPUTS:-}" ] && [ -f "$result_cache_dir/$1/rc" ] || return 1
	cp "$result_cache_dir/$1/log" "$2" && cp "$result_cache_dir/$1/rc" "$3"
}

# result_cache_put KEY LOG RC: keep a run that ended by itself (status 0)
result_cache_put() {
	[ -n "${HARNESS_INPUTS:-}" ] && [ "$(cat "$3" 2>/dev/null)" = 0 ] || return 0
	mkdir -p "$result_cache_dir/$1.tmp" &&
		cp "$2" "$result_cache_dir/$1.tmp/log" &&
		cp "$3" "$result_cache_dir/$1.tmp/rc" &&
		rm -rf "$result_cache_dir/$1" &&
		mv "$result_cache_dir/$1.tmp" "$result_cache_dir/$1"
}
