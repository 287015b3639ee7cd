// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Armv8/Armv9 CPU PMU (PMUv3) as a perf_event PMU.
 *
 * This is the hardware half of struct arm_pmu (drivers/perf/arm_pmu.c):
 * the framework owns the perf callbacks, the per-CPU IRQ and hotplug; this
 * file knows the registers.  What it relies on from the architecture:
 *
 *  - PMCR_EL0.N event counters, each selecting an event number and an
 *    exception-level filter in PMEVTYPER<n>_EL0, plus the cycle counter
 *    (PMCCNTR_EL0, filtered by PMCCFILTR_EL0) and, with FEAT_PMUv3_ICNTR,
 *    the instruction counter (PMICNTR_EL0).  The framework's counter
 *    index is the architectural one: 0..30 for event counters, 31 for
 *    the cycle counter, 32 for the instruction counter.
 *  - Event counters are 32 bits wide before PMUv3p5 and 64 bits with
 *    PMCR_EL0.LP set from PMUv3p5 on; the cycle counter is 64 bits and
 *    overflows at 64 bits with PMCR_EL0.LC set, which we always set.
 *  - An odd event counter programmed with the CHAIN event counts the
 *    overflows of the even counter below it: the pair is one 64-bit
 *    counter, which is how a "long" event (config1 bit 0) is counted
 *    before PMUv3p5.
 *  - PMCEID0/1_EL0 say which common events the CPU implements.
 *
 * Counter widths as perf sees them: an event asks for 64 bits with the
 * "long" format bit; otherwise it is a 32-bit counter.  When a 32-bit
 * event sits on a 64-bit counter we load the upper half with ones, so the
 * hardware overflows (and interrupts) exactly when the low 32 bits wrap.
 *
 * Context: add/del/start/stop run with interrupts off on the counter's
 * CPU (the framework's rules); the overflow handler runs in hard IRQ
 * context or, where the PMU interrupt is a pseudo-NMI, in NMI context.
 */

#include <linux/acpi.h>
#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kvm_host.h>
#include <linux/nmi.h>
#include <linux/of.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/platform_device.h>
#include <linux/sched_clock.h>
#include <linux/smp.h>
#include <linux/sysctl.h>

#include <clocksource/arm_arch_timer.h>

#include <asm/arm_pmuv3.h>
#include <asm/irq_regs.h>
#include <asm/virt.h>

/* Every counter bit of PMCNTEN*, PMINTEN* and PMOVS*. */
#define PMUV3_ALL_COUNTERS	GENMASK_ULL(ARMV8_PMU_INSTR_IDX, 0)

/* The exception-level filter bits of PMEVTYPER<n> and PMCCFILTR. */
#define PMUV3_EL_FILTERS	(ARMV8_PMU_EXCLUDE_EL1 | ARMV8_PMU_EXCLUDE_EL0 | \
				 ARMV8_PMU_INCLUDE_EL2)

/* The perf_event_attr::config1 format bits; see pmuv3_format_attrs. */
#define PMUV3_CFG1_LONG		BIT_ULL(0)
#define PMUV3_CFG1_RDPMC	BIT_ULL(1)
#define PMUV3_CFG1_TH_COUNT	BIT_ULL(2)
#define PMUV3_CFG1_TH_COMPARE	GENMASK_ULL(4, 3)
#define PMUV3_CFG1_THRESHOLD	GENMASK_ULL(16, 5)

/* /proc/sys/kernel/perf_user_access: may EL0 read counters of its events? */
static int pmuv3_user_access __read_mostly;

/* --- what an event needs ----------------------------------------------- */

static bool pmuv3_has_long_counters(struct arm_pmu *cpu_pmu)
{
	return is_pmuv3p5(cpu_pmu->pmuver);
}

static bool pmuv3_event_is_long(struct perf_event *event)
{
	return event->hw.flags & ARMPMU_EVT_64BIT;
}

static bool pmuv3_event_user_reads(struct perf_event *event)
{
	return event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT;
}

/* A long event on an even/odd pair of 32-bit event counters. */
static bool pmuv3_event_is_chained(struct perf_event *event)
{
	return pmuv3_event_is_long(event) &&
	       !pmuv3_has_long_counters(to_arm_pmu(event->pmu)) &&
	       event->hw.idx >= 0 && event->hw.idx < ARMV8_PMU_CYCLE_IDX;
}

/* The PMCNTEN/PMOVS bits of the event's counter(s). */
static u64 pmuv3_event_counters(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (pmuv3_event_is_chained(event))
		return BIT_ULL(idx) | BIT_ULL(idx + 1);
	return BIT_ULL(idx);
}

/* The counter whose overflow means the event's period has elapsed. */
static u64 pmuv3_event_irq_counter(struct perf_event *event)
{
	int idx = event->hw.idx;

	return BIT_ULL(pmuv3_event_is_chained(event) ? idx + 1 : idx);
}

/* Does the hardware counter the event sits on have 64 bits? */
static bool pmuv3_counter_is_64bit(struct perf_event *event)
{
	int idx = event->hw.idx;

	return idx >= ARMV8_PMU_CYCLE_IDX ||
	       pmuv3_has_long_counters(to_arm_pmu(event->pmu));
}

/* --- counter registers -------------------------------------------------- */

static u64 pmuv3_read_pair(int lo)
{
	u64 hi, low;

	/* the high half may tick between the two reads: read until stable */
	do {
		hi = read_pmevcntrn(lo + 1);
		low = read_pmevcntrn(lo);
	} while (read_pmevcntrn(lo + 1) != hi);

	return (hi << 32) | lower_32_bits(low);
}

static u64 pmuv3_read_counter(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (idx == ARMV8_PMU_CYCLE_IDX)
		return read_pmccntr();
	if (idx == ARMV8_PMU_INSTR_IDX)
		return read_pmicntr();
	if (pmuv3_event_is_chained(event))
		return pmuv3_read_pair(idx);
	return read_pmevcntrn(idx);
}

