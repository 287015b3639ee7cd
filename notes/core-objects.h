/*
 * ===== Core objects (designed by the core; keep field names and meanings,
 * ===== arrange and comment as you like; add driver-facing fields that
 * ===== make compat needs, grouped and commented) =====
 */

/* Values of perf_event::state (an ABI fact shared with drivers). */
enum perf_event_state {
	PERF_EVENT_STATE_DEAD		= -4,
	PERF_EVENT_STATE_EXIT		= -3,
	PERF_EVENT_STATE_ERROR		= -2,
	PERF_EVENT_STATE_OFF		= -1,
	PERF_EVENT_STATE_INACTIVE	=  0,
	PERF_EVENT_STATE_ACTIVE		=  1,
};

/*
 * One PMU's share of a context: the groups of that PMU in that context.
 * Drivers see ->pmu and ->task_ctx_data (sched_task/swap_task_ctx).
 */
struct perf_event_pmu_context {
	struct pmu			*pmu;
	struct perf_event_context	*ctx;
	struct list_head		pmu_ctx_entry;	/* in ctx->pmu_ctx_list */
	struct list_head		pinned_groups;	/* leaders, by group_entry */
	struct list_head		flexible_groups;
	int				nr_events;	/* leaders and siblings */
	int				nr_active;	/* groups on the PMU */
	int				nr_groups_cpu;	/* leaders with cpu >= 0 */
	unsigned int			embedded : 1;	/* in perf_cpu_pmu_context */
	unsigned int			rotate_necessary : 1;
	atomic_t			refcount;
	void				*task_ctx_data;	/* pmu->task_ctx_size bytes */
	struct rcu_head			rcu_head;
};

/*
 * A context: the events of one task, or the CPU-wide events of one CPU.
 * The locking rules are at the top of kernel/events/context.c.
 */
struct perf_event_context {
	raw_spinlock_t			lock;
	struct mutex			mutex;
	struct list_head		pmu_ctx_list;
	struct list_head		event_list;	/* every event, by event_entry */
	int				nr_events;
	int				nr_user;	/* events with attr.exclude_user == 0?: see below */
	int				nr_stat;	/* inherit_stat events */
	int				nr_freq;
	int				nr_task_data;
	int				is_active;	/* EVENT_* of internal.h */
	int				nr_active;
	struct task_struct		*task;		/* NULL: a CPU context */
	int				cpu;		/* CPU context: its CPU */
	u64				time;		/* time the context was active */
	u64				timestamp;	/* perf_clock() at the last update */
	struct perf_event_context	*parent_ctx;	/* inherited from */
	u64				parent_gen;
	u64				generation;
	int				pin_count;
	refcount_t			refcount;
	struct rcu_head			rcu_head;
};

/*
 * nr_user is read by arm64's PMUv3 driver (user access to counters): the
 * number of events in the context that asked for attr.config1 bit 1
 * (rdpmc-style user access).  The core keeps it at 0 until mmap lands.
 */

struct perf_event {
	/* ---- place in a context: ctx->mutex to change, ctx->lock to
	 * change while the context may be active ---- */
	struct list_head		event_entry;	/* ctx->event_list */
	struct list_head		group_entry;	/* leaders: epc group list */
	struct list_head		sibling_list;	/* leader: head; sibling: link */
	struct list_head		active_entry;	/* free for the PMU driver */
	struct hlist_node		hlist_entry;	/* software PMU hash */
	struct list_head		migrate_entry;	/* perf_pmu_migrate_context */
	int				nr_siblings;
	int				group_generation;
	struct perf_event		*group_leader;
	unsigned int			group_caps;
	unsigned int			event_caps;	/* PERF_EV_CAP_* */
	struct perf_event_context	*ctx;
	struct perf_event_pmu_context	*pmu_ctx;

	/* ---- the PMU ---- */
	struct pmu			*pmu;
	void				*pmu_private;
	struct hw_perf_event		hw;

	/* ---- state and counts: ctx->lock ---- */
	enum perf_event_state		state;
	unsigned int			attach_state;	/* PERF_ATTACH_* */
	int				oncpu;		/* -1 when not on a PMU */
	int				cpu;		/* asked for, -1: any */
	local64_t			count;
	atomic64_t			child_count;	/* exited children */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;		/* ctx time of the last update */
	atomic64_t			child_total_time_enabled;
	atomic64_t			child_total_time_running;

	struct perf_event_attr		attr;
	u16				header_size;
	u16				id_header_size;
	u16				read_size;

	/* ---- lifetime ---- */
	atomic_long_t			refcount;
	struct file			*filp;
	u64				id;		/* PERF_EVENT_IOC_ID */
	void (*destroy)(struct perf_event *event);
	struct rcu_head			rcu_head;
	struct pid_namespace		*ns;

	/* ---- inheritance: child_mutex ---- */
	struct perf_event		*parent;
	struct mutex			child_mutex;
	struct list_head		child_list;
	struct list_head		child_entry;	/* parent->child_list */

	/* ---- owner task, for prctl(PR_TASK_PERF_EVENTS_*) ---- */
	struct task_struct		*owner;
	struct list_head		owner_entry;

	/* ---- overflow ---- */
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;
	atomic_t			event_limit;	/* REFRESH */
	int				pending_kill;
	atomic64_t			lost_samples;
	u64				(*clock)(void);

	/* plus: rb/mmap, aux, addr filters, bpf prog + bpf_cookie,
	 * tracepoint (tp_event, filter, ftrace_ops), security, cgrp ... as
	 * drivers and callers need them (make compat). */
};
