// SPDX-License-Identifier: GPL-2.0
/*
 * The life of an event: allocation, reference counts, release, the file
 * operations behind a perf_event_open() descriptor, and the in-kernel
 * counter API.
 *
 * An event is created by perf_event_alloc() with one reference.  Once it is
 * installed in a context (perf_install_event()) that reference belongs to
 * whoever owns the event: its file, an in-kernel user, or (for an inherited
 * child) the parent's child_list.  Other holders (BPF maps, children, which
 * pin their parent) take more with perf_event_get_ref()/perf_event_tryget().
 * Release takes the event out of its context first; the memory goes when
 * the last reference does, after an RCU grace period (the software PMU's
 * hash is walked under RCU).
 */

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hw_breakpoint.h>
#include <linux/jump_label.h>
#include <linux/llist.h>
#include <linux/perf_event.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "addr_filter.h"
#include "aux.h"
#include "bpf.h"
#include "callchain.h"
#include "cgroup.h"
#include "context.h"
#include "event.h"
#include "ioctl.h"
#include "overflow.h"
#include "pmu.h"
#include "read.h"
#include "ring_buffer.h"
#include "swevent.h"
#include "tracepoint.h"

/*
 * Events come in two sizes.  struct perf_event ends with a struct
 * ftrace_ops (a fifth of it) that only a function trace event uses, and
 * only the "tracepoint" PMU makes those: an event opened with any other
 * type is allocated without that tail (perf_short_event_cache), and the
 * tracepoint PMU refuses an event that lacks it (has_ftrace_ops).
 */
#if defined(CONFIG_EVENT_TRACING) && defined(CONFIG_FUNCTION_TRACER)
#define PERF_EVENT_SHORT_SIZE	offsetof(struct perf_event, ftrace_ops)
#else
#define PERF_EVENT_SHORT_SIZE	sizeof(struct perf_event)
#endif

static struct kmem_cache *perf_event_cache;
static struct kmem_cache *perf_short_event_cache;
static atomic64_t perf_event_ids;

/**
 * perf_event_last_id - the id of the event allocated last
 *
 * Every event allocated before this call has an id up to the value
 * returned, every event allocated after it a greater one.
 *
 * Return: the id.
 */
u64 perf_event_last_id(void)
{
	return atomic64_read(&perf_event_ids);
}

/* ---------------------------------------------------------------------
 * Static keys: the context-switch hooks run only while some event needs
 * them (task events, branch-stack users).
 */

/*
 * Inherited copies are covered by their top parent, which outlives them;
 * they are made under a context mutex, where static_branch_inc() (which
 * takes the CPU hotplug lock) must not be called.
 */
static bool perf_event_has_cgroup(struct perf_event *event)
{
#ifdef CONFIG_CGROUP_PERF
	return event->cgrp;
#else
	return false;
#endif
}

static bool event_needs_sched_hooks(struct perf_event *event)
{
	if (event->parent)
		return false;
	return (event->attach_state & PERF_ATTACH_TASK) ||
	       has_branch_stack(event) || perf_event_has_cgroup(event) ||
	       event->attr.context_switch;
}

/*
 * The hooks are switched off a second after their last user went, not at
 * once: every change of the key between 0 and 1 rewrites the call sites
 * of the context-switch hooks (text patching, with IPIs to every CPU), and
 * a program that opens and closes one task event in a loop would pay for
 * that twice a round.  A decrement waits in perf_sched_dec_pending, and
 * the next event that needs the hooks takes it back instead of counting
 * itself in.
 */
static atomic_t perf_sched_dec_pending = ATOMIC_INIT(0);

static void perf_sched_dec_work_fn(struct work_struct *work)
{
	int n = atomic_xchg(&perf_sched_dec_pending, 0);

	while (n-- > 0)
		static_branch_dec(&perf_sched_events);
}

static DECLARE_DELAYED_WORK(perf_sched_dec_work, perf_sched_dec_work_fn);

/* Context: may sleep (static_branch_inc() takes the CPU hotplug lock). */
static void event_account(struct perf_event *event)
{
	if (!event_needs_sched_hooks(event))
		return;
	if (atomic_add_unless(&perf_sched_dec_pending, -1, 0))
		return;
	static_branch_inc(&perf_sched_events);
}

