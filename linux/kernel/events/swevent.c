// SPDX-License-Identifier: GPL-2.0
/*
 * The software PMUs.
 *
 * "software" (PERF_TYPE_SOFTWARE) counts the PERF_COUNT_SW_* events that
 * the kernel reports with perf_sw_event(): page faults, context switches,
 * migrations, alignment and emulation faults, cgroup switches.  An event
 * on the PMU (between pmu->add() and pmu->del()) is on a list: the CPU's
 * list of its counter's events (struct perf_swevent_table), or for an
 * event of the PMU's own sub-context of a task context, that
 * sub-context's one list of the events of every counter (epc->sw_on_pmu:
 * a task has a few software events, and a table of lists per task context
 * would cost more memory than a walk over them costs time).
 * perf_sw_event() adds to every started event of its counter on the CPU's
 * list and on the list of the task context active on the CPU whose
 * exclude_user/exclude_kernel bits let the occurrence count.  A
 * static key per counter keeps perf_sw_event() down to a no-op jump while
 * the counter has no events.
 *
 * Counting events of a CPU context are not on a list: they are tallied.
 * perf_sw_event() adds each occurrence to one of three per-CPU totals of
 * its counter, by where it happened (user mode, kernel mode, or unknown:
 * no regs); an event's count is the sum of the totals its exclude bits
 * let through, taken from where it was when the event went on the PMU
 * (hw.prev_count), and is brought into event->count by pmu->read(), by
 * stop() and by del().  However many events a CPU has, an occurrence then
 * costs one addition.  Their control pages do not show the count.
 *
 * Because a task's events are found through its context, not through the
 * CPU, a sub-context of counting events may stay on the PMU while its task
 * is switched out (perf_swevent_may_stay_on(); the rules are in
 * context.c): its events count only while the context is active on a CPU,
 * whichever it is, which is exactly while they would be on the PMU.
 *
 * "cpu_clock" and "task_clock" count nanoseconds while their event is on
 * the PMU: cpu_clock of perf_clock(), task_clock of its context's time,
 * which runs while the context is active (a task's: while the task runs)
 * and stands still otherwise, so that a task-clock event may stay on the
 * PMU while its task is switched out.  Events of type
 * PERF_TYPE_SOFTWARE with those two configs are handed on to them.  They
 * have dynamic types and no sysfs device.
 *
 * Sampling: a software event samples through perf_swevent_event()
 * (overflow.c) when its hw.period_left reaches 0; the clock PMUs sample
 * from a per-event hrtimer that fires every period (frequency mode is
 * turned into the matching period of nanoseconds at creation).
 *
 * Counts without a system call: the control page of a counting software
 * event shows its count in offset (cap_user_count, an extension of this
 * core).  The page is written wherever the count changes: here, for each
 * occurrence counted; at pmu->stop() of a clock, whose count then stops
 * growing; and by the core when the event goes on its PMU, is reset or is
 * mapped.  Only an event whose buffer is its own may promise it
 * (perf_swevent_user_count()), so that one event writes the page.
 *
 * Locking and NMI: the DOC: blocks "Software PMU locking" and "Software
 * events in NMI" below, shown in Documentation/perf/core/locking.rst.
 */

/**
 * DOC: Software PMU locking
 *
 * The ``pmu->add()``, ``del()``, ``start()`` and ``stop()`` of the
 * ``software``, ``cpu_clock`` and ``task_clock`` PMUs run with IRQs off
 * under the event's ``ctx->lock``, on the event's CPU; ``del()`` also runs
 * wherever that lock is held for an event that stayed on with its task
 * context while the context is active nowhere.  ``perf_sw_event()`` walks
 * the lists of started events under RCU with preemption off and IRQs
 * possibly on: an IPI may take an event off meanwhile, and the event (and
 * a task sub-context with its list) is freed only after a grace period.
 */

