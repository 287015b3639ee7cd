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
 * Step 1 of the core does not schedule cgroup events yet:
 * perf_cgroup_connect() checks its fd and then refuses the event, so there
 * is never a cgroup event to switch when a task moves between cgroups.
 */

#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "internal.h"

static inline struct perf_cgroup *css_to_perf_cgroup(struct cgroup_subsys_state *css)
{
	return container_of(css, struct perf_cgroup, css);
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

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *pc = css_to_perf_cgroup(css);

	free_percpu(pc->info);
	kfree(pc);
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_free	= perf_cgroup_css_free,
	.implicit_on_dfl = true,
	.threaded	= true,
};

/**
 * perf_cgroup_connect - tie a new event to the cgroup it is to count in
 * @fd: an open fd of the cgroup's directory (the pid argument of
 *      perf_event_open(2) with PERF_FLAG_PID_CGROUP)
 * @event: the event being created
 *
 * Cgroup events are not scheduled yet.  The fd is still checked, so that
 * a bad argument gets the error it will always get; a good one gets
 * -EOPNOTSUPP.
 *
 * Return: -EBADF if @fd is not open, the error of the cgroup lookup if it
 * is not a directory of a cgroup hierarchy with this controller (or the
 * cgroup is going away), -EOPNOTSUPP otherwise.
 */
int perf_cgroup_connect(int fd, struct perf_event *event)
{
	CLASS(fd, dir)(fd);
	struct cgroup_subsys_state *css;
	struct dentry *dentry;

	if (fd_empty(dir))
		return -EBADF;
	dentry = fd_file(dir)->f_path.dentry;

	/* Only a live cgroup of a hierarchy that has this controller will do. */
	css = css_tryget_online_from_dir(dentry, &perf_event_cgrp_subsys);
	if (IS_ERR(css))
		return PTR_ERR(css);

	css_put(css);
	return -EOPNOTSUPP;
}