static void pmuv3_write_counter(struct perf_event *event, u64 value)
{
	int idx = event->hw.idx;

	if (!pmuv3_event_is_long(event) && pmuv3_counter_is_64bit(event))
		value |= GENMASK_ULL(63, 32);

	if (idx == ARMV8_PMU_CYCLE_IDX) {
		write_pmccntr(value);
	} else if (idx == ARMV8_PMU_INSTR_IDX) {
		write_pmicntr(value);
	} else if (pmuv3_event_is_chained(event)) {
		write_pmevcntrn(idx + 1, upper_32_bits(value));
		write_pmevcntrn(idx, lower_32_bits(value));
	} else {
		write_pmevcntrn(idx, value);
	}
}

/* Program the event number, threshold and filters of the event's counter. */
static void pmuv3_write_type(struct perf_event *event)
{
	unsigned long type = event->hw.config_base;
	unsigned long filters = type & PMUV3_EL_FILTERS;
	int idx = event->hw.idx;

	if (idx == ARMV8_PMU_CYCLE_IDX) {
		write_pmccfiltr(filters);
	} else if (idx == ARMV8_PMU_INSTR_IDX) {
		write_pmicfiltr(filters);
	} else if (pmuv3_event_is_chained(event)) {
		write_pmevtypern(idx + 1, ARMV8_PMUV3_PERFCTR_CHAIN | filters);
		write_pmevtypern(idx, type);
	} else {
		write_pmevtypern(idx, type);
	}
}

/*
 * arm_pmu::enable: the counter is stopped and loaded (the framework's
 * start); program it, then let it count and interrupt.  With exclude_host
 * on a non-VHE host KVM enables the counter itself at guest entry.
 */
static void pmuv3_enable_event(struct perf_event *event)
{
	u64 counters = pmuv3_event_counters(event);

	pmuv3_write_type(event);
	kvm_set_pmu_events(counters, &event->attr);
	write_pmintenset(pmuv3_event_irq_counter(event));
	if (!kvm_pmu_counter_deferred(&event->attr))
		write_pmcntenset(counters);
}

/* arm_pmu::disable: stop the counter and its interrupt; read it after. */
static void pmuv3_disable_event(struct perf_event *event)
{
	u64 counters = pmuv3_event_counters(event);

	write_pmcntenclr(counters);
	write_pmintenclr(counters);
	kvm_clr_pmu_events(counters);
	isb();
}

/* --- EL0 access to the counters ---------------------------------------- */

static void pmuv3_set_userenr(u64 val)
{
	/* while a vCPU is loaded, KVM keeps the host's value for us */
	if (!kvm_set_pmuserenr(val))
		write_pmuserenr(val);
}

/*
 * Open EL0 reads of the counters while the running task has events that
 * asked for them, closed otherwise.  Before opening, zero every counter
 * the task does not own, so that it cannot read another context's counts.
 * Called with the PMU stopped, interrupts off.
 */
static void pmuv3_update_user_access(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	struct perf_event_context *ctx;
	int idx;

	ctx = READ_ONCE(pmuv3_user_access) ? perf_cpu_task_ctx() : NULL;
	if (!ctx || !ctx->nr_user) {
		pmuv3_set_userenr(0);
		return;
	}

	for_each_andnot_bit(idx, cpu_pmu->cntr_mask, cpuc->used_mask,
			    ARMV8_PMU_CYCLE_IDX)
		write_pmevcntrn(idx, 0);
	if (!test_bit(ARMV8_PMU_CYCLE_IDX, cpuc->used_mask))
		write_pmccntr(0);
	write_pmselr(0);
	pmuv3_set_userenr(ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR);
}

static void pmuv3_close_user_access_ipi(void *unused)
{
	pmuv3_set_userenr(0);
}

static int pmuv3_user_access_sysctl(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	/* turning it off takes effect at once, not at the next switch */
	if (!ret && write && !READ_ONCE(pmuv3_user_access))
		on_each_cpu(pmuv3_close_user_access_ipi, NULL, 1);
	return ret;
}

static struct ctl_table pmuv3_sysctls[] = {
	{
		.procname	= "perf_user_access",
		.data		= &pmuv3_user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= pmuv3_user_access_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* pmu::event_idx: the control page's index, counter + 1, or 0 for none. */
static int pmuv3_event_idx(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (!READ_ONCE(pmuv3_user_access) || !pmuv3_event_user_reads(event))
		return 0;
	/* EL0 reads PMEVCNTR<n> and PMCCNTR; the index is never 33 */
	if (idx < 0 || idx > ARMV8_PMU_CYCLE_IDX)
		return 0;
	return idx + 1;
}

/* --- the whole PMU ------------------------------------------------------ */

static void pmuv3_start(struct arm_pmu *cpu_pmu)
{
	pmuv3_update_user_access(cpu_pmu);
	kvm_vcpu_pmu_resync_el0();
	write_pmcr(read_pmcr() | ARMV8_PMU_PMCR_E);
}

/*
 * EL0 access closes with the PMU: when the next enable finds no counter
 * in use (the task that had them left, say) it does not run pmuv3_start(),
 * and the next task must not read what the counters hold.
 */
static void pmuv3_stop(struct arm_pmu *cpu_pmu)
{
	write_pmcr(read_pmcr() & ~ARMV8_PMU_PMCR_E);
	pmuv3_set_userenr(0);
	isb();
}

/* arm_pmu::reset: a CPU comes up (boot, hotplug, idle exit): a clean PMU. */
static void pmuv3_reset(void *info)
{
	struct arm_pmu *cpu_pmu = info;
	u64 pmcr = ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_LC;

	write_pmcntenclr(PMUV3_ALL_COUNTERS);
	write_pmintenclr(PMUV3_ALL_COUNTERS);
	write_pmovsclr(PMUV3_ALL_COUNTERS);
	isb();
	kvm_clr_pmu_events(PMUV3_ALL_COUNTERS);
	pmuv3_set_userenr(0);

	if (pmuv3_has_long_counters(cpu_pmu))
		pmcr |= ARMV8_PMU_PMCR_LP;
	write_pmcr(pmcr);
}

/* --- the overflow interrupt -------------------------------------------- */

/* The event whose period a set overflow bit ends, if any. */
static struct perf_event *pmuv3_overflowed_event(struct pmu_hw_events *cpuc,
						 int bit)
{
	struct perf_event *event = cpuc->events[bit];

	if (event)	/* a chained event's low half overflowing is a carry */
		return pmuv3_event_is_chained(event) ? NULL : event;
	if (bit == 0 || bit >= ARMV8_PMU_CYCLE_IDX)
		return NULL;
	event = cpuc->events[bit - 1];
	return event && pmuv3_event_is_chained(event) ? event : NULL;
}

/*
 * An event's counter overflowed: take its count, load the next period and,
 * if a whole period has run out, give the core its sample.
 */
static void pmuv3_period_ended(struct arm_pmu *cpu_pmu,
			       struct perf_event *event, struct pt_regs *regs)
{
	u64 elapsed = event->hw.last_period;	/* before the reload */
	struct perf_sample_data data;

