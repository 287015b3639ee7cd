// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) and its in-kernel twin, perf_event_create_kernel_counter().
 *
 * Opening an event is a chain of checks followed by one step that cannot
 * fail: the attr is copied and validated, the flags, group_fd, pid and cpu
 * are resolved, the event is allocated (which finds its PMU), the caller's
 * right to watch the target is checked, and then, under the target
 * context's mutex, the group rules are applied before the event is
 * installed and its file descriptor published.
 *
 * Each failure has its errno, checked in this order (the first one that
 * applies wins; programs tell the causes apart by it):
 *
 *   what                                                        errno
 *   ----------------------------------------------------------  ----------
 *   flags outside PERF_FLAG_*                                   EINVAL
 *   attr pointer unreadable                                     EFAULT
 *   attr.size < VER0, > PAGE_SIZE, or non-zero bytes past
 *     what this kernel knows (size written back to the user)    E2BIG
 *   reserved bits, unknown sample_type/read_format bits,
 *     PERF_FORMAT_PER_CPU without PERF_FLAG_ALL_CPUS,
 *     period_random_bits without a fixed period above 2^(k-1),
 *     bad branch_sample_type, WEIGHT with WEIGHT_STRUCT,
 *     inherit_thread without inherit, remove_on_exec with
 *     enable_on_exec, sigtrap without remove_on_exec, bad
 *     sample_regs_*, misaligned/huge sample_stack_user          EINVAL
 *   PERF_SAMPLE_STACK_USER on an arch without stack dumps       ENOSYS
 *   privileged branch levels, paranoia, LSM, kernel counting,
 *     namespaces, physical addresses (perf_event_check_access)  EACCES/EPERM
 *   freq above perf_event_max_sample_rate, period bit 63        EINVAL
 *   PERF_FLAG_PID_CGROUP with pid or cpu == -1                  EINVAL
 *   PERF_FLAG_ALL_CPUS: the rest of the checks are all_cpus.c's (its
 *     top comment has them)
 *   no free file descriptor                                     EMFILE
 *   group_fd not a perf event                                   EBADF
 *   group leader already exited (state EXIT or DEAD)            ENODEV
 *   pid names no task                                           ESRCH
 *   task event whose leader differs in attr.inherit             EINVAL
 *   cpu < -1 or >= nr_cpu_ids, or pid == -1 and cpu == -1      EINVAL
 *   sigtrap on a CPU-wide event                                 EINVAL
 *   inherit and PERF_SAMPLE_READ without PERF_SAMPLE_TID        EINVAL
 *   event allocation: no PMU for type/config, PMU refusal,
 *     uncore PMU for a task                                     ENOENT/...
 *     (a refusal in the kernel's own ENOTSUPP, which uprobes
 *     give for an instruction they cannot probe, is told as)    EOPNOTSUPP
 *   aux_output on a PMU without PERF_PMU_CAP_AUX_OUTPUT, or
 *     with aux_pause/aux_resume; aux_start_paused on a PMU
 *     without PERF_PMU_CAP_AUX_PAUSE (perf_aux_attr_check)      EOPNOTSUPP
 *   aux_pause with aux_resume                                   EINVAL
 *   cgroup fd bad or not a perf_event cgroup, or the group
 *     leader in another cgroup                           EBADF/ENOENT/EINVAL
 *   PERF_SAMPLE_CALLCHAIN deeper than perf_event_max_stack      EOVERFLOW
 *   sampling on a PMU without an interrupt                      EOPNOTSUPP
 *   unknown clockid, or a clock not NMI safe for an NMI PMU     EINVAL
 *   signal while waiting for the target's exec_update_lock      EINTR
 *   no right to watch the target task (ptrace rules)            EACCES
 *   CPU-wide event without the right to watch CPUs              EACCES
 *   the task's context could not be made (it is exiting)        ESRCH/ENOMEM
 *   the task exited before the event was installed              ESRCH
 *   CPU-wide event on an offline CPU                            ENODEV
 *   group_fd is a sibling, has another clock, CPU or context    EINVAL
 *   group leader exited meanwhile                               ENODEV
 *   pinned or exclusive event that is not a group leader        EINVAL
 *   hardware event joining another PMU's hardware group         EINVAL
 *   aux_output, aux_pause/resume or aux_sample_size without an
 *     AUX leader that can take it (perf_aux_link)               EINVAL
 *   PERF_FLAG_FD_OUTPUT to an event that cannot share its
 *     buffer (perf_event_set_output())                          EINVAL
 *   the group's read() layout would pass 16 KiB                 E2BIG
 *   an exclusive PMU already has an event in this context       EBUSY
 *   no file could be made                                       ENFILE/ENOMEM
 */

