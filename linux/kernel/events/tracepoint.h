/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint, kprobe and uprobe PMUs (tracepoint.c, built with
 * CONFIG_EVENT_TRACING) and BPF programs on events (bpf.c, built with
 * CONFIG_BPF_SYSCALL).  Without those options the hooks below are inline
 * stand-ins, so the rest of the core calls them unconditionally.
 */
#ifndef _KERNEL_EVENTS_TRACEPOINT_H
#define _KERNEL_EVENTS_TRACEPOINT_H

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

struct perf_event;
struct perf_sample_data;
struct pt_regs;

/* --- tracepoint.c ----------------------------------------------------- */

#ifdef CONFIG_EVENT_TRACING

/* Registers the tracepoint, kprobe and uprobe PMUs (perf_event_init). */
void perf_tp_setup(void);

/* Is @event one of the tracepoint, kprobe or uprobe PMUs' events? */
bool perf_event_is_tracing(struct perf_event *event);

/*
 * PERF_EVENT_IOC_SET_FILTER.  Called with event->ctx->mutex held, as
 * perf_event_ctx_lock() leaves it; for a tracing event the mutex is let go
 * while the filter is built (the tracing code takes event_mutex, which
 * nests outside ctx->mutex), and held again on return.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg);

/*
 * At the end of an event's life, once no CPU can still see it on a
 * tracepoint's list (after the RCU grace period, from the RCU callback):
 * frees its tracepoint filter.
 */
void perf_tp_free_filter(struct perf_event *event);

#else /* !CONFIG_EVENT_TRACING */

static inline void perf_tp_setup(void)
{
}

static inline bool perf_event_is_tracing(struct perf_event *event)
{
	return false;
}

/* No tracing events: only address filters. */
static inline int perf_event_set_filter(struct perf_event *event,
					void __user *arg)
{
	char *text = strndup_user(arg, PAGE_SIZE);
	int err = -EINVAL;

	if (IS_ERR(text))
		return PTR_ERR(text);
	if (has_addr_filter(event))
		err = perf_addr_filters_set(event, text);
	kfree(text);
	return err;
}

static inline void perf_tp_free_filter(struct perf_event *event)
{
}

#endif /* CONFIG_EVENT_TRACING */

/* --- bpf.c ------------------------------------------------------------ */

#ifdef CONFIG_BPF_SYSCALL

/*
 * PERF_EVENT_IOC_SET_BPF, with event->ctx->mutex held.  The event keeps
 * the program's reference on success.
 */
int perf_event_set_bpf_fd(struct perf_event *event, u32 prog_fd);

/*
 * An overflow of a sampling event with event->prog set: runs a
 * BPF_PROG_TYPE_PERF_EVENT program before the sample is written (a
 * tracing event's program is not of that kind and is left alone).  Any
 * context, NMI included.
 * Return: false if the sample is to be dropped.
 */
bool perf_event_run_bpf_overflow(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs);

/*
 * An inherited copy of @parent takes a reference on the parent's
 * BPF_PROG_TYPE_PERF_EVENT program, so its overflows run it too.  At
 * creation of @child, before it is installed.
 */
void perf_event_inherit_bpf(struct perf_event *child,
			    struct perf_event *parent);

/* declared in linux/trace_events.h as well; the tracing code calls it */
void perf_event_free_bpf_prog(struct perf_event *event);

/*
 * At the end of an event's life, in process context and before
 * event->destroy() runs (a tracing event's program is taken off the
 * trace event, which destroy lets go of).
 */
static inline void perf_event_release_bpf(struct perf_event *event)
{
	if (READ_ONCE(event->prog))
		perf_event_free_bpf_prog(event);
}

#else /* !CONFIG_BPF_SYSCALL */

/* bpf_prog_get() says the same without BPF */
static inline int perf_event_set_bpf_fd(struct perf_event *event, u32 prog_fd)
{
	return -EOPNOTSUPP;
}

static inline bool perf_event_run_bpf_overflow(struct perf_event *event,
					       struct perf_sample_data *data,
					       struct pt_regs *regs)
{
	return true;
}

static inline void perf_event_inherit_bpf(struct perf_event *child,
					  struct perf_event *parent)
{
}

static inline void perf_event_release_bpf(struct perf_event *event)
{
}

#endif /* CONFIG_BPF_SYSCALL */

#endif /* _KERNEL_EVENTS_TRACEPOINT_H */