static void event_unaccount(struct perf_event *event)
{
	if (!event_needs_sched_hooks(event))
		return;
	atomic_inc(&perf_sched_dec_pending);
	schedule_delayed_work(&perf_sched_dec_work, HZ);
}

/* ---------------------------------------------------------------------
 * Clocks for attr.use_clockid
 */

/**
 * perf_event_set_clock - make @clk the clock of @event's timestamps
 * @event: a new event, not yet in a context
 * @clk: a clockid_t (attr.clockid)
 *
 * Return: 0, or -EINVAL for a clock perf cannot read.
 */
int perf_event_set_clock(struct perf_event *event, clockid_t clk)
{
	switch (clk) {
	case CLOCK_MONOTONIC:
		event->clock = ktime_get_mono_fast_ns;
		break;
	case CLOCK_MONOTONIC_RAW:
		event->clock = ktime_get_raw_fast_ns;
		break;
	case CLOCK_REALTIME:
		event->clock = ktime_get_real_ns;
		break;
	case CLOCK_BOOTTIME:
		event->clock = ktime_get_boottime_ns;
		break;
	case CLOCK_TAI:
		event->clock = ktime_get_clocktai_ns;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Allocation and freeing
 */

static void perf_event_kfree(struct perf_event *event)
{
	kmem_cache_free(event->has_ftrace_ops ? perf_event_cache :
			perf_short_event_cache, event);
}

/**
 * perf_event_alloc - create an event, not yet in any context
 * @attr: its attributes (copied)
 * @cpu: the CPU it counts on, or -1
 * @task: the task it counts, or NULL
 * @group_leader: its leader, NULL to lead a group of its own
 * @parent_event: the event it is inherited from, or NULL
 * @overflow_handler: in-kernel overflow callback, or NULL
 * @context: argument for @overflow_handler
 * @cgroup_fd: a cgroup directory fd for cgroup events, else -1
 *
 * Return: the event with one reference, or an ERR_PTR.
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent_event,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd)
{
	struct perf_event *event;
	struct hw_perf_event *hwc;
	int err;

	if (cpu != -1 && (unsigned int)cpu >= nr_cpu_ids)
		return ERR_PTR(-EINVAL);

	if (attr->type == PERF_TYPE_TRACEPOINT) {
		event = kmem_cache_zalloc(perf_event_cache, GFP_KERNEL);
		if (event)
			event->has_ftrace_ops = true;
	} else {
		event = kmem_cache_zalloc(perf_short_event_cache, GFP_KERNEL);
	}
	if (!event)
		return ERR_PTR(-ENOMEM);

	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->group_entry);
	RB_CLEAR_NODE(&event->group_node);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->active_entry);
	INIT_LIST_HEAD(&event->migrate_entry);
	INIT_LIST_HEAD(&event->pmu_list);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->child_entry);
	INIT_LIST_HEAD(&event->owner_entry);
	INIT_HLIST_NODE(&event->hlist_entry);
	mutex_init(&event->child_mutex);
	mutex_init(&event->mmap_mutex);
	INIT_LIST_HEAD(&event->rb_entry);
	atomic_long_set(&event->refcount, 1);

	event->attr = *attr;
	event->cpu = cpu;
	event->oncpu = -1;
	event->group_leader = group_leader ?: event;
	event->parent = parent_event;
	event->ns = get_pid_ns(task_active_pid_ns(current));
	event->id = atomic64_inc_return(&perf_event_ids);
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF :
					PERF_EVENT_STATE_INACTIVE;
	event->clock = perf_clock;

	if (parent_event && !overflow_handler) {
		overflow_handler = parent_event->overflow_handler;
		context = parent_event->overflow_handler_context;
	}
	event->overflow_handler = overflow_handler;
	event->overflow_handler_context = context;

	hwc = &event->hw;
	if (task) {
		event->attach_state = PERF_ATTACH_TASK;
		hwc->target = get_task_struct(task);
	}
	hwc->sample_period = attr->freq ? 1 : attr->sample_period;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);

	/* A user's attr.clockid is set once the PMU is known (syscall.c). */
	if (parent_event)
		event->clock = parent_event->clock;

	/* a child counts on its parent's PMU */
	if (parent_event)
		event->pmu = parent_event->pmu;
	err = perf_pmu_init_event(event);
	if (err)
		goto fail;

	err = perf_aux_attr_check(event);
	if (!err && cgroup_fd != -1)
		err = perf_cgroup_connect(cgroup_fd, event, group_leader);
	if (!err)
		err = perf_addr_filters_init(event);
	if (err)
		goto fail_pmu;

	err = perf_callchain_event_init(event);
	if (err)
		goto fail_pmu;

	err = security_perf_event_alloc(event);
	if (err)
		goto fail_callchain;

	perf_event_calc_read_size(event);
	perf_overflow_init_event(event);
	if (parent_event)
		perf_event_inherit_bpf(event, parent_event);
	event_account(event);
	return event;

fail_callchain:
	perf_callchain_event_free(event);
fail_pmu:
	kfree(event->addr_filter_ranges);
	if (event->destroy)
		event->destroy(event);
	perf_pmu_put_event(event);
fail:
	perf_cgroup_disconnect(event);
	if (hwc->target)
		put_task_struct(hwc->target);
	put_pid_ns(event->ns);
	perf_event_kfree(event);
	return ERR_PTR(err);
}

static void event_free_rcu(struct rcu_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						 rcu_head);

	/* tracepoint hits read the filter under RCU */
	perf_tp_free_filter(event);
	perf_event_kfree(event);
}

