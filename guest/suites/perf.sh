#!/bin/bash
# Real perf sessions, each checked for a sane result (TAP).
. "$(dirname "$0")/tap.sh"
cd /tmp || exit 1
echo "@@PROG perf begin"
echo "TAP version 13"
echo "1..4"
hot=/harness/bin/hotloop

# 1. perf stat: software counters give plausible counts.
out=$(timeout 120 perf stat -x, -e task-clock,context-switches,cpu-migrations,page-faults -- $hot 2>&1)
echo "$out" | sed 's/^/# /'
tc=$(echo "$out" | awk -F, '$3 ~ /^task-clock/ {print int($1)}')
pf=$(echo "$out" | awk -F, '$3 ~ /^page-faults/ {print int($1)}')
if [ "${tc:-0}" -gt 0 ] && [ "${pf:-0}" -ge 256 ]; then
	result OK perf_stat_counts
else
	result FAIL perf_stat_counts "task-clock=$tc page-faults=$pf"
fi

# 2. perf record + report: the hot function tops the profile.
rm -f rec.data
timeout 180 perf record -q -o rec.data -- $hot > /dev/null 2>rec.err
rep=$(timeout 120 perf report -i rec.data --stdio --sort symbol 2>&1)
echo "$rep" | grep -v '^#' | grep -v '^$' | head -n 5 | sed 's/^/# /'
top=$(echo "$rep" | grep -v '^#' | grep -v '^$' | head -n 1)
if echo "$top" | grep -q hot_function; then
	result OK perf_record_report_hot_function
else
	sed 's/^/# /' rec.err
	result FAIL perf_record_report_hot_function "top entry: $top"
fi

# 3. perf record -e sched:sched_switch -a + perf script.
rm -f sw.data
timeout 180 perf record -q -e sched:sched_switch -a -o sw.data -- $hot 2000000 > /dev/null 2>sw.err
scr=$(timeout 120 perf script -i sw.data 2>&1)
cnt=$(echo "$scr" | grep -c 'sched:sched_switch.*prev_comm=.*next_comm=')
echo "$scr" | head -n 3 | sed 's/^/# /'
if [ "$cnt" -gt 0 ] && echo "$scr" | grep -q hotloop; then
	result OK perf_record_sched_switch_script
else
	sed 's/^/# /' sw.err
	result FAIL perf_record_sched_switch_script "$cnt sched_switch lines"
fi

# 4. perf record -a + perf script --show-task-events: side-band records.
rm -f sb.data
timeout 180 perf record -q -a -o sb.data -- $hot 2000000 > /dev/null 2>sb.err
scr=$(timeout 120 perf script -i sb.data --show-task-events --show-mmap-events 2>&1)
if echo "$scr" | grep -q 'PERF_RECORD_COMM.*hotloop' &&
   echo "$scr" | grep -q 'PERF_RECORD_MMAP.*hotloop' &&
   echo "$scr" | grep -q 'PERF_RECORD_EXIT'; then
	result OK perf_record_sideband
else
	echo "$scr" | grep PERF_RECORD | head -n 5 | sed 's/^/# /'
	sed 's/^/# /' sb.err
	result FAIL perf_record_sideband "COMM/MMAP/EXIT records missing"
fi
echo "@@PROG perf end rc=$fails"
