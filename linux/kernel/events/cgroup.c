// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_event cgroup controller.
 *
 * Every cgroup gets a struct perf_cgroup: its css and, per CPU, the clock
 * that cgroup events read their enabled time from.  The controller exists
 * so that perf_event_open(2) with PERF_FLAG_PID_CGROUP can name a cgroup
 * by an fd of its directory, and so that the scheduler can tell when a
 * context switch crosses cgroups (PERF_COUNT_SW_CGROUP_SWITCHES, through
 * perf_cgroup_from_task() in <linux/perf_event.h>).
 *
 * On the default hierarchy the controller is on in every cgroup without
 * being asked for, and it works in threaded subtrees too.
 *
 * A cgroup event is a CPU-wide event tied to one cgroup: it is on the PMU
 * only while a task of that cgroup, or of a cgroup below it, runs on its
 * CPU, and its enabled time is that cgroup's time on the CPU (each cgroup
 * keeps a per-CPU clock, struct perf_cgroup_info, that runs while its
 * tasks or its descendants' run there).  The context switch, and the move
 * of a running task to another cgroup (perf_cgroup_attach() below), call
 * perf_cgroup_switch(), which takes the CPU context's cgroup events off
 * and puts on those of the new cgroup with context.c's primitives.
 */

#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"
#include "cgroup.h"
#include "context.h"
#include "records.h"

static inline struct perf_cgroup *css_to_perf_cgroup(struct cgroup_subsys_state *css)
{
	return container_of(css, struct perf_cgroup, css);
}

/*
 * Start (@run) or stop the clocks of @cgrp (NULL: nothing to do) and its
 * ancestors on this CPU.  IRQs off, the CPU context's lock held.
 */
static void perf_cgroup_clocks_run(struct perf_cgroup *cgrp, bool run)
{
	struct cgroup_subsys_state *css;
	u64 now = perf_clock();

	lockdep_assert_held(&this_cpu_ptr(&perf_cpu_context)->ctx.lock);
	for (css = cgrp ? &cgrp->css : NULL; css; css = css->parent) {
		struct perf_cgroup_info *info =
			this_cpu_ptr(css_to_perf_cgroup(css)->info);

		/* the same one-word offset as a context's clock (context.h) */
		if (info->active)
			WRITE_ONCE(info->time, info->time + now - info->timestamp);
		info->timestamp = now;
		WRITE_ONCE(info->timeoffset, info->time - now);
		WRITE_ONCE(info->active, run);
	}
}

/**
 * perf_cgroup_event_time - a cgroup event's clock, up to now
 * @event: a cgroup event; its cgroup's clock on the event's CPU is read
 *
 * Return: the time in nanoseconds.
 */
u64 perf_cgroup_event_time(struct perf_event *event)
{
	struct perf_cgroup_info *info = per_cpu_ptr(event->cgrp->info,
						    event->cpu);
	if (READ_ONCE(info->active))
		return perf_clock() + READ_ONCE(info->timeoffset);
	return READ_ONCE(info->time);
}

DEFINE_STATIC_KEY_FALSE(perf_cgroup_events);

/**
 * perf_cgroup_cpu_start - this CPU's context starts timing cgroup events
 * @cpuctx: this CPU's context, locked, IRQs off
 *
 * Starts the clocks of the running task's cgroup, if the context has
 * cgroup events.
 */
void perf_cgroup_cpu_start(struct perf_cpu_context *cpuctx)
{
	struct perf_event_context *ctx = &cpuctx->ctx;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->nr_cgroups)
		return;
	cpuctx->cgrp = perf_cgroup_from_task(current, ctx);
	perf_cgroup_clocks_run(cpuctx->cgrp, true);
}

/**
 * perf_cgroup_cpu_stop - this CPU's context stops timing cgroup events
 * @cpuctx: this CPU's context, locked, IRQs off
 */
void perf_cgroup_cpu_stop(struct perf_cpu_context *cpuctx)
{
	lockdep_assert_held(&cpuctx->ctx.lock);
	perf_cgroup_clocks_run(cpuctx->cgrp, false);
	cpuctx->cgrp = NULL;
}

/**
 * perf_cgroup_switch - the task running here is (now) @task: follow its cgroup
 * @task: current, or the task being switched to
 *
 * Takes the CPU context's cgroup events off, moves the cgroup clocks from
 * the old cgroup to @task's and puts back on what matches it.  IRQs off.
 */
