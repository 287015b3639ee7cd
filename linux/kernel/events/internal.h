/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the perf core share.  Nothing here is for code outside
 * kernel/events/; the interface for the rest of the kernel and for PMU
 * drivers is include/linux/perf_event.h.
 *
 * Files and what each one owns:
 *   context.c   task and CPU contexts, per-PMU sub-contexts, putting groups
 *               on and off the PMU, context switch, enable and disable,
 *               time accounting (its top comment has the locking rules);
 *               context.h has what of it the next two files use
 *   rotate.c    multiplexing: the per-CPU timer that rotates groups
 *   hotplug.c   CPU contexts across CPU hotplug, migrating CPU contexts
 *   event.c     event allocation, reference counts, release, the file
 *               operations, the in-kernel counter API
 *   syscall.c   perf_event_open(2): copying and checking the attr, flags,
 *               group_fd, target task or CPU, permissions
 *   ioctl.c     PERF_EVENT_IOC_* and prctl(PR_TASK_PERF_EVENTS_*)
 *   read.c      read(2) and the read_format layouts, child counts
 *   inherit.c   fork, exit, exec: inherited events and their counts
 *   pmu.c       the PMU registry, dynamic types, sysfs, pmu enable/disable
 *   swevent.c   the software PMUs (software, cpu-clock, task-clock)
 *   sysctl.c    the perf sysctls and the permission helpers
 *   cgroup.c    the perf_event cgroup controller and the cgroup clocks
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
 *   aux_test.c  (debug kernels) a software AUX writer for the selftests
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

/* multiplexing period when the PMU does not ask for one */
#define PERF_MUX_DEFAULT_MS	4

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

/* --- context.c -------------------------------------------------------- */

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
/* A hardware event joins a software-only group: move it (ctx->mutex held) */
void perf_group_move(struct perf_event *leader,
		     struct perf_event_pmu_context *epc);

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
void perf_remove_event(struct perf_event *event, unsigned int flags);

/* ctx->mutex held by the caller */
void perf_event_enable_locked(struct perf_event *event);
void perf_event_disable_locked(struct perf_event *event);
void perf_event_reset_locked(struct perf_event *event);
int perf_event_refresh_locked(struct perf_event *event, int refresh);
int perf_event_period_locked(struct perf_event *event, u64 value);

/* Bring event->count and the times up to date (IPI if active elsewhere). */
int perf_event_sync(struct perf_event *event, bool group);
/* Stop and start @event where it runs, so its driver reconfigures it. */
void perf_event_restart(struct perf_event *event);
/* The same, on this CPU with the event's ctx->lock held, if it runs here. */
void perf_event_restart_here(struct perf_event *event);
void perf_event_times_now(struct perf_event *event, u64 *enabled,
			  u64 *running);
/*
 * The same without ctx->lock, for perf_event_read_local(): IRQs off (maybe
 * in NMI), the event's context active on this CPU or not active at all.
 */
void perf_event_times_local(struct perf_event *event, u64 *enabled,
			    u64 *running);

/* Task hooks used by inherit.c; ctx->mutex held where noted. */
struct perf_event_context *perf_task_ctx_alloc(struct task_struct *task);
void perf_ctx_sched_out_all(struct perf_event_context *ctx);
void perf_enable_on_exec(struct perf_event_context *ctx);

/*
 * The tick: walk this CPU's active contexts for throttled (if @throttled)
 * and frequency events, calling perf_event_tick_event() on each.  IRQs off.
 */
void perf_ctx_tick(bool throttled);
/*
 * Disable @event from IRQ context (its IRQ work).  Return: -1 when done,
 * or the CPU its context is active on, where the caller must retry.
 */
int perf_event_disable_here(struct perf_event *event);

void perf_cpc_init(struct perf_cpu_pmu_context *cpc, struct pmu *pmu, int cpu);
void perf_cpc_exit(struct perf_cpu_pmu_context *cpc);
void perf_cpc_set_mux_interval(struct perf_cpu_pmu_context *cpc,
			       unsigned int ms);
void perf_context_init(void);

/* --- event.c ---------------------------------------------------------- */

struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent_event,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd);
void perf_event_free(struct perf_event *event);	/* never installed */
int perf_event_set_clock(struct perf_event *event, clockid_t clk);
bool perf_event_tryget(struct perf_event *event);
void perf_event_get_ref(struct perf_event *event);
void perf_event_put(struct perf_event *event);
extern const struct file_operations perf_fops;
bool is_perf_file(struct file *file);
int perf_event_fd_get(int fd, struct fd *f, struct perf_event **event);

/* --- syscall.c -------------------------------------------------------- */

int perf_attr_check(struct perf_event_attr *attr);
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);

/* --- read.c ----------------------------------------------------------- */

/* read(2) of an event fd, after the LSM check; takes the context lock. */
ssize_t perf_read_event(struct perf_event *event, char __user *buf,
			size_t count);
u64 perf_event_total(struct perf_event *event, u64 *enabled, u64 *running);
void perf_event_calc_read_size(struct perf_event *event);
void perf_group_calc_sizes(struct perf_event *leader);
size_t perf_read_size_for(u64 read_format, int nr_siblings);
/* The CPU to read @event on from here (scope/package-wide counters). */
int perf_event_read_cpu(struct perf_event *event, int cpu);

/*
 * Largest read() layout a group may have: the same layout goes into
 * PERF_SAMPLE_READ samples, whose records must stay below 64 KiB.
 */
#define PERF_READ_SIZE_MAX	(16 * 1024)

/* The id user space knows an event by: an inherited copy has its parent's. */
static inline u64 perf_event_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/* --- ioctl.c ---------------------------------------------------------- */

