// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow of sampling events.
 *
 * A sampling event overflows each time its period runs out.  Hardware PMU
 * drivers report it with perf_event_overflow() from their interrupt handler
 * (an NMI on x86), the software-counted PMUs (software, tracepoint,
 * breakpoint) through perf_swevent_event(), the clock PMUs from their
 * hrtimer.  For each overflow this file
 *
 *  - charges it to the per-tick budget of perf_event_max_sample_rate / HZ
 *    interrupts; an event over budget is throttled: its driver stops it
 *    (perf_event_overflow() returns 1) and the next tick starts it again,
 *    with THROTTLE and UNTHROTTLE records around the gap;
 *  - in frequency mode (attr.freq), moves the period towards the one that
 *    gives attr.sample_freq samples a second, here when the interrupts come
 *    close together and at each tick otherwise;
 *  - with attr.period_random_bits, draws the next period at random around
 *    attr.sample_period (the driver arms it at its next reload);
 *  - counts down the PERF_EVENT_IOC_REFRESH limit and disables the event
 *    when it runs out;
 *  - queues SIGTRAP for attr.sigtrap events;
 *  - runs the event's BPF program, then its overflow handler (by default
 *    the one that writes a sample to the ring buffer).
 *
 * Work that cannot be done where the overflow happens is queued: wakeups
 * of readers and disabling go to the event's IRQ work (event->pending_irq),
 * SIGTRAP to task work of the task that was running, so that the signal
 * reaches exactly the thread whose event overflowed.
 *
 * Context: perf_event_overflow(), perf_event_account_interrupt() and
 * perf_event_queue_wakeup() run in any context, NMI included, on the CPU
 * where the event is on the PMU.  They touch the event's hw fields (owned
 * by that CPU while the event is on its PMU), its pending_* fields and
 * per-CPU data, nothing else.  perf_swevent_event() runs with preemption
 * off, in any context (tracepoints fire in NMI too).  perf_event_task_tick()
 * runs in the tick with IRQs off.
 */

#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>

#include "internal.h"
#include "aux.h"
#include "bpf.h"
#include "context.h"
#include "event.h"
#include "overflow.h"
#include "records.h"
#include "ring_buffer.h"
#include "sysctl.h"

/*
 * Per CPU: the tick number, which restarts every event's interrupt budget
 * (an event keeps the number of the tick its count belongs to in
 * hw.interrupts_seq), and whether some event was throttled since the last
 * tick.
 */
static DEFINE_PER_CPU(u64, perf_tick_seq);
static DEFINE_PER_CPU(bool, perf_tick_throttled);

/* ---------------------------------------------------------------------
 * Throttling
 */

/*
 * Mark @member throttled and stop it, keeping its count where the PMU
 * keeps it (pmu->stop() without PERF_EF_UPDATE; the restart goes on from
 * there).  A clock's stop() leaves the hrtimer of a throttled event alone,
 * so this is NMI-safe for every PMU a group can mix in (swevent.c).
 */
static void perf_throttle_member(struct perf_event *member)
{
	member->hw.interrupts = PERF_THROTTLED;
	member->pmu->stop(member, 0);
	if (member == member->group_leader)
		perf_log_throttle(member, 0);
}

/* Throttle @member for @event's sake, if it is on the PMU and not yet. */
static void perf_throttle_other(struct perf_event *member,
				struct perf_event *event)
{
	if (member != event &&
	    READ_ONCE(member->state) == PERF_EVENT_STATE_ACTIVE &&
	    member->hw.interrupts != PERF_THROTTLED)
		perf_throttle_member(member);
}

/*
 * Throttle @event and the rest of its group.  A group is counted and
 * sampled as one, so its members stop and start together: every member on
 * the PMU is stopped until the next tick (or its next sched-in), which
 * starts them again.  Only the leader writes THROTTLE and UNTHROTTLE; the
 * group's samples are its.  The members are on this CPU with @event.
 * A software event overflows with interrupts on; its group's hardware
 * members are stopped with them off, as drivers expect.
 */
static void perf_throttle_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *member;
	unsigned long flags;

	local_irq_save(flags);
	__this_cpu_write(perf_tick_throttled, true);
	perf_throttle_member(event);
	perf_throttle_other(leader, event);
	for_each_sibling_event(member, leader)
		perf_throttle_other(member, event);
	local_irq_restore(flags);
}

