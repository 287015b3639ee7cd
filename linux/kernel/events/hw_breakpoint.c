// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoints: the "breakpoint" PMU (PERF_TYPE_BREAKPOINT), the
 * sharing of the CPUs' debug registers between breakpoints, and the API
 * that ptrace, kgdb and in-kernel watchpoint users call.
 *
 * A breakpoint is a perf event.  The architecture turns its attributes
 * (bp_addr, bp_len, bp_type) into debug register settings in hw.info
 * (hw_breakpoint_arch_parse()), writes them into a free register when the
 * event goes on the PMU (arch_install_hw_breakpoint()) and, when the
 * register fires, reports the hit through perf_bp_event(), which counts it
 * like a software event and runs the overflow path of a sampling
 * breakpoint (ptrace's and kgdb's callbacks hang off that path).
 *
 * Debug registers are few, so a breakpoint reserves one when it is created
 * and keeps it until it is freed: a breakpoint that could not always be
 * put on the PMU is refused with -ENOSPC instead of going unscheduled.
 * Each architecture says how many registers it has per kind
 * (hw_breakpoint_slots(): TYPE_INST for instruction breakpoints, TYPE_DATA
 * for watchpoints; x86 has one pool for both).  The rule, per kind and per
 * CPU, is that the breakpoints bound to the CPU plus the breakpoints of any
 * single task that may run there must fit:
 *
 *   cpu_pinned[cpu] + max over tasks T of weight(T, cpu) <= slots
 *
 * where weight(T, cpu) counts T's breakpoints that follow T on every CPU
 * and those of T bound to that CPU.  Every breakpoint is treated as
 * pinned.
 *
 * To find the heaviest task quickly, tasks are kept in histograms of their
 * weights: tasks_by_any[n] counts the tasks whose CPU-independent weight is
 * n, and, for a task with breakpoints bound to a CPU, tasks_on_cpu[cpu][n]
 * counts it by its whole weight on that CPU.  A task with CPU-bound
 * breakpoints is in both: its entry in tasks_by_any is never the larger,
 * so the maximum of the two histograms is the heaviest task on the CPU.
 * cpus_by_pinned[n] counts the CPUs with n slots taken by CPU-bound
 * breakpoints, the other side of the rule for a new task breakpoint.
 * A task's own breakpoints are found in a hash table keyed by the task
 * (hw.bp_list): when they change, the task's entries are taken out of the
 * histograms, its list is changed, and the entries are put back.
 *
 * Locking: the DOC: block "Breakpoint slots lock" below, shown in
 * Documentation/perf/core/locking.rst.
 */

/**
 * DOC: Breakpoint slots lock
 *
 * ``bp_slots_lock`` (``hw_breakpoint.c``, a mutex)
 *   Protects the debug register reservation tables, the per-task hash of
 *   breakpoints, and ``bp_type``/``bp_len`` of reserved breakpoints.  Taken
 *   when breakpoints are created and freed and by ``MODIFY_ATTRIBUTES``, so
 *   it nests inside ``ctx->mutex`` (and inside ``child_mutex``), never
 *   outside.  kgdb, which runs with every other CPU stopped, uses the tables
 *   without it, and only when nobody holds it.
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "internal.h"
#include "overflow.h"
#include "swevent.h"

/* ---------------------------------------------------------------------
 * Slot tables
 */

/* One kind of debug register: its count and who holds them. */
struct bp_slot_table {
	int		nr_slots;
	unsigned int	*cpu_pinned;		/* [cpu] */
	unsigned int	*cpus_by_pinned;	/* [n], n = 1..nr_slots */
	unsigned int	*tasks_by_any;		/* [n], n = 1..nr_slots */
	unsigned int	*tasks_on_cpu;		/* [cpu][n], n = 0..nr_slots */
};

static struct bp_slot_table bp_tables[TYPE_MAX];
static bool bp_tables_ready __ro_after_init;
static DEFINE_MUTEX(bp_slots_lock);

/* Reserved breakpoints, for hw_breakpoint_is_used(). */
static atomic_t bp_nr_reserved;

