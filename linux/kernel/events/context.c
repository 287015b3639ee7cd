// SPDX-License-Identifier: GPL-2.0
/*
 * Event contexts and putting events on and off the PMUs.
 *
 * A context holds the events of one task (task->perf_event_ctxp) or the
 * CPU-wide events of one CPU (per_cpu(perf_cpu_context).ctx).  Inside a
 * context the events are split by PMU into perf_event_pmu_context ("epc")
 * objects, each with a list of pinned and a list of flexible group leaders
 * (groups.c keeps them, and those that are off apart).
 * A CPU context's epc for a PMU is embedded in that PMU's per-CPU
 * perf_cpu_pmu_context ("cpc"); a task context's epcs are allocated.
 *
 * Locking: the rules of the context locks and of the per-CPU scheduling
 * state are the DOC: blocks "Context locks" and "Per-CPU state" below.
 * Documentation/perf/core/locking.rst shows them with every other lock of
 * the core, the order they nest in, and what runs in NMI, hard IRQ and
 * the context switch.
 *
 * Time: ctx->time advances while (ctx->is_active & EVENT_TIME); an event's
 * total_time_enabled advances with ctx->time while its state is INACTIVE or
 * ACTIVE, and total_time_running while ACTIVE.  event->tstamp is the
 * ctx->time of the event's last update.
 *
 * Staying on across switches
 * --------------------------
 * The software or task_clock PMU's sub-context of a task context stays on
 * the PMU when its task is switched out if every event in it may
 * (perf_swevent_may_stay_on(): counting, not bound to a CPU; counted in
 * epc->nr_stay_on, PERF_ATTACH_STAYS_ON): the switch then does nothing per
 * event.  It is correct because nothing of such an event is tied to the
 * CPU it went on at:
 * - a software event counts only when perf_sw_event() finds it, through
 *   cpc->task_epc of the CPU its context is active on, which is cleared
 *   when the context goes and set when it comes, on any CPU; a task clock
 *   counts ctx->time, which stands still while the context is inactive;
 * - its times are kept in ctx->time, which stands still while the context
 *   is inactive: staying ACTIVE adds to total_time_enabled and _running
 *   exactly what going off and on again would;
 * - these PMUs have no per-CPU state (no counter, no exclusive groups:
 *   group_fits() does not apply to them), and their pmu->del() and
 *   pmu->read() may run wherever the context's lock is held.
 * So an inactive task context may have ACTIVE events.  Anything that takes
 * one off does it under ctx->lock as for an active context, with cpuctx
 * NULL.  event->oncpu of such an event is the CPU its context was last
 * active on: the sched-in walk sets it again (and rewrites a mapped
 * event's control page, whose times start over there) when it meets the
 * group ACTIVE.  A read sent there takes ctx->lock unless the context is
 * active there (perf_event_on_this_cpu()), and reads it right either way.
 * Coming back to the CPU it stayed on at (epc->stayed_cpu), with nothing
 * changed while it was out (ctx->changed_out, set where ctx_function_call()
 * changes an inactive context) and no mapped event (ctx->nr_mapped), the
 * sub-context needs no walk at all.
 */

/**
 * DOC: Per-CPU state
 *
 * ``cpuctx->task_ctx``, ``cpc->task_epc``, ``cpc->active_oncpu``,
 * ``cpc->exclusive`` and the per-CPU list of ``sched_task`` requests have no
 * lock of their own: they are written only on their own CPU with interrupts
 * disabled (context switch, IPI handlers, the multiplexing timer, hotplug
 * callbacks), and the scheduling code changes them with the relevant
 * ``ctx->lock`` held.  ``perf_sched_cb_inc()`` and ``perf_sched_cb_dec()``
 * must be called on the CPU concerned with interrupts disabled.
 */

/**
 * DOC: Context locks
 *
 * ``ctx->mutex`` (``struct perf_event_context``, a mutex)
 *   Serialises every change made to a context from process context:
 *   installing and removing events, moving a group to another PMU's
 *   sub-context, enable, disable, reset, refresh, period, the ioctls, exec's
 *   enable_on_exec and remove_on_exec, and the task's exit.  While it is
 *   held an event cannot move to another context; ``perf_event_ctx_lock()``
 *   takes it and checks afterwards that the event is still in that context
 *   (``perf_pmu_migrate_context()`` may have moved it).  It tries the mutex
 *   first under RCU, which keeps a context's memory; only when it must
 *   sleep on the mutex does it hold a context reference meanwhile.  Once it
 *   holds the mutex of the event's context, the event's own reference
 *   keeps the context, so a caller that drops the mutex before unlocking
 *   takes a reference of its own (``PERF_EVENT_IOC_SET_FILTER`` on a
 *   tracing event).  It also keeps a
 *   group's membership still, so ``for_each_sibling_event()`` may be used
 *   under it.  Nested annotations: a parent task's context before the
 *   child's (fork), the source and destination CPU contexts in CPU number
 *   order (``perf_pmu_migrate_context()``), and a group leader's context
 *   inside the SRCU section of event initialisation.  CPU contexts have a
 *   lockdep class of their own.
 *
 *   ``PERF_EVENT_IOC_ENABLE`` and ``PERF_EVENT_IOC_DISABLE`` (without
 *   ``PERF_IOC_FLAG_GROUP``) from the task that owns the context, on an
 *   event of the ``software``, ``cpu_clock`` or ``task_clock`` PMU that
 *   leads its group in that PMU's sub-context and is not inherited, skip
 *   it while that context is active on the caller's CPU
 *   (``perf_event_toggle_own()``): the change is the one step the locked
 *   path makes there, under the task context's ``ctx->lock`` with IRQs
 *   off.  The locked path's IPI also holds the CPU context's lock, which
 *   guards nothing such a step touches: these PMUs keep no per-CPU
 *   scheduling state and never refuse a group, and an active context
 *   changes only on its CPU, where nothing else runs meanwhile.  Other
 *   threads' changes under the mutex are single steps under ``ctx->lock``
 *   too, but for moving a group to another PMU's sub-context, which takes
 *   the group out of the context meanwhile: an event found out of its
 *   context, or in a hardware PMU's sub-context, takes the locked path,
 *   which waits for the move.  Breakpoint events keep the mutex (their
 *   ``PERF_EVENT_IOC_MODIFY_ATTRIBUTES`` disables, changes and enables
 *   under it).
 *
 *   One ioctl lets go of it for a while and takes it again:
 *   ``PERF_EVENT_IOC_SET_FILTER``, with address filters while it parses the
 *   text and frees the old filters (a path lookup may take
 *   ``exec_update_lock``, which nests outside ``ctx->mutex``), and with a
 *   tracing filter while the tracing code builds it.  The caller's
 *   reference keeps the context alive meanwhile.
 *
 * ``ctx->lock`` (``struct perf_event_context``, a raw spinlock)
 *   Always taken with interrupts disabled.  Protects what the scheduling
 *   code reads and writes: the group lists and trees of the context's
 *   sub-contexts, ``ctx->pmu_ctx_list``, ``event->state``, ``event->oncpu``,
 *   the times (``tstamp``, ``total_time_enabled``, ``total_time_running``),
 *   ``ctx->is_active``, ``ctx->time``, ``ctx->timestamp``, and the event and
 *   group counters of contexts and sub-contexts.  When the CPU context and a
 *   task context are both locked, the CPU context's lock comes first.  The
 *   multiplexing timer reorders flexible groups under ``ctx->lock`` alone,
 *   so the group lists must be read under ``ctx->lock``, not under
 *   ``ctx->mutex`` alone.  The same lock covers the list of leaders that
 *   are off, ``ctx->nr_queued`` and ``ctx->groups_gen``; the context-switch
 *   hook reads ``nr_queued`` without it first, takes it to be sure when it
 *   reads zero, and reads it again under it before it makes the context
 *   active: a context must never be active without events, as nothing
 *   would then take it off the CPU once the last task event is gone and
 *   the context-switch hooks with it.  ``groups_gen`` is also read
 *   without the lock, by a fork, holding the parent context's
 *   ``ctx->mutex``: that orders it against installs and removals, and the
 *   release/acquire pair on the counter against a state change made under
 *   ``ctx->lock`` alone.  What the fork keeps (``scan_gen``, ``scan_top``,
 *   ``scan_copy`` of ``struct perf_task_ctx_extra``) is under ``ctx->mutex``.
 *
 * Which holder may touch an active context is a separate rule: the events of
 * a context that is active on a CPU are changed only on that CPU (by IPI
 * from elsewhere), with its ``ctx->lock`` held.  An inactive context is
 * changed by whoever holds its ``ctx->lock`` (after checking that it is
 * inactive and its task is not running).  Such a context may still have
 * ``ACTIVE`` events: the software PMU's sub-context of a task context stays
 * on while its task is out (design.rst, "Context switch"), and whoever
 * changes it then takes those events off under ``ctx->lock`` with no CPU
 * context, which that PMU allows.
 */

