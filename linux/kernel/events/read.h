/* SPDX-License-Identifier: GPL-2.0 */
/* read(2) of an event and the read_format layouts (read.c). */
#ifndef _KERNEL_EVENTS_READ_H
#define _KERNEL_EVENTS_READ_H

/* read(2) of an event fd, after the LSM check; takes the context lock. */
ssize_t perf_read_event(struct perf_event *event, char __user *buf,
			size_t count);
/* @event's values if it is on this CPU's PMU (IRQs saved inside). */
bool perf_read_here(struct perf_event *event, u64 *value, u64 *enabled,
		    u64 *running);
u64 perf_event_total(struct perf_event *event, u64 *enabled, u64 *running);
void perf_event_calc_read_size(struct perf_event *event);
void perf_group_calc_sizes(struct perf_event *leader);
size_t perf_read_size_for(u64 read_format, int nr_siblings);
/* The CPU to read @event on from here (scope/package-wide counters). */
int perf_event_read_cpu(struct perf_event *event, int cpu);

/*
 * Largest read() layout a group may have: the same layout goes into
 * PERF_SAMPLE_READ samples, whose records must stay below 64 KiB.
 */
#define PERF_READ_SIZE_MAX	(16 * 1024)

#endif /* _KERNEL_EVENTS_READ_H */
