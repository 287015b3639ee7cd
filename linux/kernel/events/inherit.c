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

/**
 * DOC: Inherited copies lock
 *
 * ``event->child_mutex`` (a mutex)
 *   Protects ``event->child_list``, the inherited copies of an event opened
 *   by the user, and their ``child_entry`` links.  Taken after any
 *   ``ctx->mutex``.  An ioctl that acts on the copies (ENABLE, DISABLE,
 *   RESET, MODIFY_ATTRIBUTES, address filters) holds the parent's
 *   ``ctx->mutex`` and the parent's ``child_mutex``, but not the copies'
 *   ``ctx->mutex``: for an inherited copy, its parent's ``child_mutex`` is
 *   what keeps it in its context, and the context code accepts either.  A
 *   copy leaves its context (exit, exec, the parent's release) with its own
 *   context's ``ctx->mutex`` and its parent's ``child_mutex`` held, and
 *   folds its count into the parent under the latter, so a reader holding
 *   ``child_mutex`` counts every copy exactly once.  An event without
 *   ``attr.inherit`` never has copies: ``read()`` and the ioctls of one do
 *   not take it.
 */

/**
 * DOC: Lazy inheritance lock
 *
 * ``lazy_mutex`` (``struct perf_task_ctx_extra``, a mutex)
 *   Protects ``lazy_links``, the links of the descendants that wait for
 *   copies of the context's groups (design.rst, "Groups that are off
 *   wait").  A fork takes it to publish the child's links, holding no
 *   other perf lock; an exit or failed fork to remove them, before it
 *   takes its own context's mutex; ``perf_inherit_lazy()`` holds it, inside
 *   the top context's mutex, while it copies a group into each descendant's
 *   context under that context's mutex (nested like a fork's).  A task's
 *   own list of links (``lazy_own``) has no lock: only its fork, before it
 *   runs, and its exit change it.
 *   The ``struct perf_task_ctx_extra`` itself is made on first need
 *   with no lock: its pointer in the task context goes from NULL to the
 *   new object once, by ``cmpxchg()`` (a maker that loses frees its own),
 *   and is read with an acquire, by an NMI too (deferred callchains).
 */

#include <linux/perf_event.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sched/task.h>

#include "internal.h"
#include "addr_filter.h"
#include "context.h"
#include "groups.h"
#include "event.h"
#include "inherit.h"
#include "records.h"
#include "ring_buffer.h"

/* ---------------------------------------------------------------------
 * Fork
 *
 * A group whose leader is off when a task forks is not copied: the child
 * gets a link instead, on the lazy list of the context that holds the
 * group's top events, and the copies are made when the group is enabled
 * (perf_inherit_lazy()).  A fork so costs nothing per disabled group.  A
 * child inherits its parent's links, so every descendant that lacks a
 * copy is on the top context's list.  A link's bound is the highest id a
 * top event can have to be the descendant's to copy: the later ones did
 * not exist in its line when it was forked.
 *
 * Groups with a member whose inheritance depends on the clone flags
 * (inherit_thread, sigtrap), that exec acts on (enable_on_exec,
 * remove_on_exec) or whose copy takes a breakpoint slot are copied at
 * fork, on or off.
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

/* A breakpoint's copy takes a slot of its task: at fork, as ever. */
static bool event_may_wait(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	return !(attr->inherit_thread || attr->sigtrap ||
		 attr->enable_on_exec || attr->remove_on_exec ||
		 attr->type == PERF_TYPE_BREAKPOINT);
}

/* May the copies of @leader's group be made at its first enable? */
static bool group_may_wait(struct perf_event *leader)
{
	struct perf_event *sibling;

	if (!event_may_wait(leader))
		return false;
	for_each_sibling_event(sibling, leader)
		if (!event_may_wait(sibling))
			return false;
	return true;
}

static struct perf_event *top_of(struct perf_event *event)
{
	return event->parent ?: event;
}

/*
 * A group of the parent's context that the child gets a link for: its
 * leader is off, and nothing in it depends on the clone flags (so
 * event_inherits() comes down to attr.inherit).  Runs once per event at
 * every fork: the cheap tests come first.
 */