/**
 * DOC: Software events in NMI
 *
 * Software-counted events also fire in NMI: tracepoints and kprobes hit in
 * NMI context reach ``perf_tp_event()``, and breakpoints hit in the kernel
 * are reported from a debug exception that x86 and arm64 treat as an NMI.
 * The software PMU's own counters (``perf_sw_event()``) are not raised from
 * NMI by the architectures this core runs on (their page fault accounting
 * comes after the check for faults with page faults disabled), but the
 * delivery code does not depend on that: it only takes RCU and the per-task
 * recursion guard, which has a separate level for NMI.  What cannot be done
 * in NMI is skipped there: a tracepoint hit that names another task (the
 * scheduler's tracepoints) also counts for that task's events bound to this
 * CPU, under that task's ``ctx->lock``, and this part is left out in NMI.
 */

#include <linux/hardirq.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <asm/irq_regs.h>

#include "internal.h"
#include "context.h"
#include "overflow.h"
#include "ring_buffer.h"
#include "swevent.h"

/*
 * Scratch registers for records written from tracepoints and software
 * events, one set per swevent recursion context.
 */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

/*
 * Per PERF_COUNT_SW_* counter, its events on the PMU of one CPU: the CPU
 * context's, and those of task contexts in a hardware leader's group.
 */
struct perf_swevent_table {
	struct hlist_head	on_pmu[PERF_COUNT_SW_MAX];
};

static DEFINE_PER_CPU(struct perf_swevent_table, perf_swevent_cpu);

/* Where an occurrence happened, for the exclude bits of tallied events. */
enum perf_swevent_mode {
	PERF_SWEVENT_ANYWHERE,	/* no regs: counts for every event */
	PERF_SWEVENT_USER,
	PERF_SWEVENT_KERNEL,
	PERF_SWEVENT_NR_MODES,
};

/*
 * Per counter, the occurrences this CPU has seen by mode, for the tallied
 * events of its CPU context.  Only ever added to, by perf_sw_event() on
 * this CPU, and only while one of those events runs (@running, changed by
 * their start and stop on this CPU): an event counts from the totals as
 * they stand when it starts, so what happens while none runs need not be
 * added.  Read where those events are read (on this CPU, IRQs off).
 */
struct perf_swevent_tally {
	local64_t	seen[PERF_COUNT_SW_MAX][PERF_SWEVENT_NR_MODES];
	unsigned int	running[PERF_COUNT_SW_MAX];
};

static DEFINE_PER_CPU(struct perf_swevent_tally, perf_swevent_tally);

/* hw.state: the event is tallied, not on a list (the driver's own bit) */
#define PERF_HES_TALLIED	PERF_HES_ARCH

/* Read by perf_sw_event(); one reference per counting (non-inherited) event. */
struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];

/* ---------------------------------------------------------------------
 * Recursion protection
 */

/*
 * Each context level (task, softirq, hardirq, NMI) of the current task may
 * be inside event delivery once; an event raised while delivering another
 * at the same level is dropped.  Inlined into __perf_sw_event().
 */
static __always_inline int perf_recursion_enter(void)
{
	unsigned char level = interrupt_context_level();
	u8 *busy = &current->perf_recursion[level];

	if (*busy)
		return -1;
	*busy = 1;
	barrier();
	return level;
}

/**
 * perf_swevent_get_recursion_context - enter software event delivery
 *
 * Preemption must stay off until perf_swevent_put_recursion_context().
 *
 * Return: the level (0-3) to give back, or -1 if it is already taken.
 */
