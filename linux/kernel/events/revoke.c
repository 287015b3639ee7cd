// SPDX-License-Identifier: GPL-2.0
/*
 * Revoking events: what perf_pmu_unregister() does with the events a PMU
 * still has.
 *
 * A driver may let go of its device while events of its PMU are open (a
 * device unbound through sysfs, a hot-removed accelerator).  Those events
 * must never reach the driver again, yet their owners hold file
 * descriptors and mappings, and may go on reading them.  Each such event
 * is revoked:
 *
 * - it is taken out of its context, with its whole group, in state
 *   PERF_EVENT_STATE_REVOKED: it keeps its count and times for read(),
 *   is never scheduled or inherited again, and gives EPOLLHUP to poll(),
 *   -ENODEV to mmap() and to ioctl();
 * - its sub-context reference is dropped, its destroy() callback runs and
 *   its module reference goes; event->pmu then points at a PMU that does
 *   nothing (perf_revoked_pmu), so the rest of its life, up to the last
 *   close, needs nothing of the driver;
 * - an AUX area the driver set up gives its driver data back through
 *   free_aux() now; the core's pages stay mapped until unmapped.
 *
 * Events of other PMUs can depend on the departing one too: a software
 * event in a group led by (or once holding) one of its events is
 * scheduled in the departing PMU's sub-context.  Those attached to a
 * context are revoked with the group they are in; each task sub-context
 * of the PMU is then taken off its context (the events that still hold
 * it have exited or are being freed, and never run again) and its driver
 * data freed; and the per-CPU sub-contexts, which go with the PMU, are
 * waited for until no event refers to them.
 *
 * Locking: pmu->events_lock, in the DOC: block "Registry locks" of pmu.c
 * (shown in Documentation/perf/core/locking.rst); an event's AUX data is
 * given back under its mmap_mutex.  Nothing here is called with a perf
 * lock held; everything runs in process context.
 */

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "internal.h"
#include "aux.h"
#include "context.h"
#include "event.h"
#include "revoke.h"

/* How long per-CPU sub-contexts are waited for before giving up (ms). */
#define REVOKE_CPU_EPC_WAIT_MS	10000

/* ---------------------------------------------------------------------
 * The PMU of revoked events
 */

static int revoked_event_init(struct perf_event *event)
{
	return -ENOENT;
}

static int revoked_add(struct perf_event *event, int flags)
{
	return -ENODEV;
}

static void revoked_event_nop(struct perf_event *event, int flags)
{
}

static void revoked_read(struct perf_event *event)
{
}

static int revoked_event_idx(struct perf_event *event)
{
	return 0;
}

static void revoked_pmu_nop(struct pmu *pmu)
{
}

/* Never registered: only revoked events point at it. */
static struct pmu perf_revoked_pmu = {
	.name		= "revoked",
	.type		= -1,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.events_lock	= __SPIN_LOCK_UNLOCKED(perf_revoked_pmu.events_lock),
	.events		= LIST_HEAD_INIT(perf_revoked_pmu.events),
	.task_epcs	= LIST_HEAD_INIT(perf_revoked_pmu.task_epcs),
	.pmu_enable	= revoked_pmu_nop,
	.pmu_disable	= revoked_pmu_nop,
	.event_init	= revoked_event_init,
	.add		= revoked_add,
	.del		= revoked_event_nop,
	.start		= revoked_event_nop,
	.stop		= revoked_event_nop,
	.read		= revoked_read,
	.event_idx	= revoked_event_idx,
};

/* ---------------------------------------------------------------------
 * One event, one group
 */

/*
 * Take @event out of its context (or, where it already left with its
 * task, out of what remains of its group) and off @pmu.  An event of
 * @pmu moves from @pmu->events to @revoked, with a reference for
 * perf_pmu_revoke_events() to drop.  ctx->mutex held.
 */