static __always_inline bool group_waits(struct perf_event *leader)
{
	const struct perf_event_attr *attr = &leader->attr;

	if (leader->state != PERF_EVENT_STATE_OFF ||
	    leader->group_leader != leader)
		return false;
	if (!attr->inherit || !event_may_wait(leader))
		return false;
	return !leader->nr_siblings || group_may_wait(leader);
}

static struct perf_lazy_link *lazy_link_find(struct perf_event_context *ctx,
					     struct perf_event_context *top)
{
	struct perf_task_ctx_extra *extra = perf_task_ctx_extra(ctx);
	struct perf_lazy_link *link;

	if (!extra)
		return NULL;
	list_for_each_entry(link, &extra->lazy_own, own_entry)
		if (link->top == top)
			return link;
	return NULL;
}

/*
 * The bound of a link to @top for a child of @parent_ctx's task, whose
 * mutex is held: the parent's own bound if it waits too; any event yet if
 * the parent holds the top events; else the newest top of its copies, as
 * every waiting group of @top older than that was copied into the parent.
 */
static u64 lazy_bound(struct perf_event_context *parent_ctx,
		      struct perf_event_context *top)
{
	struct perf_lazy_link *link = lazy_link_find(parent_ctx, top);
	struct perf_event *event;
	u64 bound = 0;

	lockdep_assert_held(&parent_ctx->mutex);
	if (link)
		return link->bound;
	if (parent_ctx == top)
		return perf_event_last_id();
	list_for_each_entry(event, &parent_ctx->event_list, event_entry)
		if (event->parent && event->parent->ctx == top)
			bound = max(bound, event->parent->id);
	return bound;
}

/* The new task's context, made on first need; the task's reference. */
static struct perf_event_context *child_ctx(struct task_struct *child,
					    struct perf_event_context **ctx)
{
	if (!*ctx) {
		*ctx = perf_task_ctx_alloc(child);
		if (*ctx)
			rcu_assign_pointer(*task_ctxp(child), *ctx);
	}
	return *ctx;
}

/* Give the child a link to @top, unless it has one. */
static int lazy_link_new(struct task_struct *child,
			 struct perf_event_context **ctx,
			 struct perf_event_context *parent_ctx,
			 struct perf_event_context *top)
{
	struct perf_task_ctx_extra *own, *top_extra;
	struct perf_lazy_link *link;

	if (!child_ctx(child, ctx))
		return -ENOMEM;
	if (lazy_link_find(*ctx, top))
		return 0;
	own = perf_task_ctx_extra_get(*ctx);
	top_extra = perf_task_ctx_extra_get(top);
	if (!own || !top_extra)
		return -ENOMEM;
	/* most tasks need one link: it comes with the extra state */
	link = &own->first_link;
	if (link->top)
		link = kmalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	INIT_LIST_HEAD(&link->top_entry);
	link->top = top;
	perf_ctx_get(top);
	link->ctx = *ctx;
	link->bound = lazy_bound(parent_ctx, top);
	/* before the parent's groups are looked at: see lazy_links_publish() */
	link->gen = smp_load_acquire(&top_extra->lazy_gen);
	list_add_tail(&link->own_entry, &own->lazy_own);
	return 0;
}

/*
 * Put the new task's links on their top contexts' lists.  Return: whether
 * perf_inherit_lazy() ran for a top context since its link was made; it
 * may have enabled a group the fork saw off, and missed the child.
 */
static bool lazy_links_publish(struct perf_event_context *ctx)
{
	struct perf_task_ctx_extra *extra = perf_task_ctx_extra(ctx);
	struct perf_lazy_link *link;
	bool missed = false;

	if (!extra)
		return false;
	list_for_each_entry(link, &extra->lazy_own, own_entry) {
		/* made by lazy_link_new() */
		struct perf_task_ctx_extra *top = perf_task_ctx_extra(link->top);

		mutex_lock(&top->lazy_mutex);
		list_add_tail(&link->top_entry, &top->lazy_links);
		missed |= top->lazy_gen != link->gen;
		mutex_unlock(&top->lazy_mutex);
	}
	return missed;
}