int perf_swevent_get_recursion_context(void)
{
	return perf_recursion_enter();
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

static __always_inline void perf_recursion_leave(int rctx)
{
	barrier();
	current->perf_recursion[rctx] = 0;
}

/**
 * perf_swevent_put_recursion_context - leave software event delivery
 * @rctx: what perf_swevent_get_recursion_context() returned (not -1)
 */
void perf_swevent_put_recursion_context(int rctx)
{
	perf_recursion_leave(rctx);
}

/* ---------------------------------------------------------------------
 * Counting
 */

static struct pmu perf_swevent_pmu;
static struct pmu perf_cpu_clock_pmu;
static struct pmu perf_task_clock_pmu;

static bool perf_is_clock(struct perf_event *event)
{
	return event->pmu == &perf_cpu_clock_pmu ||
	       event->pmu == &perf_task_clock_pmu;
}

/*
 * @now, a perf_clock() value, on a clock event's clock: the same for
 * cpu_clock; for task_clock its context's time at @now (the time it
 * stopped at, if the context is inactive).  Where the event runs, or
 * under ctx->lock, or lock-free (NMI) through ctx->timeoffset.
 */
static __always_inline u64
perf_clock_event_time(struct perf_event *event, u64 now)
{
	struct perf_event_context *ctx = event->ctx;

	if (event->pmu != &perf_task_clock_pmu)
		return now;
	if (READ_ONCE(ctx->is_active) & EVENT_TIME)
		return now + READ_ONCE(ctx->timeoffset);
	return READ_ONCE(ctx->time);
}

/*
 * Would @event's control page show its count (cap_user_count)?  A counting,
 * not inherited event of one of these PMUs (of "software", a task's: not
 * tallied), mapped by itself.  Its page
 * then shows the count only while no other event writes to its buffer
 * (SET_OUTPUT): each of those would put its own count in offset.
 */
static bool perf_swevent_page_candidate(struct perf_event *event)
{
	if (event->pmu != &perf_swevent_pmu && !perf_is_clock(event))
		return false;
	/* a tallied count is brought up to date only where it is read */
	if (event->pmu == &perf_swevent_pmu &&
	    !(event->attach_state & PERF_ATTACH_TASK))
		return false;
	if (is_sampling_event(event) || event->attr.inherit || event->parent)
		return false;
	return atomic_read(&event->mmap_count);
}

/**
 * perf_swevent_user_count - what an event's control page says of its count
 * @event: the event whose page is being written
 * @rb: its buffer, under RCU
 * @now: perf_clock() at the write, on the event's CPU
 * @count: in: the event's count as the core keeps it; out: the count at
 *	   @now (a running clock's ns since it was last brought up to date
 *	   added)
 *
 * Called by perf_event_update_userpage() with IRQs off.  A running clock
 * is read where it runs, or (mapping another task's event) where its CPU's
 * clock agrees with this one's as well as perf_clock() keeps them.
 *
 * Return: 0 if the page cannot give the count; PERF_USER_COUNT if offset
 * is the count until the page is written again; with PERF_USER_COUNT_TIME
 * too if the count also grows by one per ns meanwhile.
 */
unsigned int perf_swevent_user_count(struct perf_event *event,
				     struct perf_buffer *rb, u64 now,
				     u64 *count)
{
	u64 since;

	/* the buffer's one writer: first on its list and last */
	if (!perf_swevent_page_candidate(event) ||
	    READ_ONCE(rb->writers.next) != &event->rb_entry ||
	    READ_ONCE(event->rb_entry.next) != &rb->writers)
		return 0;
	if (!perf_is_clock(event) ||
	    READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return PERF_USER_COUNT;
	since = local64_read(&event->hw.prev_count);
	now = perf_clock_event_time(event, now);
	if (now > since)
		*count += now - since;
	/* a task clock that stayed on while its task is out stands still */
	if (event->pmu == &perf_task_clock_pmu &&
	    !(READ_ONCE(event->ctx->is_active) & EVENT_TIME))
		return PERF_USER_COUNT;
	return PERF_USER_COUNT | PERF_USER_COUNT_TIME;
}

/*
 * The count of a counting event changed: rewrite its page if it may show
 * the count.  A page shared since its last write gets written too, and
 * says from then on that it does not show it.
 */
static noinline void perf_swevent_count_changed(struct perf_event *event)
{
	if (perf_swevent_page_candidate(event))
		perf_event_update_userpage(event);
}

static __always_inline bool perf_swevent_counts(struct perf_event *event,
						struct pt_regs *regs)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return false;
	if (!regs)
		return true;
	if (user_mode(regs))
		return !event->attr.exclude_user;
	return !event->attr.exclude_kernel;
}

/*
 * Out of line: the sample data lives in this frame only, so the counting
 * loop above does not clear it (stack auto-initialisation) per event.
 */
static noinline void perf_swevent_sample(struct perf_event *event, u64 nr,
					 struct pt_regs *regs, u64 addr)
{
	struct perf_sample_data data __uninitialized;

	perf_sample_data_init(&data, addr, 0);
	perf_swevent_event(event, nr, &data, regs);
}

/*
 * Count an occurrence for the events of one list: all of them, or with
 * @config >= 0 (a task's list) those of that counter.
 */
static __always_inline void perf_swevent_count_list(struct hlist_head *head,
						    int config, u64 nr,
						    struct pt_regs *regs,
						    u64 addr)
{
	struct perf_event *event;

	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (config >= 0 && event->attr.config != config)
			continue;
		if (!perf_swevent_counts(event, regs))
			continue;
		if (unlikely(is_sampling_event(event))) {
			perf_swevent_sample(event, nr, regs, addr);
			continue;
		}
		local64_add(nr, &event->count);
		if (unlikely(event->rb))
			perf_swevent_count_changed(event);
	}
}