/*
 * Charge one interrupt to @event, which is not throttled.  The
 * perf_samples_per_tick-th interrupt of a tick is the last: its sample is
 * still written, then the event's group is throttled until a later tick
 * (or its next sched-in), so a tick sees at most that many samples.
 * Return: 1 if it is now throttled (and stopped; a driver may stop it
 * again), 0 if it may go on.  With @may_throttle false the interrupt is
 * counted but cannot be the one that throttles: a software event that
 * overflows once per occurrence is never throttled (its rate is the rate
 * of what it counts).
 */
static __always_inline int perf_charge_interrupt(struct perf_event *event,
						 bool may_throttle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 seq = __this_cpu_read(perf_tick_seq);

	if (hwc->interrupts_seq != seq) {
		hwc->interrupts_seq = seq;
		hwc->interrupts = 0;
	}
	if (++hwc->interrupts < (u64)READ_ONCE(perf_samples_per_tick) ||
	    !may_throttle)
		return 0;

	perf_throttle_group(event);
	return 1;
}

/**
 * perf_event_account_interrupt - charge an overflow interrupt to an event
 * @event: the event that interrupted
 *
 * For drivers that consume an overflow without calling
 * perf_event_overflow() (a PEBS drain that found no record, for one), so
 * that interrupt storms are throttled all the same.  Any context.
 *
 * Return: 1 if the event is throttled and the driver must stop it, else 0.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	if (unlikely(event->hw.interrupts == PERF_THROTTLED))
		return 1;
	return perf_charge_interrupt(event, true);
}

/*
 * Running average, per CPU, of how long PMU interrupt handlers take, in
 * nanoseconds scaled by 2^PERF_TOOK_SHIFT; a new report weighs 1/128.
 * A handler now and then stretched to milliseconds (the host preempted an
 * emulated CPU, a long interrupt came in between) must not lower the rate
 * by itself, so no report counts for more than PERF_TOOK_CAP times what is
 * allowed: the average passes the allowance only after dozens of slow
 * handlers in a row, and each lowering is a bounded step.
 */
#define PERF_TOOK_SHIFT		7
#define PERF_TOOK_CAP		2
static DEFINE_PER_CPU(u64, perf_took_avg);

static void perf_lower_rate_work_fn(struct irq_work *work)
{
	pr_info_ratelimited("perf: interrupts took too long, lowering kernel.perf_event_max_sample_rate to %d\n",
			    READ_ONCE(sysctl_perf_event_sample_rate));
}

static DEFINE_IRQ_WORK(perf_lower_rate_work, perf_lower_rate_work_fn);

/**
 * perf_sample_event_took - report how long a PMU interrupt handler ran
 * @sample_len_ns: nanoseconds spent in the handler
 *
 * Keeps a running average per CPU.  When it passes what
 * perf_cpu_time_max_percent allows for one sample at the current
 * perf_event_max_sample_rate, the rate is lowered until the handlers fit.
 * Any context, NMI included.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 allowed = READ_ONCE(perf_sample_allowed_ns);
	u64 avg;

	if (!allowed)
		return;
	sample_len_ns = min(sample_len_ns, PERF_TOOK_CAP * allowed);
	avg = __this_cpu_read(perf_took_avg);
	avg = avg - (avg >> PERF_TOOK_SHIFT) + sample_len_ns;
	__this_cpu_write(perf_took_avg, avg);
	avg >>= PERF_TOOK_SHIFT;
	if (avg <= allowed)
		return;
	if (perf_sample_rate_lower(avg))
		irq_work_queue(&perf_lower_rate_work);
}

/* ---------------------------------------------------------------------
 * Frequency mode
 */

/*
 * The longest period frequency mode sets: attr.sample_period has bit 63
 * clear, and perf_freq_step() works in s64.
 */
#define PERF_FREQ_PERIOD_MAX	((u64)S64_MAX / 8)

/*
 * The period that would have made @count events in @nsec nanoseconds come
 * at attr.sample_freq samples a second: count * NSEC_PER_SEC / nsec / freq.
 *
 * @count is whatever the counter did, which user space can make as large
 * as it likes (a counter written back, a huge period, a reset).  The events
 * per second must fit in 64 bits before the 128-bit divide: on x86 a
 * quotient that does not fit traps.  Past that the period is the longest.
 */
static u64 perf_freq_period(struct perf_event *event, u64 count, u64 nsec)
{
	u64 freq = event->attr.sample_freq;
	u64 per_sec;

	if (!nsec || !freq)
		return 0;
	if (unlikely(count > U64_MAX / NSEC_PER_SEC) &&
	    div64_u64(count, nsec) >= U64_MAX / NSEC_PER_SEC)
		return PERF_FREQ_PERIOD_MAX;
	per_sec = mul_u64_u64_div_u64(count, NSEC_PER_SEC, nsec);
	return clamp_val(div64_u64(per_sec, freq), 1, PERF_FREQ_PERIOD_MAX);
}

