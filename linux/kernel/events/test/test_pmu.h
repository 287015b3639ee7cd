/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on/off switch of the test PMUs (aux_test, brstack_test): a module
 * parameter whose value says whether the PMU is registered.
 */
#ifndef _KERNEL_EVENTS_TEST_PMU_H
#define _KERNEL_EVENTS_TEST_PMU_H

#include <linux/moduleparam.h>
#include <linux/perf_event.h>

struct perf_test_pmu_switch {
	struct pmu	*pmu;
	const char	*name;
	bool		registered;	/* under perf_test_pmu_switch_set() */
};

#define PERF_TEST_PMU_SWITCH(_var, _pmu, _name)				\
	struct perf_test_pmu_switch _var = {				\
		.pmu = (_pmu),						\
		.name = (_name),					\
	}

/*
 * kp->arg is a struct perf_test_pmu_switch: writing 1 registers its PMU,
 * 0 unregisters it (revoking its events).
 */
extern const struct kernel_param_ops perf_test_pmu_switch_ops;

#endif /* _KERNEL_EVENTS_TEST_PMU_H */