#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"
#include "cgroup.h"
#include "context.h"
#include "groups.h"
#include "overflow.h"
#include "records.h"
#include "read.h"
#include "rotate.h"
#include "swevent.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_context);
DEFINE_STATIC_KEY_FALSE(perf_sched_events);

static DEFINE_PER_CPU(struct list_head, perf_sched_cb_list);

/* ---------------------------------------------------------------------
 * Time of cgroup events.  A cgroup's clock on a CPU runs while a task of
 * it or of a cgroup below it runs there (and the CPU context has cgroup
 * events); cgroup events keep their times in it instead of the context's
 * time.  cgroup.c keeps the clocks; they change on their CPU only, IRQs
 * off, under the CPU context's lock.
 */

/*
 * Events' time: the context's, or for a cgroup event its cgroup's.  This
 * and event_update_time() are inlined: every state change calls them.
 */
static __always_inline u64 event_clock(struct perf_event *event)
{
	if (perf_event_is_cgroup(event))
		return perf_cgroup_event_time(event);
	return event->ctx->time;
}

static __always_inline void event_update_time(struct perf_event *event)
{
	u64 now = event_clock(event);
	u64 delta = now - event->tstamp;

	if (event->state >= PERF_EVENT_STATE_INACTIVE)
		event->total_time_enabled += delta;
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		event->total_time_running += delta;
	event->tstamp = now;
}

static __always_inline void event_set_state(struct perf_event *event,
					    enum perf_event_state state)
{
	event_update_time(event);
	WRITE_ONCE(event->state, state);
}

static void group_update_time(struct perf_event *leader)
{
	struct perf_event *sibling;

	event_update_time(leader);
	for_each_sibling_event(sibling, leader)
		event_update_time(sibling);
}

/**
 * perf_event_times_local - an event's enabled and running times, up to now
 * @event: an event whose context is active on this CPU or nowhere (or
 *	   whose ctx->lock is held); IRQs off
 * @enabled: total_time_enabled as of now
 * @running: total_time_running as of now
 */
void perf_event_times_local(struct perf_event *event, u64 *enabled,
			    u64 *running)
{
	struct perf_event_context *ctx = event->ctx;
	u64 now, delta;

	/* one word each: see perf_ctx_set_timestamp() */
	if (READ_ONCE(ctx->is_active) & EVENT_TIME)
		now = perf_clock() + READ_ONCE(ctx->timeoffset);
	else
		now = READ_ONCE(ctx->time);
	if (perf_event_is_cgroup(event))
		now = perf_cgroup_event_time(event);
	/*
	 * A lock-free reader on another CPU than the context's (a control
	 * page written at mmap() of another task's event) may see a clock a
	 * little behind that CPU's: never less than nothing.
	 */
	delta = now > event->tstamp ? now - event->tstamp : 0;
	*enabled = event->total_time_enabled;
	*running = event->total_time_running;
	if (event->state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}

/* ---------------------------------------------------------------------
 * Putting events on and off the PMU.  ctx->lock held, IRQs off, on the
 * CPU the context is (being made) active on.
 */

/* Does @epc stay on while its task context is out (rules at the top)? */
static inline bool perf_epc_stays_on(struct perf_event_pmu_context *epc)
{
	return epc->nr_stay_on && epc->nr_stay_on == epc->nr_events;
}

static __always_inline bool event_runs_on_this_cpu(struct perf_event *event)
{
	struct pmu *pmu = perf_group_pmu(event);
	int cpu = smp_processor_id();

	if (event->cpu != -1 && event->cpu != cpu)
		return false;
	/* a PMU with counters on some CPUs only (big.LITTLE) skips the rest */
	if (pmu->filter && pmu->filter(pmu, cpu))
		return false;
	return perf_cgroup_event_matches(event);
}

static void event_sched_out(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	event->pmu->del(event, 0);
	event->oncpu = -1;
	event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	event->pmu_ctx->nr_active--;
	event->ctx->nr_active--;
}

static int event_sched_in(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);
	if (event->state <= PERF_EVENT_STATE_OFF)
		return 0;
	/* a second pmu->add() would link the event into the PMU twice */
	if (WARN_ON_ONCE(event->state == PERF_EVENT_STATE_ACTIVE))
		return 0;
	WRITE_ONCE(event->oncpu, smp_processor_id());
	event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	perf_throttle_sched_in(event);
	if (unlikely(event->pmu->capabilities & PERF_PMU_CAP_ITRACE))
		perf_log_itrace_start(event);
	if (event->pmu->add(event, PERF_EF_START)) {
		event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}
	event->pmu_ctx->nr_active++;
	event->ctx->nr_active++;
	if (event->rb)
		perf_event_update_userpage(event);
	return 0;
}

static void group_sched_out(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;
	struct perf_event *sibling;

	lockdep_assert_held(&epc->ctx->lock);
	if (leader->state != PERF_EVENT_STATE_ACTIVE)
		return;
	if (!leader->nr_siblings) {
		/* one event comes off at once anyway: no PMU round trip */
		event_sched_out(leader);
	} else {
		perf_pmu_disable(epc->pmu);
		event_sched_out(leader);
		for_each_sibling_event(sibling, leader)
			event_sched_out(sibling);
		perf_pmu_enable(epc->pmu);
	}
	/* also where the context is inactive: a group that stayed on */
	if (pmu_is_software(epc->pmu))
		return;
	perf_this_cpc(epc->pmu)->active_oncpu--;
	if (leader->attr.exclusive)
		perf_this_cpc(epc->pmu)->exclusive = 0;
}

static bool group_fits(struct perf_event *leader)
{
	struct pmu *pmu = perf_group_pmu(leader);
	struct perf_cpu_pmu_context *cpc;

	if (pmu_is_software(pmu))
		return true;
	cpc = perf_this_cpc(pmu);
	if (cpc->exclusive)
		return false;
	if (leader->attr.exclusive && cpc->active_oncpu)
		return false;
	return true;
}

/* A group of several events goes on whole or not at all: one transaction. */
static int group_add_txn(struct pmu *pmu, struct perf_event *leader)
{
	struct perf_event *sibling, *failed = NULL;

	pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
	if (event_sched_in(leader)) {
		pmu->cancel_txn(pmu);
		return -EAGAIN;
	}
	for_each_sibling_event(sibling, leader) {
		if (event_sched_in(sibling)) {
			failed = sibling;
			break;
		}
	}
	if (!failed && !pmu->commit_txn(pmu))
		return 0;
	/* undo: everything added before the failure comes off again */
	for_each_sibling_event(sibling, leader) {
		if (sibling == failed)
			break;
		event_sched_out(sibling);
	}
	event_sched_out(leader);
	pmu->cancel_txn(pmu);
	return -EAGAIN;
}

static int group_sched_in(struct perf_event *leader)
{
	struct pmu *pmu = leader->pmu_ctx->pmu;
	struct perf_cpu_pmu_context *cpc;

	lockdep_assert_held(&leader->ctx->lock);
	if (leader->state <= PERF_EVENT_STATE_OFF)
		return 0;
	if (!group_fits(leader))
		return -EBUSY;
	/* a lone event fits or not by its own add(): no transaction */
	if (leader->nr_siblings ? group_add_txn(pmu, leader) :
				  event_sched_in(leader))
		return -EAGAIN;
	if (pmu_is_software(pmu))
		return 0;

	cpc = perf_this_cpc(pmu);
	cpc->active_oncpu++;
	if (leader->attr.exclusive)
		cpc->exclusive = 1;
	return 0;
}

void perf_epc_sched_out(struct perf_event_pmu_context *epc, int what)
{
	struct perf_event *leader;
	struct group_walk w __uninitialized;

	lockdep_assert_held(&epc->ctx->lock);
	if (!epc->nr_active)
		return;
	perf_pmu_disable(epc->pmu);
	if (what & EVENT_PINNED) {
		perf_group_walk_start(&w, epc, true);
		while ((leader = perf_group_walk_next(&w)))
			group_sched_out(leader);
	}
	if (what & EVENT_FLEXIBLE) {
		perf_group_walk_start(&w, epc, false);
		while ((leader = perf_group_walk_next(&w)))
			group_sched_out(leader);
	}
	perf_pmu_enable(epc->pmu);
}

