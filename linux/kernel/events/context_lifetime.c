// SPDX-License-Identifier: GPL-2.0
/*
 * The lifetime of event contexts and of their PMU sub-contexts.
 *
 * A CPU context is static (per_cpu(perf_cpu_context)) and set up at boot.
 * A task context is allocated with the first event opened on or inherited
 * by its task, published in task->perf_event_ctxp, and freed a grace
 * period after its last reference goes.  Its sub-context (epc) for a PMU
 * is allocated with the first event of that PMU in it; a CPU context's is
 * the one embedded in the PMU's per-CPU perf_cpu_pmu_context.  This file
 * finds or makes both, counts their references, and locks the context of
 * an event, which perf_pmu_migrate_context() may change.
 *
 * Locking: context.c's DOC: blocks "Context locks" and "Per-CPU state".
 */

#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "internal.h"
#include "context.h"
#include "rotate.h"

/*
 * Task contexts and their sub-contexts: caches of their own, as kmalloc()
 * would round them up to the next size.
 */
static struct kmem_cache *perf_task_ctx_cache;
static struct kmem_cache *perf_epc_cache;

/* CPU and task contexts nest (CPU first): separate lockdep classes */
static struct lock_class_key cpu_ctx_lock_key;
static struct lock_class_key cpu_ctx_mutex_key;

/* ---------------------------------------------------------------------
 * Reference counts
 */

void perf_ctx_get(struct perf_event_context *ctx)
{
	refcount_inc(&ctx->refcount);
}

static void perf_ctx_free_rcu(struct rcu_head *head)
{
	struct perf_event_context *ctx;
	struct perf_task_context *tctx;

	ctx = container_of(head, struct perf_event_context, rcu_head);
	tctx = to_perf_task_ctx(ctx);
	kfree(tctx->extra);
	kmem_cache_free(perf_task_ctx_cache, tctx);
}

void perf_ctx_put(struct perf_event_context *ctx)
{
	if (!refcount_dec_and_test(&ctx->refcount))
		return;
	if (WARN_ON_ONCE(!ctx->task))	/* CPU contexts are never freed */
		return;
	put_task_struct(ctx->task);
	call_rcu(&ctx->rcu_head, perf_ctx_free_rcu);
}

static void perf_ctx_init(struct perf_event_context *ctx)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->pmu_ctx_list);
	INIT_LIST_HEAD(&ctx->event_list);
	refcount_set(&ctx->refcount, 1);
}

/**
 * perf_task_ctx_alloc - allocate an empty context for a task
 * @task: the task; a reference on it is taken
 *
 * Return: the context with one reference, or NULL.
 */
struct perf_event_context *perf_task_ctx_alloc(struct task_struct *task)
{
	struct perf_task_context *tctx;

	tctx = kmem_cache_zalloc(perf_task_ctx_cache, GFP_KERNEL);

	if (!tctx)
		return NULL;
	perf_ctx_init(&tctx->ctx);
	tctx->ctx.task = get_task_struct(task);
	return &tctx->ctx;
}

/**
 * perf_task_ctx_extra_get - a task context's extra state, made if need be
 * @ctx: a task context the caller holds a reference on
 *
 * Two callers may make it at once (a fork that links to @ctx and an
 * enable in it): one's is kept, and both get that one.  May sleep.
 *
 * Return: the state, or NULL when it could not be allocated.
 */
struct perf_task_ctx_extra *
perf_task_ctx_extra_get(struct perf_event_context *ctx)
{
	struct perf_task_ctx_extra *extra = perf_task_ctx_extra(ctx);

	if (extra)
		return extra;
	extra = kzalloc(sizeof(*extra), GFP_KERNEL);
	if (!extra)
		return NULL;
	extra->ctx = ctx;
	mutex_init(&extra->lazy_mutex);
	INIT_LIST_HEAD(&extra->lazy_links);
	INIT_LIST_HEAD(&extra->lazy_own);
	/* a success orders the stores above before the pointer */
	if (cmpxchg(&to_perf_task_ctx(ctx)->extra, NULL, extra)) {
		kfree(extra);
		extra = perf_task_ctx_extra(ctx);
	}
	return extra;
}