/*
 * Move hw.sample_period an eighth of the way towards @target, smoothing out
 * noise.  Both are at most PERF_FREQ_PERIOD_MAX, so nothing here overflows.
 * Return: true when the period still running is far longer than the new
 * one, so that the caller should restart it.
 */
static bool perf_freq_step(struct perf_event *event, u64 target)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = min_t(u64, hwc->sample_period, PERF_FREQ_PERIOD_MAX);
	s64 left;

	period += ((s64)target - (s64)period) / 8;
	hwc->sample_period = period ?: 1;
	left = local64_read(&hwc->period_left);
	return left > 0 && (u64)left / 8 > hwc->sample_period;
}

/* An overflow of a frequency event: adjust from the time since the last. */
static void perf_freq_overflow(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 now = perf_clock();
	s64 nsec = now - hwc->freq_time_stamp;

	hwc->freq_time_stamp = now;
	if (nsec > 0 && nsec < 2 * TICK_NSEC)
		perf_freq_step(event, perf_freq_period(event, hwc->last_period,
						       nsec));
}

/**
 * perf_event_tick_event - the tick's work on one event on the PMU here
 * @event: an ACTIVE event of a context active on this CPU, sampling or
 *	   throttled with its group; the context's lock held, IRQs off, the
 *	   group's PMU disabled
 *
 * Starts a throttled event again (its group's leader writes UNTHROTTLE),
 * and moves a frequency event's period towards its frequency from the
 * count of the last tick.
 */
void perf_event_tick_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	bool freq = event->attr.freq && event->attr.sample_freq;
	u64 count, delta;
	bool restart;

	lockdep_assert_held(&event->ctx->lock);
	if (hwc->interrupts == PERF_THROTTLED) {
		hwc->interrupts = 0;
		if (event == event->group_leader)
			perf_log_throttle(event, 1);
		if (!freq)
			event->pmu->start(event, 0);
	}
	if (!freq)
		return;

	event->pmu->stop(event, PERF_EF_UPDATE);
	count = local64_read(&event->count);
	delta = count - hwc->freq_count_stamp;
	hwc->freq_count_stamp = count;
	/* a count that went back (reset, written) tells nothing this tick */
	restart = (s64)delta > 0 &&
		  perf_freq_step(event, perf_freq_period(event, delta, TICK_NSEC));
	if (restart)
		local64_set(&hwc->period_left, 0);
	event->pmu->start(event, restart ? PERF_EF_RELOAD : 0);
}

/**
 * perf_event_task_tick - the scheduler tick, on each CPU
 *
 * Opens a new interrupt budget, and when an event was throttled or
 * frequency events are on the PMU here, has the context code walk them
 * (perf_event_tick_event()).  IRQs off.
 */
void perf_event_task_tick(void)
{
	bool throttled;

	lockdep_assert_irqs_disabled();
	__this_cpu_inc(perf_tick_seq);
	throttled = __this_cpu_read(perf_tick_throttled);
	if (throttled)
		__this_cpu_write(perf_tick_throttled, false);
	perf_ctx_tick(throttled);
}

/* ---------------------------------------------------------------------
 * SIGTRAP
 */

static void perf_sigtrap_work(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						 pending_task);

	WRITE_ONCE(event->pending_work, 0);
	if (!(current->flags & PF_EXITING))
		send_sig_perf((void __user *)(unsigned long)event->pending_addr,
			      event->orig_type, event->attr.sig_data);
	perf_event_put(event);
}

/* Queue SIGTRAP for the current task, which overflowed @event. */
static void perf_sigtrap_queue(struct perf_event *event,
			       struct perf_sample_data *data)
{
	enum task_work_notify_mode mode = in_nmi() ? TWA_NMI_CURRENT :
						     TWA_RESUME;

	/* only the thread the event counts in is signalled, and once */
	if (event->ctx->task != current || READ_ONCE(event->pending_work))
		return;
	event->pending_addr = 0;
	if (data && (data->sample_flags & PERF_SAMPLE_ADDR))
		event->pending_addr = data->addr;
	WRITE_ONCE(event->pending_work, 1);
	/* the work holds a reference: the event may be closed before it runs */
	atomic_long_inc(&event->refcount);
	if (task_work_add(current, &event->pending_task, mode)) {
		atomic_long_dec(&event->refcount);
		WRITE_ONCE(event->pending_work, 0);
	}
}

/* ---------------------------------------------------------------------
 * Deferred work: wakeups and disabling
 */