	armpmu_event_update(event);
	if (!armpmu_event_set_period(event))
		return;		/* overflowed early: no whole period yet */
	perf_sample_data_init(&data, 0, elapsed);
	if (perf_event_overflow(event, &data, regs))
		cpu_pmu->disable(event);	/* throttled, or out of refreshes */
}

static irqreturn_t pmuv3_handle_irq(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	struct pt_regs *regs = get_irq_regs();
	unsigned long overflowed;
	u64 pmcr;
	int bit;

	overflowed = read_pmovsclr() & PMUV3_ALL_COUNTERS;
	if (!overflowed)
		return IRQ_NONE;

	/*
	 * Stop every counter while we work, so that the handler's own
	 * instructions and cycles are not counted, and a sample that reads a
	 * group sees its members at one instant.  Restore PMCR as we found
	 * it: the interrupt may have been pending while the PMU was stopped.
	 */
	pmcr = read_pmcr();
	write_pmcr(pmcr & ~ARMV8_PMU_PMCR_E);
	write_pmovsclr(overflowed);
	isb();

	for_each_set_bit(bit, &overflowed, ARMPMU_MAX_HWEVENTS) {
		struct perf_event *event = pmuv3_overflowed_event(cpuc, bit);

		if (event && !(event->hw.state & PERF_HES_STOPPED))
			pmuv3_period_ended(cpu_pmu, event, regs);
	}

	/*
	 * Wake-ups the samples queued: now rather than on another interrupt,
	 * and while the counters are still stopped.
	 */
	if (!in_nmi())
		irq_work_run();
	write_pmcr(pmcr);
	return IRQ_HANDLED;
}

/* --- counter allocation ------------------------------------------------- */

static int pmuv3_claim(unsigned long *used, int idx)
{
	return test_and_set_bit(idx, used) ? -EAGAIN : idx;
}

/* An even/odd pair of free event counters, for a chained event. */
static int pmuv3_claim_pair(struct arm_pmu *cpu_pmu, unsigned long *used)
{
	int idx;

	for_each_set_bit(idx, cpu_pmu->cntr_mask, ARMV8_PMU_CYCLE_IDX) {
		if ((idx & 1) || !test_bit(idx + 1, cpu_pmu->cntr_mask))
			continue;
		if (test_bit(idx, used) || test_bit(idx + 1, used))
			continue;
		__set_bit(idx, used);
		__set_bit(idx + 1, used);
		return idx;
	}
	return -EAGAIN;
}

/*
 * One free event counter.  Prefer one whose pair partner is taken, so that
 * whole pairs stay free for chained events as long as possible.
 */
static int pmuv3_claim_single(struct arm_pmu *cpu_pmu, unsigned long *used)
{
	int idx, spare = -EAGAIN;

	for_each_andnot_bit(idx, cpu_pmu->cntr_mask, used, ARMV8_PMU_CYCLE_IDX) {
		int partner = idx ^ 1;

		if (partner >= ARMV8_PMU_CYCLE_IDX || test_bit(partner, used) ||
		    !test_bit(partner, cpu_pmu->cntr_mask)) {
			spare = idx;
			break;
		}
		if (spare < 0)
			spare = idx;
	}
	if (spare >= 0)
		__set_bit(spare, used);
	return spare;
}

/*
 * arm_pmu::get_event_idx.  Also called on a scratch used_mask to check
 * that a group can ever fit: it must look at nothing but @cpuc->used_mask.
 */
static int pmuv3_get_event_idx(struct pmu_hw_events *cpuc,
			       struct perf_event *event)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);
	unsigned long type = event->hw.config_base;
	unsigned long number = type & ARMV8_PMU_EVTYPE_EVENT;
	bool thresholded = type & ARMV8_PMU_EVTYPE_TH;
	unsigned long *used = cpuc->used_mask;

	/* the fixed counters have filters but neither number nor threshold */
	if (number == ARMV8_PMUV3_PERFCTR_CPU_CYCLES && !thresholded &&
	    pmuv3_claim(used, ARMV8_PMU_CYCLE_IDX) >= 0)
		return ARMV8_PMU_CYCLE_IDX;

	if (number == ARMV8_PMUV3_PERFCTR_INST_RETIRED && !thresholded &&
	    !pmuv3_event_user_reads(event) &&
	    test_bit(ARMV8_PMU_INSTR_IDX, cpu_pmu->cntr_mask) &&
	    pmuv3_claim(used, ARMV8_PMU_INSTR_IDX) >= 0)
		return ARMV8_PMU_INSTR_IDX;