/* Task breakpoints that hold a slot, keyed by hw.target. */
static struct rhltable bp_task_table;
static const struct rhashtable_params bp_task_params = {
	.key_len		= sizeof(struct task_struct *),
	.key_offset		= offsetof(struct hw_perf_event, target),
	.head_offset		= offsetof(struct hw_perf_event, bp_list),
	.automatic_shrinking	= true,
};

/* Registers a breakpoint occupies; an architecture may say more than one. */
#ifndef hw_breakpoint_weight
static inline int hw_breakpoint_weight(struct perf_event *bp)
{
	return 1;
}
#endif

/* The kind of register a breakpoint of @bp_type needs. */
static enum bp_type_idx bp_slot_type(u64 bp_type)
{
	return (bp_type & HW_BREAKPOINT_RW) ? TYPE_DATA : TYPE_INST;
}

static unsigned int *bp_tasks_on(struct bp_slot_table *tbl, int cpu)
{
	return tbl->tasks_on_cpu + (size_t)cpu * (tbl->nr_slots + 1);
}

/* Count one more (@delta 1) or one less (-1) holder of weight @n. */
static void bp_hist_add(struct bp_slot_table *tbl, unsigned int *hist, int n,
			int delta)
{
	if (n <= 0 || WARN_ON_ONCE(n > tbl->nr_slots))
		return;
	WARN_ON_ONCE(delta < 0 && !hist[n]);
	hist[n] += delta;
}

/* The largest weight with a holder in @hist, 0 if none. */
static int bp_hist_max(struct bp_slot_table *tbl, const unsigned int *hist)
{
	int n;

	for (n = tbl->nr_slots; n > 0; n--) {
		if (hist[n])
			return n;
	}
	return 0;
}

/* rcu_read_lock() held for this and every walk of the list it returns. */
static struct rhlist_head *bp_task_list(struct task_struct *task)
{
	return rhltable_lookup(&bp_task_table, &task, bp_task_params);
}

/* Weight of a task's breakpoints of @type bound to @cpu (-1: to none). */
static int task_bp_weight(struct rhlist_head *list, enum bp_type_idx type,
			  int cpu)
{
	struct rhlist_head *pos;
	struct perf_event *iter;
	int weight = 0;

	rhl_for_each_entry_rcu(iter, pos, list, hw.bp_list) {
		if (iter->cpu == cpu && bp_slot_type(iter->attr.bp_type) == type)
			weight += hw_breakpoint_weight(iter);
	}
	return weight;
}

/* Is @bp the first breakpoint of @type in @list bound to its CPU? */
static bool task_bp_first_on_cpu(struct rhlist_head *list,
				 struct perf_event *bp, enum bp_type_idx type)
{
	struct rhlist_head *pos;
	struct perf_event *iter;

	rhl_for_each_entry_rcu(iter, pos, list, hw.bp_list) {
		if (iter == bp)
			break;
		if (iter->cpu == bp->cpu &&
		    bp_slot_type(iter->attr.bp_type) == type)
			return false;
	}
	return true;
}

/* Add (@delta 1) or take out (-1) @task's entries in the task histograms. */
static void task_bps_account(struct bp_slot_table *tbl,
			     struct task_struct *task, enum bp_type_idx type,
			     int delta)
{
	struct rhlist_head *list = bp_task_list(task);
	int any = task_bp_weight(list, type, -1);
	struct rhlist_head *pos;
	struct perf_event *iter;

	bp_hist_add(tbl, tbl->tasks_by_any, any, delta);

	rhl_for_each_entry_rcu(iter, pos, list, hw.bp_list) {
		int cpu = iter->cpu;

		if (cpu < 0 || bp_slot_type(iter->attr.bp_type) != type ||
		    !task_bp_first_on_cpu(list, iter, type))
			continue;
		bp_hist_add(tbl, bp_tasks_on(tbl, cpu),
			    any + task_bp_weight(list, type, cpu), delta);
	}
}

/* Slots taken on @cpu by its own breakpoints and the heaviest task. */
static int cpu_slots_busy(struct bp_slot_table *tbl, int cpu)
{
	int tasks = max(bp_hist_max(tbl, tbl->tasks_by_any),
			bp_hist_max(tbl, bp_tasks_on(tbl, cpu)));

	return tbl->cpu_pinned[cpu] + tasks;
}