void perf_cgroup_switch(struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_event_pmu_context *epc;
	struct perf_cgroup *cgrp;

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(ctx->nr_cgroups))
		return;
	raw_spin_lock(&ctx->lock);
	cgrp = perf_cgroup_from_task(task, ctx);
	if (!ctx->nr_cgroups || cpuctx->cgrp == cgrp || !ctx->is_active) {
		raw_spin_unlock(&ctx->lock);
		return;
	}
	perf_ctx_update_time(ctx);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (!epc->nr_cgroups)
			continue;
		perf_pmu_disable(epc->pmu);
		perf_epc_sched_out(epc, EVENT_ALL);
	}
	perf_cgroup_clocks_run(cpuctx->cgrp, false);
	cpuctx->cgrp = cgrp;
	perf_cgroup_clocks_run(cgrp, true);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (!epc->nr_cgroups)
			continue;
		perf_epc_sched_in(epc, EVENT_PINNED);
		perf_epc_sched_in(epc, EVENT_FLEXIBLE);
		perf_pmu_enable(epc->pmu);
	}
	raw_spin_unlock(&ctx->lock);
}

static struct cgroup_subsys_state *
perf_cgroup_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct perf_cgroup *pc = kzalloc(sizeof(*pc), GFP_KERNEL);

	if (pc) {
		/* the per-CPU clocks are all the state a cgroup needs */
		pc->info = alloc_percpu(struct perf_cgroup_info);
		if (pc->info)
			return &pc->css;
		kfree(pc);
	}
	return ERR_PTR(-ENOMEM);
}

/* A new cgroup is announced to the events that asked (attr.cgroup). */
static int perf_cgroup_css_online(struct cgroup_subsys_state *css)
{
	perf_event_cgroup_record(css->cgroup);
	return 0;
}

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *pc = css_to_perf_cgroup(css);

	free_percpu(pc->info);
	kfree(pc);
}

/* A task moved cgroups while running: its CPU switches clocks and events. */
static void perf_cgroup_move_ipi(void *data)
{
	struct task_struct *task = data;

	if (task == current)
		perf_cgroup_switch(task);
}

static void perf_cgroup_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	if (!static_branch_unlikely(&perf_cgroup_events))
		return;
	cgroup_taskset_for_each(task, css, tset) {
		int cpu = task_cpu(task);

		if (task_curr(task) && cpu_online(cpu))
			smp_call_function_single(cpu, perf_cgroup_move_ipi,
						 task, 1);
	}
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_online	= perf_cgroup_css_online,
	.css_free	= perf_cgroup_css_free,
	.attach		= perf_cgroup_attach,
	.implicit_on_dfl = true,
	.threaded	= true,
};

/**
 * perf_cgroup_connect - tie a new event to the cgroup it is to count in
 * @fd: an open fd of the cgroup's directory (the pid argument of
 *      perf_event_open(2) with PERF_FLAG_PID_CGROUP)
 * @event: the event being created (CPU-wide)
 * @group_leader: the leader of the group it joins, or NULL
 *
 * Return: 0 with event->cgrp set (and a reference on it), -EBADF if @fd
 * is not open, the error of the cgroup lookup if it is not a directory of
 * a cgroup hierarchy with this controller (or the cgroup is going away),
 * -EINVAL if the group's leader counts in another cgroup.
 */
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *group_leader)
{
	CLASS(fd, dir)(fd);
	struct cgroup_subsys_state *css;
	struct perf_cgroup *cgrp;

	if (fd_empty(dir))
		return -EBADF;

	/* Only a live cgroup of a hierarchy that has this controller will do. */
	css = css_tryget_online_from_dir(fd_file(dir)->f_path.dentry,
					 &perf_event_cgrp_subsys);
	if (IS_ERR(css))
		return PTR_ERR(css);

	cgrp = css_to_perf_cgroup(css);
	if (group_leader && group_leader != event &&
	    group_leader->cgrp != cgrp) {
		css_put(css);
		return -EINVAL;
	}
	event->cgrp = cgrp;
	static_branch_inc(&perf_cgroup_events);
	return 0;
}

/**
 * perf_cgroup_disconnect - an event is freed: drop its cgroup
 * @event: the event (with or without a cgroup)
 */
void perf_cgroup_disconnect(struct perf_event *event)
{
	if (!event->cgrp)
		return;
	static_branch_dec(&perf_cgroup_events);
	css_put(&event->cgrp->css);
	event->cgrp = NULL;
}