	if (pmuv3_event_is_long(event) && !pmuv3_has_long_counters(cpu_pmu))
		return pmuv3_claim_pair(cpu_pmu, used);
	return pmuv3_claim_single(cpu_pmu, used);
}

static void pmuv3_clear_event_idx(struct pmu_hw_events *cpuc,
				  struct perf_event *event)
{
	int idx = event->hw.idx;

	if (pmuv3_event_is_chained(event))
		clear_bit(idx + 1, cpuc->used_mask);
	clear_bit(idx, cpuc->used_mask);
}

/* --- event set-up ------------------------------------------------------- */

/*
 * arm_pmu::set_event_filter: the exception levels the event counts in,
 * as Documentation/arch/arm64/perf.rst defines the exclude_* bits.  With
 * VHE the host kernel runs at EL2 and guests' kernels at EL1; without it
 * the host kernel runs at EL1 and EL2 is the hypervisor.  Guest/host
 * switching of EL0 (VHE) or of whole counters (non-VHE) is KVM's work.
 */
static int pmuv3_set_event_filter(struct hw_perf_event *hwc,
				  struct perf_event_attr *attr)
{
	unsigned long type = 0;
	u64 threshold = FIELD_GET(PMUV3_CFG1_THRESHOLD, attr->config1);

	if (attr->exclude_idle)
		return -EOPNOTSUPP;

	if (is_kernel_in_hyp_mode()) {
		if (!attr->exclude_kernel && !attr->exclude_host)
			type |= ARMV8_PMU_INCLUDE_EL2;
		if (attr->exclude_kernel || attr->exclude_guest)
			type |= ARMV8_PMU_EXCLUDE_EL1;
		if (attr->exclude_user || attr->exclude_host)
			type |= ARMV8_PMU_EXCLUDE_EL0;
	} else {
		if (attr->exclude_kernel)
			type |= ARMV8_PMU_EXCLUDE_EL1;
		if (attr->exclude_user)
			type |= ARMV8_PMU_EXCLUDE_EL0;
		if (!attr->exclude_hv && !attr->exclude_host)
			type |= ARMV8_PMU_INCLUDE_EL2;
	}

	/* TC[0] counts once per cycle the condition holds, TC[2:1] compares */
	if (threshold) {
		u64 tc = FIELD_GET(PMUV3_CFG1_TH_COUNT, attr->config1) |
			 FIELD_GET(PMUV3_CFG1_TH_COMPARE, attr->config1) << 1;

		type |= FIELD_PREP(ARMV8_PMU_EVTYPE_TH, threshold) |
			FIELD_PREP(ARMV8_PMU_EVTYPE_TC, tc);
	}

	/* the framework ORs the event number in after this */
	hwc->config_base = type;
	return 0;
}

/* The largest threshold FEAT_PMUv3_TH takes here, 0 without it. */
static u32 pmuv3_threshold_max(struct arm_pmu *cpu_pmu)
{
	u32 width = FIELD_GET(ARMV8_PMU_THWIDTH, cpu_pmu->reg_pmmir);

	/* the format field has 12 bits, whatever the hardware has */
	return width ? min_t(u32, BIT(width) - 1, FIELD_MAX(PMUV3_CFG1_THRESHOLD))
		     : 0;
}

static bool pmuv3_implements(struct arm_pmu *cpu_pmu, unsigned int number)
{
	if (number < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(number, cpu_pmu->pmceid_bitmap);
	number -= ARMV8_PMUV3_EXT_COMMON_EVENT_BASE;
	if (number < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(number, cpu_pmu->pmceid_ext_bitmap);
	return false;
}

/*
 * perf's generic events as architected common events, in the Arm ARM's
 * order; 0: none.
 */
static const u16 pmuv3_generic_events[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CACHE_MISSES] = ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[PERF_COUNT_HW_CACHE_REFERENCES] = ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[PERF_COUNT_HW_INSTRUCTIONS] = ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	[PERF_COUNT_HW_BRANCH_MISSES] = ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	[PERF_COUNT_HW_CPU_CYCLES] = ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
	[PERF_COUNT_HW_BUS_CYCLES] = ARMV8_PMUV3_PERFCTR_BUS_CYCLES,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] =
		ARMV8_PMUV3_PERFCTR_STALL_FRONTEND,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] =
		ARMV8_PMUV3_PERFCTR_STALL_BACKEND,
};

