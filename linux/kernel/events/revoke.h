/* SPDX-License-Identifier: GPL-2.0 */
/* Events of a PMU that is unregistered under them (revoke.c). */
#ifndef _KERNEL_EVENTS_REVOKE_H
#define _KERNEL_EVENTS_REVOKE_H

struct pmu;

/*
 * Called by perf_pmu_unregister() once no lookup can find @pmu: every
 * event that still reaches @pmu is taken off it for good.  Process
 * context, no perf lock held.
 */
void perf_pmu_revoke_events(struct pmu *pmu);

#endif /* _KERNEL_EVENTS_REVOKE_H */