/**
 * perf_ctx_prepare_for - make what a context needs for an event to join it
 * @ctx: the context, with a reference
 * @attr: the event's attributes
 *
 * An event with defer_callchain needs its task context's unwind state
 * (callchain_deferred.c).  May sleep.
 *
 * Return: 0, or -ENOMEM.
 */
int perf_ctx_prepare_for(struct perf_event_context *ctx,
			 const struct perf_event_attr *attr)
{
	if (ctx->task && attr->defer_callchain &&
	    !perf_task_ctx_extra_get(ctx))
		return -ENOMEM;
	return 0;
}

/* A reference on @task's context, or NULL: perf_ctx_put() it. */
struct perf_event_context *perf_task_ctx_get(struct task_struct *task)
{
	struct perf_event_context *ctx;

	rcu_read_lock();
	ctx = rcu_dereference(*task_ctxp(task));
	if (ctx && !refcount_inc_not_zero(&ctx->refcount))
		ctx = NULL;
	rcu_read_unlock();
	return ctx;
}

/**
 * perf_ctx_find_get - the context events for @task or @cpu go into
 * @task: the target task, or NULL for a CPU-wide event
 * @cpu: the CPU of a CPU-wide event
 *
 * Creates the task's context on first use.  Fails with -ESRCH once the
 * task has started to exit.
 *
 * Return: the context with a reference for the caller, or an ERR_PTR.
 */
struct perf_event_context *perf_ctx_find_get(struct task_struct *task, int cpu)
{
	struct perf_event_context *ctx, *new;

	if (!task) {
		ctx = &per_cpu(perf_cpu_context, cpu).ctx;
		perf_ctx_get(ctx);
		return ctx;
	}

	ctx = perf_task_ctx_get(task);
	if (ctx)
		return ctx;

	new = perf_task_ctx_alloc(task);
	if (!new)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&task->perf_event_mutex);
	if (task->flags & PF_EXITING) {
		ctx = ERR_PTR(-ESRCH);
	} else {
		ctx = rcu_dereference_protected(*task_ctxp(task),
						lockdep_is_held(&task->perf_event_mutex));
		if (ctx) {
			perf_ctx_get(ctx);
		} else {
			/* one reference for the task, one for the caller */
			perf_ctx_get(new);
			rcu_assign_pointer(*task_ctxp(task), new);
			ctx = new;
			new = NULL;
		}
	}
	mutex_unlock(&task->perf_event_mutex);
	if (new)
		perf_ctx_put(new);
	return ctx;
}

/**
 * perf_ctx_is_dead - has the task of this context been through its exit?
 * @ctx: a task or CPU context; ctx->mutex held
 *
 * The exit path unpublishes task->perf_event_ctxp before it empties the
 * context under ctx->mutex, so a context that is no longer its task's
 * must take no new event.
 *
 * Return: true for a task context its task has left.
 */
bool perf_ctx_is_dead(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	return ctx->task &&
	       rcu_access_pointer(*task_ctxp(ctx->task)) != ctx;
}