/**
 * DOC: Task locks
 *
 * ``task->perf_event_mutex`` (a mutex in ``struct task_struct``)
 *   Protects the publication of ``task->perf_event_ctxp`` (set with
 *   ``rcu_assign_pointer()`` under it, read under RCU with a reference taken
 *   by ``refcount_inc_not_zero()``, cleared at exit) and
 *   ``task->perf_event_list``, the events the task opened (for ``prctl()``)
 *   together with each event's ``owner`` and ``owner_entry``.  Held around
 *   ``ctx->mutex`` only by ``prctl(PR_TASK_PERF_EVENTS_*)``.
 *
 * ``task->signal->exec_update_lock`` (an rw_semaphore)
 *   ``perf_event_open()`` holds it for reading (interruptibly: ``EINTR``)
 *   from the check of the caller's right to watch the task until the event
 *   is installed, so that exec cannot change the task's credentials in
 *   between.  Exec holds it for writing while it calls ``perf_event_exec()``
 *   and, for a set-uid program, ``perf_event_exit_task()``.
 */

#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/file.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "all_cpus.h"
#include "aux.h"
#include "context.h"
#include "event.h"
#include "overflow.h"
#include "read.h"
#include "ring_buffer.h"
#include "syscall.h"
#include "sysctl.h"

#define PERF_OPEN_FLAGS_KNOWN	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC | \
				 PERF_FLAG_ALL_CPUS)

/* Branch levels that reveal more than the user's own code. */
#define PERF_BRANCH_PRIVILEGED	(PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

static int perf_attr_check_branches(struct perf_event_attr *attr)
{
	u64 wanted = attr->branch_sample_type;
	u64 levels = wanted & PERF_SAMPLE_BRANCH_PLM_ALL;
	u64 kinds = wanted & ~(u64)PERF_SAMPLE_BRANCH_PLM_ALL;

	/* Bits past the known ones, or privilege levels but no kind of branch. */
	if (wanted >= PERF_SAMPLE_BRANCH_MAX || !kinds)
		return -EINVAL;

	/* No level given: use the levels the event itself counts in. */
	if (!levels) {
		levels = (attr->exclude_user ? 0 : PERF_SAMPLE_BRANCH_USER) |
			 (attr->exclude_kernel ? 0 : PERF_SAMPLE_BRANCH_KERNEL) |
			 (attr->exclude_hv ? 0 : PERF_SAMPLE_BRANCH_HV);
		attr->branch_sample_type = kinds | levels;
	}

	return (levels & PERF_BRANCH_PRIVILEGED) ? perf_allow_kernel() : 0;
}