/**
 * ___perf_sw_event - count a software event, no recursion check
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: where it happened, for the exclude_user/exclude_kernel filters;
 *	  may be NULL (then they do not filter)
 * @addr: the data address, if any (PERF_SAMPLE_ADDR of samples)
 *
 * Caller has preemption off and either holds the recursion context or,
 * like the scheduler hooks, cannot recurse.
 */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct perf_event_pmu_context *epc;
	enum perf_swevent_mode mode = PERF_SWEVENT_ANYWHERE;

	if (WARN_ON_ONCE(event_id >= PERF_COUNT_SW_MAX))
		return;

	if (__this_cpu_read(perf_swevent_tally.running[event_id])) {
		if (regs)
			mode = user_mode(regs) ? PERF_SWEVENT_USER :
						 PERF_SWEVENT_KERNEL;
		local64_add(nr,
			    this_cpu_ptr(&perf_swevent_tally.seen[event_id][mode]));
	}

	rcu_read_lock();
	perf_swevent_count_list(&this_cpu_ptr(&perf_swevent_cpu)->on_pmu[event_id],
				-1, nr, regs, addr);
	/* the software sub-context of the task context active here */
	epc = READ_ONCE(perf_this_cpc(&perf_swevent_pmu)->task_epc);
	if (epc)
		perf_swevent_count_list(&epc->sw_on_pmu, event_id, nr, regs,
					addr);
	rcu_read_unlock();
}

/**
 * __perf_sw_event - count a software event
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: where it happened, or NULL
 * @addr: the data address, if any
 *
 * The slow path of perf_sw_event(), taken while the counter has events.
 * Task, softirq or hard IRQ context; not NMI.
 */
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int rctx;

	preempt_disable_notrace();
	rctx = perf_recursion_enter();
	if (likely(rctx >= 0)) {
		___perf_sw_event(event_id, nr, regs, addr);
		perf_recursion_leave(rctx);
	}
	preempt_enable_notrace();
}

/**
 * perf_swevent_set_period - start the next sampling period of an event
 * @event: a sampling event counted in software (hw.period_left runs from
 *	   minus the period up to 0, where it overflows)
 *
 * hw.period_left at or above 0 means the period running, hw.last_period,
 * has run out, and by how many events past its end it went.  Those count
 * first as whole further periods of hw.last_period, then towards the next
 * period, of hw.sample_period (which frequency mode or a random draw may
 * have changed), and hw.period_left goes back below 0 by what is left of
 * it.  An event that goes on its PMU starts with
 * perf_swevent_start_period().
 *
 * Return: the number of periods of hw.last_period that ran out (0 if none).
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = hwc->last_period ?: hwc->sample_period;
	u64 next = hwc->sample_period;
	s64 left, rest;
	u64 elapsed;

	if (!period)
		return 0;

	left = local64_read(&hwc->period_left);
	do {
		if (left < 0)
			return 0;	/* still under way */
		elapsed = div64_u64(left, period) + 1;
		rest = left - (s64)((elapsed - 1) * period) - (s64)next;
		/* past the end of the next period too: it ends at the next event */
		rest = min_t(s64, rest, -1);
	} while (!local64_try_cmpxchg(&hwc->period_left, &left, rest));

	hwc->last_period = next;
	return elapsed;
}

/**
 * perf_swevent_start_period - a software-counted event goes on its PMU
 * @event: a sampling event counted in software
 *
 * A period already under way (hw.period_left below 0) goes on where it
 * was, still reported as hw.last_period; otherwise the next period starts,
 * of hw.sample_period.
 */
