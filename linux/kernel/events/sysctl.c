// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls and the permission checks built on them.
 *
 * The kernel.perf_* entries themselves are in kernel/sysctl.c's table; this
 * file holds their variables and handlers:
 *
 *   perf_event_paranoid    who may do what without CAP_PERFMON:
 *                          -1 anything, 0 no raw tracepoints,
 *                          1 no CPU-wide events, 2 no kernel counting,
 *                          3 (Debian's restrict option) no perf at all
 *   perf_event_mlock_kb    ring buffer pages a user may lock beyond
 *                          RLIMIT_MEMLOCK
 *   perf_event_max_sample_rate, perf_cpu_time_max_percent
 *                          the sampling rate ceiling, and the share of CPU
 *                          time PMU interrupts may take before the ceiling
 *                          is lowered
 *   perf_event_max_stack, perf_event_max_contexts_per_stack
 *                          callchain limits
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/security.h>
#include <linux/sysctl.h>

#include "internal.h"
#include "callchain.h"
#include "sysctl.h"

/* Level 3 (no perf for the unprivileged) where the distribution asks for it. */
#define PERF_DEFAULT_PARANOIA \
	(IS_ENABLED(CONFIG_SECURITY_PERF_EVENTS_RESTRICT) ? 3 : 2)

int sysctl_perf_event_paranoid __read_mostly = PERF_DEFAULT_PARANOIA;

/* 512 KiB of buffer plus its control page, per user, in KiB. */
#define PERF_DEFAULT_MLOCK_KB	(512 + PAGE_SIZE / 1024)

int sysctl_perf_event_mlock __read_mostly = PERF_DEFAULT_MLOCK_KB;

#define PERF_DEFAULT_SAMPLE_RATE	100000
#define PERF_DEFAULT_CPU_PERCENT	25

int sysctl_perf_event_sample_rate __read_mostly = PERF_DEFAULT_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = PERF_DEFAULT_CPU_PERCENT;

int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly =
	PERF_MAX_CONTEXTS_PER_STACK;

/*
 * Derived from the two sampling sysctls, for the sampling code and its
 * interrupt throttling (perf_sample_event_took()) when they land:
 *   perf_sample_period_ns     nanoseconds between samples at the ceiling
 *   perf_sample_allowed_ns    how long one PMU interrupt may take on
 *                             average; 0: no throttling
 *   perf_samples_per_tick     the ceiling, per scheduler tick
 */
static int perf_sample_period_ns __read_mostly =
	NSEC_PER_SEC / PERF_DEFAULT_SAMPLE_RATE;
u64 perf_sample_allowed_ns __read_mostly =
	NSEC_PER_SEC / PERF_DEFAULT_SAMPLE_RATE * PERF_DEFAULT_CPU_PERCENT / 100;
int perf_samples_per_tick __read_mostly =
	DIV_ROUND_UP(PERF_DEFAULT_SAMPLE_RATE, HZ);

/* Samples a tick may take at @rate a second (rate up to INT_MAX: no int sums). */
static int perf_rate_per_tick(int rate)
{
	return rate / HZ + !!(rate % HZ);
}

static void perf_update_allowed_ns(void)
{
	u64 allowed = div_u64((u64)perf_sample_period_ns *
			      sysctl_perf_cpu_time_max_percent, 100);

	WRITE_ONCE(perf_sample_allowed_ns, allowed ?: 1);
}

/**
 * perf_sample_rate_lower - lower the sample rate until handlers fit
 * @took_ns: how long an interrupt handler takes on average
 *
 * Sets perf_event_max_sample_rate so that @took_ns is what
 * perf_cpu_time_max_percent allows per sample, with some margin.  Any
 * context (the overflow path); racing callers may both write, which is
 * harmless.
 *
 * Return: true if the rate was lowered.
 */
bool perf_sample_rate_lower(u64 took_ns)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	u64 period_ns;
	int rate;

	if (!percent || percent >= 100 || !took_ns)
		return false;
	/* took_ns must be percent% of the period; leave a quarter spare */
	period_ns = div_u64(took_ns * 100 * 5, (u64)percent * 4);
	rate = max_t(u64, div64_u64(NSEC_PER_SEC, period_ns ?: 1), 1);
	if (rate >= READ_ONCE(sysctl_perf_event_sample_rate))
		return false;
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	WRITE_ONCE(perf_samples_per_tick, perf_rate_per_tick(rate));
	WRITE_ONCE(perf_sample_period_ns, NSEC_PER_SEC / rate);
	perf_update_allowed_ns();
	return true;
}

/**
 * perf_event_max_sample_rate_handler - kernel.perf_event_max_sample_rate
 * @table: the sysctl entry (extra1: the minimum, 1)
 * @write: a write
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * Writes are refused while throttling is off (perf_cpu_time_max_percent
 * 0 or 100): the rate would then never be lowered again.
 *
 * Return: 0 or an error.
 */