/*
 * Slots taken, on the busiest CPU a new breakpoint of @task bound to @cpu
 * (-1: following the task everywhere) would run on, by the CPU-bound
 * breakpoints and @task's own.
 */
static int task_slots_busy(struct bp_slot_table *tbl,
			   struct task_struct *task, enum bp_type_idx type,
			   int cpu)
{
	struct rhlist_head *list = bp_task_list(task);
	int any = task_bp_weight(list, type, -1);
	struct rhlist_head *pos;
	struct perf_event *iter;
	int busiest;

	if (cpu >= 0)
		return tbl->cpu_pinned[cpu] + any +
		       task_bp_weight(list, type, cpu);

	/* CPUs where the task has nothing of its own bound */
	busiest = bp_hist_max(tbl, tbl->cpus_by_pinned);
	/* and those where it has */
	rhl_for_each_entry_rcu(iter, pos, list, hw.bp_list) {
		int here;

		if (iter->cpu < 0 || bp_slot_type(iter->attr.bp_type) != type)
			continue;
		here = tbl->cpu_pinned[iter->cpu] +
		       task_bp_weight(list, type, iter->cpu);
		busiest = max(busiest, here);
	}
	return busiest + any;
}

static void cpu_pinned_add(struct bp_slot_table *tbl, int cpu, int weight)
{
	bp_hist_add(tbl, tbl->cpus_by_pinned, tbl->cpu_pinned[cpu], -1);
	tbl->cpu_pinned[cpu] += weight;
	bp_hist_add(tbl, tbl->cpus_by_pinned, tbl->cpu_pinned[cpu], 1);
}

/* Reserve @bp's registers; bp_slots_lock held (or kgdb, see above). */
static int bp_reserve_locked(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;
	u64 bp_type = bp->attr.bp_type;
	int weight = hw_breakpoint_weight(bp);
	struct bp_slot_table *tbl;
	enum bp_type_idx type;
	int err;

	if (!bp_tables_ready)
		return -ENOMEM;
	if (bp_type == HW_BREAKPOINT_EMPTY || bp_type == HW_BREAKPOINT_INVALID)
		return -EINVAL;
	if (bp->cpu >= (int)nr_cpu_ids || (!task && bp->cpu < 0))
		return -EINVAL;

	type = bp_slot_type(bp_type);
	tbl = &bp_tables[type];

	if (!task) {
		if (cpu_slots_busy(tbl, bp->cpu) + weight > tbl->nr_slots)
			return -ENOSPC;
		cpu_pinned_add(tbl, bp->cpu, weight);
		atomic_inc(&bp_nr_reserved);
		return 0;
	}

	rcu_read_lock();
	if (task_slots_busy(tbl, task, type, bp->cpu) + weight > tbl->nr_slots) {
		err = -ENOSPC;
	} else {
		task_bps_account(tbl, task, type, -1);
		err = rhltable_insert(&bp_task_table, &bp->hw.bp_list,
				      bp_task_params);
		task_bps_account(tbl, task, type, 1);
	}
	rcu_read_unlock();

	if (!err)
		atomic_inc(&bp_nr_reserved);
	return err;
}

/* Give back what bp_reserve_locked() took for @bp. */
static void bp_release_locked(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;
	int weight = hw_breakpoint_weight(bp);
	enum bp_type_idx type = bp_slot_type(bp->attr.bp_type);
	struct bp_slot_table *tbl = &bp_tables[type];
	int err;

	if (!bp_tables_ready)
		return;

	if (!task) {
		if (WARN_ON_ONCE(tbl->cpu_pinned[bp->cpu] < weight))
			return;
		cpu_pinned_add(tbl, bp->cpu, -weight);
		atomic_dec(&bp_nr_reserved);
		return;
	}

	rcu_read_lock();
	task_bps_account(tbl, task, type, -1);
	err = rhltable_remove(&bp_task_table, &bp->hw.bp_list, bp_task_params);
	task_bps_account(tbl, task, type, 1);
	rcu_read_unlock();

	if (!WARN_ON_ONCE(err))
		atomic_dec(&bp_nr_reserved);
}

