/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF programs on events (bpf.c, built with CONFIG_BPF_SYSCALL).  Without
 * that option the hooks below are inline stand-ins, so the rest of the
 * core calls them unconditionally.
 */
#ifndef _KERNEL_EVENTS_BPF_H
#define _KERNEL_EVENTS_BPF_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/types.h>

struct perf_event;
struct perf_sample_data;
struct pt_regs;

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

#endif /* _KERNEL_EVENTS_BPF_H */