int perf_event_max_sample_rate_handler(const struct ctl_table *table, int write,
				       void *buffer, size_t *lenp, loff_t *ppos)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	int err;

	if (write && (percent == 0 || percent == 100))
		return -EINVAL;

	err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (err || !write)
		return err;

	WRITE_ONCE(perf_samples_per_tick,
		   perf_rate_per_tick(sysctl_perf_event_sample_rate));
	WRITE_ONCE(perf_sample_period_ns,
		   NSEC_PER_SEC / sysctl_perf_event_sample_rate);
	perf_update_allowed_ns();
	return 0;
}

/**
 * perf_cpu_time_max_percent_handler - kernel.perf_cpu_time_max_percent
 * @table: the sysctl entry (0 to 100)
 * @write: a write
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * 0 and 100 turn interrupt throttling off.
 *
 * Return: 0 or an error.
 */
int perf_cpu_time_max_percent_handler(const struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos)
{
	int err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (err || !write)
		return err;

	if (sysctl_perf_cpu_time_max_percent == 0 ||
	    sysctl_perf_cpu_time_max_percent == 100) {
		pr_warn("perf: interrupt throttling is off; PMU interrupts may take the whole CPU\n");
		WRITE_ONCE(perf_sample_allowed_ns, 0);
	} else {
		perf_update_allowed_ns();
	}
	return 0;
}

/**
 * perf_event_max_stack_handler - kernel.perf_event_max_stack and
 *	kernel.perf_event_max_contexts_per_stack
 * @table: the sysctl entry, with its bounds in extra1/extra2
 * @write: a write
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * The value is parsed into a copy and stored only when valid, and only
 * while no callchain buffers sized from the old value are in use
 * (-EBUSY otherwise).
 *
 * Return: 0 or an error.
 */
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int *target = table->data;
	int value = READ_ONCE(*target);
	struct ctl_table scratch = *table;
	int err;

	scratch.data = &value;
	err = proc_dointvec_minmax(&scratch, write, buffer, lenp, ppos);
	if (err || !write)
		return err;

	/* -EBUSY while callchain buffers sized by the old value exist */
	return perf_callchain_limit_store(target, value);
}

/* ---------------------------------------------------------------------
 * Permissions
 */

/**
 * perf_allow_kernel - may the caller count or sample kernel activity
 *
 * Return: 0, or -EACCES at perf_event_paranoid > 1 without CAP_PERFMON,
 * or the LSM's refusal.
 */
int perf_allow_kernel(void)
{
	if (sysctl_perf_event_paranoid > 1 && !perfmon_capable())
		return -EACCES;

	return security_perf_event_open(PERF_SECURITY_KERNEL);
}
EXPORT_SYMBOL_GPL(perf_allow_kernel);

static bool perf_attr_sees_kernel(const struct perf_event_attr *attr)
{
	if (!attr->exclude_kernel || attr->text_poke)
		return true;
	if ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    !attr->exclude_callchain_kernel)
		return true;
	return attr->sample_type & PERF_SAMPLE_PHYS_ADDR;
}

/**
 * perf_event_check_access - may the caller open an event with this attr
 * @attr: the attr as copied from user space
 *
 * The checks that depend on the attr alone (the target task and CPU are
 * checked elsewhere: perf_ptrace_check(), perf_allow_cpu()).
 *
 * Return: 0, -EACCES, or the LSM's or lockdown's refusal.
 */
int perf_event_check_access(struct perf_event_attr *attr)
{
	int err;

	if (perf_paranoid_any() && !capable(CAP_SYS_ADMIN))
		return -EACCES;

	err = security_perf_event_open(PERF_SECURITY_OPEN);
	if (err)
		return err;

	if (perf_attr_sees_kernel(attr)) {
		err = perf_allow_kernel();
		if (err)
			return err;
	}

	if (attr->namespaces && !perfmon_capable())
		return -EACCES;

	/* Interrupted-register samples can leak kernel data. */
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
		err = security_locked_down(LOCKDOWN_PERF);
		if (err)
			return err;
	}
	return 0;
}

/**
 * perf_ptrace_check - may the caller watch another task
 * @task: the target task
 *
 * CAP_PERFMON, or the right to read the task as a debugger would (real
 * credentials).  The caller holds @task->signal->exec_update_lock for
 * reading from before this check until the event is attached, so that an
 * exec that changes the task's credentials cannot slip in between.
 *
 * Return: 0 or -EACCES.
 */
int perf_ptrace_check(struct task_struct *task)
{
	if (perfmon_capable())
		return 0;
	if (ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS))
		return 0;
	return -EACCES;
}

/**
 * perf_sigtrap_check - may the caller watch another task with attr.sigtrap
 * @task: the target task
 *
 * A sigtrap event sends signals to @task, so plain read access is not
 * enough: CAP_PERFMON together with CAP_KILL in @task's user namespace,
 * or the right to attach to @task as a debugger would.  Same locking as
 * perf_ptrace_check().
 *
 * Return: 0 or -EACCES.
 */
int perf_sigtrap_check(struct task_struct *task)
{
	bool may_kill = false;

	if (perfmon_capable()) {
		rcu_read_lock();
		may_kill = ns_capable(__task_cred(task)->user_ns, CAP_KILL);
		rcu_read_unlock();
	}
	if (may_kill || ptrace_may_access(task, PTRACE_MODE_ATTACH_REALCREDS))
		return 0;
	return -EACCES;
}