/**
 * reserve_bp_slot - reserve a debug register for a breakpoint
 * @bp: the breakpoint, with its attr.bp_type, cpu and hw.target set
 *
 * Process context; may sleep.
 *
 * Return: 0, -ENOSPC if the registers of that kind are all taken on some
 * CPU @bp may run on, -EINVAL for an empty or impossible bp_type, -ENOMEM
 * if the tables could not be made at boot (or the task table is full).
 */
int reserve_bp_slot(struct perf_event *bp)
{
	int err;

	mutex_lock(&bp_slots_lock);
	err = bp_reserve_locked(bp);
	mutex_unlock(&bp_slots_lock);
	return err;
}

/**
 * release_bp_slot - give back the debug register of a breakpoint
 * @bp: a breakpoint that reserve_bp_slot() accepted
 *
 * Process context; may sleep.
 */
void release_bp_slot(struct perf_event *bp)
{
	mutex_lock(&bp_slots_lock);
	bp_release_locked(bp);
	mutex_unlock(&bp_slots_lock);
}

/**
 * dbg_reserve_bp_slot - reserve a debug register from the kernel debugger
 * @bp: the breakpoint
 *
 * For kgdb, which runs with every other CPU stopped and must not sleep:
 * the tables are used without the lock, and only if nobody was holding it
 * when the CPUs stopped.
 *
 * Return: 0, -EBUSY if the tables are being changed, or the errors of
 * reserve_bp_slot().
 */
int dbg_reserve_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_slots_lock))
		return -EBUSY;
	return bp_reserve_locked(bp);
}

/**
 * dbg_release_bp_slot - give back a debug register from the kernel debugger
 * @bp: a breakpoint that dbg_reserve_bp_slot() accepted
 *
 * The counterpart of dbg_reserve_bp_slot(), under the same conditions.
 *
 * Return: 0, or -EBUSY if the tables are being changed (the debugger
 * tries again later).
 */
int dbg_release_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_slots_lock))
		return -EBUSY;
	bp_release_locked(bp);
	return 0;
}

/**
 * hw_breakpoint_is_used - whether any debug register is reserved
 *
 * Return: true if some breakpoint holds a slot.
 */
bool hw_breakpoint_is_used(void)
{
	return atomic_read(&bp_nr_reserved) > 0;
}

/* ---------------------------------------------------------------------
 * Checking and changing a breakpoint's attributes
 */

/*
 * The architecture's encoding of @attr, and the rules for addresses in
 * the kernel: they need kernel counting and, since a breakpoint in the
 * debug exception path would trap again and again, CAP_SYS_ADMIN.
 */
static int bp_parse(struct perf_event *bp, const struct perf_event_attr *attr,
		    struct arch_hw_breakpoint *info)
{
	int err = hw_breakpoint_arch_parse(bp, attr, info);

