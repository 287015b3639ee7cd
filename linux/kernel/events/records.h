/* SPDX-License-Identifier: GPL-2.0 */
/* Side-band records (records.c). */
#ifndef _KERNEL_EVENTS_RECORDS_H
#define _KERNEL_EVENTS_RECORDS_H

#include <linux/atomic.h>
#include <linux/types.h>

struct cgroup;
struct perf_event;
struct task_struct;

/*
 * The kinds of side-band record an event can ask for.  Each has a count of
 * the events, in any context, that take it; a hook whose count is zero
 * returns at once.
 */
enum perf_sb_kind {
	PERF_SB_MMAP,		/* MMAP, MMAP2: attr.mmap, .mmap2, .mmap_data */
	PERF_SB_BUILD_ID,	/* MMAP2 carries build ids: attr.build_id */
	PERF_SB_COMM,		/* COMM: attr.comm */
	PERF_SB_TASK,		/* FORK, EXIT: attr.task, .comm and the mmaps */
	PERF_SB_NAMESPACES,	/* NAMESPACES: attr.namespaces */
	PERF_SB_CGROUP,		/* CGROUP: attr.cgroup */
	PERF_SB_KSYMBOL,	/* KSYMBOL: attr.ksymbol */
	PERF_SB_BPF,		/* BPF_EVENT: attr.bpf_event */
	PERF_SB_TEXT_POKE,	/* TEXT_POKE: attr.text_poke */
	PERF_SB_SWITCH,		/* SWITCH, SWITCH_CPU_WIDE: attr.context_switch */
	PERF_SB_CALLCHAIN_DEFERRED, /* CALLCHAIN_DEFERRED: attr.defer_output */
	PERF_SB_NR_KINDS
};

extern atomic_t perf_sb_listeners[PERF_SB_NR_KINDS];

static inline bool perf_sb_wanted(enum perf_sb_kind kind)
{
	return atomic_read(&perf_sb_listeners[kind]) != 0;
}

/* The cheap test context.c makes before perf_event_switch_record(). */
static inline bool perf_sb_switch_wanted(void)
{
	return perf_sb_wanted(PERF_SB_SWITCH);
}

/*
 * An event was installed in / is leaving its context (ctx->mutex held):
 * if it asks for side-band records, it is (no longer) sent them.  A task
 * event (ctx->task set) is listed in its context, a CPU-wide one on its
 * CPU.  Detaching an event that was never attached does nothing.
 */
void perf_sb_event_attach(struct perf_event *event);
void perf_sb_event_detach(struct perf_event *event);

/*
 * Context switch of @task on this CPU (IRQs off, rq lock held): SWITCH and
 * SWITCH_CPU_WIDE records.  @other is next when switching out, prev when
 * switching in.  Call it while @task is current: before its context goes
 * off the CPU when switching out, after it came on when switching in.
 */
void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *other, bool sched_in);
/* THROTTLE (@enable 0) and UNTHROTTLE (1) records; any context, NMI too */
void perf_log_throttle(struct perf_event *event, int enable);
/*
 * EXIT record of @task (== current), from perf_event_exit_task() before
 * task->perf_event_ctxp is cleared and before its events go.
 */
void perf_event_exit_record(struct task_struct *task);
/*
 * PERF_RECORD_READ for an inherit_stat child event of exiting @task; the
 * child's ctx->mutex held, the child scheduled out and still in its group.
 */
void perf_event_read_record(struct perf_event *child, struct task_struct *task);
/*
 * ITRACE_START, the first time an event of a PERF_PMU_CAP_ITRACE PMU goes
 * on: event_sched_in() calls it before pmu->add() (ctx->lock held).
 */
void perf_log_itrace_start(struct perf_event *event);

#ifdef CONFIG_CGROUP_PERF
/* CGROUP record: @cgrp came online (the controller's css_online). */
void perf_event_cgroup_record(struct cgroup *cgrp);
#else
static inline void perf_event_cgroup_record(struct cgroup *cgrp)
{
}
#endif

#endif /* _KERNEL_EVENTS_RECORDS_H */
