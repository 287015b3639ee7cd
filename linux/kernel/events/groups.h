/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The group leaders of a sub-context (groups.c): the lists and trees they
 * wait on, and the walk over those that may run on this CPU.  Every
 * function here expects the context's ctx->lock held.
 */
#ifndef _KERNEL_EVENTS_GROUPS_H
#define _KERNEL_EVENTS_GROUPS_H

#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <asm/barrier.h>

struct list_head;
struct rb_node;

/*
 * The groups of @ctx changed (an event joined or left, a leader that
 * inherits went off or on, an attr that inheritance looks at changed),
 * after the change itself: a fork that saw the old generation looks at
 * the groups again (inherit.c).  ctx->lock held.
 */
static __always_inline void perf_groups_changed(struct perf_event_context *ctx)
{
	/* after the change: pairs with the acquire in inherit.c's look */
	smp_store_release(&ctx->groups_gen, ctx->groups_gen + 1);
}

/*
 * A walk over the pinned or flexible leaders that may run on this CPU.
 * perf_group_walk_start() sets every field, so walks are declared
 * __uninitialized: no zeroing on the context-switch path where the
 * kernel zeroes stack variables (CONFIG_INIT_STACK_ALL_ZERO).
 */
struct group_walk {
	struct list_head	*head;
	struct perf_event	*list_next;	/* NULL at the end */
	struct rb_node		*tree_next;	/* NULL past this CPU's range */
	int			cpu;
};

void perf_group_walk_start(struct group_walk *w,
			   struct perf_event_pmu_context *epc, bool pinned);
/* The next leader, or NULL; the caller may requeue or remove it. */
struct perf_event *perf_group_walk_next(struct group_walk *w);

/* A leader joins its epc (parked if off), or leaves it. */
void perf_groups_add(struct perf_event *leader);
void perf_groups_del(struct perf_event *leader);
/* A walk met a leader that is off: out of the walks, keeping its place. */
void perf_groups_park(struct perf_event *leader);
void perf_groups_unpark(struct perf_event *leader);

/*
 * A leader that inherits went off or on: what a fork saw of the groups
 * may no longer hold (those that do not inherit are nothing to a fork).
 */
static __always_inline void perf_groups_leader_changed(struct perf_event *event)
{
	if (event->group_leader == event && event->attr.inherit)
		perf_groups_changed(event->ctx);
}

/*
 * perf_event_set_inactive - an event that is off is enabled: INACTIVE,
 * and a parked leader back among the groups that may run.  The caller
 * set its tstamp, and puts it on the PMU if the context is active.
 */
static __always_inline void perf_event_set_inactive(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);
	WRITE_ONCE(event->state, PERF_EVENT_STATE_INACTIVE);
	if (unlikely(event->attach_state & PERF_ATTACH_PARKED))
		perf_groups_unpark(event);
	perf_groups_leader_changed(event);
}

/* Move the first flexible group that may run here to the back. */
void perf_groups_rotate(struct perf_event_pmu_context *epc);

#endif /* _KERNEL_EVENTS_GROUPS_H */