/**
 * perf_epc_sched_out_leaving - take off the groups of a task context going out
 * @epc: a sub-context of a task context that this CPU no longer names
 *	 (cpuctx->task_ctx cleared already); its ctx->lock held
 *
 * perf_epc_sched_out(@epc, EVENT_ALL), and where none of its groups is on
 * but the context has user-read events, a pmu_disable()/pmu_enable() pair
 * all the same: the driver may have opened user access for them, and
 * closes it there (pmu-driver.rst).
 */
void perf_epc_sched_out_leaving(struct perf_event_pmu_context *epc)
{
	lockdep_assert_held(&epc->ctx->lock);
	/* the rule of pmu-driver.rst: drivers no longer see it as running */
	lockdep_assert(this_cpu_read(perf_cpu_context.task_ctx) != epc->ctx);
	if (likely(!epc->ctx->nr_user) || epc->nr_active) {
		perf_epc_sched_out(epc, EVENT_ALL);
		return;
	}
	perf_pmu_disable(epc->pmu);
	perf_pmu_enable(epc->pmu);
}

/*
 * A group that stayed on while its task context was inactive, met by the
 * sched-in walk of the context on this CPU: it is on here now.
 */
static void event_resume(struct perf_event *event, int cpu)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	if (event->oncpu != cpu)
		WRITE_ONCE(event->oncpu, cpu);
	if (unlikely(event->rb))
		perf_event_update_userpage(event);
}

static void group_resume(struct perf_event *leader)
{
	int cpu = smp_processor_id();
	struct perf_event *sibling;

	event_resume(leader, cpu);
	for_each_sibling_event(sibling, leader)
		event_resume(sibling, cpu);
}

/*
 * A pinned leader went into error: its poll() says EPOLLERR from now on.
 * Wake the waiters, and send an O_ASYNC owner SIGIO with POLL_ERR, from
 * the event's IRQ work (this runs under the runqueue lock at a switch).
 */
static void pinned_error_wakeup(struct perf_event *leader)
{
	if (READ_ONCE((leader->parent ?: leader)->fasync))
		WRITE_ONCE(leader->pending_kill, POLL_ERR);
	perf_event_queue_wakeup(leader);
}

/*
 * Put the pinned or the flexible groups that may run on this CPU on the
 * PMU, in group_seq order.  A pinned group that does not fit goes into
 * error; a flexible one waits for multiplexing to rotate it in.
 */
static void epc_groups_sched_in(struct perf_event_pmu_context *epc,
				bool pinned)
{
	struct perf_event *leader;
	struct group_walk w __uninitialized;

	perf_group_walk_start(&w, epc, pinned);
	while ((leader = perf_group_walk_next(&w))) {
		if (leader->state == PERF_EVENT_STATE_OFF) {
			perf_groups_park(leader);
			continue;
		}
		if (leader->state == PERF_EVENT_STATE_ACTIVE) {
			if (leader->attach_state & PERF_ATTACH_STAYS_ON)
				group_resume(leader);
			continue;
		}
		if (leader->state != PERF_EVENT_STATE_INACTIVE ||
		    !event_runs_on_this_cpu(leader) || !group_sched_in(leader))
			continue;
		if (pinned) {
			group_update_time(leader);
			event_set_state(leader, PERF_EVENT_STATE_ERROR);
			pinned_error_wakeup(leader);
		} else {
			epc->rotate_necessary = 1;
			perf_mux_timer_start(perf_this_cpc(epc->pmu));
		}
	}
}

void perf_epc_sched_in(struct perf_event_pmu_context *epc, int what)
{
	lockdep_assert_held(&epc->ctx->lock);
	if (!epc->nr_events)
		return;
	perf_pmu_disable(epc->pmu);
	if (what & EVENT_PINNED)
		epc_groups_sched_in(epc, true);
	if (what & EVENT_FLEXIBLE)
		epc_groups_sched_in(epc, false);
	perf_pmu_enable(epc->pmu);
}

void perf_ctx_sched_out(struct perf_event_context *ctx, int what)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
		perf_epc_sched_out(epc, what);
}

void perf_ctx_sched_in(struct perf_event_context *ctx, int what)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
		perf_epc_sched_in(epc, what);
}

/**
 * perf_pmu_resched_locked - put one PMU's events of this CPU back in order
 * @cpuctx: this CPU's context; its ctx->lock held, IRQs off
 * @pmu: the PMU
 * @fresh: a context whose time the caller has just brought up, or NULL
 *
 * Reschedules everything of @pmu on this CPU so that the priorities hold:
 * CPU pinned, task pinned, CPU flexible, task flexible.
 *
 * Both contexts' times are brought up to now before anything comes off,
 * except @fresh's (NULL: none): the caller has just done that in this
 * same locked section, and events it enabled there read that time as
 * their start.  Moving it again would count the resched itself as time
 * enabled but not running.
 */
void perf_pmu_resched_locked(struct perf_cpu_context *cpuctx,
			     struct pmu *pmu,
			     struct perf_event_context *fresh)
{
	struct perf_cpu_pmu_context *cpc = perf_this_cpc(pmu);
	struct perf_event_pmu_context *tepc = cpc->task_epc;

	lockdep_assert_held(&cpuctx->ctx.lock);
	if (tepc)
		lockdep_assert_held(&tepc->ctx->lock);
	if (fresh != &cpuctx->ctx)
		perf_ctx_update_time(&cpuctx->ctx);
	if (tepc && tepc->ctx != fresh)
		perf_ctx_update_time(tepc->ctx);
	perf_pmu_disable(pmu);
	if (tepc)
		perf_epc_sched_out(tepc, EVENT_ALL);
	perf_epc_sched_out(&cpc->epc, EVENT_FLEXIBLE);
	if (cpuctx->ctx.is_active)
		perf_epc_sched_in(&cpc->epc, EVENT_PINNED);
	if (tepc)
		perf_epc_sched_in(tepc, EVENT_PINNED);
	if (cpuctx->ctx.is_active)
		perf_epc_sched_in(&cpc->epc, EVENT_FLEXIBLE);
	if (tepc)
		perf_epc_sched_in(tepc, EVENT_FLEXIBLE);
	perf_pmu_enable(pmu);
}

/* ---------------------------------------------------------------------
 * Task contexts on context switch
 */

static void sched_cb_call(struct task_struct *task, bool sched_in)
{
	struct perf_cpu_pmu_context *cpc;
	struct list_head *head = this_cpu_ptr(&perf_sched_cb_list);

	list_for_each_entry(cpc, head, sched_cb_entry) {
		struct pmu *pmu = cpc->epc.pmu;

		if (!pmu->sched_task)
			continue;
		perf_pmu_disable(pmu);
		pmu->sched_task(cpc->task_epc ?: &cpc->epc, task, sched_in);
		perf_pmu_enable(pmu);
	}
}

/*
 * A sub-context that stayed on comes back to the CPU it stayed on at,
 * with nothing changed since (no event installed, enabled or taken off
 * while its context was out, none with a control page to rewrite): every
 * group is on, with this CPU in oncpu, and the sched-in walk would find
 * nothing to do.
 */
static __always_inline bool
epc_resumes_as_it_was(struct perf_event_pmu_context *epc)
{
	struct perf_event_context *ctx = epc->ctx;

	if (epc->stayed_cpu != smp_processor_id() || ctx->changed_out ||
	    atomic_read(&ctx->nr_mapped))
		return false;
	epc->stayed_cpu = -1;
	return true;
}

/*
 * Make @ctx this CPU's task context and put its events on.  IRQs off.
 * @if_queued: only if it has a group that may run, as seen under its lock
 * (a context switch: a lockless look may be older than a removal that
 * just emptied it, and an empty context must not stay active).
 *
 * The CPU context's lock is taken only for a context with a hardware
 * PMU's sub-context, whose groups may have to make room among the CPU's
 * (perf_pmu_resched_locked()); software sub-contexts touch nothing of the
 * CPU context's.  One that gains a hardware sub-context meanwhile (its
 * count changes under ctx->lock) is locked again, in order.
 */