/* The task exits (or its fork failed): its links go. */
static void lazy_links_drop(struct perf_event_context *ctx)
{
	struct perf_task_ctx_extra *extra = perf_task_ctx_extra(ctx);
	struct perf_lazy_link *link, *tmp;

	if (!extra)
		return;
	list_for_each_entry_safe(link, tmp, &extra->lazy_own, own_entry) {
		struct perf_task_ctx_extra *top = perf_task_ctx_extra(link->top);

		mutex_lock(&top->lazy_mutex);
		list_del(&link->top_entry);
		mutex_unlock(&top->lazy_mutex);
		list_del(&link->own_entry);
		perf_ctx_put(link->top);
		if (link != &extra->first_link)
			kfree(link);
	}
}

/* Has @ctx a copy of the group @leader (a top event) leads? */
static bool ctx_has_copy(struct perf_event_context *ctx,
			 struct perf_event *leader)
{
	struct perf_event *event;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		if (event->parent == leader && event->group_leader == event)
			return true;
	return false;
}

/*
 * Does the child (@ctx, its mutex held) need no copy of @leader's group
 * now?  It waits for the group if it has a link that covers it and the
 * group is still off; a group enabled since the link was published may
 * have been copied by perf_inherit_lazy() already.
 */
static bool child_skips_group(struct perf_event_context *ctx,
			      struct perf_event *leader)
{
	struct perf_event *top = top_of(leader);
	struct perf_task_ctx_extra *extra;
	struct perf_lazy_link *link;

	extra = ctx ? perf_task_ctx_extra(ctx) : NULL;
	if (!extra || list_empty(&extra->lazy_own))
		return false;
	lockdep_assert_held(&ctx->mutex);
	link = lazy_link_find(ctx, top->ctx);
	if (!link || top->id > link->bound)
		return false;
	if (leader->state == PERF_EVENT_STATE_OFF && group_may_wait(leader))
		return true;
	return ctx_has_copy(ctx, top);
}

/*
 * Copy one event into @ctx (whose mutex is held) as a child of its top;
 * @at_fork: @child is being forked by current, else the copy is made at
 * the group's enable.
 */
static struct perf_event *inherit_event(struct perf_event *from,
					struct task_struct *child,
					struct perf_event_context *ctx,
					struct perf_event *leader, bool at_fork)
{
	struct perf_event *top = from->parent ?: from;
	struct perf_event_pmu_context *epc;
	struct perf_event *event;
	int err;

	lockdep_assert_held(&ctx->mutex);
	if (!perf_event_tryget(top))	/* being released */
		return NULL;
	event = perf_event_alloc(&from->attr, from->cpu, child, leader, top,
				 NULL, NULL, -1);
	if (IS_ERR(event)) {
		perf_event_put(top);
		return event;
	}
	/* PIDs in records as the child's line sees them, not the enabler */
	if (!at_fork) {
		struct pid_namespace *ns = task_active_pid_ns(child);

		if (ns) {
			put_pid_ns(event->ns);
			event->ns = get_pid_ns(ns);
		}
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
	err = perf_ctx_prepare_for(ctx, &event->attr);
	epc = err ? ERR_PTR(err) :
	      perf_epc_find_get_pmu(ctx, from->pmu_ctx->pmu, event->cpu);
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
			 struct perf_event_context *ctx, bool at_fork)
{
	struct perf_event *child_leader, *sibling, *copy;

	child_leader = inherit_event(leader, child, ctx, NULL, at_fork);
	if (IS_ERR_OR_NULL(child_leader))
		return PTR_ERR_OR_ZERO(child_leader);
	for_each_sibling_event(sibling, leader) {
		copy = inherit_event(sibling, child, ctx, child_leader,
				     at_fork);
		if (IS_ERR(copy))
			return PTR_ERR(copy);
	}
	return 0;
}

/* Copy the parent's groups that the child does not wait for. */
static int inherit_groups(struct perf_event_context *parent_ctx,
			  struct task_struct *child,
			  struct perf_event_context **ctx, u64 clone_flags)
{
	struct perf_event *event;
	int err = 0;

