// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs whose events are fed by the tracing code.
 *
 * "tracepoint" (PERF_TYPE_TRACEPOINT) has one event per trace event id
 * (attr.config, as in tracefs events/<sys>/<name>/id).  "kprobe" and
 * "uprobe" have dynamic types; each of their events creates a private
 * probe from attr.kprobe_func/kprobe_addr/probe_offset or
 * attr.uprobe_path/probe_offset, with attr.config bit 0 asking for a
 * return probe and, for uprobes, bits 32-63 the offset of a USDT
 * semaphore.
 *
 * The tracing side (kernel/trace/trace_event_perf.c) does most of the
 * work: perf_trace_init() and friends look up or create the trace event
 * and check who may see its raw data, perf_trace_add()/perf_trace_del()
 * put the event on and off the trace event's per-CPU list.  When the
 * trace event fires on a CPU, the tracing code fills in a record and hands
 * it, with that CPU's list, to perf_trace_run_bpf_submit(): BPF programs
 * attached to the trace event see it first, then perf_tp_event() counts a
 * hit (or attr-given count) on every started event of the list whose
 * filter takes the record.  Sampling events get the record as
 * PERF_SAMPLE_RAW.
 *
 * Context: hits arrive with preemption off, in any context a tracepoint or
 * probe can fire in (NMI included, for kprobes).  The lists are walked
 * under RCU; events are freed only after a grace period, and their
 * filters with them.  A hit that names another task (the scheduler's
 * tracepoints do) also goes to the matching events of that task's
 * context, under its ctx->lock, which is why that part is skipped in NMI.
 */

/**
 * DOC: Tracing locks
 *
 * ``event_mutex`` and ``bpf_event_mutex`` (``kernel/trace/``)
 *   The tracing side takes ``event_mutex`` when a tracepoint, kprobe or
 *   uprobe event is initialised and destroyed and when a tracing filter is
 *   set, and ``bpf_event_mutex`` when a BPF program is attached to or
 *   detached from a trace event.  Inherited tracing events are created
 *   (fork) and freed (exit) with ``ctx->mutex`` held, so both nest inside
 *   ``ctx->mutex``.  ``event->prog`` of a tracing event changes under
 *   ``bpf_event_mutex``; of any other event, under ``ctx->mutex``.
 */

#include <linux/capability.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "addr_filter.h"
#include "context.h"
#include "overflow.h"
#include "tracepoint.h"

static struct pmu perf_tracepoint_pmu;
#ifdef CONFIG_KPROBE_EVENTS
static struct pmu perf_kprobe_pmu;
#endif
#ifdef CONFIG_UPROBE_EVENTS
static struct pmu perf_uprobe_pmu;
#endif

/* ---------------------------------------------------------------------
 * Callbacks the three PMUs share
 *
 * The count lives in event->count, bumped by perf_tp_event(); there is
 * nothing to read back.  A stopped event stays on the list but is skipped.
 */

static int perf_tracing_add(struct perf_event *event, int flags)
{
	/* perf_trace_add() marks a not-started event, never clears a stop */
	if (flags & PERF_EF_START)
		event->hw.state = 0;
	return perf_trace_add(event, flags);
}

static void perf_tracing_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void perf_tracing_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static void perf_tracing_read(struct perf_event *event)
{
}

/* What none of the three PMUs can do; 0 or -errno. */
static int perf_tracing_check_attr(struct perf_event *event)
{
	/* a hit has no branch records to offer */
	return has_branch_stack(event) ? -EOPNOTSUPP : 0;
}

/* ---------------------------------------------------------------------
 * "tracepoint"
 */

static int perf_tracepoint_event_init(struct perf_event *event)
{
	int err;

	/* a function trace event needs the tail a short event lacks */
	if (event->attr.type != PERF_TYPE_TRACEPOINT || !event->has_ftrace_ops)
		return -ENOENT;

	err = perf_tracing_check_attr(event);
	/* looks up the trace event and checks access to raw records */
	if (!err)
		err = perf_trace_init(event);
	if (!err)
		event->destroy = perf_trace_destroy;
	return err;
}