static __always_inline void task_ctx_activate(struct perf_cpu_context *cpuctx,
					      struct perf_event_context *ctx,
					      bool if_queued)
{
	struct perf_event_pmu_context *epc;
	bool cpu_locked = READ_ONCE(ctx->nr_hw_epcs);

	if (cpu_locked)
		raw_spin_lock(&cpuctx->ctx.lock);
	raw_spin_lock(&ctx->lock);
	if (unlikely(!cpu_locked && ctx->nr_hw_epcs)) {
		raw_spin_unlock(&ctx->lock);
		raw_spin_lock(&cpuctx->ctx.lock);
		raw_spin_lock(&ctx->lock);
		cpu_locked = true;
	}
	if (if_queued && !ctx->nr_queued)
		goto unlock;
	cpuctx->task_ctx = ctx;
	perf_ctx_set_timestamp(ctx, perf_clock());
	ctx->is_active = EVENT_ALL | EVENT_TIME;
	/*
	 * The clock starts now: a task clock that goes on below starts from
	 * ctx->time as it is, where its running time starts too.
	 */
	cpuctx->time_now = ctx;
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		struct perf_cpu_pmu_context *cpc = perf_this_cpc(epc->pmu);

		/* empty sub-contexts may be freed at any time: not linked */
		if (!epc->nr_events)
			continue;
		cpc->task_epc = epc;
		if (epc_resumes_as_it_was(epc))
			continue;
		epc->stayed_cpu = -1;
		/*
		 * The task's pinned groups come before the CPU's flexible
		 * ones; software PMUs never refuse an event, so they skip
		 * the round trip.
		 */
		if (pmu_is_software(epc->pmu) || !cpc->epc.nr_active) {
			perf_epc_sched_in(epc, EVENT_ALL);
			continue;
		}
		perf_pmu_resched_locked(cpuctx, epc->pmu, ctx);
	}
	cpuctx->time_now = NULL;
	ctx->changed_out = 0;
unlock:
	raw_spin_unlock(&ctx->lock);
	if (cpu_locked)
		raw_spin_unlock(&cpuctx->ctx.lock);
}

/* perf_task_ctx_deactivate(), inlined into the context switch */
static __always_inline void task_ctx_deactivate(struct perf_cpu_context *cpuctx,
						struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;

	raw_spin_lock(&ctx->lock);
	perf_ctx_update_time(ctx);
	/* a task clock taken off below stops where ctx->time stopped */
	cpuctx->time_now = ctx;
	/*
	 * The CPU is no longer this task's before any PMU is enabled again
	 * below: a driver's pmu_enable() must find the task that runs next
	 * (none yet) in perf_cpu_task_ctx(), not this one (pmu-driver.rst).
	 */
	cpuctx->task_ctx = NULL;
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		perf_this_cpc(epc->pmu)->task_epc = NULL;
		/* -1 too where it goes off: a later skip must not find it */
		if (perf_epc_stays_on(epc)) {
			epc->stayed_cpu = smp_processor_id();
		} else {
			epc->stayed_cpu = -1;
			perf_epc_sched_out_leaving(epc);
		}
		epc->rotate_necessary = 0;
	}
	cpuctx->time_now = NULL;
	ctx->is_active = 0;
	if (unlikely(atomic_read(&ctx->nr_mapped)))
		perf_task_clock_pages_stand(ctx);
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_task_ctx_deactivate - take this CPU's task context off it
 * @cpuctx: this CPU's context; IRQs off
 * @ctx: cpuctx->task_ctx
 *
 * Its groups go off the PMUs, but those of sub-contexts that stay on.
 */
void perf_task_ctx_deactivate(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx)
{
	task_ctx_deactivate(cpuctx, ctx);
}

/**
 * __perf_event_task_sched_out - the scheduler switches away from @prev
 * @prev: the task leaving the CPU
 * @next: the task coming
 *
 * Called with the runqueue lock held and IRQs off, when perf_sched_events
 * is on.
 */
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = cpuctx->task_ctx;

	lockdep_assert_irqs_disabled();
	if (perf_sb_switch_wanted())
		perf_event_switch_record(prev, next, false);
	if (!list_empty(this_cpu_ptr(&perf_sched_cb_list)))
		sched_cb_call(prev, false);
	if (ctx && ctx->task == prev)
		task_ctx_deactivate(cpuctx, ctx);
}

/*
 * Whether a task context coming on has groups that may run (not off).
 * Read without the lock first; a context seen without may be getting its
 * first one (an install or an enable) from ctx_function_call() right now,
 * which tests task_curr() under ctx->lock: taking the lock orders this
 * read after that change, or the change after this task became current
 * (and it sends the IPI).
 */
static bool perf_task_ctx_wanted(struct perf_event_context *ctx)
{
	int nr;

	if (likely(READ_ONCE(ctx->nr_queued)))
		return true;
	raw_spin_lock(&ctx->lock);
	nr = ctx->nr_queued;
	raw_spin_unlock(&ctx->lock);
	return nr;
}

/**
 * __perf_event_task_sched_in - the scheduler has switched to @task
 * @prev: the task that left
 * @task: the task now running
 *
 * Called with IRQs off, when perf_sched_events is on.
 */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx;

	lockdep_assert_irqs_disabled();
	/* the CPU's cgroup events first: the task's events come after them */
	perf_cgroup_sched_in(task);
	ctx = rcu_dereference_sched(*task_ctxp(task));
	if (ctx && cpuctx->task_ctx != ctx && perf_task_ctx_wanted(ctx)) {
		if (cpuctx->task_ctx)	/* left behind by an odd switch */
			perf_task_ctx_deactivate(cpuctx, cpuctx->task_ctx);
		task_ctx_activate(cpuctx, ctx, true);
	}
	if (!list_empty(this_cpu_ptr(&perf_sched_cb_list)))
		sched_cb_call(task, true);
	if (perf_sb_switch_wanted())
		perf_event_switch_record(task, prev, true);
}

/**
 * perf_cpu_task_ctx - the context of the task running on this CPU
 *
 * Return: the context if it is active here, else NULL.  IRQs off.
 */
struct perf_event_context *perf_cpu_task_ctx(void)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr(&perf_cpu_context)->task_ctx;
}

/* ---------------------------------------------------------------------
 * Running a function where a context is active
 */

/*
 * What keeps an event in its context while it is changed: its context's
 * mutex, or for an inherited copy the child_mutex of its parent (ioctls on
 * the parent reach the copies that way; the exit path removes a copy under
 * that mutex too).
 */
static void assert_event_locked(struct perf_event *event)
{
	if (event->parent)
		lockdep_assert_held(&event->parent->child_mutex);
	else
		lockdep_assert_held(&event->ctx->mutex);
}

struct ctx_call {
	struct perf_event_context	*ctx;
	ctx_func_t			func;
	void				*info;
	int				done;
};

/* IPI handler: run the function if the context is (or can be) active here. */
static void ctx_call_ipi(void *data)
{
	struct ctx_call *call = data;
	struct perf_event_context *ctx = call->ctx, *tctx;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);

	if (ctx->task) {
		if (cpuctx->task_ctx != ctx) {
			if (ctx->task != current ||
			    rcu_access_pointer(*task_ctxp(current)) != ctx)
				return;
			/* the task runs here but had no events when it came */
			if (cpuctx->task_ctx)
				perf_task_ctx_deactivate(cpuctx, cpuctx->task_ctx);
			task_ctx_activate(cpuctx, ctx, false);
		}
	} else if (perf_cpu_ctx_cpu(ctx) != smp_processor_id()) {
		return;
	}
	/*
	 * Both contexts of this CPU, whichever @ctx is: @func may reschedule
	 * a PMU (perf_pmu_resched_locked()), which takes the running task's
	 * groups off and on as well as the CPU's.
	 */
	tctx = cpuctx->task_ctx;
	raw_spin_lock(&cpuctx->ctx.lock);
	perf_ctx_lock_other(cpuctx, tctx);
	perf_ctx_update_time(ctx);
	cpuctx->time_now = ctx;
	call->func(cpuctx, ctx, call->info);
	cpuctx->time_now = NULL;
	/* a task context without events does not stay active */
	if (ctx != &cpuctx->ctx && !ctx->nr_events && cpuctx->task_ctx == ctx) {
		struct perf_event_pmu_context *epc;

		list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
			perf_this_cpc(epc->pmu)->task_epc = NULL;
		ctx->is_active = 0;
		cpuctx->task_ctx = NULL;
	}
	perf_ctx_unlock_other(cpuctx, tctx);
	raw_spin_unlock(&cpuctx->ctx.lock);
	call->done = 1;
}