/**
 * perf_event_free - free an event that is in no context
 * @event: the event; its last reference is gone (or it was never shared)
 */
void perf_event_free(struct perf_event *event)
{
	WARN_ON_ONCE(event->attach_state & PERF_ATTACH_CONTEXT);

	perf_overflow_free_event(event);
	perf_event_rb_release(event);
	perf_event_release_bpf(event);
	event_unaccount(event);
	perf_cgroup_disconnect(event);
	perf_addr_filters_free(event);
	if (event->destroy)
		event->destroy(event);
	/* the sub-context before the PMU: perf_pmu_unregister() waits for both */
	if (event->pmu_ctx)
		perf_epc_put(event->pmu_ctx);
	perf_pmu_put_event(event);
	perf_callchain_event_free(event);
	security_perf_event_free(event);
	if (event->hw.target)
		put_task_struct(event->hw.target);
	put_pid_ns(event->ns);
	if (event->ctx)
		perf_ctx_put(event->ctx);
	if (event->aux_event)
		perf_event_put(event->aux_event);
	call_rcu(&event->rcu_head, event_free_rcu);
}

bool perf_event_tryget(struct perf_event *event)
{
	return atomic_long_inc_not_zero(&event->refcount);
}

void perf_event_get_ref(struct perf_event *event)
{
	atomic_long_inc(&event->refcount);
}

void perf_event_put(struct perf_event *event)
{
	if (atomic_long_dec_and_test(&event->refcount))
		perf_event_free(event);
}

/*
 * Events whose last reference went where freeing them could take a lock
 * out of order; a worker frees them.
 */
static LLIST_HEAD(perf_events_to_free);

static void perf_free_deferred_events(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&perf_events_to_free);
	struct perf_event *event, *next;

	llist_for_each_entry_safe(event, next, list, free_entry)
		perf_event_free(event);
}

static DECLARE_WORK(perf_free_deferred_work, perf_free_deferred_events);

/**
 * perf_event_put_deferred - drop a reference, freeing the event later
 * @event: the event
 *
 * For callers that hold a lock which freeing must not nest inside, such as
 * mm->mmap_lock: an event's destroy() may take event_mutex, which the
 * uprobe PMU holds while it takes mmap_lock.  If this is the last
 * reference, the event is freed by a worker.  Any context but NMI.
 */
void perf_event_put_deferred(struct perf_event *event)
{
	if (!atomic_long_dec_and_test(&event->refcount))
		return;
	if (llist_add(&event->free_entry, &perf_events_to_free))
		schedule_work(&perf_free_deferred_work);
}

/* ---------------------------------------------------------------------
 * Release
 */

/**
 * perf_event_set_owner - the opener owns @event
 * @event: a new event, reachable through a file now
 *
 * prctl(PR_TASK_PERF_EVENTS_{EN,DIS}ABLE) walks the owner's list of events;
 * the owner's exit takes them off it (perf_event_exit_task()).
 */
void perf_event_set_owner(struct perf_event *event)
{
	struct task_struct *opener = current;

	mutex_lock(&opener->perf_event_mutex);
	event->owner = opener;
	list_add_tail(&event->owner_entry, &opener->perf_event_list);
	mutex_unlock(&opener->perf_event_mutex);
}

/**
 * perf_event_drop_owner - take @event off its owner's list, if it has one
 * @event: an event being released
 */
