#!/bin/bash
# perf sessions on the CPU's hardware PMU (TAP): perf stat and perf record
# of cycles and instructions over hotloop, checked for sane results.
# QEMU's arm64 PMUv3 counts instructions only under -icount: where an
# event is "<not supported>" its tests skip.  Not run on x86_64, whose TCG
# guests have no hardware PMU.
n=0
fails=0
result() { # result OK|FAIL name detail
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2 # $3"
		fails=$((fails + 1))
	fi
}
skip() { # skip name reason
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}
cd /tmp || exit 1
echo "@@PROG perf-hw begin"
echo "TAP version 13"
echo "1..4"
hot=/harness/bin/hotloop

# hotloop's hot loop alone retires several instructions per iteration,
# 20M iterations by default: at least 60M user instructions.
for ev in cycles instructions; do
	out=$(timeout 300 perf stat -x, -e $ev:u -- $hot 2>&1)
	echo "$out" | sed 's/^/# /'
	if echo "$out" | grep -q "<not supported>"; then
		skip perf_stat_$ev "$ev not supported by this PMU"
		continue
	fi
	cnt=$(echo "$out" | awk -F, -v ev="$ev" '$3 ~ "^" ev {print int($1)}')
	if [ "${cnt:-0}" -ge 60000000 ]; then
		result OK perf_stat_$ev
	else
		result FAIL perf_stat_$ev "$ev:u = $cnt"
	fi
done

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