static void revoke_event_locked(struct perf_event *event, struct pmu *pmu,
				struct list_head *revoked)
	__must_hold(&event->ctx->mutex)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->mutex);
	perf_remove_event(event, DETACH_GROUP | DETACH_REVOKE);
	/* one that had left its context already: only its state changes */
	raw_spin_lock_irq(&ctx->lock);
	if (event->state != PERF_EVENT_STATE_DEAD)
		WRITE_ONCE(event->state, PERF_EVENT_STATE_REVOKED);
	epc = event->pmu_ctx;
	event->pmu_ctx = NULL;
	raw_spin_unlock_irq(&ctx->lock);
	if (epc)
		perf_epc_put(epc);

	if (event->pmu != pmu)
		return;
	/* in a context or held by the caller: not being freed */
	perf_event_get_ref(event);
	spin_lock_irq(&pmu->events_lock);
	list_move_tail(&event->pmu_list, revoked);
	spin_unlock_irq(&pmu->events_lock);
	if (event->destroy) {
		event->destroy(event);
		event->destroy = NULL;
	}
	module_put(pmu->module);
	WRITE_ONCE(event->pmu, &perf_revoked_pmu);
}

/*
 * Revoke @event and, while it is in a context, its whole group: the
 * group's members are scheduled in one sub-context, which may be the
 * departing PMU's.  ctx->mutex held.
 */
static void revoke_group_locked(struct perf_event *event, struct pmu *pmu,
				struct list_head *revoked)
	__must_hold(&event->ctx->mutex)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling, *tmp;

	lockdep_assert_held(&event->ctx->mutex);
	if (!(event->attach_state & PERF_ATTACH_CONTEXT)) {
		revoke_event_locked(event, pmu, revoked);
		return;
	}
	/* the members first, so that none is started again on its own */
	list_for_each_entry_safe(sibling, tmp, &leader->sibling_list,
				 sibling_list)
		revoke_event_locked(sibling, pmu, revoked);
	revoke_event_locked(leader, pmu, revoked);
}

/*
 * Revoke the groups of @ctx that are scheduled in @epc, a sub-context of
 * the departing @pmu, whatever their own PMUs.  ctx->mutex held.
 */
static void revoke_epc_groups_locked(struct perf_event_context *ctx,
				     struct perf_event_pmu_context *epc,
				     struct pmu *pmu, struct list_head *revoked)
	__must_hold(&ctx->mutex)
{
	struct perf_event *event;
	bool found;

	lockdep_assert_held(&ctx->mutex);
	do {
		found = false;
		list_for_each_entry(event, &ctx->event_list, event_entry) {
			if (event->pmu_ctx != epc)
				continue;
			/* the list changes: walk it again */
			revoke_group_locked(event, pmu, revoked);
			found = true;
			break;
		}
	} while (found);
}

/* ---------------------------------------------------------------------
 * Every event of the PMU
 */

/*
 * The events whose PMU is @pmu, each revoked and moved onto @revoked.  An
 * event that is still being created (no context yet) is left for a later
 * round.
 */
static void revoke_own_events(struct pmu *pmu, struct list_head *revoked)
{
	struct perf_event_context *ctx;
	struct perf_event *event;

	for (;;) {
		spin_lock_irq(&pmu->events_lock);
		event = list_first_entry_or_null(&pmu->events,
						 struct perf_event, pmu_list);
		if (!event) {
			spin_unlock_irq(&pmu->events_lock);
			return;
		}
		/*
		 * Being freed, or not yet in a context: it leaves the list
		 * in perf_pmu_put_event(), or joins a context, soon.
		 */
		if (!READ_ONCE(event->ctx) || !perf_event_tryget(event)) {
			list_move_tail(&event->pmu_list, &pmu->events);
			spin_unlock_irq(&pmu->events_lock);
			schedule_timeout_uninterruptible(1);
			continue;
		}
		spin_unlock_irq(&pmu->events_lock);

		ctx = perf_event_ctx_lock(event);
		/* unless a group revoked before took it along */
		if (event->pmu == pmu)
			revoke_group_locked(event, pmu, revoked);
		perf_event_ctx_unlock(event, ctx);
		perf_event_put(event);
	}
}