static struct pmu perf_tracepoint_pmu = {
	.task_ctx_nr	= perf_sw_context,

	.event_init	= perf_tracepoint_event_init,
	.add		= perf_tracing_add,
	.del		= perf_trace_del,
	.start		= perf_tracing_start,
	.stop		= perf_tracing_stop,
	.read		= perf_tracing_read,
};

/* ---------------------------------------------------------------------
 * "kprobe" and "uprobe": attr.config and its sysfs description
 */

#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)

#define PERF_PROBE_CONFIG_RETPROBE	BIT_ULL(0)
#define PERF_UPROBE_REF_CTR_SHIFT	32	/* bits 32-63 */

PMU_FORMAT_ATTR(retprobe, "config:0");

static bool perf_probe_is_retprobe(struct perf_event *event)
{
	return event->attr.config & PERF_PROBE_CONFIG_RETPROBE;
}

/*
 * May the opener create a probe?  An inherited copy was allowed when its
 * original was opened: a fork must not fail over the forking task's
 * capabilities.
 */
static int perf_probe_check_cap(struct perf_event *event, int cap)
{
	if (event->parent)
		return 0;
	if (cap == CAP_PERFMON ? !perfmon_capable() : !capable(cap))
		return -EACCES;
	return 0;
}

#endif

#ifdef CONFIG_KPROBE_EVENTS

static struct attribute *perf_kprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group perf_kprobe_format_group = {
	.name	= "format",
	.attrs	= perf_kprobe_format_attrs,
};

static const struct attribute_group *perf_kprobe_attr_groups[] = {
	&perf_kprobe_format_group,
	NULL,
};

static int perf_kprobe_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != perf_kprobe_pmu.type)
		return -ENOENT;

	err = perf_probe_check_cap(event, CAP_PERFMON);
	if (!err)
		err = perf_tracing_check_attr(event);
	if (!err)
		err = perf_kprobe_init(event, perf_probe_is_retprobe(event));
	if (!err)
		event->destroy = perf_kprobe_destroy;
	return err;
}

static struct pmu perf_kprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= perf_kprobe_attr_groups,

	.event_init	= perf_kprobe_event_init,
	.add		= perf_tracing_add,
	.del		= perf_trace_del,
	.start		= perf_tracing_start,
	.stop		= perf_tracing_stop,
	.read		= perf_tracing_read,
};

#endif /* CONFIG_KPROBE_EVENTS */

#ifdef CONFIG_UPROBE_EVENTS

PMU_FORMAT_ATTR(ref_ctr_offset, "config:32-63");

static struct attribute *perf_uprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	&format_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group perf_uprobe_format_group = {
	.name	= "format",
	.attrs	= perf_uprobe_format_attrs,
};

static const struct attribute_group *perf_uprobe_attr_groups[] = {
	&perf_uprobe_format_group,
	NULL,
};

static int perf_uprobe_event_init(struct perf_event *event)
{
	unsigned long ref_ctr_offset;
	int err;

	if (event->attr.type != perf_uprobe_pmu.type)
		return -ENOENT;

	err = perf_probe_check_cap(event, CAP_SYS_ADMIN);
	if (!err)
		err = perf_tracing_check_attr(event);
	if (err)
		return err;

	ref_ctr_offset = event->attr.config >> PERF_UPROBE_REF_CTR_SHIFT;
	err = perf_uprobe_init(event, ref_ctr_offset,
			       perf_probe_is_retprobe(event));
	if (!err)
		event->destroy = perf_uprobe_destroy;
	return err;
}

static struct pmu perf_uprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= perf_uprobe_attr_groups,

	.event_init	= perf_uprobe_event_init,
	.add		= perf_tracing_add,
	.del		= perf_trace_del,
	.start		= perf_tracing_start,
	.stop		= perf_tracing_stop,
	.read		= perf_tracing_read,
};

#endif /* CONFIG_UPROBE_EVENTS */

