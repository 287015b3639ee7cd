/* SPDX-License-Identifier: GPL-2.0 */
/* The perf sysctls and the permission checks (sysctl.c). */
#ifndef _KERNEL_EVENTS_SYSCTL_H
#define _KERNEL_EVENTS_SYSCTL_H

int perf_event_check_access(struct perf_event_attr *attr);
/* interrupt budget per tick, and the average handler time allowed (0: off) */
extern int perf_samples_per_tick;
extern u64 perf_sample_allowed_ns;
bool perf_sample_rate_lower(u64 took_ns);
int perf_ptrace_check(struct task_struct *task);
/*
 * attr.sigtrap events signal the task: CAP_PERFMON and CAP_KILL in its user
 * namespace, or ptrace attach rights.  0 or -EACCES.
 */
int perf_sigtrap_check(struct task_struct *task);

#endif /* _KERNEL_EVENTS_SYSCTL_H */
