#!/bin/bash
# PAPI, Debian's build (TAP): its utilities and a self-monitoring program of
# ours against libpapi (/harness/bin/papi_selfmon), each checked for a sane
# result.  PAPI reaches the kernel through its perf_event component.
# Hardware presets need a hardware PMU: the arm64 guests have QEMU's PMUv3,
# whose instructions event counts only under icount; the x86_64 guests have
# none, and their hardware tests skip.
. "$(dirname "$0")/tap.sh"
cd /tmp || exit 1
echo "@@PROG papi begin"
echo "TAP version 13"
echo "1..9"
selfmon=/harness/bin/papi_selfmon
hw=0
[ "$(uname -m)" = aarch64 ] && hw=1
ins=$hw
if [ $hw = 1 ] && perf stat -x, -e instructions:u true 2>&1 | grep -q "<not supported>"; then
	ins=0
fi

# libpfm4, which PAPI's perf_event component names events with, knows
# CPUs by their ID registers, and not QEMU's max CPU.  Its PMUv3 is the
# architected one, whose common events (cycles, instructions) the
# Cortex-A57's table names as well: libpfm4 is told to take that table.
out=$(timeout 120 papi_component_avail 2>&1)
# Told so, it names nothing else: the kernel's software events are not
# there, and their tests skip (the x86_64 guests run them).
sw=1
if [ $hw = 1 ] && echo "$out" | grep -q "no default PMU found"; then
	echo "# libpfm4 does not know this CPU: LIBPFM_FORCE_PMU=arm_ac57"
	export LIBPFM_FORCE_PMU=arm_ac57
	sw=0
fi
nosw="libpfm4 names no software event where it is told the CPU's PMU"

# 1. The perf_event component is active.
out=$(timeout 120 papi_component_avail 2>&1)
echo "$out" | grep -A1 "^Name: *perf_event " | sed 's/^/# /'
echo "$out" | sed -n '/Active components/,$p' | sed 's/^/# /'
if echo "$out" | sed -n '/Active components/,$p' | grep -q "perf_event "; then
	result OK papi_component_avail_perf_event
else
	result FAIL papi_component_avail_perf_event "perf_event component not active"
fi

# 2. Native events: the kernel's software events are listed.
out=$(timeout 120 papi_native_avail 2>&1)
if [ $sw = 0 ]; then
	skip papi_native_avail_software "$nosw"
elif echo "$out" | grep -q "perf::TASK-CLOCK" && echo "$out" | grep -q "perf::PAGE-FAULTS"; then
	result OK papi_native_avail_software
else
	echo "$out" | tail -n 20 | sed 's/^/# /'
	result FAIL papi_native_avail_software "perf::TASK-CLOCK or perf::PAGE-FAULTS not listed"
fi

# 3. Presets: with a hardware PMU, PAPI_TOT_CYC is available.
out=$(timeout 120 papi_avail -a 2>&1)
echo "$out" | grep "^PAPI_" | sed 's/^/# /'
if [ $hw = 0 ]; then
	skip papi_avail_tot_cyc "no hardware PMU in this guest"
elif echo "$out" | grep -q "^PAPI_TOT_CYC"; then
	result OK papi_avail_tot_cyc
else
	echo "$out" | tail -n 20 | sed 's/^/# /'
	result FAIL papi_avail_tot_cyc "PAPI_TOT_CYC not available"
fi

# 4. papi_command_line with software events: each added, task-clock counts.
if [ $sw = 0 ]; then
	skip papi_command_line_software "$nosw"
else
	out=$(timeout 120 papi_command_line perf::TASK-CLOCK perf::PAGE-FAULTS perf::CONTEXT-SWITCHES 2>&1)
	echo "$out" | grep -E "added|perf::" | sed 's/^/# /'
	tc=$(echo "$out" | awk '$1 == "perf::TASK-CLOCK" && $2 == ":" {print $3}')
	if [ "$(echo "$out" | grep -c "Successfully added")" = 3 ] && [ "${tc:-0}" -gt 0 ]; then
		result OK papi_command_line_software
	else
		result FAIL papi_command_line_software "task-clock=$tc"
	fi
fi

# 5. papi_command_line with hardware presets: cycles and instructions count.
if [ $ins = 0 ]; then
	skip papi_command_line_presets "no hardware instructions event in this guest"
