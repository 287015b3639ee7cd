/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel and user callchains and their per-CPU buffers (callchain.c). */
#ifndef _KERNEL_EVENTS_CALLCHAIN_H
#define _KERNEL_EVENTS_CALLCHAIN_H

struct perf_event;

/*
 * Event allocation (not installed yet, process context): an event that
 * samples PERF_SAMPLE_CALLCHAIN takes the callchain buffers (sets
 * PERF_ATTACH_CALLCHAIN).  -EOVERFLOW (sample_max_stack too deep) or
 * -ENOMEM.  Event free: give them back.
 */
int perf_callchain_event_init(struct perf_event *event);
void perf_callchain_event_free(struct perf_event *event);

/*
 * For perf_event_max_stack_handler(): store a new perf_event_max_stack or
 * perf_event_max_contexts_per_stack, or -EBUSY while buffers sized from
 * the current values are in use.
 */
int perf_callchain_limit_store(int *limit, int value);

#endif /* _KERNEL_EVENTS_CALLCHAIN_H */
