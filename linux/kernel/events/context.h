/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task and CPU contexts (context.c): what the rest of the core calls, then
 * the scheduling primitives that rotate.c (multiplexing), hotplug.c (CPU
 * contexts across CPU hotplug) and cgroup.c (cgroup switches) use.  The
 * locking rules are context.c's (its top comment): the primitives run with
 * IRQs off, on the CPU where the contexts are active, and, unless a
 * comment below says a function takes them itself, with the locks of the
 * contexts they touch held.
 */
#ifndef _KERNEL_EVENTS_CONTEXT_H
#define _KERNEL_EVENTS_CONTEXT_H

#include "internal.h"
#include "callchain_deferred.h"

/*
 * Lazy inheritance (inherit.c): a descendant that waits for the copies of
 * the groups of an ancestor's context (@top) whose ids are up to @bound.
 */
struct perf_lazy_link {
	struct list_head		top_entry;	/* top's lazy_links */
	struct list_head		own_entry;	/* the descendant's lazy_own */
	struct perf_event_context	*top;		/* with a reference */
	struct perf_event_context	*ctx;		/* the descendant's */
	u64				bound;
	unsigned long			gen;		/* top's lazy_gen seen */
};

/*
 * What few task contexts need, made on first need and freed with the
 * context: the state of lazy inheritance (inherit.c) and of deferred user
 * callchains (callchain_deferred.c).  perf_task_ctx_extra_get() makes it,
 * perf_task_ctx_extra() reads it, in any context (NULL: none yet).
 */
struct perf_task_ctx_extra {
	struct perf_event_context	*ctx;	/* whose */
	struct perf_unwind_request	unwind;	/* deferred user callchains */
	/*
	 * Lazy inheritance: the links of descendants that wait for copies
	 * of this context's groups, under lazy_mutex; and the task's own
	 * links to its ancestors' contexts, which only the task's fork
	 * (before it runs) and its exit change.
	 */
	struct mutex			lazy_mutex;
	struct list_head		lazy_links;
	struct list_head		lazy_own;
	unsigned long			lazy_gen;	/* perf_inherit_lazy() runs */
	struct perf_lazy_link		first_link;	/* its top NULL: unused */
	/*
	 * What the last fork's look at the groups found, under ctx->mutex:
	 * valid while ctx.groups_gen is still scan_gen (without this state:
	 * 0, no groups, as groups_gen is at first).
	 */
	unsigned long			scan_gen;
	struct perf_event_context	*scan_top;	/* the waiting groups' */
	bool				scan_copy;	/* a group may need a copy */
};

/*
 * A task context: struct perf_event_context (whose layout is in the
 * public header) and what only task contexts have.  Allocated by
 * perf_task_ctx_alloc() and freed with the context, @ctx first.
 */
struct perf_task_context {
	struct perf_event_context	ctx;
	/* set once, with a release; read with an acquire */
	struct perf_task_ctx_extra	*extra;
};

static inline struct perf_task_context *
to_perf_task_ctx(struct perf_event_context *ctx)
{
	return container_of(ctx, struct perf_task_context, ctx);
}

/* @ctx's extra state, or NULL if it has none yet; any context */
static inline struct perf_task_ctx_extra *
perf_task_ctx_extra(struct perf_event_context *ctx)
{
	/* pairs with the cmpxchg() of perf_task_ctx_extra_get() */
	return smp_load_acquire(&to_perf_task_ctx(ctx)->extra);
}

/* Make it (may sleep); NULL when it cannot be allocated. */
struct perf_task_ctx_extra *
perf_task_ctx_extra_get(struct perf_event_context *ctx);
/*
 * What a task context needs before an event of @attr joins it.
 * Return: 0, or -ENOMEM.
 */
int perf_ctx_prepare_for(struct perf_event_context *ctx,
			 const struct perf_event_attr *attr);

struct perf_event_context *perf_ctx_find_get(struct task_struct *task,
					     int cpu);
/*
 * ctx->mutex held: a task context whose task has been through its perf
 * exit (inherit.c), which must take no new event (the opener: -ESRCH).
 */
bool perf_ctx_is_dead(struct perf_event_context *ctx);
struct perf_event_context *perf_task_ctx_get(struct task_struct *task);
void perf_ctx_get(struct perf_event_context *ctx);
void perf_ctx_put(struct perf_event_context *ctx);
struct perf_event_pmu_context *
perf_epc_find_get(struct perf_event_context *ctx, struct perf_event *event);
struct perf_event_pmu_context *
perf_epc_find_get_pmu(struct perf_event_context *ctx, struct pmu *pmu, int cpu);
void perf_epc_put(struct perf_event_pmu_context *epc);
void perf_epc_unlink(struct perf_event_pmu_context *epc);
/* A hardware event joins a software-only group: move it (ctx->mutex held) */
void perf_group_move(struct perf_event *leader,
		     struct perf_event_pmu_context *epc);

/* ioctl() ENABLE/DISABLE of one's own software event without ctx->mutex */
bool perf_event_toggle_own(struct perf_event *event, bool enable);
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event);
void perf_event_ctx_unlock(struct perf_event *event,
			   struct perf_event_context *ctx);

/* Attach a new event (leader or sibling) and start it if it can run now. */
void perf_install_event(struct perf_event_context *ctx,
			struct perf_event *event, int cpu);