/**
 * perf_event_queue_wakeup - wake an event's readers, soon
 * @event: the event
 *
 * Any context, NMI included: the wakeup runs from the event's IRQ work.
 */
void perf_event_queue_wakeup(struct perf_event *event)
{
	WRITE_ONCE(event->pending_wakeup, 1);
	irq_work_queue(&event->pending_irq);
}

/**
 * perf_event_disable_inatomic - disable an event from atomic context
 * @event: the event
 *
 * The event is disabled shortly after, from its IRQ work on the CPU where
 * its context is active.  Any context, NMI included.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_irq);
}

static void perf_pending_irq(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						 pending_irq);
	int rctx;

	/* what the wakeup itself triggers is not counted into our events */
	rctx = perf_swevent_get_recursion_context();

	if (READ_ONCE(event->pending_disable)) {
		int cpu = perf_event_disable_in_irq(event);

		if (cpu >= 0) {
			/* the context runs elsewhere now: follow it */
			irq_work_queue_on(&event->pending_irq, cpu);
			goto out;
		}
		WRITE_ONCE(event->pending_disable, 0);
	}
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}
out:
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/**
 * perf_overflow_init_event - set up an event's overflow state
 * @event: a new event, not yet visible to anyone
 */
void perf_overflow_init_event(struct perf_event *event)
{
	init_waitqueue_head(&event->waitq);
	init_irq_work(&event->pending_irq, perf_pending_irq);
	init_task_work(&event->pending_task, perf_sigtrap_work);
	if (!event->overflow_handler)
		event->overflow_handler = event->attr.write_backward ?
					  perf_event_output_backward :
					  perf_event_output_forward;
}

/**
 * perf_overflow_free_event - the event is going: wait for its IRQ work
 * @event: an event in no context any more (process context)
 *
 * Pending SIGTRAP work holds a reference of its own, so it cannot be
 * pending here.
 */
void perf_overflow_free_event(struct perf_event *event)
{
	irq_work_sync(&event->pending_irq);
}

/* ---------------------------------------------------------------------
 * PERF_EVENT_IOC_PERIOD
 */

struct period_args {
	struct perf_event	*event;
	u64			value;
};

static void period_func(struct perf_cpu_context *cpuctx,
			struct perf_event_context *ctx, void *info)
{
	struct period_args *args = info;
	struct perf_event *event = args->event;
	bool active = event->state == PERF_EVENT_STATE_ACTIVE;

	if (event->attr.freq) {
		event->attr.sample_freq = args->value;
		return;
	}
	event->attr.sample_period = args->value;
	event->hw.sample_period = args->value;
	if (active) {
		perf_pmu_disable(event->pmu);
		event->pmu->stop(event, PERF_EF_UPDATE);
	}
	local64_set(&event->hw.period_left, 0);
	if (active) {
		event->pmu->start(event, PERF_EF_RELOAD);
		perf_pmu_enable(event->pmu);
	}
}

/**
 * perf_event_period_locked - change a sampling event's period or frequency
 * @event: the event; ctx->mutex held
 * @value: the new period (or frequency for attr.freq events)
 *
 * Return: 0, or -EINVAL.
 */
int perf_event_period_locked(struct perf_event *event, u64 value)
{
	struct period_args args = { .event = event, .value = value };

	lockdep_assert_held(&event->ctx->mutex);
	if (!is_sampling_event(event) || !value)
		return -EINVAL;
	if (event->attr.freq && value > sysctl_perf_event_sample_rate)
		return -EINVAL;
	if (!event->attr.freq && (value & (1ULL << 63)))
		return -EINVAL;
	if (!perf_period_random_ok(&event->attr, value))
		return -EINVAL;
	/* a fixed period is also the driver's to accept (x86 LBR, ...) */
	if (!event->attr.freq && event->pmu->check_period(event, value))
		return -EINVAL;
	ctx_function_call(event->ctx, period_func, &args);
	return 0;
}

/* ---------------------------------------------------------------------
 * Randomised periods
 */

/* xorshift64 state per CPU: statistics, not secrets */
static DEFINE_PER_CPU(u64, perf_period_rnd);

/*
 * Give @event (attr.period_random_bits = k > 0) its next period:
 * attr.sample_period - 2^(k-1) + r, r uniform below 2^k, so that the mean
 * stays within half an event of attr.sample_period.  An overflow in NMI can
 * come between the load and the store of an IRQ-context one on this CPU:
 * both then draw the same number, which costs nothing but one draw.
 */
