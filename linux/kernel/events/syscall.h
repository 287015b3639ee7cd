/* SPDX-License-Identifier: GPL-2.0 */
/* perf_event_open(2): the attr checks, CPU events without a file (syscall.c). */
#ifndef _KERNEL_EVENTS_SYSCALL_H
#define _KERNEL_EVENTS_SYSCALL_H

int perf_attr_check(struct perf_event_attr *attr);
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);
struct perf_event *perf_event_alloc_cpu_event(struct perf_event_attr *attr,
					      int cpu);
int perf_event_join_cpu_ctx(struct perf_event *event,
			    struct perf_event_context *ctx);
void perf_event_leave_cpu_ctx(struct perf_event *event);

#endif /* _KERNEL_EVENTS_SYSCALL_H */
