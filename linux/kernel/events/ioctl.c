// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl(2) on an event fd, and prctl(PR_TASK_PERF_EVENTS_{EN,DIS}ABLE).
 *
 * Every request runs with the event's context mutex held (SET_FILTER lets
 * it go while it builds a tracing filter).  ENABLE, DISABLE
 * and RESET act on the event and its inherited copies, or with
 * PERF_IOC_FLAG_GROUP on every member of the event's group and their
 * inherited copies.
 *
 * The buffer requests (SET_OUTPUT, PAUSE_OUTPUT) are ring_buffer.c's, the
 * filter and BPF ones tracepoint.c's and bpf.c's; MODIFY_ATTRIBUTES changes
 * breakpoints in place (hw_breakpoint.c checks the new attributes).
 */

#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/file.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "bpf.h"
#include "context.h"
#include "event.h"
#include "inherit.h"
#include "ioctl.h"
#include "overflow.h"
#include "ring_buffer.h"
#include "syscall.h"
#include "tracepoint.h"

typedef void (*perf_event_action_t)(struct perf_event *event);

/* @action on @event and its inherited copies; caller holds ctx->mutex. */
static void perf_event_apply_with_children(struct perf_event *event,
					   perf_event_action_t action)
{
	struct perf_event *child;

	lockdep_assert_held(&event->ctx->mutex);
	/* only an inherit event ever has copies: no child_mutex round */
	if (!event->attr.inherit) {
		action(event);
		return;
	}
	mutex_lock(&event->child_mutex);
	action(event);
	list_for_each_entry(child, &event->child_list, child_entry)
		action(child);
	mutex_unlock(&event->child_mutex);
}

/* @action on every member of @event's group, and their copies. */
static void perf_event_apply_to_group(struct perf_event *event,
				      perf_event_action_t action)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;

	perf_event_apply_with_children(leader, action);
	for_each_sibling_event(sibling, leader)
		perf_event_apply_with_children(sibling, action);
}

/* The checks of the new value (-EINVAL) are perf_event_period_locked()'s. */
static int perf_ioctl_period(struct perf_event *event, u64 __user *uperiod)
{
	u64 period;

	if (copy_from_user(&period, uperiod, sizeof(period)))
		return -EFAULT;

	return perf_event_period_locked(event, period);
}

static int perf_ioctl_id(struct perf_event *event, u64 __user *uid)
{
	u64 id = perf_event_primary_id(event);

	return copy_to_user(uid, &id, sizeof(id)) ? -EFAULT : 0;
}

/* fd -1 undoes a redirection; ring_buffer.c checks the target. */
static int perf_ioctl_set_output(struct perf_event *event, unsigned long arg)
{
	struct perf_event *target;
	struct fd target_file;
	int err;

	if ((int)arg == -1)
		return perf_event_set_output(event, NULL);

	err = perf_event_fd_get((int)arg, &target_file, &target);
	if (err)
		return err;
	err = perf_event_set_output(event, target);
	fdput(target_file);
	return err;
}

#ifdef CONFIG_HAVE_HW_BREAKPOINT
static int perf_modify_one_breakpoint(struct perf_event *bp,
				      struct perf_event_attr *attr)
{
	int err;

	perf_event_disable_locked(bp);
	/*
	 * sig_data is ours, not the breakpoint layer's: it may change here,
	 * and the check below compares every other field.
	 */
	bp->attr.sig_data = attr->sig_data;
	err = modify_user_hw_breakpoint_check(bp, attr, true);
	if (!bp->attr.disabled)
		perf_event_enable_locked(bp);
	return err;
}

/* A breakpoint and its inherited copies move to the new address. */
static int perf_modify_breakpoint(struct perf_event *event,
				  struct perf_event_attr *attr)
{
	struct perf_event *child;
	int err;

	mutex_lock(&event->child_mutex);
	err = perf_modify_one_breakpoint(event, attr);
	list_for_each_entry(child, &event->child_list, child_entry) {
		if (err)
			break;
		err = perf_modify_one_breakpoint(child, attr);
	}
	mutex_unlock(&event->child_mutex);
	return err;
}
#else
static int perf_modify_breakpoint(struct perf_event *event,
				  struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES: only breakpoint events can be changed
 * in place (their address, length and type); others get -EOPNOTSUPP.
 */
static int perf_ioctl_modify(struct perf_event *event,
			     struct perf_event_attr __user *uattr)
{
	struct perf_event_attr new_attr;
	int err;

	err = perf_copy_attr(uattr, &new_attr);
	if (err)
		return err;

	if (new_attr.type != event->attr.type)
		return -EINVAL;
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -EOPNOTSUPP;

	err = perf_modify_breakpoint(event, &new_attr);
	/* the new attributes may enable it */
	return err ?: perf_inherit_lazy(event->group_leader);
}

static long perf_ioctl_locked(struct perf_event *event, unsigned int cmd,
			      unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	perf_event_action_t action;

	/* its PMU went away (revoke.c): nothing to act on */
	if (event->state == PERF_EVENT_STATE_REVOKED)
		return -ENODEV;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		action = perf_event_enable_locked;
		break;
	case PERF_EVENT_IOC_DISABLE:
		action = perf_event_disable_locked;
		break;
	case PERF_EVENT_IOC_RESET:
		action = perf_event_reset_locked;
		break;
	case PERF_EVENT_IOC_REFRESH:
		/* -EINVAL on inherited and non-sampling events */
		return perf_event_refresh_locked(event, (int)arg);
	case PERF_EVENT_IOC_PERIOD:
		return perf_ioctl_period(event, uarg);
	case PERF_EVENT_IOC_ID:
		return perf_ioctl_id(event, uarg);
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_ioctl_set_output(event, arg);
	case PERF_EVENT_IOC_SET_FILTER:
		return perf_event_set_filter(event, uarg);
	case PERF_EVENT_IOC_SET_BPF:
		return perf_event_set_bpf_fd(event, (u32)arg);
	case PERF_EVENT_IOC_QUERY_BPF:
		return perf_event_query_prog_array(event, uarg);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_ioctl_modify(event, uarg);
	default:
		return -ENOTTY;
	}

	if ((u32)arg & PERF_IOC_FLAG_GROUP)
		perf_event_apply_to_group(event, action);
	else
		perf_event_apply_with_children(event, action);

	/* descendants forked while the group was off get their copies now */
	if (cmd == PERF_EVENT_IOC_ENABLE)
		return perf_inherit_lazy(event->group_leader);
	return 0;
}