/**
 * perf_event_ctx_lock - lock the context of an event
 * @event: the event
 *
 * An event can move between contexts (perf_pmu_migrate_context()), so the
 * context is re-checked once its mutex is held.  From then on the event's
 * own reference keeps the context: event->ctx changes only under this
 * mutex.  A caller that drops the mutex before perf_event_ctx_unlock()
 * must hold a reference of its own (perf_ctx_get()) meanwhile.
 *
 * Return: the context, its mutex held.
 */
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event)
{
	struct perf_event_context *ctx;

	for (;;) {
		/* RCU keeps a context's memory while its mutex is tried */
		rcu_read_lock();
		ctx = READ_ONCE(event->ctx);
		if (mutex_trylock(&ctx->mutex)) {
			if (READ_ONCE(event->ctx) == ctx) {
				rcu_read_unlock();
				return ctx;
			}
			mutex_unlock(&ctx->mutex);
			rcu_read_unlock();
			continue;
		}
		/* to sleep on the mutex, a reference of our own */
		if (!refcount_inc_not_zero(&ctx->refcount)) {
			rcu_read_unlock();
			cpu_relax();
			continue;
		}
		rcu_read_unlock();
		mutex_lock(&ctx->mutex);
		if (READ_ONCE(event->ctx) == ctx) {
			perf_ctx_put(ctx);	/* the event holds one too */
			return ctx;
		}
		mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
	}
}

/**
 * perf_event_ctx_unlock - undo perf_event_ctx_lock()
 * @event: the event
 * @ctx: what perf_event_ctx_lock() returned
 */
void perf_event_ctx_unlock(struct perf_event *event,
			   struct perf_event_context *ctx)
{
	mutex_unlock(&ctx->mutex);
}

/* ---------------------------------------------------------------------
 * PMU sub-contexts
 */

static void perf_epc_init(struct perf_event_pmu_context *epc, struct pmu *pmu,
			  struct perf_event_context *ctx)
{
	epc->pmu = pmu;
	epc->ctx = ctx;
	INIT_LIST_HEAD(&epc->pmu_ctx_entry);
	INIT_LIST_HEAD(&epc->pmu_epc_entry);
	INIT_LIST_HEAD(&epc->pinned_groups);
	INIT_LIST_HEAD(&epc->flexible_groups);
	INIT_LIST_HEAD(&epc->off_groups);
	epc->pinned_cpu_groups = RB_ROOT;
	epc->flexible_cpu_groups = RB_ROOT;
	epc->stayed_cpu = -1;
	atomic_set(&epc->refcount, 1);
}

/**
 * perf_cpc_init - set up a PMU's per-CPU state at registration
 * @cpc: per_cpu_ptr(pmu->cpu_pmu_context, cpu)
 * @pmu: the PMU
 * @cpu: the CPU
 *
 * The embedded sub-context of @cpu's CPU context for @pmu, and the
 * multiplexing timer.
 */
void perf_cpc_init(struct perf_cpu_pmu_context *cpc, struct pmu *pmu, int cpu)
{
	perf_epc_init(&cpc->epc, pmu, &per_cpu(perf_cpu_context, cpu).ctx);
	cpc->epc.embedded = 1;
	INIT_LIST_HEAD(&cpc->sched_cb_entry);
	perf_mux_timer_init(cpc, pmu->hrtimer_interval_ms);
}

/* @pmu's sub-context of @ctx (on @cpu for a CPU context), with a reference */
struct perf_event_pmu_context *
perf_epc_find_get_pmu(struct perf_event_context *ctx, struct pmu *pmu, int cpu)
{
	struct perf_event_pmu_context *epc, *new = NULL;
	void *task_data = NULL;

	if (!ctx->task) {
		struct perf_cpu_pmu_context *cpc;

		cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);
		atomic_inc(&cpc->epc.refcount);
		return &cpc->epc;
	}

	new = kmem_cache_zalloc(perf_epc_cache, GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	if (pmu->task_ctx_cache) {
		task_data = kmem_cache_zalloc(pmu->task_ctx_cache, GFP_KERNEL);
		if (!task_data) {
			kmem_cache_free(perf_epc_cache, new);
			return ERR_PTR(-ENOMEM);
		}
	}
	perf_epc_init(new, pmu, ctx);
	new->task_ctx_data = task_data;

	raw_spin_lock_irq(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu == pmu && atomic_inc_not_zero(&epc->refcount)) {
			raw_spin_unlock_irq(&ctx->lock);
			if (task_data)
				kmem_cache_free(pmu->task_ctx_cache, task_data);
			kmem_cache_free(perf_epc_cache, new);
			return epc;
		}
	}
	list_add_tail(&new->pmu_ctx_entry, &ctx->pmu_ctx_list);
	if (!pmu_is_software(pmu))
		ctx->nr_hw_epcs++;
	raw_spin_unlock_irq(&ctx->lock);
	perf_ctx_get(ctx);

	spin_lock_irq(&pmu->events_lock);
	list_add_tail(&new->pmu_epc_entry, &pmu->task_epcs);
	spin_unlock_irq(&pmu->events_lock);
	return new;
}

