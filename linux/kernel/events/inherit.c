// SPDX-License-Identifier: GPL-2.0
/*
 * Events and the life of tasks: fork copies the inheritable groups of the
 * parent into a context of the child, exit folds the counts of inherited
 * copies back into the event they came from, exec starts the
 * enable_on_exec events and drops the remove_on_exec ones.
 *
 * Every inherited copy points at the event opened by the user (the "top"
 * parent), never at another copy, and pins it with a reference; it sits on
 * the top parent's child_list under its child_mutex.  Lock order: parent
 * context mutex, then the child context's, then a child_mutex.
 */

#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "internal.h"
#include "addr_filter.h"
#include "context.h"
#include "event.h"
#include "inherit.h"
#include "records.h"
#include "ring_buffer.h"

/* ---------------------------------------------------------------------
 * Fork
 */

static bool event_inherits(struct perf_event *event, u64 clone_flags)
{
	if (!event->attr.inherit)
		return false;
	if (event->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return false;
	if (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND))
		return false;
	return event->state > PERF_EVENT_STATE_EXIT;
}

/* Copy one event into @ctx (whose mutex is held) as a child of its top. */
static struct perf_event *inherit_event(struct perf_event *from,
					struct task_struct *child,
					struct perf_event_context *ctx,
					struct perf_event *leader)
{
	struct perf_event *top = from->parent ?: from;
	struct perf_event_pmu_context *epc;
	struct perf_event *event;

	lockdep_assert_held(&ctx->mutex);
	if (!perf_event_tryget(top))	/* being released */
		return NULL;
	event = perf_event_alloc(&from->attr, from->cpu, child, leader, top,
				 NULL, NULL, -1);
	if (IS_ERR(event)) {
		perf_event_put(top);
		return event;
	}
	event->state = from->state >= PERF_EVENT_STATE_INACTIVE ?
		       PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
	perf_addr_filters_inherit(event, from);
	/* a frequency event starts from the period its parent reached */
	if (from->attr.freq && from->attr.sample_freq) {
		u64 period = READ_ONCE(from->hw.sample_period);

		event->hw.sample_period = period;
		event->hw.last_period = period;
		local64_set(&event->hw.period_left, period);
	}
	/* the same PMU share as the parent's (a moved group stays moved) */
	epc = perf_epc_find_get_pmu(ctx, from->pmu_ctx->pmu, event->cpu);
	if (IS_ERR(epc)) {
		perf_event_free(event);
		perf_event_put(top);
		return ERR_CAST(epc);
	}
	event->pmu_ctx = epc;
	/* AUX samples, aux_output and pauses go to the copy of the leader */
	if (from->aux_event && leader && perf_event_tryget(leader))
		event->aux_event = leader;
	/* an aux_output event without its AUX leader does not run */
	if (unlikely(from->attr.aux_output) && !event->aux_event)
		event->state = PERF_EVENT_STATE_ERROR;
	perf_ctx_get(ctx);
	perf_install_event(ctx, event, -1);

	mutex_lock(&top->child_mutex);
	list_add_tail(&event->child_entry, &top->child_list);
	mutex_unlock(&top->child_mutex);
	return event;
}

static int inherit_group(struct perf_event *leader, struct task_struct *child,
			 struct perf_event_context *ctx)
{
	struct perf_event *child_leader, *sibling, *copy;

	child_leader = inherit_event(leader, child, ctx, NULL);
	if (IS_ERR_OR_NULL(child_leader))
		return PTR_ERR_OR_ZERO(child_leader);
	for_each_sibling_event(sibling, leader) {
		copy = inherit_event(sibling, child, ctx, child_leader);
		if (IS_ERR(copy))
			return PTR_ERR(copy);
	}
	return 0;
}

/**
 * perf_event_init_task - fork: give the child copies of inheritable events
 * @child: the new task, not yet running
 * @clone_flags: the clone flags
 *
 * On failure nothing is left behind (fork does not call
 * perf_event_free_task() for this step).
 *
 * Return: 0 or -errno.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *parent_ctx, *ctx = NULL;
	struct perf_event *event;
	int err = 0;

	RCU_INIT_POINTER(*task_ctxp(child), NULL);
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);

	parent_ctx = perf_task_ctx_get(current);
	if (!parent_ctx)
		return 0;

	mutex_lock(&parent_ctx->mutex);
	list_for_each_entry(event, &parent_ctx->event_list, event_entry) {
		if (event->group_leader != event ||
		    !event_inherits(event, clone_flags))
			continue;
		if (!ctx) {
			ctx = perf_task_ctx_alloc(child);
			if (!ctx) {
				err = -ENOMEM;
				break;
			}
			/* the task's reference */
			rcu_assign_pointer(*task_ctxp(child), ctx);
			mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
		}
		err = inherit_group(event, child, ctx);
		if (err)
			break;
	}
	if (ctx)
		mutex_unlock(&ctx->mutex);
	mutex_unlock(&parent_ctx->mutex);
	perf_ctx_put(parent_ctx);

	if (err)
		perf_event_free_task(child);
	return err;
}

/* ---------------------------------------------------------------------
 * Exit
 */

