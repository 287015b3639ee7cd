/* SPDX-License-Identifier: GPL-2.0 */
/* perf_event_open(2): the attr checks, CPU events without a file (syscall.c). */
#ifndef _KERNEL_EVENTS_SYSCALL_H
#define _KERNEL_EVENTS_SYSCALL_H

int perf_attr_check(struct perf_event_attr *attr);
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);
struct perf_event *perf_event_create_cpu_event(struct perf_event_attr *attr,
					       int cpu);

#endif /* _KERNEL_EVENTS_SYSCALL_H */
