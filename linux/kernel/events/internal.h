/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the perf core share.  Nothing here is for code outside
 * kernel/events/; the interface for the rest of the kernel and for PMU
 * drivers is include/linux/perf_event.h.
 *
 * Files and what each one owns:
 *   context.c   putting groups on and off the PMU, context switch, install
 *               and remove, enable and disable, cross-calls to the CPU of
 *               a context, time accounting (its top comment has the
 *               locking rules)
 *   context_lifetime.c  task and CPU contexts and their per-PMU
 *               sub-contexts: allocation, lookup, reference counts, the
 *               context lock of an event
 *   groups.c    the group leaders of a sub-context: their lists, trees and
 *               the off list, the walk over those that may run on a CPU
 *   rotate.c    multiplexing: the per-CPU timer that rotates groups
 *   hotplug.c   CPU contexts across CPU hotplug, migrating CPU contexts
 *   event.c     event allocation, reference counts, release, the file
 *               operations, the in-kernel counter API
 *   syscall.c   perf_event_open(2): copying and checking the attr, flags,
 *               group_fd, target task or CPU, permissions
 *   ioctl.c     PERF_EVENT_IOC_* and prctl(PR_TASK_PERF_EVENTS_*)
 *   read.c      read(2) and the read_format layouts, child counts
 *   inherit.c   fork, exit, exec: inherited events and their counts,
 *               the task context on and off the PMU at exit and exec
 *   all_cpus.c  PERF_FLAG_ALL_CPUS: one fd for an event on every CPU
 *   pmu.c       the PMU registry, dynamic types, sysfs, pmu enable/disable
 *   swevent.c   the software PMUs (software, cpu-clock, task-clock)
 *   sysctl.c    the perf sysctls and the permission helpers
 *   cgroup.c    the perf_event cgroup controller, the cgroup clocks and
 *               switching cgroup events when a task changes cgroups
 *   overflow.c  overflow of sampling events: periods, frequency,
 *               throttling, REFRESH limits, SIGTRAP, wakeups
 *   ring_buffer.c  the mmap()ed ring buffer, output handles, poll, fasync,
 *               SET_OUTPUT and PAUSE_OUTPUT
 *   sample.c    the sample layout (PERF_SAMPLE_*) and sample_id_all
 *   callchain.c kernel and user callchains and their per-CPU buffers
 *   records.c   side-band records (MMAP, COMM, FORK, SWITCH ...)
 *   tracepoint.c  tracepoint, kprobe and uprobe PMUs, filters
 *   bpf.c       BPF programs attached to events
 *   hw_breakpoint.c  the breakpoint PMU and its slot reservations
 *   aux.c       the AUX area and the driver-facing AUX API, AUX samples,
 *               aux_output and aux_pause/aux_resume members
 *   addr_filter.c  address range filters of instruction trace PMUs
 *   test/       (CONFIG_PERF_AUX_TEST) the test PMUs of the selftests:
 *               aux_test (an AUX writer), brstack_test (branch stacks)
 *               and their shared on/off switch
 *
 * Headers: each file that others call has a header of its own name with
 * that interface (context.h, rotate.h, ...); a .c file includes this one
 * and then the headers of the files it calls.  This header holds only
 * what every file needs: the per-CPU context types and small helpers.  It
 * includes none of the others.
 *
 * Names: a function ending in _locked expects its caller to hold the lock
 * its comment names (and asserts it); one ending in _local works on this
 * CPU only, without an IPI, with IRQs off; one ending in _ipi is an IPI
 * handler run by smp_call_function_single().
 *
 * The locking rules: each lock's in a DOC: comment of the file that
 * owns it (context.c for the context locks), all of them shown together,
 * with the order they nest in, in Documentation/perf/core/locking.rst.
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/perf_event.h>
#include <linux/hrtimer.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>

/*
 * Two pointers that RCU manages but whose declarations lack __rcu:
 * task_struct's perf_event_ctxp (sched.h is not ours) and perf_event's rb
 * (drivers see the struct; none reads rb).  Every RCU accessor reaches
 * them through these, which tell sparse what they are.
 */
static inline struct perf_event_context __rcu **task_ctxp(struct task_struct *task)
{
	return (struct perf_event_context __rcu __force **)&task->perf_event_ctxp;
}

static inline struct perf_buffer __rcu **event_rbp(struct perf_event *event)
{
	return (struct perf_buffer __rcu __force **)&event->rb;
}

/* ctx->is_active and the what-to-schedule masks of context.c */
#define EVENT_FLEXIBLE	0x01
#define EVENT_PINNED	0x02
#define EVENT_TIME	0x04
#define EVENT_ALL	(EVENT_FLEXIBLE | EVENT_PINNED)

/*
 * Per CPU, per PMU state: the CPU's own sub-context for this PMU (events
 * opened with cpu >= 0 and pid == -1), the running task's sub-context for
 * this PMU if it has one, and the multiplexing timer.  Reached with
 * per_cpu_ptr(pmu->cpu_pmu_context, cpu).  Changed on its own CPU only,
 * with IRQs off and the CPU context's lock held.
 */
struct perf_cpu_pmu_context {
	struct perf_event_pmu_context	epc;
	struct perf_event_pmu_context	*task_epc;
	int				active_oncpu;	/* groups on the PMU */
	int				exclusive;	/* an exclusive group is on */
	int				sched_cb_usage;	/* perf_sched_cb_inc() */
	struct list_head		sched_cb_entry;

	/* multiplexing: rotates flexible groups that did not all fit */
	struct hrtimer			mux_timer;
	ktime_t				mux_interval;
	raw_spinlock_t			mux_lock;	/* mux_armed */
	bool				mux_armed;
};

/*
 * Per CPU: the CPU context (every PMU's CPU-wide events) and the context
 * of the task running there, if it has one.
 */
struct perf_cpu_context {
	struct perf_event_context	*task_ctx;	/* active task context */
	/*
	 * The context whose time was brought up to date (or started) just
	 * before, under its ctx->lock, while what follows runs: the
	 * function of ctx_function_call() or perf_event_toggle_own(), and
	 * the sched-in and sched-out walks of a task context.  A task
	 * clock's add() and del() take ctx->time as it is then
	 * (perf_ctx_time_is_now()), as its running time does.  NULL
	 * otherwise.
	 */
	struct perf_event_context	*time_now;
	int				cpu;		/* whose */
	bool				online;		/* events may run */
#ifdef CONFIG_CGROUP_PERF
	/*
	 * While the CPU context has cgroup events: the cgroup of the task
	 * running here, whose clock (and its ancestors') runs.
	 */
	struct perf_cgroup		*cgrp;
#endif
	struct perf_event_context	ctx;
};

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_context);

/* The CPU of a CPU context (@ctx->task NULL) */
static inline int perf_cpu_ctx_cpu(struct perf_event_context *ctx)
{
	return container_of(ctx, struct perf_cpu_context, ctx)->cpu;
}

/* Is @ctx->time the context's time as of now?  ctx->lock held, IRQs off. */
static inline bool perf_ctx_time_is_now(struct perf_event_context *ctx)
{
	return __this_cpu_read(perf_cpu_context.time_now) == ctx;
}

/* --- small helpers ---------------------------------------------------- */

static inline bool perf_event_is_leader(struct perf_event *event)
{
	return event->group_leader == event;
}

static inline u64 perf_clock(void)
{
	return local_clock();
}

/* The id user space knows an event by: an inherited copy has its parent's. */
static inline u64 perf_event_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

#endif /* _KERNEL_EVENTS_INTERNAL_H */
