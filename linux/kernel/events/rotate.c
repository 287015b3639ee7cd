// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing: when the flexible groups of a PMU do not all fit on it,
 * a per-CPU hrtimer (one per PMU, perf_cpu_pmu_context.mux_timer) takes
 * them off every mux_interval, moves the first group that may run here to
 * the back, and puts them on again, so that each one runs for a share of
 * the time (its total_time_running < total_time_enabled tells the reader
 * to scale).  perf_epc_sched_in() arms the timer when a group does not fit
 * (rotate_necessary); the timer stops itself once everything fits.
 *
 * A tick of the timer takes the flexible groups of the PMU off in both
 * the CPU context and the running task's context, rotates the CPU
 * context's groups if they need it (else the task context's), and puts
 * them on again.  Hard IRQ context, both contexts' locks held (CPU context
 * first).  cpc->mux_lock: the DOC: block "Multiplexing lock" below.
 */

/**
 * DOC: Multiplexing lock
 *
 * ``cpc->mux_lock`` (``struct perf_cpu_pmu_context``, a raw spinlock)
 *   Protects ``cpc->mux_armed``: arming the timer (from sched-in, with
 *   ``ctx->lock`` held) against the timer's own decision to stop.  The timer
 *   callback takes it after dropping the context locks.
 */

#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include "internal.h"
#include "context.h"
#include "groups.h"
#include "rotate.h"

static enum hrtimer_restart mux_timer_fn(struct hrtimer *timer)
{
	struct perf_cpu_pmu_context *cpc;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_pmu_context *tepc;
	struct perf_event_context *tctx;
	struct pmu *pmu;
	bool again = false;

	cpc = container_of(timer, struct perf_cpu_pmu_context, mux_timer);
	pmu = cpc->epc.pmu;
	if (cpc != perf_this_cpc(pmu)) {
		/* moved off a CPU that went offline: stop */
		cpc->mux_armed = false;
		return HRTIMER_NORESTART;
	}

	raw_spin_lock(&cpuctx->ctx.lock);
	tepc = cpc->task_epc;
	tctx = tepc ? tepc->ctx : NULL;
	perf_ctx_lock_other(cpuctx, tctx);
	if (cpc->epc.rotate_necessary || (tepc && tepc->rotate_necessary)) {
		perf_pmu_disable(pmu);
		/* first the time: the groups going off are owed this slice */
		perf_ctx_update_time(&cpuctx->ctx);
		if (tepc)
			perf_ctx_update_time(tepc->ctx);
		if (tepc)
			perf_epc_sched_out(tepc, EVENT_FLEXIBLE);
		perf_epc_sched_out(&cpc->epc, EVENT_FLEXIBLE);
		if (cpc->epc.rotate_necessary)
			perf_groups_rotate(&cpc->epc);
		else if (tepc)
			perf_groups_rotate(tepc);
		cpc->epc.rotate_necessary = 0;
		if (tepc)
			tepc->rotate_necessary = 0;
		if (cpuctx->ctx.is_active)
			perf_epc_sched_in(&cpc->epc, EVENT_FLEXIBLE);
		if (tepc)
			perf_epc_sched_in(tepc, EVENT_FLEXIBLE);
		perf_pmu_enable(pmu);
		again = cpc->epc.rotate_necessary ||
			(tepc && tepc->rotate_necessary);
	}
	perf_ctx_unlock_other(cpuctx, tctx);
	raw_spin_unlock(&cpuctx->ctx.lock);

	raw_spin_lock(&cpc->mux_lock);
	if (again)
		hrtimer_forward_now(timer, cpc->mux_interval);
	else
		cpc->mux_armed = false;
	raw_spin_unlock(&cpc->mux_lock);
	return again ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/**
 * perf_mux_timer_start - arm a PMU's multiplexing timer on this CPU
 * @cpc: the PMU's state on this CPU
 *
 * A no-op while the timer is armed.  IRQs off (from perf_epc_sched_in()).
 */
void perf_mux_timer_start(struct perf_cpu_pmu_context *cpc)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpc->mux_lock, flags);
	if (!cpc->mux_armed) {
		cpc->mux_armed = true;
		hrtimer_start(&cpc->mux_timer, cpc->mux_interval,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	raw_spin_unlock_irqrestore(&cpc->mux_lock, flags);
}

/**
 * perf_mux_timer_init - set up a PMU's multiplexing timer on a CPU
 * @cpc: the PMU's state on that CPU, at registration
 * @ms: the multiplexing period in milliseconds (pmu->hrtimer_interval_ms)
 */
void perf_mux_timer_init(struct perf_cpu_pmu_context *cpc, unsigned int ms)
{
	raw_spin_lock_init(&cpc->mux_lock);
	hrtimer_init(&cpc->mux_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	cpc->mux_timer.function = mux_timer_fn;
	perf_mux_set_interval(cpc, ms);
}

/**
 * perf_mux_timer_stop - a PMU goes away: stop its multiplexing timer on a CPU
 * @cpc: the PMU's state on that CPU; the PMU has no events left
 */
void perf_mux_timer_stop(struct perf_cpu_pmu_context *cpc)
{
	hrtimer_cancel(&cpc->mux_timer);
}

/**
 * perf_mux_set_interval - the multiplexing period of a PMU on a CPU
 * @cpc: the PMU's state on that CPU
 * @ms: milliseconds, at least 1 (pmu.c keeps pmu->hrtimer_interval_ms so)
 *
 * Taken up the next time the timer is armed.
 */
void perf_mux_set_interval(struct perf_cpu_pmu_context *cpc, unsigned int ms)
{
	cpc->mux_interval = ms_to_ktime(ms);
}