void perf_swevent_start_period(struct perf_event *event)
{
	if (local64_read(&event->hw.period_left) >= 0)
		event->hw.last_period = event->hw.sample_period;
	perf_swevent_set_period(event);
}

/* ---------------------------------------------------------------------
 * The "software" PMU
 */

static bool perf_swevent_is_sampling(struct perf_event *event)
{
	return event->attr.sample_period != 0;	/* also sample_freq */
}

static void perf_swevent_destroy(struct perf_event *event)
{
	static_key_slow_dec(&perf_swevent_enabled[event->attr.config]);
}

static int perf_swevent_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;

	if (event->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;

	/* no branch records to offer: refused before the config is looked at */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	switch (config) {
	case PERF_COUNT_SW_CPU_CLOCK:
		event->attr.type = perf_cpu_clock_pmu.type;
		return -ENOENT;
	case PERF_COUNT_SW_TASK_CLOCK:
		event->attr.type = perf_task_clock_pmu.type;
		return -ENOENT;
	}
	if (config >= PERF_COUNT_SW_MAX)
		return -ENOENT;

	/*
	 * An inherited event is covered by its parent's key reference: the
	 * parent outlives its children.  Taking one here would nest the CPU
	 * hotplug lock inside the parent context's mutex.
	 */
	if (!event->parent) {
		static_key_slow_inc(&perf_swevent_enabled[config]);
		event->destroy = perf_swevent_destroy;
	}
	return 0;
}

/*
 * The list an event goes on: its sub-context's if that is the software
 * PMU's of a task context, else its CPU's of its counter.
 */
static struct hlist_head *perf_swevent_list_of(struct perf_event *event)
{
	struct perf_event_pmu_context *epc = event->pmu_ctx;

	if (epc->pmu == &perf_swevent_pmu && epc->ctx->task)
		return &epc->sw_on_pmu;
	return &this_cpu_ptr(&perf_swevent_cpu)->on_pmu[event->attr.config];
}

/*
 * Tallied: a counting event of a CPU context.  Those go on and off the PMU
 * only on their own CPU, and are read there (by IPI, or by a reader on
 * that CPU with IRQs off), where the per-CPU totals are written.
 */
static bool perf_swevent_may_tally(struct perf_event *event)
{
	return !is_sampling_event(event) &&
	       !(event->attach_state & PERF_ATTACH_TASK);
}

/* The occurrences @event would have counted since this CPU came up. */
static u64 perf_swevent_tally_of(struct perf_event *event)
{
	struct perf_swevent_tally *tally =
		per_cpu_ptr(&perf_swevent_tally, event->cpu);
	local64_t *seen = tally->seen[event->attr.config];
	u64 sum = local64_read(&seen[PERF_SWEVENT_ANYWHERE]);

	if (!event->attr.exclude_user)
		sum += local64_read(&seen[PERF_SWEVENT_USER]);
	if (!event->attr.exclude_kernel)
		sum += local64_read(&seen[PERF_SWEVENT_KERNEL]);
	return sum;
}

/* A stopped tallied event starts counting from the totals as they are now. */
static void perf_swevent_tally_start(struct perf_event *event)
{
	this_cpu_inc(perf_swevent_tally.running[event->attr.config]);
	barrier();
	local64_set(&event->hw.prev_count, perf_swevent_tally_of(event));
}

/*
 * Bring a running tallied event's count up to the totals.  The exchange
 * keeps it exact when an NMI reader (perf_event_read_local()) does the
 * same in the middle.
 */
static void perf_swevent_tally_update(struct perf_event *event)
{
	u64 now = perf_swevent_tally_of(event);
	u64 then = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - then, &event->count);
}

static int perf_swevent_add(struct perf_event *event, int flags)
{
	if (perf_swevent_may_tally(event)) {
		event->hw.state = PERF_HES_TALLIED | PERF_HES_STOPPED;
		if (flags & PERF_EF_START) {
			perf_swevent_tally_start(event);
			barrier();	/* an NMI reader sees it stopped until here */
			event->hw.state = PERF_HES_TALLIED;
		}
		return 0;
	}
	if (is_sampling_event(event))
		perf_swevent_start_period(event);
	/* on one list at a time: linked twice, the list is a cycle */
	if (WARN_ON_ONCE(!hlist_unhashed(&event->hlist_entry)))
		return -EINVAL;
	event->hw.state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;
	hlist_add_head_rcu(&event->hlist_entry, perf_swevent_list_of(event));
	return 0;
}

