/* SPDX-License-Identifier: GPL-2.0 */
/* Overflow of sampling events, throttling and wake-ups (overflow.c). */
#ifndef _KERNEL_EVENTS_OVERFLOW_H
#define _KERNEL_EVENTS_OVERFLOW_H

#include <linux/perf_event.h>

#include "records.h"

/*
 * Count @nr occurrences of a software-counted event (software, tracepoint,
 * breakpoint PMUs) and, for a sampling event, run the overflow path for
 * every period that ran out.  Preemption off, any context (NMI too, for a
 * tracepoint or kernel breakpoint hit there); the caller holds the swevent
 * recursion context (or cannot recurse).
 */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs);
/* Wake @event's readers from any context (NMI too), through IRQ work. */
void perf_event_queue_wakeup(struct perf_event *event);
/* Event set-up and tear-down of the overflow state (event.c) */
void perf_overflow_init_event(struct perf_event *event);
void perf_overflow_free_event(struct perf_event *event);
/* PERF_EVENT_IOC_PERIOD: ctx->mutex held */
int perf_event_period_locked(struct perf_event *event, u64 value);
/* The tick's work on one event (context.c's perf_ctx_tick() calls it). */
void perf_event_tick_event(struct perf_event *event);

/*
 * May an event of @attr count periods of @period events?  With
 * attr.period_random_bits = k > 0 the periods are drawn from
 * [period - 2^(k-1), period + 2^(k-1)), which needs a fixed period above
 * 2^(k-1) (k is at most 63: the period has bit 63 clear).
 */
static inline bool perf_period_random_ok(const struct perf_event_attr *attr,
					 u64 period)
{
	unsigned int k = attr->period_random_bits;

	if (!k)
		return true;
	return k < 64 && !attr->freq && period > BIT_ULL(k - 1);
}

/* hw.interrupts of a throttled event */
#define PERF_THROTTLED		(~0ULL)

/*
 * @event goes on a PMU again (context.c, before pmu->add()): a throttle
 * ends there, so that the event does not run, and overflow, while still
 * marked throttled.  UNTHROTTLE is written as at a tick, by the leader of
 * the group (whose members all go on with it).
 */
static inline void perf_throttle_sched_in(struct perf_event *event)
{
	if (unlikely(event->hw.interrupts == PERF_THROTTLED)) {
		event->hw.interrupts = 0;
		if (event == event->group_leader)
			perf_log_throttle(event, 1);
	}
}

#endif /* _KERNEL_EVENTS_OVERFLOW_H */
