/* SPDX-License-Identifier: GPL-2.0 */
/* One fd that counts on every CPU: PERF_FLAG_ALL_CPUS (all_cpus.c). */
#ifndef _KERNEL_EVENTS_ALL_CPUS_H
#define _KERNEL_EVENTS_ALL_CPUS_H

#include <linux/types.h>

struct perf_event_attr;

int perf_all_cpus_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd, unsigned long flags);

#endif /* _KERNEL_EVENTS_ALL_CPUS_H */