/* perf's generic cache events: reads only, as the common events count. */
#define PMUV3_READ(_cache, _result)	\
	[C(_cache)][C(OP_READ)][C(RESULT_##_result)]

static const u16 pmuv3_cache_events[PERF_COUNT_HW_CACHE_MAX]
				   [PERF_COUNT_HW_CACHE_OP_MAX]
				   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PMUV3_READ(L1I, MISS) = ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL,
	PMUV3_READ(ITLB, MISS) = ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL,
	PMUV3_READ(L1D, MISS) = ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	PMUV3_READ(L1D, ACCESS) = ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	PMUV3_READ(DTLB, MISS) = ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL,
	PMUV3_READ(BPU, MISS) = ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	PMUV3_READ(BPU, ACCESS) = ARMV8_PMUV3_PERFCTR_BR_PRED,
	PMUV3_READ(L1I, ACCESS) = ARMV8_PMUV3_PERFCTR_L1I_CACHE,
	PMUV3_READ(DTLB, ACCESS) = ARMV8_PMUV3_PERFCTR_L1D_TLB,
	PMUV3_READ(ITLB, ACCESS) = ARMV8_PMUV3_PERFCTR_L1I_TLB,
	PMUV3_READ(LL, ACCESS) = ARMV8_PMUV3_PERFCTR_LL_CACHE_RD,
	PMUV3_READ(LL, MISS) = ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD,
};

/* "branches": whichever of the two branch-retired events the CPU has. */
static unsigned int pmuv3_branches(struct arm_pmu *cpu_pmu)
{
	if (pmuv3_implements(cpu_pmu, ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED))
		return ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;
	return ARMV8_PMUV3_PERFCTR_BR_RETIRED;
}

/*
 * The event number of a generic (hardware or cache) event: only events
 * PMCEID says the CPU implements.  Raw numbers, IMPLEMENTATION DEFINED
 * ones included, are taken as they are.
 */
static int pmuv3_event_number(struct arm_pmu *cpu_pmu, struct perf_event *event)
{
	u64 config = event->attr.config;
	unsigned int number, cache, op, result;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (config >= PERF_COUNT_HW_MAX)
			return -EINVAL;
		if (config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
			number = pmuv3_branches(cpu_pmu);
		else
			number = pmuv3_generic_events[config];
		break;
	case PERF_TYPE_HW_CACHE:
		cache = config & 0xff;
		op = (config >> 8) & 0xff;
		result = (config >> 16) & 0xff;
		if (cache >= PERF_COUNT_HW_CACHE_MAX ||
		    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
		    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
			return -EINVAL;
		number = pmuv3_cache_events[cache][op][result];
		break;
	case PERF_TYPE_RAW:
		return config & ARMV8_PMU_EVTYPE_EVENT;
	default:
		if (event->attr.type != event->pmu->type)
			return -ENOENT;
		return config & ARMV8_PMU_EVTYPE_EVENT;
	}

	/* number 0 (SW_INCR) is never a generic event: 0 means unmapped */
	if (!number || !pmuv3_implements(cpu_pmu, number))
		return -ENOENT;
	return number;
}

/*
 * arm_pmu::map_event: the event number, or an error.  Also decides the
 * counter width and EL0 access the event gets (hw.flags).
 */
static int pmuv3_map_event(struct perf_event *event)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);
	u64 config1 = event->attr.config1;
	int number;

	number = pmuv3_event_number(cpu_pmu, event);
	if (number < 0)
		return number;
	/* CHAIN is this driver's to place, on the odd half of a pair */
	if (number == ARMV8_PMUV3_PERFCTR_CHAIN)
		return -EINVAL;

	if (FIELD_GET(PMUV3_CFG1_THRESHOLD, config1) >
	    pmuv3_threshold_max(cpu_pmu))
		return -EINVAL;

	if (config1 & PMUV3_CFG1_LONG)
		event->hw.flags |= ARMPMU_EVT_64BIT;

	/*
	 * EL0 reads, where asked for and allowed: only of a task's own
	 * events (a CPU-wide one is refused), and never of a chained pair,
	 * which EL0 cannot read in one go.
	 */
	if ((config1 & PMUV3_CFG1_RDPMC) && READ_ONCE(pmuv3_user_access)) {
		if (!(event->attach_state & PERF_ATTACH_TASK))
			return -EINVAL;
		if ((config1 & PMUV3_CFG1_LONG) &&
		    !pmuv3_has_long_counters(cpu_pmu))
			return -EOPNOTSUPP;
		event->hw.flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	}

	return number;
}

/* --- the control page --------------------------------------------------- */

/**
 * arch_perf_update_userpage - arm64's fields of an event's control page
 * @event: the event
 * @userpg: its control page, inside the page's seqcount
 * @now: perf_clock() at the update
 *
 * The counter width for EL0 reads, and the conversion of the generic
 * timer's count (CNTVCT_EL0, which sched_clock() is built on) to perf's
 * clock, in the form the uapi header defines for cap_user_time,
 * cap_user_time_zero and cap_user_time_short.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct clock_read_data *rd;
	bool from_timer;
	unsigned int seq;
	u64 cyc, zero;
	u32 mult, shift;

	userpg->cap_user_rdpmc = pmuv3_event_user_reads(event);
	userpg->pmc_width = userpg->cap_user_rdpmc ?
			    (pmuv3_event_is_long(event) ? 64 : 32) : 0;

	do {
		rd = sched_clock_read_begin(&seq);
		/* user space can read CNTVCT_EL0, not another clocksource */
		from_timer = rd->read_sched_clock == arch_timer_read_counter;
		cyc = rd->epoch_cyc;
		mult = rd->mult;
		shift = rd->shift;
		userpg->time_cycles = cyc;
		userpg->time_mask = rd->sched_clock_mask;
		zero = rd->epoch_ns;
	} while (sched_clock_read_retry(seq));

	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_time_short = 0;
	if (!from_timer)
		return;

	/*
	 * User space computes (rem * time_mult) >> time_shift in 64 bits with
	 * rem < 2^time_shift: a shift of 32 could overflow, so use 31.
	 */
	if (shift == 32) {
		shift = 31;
		mult >>= 1;
	}
	zero -= (cyc >> shift) * mult +
		(((cyc & (BIT_ULL(shift) - 1)) * mult) >> shift);

	userpg->time_mult = mult;
	userpg->time_shift = shift;
	userpg->time_zero = zero;
	userpg->time_offset = zero - now;
	userpg->cap_user_time = 1;
	userpg->cap_user_time_zero = 1;
	userpg->cap_user_time_short = 1;
}

/* --- sysfs: events/, format/, caps/ ------------------------------------ */

static ssize_t pmuv3_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%04llx\n", ev->id);
}

/*
 * The common events by their Arm ARM mnemonics and numbers; sysfs shows
 * the ones PMCEID0/1 say are implemented.  Not SW_INCR (0x0000): it counts
 * writes to PMSWINC_EL0, which EL0 may not make.
 */
#define PMUV3_EVENT(_number, _name) \
	PMU_EVENT_ATTR_ID(_name, pmuv3_event_show, _number)