static void perf_period_draw(struct perf_event *event)
{
	unsigned int k = event->attr.period_random_bits;
	u64 x = __this_cpu_read(perf_period_rnd);

	if (unlikely(!x))
		x = local_clock() | 1;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	__this_cpu_write(perf_period_rnd, x);
	event->hw.sample_period = event->attr.sample_period -
				  BIT_ULL(k - 1) + (x >> (64 - k));
}

/* ---------------------------------------------------------------------
 * Overflow
 */

/* The overflow path; @may_throttle: see perf_charge_interrupt(). */
static int perf_overflow(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs,
			 bool may_throttle)
{
	perf_overflow_handler_t handler;
	int stop;

	/* counting events with narrow counters overflow too: nothing to do */
	if (unlikely(!is_sampling_event(event)))
		return 0;

	/*
	 * A throttled event that still overflows (its driver has not stopped
	 * it yet) writes nothing: a throttle ends at a tick or at sched-in,
	 * with UNTHROTTLE, and between the two there are no samples.
	 */
	if (unlikely(event->hw.interrupts == PERF_THROTTLED))
		return 1;
	stop = perf_charge_interrupt(event, may_throttle);
	if (event->attr.freq)
		perf_freq_overflow(event);
	else if (unlikely(event->attr.period_random_bits))
		perf_period_draw(event);

	/*
	 * Skid: the interrupt of an event that counts only user space can
	 * land in the kernel (a system call entered after the overflow).
	 * Its sample shows where the task left user space, never a kernel
	 * address or kernel registers; with no user side (a kernel thread)
	 * there is nothing to show and no sample is written.
	 */
	if (unlikely(event->attr.exclude_kernel && !user_mode(regs))) {
		if (!is_user_task(current))
			return stop;
		regs = task_pt_regs(current);
	}

	/* an AUX leader's trace pauses before this sample, resumes after */
	if (unlikely(event->attr.aux_pause))
		perf_aux_pause(event->aux_event, true);

	/* a sample the BPF program drops does not count any further */
	if (event->prog && !perf_event_run_bpf_overflow(event, data, regs))
		goto out;

	event->pending_kill = POLL_IN;
	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		stop = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	if (event->attr.sigtrap)
		perf_sigtrap_queue(event, data);

	handler = READ_ONCE(event->overflow_handler);
	handler(event, data, regs);

	/* SIGIO goes to the owner of the fd: an inherited copy's parent */
	if (READ_ONCE((event->parent ?: event)->fasync) && event->pending_kill)
		perf_event_queue_wakeup(event);
out:
	if (unlikely(event->attr.aux_resume))
		perf_aux_pause(event->aux_event, false);
	return stop;
}

/**
 * perf_event_overflow - an event's period ran out
 * @event: the event, on the PMU of this CPU
 * @data: the sample, as far as the driver filled it in
 * @regs: the registers at the interrupt
 *
 * Called by PMU drivers from their overflow interrupt (possibly NMI) and
 * by the core for software-counted events.
 *
 * Return: 1 when the driver must stop the counter (the event is throttled
 * or its REFRESH limit ran out), 0 to let it run on.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return perf_overflow(event, data, regs, true);
}

/*
 * @nr periods (at least one) of a software-counted event ran out, or, if
 * @nr is 0, as many as hw.period_left says.
 */
static void perf_swevent_overflow(struct perf_event *event, u64 nr,
				  struct perf_sample_data *data,
				  struct pt_regs *regs)
{
	u64 period = event->hw.last_period;	/* of the periods that ran out */
	bool may_throttle = false;

	if (!nr)
		nr = perf_swevent_set_period(event);
	/* only the second and later overflows of one occurrence throttle */
	for (; nr; nr--) {
		data->period = period;
		if (perf_overflow(event, data, regs, may_throttle))
			return;
		may_throttle = true;
	}
}

/**
 * perf_swevent_event - count occurrences of a software-counted event
 * @event: the event, started on this CPU's PMU
 * @nr: how many occurrences
 * @data: the sample for an overflow (the caller filled in addr, raw ...)
 * @regs: where it happened; without registers nothing is sampled
 *
 * Preemption off, any context, within the swevent recursion context.
 */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_add(nr, &event->count);
	if (!regs || !is_sampling_event(event))
		return;

	/*
	 * A fixed period of 1 overflows on every occurrence.  (A random draw
	 * may give a period of 1 too, but without this shortcut, which does
	 * not keep hw.period_left.)
	 */
	if (nr == 1 && event->attr.sample_period == 1 && !event->attr.freq) {
		hwc->last_period = 1;
		perf_swevent_overflow(event, 1, data, regs);
		return;
	}
	if (local64_add_negative(nr, &hwc->period_left))
		return;
	perf_swevent_overflow(event, 0, data, regs);
}
