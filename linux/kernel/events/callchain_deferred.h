/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deferred user callchains (callchain_deferred.c): a sample of an event
 * with attr.defer_callchain takes the kernel part of its callchain at once
 * and leaves the user part to a task work that runs before the task
 * returns to user space.
 */
#ifndef _KERNEL_EVENTS_CALLCHAIN_DEFERRED_H
#define _KERNEL_EVENTS_CALLCHAIN_DEFERRED_H

#include <linux/types.h>
#include <linux/task_work.h>

struct perf_event;
struct perf_event_context;
struct perf_callchain_entry;

/*
 * Per task context: the unwind the task owes before it returns to user
 * space.  @cookie is that unwind's cookie while one is queued, else 0;
 * only the task itself (in any context, NMI included) changes it.
 */
struct perf_unwind_request {
	struct callback_head	work;
	u64			cookie;
};

/*
 * In a sample of current (preemption off, any context): the cookie of the
 * unwind current will do before it returns to user space, queueing one if
 * none is; 0 if none can be (no task context, the task is exiting), when
 * the user part must be walked in place.
 */
u64 perf_callchain_defer(void);

/*
 * records.c: write PERF_RECORD_CALLCHAIN_DEFERRED with @chain (current's
 * user part, PERF_CONTEXT_USER first) to the attr.defer_output listeners.
 */
void perf_event_callchain_deferred(u64 cookie,
				   struct perf_callchain_entry *chain);

#endif /* _KERNEL_EVENTS_CALLCHAIN_DEFERRED_H */