void perf_event_drop_owner(struct perf_event *event)
{
	struct task_struct *owner;

	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	if (owner)
		get_task_struct(owner);	/* its exit clears ->owner first */
	rcu_read_unlock();
	if (!owner)
		return;
	mutex_lock(&owner->perf_event_mutex);
	if (event->owner) {
		list_del_init(&event->owner_entry);
		/* off the list before a reader can see NULL */
		smp_store_release(&event->owner, NULL);
	}
	mutex_unlock(&owner->perf_event_mutex);
	put_task_struct(owner);
}

/* Take the inherited copies of @event out of their tasks and free them. */
static void event_free_children(struct perf_event *event)
{
	for (;;) {
		struct perf_event_context *ctx;
		struct perf_event *child;
		bool unlinked = false;

		mutex_lock(&event->child_mutex);
		child = list_first_entry_or_null(&event->child_list,
						 struct perf_event, child_entry);
		if (!child) {
			mutex_unlock(&event->child_mutex);
			return;
		}
		/*
		 * Pinned: once child_mutex is dropped the child's task may
		 * exit, unlink it and drop the reference its context held.
		 */
		perf_event_get_ref(child);
		ctx = child->ctx;
		perf_ctx_get(ctx);
		mutex_unlock(&event->child_mutex);

		/* ctx->mutex comes before child_mutex */
		mutex_lock(&ctx->mutex);
		mutex_lock(&event->child_mutex);
		if (child->parent == event && !list_empty(&child->child_entry)) {
			list_del_init(&child->child_entry);
			perf_remove_event(child, DETACH_GROUP | DETACH_DEAD);
			unlinked = true;
		}
		mutex_unlock(&event->child_mutex);
		mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
		if (unlinked) {
			perf_event_put(child);
			perf_event_put(event);	/* the child's pin */
		}
		perf_event_put(child);		/* ours */
	}
}

/**
 * perf_event_release_kernel - release an event and what was inherited from it
 * @event: an event made by perf_event_create_kernel_counter() (or the
 *	   event behind a perf file, on its last close)
 *
 * Return: 0.
 */
int perf_event_release_kernel(struct perf_event *event)
{
	struct perf_event_context *ctx;

	perf_event_drop_owner(event);
	if (event->ctx) {
		ctx = perf_event_ctx_lock(event);
		perf_remove_event(event, DETACH_GROUP | DETACH_DEAD);
		perf_event_ctx_unlock(event, ctx);
	}
	event_free_children(event);
	perf_event_put(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);

/* ---------------------------------------------------------------------
 * File operations
 */

static int perf_fd_release(struct inode *inode, struct file *file)
{
	perf_event_release_kernel(file->private_data);
	return 0;
}

static ssize_t perf_fd_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	int err;

	err = security_perf_event_read(event);
	if (err)
		return err;
	return perf_read_event(event, buf, count);
}

/**
 * perf_event_show_fdinfo - the event's lines of /proc/PID/fdinfo/FD
 * @m: the fdinfo file
 * @event: the event behind the descriptor
 *
 * The type as the caller gave it (before an extended hardware type is
 * resolved to its PMU) and the config, in decimal, one "name:\tvalue"
 * line each, as the perf tool parses them to name the processes that hold
 * a PMU busy.  Both are fixed at open, so no lock is needed.
 */
void perf_event_show_fdinfo(struct seq_file *m, struct perf_event *event)
{
	seq_printf(m, "perf_event_attr.type:\t%u\n", event->orig_type);
	seq_printf(m, "perf_event_attr.config:\t%llu\n", event->attr.config);
}

static void perf_fd_show_fdinfo(struct seq_file *m, struct file *file)
{
	perf_event_show_fdinfo(m, file->private_data);
}

const struct file_operations perf_fops = {
	.read		= perf_fd_read,
	.unlocked_ioctl	= perf_ioctl,
	.compat_ioctl	= perf_compat_ioctl,
	.poll		= perf_poll,
	.mmap		= perf_mmap,
	.fasync		= perf_fasync,
	.release	= perf_fd_release,
	.show_fdinfo	= perf_fd_show_fdinfo,
};

bool is_perf_file(struct file *file)
{
	return file->f_op == &perf_fops;
}