/**
 * perf_ctx_call_local - ctx_function_call()'s work, in a cross-call
 * @ctx: the context
 * @func: what to run, with @ctx->lock held
 * @info: passed to @func
 *
 * For the handler of a caller's own cross-call to many CPUs at once: runs
 * @func if @ctx is this CPU's context or the task context active here.
 * IRQs off.
 *
 * Return: true if @func ran.
 */
bool perf_ctx_call_local(struct perf_event_context *ctx, ctx_func_t func,
			 void *info)
{
	struct ctx_call call = { .ctx = ctx, .func = func, .info = info };

	lockdep_assert_irqs_disabled();
	ctx_call_ipi(&call);
	return call.done;
}

/* @ctx is a task's context, and that task is running with it somewhere. */
static bool ctx_task_running(struct perf_event_context *ctx)
{
	struct task_struct *task = ctx->task;

	return task && task_curr(task) &&
	       rcu_access_pointer(*task_ctxp(task)) == ctx;
}

/**
 * ctx_function_call - run a function where a context is active
 * @ctx: the context
 * @func: what to run, with @ctx->lock held and IRQs off
 * @info: passed to @func
 *
 * Runs @func on the CPU where @ctx is active, or here if it is active
 * nowhere; @func sees cpuctx == NULL in the second case.  The caller holds
 * ctx->mutex, or, for an inherited copy, its parent's child_mutex
 * (assert_event_locked()), so the event stays in its context meanwhile.
 */
void ctx_function_call(struct perf_event_context *ctx, ctx_func_t func,
		       void *info)
{
	struct ctx_call call = { .ctx = ctx, .func = func, .info = info };

	/*
	 * The caller's own context (its ioctls on its own events) is active
	 * on this CPU, or can be made so: do what the IPI would do, without
	 * the cross-call.  With IRQs off the task stays here.
	 */
	if (ctx->task == current) {
		local_irq_disable();
		ctx_call_ipi(&call);
		local_irq_enable();
		if (call.done)
			return;
		/* taken from the exiting task: active nowhere, for good */
	}

	for (;;) {
		struct task_struct *task = ctx->task;
		int cpu = task ? task_cpu(task) : perf_cpu_ctx_cpu(ctx);

		if (!task || (task != current && task_curr(task))) {
			call.done = 0;
			if (cpu_online(cpu))
				smp_call_function_single(cpu, ctx_call_ipi,
							 &call, 1);
			if (call.done)
				return;
		}
		raw_spin_lock_irq(&ctx->lock);
		/*
		 * Inactive, and its task not running: a sched-in from now on
		 * waits for this lock (perf_task_ctx_wanted()) and sees what
		 * @func does.  A task that came on since the test above gets
		 * the IPI instead.
		 */
		if (!ctx->is_active && !ctx_task_running(ctx)) {
			perf_ctx_update_time(ctx);
			func(NULL, ctx, info);
			ctx->changed_out = 1;
			raw_spin_unlock_irq(&ctx->lock);
			return;
		}
		raw_spin_unlock_irq(&ctx->lock);
		cpu_relax();
	}
}

/* ---------------------------------------------------------------------
 * Install and remove
 */

static void epc_account(struct perf_event_pmu_context *epc, int delta)
{
	struct perf_event_context *ctx = epc->ctx;

	perf_groups_changed(ctx);
	epc->nr_events += delta;
	/* a CPU context lists only the PMUs it has events for */
	if (!ctx->task) {
		if (delta > 0 && epc->nr_events == delta)
			list_add_tail(&epc->pmu_ctx_entry, &ctx->pmu_ctx_list);
		else if (!epc->nr_events)
			list_del_init(&epc->pmu_ctx_entry);
	}
}

/*
 * A cgroup event joins or leaves its CPU context.  The first one starts
 * the cgroup clocks of the task running here (if the context is active
 * here, else the CPU coming online does), the last one stops them.
 */
static void cgrp_account(struct perf_cpu_context *cpuctx,
			 struct perf_event *event, int delta)
{
#ifdef CONFIG_CGROUP_PERF
	struct perf_event_context *ctx = event->ctx;

	if (!event->cgrp)
		return;
	ctx->nr_cgroups += delta;
	event->pmu_ctx->nr_cgroups += delta;
	if (!cpuctx)
		return;
	if (delta > 0 && ctx->nr_cgroups == delta)
		perf_cgroup_cpu_start(cpuctx);
	else if (!ctx->nr_cgroups)
		perf_cgroup_cpu_stop(cpuctx);
#endif
}

/* event_try_start() of an event in a group, or of a hardware PMU's */
static noinline void event_try_start_group(struct perf_cpu_context *cpuctx,
					   struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct pmu *pmu = perf_group_pmu(leader);
	int err = -EAGAIN;

	/*
	 * A new group, or a sibling joining a running group in place.  The
	 * PMU's enable after the add is what starts the event where it was
	 * the PMU's first (arm_pmu: PMCR_EL0.E); group_sched_in() has no
	 * transaction, whose commit would do that, for a lone event.
	 */
	perf_pmu_disable(pmu);
	if (leader == event)
		err = group_sched_in(leader);
	else if (leader->state == PERF_EVENT_STATE_ACTIVE)
		err = event_sched_in(event);
	perf_pmu_enable(pmu);
	/* no room to make for a counting software PMU: as below */
	if (!err || perf_pmu_counts_in_software(pmu))
		return;
	perf_pmu_resched_locked(cpuctx, pmu, event->ctx);
}

/*
 * Try to put a new or newly enabled event on the PMU, ctx active here.
 * Inlined: ENABLE of a lone software event is all of it.
 */
static __always_inline void event_try_start(struct perf_cpu_context *cpuctx,
					    struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (!cpuctx || leader->state < PERF_EVENT_STATE_INACTIVE ||
	    !event_runs_on_this_cpu(leader))
		return;
	/*
	 * A lone software event always fits: its add() is all.  The
	 * counting software PMUs refuse nothing but on a bug: no one to
	 * make room for (perf_event_toggle_own() holds no CPU context lock).
	 */
	if (leader == event && !leader->nr_siblings &&
	    pmu_is_software(perf_group_pmu(leader))) {
		if (event_sched_in(leader) &&
		    !perf_pmu_counts_in_software(perf_group_pmu(leader)))
			perf_pmu_resched_locked(cpuctx, perf_group_pmu(leader),
						event->ctx);
		return;
	}
	event_try_start_group(cpuctx, event);
}

/*
 * Group bookkeeping, kept here alone: a member joined or left @leader's
 * group (or @leader became a group).  Every member's read() and sample
 * sizes follow; the generation moves on, except in an inherited copy,
 * which has its original's (read() of a group with copies requires
 * that the two agree: the copy's members are the original's).
 */
static void group_changed(struct perf_event *leader)
{
	lockdep_assert_held(&leader->ctx->lock);
	if (leader->parent)
		leader->group_generation = leader->parent->group_generation;
	else
		leader->group_generation++;
	perf_group_calc_sizes(leader);
}

/* Link @event into @ctx and its group; nothing goes on the PMU yet. */
static void install_locked(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx,
			   struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&ctx->lock);
	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	if (event->attr.inherit_stat)
		ctx->nr_stat++;
	if (event->attr.freq && event->attr.sample_freq)
		ctx->nr_freq++;
	/* the PMU lets user space read the counter (arm64: EL0 access) */
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user++;
	epc_account(event->pmu_ctx, 1);
	if (perf_swevent_may_stay_on(event)) {
		event->attach_state |= PERF_ATTACH_STAYS_ON;
		event->pmu_ctx->nr_stay_on++;
	}
	if (cpuctx && ctx->task)
		perf_this_cpc(perf_group_pmu(event))->task_epc = event->pmu_ctx;
	cgrp_account(cpuctx, event, 1);
	event->tstamp = event_clock(event);
	event->attach_state |= PERF_ATTACH_CONTEXT;
	if (leader == event) {
		perf_groups_add(event);
		group_changed(event);
	} else if (!(event->attach_state & PERF_ATTACH_GROUP)) {
		/* (a sibling that moves with its group is still linked) */
		list_add_tail(&event->sibling_list, &leader->sibling_list);
		leader->nr_siblings++;
		event->attach_state |= PERF_ATTACH_GROUP;
		leader->attach_state |= PERF_ATTACH_GROUP;
		group_changed(leader);
	}
}

