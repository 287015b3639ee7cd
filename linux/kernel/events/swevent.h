/* SPDX-License-Identifier: GPL-2.0 */
/* The software PMUs (swevent.c). */
#ifndef _KERNEL_EVENTS_SWEVENT_H
#define _KERNEL_EVENTS_SWEVENT_H

void perf_swevent_init_cpu(unsigned int cpu);
void perf_swevent_setup(void);	/* registers the software PMUs */
bool perf_is_cpu_clock(struct perf_event *event);
bool perf_swevent_may_stay_on(struct perf_event *event);
bool perf_pmu_counts_in_software(struct pmu *pmu);
void perf_task_clock_pages_stand(struct perf_event_context *ctx);
/* add() of a sampling software-counted event (software, breakpoint PMUs) */
void perf_swevent_start_period(struct perf_event *event);

/* perf_swevent_user_count(): what the control page says of the count */
#define PERF_USER_COUNT		0x1	/* offset is the count */
#define PERF_USER_COUNT_TIME	0x2	/* and it grows by 1 per ns */
struct perf_buffer;
unsigned int perf_swevent_user_count(struct perf_event *event,
				     struct perf_buffer *rb, u64 now,
				     u64 *count);

#endif /* _KERNEL_EVENTS_SWEVENT_H */
