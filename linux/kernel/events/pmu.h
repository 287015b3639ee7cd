/* SPDX-License-Identifier: GPL-2.0 */
/* The PMU registry and its sysfs files (pmu.c). */
#ifndef _KERNEL_EVENTS_PMU_H
#define _KERNEL_EVENTS_PMU_H

/* Find the PMU for event->attr and run its event_init; takes a module ref. */
int perf_pmu_init_event(struct perf_event *event);
void perf_pmu_put_event(struct perf_event *event);
struct pmu *perf_pmu_by_type(u32 type);	/* under pmus_srcu */
extern struct srcu_struct pmus_srcu;
extern struct list_head perf_pmus;
extern struct mutex perf_pmus_lock;
#define for_each_perf_pmu(pmu) \
	list_for_each_entry_srcu(pmu, &perf_pmus, entry, \
				 srcu_read_lock_held(&pmus_srcu) || \
				 lockdep_is_held(&perf_pmus_lock))
void perf_pmu_sysfs_init(void);
/*
 * Scoped PMUs (pmu->scope): CPU hotplug keeps one designated CPU per
 * domain; online before the CPU context starts, offline (which migrates
 * the scoped PMUs' events) before it stops.  Neither with ctx->mutex held.
 */
void perf_pmu_scope_cpu_online(unsigned int cpu);
void perf_pmu_scope_cpu_offline(unsigned int cpu);
const struct cpumask *perf_pmu_scope_span(unsigned int scope, int cpu);

#endif /* _KERNEL_EVENTS_PMU_H */
