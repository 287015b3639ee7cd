// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred user callchains: attr.defer_callchain and attr.defer_output.
 *
 * An interrupt (an NMI, often) that walks a user stack cannot take a page
 * fault, and a task sampled many times in one stay in the kernel has the
 * same user stack at each sample.  So a sample of an event with
 * defer_callchain ends its callchain, after the kernel part, with
 * PERF_CONTEXT_USER_DEFERRED and a cookie instead of the user frames.  The
 * task walks its user stack once, in a task work that runs just before it
 * returns to user space, and the frames go out as
 * PERF_RECORD_CALLCHAIN_DEFERRED with the same cookie, to the events that
 * set defer_output: side-band listeners (records.c), this CPU's CPU-wide
 * ones and those of the task's context.  A reader joins the two by cookie
 * (and pid/tid).
 *
 * Which samples share an unwind
 * -----------------------------
 * Every sample of the task from the one that queued the work until the
 * work has written its record gets that work's cookie.  The task does not
 * reach user space in between, so its user stack does not change.
 * Cookies are unique across the system: a per-CPU sequence number above
 * the number of the CPU that made it.
 *
 * Where the state lives
 * ---------------------
 * In the extra state of the task's perf context (struct
 * perf_task_ctx_extra, context.h), made when an event with
 * defer_callchain joins the context.  A task whose context has none (or
 * that has no context), sampled by a CPU-wide event, cannot defer: its
 * user part is walked in place, as without defer_callchain.  So is that
 * of a task that is exiting (it will not return to user space).  The
 * queued work holds a reference on the context.
 *
 * Concurrency
 * -----------
 * request->cookie is changed only on the task itself.  A sample (task
 * context, IRQ or NMI, possibly interrupting the work below) sets it from
 * 0 with cmpxchg() and queues the work; the work clears it after writing
 * the record.  The work's callback_head is free again once the work runs
 * (task_work_run() has unlinked it), so a sample taken while the work runs
 * may queue it anew.
 */

#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>

#include "internal.h"
#include "callchain_deferred.h"
#include "context.h"

/* the CPU's number takes the low bits of a cookie */
#define PERF_UNWIND_CPU_BITS	16

static DEFINE_PER_CPU(u64, perf_unwind_seq);

static u64 perf_unwind_new_cookie(void)
{
	u64 seq = this_cpu_inc_return(perf_unwind_seq);

	return (seq << PERF_UNWIND_CPU_BITS) |
	       (smp_processor_id() & GENMASK(PERF_UNWIND_CPU_BITS - 1, 0));
}

/* Task work, before current returns to user space (or at its exit). */
static void perf_unwind_work(struct callback_head *work)
{
	struct perf_task_ctx_extra *extra;
	struct perf_callchain_entry *chain;
	u64 cookie;

	extra = container_of(work, struct perf_task_ctx_extra, unwind.work);
	cookie = READ_ONCE(extra->unwind.cookie);

	/* at exit the mm is gone: the samples keep their kernel part only */
	if (current->mm && !(current->flags & PF_EXITING)) {
		rcu_read_lock();
		preempt_disable();	/* the walk borrows this CPU's entry */
		chain = get_perf_callchain(task_pt_regs(current), false, true,
					   READ_ONCE(sysctl_perf_event_max_stack),
					   false, true);
		if (chain && chain->nr)
			perf_event_callchain_deferred(cookie, chain);
		preempt_enable();
		rcu_read_unlock();
	}

	WRITE_ONCE(extra->unwind.cookie, 0);
	perf_ctx_put(extra->ctx);
}

/**
 * perf_callchain_defer - the cookie of current's next user stack unwind
 *
 * Called for a sample of current (preemption off, inside rcu_read_lock(),
 * any context including NMI).  Queues the unwind if none is queued.
 *
 * Return: the cookie, or 0 if the user stack cannot be deferred and must
 * be walked in place.
 */
u64 perf_callchain_defer(void)
{
	struct perf_event_context *ctx;
	struct perf_task_ctx_extra *extra;
	struct perf_unwind_request *req;
	u64 cookie, was;

	if (current->flags & (PF_EXITING | PF_KTHREAD))
		return 0;
	ctx = rcu_dereference(*task_ctxp(current));
	extra = ctx ? perf_task_ctx_extra(ctx) : NULL;
	if (!extra)
		return 0;
	req = &extra->unwind;

	cookie = READ_ONCE(req->cookie);
	if (cookie)
		return cookie;

	cookie = perf_unwind_new_cookie();
	was = cmpxchg(&req->cookie, 0, cookie);
	if (was)		/* an NMI in between queued one */
		return was;

	/* not exiting: the task's own reference keeps ctx alive */
	perf_ctx_get(ctx);
	init_task_work(&req->work, perf_unwind_work);
	if (task_work_add(current, &req->work,
			  in_nmi() ? TWA_NMI_CURRENT : TWA_RESUME)) {
		refcount_dec(&ctx->refcount);
		WRITE_ONCE(req->cookie, 0);
		return 0;
	}
	return cookie;
}