	if (err)
		return err;
	if (!arch_check_bp_in_kernelspace(info))
		return 0;
	if (attr->exclude_kernel)
		return -EINVAL;
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/* Does @want differ from @cur in nothing but what a modify may change? */
static bool bp_attr_change_allowed(const struct perf_event_attr *cur,
				   const struct perf_event_attr *want)
{
	struct perf_event_attr merged = *cur;

	merged.bp_addr = want->bp_addr;
	merged.bp_len = want->bp_len;
	merged.bp_type = want->bp_type;
	merged.disabled = want->disabled;
	return !memcmp(&merged, want, sizeof(merged));
}

/*
 * Move @bp's reservation to the kind and weight of @bp_type/@bp_len.  On
 * failure the old reservation is back in place and @bp unchanged.
 */
static int bp_move_locked(struct perf_event *bp, u32 bp_type, u64 bp_len)
{
	u32 old_type = bp->attr.bp_type;
	u64 old_len = bp->attr.bp_len;
	int err;

	bp_release_locked(bp);
	bp->attr.bp_type = bp_type;
	bp->attr.bp_len = bp_len;
	err = bp_reserve_locked(bp);
	if (err) {
		bp->attr.bp_type = old_type;
		bp->attr.bp_len = old_len;
		/* what was just given back is still free */
		WARN_ON_ONCE(bp_reserve_locked(bp));
	}
	return err;
}

/**
 * register_perf_hw_breakpoint - check and set up a new breakpoint event
 * @bp: an event of the breakpoint PMU being initialised (its attr, cpu,
 *      hw.target and overflow handler set)
 *
 * Reserves a debug register and has the architecture encode the address,
 * length and type into @bp->hw.info.
 *
 * Return: 0; -ENOSPC when no register is free; -EINVAL for attributes the
 * architecture cannot watch, or a kernel address with exclude_kernel;
 * -EPERM for a kernel address without CAP_SYS_ADMIN.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	struct arch_hw_breakpoint encoded = { };
	int ret = reserve_bp_slot(bp);

	if (!ret) {
		ret = bp_parse(bp, &bp->attr, &encoded);
		if (ret)
			release_bp_slot(bp);
		else
			bp->hw.info = encoded;
	}
	return ret;
}

/**
 * modify_user_hw_breakpoint_check - change a breakpoint's attributes
 * @bp: the breakpoint, disabled by the caller (not on any PMU)
 * @attr: the new bp_addr, bp_len, bp_type and disabled bit
 * @check: refuse an @attr that differs from @bp's in any other field
 *	   (PERF_EVENT_IOC_MODIFY_ATTRIBUTES); ptrace passes false
 *
 * Validates the new settings with the architecture and, when the kind of
 * register or the weight may change, moves the reservation.  Nothing
 * changes on failure.  The caller enables @bp again if it wants to; the
 * perf ioctl calls this with ctx->mutex held.
 *
 * Return: 0, -EINVAL (bad settings, or other fields changed with @check),
 * -EPERM (kernel address, not privileged), -ENOSPC (no register of the
 * new kind free).
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint info = { };
	int err;

	err = bp_parse(bp, attr, &info);
	if (err)
		return err;
	if (check && !bp_attr_change_allowed(&bp->attr, attr))
		return -EINVAL;

	mutex_lock(&bp_slots_lock);
	if (bp->attr.bp_type != attr->bp_type || bp->attr.bp_len != attr->bp_len)
		err = bp_move_locked(bp, attr->bp_type, attr->bp_len);
	if (!err) {
		bp->attr.bp_addr = attr->bp_addr;
		bp->attr.disabled = attr->disabled;
		bp->hw.info = info;
	}
	mutex_unlock(&bp_slots_lock);
	return err;
}

/**
 * modify_user_hw_breakpoint - change a ptrace breakpoint's attributes
 * @bp: the breakpoint
 * @attr: the new bp_addr, bp_len, bp_type and disabled bit; other fields
 *	  are ignored
 *
 * Takes @bp off the PMU, changes it with modify_user_hw_breakpoint_check()
 * and enables it again unless it is now disabled (also when the change
 * failed and it was enabled before).  Process context: sleeps on the
 * event's context mutex.
 *
 * Return: 0 or the error of modify_user_hw_breakpoint_check(); -EINVAL
 * when called with IRQs off, which this core does not support.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	int ret;

	/* the context mutex cannot be taken here */
	if (WARN_ON_ONCE(irqs_disabled()))
		return -EINVAL;

	perf_event_disable(bp);
	ret = modify_user_hw_breakpoint_check(bp, attr, false);
	/* on again if the settings in force now say enabled */
	if (bp->attr.disabled == 0)
		perf_event_enable(bp);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/* ---------------------------------------------------------------------
 * Breakpoints for in-kernel users
 */

/**
 * register_user_hw_breakpoint - set a breakpoint in one task (for ptrace)
 * @attr: address, length and access type (ptrace_breakpoint_init() and
 *	  the caller's settings)
 * @triggered: called for each hit, as the event's overflow handler
 * @context: stored in the event for @triggered
 * @tsk: the task to watch, on whichever CPU it runs
 *
 * Return: the breakpoint event, or an ERR_PTR() (-ENOSPC when the task's
 * debug registers are all taken).
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context,
			    struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * unregister_hw_breakpoint - remove a breakpoint and free it
 * @bp: the breakpoint; NULL or an error pointer is ignored
 *
 * Process context.  Its debug register is given back when the event is
 * freed.
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (IS_ERR_OR_NULL(bp))
		return;

	perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint_cpu - set a kernel breakpoint on one CPU
 * @attr: address, length and access type
 * @triggered: called for each hit
 * @context: stored in the event for @triggered
 * @cpu: the CPU, online
 *
 * Return: the breakpoint event, or an ERR_PTR().
 */
struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return perf_event_create_kernel_counter(attr, cpu, NULL, triggered,
						context);
}