static int perf_attr_check_user_stack(struct perf_event_attr *attr)
{
	/* ENOSYS here is ABI: the man page documents it for this case. */
	if (!IS_ENABLED(CONFIG_HAVE_PERF_USER_STACK_DUMP))
		return -ENOSYS;

	/* The dump size travels in a u16 of the sample, in whole u64s. */
	if (attr->sample_stack_user >= USHRT_MAX ||
	    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
		return -EINVAL;

	return 0;
}

/**
 * perf_attr_check - validate an attr independently of its target
 * @attr: the attribute block, already copied into the kernel
 *
 * Rejects reserved bits and fields, unknown sample_type and read_format
 * bits and the combinations of flags that make no sense, and completes the
 * fields that have a default (branch privilege levels, sample_max_stack).
 * Checks that need the target task, CPU or PMU come later.
 *
 * Return: 0, or a negative errno (-EINVAL mostly; see the table at the top
 * of this file).
 */
int perf_attr_check(struct perf_event_attr *attr)
{
	u64 sample_type = attr->sample_type;
	int err;

	if (attr->__reserved_1 || attr->__reserved_3)
		return -EINVAL;

	if (attr->period_random_bits &&
	    !perf_period_random_ok(attr, attr->sample_period))
		return -EINVAL;

	if (sample_type & ~(u64)(PERF_SAMPLE_MAX - 1))
		return -EINVAL;

	if (attr->read_format & ~(u64)(PERF_FORMAT_MAX - 1))
		return -EINVAL;

	if (sample_type & PERF_SAMPLE_BRANCH_STACK) {
		err = perf_attr_check_branches(attr);
		if (err)
			return err;
	}

	if (sample_type & PERF_SAMPLE_REGS_USER) {
		err = perf_reg_validate(attr->sample_regs_user);
		if (err)
			return err;
	}

	if (sample_type & PERF_SAMPLE_STACK_USER) {
		err = perf_attr_check_user_stack(attr);
		if (err)
			return err;
	}

	if (!attr->sample_max_stack)
		attr->sample_max_stack = sysctl_perf_event_max_stack;

	if (sample_type & PERF_SAMPLE_REGS_INTR) {
		err = perf_reg_validate(attr->sample_regs_intr);
		if (err)
			return err;
	}

	if (!IS_ENABLED(CONFIG_CGROUP_PERF) && (sample_type & PERF_SAMPLE_CGROUP))
		return -EINVAL;

	if ((sample_type & PERF_SAMPLE_WEIGHT_TYPE) == PERF_SAMPLE_WEIGHT_TYPE)
		return -EINVAL;

	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;

	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;

	/* A signal to a task that has exec()ed something else is not wanted. */
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;

	return 0;
}

/**
 * perf_copy_attr - copy a perf_event_attr from user space and check it
 * @uattr: the user's attr
 * @attr: where to put it
 *
 * attr.size 0 stands for PERF_ATTR_SIZE_VER0.  A size below VER0 or above a
 * page, or a larger struct than this kernel knows whose extra bytes are not
 * all zero, fails with -E2BIG after the kernel's own size is written to
 * @uattr->size.  A shorter struct is zero-extended.  The result then goes
 * through perf_attr_check().
 *
 * Return: 0 or a negative errno.
 */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr)
{
	u32 size;
	int err;

	memset(attr, 0, sizeof(*attr));

	if (get_user(size, &uattr->size))
		return -EFAULT;

	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;

	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE) {
		err = -E2BIG;
	} else {
		err = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
		if (!err) {
			attr->size = size;
			return perf_attr_check(attr);
		}
	}

	/* Tell the caller which size would have been understood. */
	if (err == -E2BIG)
		put_user((u32)sizeof(*attr), &uattr->size);

	return err;
}

/*
 * State of one perf_event_open() call between resolving its arguments and
 * installing the event.
 */
struct perf_open_args {
	struct perf_event_attr	attr;
	unsigned long		flags;
	int			f_flags;	/* of the event's file */
	int			cgroup_fd;	/* -1: not a cgroup event */
	struct task_struct	*task;		/* NULL: CPU-wide */
	struct fd		group_file;	/* group_fd, if one was given */
	struct perf_event	*leader;	/* NULL: a new group */
	struct perf_event	*output;	/* PERF_FLAG_FD_OUTPUT target */
};

/* The rate and period limits, checked after the permission checks. */
static int perf_open_check_rates(struct perf_event_attr *attr)
{
	if (attr->freq)
		return attr->sample_freq > (u64)sysctl_perf_event_sample_rate ?
		       -EINVAL : 0;

	return attr->sample_period & BIT_ULL(63) ? -EINVAL : 0;
}