	mutex_lock(&parent_ctx->mutex);
	if (*ctx)
		mutex_lock_nested(&(*ctx)->mutex, SINGLE_DEPTH_NESTING);
	list_for_each_entry(event, &parent_ctx->event_list, event_entry) {
		if (event->group_leader != event ||
		    !event_inherits(event, clone_flags) ||
		    child_skips_group(*ctx, event))
			continue;
		if (!*ctx) {
			if (!child_ctx(child, ctx)) {
				err = -ENOMEM;
				break;
			}
			mutex_lock_nested(&(*ctx)->mutex, SINGLE_DEPTH_NESTING);
		}
		err = inherit_group(event, child, *ctx, true);
		if (err)
			break;
	}
	if (*ctx)
		mutex_unlock(&(*ctx)->mutex);
	mutex_unlock(&parent_ctx->mutex);
	return err;
}

/* The child's link to @top, and whether that may leave a group uncopied. */
static int link_top(struct perf_event_context *parent_ctx,
		    struct task_struct *child, struct perf_event_context **ctx,
		    struct perf_event_context *top, bool *copy)
{
	if (top != parent_ctx && !(*ctx && lazy_link_find(*ctx, top)))
		*copy = true;
	return lazy_link_new(child, ctx, parent_ctx, top);
}

/*
 * Look at the parent's groups (its ctx->mutex held): a link for the top
 * context of each that waits, and *@copy if one may need its copy now.
 * What a look finds is kept for the next fork, while the groups stay as
 * they are (ctx->groups_gen): a process whose groups are all off, as a
 * paused profiler leaves them, spawns its threads without a walk over
 * them.  The kept answer ignores the clone flags, and may say "copy"
 * where a look would not: inherit_groups() decides.
 */
static int groups_look(struct perf_event_context *parent_ctx,
		       struct task_struct *child,
		       struct perf_event_context **ctx, u64 clone_flags,
		       bool *copy)
{
	struct perf_task_ctx_extra *extra = perf_task_ctx_extra(parent_ctx);
	struct perf_event_context *top = NULL;
	bool copy_any = false, several = false;
	struct perf_event *event;
	unsigned long gen;
	int err;

	lockdep_assert_held(&parent_ctx->mutex);
	/* before the states: pairs with perf_groups_changed() */
	gen = smp_load_acquire(&parent_ctx->groups_gen);
	if (!gen)		/* no group ever: nothing to find or keep */
		return 0;
	if (extra && extra->scan_gen == gen) {
		*copy |= extra->scan_copy;
		top = extra->scan_top;
		return top ? link_top(parent_ctx, child, ctx, top, copy) : 0;
	}
	list_for_each_entry(event, &parent_ctx->event_list, event_entry) {
		if (!group_waits(event)) {
			if (event->group_leader != event ||
			    !event->attr.inherit ||
			    event->state <= PERF_EVENT_STATE_EXIT)
				continue;
			copy_any = true;
			*copy |= event_inherits(event, clone_flags);
			continue;
		}
		if (top_of(event)->ctx == top)
			continue;
		several |= !!top;
		top = top_of(event)->ctx;
		err = link_top(parent_ctx, child, ctx, top, copy);
		if (err)
			return err;
	}
	/* kept in the extra state: if it cannot be made, the next look again */
	extra = several ? NULL : perf_task_ctx_extra_get(parent_ctx);
	if (extra) {
		extra->scan_gen = gen;
		extra->scan_top = top;
		extra->scan_copy = copy_any;
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
	struct perf_task_ctx_extra *extra;
	struct perf_lazy_link *link;
	bool copy = false;
	int err = 0;

	RCU_INIT_POINTER(*task_ctxp(child), NULL);
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);

	parent_ctx = perf_task_ctx_get(current);
	if (!parent_ctx)
		return 0;

	/*
	 * The links first, each with the generation of its top context's
	 * enables (perf_inherit_lazy()), and published before any group is
	 * copied.  An enable of a group the scan below saw off either finds
	 * the published link and copies the group into the child, or ran
	 * before the publication, which sees its generation and has the
	 * groups looked at again.  The links to contexts other than the
	 * parent's and its links' are made while the scan looks: their
	 * generations come too late to tell, so the groups are looked at
	 * again anyway.
	 */
	mutex_lock(&parent_ctx->mutex);
	extra = perf_task_ctx_extra(parent_ctx);
	if (extra) {
		list_for_each_entry(link, &extra->lazy_own, own_entry) {
			err = lazy_link_new(child, &ctx, parent_ctx, link->top);
			if (err)
				break;
		}
	}
	if (!err)
		err = groups_look(parent_ctx, child, &ctx, clone_flags, &copy);
	mutex_unlock(&parent_ctx->mutex);
	if (err)
		goto out;
	if (ctx && lazy_links_publish(ctx))
		copy = true;
	if (copy)
		err = inherit_groups(parent_ctx, child, &ctx, clone_flags);
out:
	perf_ctx_put(parent_ctx);

	if (err)
		perf_event_free_task(child);
	return err;
}

/**
 * __perf_inherit_lazy - copy a group into the descendants that wait for it
 * @leader: the leader of a group opened by the user, just enabled; its
 *	    ctx->mutex held
 *
 * Every descendant forked while the group was off, and still alive, gets
 * its copies now, in the states the group's members have.  A descendant
 * that already has them (the group was enabled before) is left alone.
 *
 * Return: 0, or -ENOMEM when a copy could not be made.
 */
int __perf_inherit_lazy(struct perf_event *leader)
{
	struct perf_event_context *top = leader->ctx;
	struct perf_task_ctx_extra *extra;
	struct perf_lazy_link *link;
	int err = 0;

	lockdep_assert_held(&top->mutex);
	if (!top->task || leader->parent || leader->group_leader != leader ||
	    !leader->attr.inherit ||
	    leader->state < PERF_EVENT_STATE_INACTIVE ||
	    !group_may_wait(leader))
		return 0;
	/* made here if no fork has made it: one may be making a link */
	extra = perf_task_ctx_extra_get(top);
	if (!extra)
		return -ENOMEM;
	mutex_lock(&extra->lazy_mutex);
	/* after the group was enabled: a fork that saw it off looks again */
	smp_store_release(&extra->lazy_gen, extra->lazy_gen + 1);
	list_for_each_entry(link, &extra->lazy_links, top_entry) {
		struct perf_event_context *ctx = link->ctx;

		if (leader->id > link->bound)
			continue;
		mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
		/* an exiting task drops its links before it empties its context */
		if (!perf_ctx_is_dead(ctx) && !ctx_has_copy(ctx, leader))
			err = inherit_group(leader, ctx->task, ctx, false);
		mutex_unlock(&ctx->mutex);
		if (err)
			break;
	}
	mutex_unlock(&extra->lazy_mutex);
	return err;
}

/* ---------------------------------------------------------------------
 * Off the PMU at exit, on at exec: the task's whole context at once
 */

static void sched_out_all_func(struct perf_cpu_context *cpuctx,
			       struct perf_event_context *ctx, void *info)
{
	struct perf_event_pmu_context *epc;
	bool here = cpuctx && cpuctx->task_ctx == ctx;

