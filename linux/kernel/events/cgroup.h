/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf_event cgroup controller, cgroup clocks and the switching of
 * cgroup events (cgroup.c).  Without CONFIG_CGROUP_PERF the hooks below
 * are inline stand-ins, so the rest of the core calls them unconditionally.
 */
#ifndef _KERNEL_EVENTS_CGROUP_H
#define _KERNEL_EVENTS_CGROUP_H

#include <linux/cgroup.h>
#include <linux/jump_label.h>
#include <linux/perf_event.h>

struct perf_cpu_context;

#ifdef CONFIG_CGROUP_PERF
/*
 * PERF_FLAG_PID_CGROUP, from perf_event_alloc(): sets event->cgrp with a
 * reference.  -EBADF, the lookup's error, or -EINVAL when the group
 * leader counts in another cgroup.
 */
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *group_leader);
void perf_cgroup_disconnect(struct perf_event *event);

/* cgroup events exist: the context switch looks at cgroups */
DECLARE_STATIC_KEY_FALSE(perf_cgroup_events);
/* the task running on this CPU is (now) @task: follow its cgroup */
void perf_cgroup_switch(struct task_struct *task);

/* the context switch to @task, before its own context comes on */
static inline void perf_cgroup_sched_in(struct task_struct *task)
{
	if (static_branch_unlikely(&perf_cgroup_events))
		perf_cgroup_switch(task);
}

/*
 * The CPU context of this CPU starts (the CPU comes online, or its first
 * cgroup event arrives) or stops having cgroup events to time: the clocks
 * of the running task's cgroup start or stop.  IRQs off, the CPU
 * context's lock held.
 */
void perf_cgroup_cpu_start(struct perf_cpu_context *cpuctx);
void perf_cgroup_cpu_stop(struct perf_cpu_context *cpuctx);

/* the time of @event's cgroup on this CPU (IRQs off, maybe NMI) */
u64 perf_cgroup_event_time(struct perf_event *event);

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return event->cgrp;
}

/*
 * May @event (of this CPU's context) count with the task running here?
 * A cgroup event counts while a task of its cgroup, or of one below it,
 * runs.  IRQs off.
 */
static __always_inline bool perf_cgroup_event_matches(struct perf_event *event)
{
	struct perf_cgroup *now = this_cpu_ptr(&perf_cpu_context)->cgrp;

	if (!event->cgrp)
		return true;
	return now && cgroup_is_descendant(now->css.cgroup,
					   event->cgrp->css.cgroup);
}
#else
/* Without the controller the flag names nothing: -EINVAL. */
static inline int perf_cgroup_connect(int fd, struct perf_event *event,
				      struct perf_event *group_leader)
{
	return -EINVAL;
}

static inline void perf_cgroup_disconnect(struct perf_event *event)
{
}

static inline void perf_cgroup_sched_in(struct task_struct *task)
{
}

static inline void perf_cgroup_cpu_start(struct perf_cpu_context *cpuctx)
{
}

static inline void perf_cgroup_cpu_stop(struct perf_cpu_context *cpuctx)
{
}

static inline u64 perf_cgroup_event_time(struct perf_event *event)
{
	return 0;
}

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return false;
}

static inline bool perf_cgroup_event_matches(struct perf_event *event)
{
	return true;
}
#endif

#endif /* _KERNEL_EVENTS_CGROUP_H */
