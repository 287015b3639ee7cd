#!/bin/bash
# perf sessions on the CPU's hardware PMU (TAP): perf stat and perf record
# of cycles and instructions over hotloop, checked for sane results, and
# instructions checked for exactness.
# QEMU's arm64 PMUv3 counts instructions only under -icount: where an
# event is "<not supported>" its tests skip.  Not run on x86_64, whose TCG
# guests have no hardware PMU.
. "$(dirname "$0")/tap.sh"
cd /tmp || exit 1
echo "@@PROG perf-hw begin"
echo "TAP version 13"
echo "1..5"
hot=/harness/bin/hotloop

# hotloop's hot loop alone retires several instructions per iteration,
# 20M iterations by default: at least 60M user instructions.  Cycles
# follow time, not work (QEMU's cycle counter without icount counts
# virtual nanoseconds), so they are held against the task's CPU time
# instead: at least one cycle per 4 ns of task-clock.
for ev in cycles instructions; do
	out=$(timeout 300 perf stat -x, -e $ev:u,task-clock -- $hot 2>&1)
	echo "$out" | sed 's/^/# /'
	if echo "$out" | grep -q "<not supported>"; then
		skip perf_stat_$ev "$ev not supported by this PMU"
		continue
	fi
	cnt=$(echo "$out" | awk -F, -v ev="$ev" '$3 ~ "^" ev {print int($1)}')
	tns=$(echo "$out" | awk -F, '$3 ~ /^task-clock/ {print int($1 * 1000000)}')
	if [ "$ev" = cycles ]; then
		min=$(( ${tns:-0} / 4 ))
	else
		min=60000000
	fi
	if [ "${cnt:-0}" -gt 0 ] && [ "${cnt:-0}" -ge "$min" ]; then
		result OK perf_stat_$ev
	else
		result FAIL perf_stat_$ev "$ev:u = $cnt, task-clock $tns ns"
	fi
done

# Exact counts: countloop retires 7 + 200,000 * argc user instructions
# on arm64 (see guest/countloop.c), and perf stat must say so for 1, 2
# and 3 arguments.  An interrupt taken while it runs can add a few
# thousand to a count, on either tree (QEMU's icount counts some of the
# handler's instructions as user ones), never take any away: up to five
# tries, and each of the three counts must be exact in one of them and
# never below.  (hotloop's count varies more: its start-up and page
# faults are not the same each time.)
exact=no low=no
seen1=no seen2=no seen3=no
for try in 1 2 3 4 5; do
	counts= want= n=0
	for args in "" "x" "x x"; do
		out=$(timeout 300 perf stat -x, -e instructions:u -- /harness/bin/countloop $args 2>&1)
		if echo "$out" | grep -q "<not supported>"; then
			counts=unsupported
			break
		fi
		set -- /harness/bin/countloop $args
		n=$((n + 1))
		w=$((7 + 200000 * $#))
		c=$(echo "$out" | awk -F, '$3 ~ /^instructions/ {print $1}')
		want="$want $w"
		counts="$counts $c"
		[ "$c" = "$w" ] && eval "seen$n=yes"
		[ "${c:-0}" -lt "$w" ] 2>/dev/null && low=yes
	done
	echo "# instructions:u of countloop with argc 1, 2, 3:$counts (exact:$want)"
	[ "$counts" = unsupported ] && break
	[ $seen1$seen2$seen3 = yesyesyes ] && exact=yes && break
done
[ $low = yes ] && exact=no
if [ "$counts" = unsupported ]; then
	skip perf_stat_instructions_exact "instructions not supported by this PMU"
elif [ $exact = yes ]; then
	result OK perf_stat_instructions_exact
else
	result FAIL perf_stat_instructions_exact "counts:$counts, exact:$want"
fi

# Sampling on the PMU's overflow interrupt puts the hot function on top.
for ev in cycles instructions; do
	rm -f $ev.data
	timeout 300 perf record -q -e $ev:u -c 100000 -o $ev.data -- $hot > /dev/null 2>$ev.err
	if grep -q "not supported" $ev.err; then
		skip perf_record_${ev}_hot_function "$ev not supported by this PMU"
		continue
	fi
	rep=$(timeout 120 perf report -i $ev.data --stdio --sort symbol 2>&1)
	echo "$rep" | grep -v '^#' | grep -v '^$' | head -n 5 | sed 's/^/# /'
	top=$(echo "$rep" | grep -v '^#' | grep -v '^$' | head -n 1)
	if echo "$top" | grep -q hot_function; then
		result OK perf_record_${ev}_hot_function
	else
		sed 's/^/# /' $ev.err
		result FAIL perf_record_${ev}_hot_function "top entry: $top"
	fi
done
echo "@@PROG perf-hw end rc=$fails"
