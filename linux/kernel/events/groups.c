// SPDX-License-Identifier: GPL-2.0
/*
 * The group leaders of a sub-context (struct perf_event_pmu_context): where
 * each waits, and the walk that context.c puts them on and off the PMU
 * by.  Everything here runs with the context's ctx->lock held.
 *
 * Leaders that may run on any CPU are on the epc's pinned_groups and
 * flexible_groups lists.  In a task context, a leader bound to one CPU
 * (pid and cpu both given, as perf record opens one per CPU) goes into a
 * tree instead, keyed by (cpu, group_seq), so that a CPU visits only its
 * own: what a context switch costs grows with the groups that can run
 * here, not with those the task has for every CPU.  group_seq numbers the
 * leaders of an epc in the order they were queued; a walk merges the list
 * with this CPU's range of the tree in that order, so the two behave as
 * one list for priority and for rotation.
 *
 * A leader that is off waits on the epc's off_groups instead
 * (PERF_ATTACH_PARKED), out of every walk, from its install or from the
 * first sched-in walk that meets it off, and comes back to its place by
 * its group_seq when it is enabled: paused groups cost a context switch
 * nothing.  ctx->nr_queued counts the leaders that are not parked;
 * a task context with none is not made active (perf_task_ctx_wanted()).
 */

#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/rbtree.h>
#include <linux/smp.h>

#include "internal.h"
#include "groups.h"

static bool group_node_less(struct rb_node *a, const struct rb_node *b)
{
	const struct perf_event *x = rb_entry(a, struct perf_event, group_node);
	const struct perf_event *y = rb_entry(b, struct perf_event, group_node);

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu;
	return x->group_seq < y->group_seq;
}

/* Put @leader (not off) in its place by group_seq among the walked groups. */
static void groups_queue(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;
	bool pinned = leader->attr.pinned;
	struct list_head *head;
	struct perf_event *pos;

	epc->ctx->nr_queued++;
	if (epc->ctx->task && leader->cpu >= 0) {
		rb_add(&leader->group_node, pinned ? &epc->pinned_cpu_groups :
						     &epc->flexible_cpu_groups,
		       group_node_less);
		return;
	}
	/* the newest goes last at once; one that was off finds its place */
	head = pinned ? &epc->pinned_groups : &epc->flexible_groups;
	list_for_each_entry_reverse(pos, head, group_entry)
		if (pos->group_seq < leader->group_seq)
			break;
	list_add(&leader->group_entry, &pos->group_entry);
}

/**
 * perf_groups_add - a leader joins its sub-context's groups
 * @leader: the leader; its ctx->lock held
 *
 * It is queued last among the pinned or flexible groups, or parked on
 * off_groups if it is off.
 */
void perf_groups_add(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;

	lockdep_assert_held(&epc->ctx->lock);
	leader->group_seq = ++epc->group_seq;
	if (leader->state == PERF_EVENT_STATE_OFF) {
		leader->attach_state |= PERF_ATTACH_PARKED;
		list_add_tail(&leader->group_entry, &epc->off_groups);
	} else {
		groups_queue(leader);
	}
}

/**
 * perf_groups_del - take a leader out of wherever perf_groups_add() put it
 * @leader: the leader; its ctx->lock held
 */
void perf_groups_del(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;

	lockdep_assert_held(&epc->ctx->lock);
	if (leader->attach_state & PERF_ATTACH_PARKED) {
		leader->attach_state &= ~PERF_ATTACH_PARKED;
		list_del_init(&leader->group_entry);
		return;
	}
	if (!RB_EMPTY_NODE(&leader->group_node)) {
		rb_erase(&leader->group_node, leader->attr.pinned ?
			 &epc->pinned_cpu_groups : &epc->flexible_cpu_groups);
		RB_CLEAR_NODE(&leader->group_node);
	} else if (!list_empty(&leader->group_entry)) {
		list_del_init(&leader->group_entry);
	} else {
		return;
	}
	epc->ctx->nr_queued--;
}

