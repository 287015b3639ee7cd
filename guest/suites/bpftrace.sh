#!/bin/bash
# bpftrace, Debian's build (TAP): one-liners on each kind of probe that
# bpftrace attaches through perf_event_open, each run over a workload of
# known shape (/harness/bin/hotloop: 256 fresh pages, a short sleep, one
# call of hot_function(), which holds nearly all of its time) and checked
# for the count or the place that the workload gives.  Needs the client
# image (rootfs.sh ARCH clients).
. "$(dirname "$0")/tap.sh"
cd /tmp || exit 1
echo "@@PROG bpftrace begin"
echo "TAP version 13"
echo "1..10"
hot=/harness/bin/hotloop
export BPFTRACE_NO_CPP_DEMANGLE=1
case $(uname -m) in
x86_64) ip='reg("ip")' libc=/lib/x86_64-linux-gnu/libc.so.6 hw=0 ;;
aarch64) ip='reg("pc")' libc=/lib/aarch64-linux-gnu/libc.so.6 hw=1 ;;
esac
sym() { nm "$hot" | awk -v s="$1" '$3 == s {print "0x" $1}'; }
sym_end() { # the address just past a function
	local a
	a=$(nm -S "$hot" | awk -v s="$1" '$4 == s {print "0x" $1 " + 0x" $2}')
	printf '0x%x' $((a))
}
# bt NAME PROGRAM [ARGS...]: run bpftrace, its output in NAME.out, shown
bt() {
	local name=$1 prog=$2
	shift 2
	timeout 300 bpftrace "$@" -e "$prog" > "$name.out" 2>&1
	local rc=$?
	sed 's/^/# /' "$name.out" | tail -n 20
	return $rc
}
# val NAME MAP: the value bpftrace printed for @MAP
val() { sed -n "s/^@$2: \([0-9][0-9]*\)$/\1/p" "$1.out" | tail -n 1; }
check() { # check NAME OK-CONDITION DETAIL
	if eval "$2"; then
		result OK "$1"
	else
		result FAIL "$1" "$3"
	fi
}

# 1. profile:hz: most of hotloop's samples (10 times its usual work, so
# that there are tens of them) fall inside hot_function().
start=$(sym hot_function)
end=$(sym_end hot_function)
bt profile "profile:hz:99 /comm == \"hotloop\"/ { @all = count(); if ($ip >= $start && $ip < $end) { @hot = count(); } }" -c "$hot 200000000"
all=$(val profile all) hotn=$(val profile hot)
check bpftrace_profile_hot_function '[ "${all:-0}" -ge 20 ] && [ $((${hotn:-0} * 2)) -gt "${all:-0}" ]' \
	"$hotn of $all samples in hot_function"

# 2. interval: fires on time, five times, then exits.
t0=$(date +%s%N)
bt interval 'interval:ms:100 { @ticks++; } interval:ms:520 { exit(); }'
t1=$(date +%s%N)
ticks=$(val interval ticks)
check bpftrace_interval '[ "${ticks:-0}" -ge 4 ] && [ "${ticks:-0}" -le 6 ] && [ $(((t1 - t0) / 1000000)) -ge 500 ]' \
	"@ticks=$ticks after $(((t1 - t0) / 1000000)) ms"

# 3. software:page-faults:1: one event per fault, at least the 256 pages
# hotloop touches.
bt pagefaults 'software:page-faults:1 /comm == "hotloop"/ { @pf = count(); }' -c "$hot"
pf=$(val pagefaults pf)
check bpftrace_software_page_faults '[ "${pf:-0}" -ge 256 ]' "@pf=$pf"

# 4. hardware:cycles: the PMU's overflow, on arm64's PMUv3.
if [ $hw = 0 ]; then
	skip bpftrace_hardware_cycles "no hardware PMU in this guest"
else
	bt cycles 'hardware:cycles:1000000 /comm == "hotloop"/ { @c = count(); }' -c "$hot"
	c=$(val cycles c)
	check bpftrace_hardware_cycles '[ "${c:-0}" -ge 1 ]' "@c=$c"
fi

# 5. tracepoint: hotloop's sleep switches it out at least once (the task
# that switches out is the current one; its comm needs no format types,
# which bpftrace cannot read without BTF).
bt sched 'tracepoint:sched:sched_switch /comm == "hotloop"/ { @sw = count(); }' -c "$hot"
sw=$(val sched sw)
check bpftrace_tracepoint_sched_switch '[ "${sw:-0}" -ge 1 ]' "@sw=$sw"

# 6. kprobe and kretprobe: every fault of hotloop's goes through
# handle_mm_fault(), entry and return alike.
bt kprobe 'kprobe:handle_mm_fault /comm == "hotloop"/ { @in = count(); } kretprobe:handle_mm_fault /comm == "hotloop"/ { @out = count(); }' -c "$hot"
kin=$(val kprobe in) kout=$(val kprobe out)
check bpftrace_kprobe_kretprobe '[ "${kin:-0}" -ge 256 ] && [ "${kin:-0}" = "${kout:-0}" ]' \
	"@in=$kin @out=$kout"

# 7. uprobe and uretprobe on a program's function: hot_function() is
# called once.
bt uprobe "uprobe:$hot:hot_function { @in = count(); } uretprobe:$hot:hot_function { @out = count(); }" -c "$hot 1000"
uin=$(val uprobe in) uout=$(val uprobe out)
check bpftrace_uprobe_uretprobe '[ "${uin:-0}" = 1 ] && [ "${uout:-0}" = 1 ]' "@in=$uin @out=$uout"

# 8. uprobe on the guest's libc: ls calls malloc().
bt libc "uprobe:$libc:malloc /comm == \"ls\"/ { @m = count(); }" -c "/bin/ls /"
m=$(val libc m)
check bpftrace_uprobe_libc '[ "${m:-0}" -ge 1 ]' "@m=$m"

# 9. watchpoint: hotloop writes its variable sink twice, once in
# hot_function() and once in middle_function().  Writes at that address
# from elsewhere (bpftrace's child before it execs hotloop) are not
# counted: the writer's address must be in one of the two.
lo=$(sym hot_function)
hi=$(sym_end middle_function)
bt watch "watchpoint:$(sym sink):8:w /$ip >= $lo && $ip < $hi/ { @w = count(); }" -c "$hot 1000"
w=$(val watch w)
check bpftrace_watchpoint '[ "${w:-0}" = 2 ]' "@w=$w"

# 10. The perf buffer: printf() from a probe reaches bpftrace through its
# ring buffer, every record in order.
bt output 'software:page-faults:1 /comm == "hotloop"/ { @seq++; printf("fault %d\n", @seq); }' -c "$hot"
lines=$(grep -c '^fault [0-9]' output.out)
last=$(sed -n 's/^fault \([0-9]*\)$/\1/p' output.out | tail -n 1)
check bpftrace_perf_buffer_output '[ "$lines" -ge 256 ] && [ "$lines" = "${last:-0}" ]' \
	"$lines lines, last $last"
echo "@@PROG bpftrace end rc=$fails"