static struct attribute *pmuv3_event_attrs[] = {
	PMUV3_EVENT(0x0001, l1i_cache_refill),
	PMUV3_EVENT(0x0002, l1i_tlb_refill),
	PMUV3_EVENT(0x0003, l1d_cache_refill),
	PMUV3_EVENT(0x0004, l1d_cache),
	PMUV3_EVENT(0x0005, l1d_tlb_refill),
	PMUV3_EVENT(0x0006, ld_retired),
	PMUV3_EVENT(0x0007, st_retired),
	PMUV3_EVENT(0x0008, inst_retired),
	PMUV3_EVENT(0x0009, exc_taken),
	PMUV3_EVENT(0x000a, exc_return),
	PMUV3_EVENT(0x000b, cid_write_retired),
	PMUV3_EVENT(0x000c, pc_write_retired),
	PMUV3_EVENT(0x000d, br_immed_retired),
	PMUV3_EVENT(0x000e, br_return_retired),
	PMUV3_EVENT(0x000f, unaligned_ldst_retired),
	PMUV3_EVENT(0x0010, br_mis_pred),
	PMUV3_EVENT(0x0011, cpu_cycles),
	PMUV3_EVENT(0x0012, br_pred),
	PMUV3_EVENT(0x0013, mem_access),
	PMUV3_EVENT(0x0014, l1i_cache),
	PMUV3_EVENT(0x0015, l1d_cache_wb),
	PMUV3_EVENT(0x0016, l2d_cache),
	PMUV3_EVENT(0x0017, l2d_cache_refill),
	PMUV3_EVENT(0x0018, l2d_cache_wb),
	PMUV3_EVENT(0x0019, bus_access),
	PMUV3_EVENT(0x001a, memory_error),
	PMUV3_EVENT(0x001b, inst_spec),
	PMUV3_EVENT(0x001c, ttbr_write_retired),
	PMUV3_EVENT(0x001d, bus_cycles),
	PMUV3_EVENT(0x001f, l1d_cache_allocate),
	PMUV3_EVENT(0x0020, l2d_cache_allocate),
	PMUV3_EVENT(0x0021, br_retired),
	PMUV3_EVENT(0x0022, br_mis_pred_retired),
	PMUV3_EVENT(0x0023, stall_frontend),
	PMUV3_EVENT(0x0024, stall_backend),
	PMUV3_EVENT(0x0025, l1d_tlb),
	PMUV3_EVENT(0x0026, l1i_tlb),
	PMUV3_EVENT(0x0027, l2i_cache),
	PMUV3_EVENT(0x0028, l2i_cache_refill),
	PMUV3_EVENT(0x0029, l3d_cache_allocate),
	PMUV3_EVENT(0x002a, l3d_cache_refill),
	PMUV3_EVENT(0x002b, l3d_cache),
	PMUV3_EVENT(0x002c, l3d_cache_wb),
	PMUV3_EVENT(0x002d, l2d_tlb_refill),
	PMUV3_EVENT(0x002e, l2i_tlb_refill),
	PMUV3_EVENT(0x002f, l2d_tlb),
	PMUV3_EVENT(0x0030, l2i_tlb),
	PMUV3_EVENT(0x0031, remote_access),
	PMUV3_EVENT(0x0032, ll_cache),
	PMUV3_EVENT(0x0033, ll_cache_miss),
	PMUV3_EVENT(0x0034, dtlb_walk),
	PMUV3_EVENT(0x0035, itlb_walk),
	PMUV3_EVENT(0x0036, ll_cache_rd),
	PMUV3_EVENT(0x0037, ll_cache_miss_rd),
	PMUV3_EVENT(0x0038, remote_access_rd),
	PMUV3_EVENT(0x0039, l1d_cache_lmiss_rd),
	PMUV3_EVENT(0x003a, op_retired),
	PMUV3_EVENT(0x003b, op_spec),
	PMUV3_EVENT(0x003c, stall),
	PMUV3_EVENT(0x003d, stall_slot_backend),
	PMUV3_EVENT(0x003e, stall_slot_frontend),
	PMUV3_EVENT(0x003f, stall_slot),
	PMUV3_EVENT(0x4000, sample_pop),
	PMUV3_EVENT(0x4001, sample_feed),
	PMUV3_EVENT(0x4002, sample_filtrate),
	PMUV3_EVENT(0x4003, sample_collision),
	PMUV3_EVENT(0x4004, cnt_cycles),
	PMUV3_EVENT(0x4005, stall_backend_mem),
	PMUV3_EVENT(0x4006, l1i_cache_lmiss),
	PMUV3_EVENT(0x4009, l2d_cache_lmiss_rd),
	PMUV3_EVENT(0x400a, l2i_cache_lmiss),
	PMUV3_EVENT(0x400b, l3d_cache_lmiss_rd),
	PMUV3_EVENT(0x400c, trb_wrap),
	PMUV3_EVENT(0x400e, trb_trig),
	PMUV3_EVENT(0x4010, trcextout0),
	PMUV3_EVENT(0x4011, trcextout1),
	PMUV3_EVENT(0x4012, trcextout2),
	PMUV3_EVENT(0x4013, trcextout3),
	PMUV3_EVENT(0x4018, cti_trigout4),
	PMUV3_EVENT(0x4019, cti_trigout5),
	PMUV3_EVENT(0x401a, cti_trigout6),
	PMUV3_EVENT(0x401b, cti_trigout7),
	PMUV3_EVENT(0x4020, ldst_align_lat),
	PMUV3_EVENT(0x4021, ld_align_lat),
	PMUV3_EVENT(0x4022, st_align_lat),
	PMUV3_EVENT(0x4024, mem_access_checked),
	PMUV3_EVENT(0x4025, mem_access_checked_rd),
	PMUV3_EVENT(0x4026, mem_access_checked_wr),
	NULL,
};

static umode_t pmuv3_event_visible(struct kobject *kobj, struct attribute *a,
				   int unused)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(kobj_to_dev(kobj)));
	struct perf_pmu_events_attr *ev =
		container_of(a, struct perf_pmu_events_attr, attr.attr);

	return pmuv3_implements(cpu_pmu, ev->id) ? a->mode : 0;
}