/* The target task: pid 0 is the caller; a task that is exiting is fine. */
static struct task_struct *perf_open_get_task(pid_t pid)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid ? find_task_by_vpid(pid) : current;
	if (task)
		get_task_struct(task);
	rcu_read_unlock();

	return task ?: ERR_PTR(-ESRCH);
}

/* group_fd and pid; undone by perf_open_put_targets(). */
static int perf_open_get_targets(struct perf_open_args *args, pid_t pid,
				 int group_fd)
{
	struct perf_event *group_event;
	int err;

	if (group_fd != -1) {
		err = perf_event_fd_get(group_fd, &args->group_file, &group_event);
		if (err) {
			args->group_file = EMPTY_FD;	/* already put */
			return err;
		}
		if (group_event->state <= PERF_EVENT_STATE_EXIT)
			return -ENODEV;
		if (args->flags & PERF_FLAG_FD_OUTPUT)
			args->output = group_event;
		if (!(args->flags & PERF_FLAG_FD_NO_GROUP))
			args->leader = group_event;
	}

	if (args->flags & PERF_FLAG_PID_CGROUP) {
		args->cgroup_fd = pid;
	} else if (pid != -1) {
		args->task = perf_open_get_task(pid);
		if (IS_ERR(args->task)) {
			err = PTR_ERR(args->task);
			args->task = NULL;
			return err;
		}
	}

	if (args->task && args->leader &&
	    args->leader->attr.inherit != args->attr.inherit)
		return -EINVAL;

	return 0;
}

static void perf_open_put_targets(struct perf_open_args *args)
{
	if (args->task)
		put_task_struct(args->task);
	fdput(args->group_file);
}

/* A CPU that exists, or -1 (any CPU) for an event that follows a task. */
static bool perf_cpu_arg_ok(struct task_struct *task, int cpu)
{
	if (cpu == -1)
		return task;

	return cpu >= 0 && cpu < (int)nr_cpu_ids;
}

/*
 * The target and attr combinations refused before a PMU is looked for;
 * the limits of the table above come after them.
 */
static int perf_check_target(struct perf_event_attr *attr,
			     struct task_struct *task, int cpu)
{
	if (!perf_cpu_arg_ok(task, cpu))
		return -EINVAL;

	/* The signal would go to whichever task happens to run. */
	if (attr->sigtrap && !task)
		return -EINVAL;

	/* Inherited samples can only carry their own task's counts. */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ) &&
	    !(attr->sample_type & PERF_SAMPLE_TID))
		return -EINVAL;

	return 0;
}

/*
 * The clock of attr.clockid, once the PMU is known: only the monotonic
 * clocks' fast readers are safe in an NMI, where most hardware PMUs take
 * their samples.
 */
static int perf_event_set_user_clock(struct perf_event *event)
{
	clockid_t clockid = event->attr.clockid;
	int err;

	if (!event->attr.use_clockid)
		return 0;

	err = perf_event_set_clock(event, clockid);
	if (err || clockid == CLOCK_MONOTONIC || clockid == CLOCK_MONOTONIC_RAW)
		return err;

	return event->pmu->capabilities & PERF_PMU_CAP_NO_NMI ? 0 : -EINVAL;
}