/**
 * register_wide_hw_breakpoint - set a kernel breakpoint on every CPU
 * @attr: address, length and access type
 * @triggered: called for each hit
 * @context: stored in the events for @triggered
 *
 * Makes one breakpoint event per online CPU; CPUs that come online later
 * get none (their entry stays NULL).  All or nothing: on failure the
 * events already made are freed.
 *
 * Return: a per-CPU array of the events, to give to
 * unregister_wide_hw_breakpoint(), or an ERR_PTR() in that type.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *cpu_events;
	long err = 0;
	int cpu;

	cpu_events = alloc_percpu(struct perf_event *);
	if (!cpu_events)
		return (void __percpu __force *)ERR_PTR(-ENOMEM);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct perf_event *bp;

		bp = register_wide_hw_breakpoint_cpu(attr, triggered, context,
						     cpu);
		if (IS_ERR(bp)) {
			err = PTR_ERR(bp);
			break;
		}
		*per_cpu_ptr(cpu_events, cpu) = bp;
	}
	cpus_read_unlock();

	if (err) {
		unregister_wide_hw_breakpoint(cpu_events);
		return (void __percpu __force *)ERR_PTR(err);
	}
	return cpu_events;
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - remove a breakpoint from every CPU
 * @cpu_events: what register_wide_hw_breakpoint() returned; NULL or an
 *              error pointer is ignored
 *
 * Releases the event of each CPU, then the per-CPU array itself.
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	int cpu;

	if (IS_ERR_OR_NULL((void __force *)cpu_events))
		return;

	for_each_possible_cpu(cpu)
		unregister_hw_breakpoint(*per_cpu_ptr(cpu_events, cpu));

	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/* ---------------------------------------------------------------------
 * The "breakpoint" PMU
 *
 * The register is written in add() and cleared in del(); start() and
 * stop() only say whether hits count (perf_bp_event() drops those of a
 * stopped event), as for the software PMU.
 */

static void bp_pmu_destroy(struct perf_event *bp)
{
	release_bp_slot(bp);
}