static const struct attribute_group pmuv3_events_group = {
	.name		= "events",
	.attrs		= pmuv3_event_attrs,
	.is_visible	= pmuv3_event_visible,
};

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(long, "config1:0");
PMU_FORMAT_ATTR(rdpmc, "config1:1");
PMU_FORMAT_ATTR(threshold_count, "config1:2");
PMU_FORMAT_ATTR(threshold_compare, "config1:3-4");
PMU_FORMAT_ATTR(threshold, "config1:5-16");

static struct attribute *pmuv3_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_long.attr,
	&format_attr_rdpmc.attr,
	&format_attr_threshold_count.attr,
	&format_attr_threshold_compare.attr,
	&format_attr_threshold.attr,
	NULL,
};

static const struct attribute_group pmuv3_format_group = {
	.name	= "format",
	.attrs	= pmuv3_format_attrs,
};

/* caps/: PMMIR_EL1's fields (0 before PMUv3p4) and the threshold limit. */
enum pmuv3_cap { PMUV3_CAP_SLOTS, PMUV3_CAP_BUS_SLOTS, PMUV3_CAP_BUS_WIDTH,
		 PMUV3_CAP_THRESHOLD_MAX };

static ssize_t pmuv3_cap_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));
	struct dev_ext_attribute *cap =
		container_of(attr, struct dev_ext_attribute, attr);
	u64 pmmir = cpu_pmu->reg_pmmir;
	u32 val;

	switch ((unsigned long)cap->var) {
	case PMUV3_CAP_SLOTS:
		val = FIELD_GET(ARMV8_PMU_SLOTS, pmmir);
		break;
	case PMUV3_CAP_BUS_SLOTS:
		val = FIELD_GET(ARMV8_PMU_BUS_SLOTS, pmmir);
		break;
	case PMUV3_CAP_BUS_WIDTH:
		/* PMMIR encodes log2 of the width in bytes; 0: not given */
		val = FIELD_GET(ARMV8_PMU_BUS_WIDTH, pmmir);
		val = val > 1 ? BIT(val) : 0;
		break;
	default:
		val = pmuv3_threshold_max(cpu_pmu);
		break;
	}
	return sysfs_emit(page, "0x%08x\n", val);
}

#define PMUV3_CAP(_name, _which)					\
	(&((struct dev_ext_attribute[]) {				\
		{ __ATTR(_name, 0444, pmuv3_cap_show, NULL),		\
		  (void *)(unsigned long)(_which) }			\
	})[0].attr.attr)

static struct attribute *pmuv3_cap_attrs[] = {
	PMUV3_CAP(slots, PMUV3_CAP_SLOTS),
	PMUV3_CAP(bus_slots, PMUV3_CAP_BUS_SLOTS),
	PMUV3_CAP(bus_width, PMUV3_CAP_BUS_WIDTH),
	PMUV3_CAP(threshold_max, PMUV3_CAP_THRESHOLD_MAX),
	NULL,
};

static const struct attribute_group pmuv3_caps_group = {
	.name	= "caps",
	.attrs	= pmuv3_cap_attrs,
};

/* --- probing ------------------------------------------------------------ */

/* Read what the PMU has on one of its CPUs; @info is the arm_pmu. */
static void pmuv3_probe_cpu(void *info)
{
	struct arm_pmu *cpu_pmu = info;
	u64 ceid0, ceid1;
	u32 pmuver = read_pmuver();
	unsigned int n;

	if (!pmuv3_implemented(pmuver))
		return;
	cpu_pmu->pmuver = pmuver;

	n = FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr());
	bitmap_set(cpu_pmu->cntr_mask, 0, n);
	set_bit(ARMV8_PMU_CYCLE_IDX, cpu_pmu->cntr_mask);
	if (pmuv3_has_icntr())
		set_bit(ARMV8_PMU_INSTR_IDX, cpu_pmu->cntr_mask);

	/* PMCEIDn[31:0]: events 32n + i; [63:32]: events 0x4000 + 32n + i */
	ceid0 = read_pmceid0();
	ceid1 = read_pmceid1();
	bitmap_from_u64(cpu_pmu->pmceid_bitmap,
			lower_32_bits(ceid0) | (u64)lower_32_bits(ceid1) << 32);
	bitmap_from_u64(cpu_pmu->pmceid_ext_bitmap,
			upper_32_bits(ceid0) | (u64)upper_32_bits(ceid1) << 32);

	cpu_pmu->reg_pmmir = is_pmuv3p4(pmuver) ? read_pmmir() : 0;
}

static int pmuv3_init(struct arm_pmu *cpu_pmu, const char *name)
{
	int ret;

	ret = smp_call_function_any(&cpu_pmu->supported_cpus, pmuv3_probe_cpu,
				    cpu_pmu, 1);
	if (ret)
		return ret;
	if (!cpu_pmu->pmuver)
		return -ENODEV;

	cpu_pmu->name = (char *)name;
	cpu_pmu->handle_irq = pmuv3_handle_irq;
	cpu_pmu->enable = pmuv3_enable_event;
	cpu_pmu->disable = pmuv3_disable_event;
	cpu_pmu->read_counter = pmuv3_read_counter;
	cpu_pmu->write_counter = pmuv3_write_counter;
	cpu_pmu->get_event_idx = pmuv3_get_event_idx;
	cpu_pmu->clear_event_idx = pmuv3_clear_event_idx;
	cpu_pmu->start = pmuv3_start;
	cpu_pmu->stop = pmuv3_stop;
	cpu_pmu->reset = pmuv3_reset;
	cpu_pmu->set_event_filter = pmuv3_set_event_filter;
	cpu_pmu->map_event = pmuv3_map_event;
	cpu_pmu->pmu.event_idx = pmuv3_event_idx;

	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_EVENTS] = &pmuv3_events_group;
	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_FORMATS] = &pmuv3_format_group;
	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_CAPS] = &pmuv3_caps_group;
	return 0;
}