	/* as at a switch: PMUs enabled from here on see no task context */
	if (here)
		cpuctx->task_ctx = NULL;
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (cpuctx)
			perf_this_cpc(epc->pmu)->task_epc = NULL;
		if (here)
			perf_epc_sched_out_leaving(epc);
		else
			perf_epc_sched_out(epc, EVENT_ALL);
	}
	ctx->is_active = 0;
}

/*
 * perf_ctx_sched_out_all - take every event of a task context off the PMUs
 * @ctx: the context; ctx->mutex held
 *
 * Used at exit: the context stays inactive afterwards.
 */
static void perf_ctx_sched_out_all(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	ctx_function_call(ctx, sched_out_all_func, NULL);
}

static void enable_on_exec_func(struct perf_cpu_context *cpuctx,
				struct perf_event_context *ctx, void *info)
{
	struct perf_event *event;
	bool changed = false;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!event->attr.enable_on_exec ||
		    event->state >= PERF_EVENT_STATE_INACTIVE)
			continue;
		event->attr.enable_on_exec = 0;
		if (event->state != PERF_EVENT_STATE_OFF)
			continue;
		event->tstamp = ctx->time;
		perf_event_set_inactive(event);
		changed = true;
	}
	/* enable_on_exec, cleared, let groups wait at fork */
	perf_groups_changed(ctx);
	if (changed && cpuctx && ctx->is_active) {
		struct perf_event_pmu_context *epc;

		list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
			perf_pmu_resched_locked(cpuctx, epc->pmu, ctx);
	}
}

/*
 * perf_enable_on_exec - start the events that wait for exec
 * @ctx: current's context; ctx->mutex held
 */
static void perf_enable_on_exec(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	ctx_function_call(ctx, enable_on_exec_func, NULL);
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
	lazy_links_drop(ctx);
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
	lazy_links_drop(ctx);
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
