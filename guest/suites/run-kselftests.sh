#!/bin/sh
# run-kselftests.sh DIR: run every test program in DIR, each under the
# per-program timeout, framing its TAP output for the host's parser.
# A program that fails is run up to twice more (each framed as a retry):
# some of the base tree's tests are timing-sensitive under emulation, on
# mainline too (sigtrap_threads takes 27-35 s on an idle host's x86_64
# debug guest, most of it in two stress tests of 30 s limit each, and
# these time out when another guest shares the host).  The host counts a test as passed if any attempt passed it.
# harness.retry=0 on the kernel command line turns the retries off;
# ONCE="PROG..." in the environment names programs run once only.
dir=$1
retries="retry retry"
[ "${HARNESS_RETRY:-1}" = 0 ] && retries=
cd /tmp || exit 1
for prog in "$dir"/*; do
	[ -x "$prog" ] || continue
	name=$(basename "$prog")
	attempts="begin $retries"
	case " ${ONCE:-} " in *" $name "*) attempts=begin ;; esac
	for attempt in $attempts; do
		echo "@@PROG $name $attempt"
		t0=$(cut -d' ' -f1 /proc/uptime)
		timeout -s KILL "$HARNESS_TIMEOUT" "$prog" 2>&1 < /dev/null
		rc=$?
		echo "@@PROG $name end rc=$rc ($(awk -v t0="$t0" '{ printf "%.0f", $1 - t0 }' /proc/uptime)s)"
		[ $rc = 0 ] && break
	done
done