static int bp_pmu_event_init(struct perf_event *bp)
{
	struct bp_slot_table *tbl = &bp_tables[bp_slot_type(bp->attr.bp_type)];
	int ret;

	if (bp->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	if (has_branch_stack(bp))
		return -EOPNOTSUPP;	/* no branch records */
	if (!tbl->nr_slots)
		return -EOPNOTSUPP;	/* no register of that kind */

	ret = register_perf_hw_breakpoint(bp);
	if (!ret)
		bp->destroy = bp_pmu_destroy;
	return ret;
}

/* Hits count from now on (@counting) or are dropped. */
static void bp_pmu_set_counting(struct perf_event *bp, bool counting)
{
	bp->hw.state = counting ? 0 : PERF_HES_STOPPED;
}

static int bp_pmu_add(struct perf_event *bp, int flags)
{
	if (is_sampling_event(bp))
		perf_swevent_start_period(bp);
	bp_pmu_set_counting(bp, flags & PERF_EF_START);
	return arch_install_hw_breakpoint(bp);
}

static void bp_pmu_del(struct perf_event *bp, int flags)
{
	bp_pmu_set_counting(bp, false);
	arch_uninstall_hw_breakpoint(bp);
}

static void bp_pmu_start(struct perf_event *bp, int flags)
{
	bp_pmu_set_counting(bp, true);
}

static void bp_pmu_stop(struct perf_event *bp, int flags)
{
	bp_pmu_set_counting(bp, false);
}

/* Hits are added to the count as they happen; the architecture may sync. */
static void bp_pmu_read(struct perf_event *bp)
{
	hw_breakpoint_pmu_read(bp);
}

static struct pmu perf_breakpoint_pmu = {
	/* scheduled with the software events: no counters to share */
	.task_ctx_nr	= perf_sw_context,

	.event_init	= bp_pmu_event_init,
	.add		= bp_pmu_add,
	.del		= bp_pmu_del,
	.start		= bp_pmu_start,
	.stop		= bp_pmu_stop,
	.read		= bp_pmu_read,
};

/**
 * perf_bp_event - a breakpoint hit, from the architecture's debug handler
 * @bp: the breakpoint event whose register fired
 * @data: the registers at the hit (struct pt_regs *)
 *
 * Counts the hit, with attr.bp_addr as the sample address, and runs the
 * overflow path of a sampling breakpoint (ptrace's and kgdb's callbacks,
 * samples, SIGTRAP).  Hits while @bp is stopped, or in a mode its
 * exclude_user/exclude_kernel bits leave out, are dropped, and so is a
 * hit taken while this CPU is already delivering a software event at the
 * same level.  Called with preemption off; for a kernel address this can
 * be NMI-like context (x86 handles kernel debug exceptions as NMIs).
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct pt_regs *regs = data;
	struct perf_sample_data sample __uninitialized;
	int rctx;

	if (bp->hw.state & PERF_HES_STOPPED)
		return;
	if (regs && (user_mode(regs) ? bp->attr.exclude_user :
				       bp->attr.exclude_kernel))
		return;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return;

	perf_sample_data_init(&sample, bp->attr.bp_addr, 0);
	perf_swevent_event(bp, 1, &sample, regs);

	perf_swevent_put_recursion_context(rctx);
}

/* ---------------------------------------------------------------------
 * Boot
 */

/* The slot table of one kind of register, all its arrays in one block. */
static int __init bp_table_alloc(struct bp_slot_table *tbl, int nr_slots)
{
	size_t row = nr_slots + 1;
	unsigned int *block;

	block = kvcalloc(nr_cpu_ids + 2 * row + nr_cpu_ids * row,
			 sizeof(*block), GFP_KERNEL);
	if (!block)
		return -ENOMEM;

	tbl->nr_slots = nr_slots;
	tbl->cpu_pinned = block;
	tbl->cpus_by_pinned = tbl->cpu_pinned + nr_cpu_ids;
	tbl->tasks_by_any = tbl->cpus_by_pinned + row;
	tbl->tasks_on_cpu = tbl->tasks_by_any + row;
	return 0;
}

static struct notifier_block hw_breakpoint_die_nb = {
	.notifier_call	= hw_breakpoint_exceptions_notify,
	/* debug exceptions are the architecture's before anyone else's */
	.priority	= INT_MAX,
};

/**
 * init_hw_breakpoint - boot-time setup of breakpoint support
 *
 * Called once from perf_event_init(): makes the slot tables from the
 * architecture's register counts, registers the "breakpoint" PMU as
 * PERF_TYPE_BREAKPOINT and hooks the architecture's debug exception
 * handler into the die notifier chain.
 *
 * Return: 0 or a negative errno (then no breakpoint can be created).
 */
int __init init_hw_breakpoint(void)
{
	int type, err;

	err = rhltable_init(&bp_task_table, &bp_task_params);
	if (err)
		return err;

	for (type = 0; type < TYPE_MAX; type++) {
		err = bp_table_alloc(&bp_tables[type],
				     max(hw_breakpoint_slots(type), 0));
		if (err) {
			while (--type >= 0)
				kvfree(bp_tables[type].cpu_pinned);
			rhltable_destroy(&bp_task_table);
			return err;
		}
	}
	bp_tables_ready = true;

	err = perf_pmu_register(&perf_breakpoint_pmu, "breakpoint",
				PERF_TYPE_BREAKPOINT);
	if (err)
		return err;

	return register_die_notifier(&hw_breakpoint_die_nb);
}
