#!/bin/bash
# BCC, Debian's bpfcc-tools (TAP): profile, offcputime and funccount,
# each over a workload of known shape and checked for it.  (trace is not
# run: in busy guests it printed nothing of hotloop's for minutes, on
# both trees, and its -M does not end it in this version.)  BCC
# compiles its programs against the running kernel's headers, which the
# client image carries for each tree (guest-image.sh) in
# /lib/modules/$(uname -r)/build.  Needs the client image.
. "$(dirname "$0")/tap.sh"
cd /tmp || exit 1
echo "@@PROG bcc begin"
echo "TAP version 13"
echo "1..3"
hot=/harness/bin/hotloop
limit=600
# The tools' "Tracing..." lines are waited for: unbuffered.
export PYTHONUNBUFFERED=1
show() { sed 's/^/# /' "$1" | tail -n "${2:-20}"; }
# by_count FILE: folded stacks ("frame;frame;... count"), most samples first
by_count() { awk '{print $NF "\t" $0}' "$1" | sort -n -r | cut -f2-; }

# BCC compiles each tool's program when it starts, which takes a minute
# or more under emulation: each workload runs until the tool is done with
# it.
# 1. profile: the stack with the most samples is hotloop's, from main()
# to hot_function().  (The frame-pointer walk may miss middle_function():
# hot_function() is a leaf.)
# The workload runs until it is killed: profile names its functions by
# reading its symbols after the sampling, while it still runs.
t0=$SECONDS
$hot 1000000000000 > /dev/null &
pid=$!
timeout $limit profile-bpfcc -F 49 -f -p $pid 8 > profile.out 2> profile.err
kill $pid 2>/dev/null
wait $pid 2>/dev/null
show profile.err 5
by_count profile.out | head -n 3 | sed 's/^/# /'
top=$(by_count profile.out | head -n 1)
echo "# $((SECONDS - t0)) s"
case $top in
*\;main\;*hot_function\ [0-9]*) result OK bcc_profile_hot_function ;;
*) result FAIL bcc_profile_hot_function "top stack: $top" ;;
esac

# 2. offcputime: a task that sleeps again and again spends its off-CPU
# time in the kernel's nanosleep.
t0=$SECONDS
python3 -c 'import time
while True: time.sleep(0.02)' &
pid=$!
timeout $limit offcputime-bpfcc -K -f -p $pid 4 > offcpu.out 2> offcpu.err
kill $pid 2>/dev/null
wait $pid 2>/dev/null
show offcpu.err 5
show offcpu.out 5
echo "# $((SECONDS - t0)) s"
if grep -q 'nanosleep' offcpu.out; then
	result OK bcc_offcputime_nanosleep
else
	result FAIL bcc_offcputime_nanosleep "no nanosleep stack"
fi

# 3. funccount: the calls of a uprobe'd user function, counted exactly.
# --foreground: timeout passes the SIGINT below to funccount once; by
# default it also signals its process group, and a second SIGINT that
# comes while funccount handles the first kills it before it prints.
t0=$SECONDS
timeout --foreground $limit funccount-bpfcc -d 30 "$hot:*_function" \
	> funccount.out 2> funccount.err &
fpid=$!
for _ in $(seq 1 $limit); do
	grep -q Tracing funccount.out 2>/dev/null && break
	sleep 1
done
for _ in 1 2 3; do $hot 1000 > /dev/null; done
kill -INT $fpid 2>/dev/null
wait $fpid
show funccount.err 5
show funccount.out 8
echo "# $((SECONDS - t0)) s"
hf=$(awk '$1 == "hot_function" {print $2}' funccount.out)
mf=$(awk '$1 == "middle_function" {print $2}' funccount.out)
if [ "$hf" = 3 ] && [ "$mf" = 3 ]; then
	result OK bcc_funccount_uprobe
else
	result FAIL bcc_funccount_uprobe "hot_function $hf, middle_function $mf"
fi
echo "@@PROG bcc end rc=$fails"