/**
 * perf_groups_park - a walk met a leader that is off: out of the walks
 * @leader: the leader, OFF (so off the PMU); its ctx->lock held
 *
 * Parked by the sched-in walk that meets it rather than when it goes off,
 * so that a DISABLE and ENABLE between two switches cost nothing here.
 * It keeps its group_seq, so that perf_groups_unpark() puts it back where
 * it was among the groups.
 */
void perf_groups_park(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;
	u64 seq = leader->group_seq;

	perf_groups_del(leader);
	leader->group_seq = seq;
	leader->attach_state |= PERF_ATTACH_PARKED;
	list_add_tail(&leader->group_entry, &epc->off_groups);
}

/**
 * perf_groups_unpark - a parked leader is enabled: back where it was
 * @leader: the leader, INACTIVE now; its ctx->lock held
 */
void perf_groups_unpark(struct perf_event *leader)
{
	lockdep_assert_held(&leader->ctx->lock);
	list_del_init(&leader->group_entry);
	leader->attach_state &= ~PERF_ATTACH_PARKED;
	groups_queue(leader);
}

/* The leftmost node of @root with cpu @cpu, or NULL. */
static struct rb_node *group_tree_first(struct rb_root *root, int cpu)
{
	struct rb_node *node = root->rb_node, *found = NULL;

	while (node) {
		struct perf_event *e = rb_entry(node, struct perf_event,
						group_node);

		if (e->cpu < cpu) {
			node = node->rb_right;
		} else {
			if (e->cpu == cpu)
				found = node;
			node = node->rb_left;
		}
	}
	return found;
}

/**
 * perf_group_walk_start - begin a walk over the leaders that may run here
 * @w: the walk
 * @epc: the sub-context; its ctx->lock held, IRQs off
 * @pinned: the pinned groups, else the flexible ones
 *
 * perf_group_walk_next() then gives the leaders of the list and this CPU's
 * range of the tree, merged in group_seq order.
 */
void perf_group_walk_start(struct group_walk *w,
			   struct perf_event_pmu_context *epc, bool pinned)
{
	struct rb_root *root = pinned ? &epc->pinned_cpu_groups :
					&epc->flexible_cpu_groups;

	w->head = pinned ? &epc->pinned_groups : &epc->flexible_groups;
	w->list_next = list_first_entry_or_null(w->head, struct perf_event,
						group_entry);
	w->cpu = smp_processor_id();
	w->tree_next = RB_EMPTY_ROOT(root) ? NULL :
		       group_tree_first(root, w->cpu);
}

/**
 * perf_group_walk_next - the next leader of a walk
 * @w: a walk begun by perf_group_walk_start()
 *
 * Return: the next leader in group_seq order, or NULL at the end.  The walk
 * has moved past it already: the caller may requeue or remove it.
 */
struct perf_event *perf_group_walk_next(struct group_walk *w)
{
	struct perf_event *l = w->list_next, *t = NULL;
	struct rb_node *next;

	if (w->tree_next)
		t = rb_entry(w->tree_next, struct perf_event, group_node);
	if (l && (!t || l->group_seq < t->group_seq)) {
		w->list_next = list_is_last(&l->group_entry, w->head) ? NULL :
			       list_next_entry(l, group_entry);
		return l;
	}
	if (!t)
		return NULL;
	next = rb_next(w->tree_next);
	if (next && rb_entry(next, struct perf_event, group_node)->cpu != w->cpu)
		next = NULL;
	w->tree_next = next;
	return t;
}

/**
 * perf_groups_rotate - multiplexing: the first flexible group goes last
 * @epc: the sub-context, off the PMU; its ctx->lock held, IRQs off
 *
 * Only a group that may run on this CPU moves.
 */
void perf_groups_rotate(struct perf_event_pmu_context *epc)
{
	struct group_walk w __uninitialized;
	struct perf_event *first;

	lockdep_assert_held(&epc->ctx->lock);
	perf_group_walk_start(&w, epc, false);
	first = perf_group_walk_next(&w);
	if (first) {
		perf_groups_del(first);
		perf_groups_add(first);
	}
}
