/* SPDX-License-Identifier: GPL-2.0 */
/* Inherited events at fork, exit and exec (inherit.c). */
#ifndef _KERNEL_EVENTS_INHERIT_H
#define _KERNEL_EVENTS_INHERIT_H

#include <linux/perf_event.h>

/* Fold an exiting child's count and times into its parent. */
void perf_child_fold(struct perf_event *child);
int __perf_inherit_lazy(struct perf_event *leader);

/* Copies of a group just enabled, for the descendants that wait for it. */
static inline int perf_inherit_lazy(struct perf_event *leader)
{
	/* only a group with inherit has descendants that wait for it */
	if (!leader->attr.inherit)
		return 0;
	return __perf_inherit_lazy(leader);
}

#endif /* _KERNEL_EVENTS_INHERIT_H */
