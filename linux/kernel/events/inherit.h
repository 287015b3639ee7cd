/* SPDX-License-Identifier: GPL-2.0 */
/* Inherited events at fork, exit and exec (inherit.c). */
#ifndef _KERNEL_EVENTS_INHERIT_H
#define _KERNEL_EVENTS_INHERIT_H

/* Fold an exiting child's count and times into its parent. */
void perf_child_fold(struct perf_event *child);
/* Copies of a group just enabled, for the descendants that wait for it. */
int perf_inherit_lazy(struct perf_event *leader);

#endif /* _KERNEL_EVENTS_INHERIT_H */
