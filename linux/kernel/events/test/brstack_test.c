// SPDX-License-Identifier: GPL-2.0
/*
 * "brstack_test": a PMU, counted in software, whose samples carry a branch
 * stack, so that the core's handling of PERF_SAMPLE_BRANCH_STACK (attr
 * fields, record layout, attr.sample_max_stack) can be tested on machines
 * whose PMU records no branches.  Built with CONFIG_PERF_AUX_TEST, and
 * registered only while /sys/module/brstack_test/parameters/enable is 1.
 * Like the hardware it stands in for, it is a perf_hw_context PMU.
 *
 * An event of it is a clock: it counts the nanoseconds it runs and, when
 * sampling, takes a sample every attr.sample_period nanoseconds (at least
 * 10 us; no frequency mode) from an hrtimer.  The branch stack of each
 * sample has attr.config entries (1 to BRSTACK_TEST_MAX; 0 means 16),
 * newest first: entry i goes from address i + 1 to address i + 2, so a
 * reader can tell which entries it was given.  hw_idx is -1 (unknown).
 */

#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include <asm/irq_regs.h>

#include "test_pmu.h"

#define BRSTACK_TEST_MAX	256
#define BRSTACK_TEST_DEFAULT	16
#define BRSTACK_TEST_MIN_PERIOD	10000ULL	/* ns */

/* Per event: the stack every sample carries (entries follow it). */
struct brstack_test_state {
	struct perf_branch_stack	brs;
};

static struct pmu brstack_test_pmu;

static void brstack_test_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 then = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - then, &event->count);
}

static bool brstack_test_excluded(struct perf_event *event,
				  struct pt_regs *regs)
{
	return user_mode(regs) ? event->attr.exclude_user :
				 event->attr.exclude_kernel;
}

/* Hard IRQ: a period ran out; sample, then arm the next. */
static enum hrtimer_restart brstack_test_timer_fn(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						 hw.hrtimer);
	struct brstack_test_state *st = event->pmu_private;
	struct perf_sample_data data;
	struct pt_regs *regs = get_irq_regs();

	/* a throttle stopped it from inside perf_event_overflow() below */
	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;

	brstack_test_update(event);
	perf_sample_data_init(&data, 0, event->hw.last_period);
	if (regs && !brstack_test_excluded(event, regs)) {
		if (has_branch_stack(event))
			perf_sample_save_brstack(&data, event, &st->brs, NULL);
		if (perf_event_overflow(event, &data, regs))
			return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(event->hw.sample_period));
	return HRTIMER_RESTART;
}

static void brstack_test_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_set(&hwc->prev_count, local_clock());
	hwc->state = 0;
	if (is_sampling_event(event))
		hrtimer_start(&hwc->hrtimer, ns_to_ktime(hwc->sample_period),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Called on the event's CPU with IRQs off, or by a throttle from inside
 * the timer callback, where the timer cannot be cancelled: the callback
 * then sees the event stopped and does not re-arm.
 */
static void brstack_test_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (is_sampling_event(event))
		hrtimer_try_to_cancel(&hwc->hrtimer);
	brstack_test_update(event);
}

static int brstack_test_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		brstack_test_start(event, flags);
	return 0;
}

static void brstack_test_del(struct perf_event *event, int flags)
{
	brstack_test_stop(event, PERF_EF_UPDATE);
	if (is_sampling_event(event))
		hrtimer_cancel(&event->hw.hrtimer);
}

static void brstack_test_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		brstack_test_update(event);
}

static void brstack_test_free(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

static int brstack_test_event_init(struct perf_event *event)
{
	u64 nr = event->attr.config ?: BRSTACK_TEST_DEFAULT;
	struct hw_perf_event *hwc = &event->hw;
	struct brstack_test_state *st;
	u64 i;

	if (event->attr.type != brstack_test_pmu.type)
		return -ENOENT;
	if (nr > BRSTACK_TEST_MAX || event->attr.freq)
		return -EINVAL;

	st = kzalloc(struct_size(st, brs.entries, nr), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->brs.nr = nr;
	st->brs.hw_idx = -1ULL;
	for (i = 0; i < nr; i++) {
		st->brs.entries[i].from = i + 1;
		st->brs.entries[i].to = i + 2;
	}
	event->pmu_private = st;
	event->destroy = brstack_test_free;

	if (is_sampling_event(event)) {
		hwc->sample_period = max(event->attr.sample_period,
					 BRSTACK_TEST_MIN_PERIOD);
		hwc->last_period = hwc->sample_period;
		hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		hwc->hrtimer.function = brstack_test_timer_fn;
	}
	return 0;
}

static struct pmu brstack_test_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,

	.event_init	= brstack_test_event_init,
	.add		= brstack_test_add,
	.del		= brstack_test_del,
	.start		= brstack_test_start,
	.stop		= brstack_test_stop,
	.read		= brstack_test_read,
};

static PERF_TEST_PMU_SWITCH(brstack_test_switch, &brstack_test_pmu,
			     "brstack_test");
module_param_cb(enable, &perf_test_pmu_switch_ops, &brstack_test_switch, 0644);
MODULE_PARM_DESC(enable, "register the brstack_test PMU");