/* Events of the software PMUs may join any group (see the group rules). */
static void perf_event_note_software(struct perf_event *event)
{
	if (event->pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;
}

/* Settings of a user's event that depend on the PMU it got. */
static int perf_event_setup_after_alloc(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	perf_event_note_software(event);

	if (is_sampling_event(event) &&
	    (pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		return -EOPNOTSUPP;

	return perf_event_set_user_clock(event);
}

/*
 * The target context, referenced and locked, once it is known to
 * be able to take events: a task's context must not have been torn down
 * by the task's exit, a CPU's context must be online.
 */
static struct perf_event_context *
perf_lock_target_ctx(struct perf_event *event, struct task_struct *task)
{
	struct perf_event_context *ctx;
	int err = 0;

	ctx = perf_ctx_find_get(task, event->cpu);
	if (IS_ERR(ctx))
		return ctx;

	mutex_lock(&ctx->mutex);
	if (task) {
		if (perf_ctx_is_dead(ctx))
			err = -ESRCH;
	} else if (!container_of(ctx, struct perf_cpu_context, ctx)->online) {
		err = -ENODEV;
	}

	if (err) {
		mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
		return ERR_PTR(err);
	}

	return ctx;
}

/* Undo perf_lock_target_ctx() when nothing was installed. */
static void perf_unlock_target_ctx(struct perf_event_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}

/*
 * May @event join @leader's group?  ctx->mutex held, and @leader known to
 * be in @ctx only once that check has passed.
 */
static int perf_group_join_check(struct perf_event *leader,
				 struct perf_event *event,
				 struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	/* Groups are one level deep: a sibling cannot lead. */
	if (!perf_event_is_leader(leader))
		return -EINVAL;

	if (leader->clock != event->clock)
		return -EINVAL;

	/* A group is scheduled as a whole, on one CPU, from one context. */
	if (leader->cpu != event->cpu || leader->ctx != ctx)
		return -EINVAL;

	/* remove_on_exec may have taken the leader out meanwhile. */
	if (leader->state <= PERF_EVENT_STATE_EXIT)
		return -ENODEV;

	if (event->attr.pinned || event->attr.exclusive)
		return -EINVAL;

	/* Software events never fail to go on, so they fit any group. */
	if (is_software_event(event))
		return 0;

	/*
	 * A group made of software events only lives in the software PMU's
	 * share of the context: it moves to the newcomer's PMU (1).
	 */
	if (in_software_context(leader))
		return 1;

	/* One hardware PMU per group. */
	if (leader->pmu_ctx->pmu != event->pmu)
		return -EINVAL;

	return 0;
}

/* Would the read() layout of any member pass the limit once @event joins? */
static bool perf_group_read_size_ok(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *member;
	int nr_siblings;

	if (leader == event)
		return perf_read_size_for(event->attr.read_format, 0) <=
		       PERF_READ_SIZE_MAX;

	nr_siblings = leader->nr_siblings + 1;
	if (perf_read_size_for(event->attr.read_format, nr_siblings) >
	    PERF_READ_SIZE_MAX ||
	    perf_read_size_for(leader->attr.read_format, nr_siblings) >
	    PERF_READ_SIZE_MAX)
		return false;

	for_each_sibling_event(member, leader) {
		if (perf_read_size_for(member->attr.read_format, nr_siblings) >
		    PERF_READ_SIZE_MAX)
			return false;
	}

	return true;
}

/*
 * An exclusive PMU takes one event per context (or per CPU of a context);
 * ctx->mutex held.
 */
static bool perf_exclusive_pmu_taken(struct perf_event_context *ctx,
				     struct perf_event *event)
{
	struct perf_event *other;

	lockdep_assert_held(&ctx->mutex);
	if (!(event->pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE))
		return false;

	list_for_each_entry(other, &ctx->event_list, event_entry) {
		if (other->pmu != event->pmu)
			continue;
		if (other->cpu == -1 || event->cpu == -1 ||
		    other->cpu == event->cpu)
			return true;
	}

	return false;
}

/* May the caller watch @task with @attr?  exec_update_lock held. */
static int perf_open_may_watch(struct perf_event_attr *attr,
			       struct task_struct *task)
{
	lockdep_assert_held(&task->signal->exec_update_lock);
	if (attr->sigtrap)
		return perf_sigtrap_check(task);

	return perf_ptrace_check(task);
}

/*
 * Every event's file shares the dentry of one file made at boot: the
 * anon_inode_getfile() of each open would make a dentry of its own (a
 * ninth of what an event costs), and all of them would be the same
 * "anon_inode:[perf_event]" on the same inode anyway.  Until the base is
 * there, or if it could not be made, an event gets a file the usual way.
 */
static const struct file_operations perf_base_fops;
static struct file *perf_base_file __ro_after_init;

static int __init perf_base_file_init(void)
{
	struct file *file = anon_inode_getfile("[perf_event]", &perf_base_fops,
					       NULL, O_RDONLY);

	if (!IS_ERR(file))
		perf_base_file = file;
	return 0;
}
fs_initcall_sync(perf_base_file_init);

static struct file *perf_event_file(struct perf_event *event, int flags)
{
	struct file *file;

	if (!perf_base_file)
		return anon_inode_getfile("[perf_event]", &perf_fops, event,
					  flags);
	/* the flags anon_inode_getfile() keeps */
	file = alloc_file_clone(perf_base_file, flags & (O_ACCMODE | O_NONBLOCK),
				&perf_fops);
	if (!IS_ERR(file))
		file->private_data = event;
	return file;
}

/*
 * Everything from the target context to the installed event.  On success
 * the event belongs to the returned file; on failure the caller still owns
 * (and frees) the event.
 */
static struct file *perf_open_install(struct perf_open_args *args,
				      struct perf_event *event)
{
	struct perf_event_pmu_context *epc, *move_to = NULL;
	struct perf_event_context *ctx;
	struct task_struct *task = args->task;
	struct file *file;
	int err;

	/*
	 * exec() may change the task's credentials or drop its events;
	 * hold it off from the permission check until the event is in.
	 */
	if (task) {
		err = down_read_interruptible(&task->signal->exec_update_lock);
		if (err)
			return ERR_PTR(err);
		err = perf_open_may_watch(&args->attr, task);
	} else {
		err = perf_allow_cpu();
	}
	if (err)
		goto out_exec_lock;

	ctx = perf_lock_target_ctx(event, task);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_exec_lock;
	}

	if (args->leader) {
		err = perf_group_join_check(args->leader, event, ctx);
		if (err == 1) {
			/* the group moves once nothing below can fail */
			move_to = perf_epc_find_get_pmu(ctx, event->pmu,
							args->leader->cpu);
			err = PTR_ERR_OR_ZERO(move_to);
			if (err)
				move_to = NULL;
		}
		if (err)
			goto out_ctx;
	}

	/* aux_output, aux_pause/resume and AUX samples need an AUX leader */
	err = perf_aux_link(event, args->leader);
	if (err)
		goto out_ctx;

	epc = perf_epc_find_get(ctx, event);
	if (IS_ERR(epc)) {
		err = PTR_ERR(epc);
		goto out_ctx;
	}
	event->pmu_ctx = epc;

	if (args->output) {
		err = perf_event_set_output(event, args->output);
		if (err)
			goto out_epc;
	}

	err = -E2BIG;
	if (!perf_group_read_size_ok(event))
		goto out_epc;

	err = -EBUSY;
	if (perf_exclusive_pmu_taken(ctx, event))
		goto out_epc;

	file = perf_event_file(event, args->f_flags);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_epc;
	}

	/* From here on nothing fails. */
	if (move_to)
		perf_group_move(args->leader, move_to);
	event->filp = file;
	perf_install_event(ctx, event, event->cpu);
	mutex_unlock(&ctx->mutex);

	if (task)
		up_read(&task->signal->exec_update_lock);

	return file;

out_epc:
	event->pmu_ctx = NULL;
	perf_epc_put(epc);
out_ctx:
	if (move_to)
		perf_epc_put(move_to);
	perf_unlock_target_ctx(ctx);
out_exec_lock:
	if (task)
		up_read(&task->signal->exec_update_lock);
	return ERR_PTR(err);
}

/*
 * ENOTSUPP (524) is a kernel-internal value no program knows (uprobes
 * return it for an instruction they cannot probe, from a PMU's
 * event_init): perf_event_open() reports EOPNOTSUPP instead.
 */
static int perf_open_errno(int err)
{
	return err == -ENOTSUPP ? -EOPNOTSUPP : err;
}

/**
 * sys_perf_event_open - open a performance counter
 * @attr_uptr: what to count, and how
 * @pid: task to watch (0: the caller, -1: every task on @cpu), or with
 *	 PERF_FLAG_PID_CGROUP an fd of the cgroup to watch
 * @cpu: CPU to count on (-1: wherever the task runs)
 * @group_fd: an event fd whose group the new event joins (-1: new group)
 * @flags: PERF_FLAG_*
 *
 * Return: a new file descriptor for the event, or a negative errno (the
 * table at the top of this file lists them in the order they are tested).
 */
SYSCALL_DEFINE5(perf_event_open, struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_open_args args = {
		.flags		= flags,
		.f_flags	= O_RDWR,
		.cgroup_fd	= -1,
	};
	struct perf_event *event;
	struct file *file;
	int event_fd;
	int err;

	if (flags & ~PERF_OPEN_FLAGS_KNOWN)
		return -EINVAL;

	err = perf_copy_attr(attr_uptr, &args.attr);
	if (err)
		return err;

	/* the per-CPU layout belongs to one fd for every CPU */
	if ((args.attr.read_format & PERF_FORMAT_PER_CPU) &&
	    !(flags & PERF_FLAG_ALL_CPUS))
		return -EINVAL;

	err = perf_event_check_access(&args.attr);
	if (err)
		return err;

	err = perf_open_check_rates(&args.attr);
	if (err)
		return err;

	/* A cgroup is watched on one CPU at a time. */
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;

	if (flags & PERF_FLAG_ALL_CPUS)
		return perf_open_errno(perf_all_cpus_open(&args.attr, pid, cpu,
							  group_fd, flags));

	if (flags & PERF_FLAG_FD_CLOEXEC)
		args.f_flags |= O_CLOEXEC;

	event_fd = get_unused_fd_flags(args.f_flags);
	if (event_fd < 0)
		return event_fd;

	err = perf_open_get_targets(&args, pid, group_fd);
	if (err)
		goto out_targets;

	err = perf_check_target(&args.attr, args.task, cpu);
	if (err)
		goto out_targets;

	event = perf_event_alloc(&args.attr, cpu, args.task, args.leader, NULL,
				 NULL, NULL, args.cgroup_fd);
	if (IS_ERR(event)) {
		err = PTR_ERR(event);
		goto out_targets;
	}

	err = perf_event_setup_after_alloc(event);
	if (err)
		goto out_event;

	file = perf_open_install(&args, event);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_event;
	}

	perf_event_set_owner(event);

	/* The leader is now reachable through the group: drop group_fd. */
	perf_open_put_targets(&args);
	fd_install(event_fd, file);
	return event_fd;

out_event:
	perf_event_free(event);
out_targets:
	perf_open_put_targets(&args);
	put_unused_fd(event_fd);
	return perf_open_errno(err);
}