/**
 * perf_epc_find_get - the sub-context of @ctx an event is scheduled in
 * @ctx: a context the caller holds a reference on
 * @event: an event whose ->pmu is set
 *
 * A software sibling goes on and off with its hardware leader, in the
 * leader's sub-context.  What the context itself needs for the event is
 * made too (perf_ctx_prepare_for()).  May sleep.
 *
 * Return: the sub-context with a reference, or an ERR_PTR.
 */
struct perf_event_pmu_context *
perf_epc_find_get(struct perf_event_context *ctx, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct pmu *pmu = event->pmu;
	int err = perf_ctx_prepare_for(ctx, &event->attr);

	if (err)
		return ERR_PTR(err);
	if (leader != event && leader->pmu_ctx)
		pmu = leader->pmu_ctx->pmu;
	return perf_epc_find_get_pmu(ctx, pmu, event->cpu);
}

static void perf_epc_free_rcu(struct rcu_head *head)
{
	struct perf_event_pmu_context *epc;

	epc = container_of(head, struct perf_event_pmu_context, rcu_head);
	/* NULL for a revoked one, and for the software PMU's (sw_on_pmu) */
	if (epc->task_ctx_data)
		kmem_cache_free(epc->pmu->task_ctx_cache, epc->task_ctx_data);
	kmem_cache_free(perf_epc_cache, epc);
}

/**
 * perf_epc_unlink - take a task context's sub-context off its list
 * @epc: the sub-context; its ctx->lock held
 */
void perf_epc_unlink(struct perf_event_pmu_context *epc)
{
	lockdep_assert_held(&epc->ctx->lock);
	list_del_rcu(&epc->pmu_ctx_entry);
	if (!pmu_is_software(epc->pmu))
		epc->ctx->nr_hw_epcs--;
}

void perf_epc_put(struct perf_event_pmu_context *epc)
{
	struct perf_event_context *ctx = epc->ctx;
	unsigned long flags;

	/* CPU sub-contexts live as long as their PMU */
	if (!atomic_dec_and_test(&epc->refcount) || epc->embedded)
		return;
	/* a revoked one is on no list, and its PMU may be gone */
	if (!epc->revoked) {
		spin_lock_irqsave(&epc->pmu->events_lock, flags);
		list_del_init(&epc->pmu_epc_entry);
		spin_unlock_irqrestore(&epc->pmu->events_lock, flags);
		raw_spin_lock_irqsave(&ctx->lock, flags);
		perf_epc_unlink(epc);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	call_rcu(&epc->rcu_head, perf_epc_free_rcu);
	perf_ctx_put(ctx);
}

/* ---------------------------------------------------------------------
 * Boot
 */

/**
 * perf_ctx_lifetime_init - boot: the contexts' caches and the CPU contexts
 */
void perf_ctx_lifetime_init(void)
{
	int cpu;

	perf_task_ctx_cache = KMEM_CACHE(perf_task_context, SLAB_PANIC);
	perf_epc_cache = KMEM_CACHE(perf_event_pmu_context, SLAB_PANIC);

	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = &per_cpu(perf_cpu_context, cpu);

		perf_ctx_init(&cpuctx->ctx);
		lockdep_set_class(&cpuctx->ctx.lock, &cpu_ctx_lock_key);
		lockdep_set_class(&cpuctx->ctx.mutex, &cpu_ctx_mutex_key);
		cpuctx->cpu = cpu;
	}
}