/**
 * perf_event_is_tracing - is @event fed by the tracing code
 * @event: an initialised event
 *
 * Return: true for events of the tracepoint, kprobe and uprobe PMUs,
 * whose event->tp_event is set.
 */
bool perf_event_is_tracing(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (pmu == &perf_tracepoint_pmu)
		return true;
#ifdef CONFIG_KPROBE_EVENTS
	if (pmu == &perf_kprobe_pmu)
		return true;
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (pmu == &perf_uprobe_pmu)
		return true;
#endif
	return false;
}

static void __init perf_tp_register(struct pmu *pmu, const char *name,
				    int type)
{
	int err = perf_pmu_register(pmu, name, type);

	if (err)
		pr_warn("perf: the %s PMU did not register (%d)\n", name, err);
}

/**
 * perf_tp_setup - register the tracepoint, kprobe and uprobe PMUs
 *
 * Called once from perf_event_init().
 */
void __init perf_tp_setup(void)
{
	perf_tp_register(&perf_tracepoint_pmu, "tracepoint",
			 PERF_TYPE_TRACEPOINT);
#ifdef CONFIG_KPROBE_EVENTS
	perf_tp_register(&perf_kprobe_pmu, "kprobe", -1);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	perf_tp_register(&perf_uprobe_pmu, "uprobe", -1);
#endif
}

/* ---------------------------------------------------------------------
 * Hits
 */

/* Does a hit with this record and these registers count for @event? */
static bool perf_tp_hit_matches(struct perf_event *event, void *record,
				struct pt_regs *regs)
{
	/* the filter is set through the fd user space holds */
	struct perf_event *opened = event->parent ?: event;
	struct event_filter *filter;

	if (event->hw.state & PERF_HES_STOPPED)
		return false;

	/* without the kernel, only hits in user mode (uprobes) count */
	if (event->attr.exclude_kernel && (!regs || !user_mode(regs)))
		return false;

	filter = READ_ONCE(opened->filter);
	return !filter || filter_match_preds(filter, record);
}

static void perf_tp_count_hit(struct perf_event *event, u64 count,
			      struct perf_raw_record *raw,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	/* @data is reused for the next event: start it afresh each time */
	perf_sample_data_init(data, 0, 0);
	perf_sample_save_raw_data(data, event, raw);
	perf_swevent_event(event, count, data, regs);
}

/*
 * A hit about @task, which runs elsewhere or not at all: the tracepoint
 * events of its context that are bound to this CPU count it too.  Those
 * are on no list here while @task is away.  A SIGTRAP could only go to
 * the wrong task, so such events are left out.
 */
static void perf_tp_hit_for_task(struct task_struct *task, u16 event_type,
				 u64 count, void *record,
				 struct perf_raw_record *raw,
				 struct perf_sample_data *data,
				 struct pt_regs *regs)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int cpu = smp_processor_id();
	unsigned long flags;

	/* ctx->lock cannot be taken in NMI; no such hit comes from there */
	if (in_nmi())
		return;

	rcu_read_lock();
	ctx = rcu_dereference(*task_ctxp(task));
	if (!ctx)
		goto out;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->pmu != &perf_tracepoint_pmu ||
		    event->attr.config != event_type ||
		    event->cpu != cpu || event->attr.sigtrap ||
		    event->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		if (perf_tp_hit_matches(event, record, regs))
			perf_tp_count_hit(event, count, raw, data, regs);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * perf_tp_event - hand a trace record to the perf events watching it
 * @event_type: the trace event's id (goes into the record's header)
 * @count: how many occurrences the record stands for
 * @record: the record, from perf_trace_buf_alloc()
 * @entry_size: its size in bytes
 * @regs: the registers at the hit
 * @head: this CPU's list of the trace event's perf events
 * @rctx: the swevent recursion context perf_trace_buf_alloc() took
 * @task: the task the record is about, or NULL for current
 *
 * Every started event on @head whose filter accepts the record counts
 * @count; a sampling event gets the record as PERF_SAMPLE_RAW data.  If
 * @task is another task, its context's tracepoint events bound to this
 * CPU count the hit as well.  Preemption off; any context.  The recursion
 * context is always given back, which frees the record's buffer.
 */
