/* SPDX-License-Identifier: GPL-2.0 */
/* Multiplexing: the per-CPU, per-PMU rotation timer (rotate.c). */
#ifndef _KERNEL_EVENTS_ROTATE_H
#define _KERNEL_EVENTS_ROTATE_H

struct perf_cpu_pmu_context;

/* multiplexing period of a PMU that does not ask for one */
#define PERF_MUX_DEFAULT_MS	4

void perf_mux_timer_init(struct perf_cpu_pmu_context *cpc, unsigned int ms);
/* Arm @cpc's timer unless it runs already; IRQs off. */
void perf_mux_timer_start(struct perf_cpu_pmu_context *cpc);
void perf_mux_timer_stop(struct perf_cpu_pmu_context *cpc);
void perf_mux_set_interval(struct perf_cpu_pmu_context *cpc, unsigned int ms);

#endif /* _KERNEL_EVENTS_ROTATE_H */
