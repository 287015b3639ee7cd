/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduling primitives of context.c that the files around it use:
 * rotate.c (multiplexing) and hotplug.c (CPU contexts across CPU hotplug,
 * moving CPU-wide events between CPUs).  The locking rules are context.c's
 * (its top comment): IRQs off, on the CPU where the contexts are active,
 * and, unless a comment below says a function takes them itself, with the
 * locks of the contexts it touches held.
 */
#ifndef _KERNEL_EVENTS_CONTEXT_H
#define _KERNEL_EVENTS_CONTEXT_H

#include "internal.h"

/* This CPU's state of @pmu. */
static inline struct perf_cpu_pmu_context *perf_this_cpc(struct pmu *pmu)
{
	return this_cpu_ptr(pmu->cpu_pmu_context);
}

/*
 * The PMU that schedules @event's group: the PMU of its sub-context.  A
 * software event in a hardware group goes on and off with the hardware
 * PMU's groups, while event->pmu (its own PMU) still counts it.  Anything
 * per CPU about scheduling (task_epc, exclusive, the active groups) is
 * that PMU's.
 */
static inline struct pmu *perf_group_pmu(struct perf_event *event)
{
	return event->pmu_ctx->pmu;
}

/*
 * ctx->time and ctx->timestamp are two words, and a sample that reports
 * times may be taken in an NMI that stopped their writer between the two.
 * ctx->timeoffset is time - timestamp in one word, written after both:
 * while EVENT_TIME is set the context's clock is perf_clock() + timeoffset
 * (perf_event_times_local()), whichever of the writes an NMI comes after.
 */
static inline void perf_ctx_set_timestamp(struct perf_event_context *ctx,
					  u64 now)
{
	ctx->timestamp = now;
	WRITE_ONCE(ctx->timeoffset, ctx->time - now);
}

/* Bring ctx->time up to now (it advances only while EVENT_TIME is set). */
static inline void perf_ctx_update_time(struct perf_event_context *ctx)
{
	u64 now = perf_clock();

	if (ctx->is_active & EVENT_TIME)
		WRITE_ONCE(ctx->time, ctx->time + now - ctx->timestamp);
	perf_ctx_set_timestamp(ctx, now);
}

/*
 * With this CPU's context locked, lock @ctx as well unless it is NULL or
 * that same context; unlock it the same way.  The else branches do
 * nothing at run time: they tell sparse that both paths hold the same.
 */
static inline void perf_ctx_lock_other(struct perf_cpu_context *cpuctx,
				       struct perf_event_context *ctx)
	__acquires(ctx->lock)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_lock(&ctx->lock);
	else
		__acquire(ctx->lock);
}

static inline void perf_ctx_unlock_other(struct perf_cpu_context *cpuctx,
					 struct perf_event_context *ctx)
	__releases(ctx->lock)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_unlock(&ctx->lock);
	else
		__release(ctx->lock);
}

void perf_epc_init(struct perf_event_pmu_context *epc, struct pmu *pmu,
		   struct perf_event_context *ctx);

/*
 * Take the groups of a sub-context (or of every sub-context of a context)
 * off the PMU, or put them on; @what: EVENT_PINNED, EVENT_FLEXIBLE or both.
 * A flexible group that does not fit marks its sub-context for rotation.
 */
void perf_epc_sched_out(struct perf_event_pmu_context *epc, int what);
void perf_epc_sched_in(struct perf_event_pmu_context *epc, int what);
void perf_ctx_sched_out(struct perf_event_context *ctx, int what);
void perf_ctx_sched_in(struct perf_event_context *ctx, int what);

/* Move the first flexible group to the back (the sub-context is off). */
void perf_groups_rotate(struct perf_event_pmu_context *epc);

/* Take this CPU's active task context off (takes its lock; IRQs off). */
void perf_task_ctx_deactivate(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx);

/* rotate.c: arm @cpc's multiplexing timer unless it runs already. */
void perf_mux_timer_start(struct perf_cpu_pmu_context *cpc);

#endif /* _KERNEL_EVENTS_CONTEXT_H */