/**
 * perf_install_func - link an event into its context and try to start it
 * @cpuctx: this CPU's context, or NULL where @ctx is active nowhere
 * @ctx: the event's context; its ctx->lock held, and its ctx->mutex
 * @info: the event, its ->ctx already set
 */
void perf_install_func(struct perf_cpu_context *cpuctx,
		       struct perf_event_context *ctx, void *info)
{
	struct perf_event *event = info;

	install_locked(cpuctx, ctx, event);
	if (ctx->is_active)
		event_try_start(cpuctx, event);
}

/**
 * perf_install_event - attach an event to a context and start it
 * @ctx: the context; the caller's reference passes to the event
 * @event: the new event, its ->pmu_ctx set from perf_epc_find_get()
 * @cpu: the CPU of a CPU-wide event, else -1
 *
 * ctx->mutex held.
 */
void perf_install_event(struct perf_event_context *ctx,
			struct perf_event *event, int cpu)
{
	lockdep_assert_held(&ctx->mutex);
	WRITE_ONCE(event->ctx, ctx);
	/* its buffer came at open, before it had a context (rb_attach()) */
	if (event->rb)
		atomic_inc(&ctx->nr_mapped);
	ctx_function_call(ctx, perf_install_func, event);
	perf_sb_event_attach(event);
}

struct remove_args {
	struct perf_event	*event;
	unsigned int		flags;
};

/*
 * Take @event out of its group; a leader's siblings become groups of
 * their own and, where the context is running here, go straight back on
 * the PMU (they would otherwise wait for the task's next switch).
 */
static void detach_group(struct perf_cpu_context *cpuctx,
			 struct perf_event_context *ctx,
			 struct perf_event *event)
{
	struct perf_event *sibling, *tmp;

	if (event->group_leader != event) {
		struct perf_event *leader = event->group_leader;

		list_del_init(&event->sibling_list);
		leader->nr_siblings--;
		event->attach_state &= ~PERF_ATTACH_GROUP;
		group_changed(leader);
		return;
	}
	lockdep_assert_held(&ctx->lock);
	list_for_each_entry_safe(sibling, tmp, &event->sibling_list,
				 sibling_list) {
		list_del_init(&sibling->sibling_list);
		sibling->group_leader = sibling;
		sibling->attach_state &= ~PERF_ATTACH_GROUP;
		perf_group_calc_sizes(sibling);
		/* a member that left with its task stays out */
		if (!(sibling->attach_state & PERF_ATTACH_CONTEXT))
			continue;
		perf_groups_add(sibling);
		if (sibling->state == PERF_EVENT_STATE_ACTIVE)
			event_sched_out(sibling);
		/* it wrote into our AUX area: it cannot run on its own */
		if (unlikely(sibling->attr.aux_output) &&
		    sibling->aux_event == event &&
		    sibling->state > PERF_EVENT_STATE_ERROR)
			event_set_state(sibling, PERF_EVENT_STATE_ERROR);
		if (ctx->is_active && sibling->state == PERF_EVENT_STATE_INACTIVE)
			event_try_start(cpuctx, sibling);
	}
	event->nr_siblings = 0;
	event->attach_state &= ~PERF_ATTACH_GROUP;
	group_changed(event);
}

static void remove_func(struct perf_cpu_context *cpuctx,
			struct perf_event_context *ctx, void *info)
{
	struct remove_args *args = info;
	struct perf_event *event = args->event;
	enum perf_event_state state = PERF_EVENT_STATE_OFF;

	if (!(event->attach_state & PERF_ATTACH_CONTEXT)) {
		/* out with its task at exit: only its group is left to undo */
		if ((args->flags & DETACH_GROUP) &&
		    (event->attach_state & PERF_ATTACH_GROUP))
			detach_group(cpuctx, ctx, event);
		return;
	}
	if (event->group_leader == event) {
		if (event->state == PERF_EVENT_STATE_ACTIVE)
			group_sched_out(event);
		else
			group_update_time(event);
		perf_groups_del(event);
	} else {
		event_sched_out(event);
	}
	if (args->flags & DETACH_EXIT)
		state = PERF_EVENT_STATE_EXIT;
	if (args->flags & DETACH_REVOKE)
		state = PERF_EVENT_STATE_REVOKED;
	if (args->flags & DETACH_DEAD)
		state = PERF_EVENT_STATE_DEAD;
	/* a plain removal (a move) leaves the state as it is, off the PMU */
	if (state != PERF_EVENT_STATE_OFF)
		event_set_state(event, state);
	if (args->flags & DETACH_GROUP)
		detach_group(cpuctx, ctx, event);
	list_del_init(&event->event_entry);
	ctx->nr_events--;
	if (event->attr.inherit_stat)
		ctx->nr_stat--;
	if (event->attr.freq && event->attr.sample_freq)
		ctx->nr_freq--;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user--;
	epc_account(event->pmu_ctx, -1);
	if (event->attach_state & PERF_ATTACH_STAYS_ON) {
		event->attach_state &= ~PERF_ATTACH_STAYS_ON;
		event->pmu_ctx->nr_stay_on--;
	}
	cgrp_account(cpuctx, event, -1);
	if (cpuctx && ctx->task && !event->pmu_ctx->nr_events)
		perf_this_cpc(perf_group_pmu(event))->task_epc = NULL;
	event->attach_state &= ~PERF_ATTACH_CONTEXT;
}

/**
 * perf_remove_dead_func - take an event out of its context for good
 * @cpuctx: this CPU's context, or NULL where @ctx is active nowhere
 * @ctx: the event's context; its ctx->lock held, and its ctx->mutex
 * @info: the event, already off the side-band lists
 *
 * Its group is broken up and it ends DEAD, as at its release.
 */
void perf_remove_dead_func(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *info)
{
	struct remove_args args = {
		.event = info,
		.flags = DETACH_GROUP | DETACH_DEAD,
	};

	remove_func(cpuctx, ctx, &args);
}

/**
 * perf_remove_event - take an event out of its context
 * @event: the event
 * @flags: DETACH_* of internal.h
 *
 * ctx->mutex held.  The event keeps its ctx and pmu_ctx pointers (and the
 * references they stand for) until it is freed.
 */
void perf_remove_event(struct perf_event *event, unsigned int flags)
{
	struct remove_args args = { .event = event, .flags = flags };

	lockdep_assert_held(&event->ctx->mutex);
	/*
	 * A move within the context keeps the event on its side-band list:
	 * unlinked and linked again at once, a walker standing on it would
	 * start the list over.
	 */
	if ((event->attach_state & PERF_ATTACH_CONTEXT) &&
	    !(flags & DETACH_MOVE))
		perf_sb_event_detach(event);
	ctx_function_call(event->ctx, remove_func, &args);
}

/* ---------------------------------------------------------------------
 * Enable, disable, reset, refresh
 */

/* perf_enable_func(), inlined into perf_event_toggle_own() too */
static __always_inline void enable_locked(struct perf_cpu_context *cpuctx,
					  struct perf_event_context *ctx,
					  struct perf_event *event)
{
	/*
	 * Only an event that is off, or in error (given another chance), is
	 * enabled.  An aux_output event whose AUX leader left the group has
	 * nowhere to write to: it stays as it is (in error).
	 */
	if (!(event->attach_state & PERF_ATTACH_CONTEXT) ||
	    event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state < PERF_EVENT_STATE_ERROR ||
	    (unlikely(event->attr.aux_output) &&
	     event->aux_event != event->group_leader))
		return;
	event->tstamp = event_clock(event);
	perf_event_set_inactive(event);
	if (ctx->is_active)
		event_try_start(cpuctx, event);
}

/**
 * perf_enable_func - enable an event where its context runs
 * @cpuctx: this CPU's context, or NULL where @ctx is active nowhere
 * @ctx: the event's context; its ctx->lock held
 * @info: the event
 */
void perf_enable_func(struct perf_cpu_context *cpuctx,
		      struct perf_event_context *ctx, void *info)
{
	enable_locked(cpuctx, ctx, info);
}

/**
 * perf_event_enable_locked - enable an event (and so its group, if leader)
 * @event: the event; ctx->mutex held
 */
void perf_event_enable_locked(struct perf_event *event)
{
	enum perf_event_state state = READ_ONCE(event->state);

	assert_event_locked(event);
	/*
	 * Enabled already, or gone with its task: no call.  perf_enable_func()
	 * checks again under the context's lock; only the CPU where the
	 * event runs moves it between ACTIVE, INACTIVE and ERROR meanwhile.
	 */
	if (state >= PERF_EVENT_STATE_INACTIVE ||
	    state < PERF_EVENT_STATE_ERROR)
		return;
	ctx_function_call(event->ctx, perf_enable_func, event);
}