/*
 * Each task sub-context of @pmu: the groups still scheduled in it are
 * revoked, then it leaves its context for good, its driver data freed.
 */
static void revoke_task_epcs(struct pmu *pmu, struct list_head *revoked)
{
	struct perf_event_pmu_context *epc;
	struct perf_event_context *ctx;
	void *task_data;

	for (;;) {
		spin_lock_irq(&pmu->events_lock);
		epc = list_first_entry_or_null(&pmu->task_epcs,
					       struct perf_event_pmu_context,
					       pmu_epc_entry);
		if (!epc) {
			spin_unlock_irq(&pmu->events_lock);
			return;
		}
		if (!atomic_inc_not_zero(&epc->refcount)) {
			/* its last put is taking it off the list */
			spin_unlock_irq(&pmu->events_lock);
			schedule_timeout_uninterruptible(1);
			continue;
		}
		list_del_init(&epc->pmu_epc_entry);
		spin_unlock_irq(&pmu->events_lock);

		ctx = epc->ctx;
		mutex_lock(&ctx->mutex);
		revoke_epc_groups_locked(ctx, epc, pmu, revoked);
		raw_spin_lock_irq(&ctx->lock);
		perf_epc_unlink(epc);
		epc->revoked = 1;
		task_data = epc->task_ctx_data;
		epc->task_ctx_data = NULL;
		raw_spin_unlock_irq(&ctx->lock);
		mutex_unlock(&ctx->mutex);

		if (task_data)
			kmem_cache_free(pmu->task_ctx_cache, task_data);
		perf_epc_put(epc);
	}
}

/*
 * The per-CPU sub-contexts of @pmu are freed with it: revoke the groups
 * still in them, then wait for the events being freed to let go.
 */
static void revoke_cpu_epcs(struct pmu *pmu, struct list_head *revoked)
{
	unsigned long deadline;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_cpu_pmu_context *cpc;
		struct perf_event_context *ctx;

		/* one reference is the PMU's own */
		cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);
		if (atomic_read(&cpc->epc.refcount) == 1)
			continue;
		ctx = &per_cpu(perf_cpu_context, cpu).ctx;
		mutex_lock(&ctx->mutex);
		revoke_epc_groups_locked(ctx, &cpc->epc, pmu, revoked);
		mutex_unlock(&ctx->mutex);

		deadline = jiffies + msecs_to_jiffies(REVOKE_CPU_EPC_WAIT_MS);
		while (atomic_read(&cpc->epc.refcount) > 1) {
			if (time_after(jiffies, deadline)) {
				pr_err("perf: PMU %s: CPU %d's events still hold it\n",
				       pmu->name, cpu);
				break;
			}
			schedule_timeout_uninterruptible(1);
		}
	}
}

/**
 * perf_pmu_revoke_events - revoke every event that still reaches a PMU
 * @pmu: a PMU that lookups can no longer find (perf_pmu_unregister())
 *
 * On return no event, scheduled or not, refers to @pmu, its sub-contexts
 * or its driver data, and the PMU's per-CPU state may be freed.  Events
 * that a fork copies meanwhile join @pmu->events and are revoked in turn.
 */
void perf_pmu_revoke_events(struct pmu *pmu)
{
	struct perf_event *event, *tmp;
	LIST_HEAD(revoked);

	revoke_own_events(pmu, &revoked);
	revoke_task_epcs(pmu, &revoked);
	revoke_cpu_epcs(pmu, &revoked);

	/* now that none of them runs: their AUX areas' driver data */
	list_for_each_entry_safe(event, tmp, &revoked, pmu_list) {
		list_del_init(&event->pmu_list);
		mutex_lock(&event->mmap_mutex);
		if (event->rb)
			perf_aux_revoke(event->rb, pmu);
		mutex_unlock(&event->mmap_mutex);
		perf_event_put(event);
	}
}