/**
 * perf_event_alloc_cpu_event - a user's CPU-wide event, not in a context yet
 * @attr: the user's attr, checked as perf_event_open() checks it
 * @cpu: a possible CPU, online or not
 *
 * For PERF_FLAG_ALL_CPUS (all_cpus.c), which has checked the caller's
 * right to watch CPUs and installs the event after
 * perf_event_join_cpu_ctx().  An event on an offline CPU waits in that
 * CPU's context and counts once the CPU is online.
 *
 * Return: the event (perf_event_free() if it goes no further), or an
 * ERR_PTR() as perf_event_open() would give.
 */
struct perf_event *perf_event_alloc_cpu_event(struct perf_event_attr *attr,
					      int cpu)
{
	struct perf_event *event;
	int err;

	err = perf_check_target(attr, NULL, cpu);
	if (err)
		return ERR_PTR(err);

	event = perf_event_alloc(attr, cpu, NULL, NULL, NULL, NULL, NULL, -1);
	if (IS_ERR(event))
		return event;

	err = perf_event_setup_after_alloc(event);
	if (err) {
		perf_event_free(event);
		return ERR_PTR(err);
	}
	return event;
}

/**
 * perf_event_join_cpu_ctx - give a CPU event its sub-context in @ctx
 * @event: from perf_event_alloc_cpu_event()
 * @ctx: the context of @event's CPU; ctx->mutex held
 *
 * What perf_event_open() checks under the context's mutex before it
 * installs a lone CPU-wide event.  On success @event->pmu_ctx holds a
 * reference, which perf_event_leave_cpu_ctx() drops if the event is not
 * installed after all.
 *
 * Return: 0, -EBUSY if an exclusive PMU is taken, or the errors of making
 * the sub-context.
 */