static void perf_swevent_stop(struct perf_event *event, int flags)
{
	if (event->hw.state == PERF_HES_TALLIED) {
		perf_swevent_tally_update(event);
		this_cpu_dec(perf_swevent_tally.running[event->attr.config]);
	}
	event->hw.state |= PERF_HES_STOPPED;
}

static void perf_swevent_del(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_TALLIED) {
		perf_swevent_stop(event, PERF_EF_UPDATE);
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	event->hw.state = PERF_HES_STOPPED;
	hlist_del_init_rcu(&event->hlist_entry);
}

static void perf_swevent_start(struct perf_event *event, int flags)
{
	if (event->hw.state == (PERF_HES_TALLIED | PERF_HES_STOPPED)) {
		perf_swevent_tally_start(event);
		barrier();
	}
	event->hw.state &= ~PERF_HES_STOPPED;
}

/* A listed event's count is kept in event->count directly. */
static void perf_swevent_read(struct perf_event *event)
{
	if (event->hw.state == PERF_HES_TALLIED)
		perf_swevent_tally_update(event);
}

static struct pmu perf_swevent_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,

	.event_init	= perf_swevent_event_init,
	.add		= perf_swevent_add,
	.del		= perf_swevent_del,
	.start		= perf_swevent_start,
	.stop		= perf_swevent_stop,
	.read		= perf_swevent_read,
};

/* ---------------------------------------------------------------------
 * "cpu_clock" and "task_clock"
 *
 * Both count perf_clock() nanoseconds between start and stop; hw.prev_count
 * is the clock value the count was last brought up to.
 */

/* Bring a clock event's count up to @now, its clock's time. */
static void perf_clock_event_update_to(struct perf_event *event, u64 now)
{
	u64 then = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - then, &event->count);
}

static void perf_clock_event_update(struct perf_event *event)
{
	perf_clock_event_update_to(event, perf_clock_event_time(event,
								perf_clock()));
}

/*
 * The clock's time in add() and del(), under ctx->lock.  Where the core
 * has just brought the context's time up to date (ENABLE, DISABLE and the
 * other work of ctx_function_call()), a task clock's time is ctx->time as
 * it is, without reading the clock again.
 */
static __always_inline u64
perf_clock_event_time_locked(struct perf_event *event)
{
	if (event->pmu == &perf_task_clock_pmu &&
	    perf_ctx_time_is_now(event->ctx))
		return READ_ONCE(event->ctx->time);
	return perf_clock_event_time(event, perf_clock());
}

/* shortest sampling period of the clocks: 10 us */
#define PERF_CLOCK_MIN_PERIOD	10000ULL

static bool perf_regs_excluded(struct perf_event *event, struct pt_regs *regs)
{
	return user_mode(regs) ? event->attr.exclude_user :
				 event->attr.exclude_kernel;
}

/* A clock event's sampling period ran out: sample, then arm the next. */
static enum hrtimer_restart perf_clock_hrtimer_fn(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						 hw.hrtimer);
	enum hrtimer_restart restart = HRTIMER_RESTART;
	struct perf_sample_data data __uninitialized;
	struct pt_regs *regs;

	/* stopped by its group's throttle, which left the timer to us */
	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;

	perf_clock_event_update(event);
	perf_sample_data_init(&data, 0, event->hw.last_period);
	regs = get_irq_regs();
	if (regs && !perf_regs_excluded(event, regs) &&
	    !(event->attr.exclude_idle && is_idle_task(current))) {
		if (perf_event_overflow(event, &data, regs))
			restart = HRTIMER_NORESTART;
	}
	event->hw.last_period = event->hw.sample_period;
	hrtimer_forward_now(timer,
			    ns_to_ktime(max(event->hw.sample_period,
					    PERF_CLOCK_MIN_PERIOD)));
	return restart;
}