/* Every request but the unlocked ENABLE/DISABLE of perf_ioctl(). */
static noinline long perf_ioctl_slow(struct perf_event *target,
				     unsigned int cmd, unsigned long arg)
{
	struct perf_event_context *locked_ctx;
	long err;

	/*
	 * Pausing waits for the buffer's writers (an RCU grace period): not
	 * under ctx->mutex, which the task's fork and exit need meanwhile.
	 */
	if (cmd == PERF_EVENT_IOC_PAUSE_OUTPUT) {
		if (READ_ONCE(target->state) == PERF_EVENT_STATE_REVOKED)
			return -ENODEV;
		return perf_event_pause_output(target, !!arg);
	}

	locked_ctx = perf_event_ctx_lock(target);
	err = perf_ioctl_locked(target, cmd, arg);
	perf_event_ctx_unlock(target, locked_ctx);
	return err;
}

/**
 * perf_ioctl - the ioctl() of an event fd
 * @file: the event's file
 * @cmd: PERF_EVENT_IOC_*
 * @arg: the request's argument
 *
 * Return: 0 or a request's positive result, -ENOTTY for an unknown
 * request, another negative errno on failure.
 */
long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *target = file->private_data;
	long err;

	/* Requests may alter the event, so the LSM is asked for write access. */
	err = security_perf_event_write(target);
	if (err)
		return err;
	/* a task turning its own software counter on or off: no mutex */
	if ((cmd == PERF_EVENT_IOC_ENABLE || cmd == PERF_EVENT_IOC_DISABLE) &&
	    !((u32)arg & PERF_IOC_FLAG_GROUP) &&
	    perf_event_toggle_own(target, cmd == PERF_EVENT_IOC_ENABLE))
		return 0;
	return perf_ioctl_slow(target, cmd, arg);
}

#ifdef CONFIG_COMPAT
/**
 * perf_compat_ioctl - ioctl() of an event fd from a 32-bit task
 * @file: the event's file
 * @cmd: PERF_EVENT_IOC_*
 * @arg: the request's argument
 *
 * The requests whose number encodes a pointer's size are built with a
 * 4-byte size by 32-bit programs; they are renumbered to the native size.
 *
 * Return: as perf_ioctl().
 */
long perf_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	bool sized_by_pointer = nr == _IOC_NR(PERF_EVENT_IOC_ID) ||
				nr == _IOC_NR(PERF_EVENT_IOC_SET_FILTER) ||
				nr == _IOC_NR(PERF_EVENT_IOC_QUERY_BPF) ||
				nr == _IOC_NR(PERF_EVENT_IOC_MODIFY_ATTRIBUTES);

	if (sized_by_pointer && _IOC_SIZE(cmd) == sizeof(compat_uptr_t))
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), nr, sizeof(void *));

	return perf_ioctl(file, cmd, arg);
}
#endif

/*
 * Each event the current task opened, with its inherited copies; @enable:
 * and the copies of the groups enabled, for descendants that wait.
 */
static void perf_owned_events_apply(perf_event_action_t action, bool enable)
{
	struct task_struct *me = current;
	struct perf_event *owned;

	mutex_lock(&me->perf_event_mutex);
	list_for_each_entry(owned, &me->perf_event_list, owner_entry) {
		struct perf_event_context *held = perf_event_ctx_lock(owned);

		perf_event_apply_with_children(owned, action);
		if (enable)
			perf_inherit_lazy(owned->group_leader);
		perf_event_ctx_unlock(owned, held);
	}
	mutex_unlock(&me->perf_event_mutex);
}

/**
 * perf_event_task_enable - prctl(PR_TASK_PERF_EVENTS_ENABLE)
 *
 * Enables every event the calling task opened (wherever it counts) and
 * their inherited copies.
 *
 * Return: 0.
 */
int perf_event_task_enable(void)
{
	perf_owned_events_apply(perf_event_enable_locked, true);
	return 0;
}

/**
 * perf_event_task_disable - prctl(PR_TASK_PERF_EVENTS_DISABLE)
 *
 * Disables every event the calling task opened and their inherited copies.
 *
 * Return: 0.
 */
int perf_event_task_disable(void)
{
	perf_owned_events_apply(perf_event_disable_locked, false);
	return 0;
}