int perf_event_join_cpu_ctx(struct perf_event *event,
			    struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->mutex);
	epc = perf_epc_find_get(ctx, event);
	if (IS_ERR(epc))
		return PTR_ERR(epc);
	event->pmu_ctx = epc;
	if (perf_exclusive_pmu_taken(ctx, event)) {
		perf_event_leave_cpu_ctx(event);
		return -EBUSY;
	}
	perf_event_calc_read_size(event);
	return 0;
}

/**
 * perf_event_leave_cpu_ctx - undo perf_event_join_cpu_ctx()
 * @event: an event that joined and was not installed
 */
void perf_event_leave_cpu_ctx(struct perf_event *event)
{
	perf_epc_put(event->pmu_ctx);
	event->pmu_ctx = NULL;
}

/**
 * perf_event_create_kernel_counter - make a counter for use inside the kernel
 * @attr: what to count; not checked like a user's attr, the caller is trusted
 * @cpu: CPU to count on, or -1 with a @task to follow it everywhere
 * @task: task to count, or NULL for a CPU-wide counter
 * @overflow_handler: called on each overflow of a sampling counter, or NULL
 * @context: passed to @overflow_handler as event->overflow_handler_context
 *
 * The counter has no file and no group; it is read with
 * perf_event_read_value() and freed with perf_event_release_kernel().
 *
 * Return: the new event, or an ERR_PTR(): -EINVAL for AUX settings (a
 * kernel counter has no group to take AUX data from), the errors of event
 * allocation, -ESRCH if @task has exited, -ENODEV if @cpu is offline,
 * -EBUSY if an exclusive PMU is taken.
 */
