/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint, kprobe and uprobe PMUs (tracepoint.c, built with
 * CONFIG_EVENT_TRACING).  Without that option the hooks below are inline
 * stand-ins, so the rest of the core calls them unconditionally.
 */
#ifndef _KERNEL_EVENTS_TRACEPOINT_H
#define _KERNEL_EVENTS_TRACEPOINT_H

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#include "addr_filter.h"

struct perf_event;

#ifdef CONFIG_EVENT_TRACING

/* Registers the tracepoint, kprobe and uprobe PMUs (perf_event_init). */
void perf_tp_setup(void);

/* Is @event one of the tracepoint, kprobe or uprobe PMUs' events? */
bool perf_event_is_tracing(struct perf_event *event);

/*
 * PERF_EVENT_IOC_SET_FILTER.  Called with event->ctx->mutex held, as
 * perf_event_ctx_lock() leaves it; for a tracing event the mutex is let go
 * while the filter is built (it belongs to the trace event, not to the
 * context) and held again on return.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg);

/*
 * At the end of an event's life, once no CPU can still see it on a
 * tracepoint's list (after the RCU grace period, from the RCU callback):
 * frees its tracepoint filter.
 */
void perf_tp_free_filter(struct perf_event *event);

#else /* !CONFIG_EVENT_TRACING */

static inline void perf_tp_setup(void)
{
}

static inline bool perf_event_is_tracing(struct perf_event *event)
{
	return false;
}

/* No tracing events: only address filters. */
static inline int perf_event_set_filter(struct perf_event *event,
					void __user *arg)
{
	char *text = strndup_user(arg, PAGE_SIZE);
	int err = -EINVAL;

	if (IS_ERR(text))
		return PTR_ERR(text);
	if (has_addr_filter(event))
		err = perf_addr_filters_set(event, text);
	kfree(text);
	return err;
}

static inline void perf_tp_free_filter(struct perf_event *event)
{
}

#endif /* CONFIG_EVENT_TRACING */

#endif /* _KERNEL_EVENTS_TRACEPOINT_H */
