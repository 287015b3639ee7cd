// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs on perf events.
 *
 * A program reaches an event through PERF_EVENT_IOC_SET_BPF (the event
 * then owns the program reference) or a BPF_LINK_TYPE_PERF_EVENT link
 * (the link owns it and detaches with perf_event_free_bpf_prog()).  What
 * the program does depends on the event:
 *
 *  - tracing events (tracepoint, kprobe, uprobe PMUs): the program joins
 *    the trace event's program array (kernel/trace/bpf_trace.c) and runs
 *    at every hit of the trace event, whichever perf event attached it;
 *    event->prog only remembers what this event put there.  The program
 *    type must fit the trace event: BPF_PROG_TYPE_KPROBE for probes,
 *    BPF_PROG_TYPE_TRACEPOINT for tracepoints and syscall events.
 *
 *  - every other event: a BPF_PROG_TYPE_PERF_EVENT program in event->prog
 *    runs at each overflow, before the sample is written, sees the sample
 *    (struct bpf_perf_event_data_kern) and returns 0 to drop it.
 *    Inherited copies run their original's program.
 *
 * event->prog is written under event->ctx->mutex (or, for tracing events,
 * under the tracing side's bpf_event_mutex) and read from the overflow
 * path under RCU; programs are freed only after a grace period.
 *
 * Also here: perf_event_get() and perf_get_event(), which BPF maps and
 * links use to hold on to an event by its file.
 */

#include <linux/bpf.h>
#include <linux/file.h>
#include <linux/filter.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "internal.h"
#include "bpf.h"
#include "context.h"
#include "event.h"
#include "tracepoint.h"

/* ---------------------------------------------------------------------
 * Tracing events
 */

#ifdef CONFIG_EVENT_TRACING

static int perf_bpf_attach_tracing(struct perf_event *event,
				   struct bpf_prog *prog, u64 bpf_cookie)
{
	struct trace_event_call *call = event->tp_event;
	bool kprobe = call->flags & TRACE_EVENT_FL_KPROBE;
	bool uprobe = call->flags & TRACE_EVENT_FL_UPROBE;
	bool tracepoint = (call->flags & TRACE_EVENT_FL_TRACEPOINT) ||
			  is_syscall_trace_event(call);

	/* bpf_override_return() can only act at a kprobe */
	if (prog->kprobe_override && !kprobe)
		return -EINVAL;

	if (kprobe || uprobe) {
		if (prog->type != BPF_PROG_TYPE_KPROBE)
			return -EINVAL;
		/* only a uprobe hit may sleep */
		if (prog->sleepable && !uprobe)
			return -EINVAL;
	} else if (tracepoint) {
		if (prog->type != BPF_PROG_TYPE_TRACEPOINT)
			return -EINVAL;
		/* the program may not read past the record's fields */
		if (prog->aux->max_ctx_offset > trace_event_get_offsets(call))
			return -EACCES;
	} else {
		/* e.g. the function tracer's event */
		return -EINVAL;
	}

	return perf_event_attach_bpf_prog(event, prog, bpf_cookie);
}

#else

static int perf_bpf_attach_tracing(struct perf_event *event,
				   struct bpf_prog *prog, u64 bpf_cookie)
{
	return -EINVAL;	/* perf_event_is_tracing() is never true */
}

#endif /* CONFIG_EVENT_TRACING */

/* ---------------------------------------------------------------------
 * Overflow programs
 */

/*
 * Does the event put the whole callchain, kernel and user, in its
 * samples?  bpf_get_stack() from a precise event's overflow must use it:
 * unwinding from the skidded registers of a precise sample goes wrong.
 */
static bool perf_bpf_sample_has_full_callchain(struct perf_event *event)
{
	return (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	       !event->attr.exclude_callchain_kernel &&
	       !event->attr.exclude_callchain_user;
}

/*
 * Why @prog cannot go on @event, as an errno (0: it can).  The order is
 * the ABI: a program already there is EEXIST whatever the new one is.
 */
static int perf_bpf_overflow_refusal(struct perf_event *event,
				     struct bpf_prog *prog)
{
	/* ptrace breakpoints and kernel counters keep their own handler */
	bool own_handler = event->overflow_handler_context;
	bool unwinds_badly = event->attr.precise_ip && prog->call_get_stack &&
			     !perf_bpf_sample_has_full_callchain(event);

	if (own_handler)
		return -EINVAL;
	if (event->prog)
		return -EEXIST;
	return prog->type != BPF_PROG_TYPE_PERF_EVENT ? -EINVAL :
	       unwinds_badly ? -EPROTO : 0;
}

static int perf_bpf_attach_overflow(struct perf_event *event,
				    struct bpf_prog *prog, u64 bpf_cookie)
{
	int refusal = perf_bpf_overflow_refusal(event, prog);

	if (refusal)
		return refusal;
	event->bpf_cookie = bpf_cookie;
	/* the cookie is in place before an overflow can see the program */
	smp_store_release(&event->prog, prog);
	return 0;
}

/**
 * perf_event_run_bpf_overflow - run an event's program at an overflow
 * @event: a sampling event with event->prog set
 * @data: the sample so far
 * @regs: the registers at the overflow
 *
 * Only a BPF_PROG_TYPE_PERF_EVENT program runs here; a tracing event's
 * program already ran at the hit and the sample is kept.  The sample is
 * completed first (perf_prepare_sample()) so that the program can use its
 * callchain and other fields.  While another BPF program runs on this
 * CPU (this overflow interrupted it) the program is not run and the
 * sample is dropped.  Any context, NMI included.
 *
 * Return: false if the sample is to be dropped (the program returned 0).
 */
bool perf_event_run_bpf_overflow(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs)
{
	struct bpf_perf_event_data_kern ctx = {
		.event	= event,
		.data	= data,
		.regs	= perf_arch_bpf_user_pt_regs(regs),
	};
	struct bpf_prog *prog;
	bool keep = false;

	rcu_read_lock();
	prog = READ_ONCE(event->prog);
	if (!prog || prog->type != BPF_PROG_TYPE_PERF_EVENT) {
		rcu_read_unlock();
		return true;
	}

	if (__this_cpu_inc_return(bpf_prog_active) == 1) {
		perf_prepare_sample(data, event, regs);
		keep = bpf_prog_run(prog, &ctx);
	}
	__this_cpu_dec(bpf_prog_active);
	rcu_read_unlock();

	return keep;
}

/**
 * perf_event_inherit_bpf - give an inherited copy its original's program
 * @child: the new copy, not installed yet
 * @parent: the event it copies
 *
 * Only overflow programs are carried over: a tracing event's program runs
 * at every hit of the trace event anyway.  The child holds its own
 * program reference, dropped by perf_event_free_bpf_prog().
 */
void perf_event_inherit_bpf(struct perf_event *child,
			    struct perf_event *parent)
{
	struct bpf_prog *prog;

	if (perf_event_is_tracing(parent))
		return;

	rcu_read_lock();
	prog = READ_ONCE(parent->prog);
	/* a link may be dropping the parent's program right now */
	if (prog && !IS_ERR(bpf_prog_inc_not_zero(prog))) {
		child->bpf_cookie = parent->bpf_cookie;
		child->prog = prog;
	}
	rcu_read_unlock();
}

/* ---------------------------------------------------------------------
 * Attach and detach
 */

/* event->ctx->mutex held */
static int perf_event_attach_bpf(struct perf_event *event,
				 struct bpf_prog *prog, u64 bpf_cookie)
{
	lockdep_assert_held(&event->ctx->mutex);
	if (perf_event_is_tracing(event))
		return perf_bpf_attach_tracing(event, prog, bpf_cookie);
	return perf_bpf_attach_overflow(event, prog, bpf_cookie);
}

/**
 * perf_event_set_bpf_prog - attach a BPF program to an event
 * @event: the event
 * @prog: the program; on success the event uses the caller's reference
 * @bpf_cookie: what bpf_get_attach_cookie() returns to the program
 *
 * For BPF_LINK_CREATE of a perf event link.  Takes the event's context
 * mutex.
 *
 * Return: 0; -EEXIST if the event has a program already; -EINVAL for a
 * program type that does not fit the event (or an event that takes none);
 * -EACCES for a tracepoint program reading beyond the record; -EPROTO for
 * a program that unwinds stacks on a precise event without full
 * callchains; or the tracing side's error.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	struct perf_event_context *held = perf_event_ctx_lock(event);
	int err = perf_event_attach_bpf(event, prog, bpf_cookie);

	perf_event_ctx_unlock(event, held);
	return err;
}

/**
 * perf_event_free_bpf_prog - detach an event's BPF program
 * @event: the event
 *
 * Drops the program reference the event holds, taking a tracing event's
 * program off its trace event.  Used when a perf event link goes away and
 * when the event itself does.  Process context; may sleep.
 */
void perf_event_free_bpf_prog(struct perf_event *event)
{
	struct bpf_prog *prog;

	if (perf_event_is_tracing(event)) {
		perf_event_detach_bpf_prog(event);
		return;
	}

	prog = xchg(&event->prog, NULL);
	if (prog)
		bpf_prog_put(prog);
}

/**
 * perf_event_set_bpf_fd - PERF_EVENT_IOC_SET_BPF
 * @event: the event of the fd
 * @prog_fd: a BPF program fd
 *
 * Context: event->ctx->mutex held.
 *
 * Return: 0, with the event holding the program; an error from the fd
 * lookup or as perf_event_set_bpf_prog().
 */
int perf_event_set_bpf_fd(struct perf_event *event, u32 prog_fd)
{
	struct bpf_prog *prog;
	int err;

	lockdep_assert_held(&event->ctx->mutex);
	prog = bpf_prog_get(prog_fd);
	if (IS_ERR(prog))
		return PTR_ERR(prog);

	err = perf_event_attach_bpf(event, prog, 0);
	if (err)
		bpf_prog_put(prog);
	return err;
}

/* ---------------------------------------------------------------------
 * Events by file
 */

/**
 * perf_event_get - the perf event file behind a file descriptor
 * @fd: a descriptor of the calling task
 *
 * For BPF perf_event_array maps and perf event links, which keep the file
 * (and so the event) alive.
 *
 * Return: the file with a reference the caller drops with fput(), or
 * ERR_PTR(-EBADF) if @fd is not open or not a perf event.
 */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (file && is_perf_file(file))
		return file;
	if (file)
		fput(file);
	return ERR_PTR(-EBADF);
}

/**
 * perf_get_event - the event of a perf event file
 * @file: any file
 *
 * Return: the event, valid as long as the caller holds @file, or
 * ERR_PTR(-EINVAL) if @file is not a perf event.
 */
const struct perf_event *perf_get_event(struct file *file)
{
	return is_perf_file(file) ? file->private_data : ERR_PTR(-EINVAL);
}