/**
 * perf_event_fd_get - the event behind a perf file descriptor
 * @fd: the descriptor
 * @f: filled with the fdget() result, to fdput() when done
 * @event: filled with the event
 *
 * Return: 0, or -EBADF if @fd is not a perf event.
 */
int perf_event_fd_get(int fd, struct fd *f, struct perf_event **event)
{
	*f = fdget(fd);
	if (!fd_file(*f))
		return -EBADF;
	if (!is_perf_file(fd_file(*f))) {
		fdput(*f);
		return -EBADF;
	}
	*event = fd_file(*f)->private_data;
	return 0;
}

/* ---------------------------------------------------------------------
 * In-kernel counter API (watchdog, KVM, hw_breakpoint, ...)
 */

/**
 * perf_event_enable - enable an event
 * @event: the event
 */
void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_event_enable_locked(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

/**
 * perf_event_disable - disable an event
 * @event: the event
 */
void perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_event_disable_locked(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

/**
 * perf_event_pause - disable an event and read its count
 * @event: the event
 * @reset: zero the count afterwards
 *
 * Return: the count (children not included).
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	u64 count;

	perf_event_disable_locked(event);
	/* stopped: nothing adds to the count while it is read and cleared */
	count = reset ? local64_xchg(&event->count, 0) :
			local64_read(&event->count);
	perf_event_ctx_unlock(event, ctx);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);

/**
 * perf_event_period - set a sampling event's period
 * @event: the event
 * @value: the period (or frequency)
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_period(struct perf_event *event, u64 value)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret = perf_event_period_locked(event, value);

	perf_event_ctx_unlock(event, ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/**
 * perf_event_refresh - allow more overflows before the event disables itself
 * @event: the event
 * @refresh: how many
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret = perf_event_refresh_locked(event, refresh);

	perf_event_ctx_unlock(event, ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);

/* ---------------------------------------------------------------------
 * Hypervisors (KVM) tell the PMU drivers whether a guest runs here
 */

#ifdef CONFIG_GUEST_PERF_EVENTS
struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr,
			*perf_guest_cbs->handle_intel_pt_intr);

/* Point the static calls at @cbs, or back at "return 0" for NULL. */
static void guest_calls_point_at(struct perf_guest_info_callbacks *cbs)
{
	void *ret0 = (void *)&__static_call_return0;
	void *state = ret0, *get_ip = ret0, *pt_intr = ret0;

	if (cbs) {
		state = cbs->state;
		get_ip = cbs->get_ip;
		/* Intel PT interrupts in guests: not every hypervisor has it */
		pt_intr = cbs->handle_intel_pt_intr ?: ret0;
	}
	static_call_update(__perf_guest_state, state);
	static_call_update(__perf_guest_get_ip, get_ip);
	static_call_update(__perf_guest_handle_intel_pt_intr, pt_intr);
}

/**
 * perf_register_guest_info_callbacks - a hypervisor's guest-state queries
 * @cbs: the callbacks; one set at a time
 */
void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	struct perf_guest_info_callbacks *old = rcu_access_pointer(perf_guest_cbs);

	if (WARN_ON_ONCE(old))
		return;
	rcu_assign_pointer(perf_guest_cbs, cbs);
	guest_calls_point_at(cbs);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

/**
 * perf_unregister_guest_info_callbacks - undo the registration
 * @cbs: the callbacks given to perf_register_guest_info_callbacks()
 *
 * Returns once no CPU can be running one of them.
 */
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	struct perf_guest_info_callbacks *old = rcu_access_pointer(perf_guest_cbs);

	if (WARN_ON_ONCE(old != cbs))
		return;
	guest_calls_point_at(NULL);
	RCU_INIT_POINTER(perf_guest_cbs, NULL);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
#endif

/* ---------------------------------------------------------------------
 * Boot
 */

/**
 * perf_event_init - boot-time set-up of the perf core
 *
 * Called from start_kernel() with IRQs off, before any PMU driver.
 */
void __init perf_event_init(void)
{
	perf_event_cache = KMEM_CACHE(perf_event, SLAB_PANIC);
	perf_short_event_cache =
		kmem_cache_create("perf_event_short", PERF_EVENT_SHORT_SIZE,
				  __alignof__(struct perf_event), SLAB_PANIC,
				  NULL);
	perf_context_init();
	perf_swevent_setup();
	perf_tp_setup();
	WARN_ON(init_hw_breakpoint());
	perf_event_init_cpu(smp_processor_id());
}