/**
 * perf_child_fold - add an inherited copy's count and times to its parent
 * @child: the copy, off the PMU; unlinked from the parent's child_list
 *	   here, so that readers (who hold the parent's child_mutex, as the
 *	   caller does) count it exactly once
 */
void perf_child_fold(struct perf_event *child)
{
	struct perf_event *parent = child->parent;

	lockdep_assert_held(&parent->child_mutex);
	if (!list_empty(&child->child_entry)) {
		atomic64_add(local64_read(&child->count), &parent->child_count);
		atomic64_add(child->total_time_enabled,
			     &parent->child_total_time_enabled);
		atomic64_add(child->total_time_running,
			     &parent->child_total_time_running);
		list_del_init(&child->child_entry);
	}
}

/*
 * One event of an exiting task (@task_exit) or one that exec's
 * remove_on_exec takes away.  ctx->mutex held.
 */
static void exit_event(struct perf_event *event, bool task_exit)
{
	struct perf_event *parent = event->parent;

	lockdep_assert_held(&event->ctx->mutex);
	if (!parent) {
		/*
		 * Opened on this task: keeps its final count for read(), and
		 * at exit its group too, for PERF_FORMAT_GROUP reads (the
		 * members are taken out one by one, none runs again).
		 */
		perf_remove_event(event, task_exit ? DETACH_EXIT :
					 DETACH_GROUP | DETACH_EXIT);
		/* poll() reports the end */
		perf_event_wakeup(event);
		return;
	}

	/*
	 * Under the parent's child_mutex, so that ioctls walking the parent's
	 * children never see a copy that is out of its context but listed.
	 */
	mutex_lock(&parent->child_mutex);
	perf_remove_event(event, DETACH_GROUP | DETACH_DEAD);
	/* the final count, off the PMU */
	if (event->attr.inherit_stat && event->ctx->task)
		perf_event_read_record(event, event->ctx->task);
	perf_child_fold(event);
	mutex_unlock(&parent->child_mutex);
	perf_event_put(event);
	perf_event_put(parent);
}

static void exit_ctx_events(struct perf_event_context *ctx, bool fold)
{
	struct perf_event *event;

	while ((event = list_first_entry_or_null(&ctx->event_list,
						 struct perf_event,
						 event_entry))) {
		if (fold) {
			exit_event(event, true);
			continue;
		}
		/* a fork that failed: nothing to fold */
		if (event->parent) {
			struct perf_event *parent = event->parent;

			mutex_lock(&parent->child_mutex);
			list_del_init(&event->child_entry);
			perf_remove_event(event, DETACH_GROUP | DETACH_DEAD);
			mutex_unlock(&parent->child_mutex);
			perf_event_put(event);
			perf_event_put(parent);
		} else {
			perf_remove_event(event, DETACH_EXIT);
		}
	}
}

static struct perf_event_context *task_ctx_detach(struct task_struct *task)
{
	struct perf_event_context *ctx;

	mutex_lock(&task->perf_event_mutex);
	ctx = rcu_dereference_protected(*task_ctxp(task),
					lockdep_is_held(&task->perf_event_mutex));
	RCU_INIT_POINTER(*task_ctxp(task), NULL);
	mutex_unlock(&task->perf_event_mutex);
	return ctx;
}

/**
 * perf_event_exit_task - a task exits (or execs a setuid binary)
 * @task: current
 *
 * Events the task owns lose their owner; the task's context is emptied:
 * inherited copies fold their counts into their parents and go, events
 * opened on the task stay readable with their final counts (state EXIT).
 */
void perf_event_exit_task(struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;

	mutex_lock(&task->perf_event_mutex);
	list_for_each_entry_safe(event, tmp, &task->perf_event_list,
				 owner_entry) {
		list_del_init(&event->owner_entry);
		/* off the list before event_drop_owner() can see NULL */
		smp_store_release(&event->owner, NULL);
	}
	mutex_unlock(&task->perf_event_mutex);

	/* EXIT records go out while the task's own events still listen */
	perf_event_exit_record(task);

	ctx = task_ctx_detach(task);
	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	perf_ctx_sched_out_all(ctx);
	exit_ctx_events(ctx, true);
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}

/**
 * perf_event_free_task - a fork failed after perf_event_init_task()
 * @task: the task that never ran
 */
void perf_event_free_task(struct task_struct *task)
{
	struct perf_event_context *ctx = task_ctx_detach(task);

	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	exit_ctx_events(ctx, false);
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}

/**
 * perf_event_delayed_put - the last reference on a task goes
 * @task: the task; its context was taken away at exit
 */
void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(rcu_access_pointer(*task_ctxp(task)));
}

/* ---------------------------------------------------------------------
 * Exec
 */

/**
 * perf_event_exec - current has exec'ed a new program
 *
 * Starts the events marked enable_on_exec and ends those marked
 * remove_on_exec.
 */
void perf_event_exec(void)
{
	struct perf_event_context *ctx = perf_task_ctx_get(current);
	struct perf_event *event;

	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	perf_addr_filters_exec(ctx);
	perf_enable_on_exec(ctx);
again:
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.remove_on_exec) {
			/* siblings may move with it: walk again */
			exit_event(event, false);
			goto again;
		}
	}
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}