else
	out=$(timeout 120 papi_command_line PAPI_TOT_CYC PAPI_TOT_INS 2>&1)
	echo "$out" | grep -E "added|PAPI_" | sed 's/^/# /'
	cyc=$(echo "$out" | awk '$1 == "PAPI_TOT_CYC" && $2 == ":" {print $3}')
	tot=$(echo "$out" | awk '$1 == "PAPI_TOT_INS" && $2 == ":" {print $3}')
	if [ "${cyc:-0}" -gt 0 ] && [ "${tot:-0}" -gt 1000000 ]; then
		result OK papi_command_line_presets
	else
		result FAIL papi_command_line_presets "PAPI_TOT_CYC=$cyc PAPI_TOT_INS=$tot"
	fi
fi

# 6. papi_cost: start/stop, read and accum, timed in cycles.
if [ $hw = 0 ]; then
	skip papi_cost "no hardware PMU in this guest (papi_cost counts PAPI_TOT_CYC)"
else
	out=$(timeout 300 papi_cost -t 2000 2>&1)
	rc=$?
	echo "$out" | grep -iE "total cost|mean" | head -n 8 | sed 's/^/# /'
	if [ $rc = 0 ] && echo "$out" | grep -qi "PAPI_read"; then
		result OK papi_cost
	else
		echo "$out" | tail -n 10 | sed 's/^/# /'
		result FAIL papi_cost "rc=$rc"
	fi
fi

# 7. Self-monitoring: software events over 512 fresh pages, read mid-way
# and at the stop; page faults at least the pages touched, task-clock no
# more than the wall time.
if [ $sw = 0 ]; then
	skip papi_selfmon_software "$nosw"
else
	out=$(timeout 120 $selfmon count -p 512 -l 2000000 perf::TASK-CLOCK perf::PAGE-FAULTS perf::CONTEXT-SWITCHES 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	pf=$(echo "$out" | awk '$1 == "perf::PAGE-FAULTS" {sub("end=", "", $3); print $3}')
	tc=$(echo "$out" | awk '$1 == "perf::TASK-CLOCK" {sub("end=", "", $3); print $3}')
	wall=$(echo "$out" | sed -n 's/^wall_ns=//p')
	if [ $rc = 0 ] && [ "${pf:-0}" -ge 512 ] && [ "${tc:-0}" -gt 0 ] && [ "${tc:-0}" -le "${wall:-0}" ]; then
		result OK papi_selfmon_software
	else
		result FAIL papi_selfmon_software "rc=$rc page-faults=$pf task-clock=$tc wall=$wall"
	fi
fi

# 8. Self-monitoring, multiplexed: more hardware events than the PMU has
# counters (cycles and instructions at each privilege level); each
# scaled value is there and none went backwards.  PAPI tries a hardware
# instructions event before it multiplexes, so this needs one.
if [ $ins = 0 ]; then
	skip papi_selfmon_multiplexed "no hardware instructions event in this guest (PAPI tries one before it multiplexes)"
else
	evs="PAPI_TOT_CYC PAPI_TOT_INS"
	for ev in CPU_CYCLES INST_RETIRED; do
		for m in "" :u :k; do evs="$evs $LIBPFM_FORCE_PMU::$ev$m"; done
	done
	out=$(timeout 300 $selfmon count -m -p 256 -l 5000000 $evs 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	zero=$(echo "$out" | grep -c "end=0$")
	cyc=$(echo "$out" | awk '$1 == "PAPI_TOT_CYC" {sub("end=", "", $3); print $3}')
	if [ $rc = 0 ] && [ "${cyc:-0}" -gt 0 ] && [ "$zero" = 0 ]; then
		result OK papi_selfmon_multiplexed
	else
		result FAIL papi_selfmon_multiplexed "rc=$rc PAPI_TOT_CYC=$cyc, $zero events at 0"
	fi
fi

# 9. Exact counts: PAPI_TOT_INS of a loop run 1, 2 and 3 times as long
# grows by the same number of instructions each time.  An interrupt taken
# meanwhile can add to a count on either tree (see perf-hw): short loops,
# and up to three tries, one of them exact.
if [ $ins = 0 ]; then
	skip papi_selfmon_tot_ins_exact "no exact instructions event in this guest (QEMU counts instructions only under icount)"
else
	ok=0
	for try in 1 2 3; do
		out=$(timeout 300 $selfmon exact -l 100000 PAPI_TOT_INS 2>&1)
		rc=$?
		echo "$out" | sed 's/^/# /'
		[ $rc = 0 ] && echo "$out" | grep -q "exact=yes" && ok=1 && break
	done
	if [ $ok = 1 ]; then
		result OK papi_selfmon_tot_ins_exact
	else
		result FAIL papi_selfmon_tot_ins_exact "rc=$rc"
	fi
fi
echo "@@PROG papi end rc=$fails"
