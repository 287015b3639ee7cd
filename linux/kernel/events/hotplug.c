// SPDX-License-Identifier: GPL-2.0
/*
 * CPU contexts across CPU hotplug, and CPU-wide events that move between
 * CPUs.
 *
 * A CPU context is active while its CPU is online.  perf_event_exit_cpu()
 * takes its events off (they stay INACTIVE, their enabled time stops with
 * the context's) and perf_event_init_cpu() puts them back when the CPU
 * comes online again, so a CPU-wide event resumes by itself.  Both run the
 * change on the CPU in question (IPI) with the context's mutex held, which
 * keeps installs and removals out meanwhile.
 *
 * perf_pmu_migrate_context() is for drivers of PMUs shared by several CPUs
 * (uncore-style), whose events must be read from another CPU once the
 * one they were opened on goes offline.
 */

#include <linux/cpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "internal.h"
#include "cgroup.h"
#include "context.h"
#include "pmu.h"
#include "swevent.h"

static void cpu_ctx_activate(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = &cpuctx->ctx;

	raw_spin_lock(&ctx->lock);
	if (!ctx->is_active) {
		perf_ctx_set_timestamp(ctx, perf_clock());
		ctx->is_active = EVENT_ALL | EVENT_TIME;
		perf_cgroup_cpu_start(cpuctx);
		perf_ctx_sched_in(ctx, EVENT_ALL);
	}
	cpuctx->online = true;
	raw_spin_unlock(&ctx->lock);
}

static void cpu_ctx_deactivate(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = &cpuctx->ctx;

	if (cpuctx->task_ctx)
		perf_task_ctx_deactivate(cpuctx, cpuctx->task_ctx);
	raw_spin_lock(&ctx->lock);
	perf_ctx_update_time(ctx);
	perf_ctx_sched_out(ctx, EVENT_ALL);
	ctx->is_active = 0;
	perf_cgroup_cpu_stop(cpuctx);
	cpuctx->online = false;
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_event_init_cpu - CPU hotplug: a CPU is being prepared or came online
 * @cpu: the CPU
 *
 * Called at CPUHP_PERF_PREPARE (on the control CPU, @cpu not yet online)
 * and at CPUHP_AP_PERF_ONLINE (on @cpu).  CPU-wide events opened for @cpu
 * start (again) counting when it is online.
 *
 * Return: 0.
 */
int perf_event_init_cpu(unsigned int cpu)
{
	struct perf_event_context *ctx = &per_cpu(perf_cpu_context, cpu).ctx;

	perf_swevent_init_cpu(cpu);
	if (!cpu_online(cpu))
		return 0;
	perf_pmu_scope_cpu_online(cpu);
	mutex_lock(&ctx->mutex);
	/*
	 * perf_event_init() brings up the boot CPU's context from
	 * start_kernel(), on that CPU with IRQs still off: no cross-call.
	 */
	if (irqs_disabled() && cpu == smp_processor_id())
		cpu_ctx_activate(NULL);
	else
		smp_call_function_single(cpu, cpu_ctx_activate, NULL, 1);
	mutex_unlock(&ctx->mutex);
	return 0;
}

/**
 * perf_event_exit_cpu - CPU hotplug: a CPU is going down
 * @cpu: the CPU
 *
 * The CPU's events stop, in state INACTIVE, and resume if it comes back.
 *
 * Return: 0.
 */
int perf_event_exit_cpu(unsigned int cpu)
{
	struct perf_event_context *ctx = &per_cpu(perf_cpu_context, cpu).ctx;

	/* scoped PMUs move their events away first (their own locking) */
	if (cpu_online(cpu))
		perf_pmu_scope_cpu_offline(cpu);
	mutex_lock(&ctx->mutex);
	if (cpu_online(cpu))
		smp_call_function_single(cpu, cpu_ctx_deactivate, NULL, 1);
	mutex_unlock(&ctx->mutex);
	return 0;
}

/**
 * perf_pmu_migrate_context - move a PMU's CPU-wide events to another CPU
 * @pmu: the PMU (uncore-style drivers, when the CPU they read from leaves)
 * @src_cpu: the CPU the events are on
 * @dst_cpu: the CPU they move to
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu(perf_cpu_context, src_cpu).ctx;
	struct perf_event_context *dst = &per_cpu(perf_cpu_context, dst_cpu).ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(leaders);
	LIST_HEAD(siblings);

	if (src == dst)
		return;
	/* CPU contexts are locked in CPU order */
	if (src_cpu < dst_cpu) {
		mutex_lock(&src->mutex);
		mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&dst->mutex);
		mutex_lock_nested(&src->mutex, SINGLE_DEPTH_NESTING);
	}
	list_for_each_entry_safe(event, tmp, &src->event_list, event_entry) {
		if (event->pmu != pmu)
			continue;
		perf_remove_event(event, 0);
		list_add_tail(&event->migrate_entry,
			      event->group_leader == event ? &leaders : &siblings);
		/*
		 * An event in error gets another chance where it goes.  Out
		 * of @src's lists now, but lockless readers (poll) still
		 * look: the state changes under the lock of its context.
		 */
		if (event->state == PERF_EVENT_STATE_ERROR) {
			raw_spin_lock_irq(&src->lock);
			WRITE_ONCE(event->state, PERF_EVENT_STATE_INACTIVE);
			raw_spin_unlock_irq(&src->lock);
		}
	}
	/* leaders first, so that siblings find their group */
	list_splice_tail(&siblings, &leaders);
	/*
	 * Their side-band links go from @src_cpu's list to @dst_cpu's: no
	 * walker of the old list may still stand on one (records.c).
	 */
	if (!list_empty(&leaders))
		synchronize_rcu();
	list_for_each_entry_safe(event, tmp, &leaders, migrate_entry) {
		struct perf_event_pmu_context *epc;

		list_del_init(&event->migrate_entry);
		perf_epc_put(event->pmu_ctx);
		event->cpu = dst_cpu;
		epc = perf_epc_find_get(dst, event);	/* embedded: no failure */
		event->pmu_ctx = epc;
		perf_ctx_get(dst);
		perf_ctx_put(src);
		perf_install_event(dst, event, dst_cpu);
	}
	mutex_unlock(&dst->mutex);
	mutex_unlock(&src->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);
