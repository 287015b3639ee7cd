#!/bin/bash
# Debian's perf tool's own tests, each top-level test run on its own under a
# timeout (perf test has none); the host parses perf test's lines.
# Skipped: tests of perf's userspace alone (parsing every metric and event
# table of every CPU model) that take tens of minutes under emulation and
# do not touch the kernel.
skip=" ${PERF_TEST_SKIP:-10 68} "
limit=${PERF_TEST_LIMIT:-300}
cd /tmp || exit 1
echo "@@PROG perf-test begin"
perf test list 2>&1 | sed -n 's/^ *\([0-9][0-9]*\): \(.*\)$/\1 \2/p' |
while read -r num desc; do
	case $skip in *" $num "*)
		printf '%3d: %-62s: Skip (not run by the harness: userspace only, too slow under TCG)\n' "$num" "$desc"
		continue ;;
	esac
	timeout -s KILL "$limit" perf test "$num" 2>&1 < /dev/null
	rc=$?
	if [ $rc = 137 ]; then
		printf '%3d: %-62s: FAILED! (killed after %ss)\n' "$num" "$desc" "$limit"
	fi
done
echo "@@PROG perf-test end rc=0"