void perf_tp_event(u16 event_type, u64 count, void *record,
		   int entry_size, struct pt_regs *regs,
		   struct hlist_head *head, int rctx, struct task_struct *task)
{
	struct perf_raw_record raw = {};
	struct perf_sample_data data __uninitialized;
	struct perf_event *event;

	lockdep_assert_preemption_disabled();

	raw.frag.size = entry_size;
	raw.frag.data = record;

	perf_trace_buf_update(record, event_type);

	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (perf_tp_hit_matches(event, record, regs))
			perf_tp_count_hit(event, count, &raw, &data, regs);
	}

	if (task && task != current)
		perf_tp_hit_for_task(task, event_type, count, record, &raw,
				     &data, regs);

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - run a trace event's BPF programs, then perf
 * @raw_data: the record, from perf_trace_buf_alloc()
 * @size: its size in bytes
 * @rctx: the swevent recursion context perf_trace_buf_alloc() took
 * @call: the trace event
 * @count: how many occurrences the record stands for
 * @regs: the registers at the hit
 * @head: this CPU's list of the trace event's perf events
 * @task: the task the record is about, or NULL for current
 *
 * BPF programs attached to @call run first, with the record as their
 * context (its first word temporarily holding @regs, as they expect).
 * If any program is attached and they all return 0, or no perf event is
 * on @head, the record goes no further.  Otherwise perf_tp_event() takes
 * it.  Either way the recursion context is given back.
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call,
			       u64 count, struct pt_regs *regs,
			       struct hlist_head *head, struct task_struct *task)
{
	bool to_perf = true;

	if (bpf_prog_array_valid(call)) {
		*(struct pt_regs **)raw_data = regs;
		to_perf = trace_call_bpf(call, raw_data) && !hlist_empty(head);
	}

	if (to_perf)
		perf_tp_event(call->event.type, count, raw_data, size, regs,
			      head, rctx, task);
	else
		perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

/* ---------------------------------------------------------------------
 * Filters
 */

/**
 * perf_event_set_filter - PERF_EVENT_IOC_SET_FILTER
 * @event: the event of the fd
 * @arg: the filter text, a user string of less than a page
 *
 * A tracing event takes an ftrace filter expression over the trace
 * event's fields, once (-EEXIST after that).  An event of a PMU with
 * address range filters (instruction trace) takes those
 * (perf_addr_filters_set()).
 *
 * Context: event->ctx->mutex held (perf_event_ctx_lock()); it is dropped
 * and taken again around building a tracing filter, which belongs to the
 * trace event and not to the context (the tracing code's event_mutex may
 * nest inside ctx->mutex: event_init takes it at fork), with a reference
 * on the context meanwhile.
 *
 * Return: 0; -EFAULT or -ENOMEM copying the string; the tracing code's
 * error for a bad expression; perf_addr_filters_set()'s errors; -EINVAL
 * for a PMU that takes no filters.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg)
{
	struct perf_event_context *ctx = event->ctx;
	char *text;
	int err;

	text = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(text))
		return PTR_ERR(text);

	if (perf_event_is_tracing(event)) {
		lockdep_assert_held(&ctx->mutex);
		perf_ctx_get(ctx);
		mutex_unlock(&ctx->mutex);
		err = ftrace_profile_set_filter(event, event->attr.config, text);
		mutex_lock(&ctx->mutex);
		perf_ctx_put(ctx);
	} else if (has_addr_filter(event)) {
		err = perf_addr_filters_set(event, text);
	} else {
		err = -EINVAL;
	}

	kfree(text);
	return err;
}

/**
 * perf_tp_free_filter - free a tracing event's filter
 * @event: an event whose last reference is gone
 *
 * Only once no CPU can be walking a list the event was on: from the RCU
 * callback that frees the event.  Does nothing for other events.
 */
void perf_tp_free_filter(struct perf_event *event)
{
	if (event->filter)
		ftrace_profile_free_filter(event);
}