/* perf_remove_event() flags */
#define DETACH_GROUP	0x01	/* break the group up too */
#define DETACH_EXIT	0x02	/* the task is exiting: state EXIT */
#define DETACH_DEAD	0x04	/* the event is being freed: state DEAD */
#define DETACH_MOVE	0x08	/* put back in the same context right after */
#define DETACH_REVOKE	0x10	/* its PMU is going away: state REVOKED */
void perf_remove_event(struct perf_event *event, unsigned int flags);

/* ctx->mutex held by the caller */
void perf_event_enable_locked(struct perf_event *event);
void perf_event_disable_locked(struct perf_event *event);
void perf_event_reset_locked(struct perf_event *event);
int perf_event_refresh_locked(struct perf_event *event, int refresh);

/* Run @func on the CPU where @ctx is active (cpuctx NULL if nowhere). */
typedef void (*ctx_func_t)(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *info);
void ctx_function_call(struct perf_event_context *ctx, ctx_func_t func,
		       void *info);
bool perf_ctx_call_local(struct perf_event_context *ctx, ctx_func_t func,
			 void *info);
/*
 * What install, ENABLE, DISABLE, RESET and a release do to one event (the
 * @info), as ctx_func_t: for callers that reach many contexts
 * at once, holding their mutexes for an install or a release.  Install:
 * event->ctx set before, perf_sb_event_attach() after.  Release:
 * perf_sb_event_detach() before; the event is then DEAD.
 */
void perf_install_func(struct perf_cpu_context *cpuctx,
		       struct perf_event_context *ctx, void *info);
void perf_remove_dead_func(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *info);
void perf_enable_func(struct perf_cpu_context *cpuctx,
		      struct perf_event_context *ctx, void *info);
void perf_disable_func(struct perf_cpu_context *cpuctx,
		       struct perf_event_context *ctx, void *info);
void perf_reset_func(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx, void *info);

/* Bring event->count and the times up to date (IPI if active elsewhere). */
void perf_event_sync(struct perf_event *event, bool group);
/* Stop and start @event where it runs, so its driver reconfigures it. */
void perf_event_restart(struct perf_event *event);
/* The same, on this CPU with the event's ctx->lock held, if it runs here. */
void perf_event_restart_local(struct perf_event *event);
/*
 * An event's times up to now, for perf_event_read_local(), PERF_SAMPLE_READ
 * and the control page: IRQs off (maybe in NMI), the event's context
 * active on this CPU or not active at all, or its ctx->lock held.
 */
void perf_event_times_local(struct perf_event *event, u64 *enabled,
			    u64 *running);

/* Task hooks used by inherit.c; ctx->mutex held where noted. */
struct perf_event_context *perf_task_ctx_alloc(struct task_struct *task);

/*
 * The tick: walk this CPU's active contexts for throttled (if @throttled)
 * and frequency events, calling perf_event_tick_event() on each.  IRQs off.
 */
void perf_ctx_tick(bool throttled);
/*
 * Disable @event from IRQ context (its IRQ work).  Return: -1 when done,
 * or the CPU its context is active on, where the caller must retry.
 */
int perf_event_disable_in_irq(struct perf_event *event);

/* A PMU's state on @cpu, at registration (pmu.c). */
void perf_cpc_init(struct perf_cpu_pmu_context *cpc, struct pmu *pmu, int cpu);
void perf_context_init(void);
/* context_lifetime.c's part of perf_context_init() */
void perf_ctx_lifetime_init(void);

/*
 * Software PMUs never refuse an event and have no counters to share: their
 * groups always fit, and no per-CPU count is kept of them.
 */
static inline bool pmu_is_software(struct pmu *pmu)
{
	return pmu->task_ctx_nr == perf_sw_context;
}

/* --- scheduling primitives --------------------------------------------- */

/*
 * Is @event on the PMU of this CPU, so that it may be read here without
 * ctx->lock while IRQs are off?  One that stayed on with its task context
 * (PERF_ATTACH_STAYS_ON) keeps the oncpu of the CPU that context was last
 * active on: it is here only while the context is active here.
 */
static __always_inline bool perf_event_on_this_cpu(struct perf_event *event)
{
	if (READ_ONCE(event->oncpu) != smp_processor_id())
		return false;
	return !(event->attach_state & PERF_ATTACH_STAYS_ON) ||
	       this_cpu_read(perf_cpu_context.task_ctx) == event->ctx;
}

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
static __always_inline void perf_ctx_update_time(struct perf_event_context *ctx)
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

/*
 * Take the groups of a sub-context (or of every sub-context of a context)
 * off the PMU, or put them on; @what: EVENT_PINNED, EVENT_FLEXIBLE or both.
 * A flexible group that does not fit marks its sub-context for rotation.
 */
void perf_epc_sched_out(struct perf_event_pmu_context *epc, int what);
void perf_epc_sched_out_leaving(struct perf_event_pmu_context *epc);
void perf_epc_sched_in(struct perf_event_pmu_context *epc, int what);
void perf_ctx_sched_out(struct perf_event_context *ctx, int what);
void perf_ctx_sched_in(struct perf_event_context *ctx, int what);
/* @pmu's events of this CPU off and on again, in priority order */
void perf_pmu_resched_locked(struct perf_cpu_context *cpuctx,
			     struct pmu *pmu,
			     struct perf_event_context *fresh);

/* Take this CPU's active task context off (takes its lock; IRQs off). */
void perf_task_ctx_deactivate(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx);

#endif /* _KERNEL_EVENTS_CONTEXT_H */