struct perf_event *perf_event_create_kernel_counter(struct perf_event_attr *attr,
						    int cpu, struct task_struct *task,
						    perf_overflow_handler_t overflow_handler,
						    void *context)
{
	struct perf_event_pmu_context *epc;
	struct perf_event_context *target_ctx;
	struct perf_event *counter;
	int err;

	/* No group to take AUX data from; the CPU/task pair must make sense. */
	if (attr->aux_output || attr->aux_action || !perf_cpu_arg_ok(task, cpu))
		return ERR_PTR(-EINVAL);

	counter = perf_event_alloc(attr, cpu, task, NULL, NULL,
				   overflow_handler, context, -1);
	if (IS_ERR(counter))
		return counter;

	/* No owner task: prctl() does not reach it. */
	perf_event_note_software(counter);

	target_ctx = perf_lock_target_ctx(counter, task);
	if (IS_ERR(target_ctx)) {
		err = PTR_ERR(target_ctx);
		goto out_free;
	}

	epc = perf_epc_find_get(target_ctx, counter);
	if (IS_ERR(epc)) {
		err = PTR_ERR(epc);
		goto out_ctx;
	}
	counter->pmu_ctx = epc;

	if (perf_exclusive_pmu_taken(target_ctx, counter)) {
		err = -EBUSY;
		counter->pmu_ctx = NULL;
		perf_epc_put(epc);
		goto out_ctx;
	}

	perf_event_calc_read_size(counter);
	perf_install_event(target_ctx, counter, counter->cpu);
	mutex_unlock(&target_ctx->mutex);
	return counter;

out_ctx:
	perf_unlock_target_ctx(target_ctx);
out_free:
	perf_event_free(counter);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);