/* Start counting from @now, the clock's time. */
static void perf_clock_event_start_at(struct perf_event *event, u64 now)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_set(&hwc->prev_count, now);
	hwc->state = 0;
	if (is_sampling_event(event)) {
		/* the rest of a period cut short by stop(), else a new one */
		s64 left = local64_xchg(&hwc->period_left, 0);
		u64 period = max(hwc->sample_period, PERF_CLOCK_MIN_PERIOD);

		if (left > 0 && left < period)
			period = left;		/* hw.last_period's, resumed */
		else
			hwc->last_period = hwc->sample_period;
		hrtimer_start(&hwc->hrtimer, ns_to_ktime(period),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
}

static void perf_clock_event_start(struct perf_event *event, int flags)
{
	perf_clock_event_start_at(event, perf_clock_event_time(event,
							       perf_clock()));
}

/* Stop counting at @now, the clock's time. */
static void perf_clock_event_stop_at(struct perf_event *event, u64 now)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	/*
	 * A throttle stops the event from any context, NMI and this event's
	 * own timer callback included, where the timer cannot be cancelled:
	 * the callback sees the event stopped and does not re-arm, and del()
	 * cancels.  The restart after the throttle begins a full period.
	 */
	if (is_sampling_event(event) && hwc->interrupts != PERF_THROTTLED) {
		ktime_t rest = hrtimer_get_remaining(&hwc->hrtimer);

		local64_set(&hwc->period_left, max_t(s64, ktime_to_ns(rest), 0));
		hrtimer_cancel(&hwc->hrtimer);
	}
	perf_clock_event_update_to(event, now);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* a page that showed the count growing must now show it still */
	if (unlikely(event->rb) && !is_sampling_event(event))
		perf_swevent_count_changed(event);
}

static void perf_clock_event_stop(struct perf_event *event, int flags)
{
	perf_clock_event_stop_at(event, perf_clock_event_time(event,
							      perf_clock()));
}

static int perf_clock_event_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		perf_clock_event_start_at(event,
					  perf_clock_event_time_locked(event));
	return 0;
}

static void perf_clock_event_del(struct perf_event *event, int flags)
{
	perf_clock_event_stop_at(event, perf_clock_event_time_locked(event));
	/* a throttle may have stopped the event and left its timer queued */
	if (is_sampling_event(event))
		hrtimer_cancel(&event->hw.hrtimer);
}

static void perf_clock_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		perf_clock_event_update(event);
}

static int perf_clock_event_init(struct perf_event *event, struct pmu *pmu,
				 u64 config)
{
	struct hw_perf_event *hwc = &event->hw;

	if (event->attr.type != pmu->type || event->attr.config != config)
		return -ENOENT;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!perf_swevent_is_sampling(event))
		return 0;

	/* a frequency is a period of nanoseconds for a clock */
	if (event->attr.freq) {
		event->attr.sample_period = div64_u64(NSEC_PER_SEC,
						      event->attr.sample_freq);
		event->attr.freq = 0;
	}
	hwc->sample_period = max(event->attr.sample_period,
				 PERF_CLOCK_MIN_PERIOD);
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, 0);
	hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hwc->hrtimer.function = perf_clock_hrtimer_fn;
	return 0;
}

static int perf_cpu_clock_event_init(struct perf_event *event)
{
	return perf_clock_event_init(event, &perf_cpu_clock_pmu,
				     PERF_COUNT_SW_CPU_CLOCK);
}

static int perf_task_clock_event_init(struct perf_event *event)
{
	return perf_clock_event_init(event, &perf_task_clock_pmu,
				     PERF_COUNT_SW_TASK_CLOCK);
}

static struct pmu perf_cpu_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.dev		= PMU_NULL_DEV,

	.event_init	= perf_cpu_clock_event_init,
	.add		= perf_clock_event_add,
	.del		= perf_clock_event_del,
	.start		= perf_clock_event_start,
	.stop		= perf_clock_event_stop,
	.read		= perf_clock_event_read,
};

static struct pmu perf_task_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.dev		= PMU_NULL_DEV,

	.event_init	= perf_task_clock_event_init,
	.add		= perf_clock_event_add,
	.del		= perf_clock_event_del,
	.start		= perf_clock_event_start,
	.stop		= perf_clock_event_stop,
	.read		= perf_clock_event_read,
};