/*
 * The devicetree compatibles (Documentation/devicetree/bindings/arm/
 * pmu.yaml) of the CPUs this driver serves, with the name each PMU gets.
 * Every one is driven as an architectural PMUv3.
 */
static int pmuv3_init_of(struct arm_pmu *cpu_pmu);

static const char *const pmuv3_of_names[] = {
	"armv8_pmuv3",
	"armv8_cortex_a34", "armv8_cortex_a35", "armv8_cortex_a53",
	"armv8_cortex_a55", "armv8_cortex_a57", "armv8_cortex_a65",
	"armv8_cortex_a72", "armv8_cortex_a73", "armv8_cortex_a75",
	"armv8_cortex_a76", "armv8_cortex_a77", "armv8_cortex_a78",
	"armv9_cortex_a510", "armv9_cortex_a520", "armv9_cortex_a710",
	"armv9_cortex_a715", "armv9_cortex_a720", "armv9_cortex_a725",
	"armv8_cortex_x1", "armv9_cortex_x2", "armv9_cortex_x3",
	"armv9_cortex_x4", "armv9_cortex_x925",
	"armv8_neoverse_e1", "armv8_neoverse_n1", "armv9_neoverse_n2",
	"armv9_neoverse_n3", "armv8_neoverse_v1", "armv8_neoverse_v2",
	"armv8_neoverse_v3", "armv8_neoverse_v3ae",
	"armv8_cavium_thunder", "armv8_brcm_vulcan",
	"armv8_nvidia_carmel", "armv8_nvidia_denver",
};

#define PMUV3_OF(_compatible) \
	{ .compatible = _compatible, .data = pmuv3_init_of }

/* In the order of pmuv3_of_names. */
static const struct of_device_id pmuv3_of_match[] = {
	PMUV3_OF("arm,armv8-pmuv3"),
	PMUV3_OF("arm,cortex-a34-pmu"), PMUV3_OF("arm,cortex-a35-pmu"),
	PMUV3_OF("arm,cortex-a53-pmu"), PMUV3_OF("arm,cortex-a55-pmu"),
	PMUV3_OF("arm,cortex-a57-pmu"), PMUV3_OF("arm,cortex-a65-pmu"),
	PMUV3_OF("arm,cortex-a72-pmu"), PMUV3_OF("arm,cortex-a73-pmu"),
	PMUV3_OF("arm,cortex-a75-pmu"), PMUV3_OF("arm,cortex-a76-pmu"),
	PMUV3_OF("arm,cortex-a77-pmu"), PMUV3_OF("arm,cortex-a78-pmu"),
	PMUV3_OF("arm,cortex-a510-pmu"), PMUV3_OF("arm,cortex-a520-pmu"),
	PMUV3_OF("arm,cortex-a710-pmu"), PMUV3_OF("arm,cortex-a715-pmu"),
	PMUV3_OF("arm,cortex-a720-pmu"), PMUV3_OF("arm,cortex-a725-pmu"),
	PMUV3_OF("arm,cortex-x1-pmu"), PMUV3_OF("arm,cortex-x2-pmu"),
	PMUV3_OF("arm,cortex-x3-pmu"), PMUV3_OF("arm,cortex-x4-pmu"),
	PMUV3_OF("arm,cortex-x925-pmu"),
	PMUV3_OF("arm,neoverse-e1-pmu"), PMUV3_OF("arm,neoverse-n1-pmu"),
	PMUV3_OF("arm,neoverse-n2-pmu"), PMUV3_OF("arm,neoverse-n3-pmu"),
	PMUV3_OF("arm,neoverse-v1-pmu"), PMUV3_OF("arm,neoverse-v2-pmu"),
	PMUV3_OF("arm,neoverse-v3-pmu"), PMUV3_OF("arm,neoverse-v3ae-pmu"),
	PMUV3_OF("cavium,thunder-pmu"), PMUV3_OF("brcm,vulcan-pmu"),
	PMUV3_OF("nvidia,carmel-pmu"), PMUV3_OF("nvidia,denver-pmu"),
	{ }
};

static_assert(ARRAY_SIZE(pmuv3_of_match) == ARRAY_SIZE(pmuv3_of_names) + 1);

static int pmuv3_init_of(struct arm_pmu *cpu_pmu)
{
	const struct of_device_id *match;

	match = of_match_node(pmuv3_of_match,
			      cpu_pmu->plat_device->dev.of_node);
	if (!match)
		return -ENODEV;
	return pmuv3_init(cpu_pmu, pmuv3_of_names[match - pmuv3_of_match]);
}

/* ACPI names every PMU armv8_pmuv3_<n> (arm_pmu_acpi_probe adds the _n). */
static int pmuv3_init_acpi(struct arm_pmu *cpu_pmu)
{
	return pmuv3_init(cpu_pmu, "armv8_pmuv3");
}

static int pmuv3_device_probe(struct platform_device *pdev)
{
	return arm_pmu_device_probe(pdev, pmuv3_of_match, NULL);
}

/* A CPU's PMU cannot be unbound from it: no bind/unbind files. */
static struct platform_driver pmuv3_driver = {
	.probe = pmuv3_device_probe,
	.driver = {
		.suppress_bind_attrs = true,
		.of_match_table = pmuv3_of_match,
		.name = ARMV8_PMU_PDEV_NAME,
	},
};

static int __init pmuv3_driver_init(void)
{
	int err = acpi_disabled ? platform_driver_register(&pmuv3_driver) :
				  arm_pmu_acpi_probe(pmuv3_init_acpi);

	if (err)
		return err;
	register_sysctl("kernel", pmuv3_sysctls);
	/* the perf-based hard-lockup detector needs a PMU: it may start now */
	lockup_detector_retry_init();
	return 0;
}
device_initcall(pmuv3_driver_init);