long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
#ifdef CONFIG_COMPAT
long perf_compat_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg);
#else
#define perf_compat_ioctl NULL
#endif

/* --- inherit.c -------------------------------------------------------- */

/* Fold an exiting child's count and times into its parent. */
void perf_child_fold(struct perf_event *child);

/* --- pmu.c ------------------------------------------------------------ */

/* Find the PMU for event->attr and run its event_init; takes a module ref. */
int perf_pmu_init_event(struct perf_event *event);
void perf_pmu_put_event(struct perf_event *event);
struct pmu *perf_pmu_by_type(u32 type);	/* under pmus_srcu */
extern struct srcu_struct pmus_srcu;
extern struct list_head perf_pmus;
extern struct mutex perf_pmus_lock;
#define for_each_perf_pmu(pmu) \
	list_for_each_entry_srcu(pmu, &perf_pmus, entry, \
				 srcu_read_lock_held(&pmus_srcu) || \
				 lockdep_is_held(&perf_pmus_lock))
void perf_pmu_sysfs_init(void);
/*
 * Scoped PMUs (pmu->scope): CPU hotplug keeps one designated CPU per
 * domain; online before the CPU context starts, offline (which migrates
 * the scoped PMUs' events) before it stops.  Neither with ctx->mutex held.
 */
void perf_pmu_scope_cpu_online(unsigned int cpu);
void perf_pmu_scope_cpu_offline(unsigned int cpu);
const struct cpumask *perf_pmu_scope_span(unsigned int scope, int cpu);

/* --- swevent.c -------------------------------------------------------- */

void perf_swevent_init_cpu(unsigned int cpu);
void perf_swevent_setup(void);	/* registers the software PMUs */
bool perf_is_cpu_clock(struct perf_event *event);

/* --- sysctl.c --------------------------------------------------------- */

int perf_event_check_access(struct perf_event_attr *attr);
/* interrupt budget per tick, and the average handler time allowed (0: off) */
extern int perf_samples_per_tick;
extern u64 perf_sample_allowed_ns;
bool perf_sample_rate_lower(u64 took_ns);
int perf_ptrace_check(struct task_struct *task);
/*
 * attr.sigtrap events signal the task: CAP_PERFMON and CAP_KILL in its user
 * namespace, or ptrace attach rights.  0 or -EACCES.
 */
int perf_sigtrap_check(struct task_struct *task);

/* --- cgroup.c --------------------------------------------------------- */

#ifdef CONFIG_CGROUP_PERF
/*
 * PERF_FLAG_PID_CGROUP, from perf_event_alloc(): sets event->cgrp with a
 * reference.  -EBADF, the lookup's error, or -EINVAL when the group
 * leader counts in another cgroup.
 */
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *group_leader);
void perf_cgroup_disconnect(struct perf_event *event);
/* cgroup events exist: the context switch looks at cgroups */
DECLARE_STATIC_KEY_FALSE(perf_cgroup_events);
/* the current task of this CPU may have moved to another cgroup */
void perf_cgroup_switch(struct task_struct *task);
/* a cgroup's clocks here (IRQs off, CPU context locked), an event's clock */
void perf_cgroup_clocks_run(struct perf_cgroup *cgrp, bool run);
u64 perf_cgroup_event_time(struct perf_event *event);
#else
/* Without the controller the flag names nothing: -EINVAL. */
static inline int perf_cgroup_connect(int fd, struct perf_event *event,
				      struct perf_event *group_leader)
{
	return -EINVAL;
}

static inline void perf_cgroup_disconnect(struct perf_event *event)
{
}

static inline void perf_cgroup_clocks_run(struct perf_cgroup *cgrp, bool run)
{
}
#endif

/* --- overflow.c ------------------------------------------------------ */

/*
 * Count @nr occurrences of a software-counted event (software, tracepoint,
 * breakpoint PMUs) and, for a sampling event, run the overflow path for
 * every period that ran out.  Preemption off, any context but NMI; the
 * caller holds the swevent recursion context (or cannot recurse).
 */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs);
/* Wake @event's readers from any context (NMI too), through IRQ work. */
void perf_event_queue_wakeup(struct perf_event *event);
/* Event set-up and tear-down of the overflow state (event.c) */
void perf_overflow_init_event(struct perf_event *event);
void perf_overflow_free_event(struct perf_event *event);
/* aux.c: AUX attributes against the event's PMU; pausing an AUX leader */
int perf_aux_attr_check(struct perf_event *event);
void perf_aux_pause(struct perf_event *leader, bool pause);
/* The tick's work on one event (context.c's perf_ctx_tick() calls it). */
void perf_event_tick_event(struct perf_event *event);

/* hw.interrupts of a throttled event */
#define PERF_THROTTLED		(~0ULL)

/*
 * The files of the sampling side (the ring buffer, samples, side-band
 * records, address filters, tracepoints) keep their interface in a
 * header beside them.
 */
#include "ring_buffer.h"
#include "sample.h"
#include "records.h"
#include "addr_filter.h"
#include "tracepoint.h"

/*
 * @event goes on a PMU again (context.c, before pmu->add()): a throttle
 * ends there, so that the event does not run, and overflow, while still
 * marked throttled.  UNTHROTTLE is written as at a tick.
 */
static inline void perf_throttle_sched_in(struct perf_event *event)
{
	if (unlikely(event->hw.interrupts == PERF_THROTTLED)) {
		event->hw.interrupts = 0;
		perf_log_throttle(event, 1);
	}
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

#endif /* _KERNEL_EVENTS_INTERNAL_H */