/* perf_disable_func(), inlined into perf_event_toggle_own() too */
static __always_inline void disable_locked(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_CONTEXT) ||
	    event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (event->group_leader == event && !event->nr_siblings &&
	    pmu_is_software(event->pmu_ctx->pmu)) {
		/* a lone software event: no PMU round trip, no accounting */
		event_sched_out(event);
	} else if (event->group_leader == event) {
		group_sched_out(event);
		/* the leader's own time is brought up to date just below */
		if (event->nr_siblings)
			group_update_time(event);
	} else {
		event_sched_out(event);
	}
	event_set_state(event, PERF_EVENT_STATE_OFF);
	/* a leader is parked by the next sched-in walk */
	perf_groups_leader_changed(event);
}

/**
 * perf_disable_func - disable an event where its context runs
 * @cpuctx: this CPU's context, or NULL where @ctx is active nowhere
 * @ctx: the event's context; its ctx->lock held
 * @info: the event
 */
void perf_disable_func(struct perf_cpu_context *cpuctx,
		       struct perf_event_context *ctx, void *info)
{
	disable_locked(info);
}

/**
 * perf_event_disable_locked - disable an event (and so its group, if leader)
 * @event: the event; ctx->mutex held
 */
void perf_event_disable_locked(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	assert_event_locked(event);
	if (READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return;
	ctx_function_call(ctx, perf_disable_func, event);
}

/**
 * perf_event_toggle_own - ENABLE or DISABLE of a task's own event, unlocked
 * @event: the event of an ioctl() without PERF_IOC_FLAG_GROUP
 * @enable: ENABLE, else DISABLE
 *
 * The self-monitoring case, without ctx->mutex: a counting software PMU's
 * event (PERF_EV_CAP_SW_COUNTS) that leads its group, in that PMU's own
 * sub-context (not moved to a hardware PMU's), and has no inherited
 * copies, in the caller's own context while that is active on this CPU.
 * The change is the locked path's perf_enable_func() or
 * perf_disable_func(), under ctx->lock with IRQs off.  The CPU context's
 * lock, which the locked path's IPI also takes, guards nothing this
 * touches: the software PMUs have no per-CPU scheduling state (they never
 * refuse a group, share no counter and have no exclusive groups), and
 * nothing else runs on this CPU meanwhile, where alone an active context
 * changes.
 *
 * Return: true if done; false if the caller must take the locked path.
 */
bool perf_event_toggle_own(struct perf_event *event, bool enable)
{
	struct perf_event_context *ctx = READ_ONCE(event->ctx);
	struct perf_cpu_context *cpuctx;
	bool done = false;

	/* a task's context stays the event's for as long as it exists */
	if (!ctx || ctx->task != current || event->attr.inherit ||
	    event->group_leader != event ||
	    !(event->event_caps & PERF_EV_CAP_SW_COUNTS))
		return false;

	local_irq_disable();
	cpuctx = this_cpu_ptr(&perf_cpu_context);
	if (cpuctx->task_ctx == ctx) {
		raw_spin_lock(&ctx->lock);
		/* out of its context or moved: the locked path waits for it */
		if ((event->attach_state & PERF_ATTACH_CONTEXT) &&
		    event->group_leader == event &&
		    event->pmu_ctx->pmu == event->pmu) {
			perf_ctx_update_time(ctx);
			cpuctx->time_now = ctx;
			if (enable)
				enable_locked(cpuctx, ctx, event);
			else
				disable_locked(event);
			cpuctx->time_now = NULL;
			done = true;
		}
		raw_spin_unlock(&ctx->lock);
	}
	local_irq_enable();
	return done;
}

/**
 * perf_reset_func - zero an event's count where its context runs
 * @cpuctx: this CPU's context, or NULL where @ctx is active nowhere
 * @ctx: the event's context; its ctx->lock held
 * @info: the event
 */
void perf_reset_func(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx, void *info)
{
	struct perf_event *event = info;

	if (event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	local64_set(&event->count, 0);
	if (event->rb)
		perf_event_update_userpage(event);
}

/**
 * perf_event_reset_locked - zero an event's count
 * @event: the event; ctx->mutex held
 *
 * Only the count goes back to zero; the enabled and running times, and
 * the children's sums, keep counting.
 */
void perf_event_reset_locked(struct perf_event *event)
{
	assert_event_locked(event);
	ctx_function_call(event->ctx, perf_reset_func, event);
}

/**
 * perf_event_refresh_locked - allow @refresh more overflows, then disable
 * @event: a sampling event; ctx->mutex held
 * @refresh: the number of overflows
 *
 * Return: 0, or -EINVAL for inherited or non-sampling events.
 */
int perf_event_refresh_locked(struct perf_event *event, int refresh)
{
	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;
	atomic_add(refresh, &event->event_limit);
	perf_event_enable_locked(event);
	return 0;
}

/* ---------------------------------------------------------------------
 * Bringing counts up to date
 */

struct sync_args {
	struct perf_event	*event;
	bool			group;
	int			done;
};

static void sync_locked(struct perf_event *event, bool group, bool here)
{
	struct perf_event *leader = event, *sibling;

	if (here && event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	event_update_time(event);
	if (!group || leader->group_leader != leader)
		return;
	for_each_sibling_event(sibling, leader) {
		if (here && sibling->state == PERF_EVENT_STATE_ACTIVE)
			sibling->pmu->read(sibling);
		event_update_time(sibling);
	}
}

static void sync_ipi(void *data)
{
	struct sync_args *args = data;
	struct perf_event *event = args->event;
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock(&ctx->lock);
	/* a reader without ctx->mutex: the event may have changed context */
	if (READ_ONCE(event->oncpu) == smp_processor_id() &&
	    READ_ONCE(event->ctx) == ctx) {
		perf_ctx_update_time(ctx);
		sync_locked(event, args->group, true);
		args->done = 1;
	}
	raw_spin_unlock(&ctx->lock);
}

/*
 * Run @here, an IPI handler that works on @event only if it finds it on
 * its CPU (under ctx->lock) and then sets *@done, where @event is on a
 * PMU, following it if it moves.  Return: true if it ran there, false if
 * the event is on no PMU (or its CPU went away).  Inlined, so that the
 * local case calls @here directly: read() of one's own events.
 */
static __always_inline bool event_ipi(struct perf_event *event,
				      smp_call_func_t here, void *args,
				      int *done)
{
	unsigned long flags;

	/* on this CPU (a task reading its own events): no cross-call */
	local_irq_save(flags);
	if (READ_ONCE(event->oncpu) == smp_processor_id())
		here(args);
	local_irq_restore(flags);
	if (*done)
		return true;

	for (;;) {
		int cpu = READ_ONCE(event->oncpu);

		if (cpu < 0)
			return false;
		if (smp_call_function_single(cpu, here, args, 1))
			return false;
		if (*done)
			return true;
	}
}

/**
 * perf_event_restart_local - stop and start @event if it runs here
 * @event: the event; its ctx->lock held, IRQs off
 */
void perf_event_restart_local(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);
	if (event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->oncpu == smp_processor_id()) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		event->pmu->start(event, 0);
	}
}

struct restart_args {
	struct perf_event	*event;
	int			done;
};

static void restart_ipi(void *data)
{
	struct restart_args *args = data;
	struct perf_event *event = args->event;
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock(&ctx->lock);
	if (READ_ONCE(event->oncpu) == smp_processor_id()) {
		perf_event_restart_local(event);
		args->done = 1;
	}
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_event_restart - stop and start an event where it runs
 * @event: the event
 *
 * So that its driver takes a new configuration (address filters) from
 * its start(); an event that is not running takes it when it next starts.
 * Process context, IRQs on.
 */
void perf_event_restart(struct perf_event *event)
{
	struct restart_args args = { .event = event };

	event_ipi(event, restart_ipi, &args, &args.done);
}

/**
 * perf_event_sync - bring an event's count and times up to date
 * @event: the event
 * @group: the whole group of a leader
 *
 * Reads the hardware of an active event on the CPU it runs on (IPI).
 * Called from process context with IRQs on.
 */
void perf_event_sync(struct perf_event *event, bool group)
{
	struct sync_args args = { .event = event, .group = group };
	struct perf_event_context *ctx;
	unsigned long flags;

	/*
	 * Off (or gone): neither its count nor its times move while it stays
	 * so, and a caller that turned it off itself has seen that finish.
	 * (A group's siblings may be in another state: they are synced.)
	 */
	if (!group && READ_ONCE(event->state) <= PERF_EVENT_STATE_OFF)
		return;
	if (event_ipi(event, sync_ipi, &args, &args.done))
		return;
	/*
	 * Not on any PMU: the count is final, only the times move.  A
	 * caller without ctx->mutex may see the event change context
	 * (perf_pmu_migrate_context()): lock the one it is in.
	 */
	for (;;) {
		ctx = READ_ONCE(event->ctx);
		raw_spin_lock_irqsave(&ctx->lock, flags);
		if (READ_ONCE(event->ctx) == ctx)
			break;
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	perf_ctx_update_time(ctx);
	/*
	 * An event that stayed on with its context, where that context is
	 * inactive, is read here under the lock (its last CPU may be gone).
	 */
	sync_locked(event, group,
		    READ_ONCE(event->oncpu) == smp_processor_id() ||
		    !ctx->is_active);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/* ---------------------------------------------------------------------
 * Driver-facing scheduling helpers
 */

/**
 * perf_pmu_resched - reschedule a PMU's events on this CPU
 * @pmu: the PMU
 *
 * For drivers whose constraints changed.  Process or IRQ context.
 */
void perf_pmu_resched(struct pmu *pmu)
{
	struct perf_cpu_context *cpuctx;
	struct perf_event_context *tctx;
	unsigned long flags;

	local_irq_save(flags);
	cpuctx = this_cpu_ptr(&perf_cpu_context);
	tctx = cpuctx->task_ctx;
	raw_spin_lock(&cpuctx->ctx.lock);
	perf_ctx_lock_other(cpuctx, tctx);
	perf_pmu_resched_locked(cpuctx, pmu, NULL);
	perf_ctx_unlock_other(cpuctx, tctx);
	raw_spin_unlock(&cpuctx->ctx.lock);
	local_irq_restore(flags);
}
EXPORT_SYMBOL_GPL(perf_pmu_resched);

/**
 * perf_sched_cb_inc - ask for pmu->sched_task() on context switches here
 * @pmu: the PMU; called by its driver with IRQs off on this CPU
 */
void perf_sched_cb_inc(struct pmu *pmu)
{
	struct perf_cpu_pmu_context *cpc = perf_this_cpc(pmu);

	if (!cpc->sched_cb_usage++)
		list_add(&cpc->sched_cb_entry, this_cpu_ptr(&perf_sched_cb_list));
}

/**
 * perf_sched_cb_dec - undo perf_sched_cb_inc()
 * @pmu: the PMU
 */
void perf_sched_cb_dec(struct pmu *pmu)
{
	struct perf_cpu_pmu_context *cpc = perf_this_cpc(pmu);

	if (!--cpc->sched_cb_usage)
		list_del_init(&cpc->sched_cb_entry);
}

/*
 * The members of a moved group go back into the context together, the
 * leader first, so that its group list is the new one, and the group goes
 * on the PMU once they are all in: the leader's siblings are still linked
 * to it, and starting it alone would put them on before they are back.
 */
static void move_install_func(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx, void *info)
{
	struct list_head *members = info;
	struct perf_event *event, *leader = NULL;

	list_for_each_entry(event, members, migrate_entry) {
		install_locked(cpuctx, ctx, event);
		leader = leader ?: event;
	}
	if (leader && ctx->is_active)
		event_try_start(cpuctx, leader);
}

/**
 * perf_group_move - a software-only group moves to a hardware PMU
 * @leader: the group's leader, in its context (ctx->mutex held)
 * @epc: the hardware PMU's sub-context of that context, from
 *	 perf_epc_find_get_pmu(); the caller's reference is used up
 *
 * The group is taken off, put in @epc and put back, in the same states,
 * so that it is scheduled with the new member from @epc's PMU.  Nothing
 * here fails: the open that adds the member gets @epc before its checks
 * and moves the group only once it cannot fail any more.
 */
void perf_group_move(struct perf_event *leader,
		     struct perf_event_pmu_context *epc)
{
	struct perf_event_context *ctx = leader->ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(members);

	lockdep_assert_held(&ctx->mutex);
	list_add_tail(&leader->migrate_entry, &members);
	for_each_sibling_event(event, leader)
		list_add_tail(&event->migrate_entry, &members);
	list_for_each_entry(event, &members, migrate_entry)
		perf_remove_event(event, DETACH_MOVE);
	list_for_each_entry(event, &members, migrate_entry) {
		perf_epc_put(event->pmu_ctx);
		atomic_inc(&epc->refcount);
		event->pmu_ctx = epc;
	}
	ctx_function_call(ctx, move_install_func, &members);
	list_for_each_entry_safe(event, tmp, &members, migrate_entry) {
		list_del_init(&event->migrate_entry);
		perf_sb_event_attach(event);
	}
	perf_epc_put(epc);
}

/* ---------------------------------------------------------------------
 * The tick and disabling from IRQ context (overflow.c)
 */

/*
 * The tick's business: a sampling event, or any member of a group that was
 * throttled (throttling stops the whole group).
 */
static bool perf_event_ticks(struct perf_event *event)
{
	return is_sampling_event(event) ||
	       event->hw.interrupts == PERF_THROTTLED;
}

static void epc_tick(struct perf_event_pmu_context *epc)
{
	struct perf_event *leader, *event;
	struct group_walk w __uninitialized;
	int i;

	if (!epc->nr_active)
		return;
	perf_pmu_disable(epc->pmu);
	for (i = 0; i < 2; i++) {
		perf_group_walk_start(&w, epc, i == 0);
		while ((leader = perf_group_walk_next(&w))) {
			if (leader->state != PERF_EVENT_STATE_ACTIVE)
				continue;
			if (perf_event_ticks(leader))
				perf_event_tick_event(leader);
			for_each_sibling_event(event, leader) {
				if (event->state == PERF_EVENT_STATE_ACTIVE &&
				    perf_event_ticks(event))
					perf_event_tick_event(event);
			}
		}
	}
	perf_pmu_enable(epc->pmu);
}

static void ctx_tick(struct perf_event_context *ctx, bool throttled)
{
	struct perf_event_pmu_context *epc;

	if (!ctx || !ctx->is_active || (!throttled && !ctx->nr_freq))
		return;
	raw_spin_lock(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
		epc_tick(epc);
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_ctx_tick - the tick's walk over the events on the PMUs here
 * @throttled: an event was throttled since the last tick
 *
 * Without throttled events, only contexts with frequency events are
 * walked.  IRQs off.
 */
void perf_ctx_tick(bool throttled)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);

	lockdep_assert_irqs_disabled();
	if (!throttled && !cpuctx->ctx.nr_freq &&
	    !(cpuctx->task_ctx && cpuctx->task_ctx->nr_freq))
		return;
	ctx_tick(&cpuctx->ctx, throttled);
	ctx_tick(cpuctx->task_ctx, throttled);
}

/**
 * perf_event_disable_in_irq - disable an event from IRQ context
 * @event: the event (its IRQ work runs here)
 *
 * Return: -1 when the event is disabled (or gone from its context), else
 * the CPU where its context is active, to try again there.
 */
int perf_event_disable_in_irq(struct perf_event *event)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = event->ctx;
	int cpu = -1;

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&cpuctx->ctx.lock);
	perf_ctx_lock_other(cpuctx, ctx);
	if (!ctx->is_active) {
		perf_ctx_update_time(ctx);
		perf_disable_func(NULL, ctx, event);
	} else if (ctx == &cpuctx->ctx || cpuctx->task_ctx == ctx) {
		perf_ctx_update_time(ctx);
		perf_disable_func(cpuctx, ctx, event);
	} else {
		cpu = ctx->task ? task_cpu(ctx->task) :
				  perf_cpu_ctx_cpu(ctx);
	}
	perf_ctx_unlock_other(cpuctx, ctx);
	raw_spin_unlock(&cpuctx->ctx.lock);
	return cpu;
}

/* ---------------------------------------------------------------------
 * Init
 */

/**
 * perf_event_print_debug - dump PMU state (sysrq); architectures override
 */
void __weak perf_event_print_debug(void)
{
}

/**
 * perf_context_init - boot: the CPU contexts, the task contexts' cache
 */
void perf_context_init(void)
{
	int cpu;

	perf_ctx_lifetime_init();
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu(perf_sched_cb_list, cpu));
}
