#!/bin/bash
# make-test.sh (make test): the suites (run-tests.sh), then, unless
# QUICK=1, a short fuzz run (fuzz.sh) and the differential checker
# (diff-check.sh), on the same kernels.  Each stage's output goes to the
# terminal and to out/make-test-STAGE.txt; at the end, for a stage that
# failed, the lines that say why, then a verdict that names every stage
# with its status and time: the last lines of a CI log are enough to know
# what broke.  Exits 1 if any stage failed, 2 if one could
# not build what it needed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
quick=${QUICK:-0}
mkdir -p "$top/out"
stages=() verdict=() worst=0

# stage NAME CMD...: run CMD, keep its output and status
stage() {
	local name=$1 t0 rc log=$top/out/make-test-$1.txt
	shift
	t0=$(date +%s)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	stages+=("$name")
	verdict+=("$(printf '  %-10s rc=%d  %5ds  %s' "$name" "$rc" \
		"$(( $(date +%s) - t0 ))" "${log#"$top"/}")")
	[ "$rc" -gt "$worst" ] && worst=$rc
	return 0
}

# why NAME: the lines of a failed stage's output that say why
why() {
	local log=$top/out/make-test-$1.txt
	case $1 in
	suites)
		# summary.py's list of failures, guests that did not finish,
		# kernel reports, and a kernel that did not build
		sed -n '/^== tests that fail on our tree ==/,/^$/p' "$log"
		grep -E "did not finish|report line\(s\)|does not build|lacks \"hw perfevents" "$log"
		;;
	fuzz)
		sed -n '/^fuzz: our kernel shows/,$p' "$log"
		grep -E "does not build|NEW: not on mainline" "$log"
		;;
	*)
		tail -n 15 "$log"
		;;
	esac | head -n 40
}

QUICK=$quick stage suites "$top/scripts/run-tests.sh" mainline ours
if [ "$quick" != 1 ]; then
	stage fuzz "$top/scripts/fuzz.sh"
	stage diffcheck "$top/scripts/diff-check.sh"
fi

# The reasons first, the verdict last: a CI log's tail ends with it.
for i in "${!stages[@]}"; do
	case ${verdict[$i]} in
	*" rc=0 "*) ;;
	*)
		echo
		echo "-- ${stages[$i]} failed; why:"
		why "${stages[$i]}"
		;;
	esac
done
echo
echo "== make test: the verdict =="
printf '%s\n' "${verdict[@]}"
[ "$worst" = 0 ] && exit 0
[ "$worst" = 1 ] && exit 1
exit 2
