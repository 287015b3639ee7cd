// SPDX-License-Identifier: GPL-2.0
/*
 * The on/off switch of the test PMUs: root registers one by writing 1 to
 * its module parameter and unregisters it (revoking its open events) by
 * writing 0; reading the parameter says which it is.
 */

/**
 * DOC: Test PMU switch lock
 *
 * ``perf_test_pmu_switch.lock`` (``test_pmu.c``; ``CONFIG_PERF_AUX_TEST``)
 *   One per test PMU (``aux_test``, ``brstack_test``): serialises
 *   registering and unregistering it from its module parameter;
 *   unregistering revokes the PMU's events, taking ``ctx->mutex`` and
 *   ``mmap_mutex`` inside it.
 */

#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include "test_pmu.h"

/* one switch at a time, of any test PMU */
static DEFINE_MUTEX(perf_test_pmu_switch_lock);

static int perf_test_pmu_switch_set(const char *val,
				    const struct kernel_param *kp)
{
	struct perf_test_pmu_switch *sw = kp->arg;
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	/* not from the boot command line: the core is not up yet */
	if (system_state != SYSTEM_RUNNING)
		return -EBUSY;

	mutex_lock(&perf_test_pmu_switch_lock);
	if (on && !sw->registered)
		err = perf_pmu_register(sw->pmu, sw->name, -1);
	else if (!on && sw->registered)
		perf_pmu_unregister(sw->pmu);
	if (!err)
		WRITE_ONCE(sw->registered, on);
	mutex_unlock(&perf_test_pmu_switch_lock);
	return err;
}

static int perf_test_pmu_switch_get(char *buf, const struct kernel_param *kp)
{
	struct perf_test_pmu_switch *sw = kp->arg;

	return sysfs_emit(buf, "%d\n", READ_ONCE(sw->registered));
}

const struct kernel_param_ops perf_test_pmu_switch_ops = {
	.set	= perf_test_pmu_switch_set,
	.get	= perf_test_pmu_switch_get,
};