/**
 * perf_is_cpu_clock - is this a cpu-clock event
 * @event: an initialised event
 *
 * Return: true if @event belongs to the cpu_clock PMU.
 */
bool perf_is_cpu_clock(struct perf_event *event)
{
	return event->pmu == &perf_cpu_clock_pmu;
}

/**
 * perf_swevent_may_stay_on - may @event stay on its PMU while its task is out
 * @event: an event being installed in a context, its ->ctx and ->pmu_ctx set
 *
 * A counting event of the "software" or the "task_clock" PMU, in its own
 * PMU's sub-context of a task context (not in another PMU's group), not
 * bound to a CPU: it counts what its task does, or the time its context
 * is active, on whatever CPU, and nothing else ties it to a CPU.  (A BPF
 * output event is written to where it is on the PMU: it does not qualify.)
 *
 * Return: true if so.  The answer does not change while the event is in
 * its context.
 */
bool perf_swevent_may_stay_on(struct perf_event *event)
{
	if (!event->ctx->task || event->cpu >= 0 ||
	    is_sampling_event(event) || event->pmu_ctx->pmu != event->pmu)
		return false;
	if (event->pmu == &perf_task_clock_pmu)
		return true;
	return event->pmu == &perf_swevent_pmu &&
	       event->attr.config != PERF_COUNT_SW_BPF_OUTPUT;
}

/**
 * perf_task_clock_pages_stand - a task context with clocks that stay on went out
 * @ctx: the task context, its ctx->lock held, just made inactive on this CPU
 *
 * The control page of a mapped task-clock that stayed on says that its
 * count grows by one per ns (PERF_USER_COUNT_TIME) while its task runs;
 * from now until the task is back (when the page is written again) it
 * stands still, and a reader other than the task must see that.  Called
 * only while some event of @ctx is mapped (ctx->nr_mapped).
 */
void perf_task_clock_pages_stand(struct perf_event_context *ctx)
{
	struct perf_event *event;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->pmu != &perf_task_clock_pmu || !READ_ONCE(event->rb) ||
		    !(event->attach_state & PERF_ATTACH_STAYS_ON) ||
		    event->state != PERF_EVENT_STATE_ACTIVE)
			continue;
		perf_event_update_userpage(event);
	}
}

/**
 * perf_pmu_counts_in_software - is @pmu one of the counting software PMUs?
 * @pmu: the PMU
 *
 * "software", "cpu_clock" and "task_clock": their events change state in
 * one step under ctx->lock (no attribute changes in several steps under
 * ctx->mutex, as a breakpoint's have).  Their events carry
 * PERF_EV_CAP_SW_COUNTS from their init on.
 *
 * Return: true if so.
 */
bool perf_pmu_counts_in_software(struct pmu *pmu)
{
	return pmu == &perf_swevent_pmu || pmu == &perf_task_clock_pmu ||
	       pmu == &perf_cpu_clock_pmu;
}

/* ---------------------------------------------------------------------
 * Setup
 */

/**
 * perf_swevent_init_cpu - a CPU is being prepared or came online
 * @cpu: the CPU
 *
 * The per-CPU lists are static; a CPU that is not online must have no
 * software event on its PMU.
 */
void perf_swevent_init_cpu(unsigned int cpu)
{
	struct perf_swevent_table *swc = per_cpu_ptr(&perf_swevent_cpu, cpu);
	int i;

	if (cpu_online(cpu))
		return;
	for (i = 0; i < PERF_COUNT_SW_MAX; i++)
		WARN_ON_ONCE(!hlist_empty(&swc->on_pmu[i]));
}

/**
 * perf_swevent_setup - register the software PMUs (boot, once)
 */
void __init perf_swevent_setup(void)
{
	WARN_ON(perf_pmu_register(&perf_swevent_pmu, "software",
				  PERF_TYPE_SOFTWARE));
	WARN_ON(perf_pmu_register(&perf_cpu_clock_pmu, "cpu_clock", -1));
	WARN_ON(perf_pmu_register(&perf_task_clock_pmu, "task_clock", -1));
}
