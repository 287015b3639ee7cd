/* SPDX-License-Identifier: GPL-2.0 */
/* The software PMUs (swevent.c). */
#ifndef _KERNEL_EVENTS_SWEVENT_H
#define _KERNEL_EVENTS_SWEVENT_H

void perf_swevent_init_cpu(unsigned int cpu);
void perf_swevent_setup(void);	/* registers the software PMUs */
bool perf_is_cpu_clock(struct perf_event *event);
/* add() of a sampling software-counted event (software, breakpoint PMUs) */
void perf_swevent_start_period(struct perf_event *event);

#endif /* _KERNEL_EVENTS_SWEVENT_H */
