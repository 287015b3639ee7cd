// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware breakpoint API: what ptrace, kgdb and the architectures'
 * debug exception handlers call to watch an address with a debug
 * register.
 *
 * Breakpoints are perf events of the "breakpoint" PMU, which shares out
 * the CPUs' debug registers between tasks and CPUs.  That PMU is not
 * registered in step 1 of the core (events of PERF_TYPE_BREAKPOINT find no
 * PMU), so nothing here can hand out a breakpoint yet: every registration
 * fails with -EOPNOTSUPP and callers take their error paths (ptrace
 * refuses the debug register write, kgdb goes without hardware
 * breakpoints).  Unregistration still releases whatever it is given, so
 * the pairs stay correct when registration starts to work.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include "internal.h"

/**
 * register_user_hw_breakpoint - set a breakpoint in one task (for ptrace)
 * @attr: address, length and access type of the breakpoint
 * @triggered: called each time it hits
 * @context: passed to @triggered through the event
 * @tsk: the task to watch
 *
 * Not yet supported: the breakpoint PMU is not registered.
 *
 * Return: ERR_PTR(-EOPNOTSUPP).
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context,
			    struct task_struct *tsk)
{
	return ERR_PTR(-EOPNOTSUPP);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * modify_user_hw_breakpoint_check - change a breakpoint's attributes
 * @bp: the breakpoint
 * @attr: the new address, length, type and disabled bit
 * @check: whether to refuse changes to other fields of the attributes
 *
 * Not yet supported: no breakpoint can exist to be changed.
 *
 * Return: -EOPNOTSUPP.
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	return -EOPNOTSUPP;
}

/**
 * modify_user_hw_breakpoint - change a ptrace breakpoint's attributes
 * @bp: the breakpoint
 * @attr: the new address, length, type and disabled bit
 *
 * Not yet supported (see modify_user_hw_breakpoint_check()).
 *
 * Return: -EOPNOTSUPP.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	return modify_user_hw_breakpoint_check(bp, attr, false);
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/**
 * unregister_hw_breakpoint - remove a breakpoint and free it
 * @bp: the breakpoint; NULL or an error pointer is ignored
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (IS_ERR_OR_NULL(bp))
		return;

	perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint - set a kernel breakpoint on every CPU
 * @attr: address, length and access type of the breakpoint
 * @triggered: called each time it hits
 * @context: passed to @triggered through the events
 *
 * Not yet supported: the breakpoint PMU is not registered.
 *
 * Return: ERR_PTR(-EOPNOTSUPP), in the per-CPU pointer type callers keep.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	return (void __percpu __force *)ERR_PTR(-EOPNOTSUPP);
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
		unregister_hw_breakpoint(per_cpu(*cpu_events, cpu));

	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/**
 * register_perf_hw_breakpoint - check and set up a new breakpoint event
 * @bp: an event of the breakpoint PMU being initialised
 *
 * Reserves a debug register slot and validates the address with the
 * architecture.  Not yet supported.
 *
 * Return: -EOPNOTSUPP.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

/**
 * reserve_bp_slot - reserve a debug register for a breakpoint
 * @bp: the breakpoint
 *
 * Not yet supported: there is no slot accounting.
 *
 * Return: -EOPNOTSUPP.
 */
int reserve_bp_slot(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

/**
 * release_bp_slot - give back the debug register of a breakpoint
 * @bp: the breakpoint
 *
 * reserve_bp_slot() never reserves one: does nothing.
 */
void release_bp_slot(struct perf_event *bp)
{
}

/**
 * dbg_reserve_bp_slot - reserve a debug register from the kernel debugger
 * @bp: the breakpoint
 *
 * For kgdb, which runs with every other CPU stopped and so cannot sleep
 * on the slot accounting.  Not yet supported.
 *
 * Return: -EOPNOTSUPP.
 */
int dbg_reserve_bp_slot(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

/**
 * dbg_release_bp_slot - give back a debug register from the kernel debugger
 * @bp: the breakpoint
 *
 * dbg_reserve_bp_slot() never reserves one, so there is nothing to give
 * back.
 *
 * Return: 0.
 */
int dbg_release_bp_slot(struct perf_event *bp)
{
	return 0;
}

/**
 * hw_breakpoint_is_used - whether any debug register is taken
 *
 * Return: false: none can be until breakpoints are supported.
 */
bool hw_breakpoint_is_used(void)
{
	return false;
}

/**
 * perf_bp_event - a breakpoint hit, from the architecture's debug handler
 * @bp: the breakpoint event that hit
 * @data: the exception's registers (struct pt_regs)
 *
 * No breakpoint event can exist yet, so the architecture never finds one
 * to report: does nothing.
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
}

/**
 * init_hw_breakpoint - boot-time setup of breakpoint support
 *
 * Called once from perf_event_init().  In step 1 there are no slot tables
 * to allocate and the breakpoint PMU is not registered.
 *
 * Return: 0.
 */
int __init init_hw_breakpoint(void)
{
	return 0;
}
