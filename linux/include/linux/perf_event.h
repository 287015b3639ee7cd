/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel side of perf events: what PMU drivers, the scheduler, mm,
 * tracing, BPF, KVM and the security modules share with the perf core in
 * kernel/events/.
 *
 * Layout of this file, by concern:
 *   1. sample payloads (callchains, raw data, branch stacks)
 *   2. the PMU driver interface: struct hw_perf_event, struct pmu
 *   3. address range filters
 *   4. the core objects: events, contexts, per-PMU sub-contexts
 *   5. output handles, the BPF view of a sample, the perf cgroup
 *   6. functions and inline helpers (with stubs for !CONFIG_PERF_EVENTS)
 *   7. sysfs helpers for PMU drivers, CPU hotplug, arch hooks
 *
 * Per-CPU bookkeeping of the core (struct perf_cpu_context and struct
 * perf_cpu_pmu_context) is private to kernel/events/internal.h.
 */
#ifndef _LINUX_PERF_EVENT_H
#define _LINUX_PERF_EVENT_H

#include <uapi/linux/bpf_perf_event.h>
#include <uapi/linux/perf_event.h>

#ifdef CONFIG_HAVE_HW_BREAKPOINT
# include <asm/hw_breakpoint.h>
# include <linux/rhashtable-types.h>
#endif

#ifdef CONFIG_PERF_EVENTS
# include <asm/local64.h>
# include <asm/perf_event.h>
#endif

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/static_call.h>
#include <linux/static_key.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <asm/local.h>

struct bpf_prog;
struct file;
struct perf_buffer;
struct perf_cgroup;
struct perf_cpu_pmu_context;
struct perf_event;
struct perf_event_context;
struct perf_event_pmu_context;
struct perf_output_handle;
struct perf_sample_data;
struct task_struct;

/*
 * A hypervisor (KVM, Xen) tells perf whether the current CPU is running a
 * guest, so that samples taken there are attributed to the guest.
 */
struct perf_guest_info_callbacks {
	unsigned long		(*get_ip)(void);	/* the guest's IP */
	unsigned int		(*state)(void);		/* PERF_GUEST_* bits */
	unsigned int		(*handle_intel_pt_intr)(void);
};

#define PERF_GUEST_ACTIVE	0x01	/* a guest is running here */
#define PERF_GUEST_USER		0x02	/* ... in its user mode */

/*
 * ---------------------------------------------------------------------
 * 1. Sample payloads
 * ---------------------------------------------------------------------
 */

/* Cursor used by the arch stack walkers while they fill an entry. */
struct perf_callchain_entry_ctx {
	struct perf_callchain_entry	*entry;
	u32				nr;		/* frames stored */
	u32				max_stack;	/* room for frames */
	bool				contexts_maxed;	/* no room for more markers */
	short				contexts;	/* PERF_CONTEXT_* markers stored */
};

/*
 * A callchain as it goes to user space: the count, then the addresses
 * (at most sysctl_perf_event_max_stack of them, plus context markers).
 */
struct perf_callchain_entry {
	__u64			nr;
	__u64			ip[];
};

/*
 * Taken branches, newest first in entries[].  hw_idx is the hardware's
 * own index of entries[0] in its branch buffer (0 when the buffer is kept
 * in age order anyway, -1ULL when unknown).
 */
struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
	struct perf_branch_entry	entries[];
};

/*
 * Raw sample data may come in pieces (e.g. a BPF program's buffer after a
 * header); each piece says how to copy itself.
 */
typedef unsigned long (*perf_copy_f)(void *dst, const void *src,
				     unsigned long off,
				     unsigned long len);

struct perf_raw_frag {
	/*
	 * Not the last piece: the next one.  The last piece: the padding
	 * that rounds the record up to u64 (always below 8).  First, as
	 * initializers fill it in without naming it.
	 */
	union {
		unsigned long		pad;
		struct perf_raw_frag	*next;
	};
	void				*data;
	perf_copy_f			copy;	/* NULL: plain memcpy */
	u32				size;
} __packed;

struct perf_raw_record {
	u32				size;	/* all pieces plus padding */
	struct perf_raw_frag		frag;	/* the first piece */
};

/* No real pointer is that small, so a small value marks the last piece. */
static __always_inline bool perf_raw_frag_last(const struct perf_raw_frag *frag)
{
	return frag->pad < (unsigned long)sizeof(u64);
}

/*
 * ---------------------------------------------------------------------
 * 2. The PMU driver interface
 * ---------------------------------------------------------------------
 */

/* An extra register a hardware event needs (x86 offcore, LBR select...). */
struct hw_perf_event_extra {
	u64		config;	/* the value to write there */
	unsigned int	reg;	/* which register (MSR or index) */
	int		idx;	/* slot in the driver's shared table */
	int		alloc;	/* the slot is held */
};

/*
 * hw_perf_event::flags: the low bits are the arch driver's; the core keeps
 * PERF_EVENT_FLAG_USER_READ_CNT for counters user space may read directly.
 */
#define PERF_EVENT_FLAG_USER_READ_CNT		0x80000000
#define PERF_EVENT_FLAG_ARCH			0x000fffff
static_assert(!(PERF_EVENT_FLAG_ARCH & PERF_EVENT_FLAG_USER_READ_CNT));

/* hw_perf_event::state, kept by the driver in step with PERF_EF_* */
#define PERF_HES_STOPPED	0x01	/* not counting */
#define PERF_HES_UPTODATE	0x02	/* event->count has the last value */
#define PERF_HES_ARCH		0x04	/* for the driver's own use */

/*
 * The driver's per-event state.  The first union holds what one kind of
 * PMU needs; a driver uses only its own member.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	union {
		/* CPU and uncore counters */
		struct {
			unsigned long	config_base;	/* control register */
			unsigned long	event_base;	/* counter register */
			u64		config;		/* control value */
			u64		last_tag;	/* assignment generation */
			int		idx;		/* counter index */
			int		event_base_rdpmc; /* rdpmc index */
			int		last_cpu;	/* CPU of last assignment */
			int		flags;		/* PERF_EVENT_FLAG_* */
			struct hw_perf_event_extra branch_reg;
			struct hw_perf_event_extra extra_reg;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		/* breakpoints: filled in before the event has a context */
		struct {
			struct rhlist_head		bp_list;
			struct arch_hw_breakpoint	info;
		};
#endif
		/* AMD IOMMU counters */
		struct {
			u64	conf;
			u64	conf1;
			u8	iommu_bank;
			u8	iommu_cntr;
			u16	padding;
		};
		/* AMD power accumulator */
		struct {
			u64	ptsc;
			u64	pwr_acc;
		};
		/* tracepoint events: node on the tracepoint's list */
		struct { struct list_head tp_list; };
		/* hrtimer-driven software events */
		struct { struct hrtimer hrtimer; };
		/* AUX area PMUs (Intel PT, CoreSight, SPE ...) */
		struct {
			/*
			 * Set and cleared outside the event's state
			 * changes (PERF_EF_PAUSE/RESUME), so kept apart.
			 */
			unsigned int	aux_paused;
			u64		aux_config;
		};
	};

	int				state;		/* PERF_HES_* */

	/*
	 * Raw counter value at the last read; updated with cmpxchg so that
	 * a read may interrupt another one.
	 */
	local64_t			prev_count;

	/* the task of a per-task event (set by the core before event_init) */
	struct task_struct		*target;

	u64				sample_period;	/* next period */
	union {
		/* Intel topdown metrics, saved over context switches */
		struct {
			u64		saved_slots;
			u64		saved_metric;
		};
		/* sampling events */
		struct {
			local64_t	period_left;	/* rest of it (64 bit) */
			u64		last_period;	/* period now running */
		};
	};

	/* throttling: interrupts in the current tick */
	u64				interrupts;
	u64				interrupts_seq;

	/* frequency mode: where the last period adjustment started */
	u64				freq_count_stamp;
	u64				freq_time_stamp;

	/* the driver's translation of the address filters, and its version */
	void				*addr_filters;
	unsigned long			addr_filters_gen;
#endif
};

/* pmu::start_txn() flags: what a transaction is for */
#define PERF_PMU_TXN_READ	0x2	/* reading a group */
#define PERF_PMU_TXN_ADD	0x1	/* adding a group */

/* pmu::capabilities: what the hardware can and cannot do */
#define PERF_PMU_CAP_NO_INTERRUPT	0x0001	/* cannot sample */
#define PERF_PMU_CAP_NO_NMI		0x0002	/* interrupt is not an NMI */
#define PERF_PMU_CAP_NO_EXCLUDE		0x0040	/* cannot honour exclude_* bits */
#define PERF_PMU_CAP_EXCLUSIVE		0x0010	/* one event per CPU at a time */
#define PERF_PMU_CAP_EXTENDED_REGS	0x0008	/* sample_regs beyond the basic set */
#define PERF_PMU_CAP_EXTENDED_HW_TYPE	0x0100	/* PMU type in config[63:32] */
/* ... and for AUX area (instruction trace) PMUs */
#define PERF_PMU_CAP_ITRACE		0x0020	/* instruction trace */
#define PERF_PMU_CAP_AUX_NO_SG		0x0004	/* one contiguous run of pages */
#define PERF_PMU_CAP_AUX_PREFER_LARGE	0x0400	/* large pages preferred */
#define PERF_PMU_CAP_AUX_OUTPUT		0x0080	/* can be an aux_output target */
#define PERF_PMU_CAP_AUX_PAUSE		0x0200	/* PERF_EF_PAUSE/RESUME */

/* pmu::scope: which CPUs share one set of this PMU's counters */
enum perf_pmu_scope {
	PERF_PMU_SCOPE_NONE	= 0,	/* the driver decides */
	PERF_PMU_SCOPE_CORE	= 1,
	PERF_PMU_SCOPE_DIE	= 2,
	PERF_PMU_SCOPE_CLUSTER	= 3,
	PERF_PMU_SCOPE_PKG	= 4,
	PERF_PMU_SCOPE_SYS_WIDE	= 5,
	PERF_PMU_MAX_SCOPE	= 6,
};

/* pmu::dev value of a PMU that has no device in sysfs */
#define PMU_NULL_DEV	((void *)(~0UL))

/* ->add(), ->del(), ->start(), ->stop() flags */
#define PERF_EF_START	0x01	/* add: start counting at once */
#define PERF_EF_UPDATE	0x04	/* stop: fold the counter into count */
#define PERF_EF_RELOAD	0x02	/* start: reprogram from period_left */
#define PERF_EF_PAUSE	0x08	/* stop: pause AUX tracing, nothing else */
#define PERF_EF_RESUME	0x10	/* start: resume AUX tracing */

/*
 * struct pmu - a performance monitoring unit, as a driver registers it
 *
 * The callbacks that touch hardware run with IRQs off on the CPU where the
 * event is (maybe in NMI for start/stop/read).  add() and del() from the
 * scheduling code run inside pmu_disable()/pmu_enable(); start(), stop()
 * and read() may also come without it (address filter restarts, AUX
 * pause/resume, perf_event_read_local()).  Optional ones may be left NULL.
 */
struct pmu {
	/* identity and sysfs */
	const char			*name;
	int				type;		/* attr.type it answers */
	struct module			*module;
	struct device			*parent;
	struct device			*dev;
	const struct attribute_group	**attr_groups;
	const struct attribute_group	**attr_update;

	int				capabilities;	/* PERF_PMU_CAP_* */
	unsigned int			scope;		/* enum perf_pmu_scope */
	unsigned int			nr_addr_filters;
	int				task_ctx_nr;	/* perf_hw_context or perf_sw_context */
	int				hrtimer_interval_ms; /* multiplexing period */

	/* core bookkeeping */
	struct list_head		entry;		/* core's list of PMUs */
	struct perf_cpu_pmu_context __percpu *cpu_pmu_context;
	int __percpu			*pmu_disable_count;
	atomic_t			exclusive_cnt;	/* <0: CPU, >0: task events */
	/*
	 * Its events (by pmu_list) and its task sub-contexts (by
	 * pmu_epc_entry), for perf_pmu_unregister() to revoke.
	 */
	spinlock_t			events_lock;
	struct list_head		events;
	struct list_head		task_epcs;

	/*
	 * Claim and check a new event: 0 if it is this PMU's and valid;
	 * -ENOENT if it belongs to another PMU; anything else is final
	 * (-ENODEV, -EINVAL, -EOPNOTSUPP, -EACCES, -EBUSY ...).
	 */
	int (*event_init)(struct perf_event *event);

	/*
	 * Give the event a counter (add) or take it back (del).  add()
	 * without PERF_EF_START leaves it stopped; del() always updates
	 * the count, as stop() with PERF_EF_UPDATE does.
	 */
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);

	/* fold the hardware counter into event->count */
	void (*read)(struct perf_event *event);

	/*
	 * Run or halt a counter that has been added.  stop() with
	 * PERF_EF_UPDATE also reads it; start() with PERF_EF_RELOAD
	 * reprograms it.  PERF_EF_PAUSE/RESUME only pause AUX tracing and
	 * may race with other start()/stop() calls, not with themselves.
	 */
	void (*stop)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);

	/* optional: stop and restart the whole unit on this CPU */
	void (*pmu_disable)(struct pmu *pmu);
	void (*pmu_enable)(struct pmu *pmu);

	/*
	 * Optional group transactions: add() calls between start_txn() and
	 * commit_txn() may skip the schedulability test, which commit_txn()
	 * makes for the group as a whole.  If it fails, the core del()s
	 * what was added and calls cancel_txn().
	 */
	void (*start_txn)(struct pmu *pmu, unsigned int txn_flags);
	void (*cancel_txn)(struct pmu *pmu);
	int (*commit_txn)(struct pmu *pmu);

	/* optional: true if this PMU has no counters on @cpu */
	bool (*filter)(struct pmu *pmu, int cpu);

	/* optional: is @value fine for PERF_EVENT_IOC_PERIOD? */
	int (*check_period)(struct perf_event *event, u64 value);

	/* optional: perf_event_mmap_page::index (0 if absent) */
	int (*event_idx)(struct perf_event *event);

	/* optional: the event's buffer was mmap()ed or unmapped in @mm */
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);

	/* optional: a task with this PMU's events is switched in or out */
	void (*sched_task)(struct perf_event_pmu_context *pmu_ctx,
			   struct task_struct *task, bool sched_in);

	/* optional: two clone contexts swap tasks; swap their driver data */
	void (*swap_task_ctx)(struct perf_event_pmu_context *prev_epc,
			      struct perf_event_pmu_context *next_epc);

	/* per-task driver data (epc->task_ctx_data) comes from here */
	struct kmem_cache		*task_ctx_cache;

	/* optional: AUX buffer set-up (tear-down: free_aux() below) */
	void *(*setup_aux)(struct perf_event *event, void **pages,
			   int nr_pages, bool overwrite);

	/*
	 * optional: copy up to @size bytes of AUX data into @handle without
	 * disturbing the event (called from the PMU interrupt); returns the
	 * bytes copied.
	 */
	long (*snapshot_aux)(struct perf_event *event,
			     struct perf_output_handle *handle,
			     unsigned long size);
	void (*free_aux)(void *aux);

	/* optional: may @event (of another PMU) send aux_output to this one? */
	int (*aux_output_match)(struct perf_event *event);

	/* optional: may the hardware do these address filters? 0 or -errno */
	int (*addr_filters_validate)(struct list_head *filters);
	/* optional: turn event->addr_filters into event->hw.addr_filters */
	void (*addr_filters_sync)(struct perf_event *event);
};

/*
 * ---------------------------------------------------------------------
 * 3. Address range filters (instruction trace PMUs)
 * ---------------------------------------------------------------------
 */

enum perf_addr_filter_action_t {
	PERF_ADDR_FILTER_ACTION_STOP	= 0,
	PERF_ADDR_FILTER_ACTION_START	= 1,
	PERF_ADDR_FILTER_ACTION_FILTER	= 2,
};

/* One filter as the user wrote it, before it is mapped to addresses. */
struct perf_addr_filter {
	enum perf_addr_filter_action_t	action;
	unsigned long		offset;
	unsigned long		size;		/* 0: a single address */
	struct path		path;		/* object file, if file based */
	struct list_head	entry;		/* in perf_addr_filters_head */
};

/* Where a file-based filter lands in the address space now. */
struct perf_addr_filter_range {
	unsigned long		start;
	unsigned long		size;
};

/*
 * The filters of an event.  Inherited events share their parent's, lock
 * included (see perf_event_addr_filters()).
 */
struct perf_addr_filters_head {
	raw_spinlock_t		lock;	/* list and filter generations */
	struct list_head	list;
	unsigned int		nr_file_filters;
};

/*
 * ---------------------------------------------------------------------
 * 4. The core objects
 * ---------------------------------------------------------------------
 */

/* Values of perf_event::state. */
enum perf_event_state {
	PERF_EVENT_STATE_ACTIVE		=  1,	/* counting on a PMU */
	PERF_EVENT_STATE_INACTIVE	=  0,	/* enabled, not on a PMU */
	PERF_EVENT_STATE_OFF		= -1,	/* disabled */
	PERF_EVENT_STATE_ERROR		= -2,	/* cannot be scheduled */
	PERF_EVENT_STATE_EXIT		= -3,	/* its task exited */
	PERF_EVENT_STATE_REVOKED	= -4,	/* its PMU went away */
	PERF_EVENT_STATE_DEAD		= -5,	/* being freed */
};

/* Called on overflow (in NMI or IRQ context for hardware PMUs). */
typedef void (*perf_overflow_handler_t)(struct perf_event *event,
					struct perf_sample_data *data,
					struct pt_regs *regs);

/*
 * perf_event::event_caps (one event) and group_caps (what every event of
 * the group has):
 */
#define PERF_EV_CAP_SOFTWARE		BIT(0)	/* a software event */
/* may be read from any CPU of the package it counts on */
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)
/* may be read from any CPU of its PMU's scope */
#define PERF_EV_CAP_READ_SCOPE		BIT(3)
/* only valid inside a group; left alone, it goes to ERROR */
#define PERF_EV_CAP_SIBLING		BIT(2)
/* core: counted by a software PMU in one step (perf_pmu_counts_in_software) */
#define PERF_EV_CAP_SW_COUNTS		BIT(4)

/* perf_event::attach_state: what the event is tied to */
#define PERF_ATTACH_TASK	0x0004	/* a per-task event */
#define PERF_ATTACH_CHILD	0x0040	/* inherited */
#define PERF_ATTACH_CONTEXT	0x0001	/* installed in a context */
#define PERF_ATTACH_GROUP	0x0002	/* linked into a group */
#define PERF_ATTACH_TASK_DATA	0x0008	/* needs epc->task_ctx_data */
#define PERF_ATTACH_SCHED_CB	0x0020	/* holds a perf_sched_cb_inc() */
#define PERF_ATTACH_EXCLUSIVE	0x0080	/* holds pmu->exclusive_cnt */
#define PERF_ATTACH_ITRACE	0x0010	/* an instruction trace event */
#define PERF_ATTACH_CALLCHAIN	0x0100	/* holds the callchain buffers */
#define PERF_ATTACH_PARKED	0x0200	/* an off leader: on epc->off_groups */
#define PERF_ATTACH_STAYS_ON	0x0400	/* counted in epc->nr_stay_on */

/*
 * One PMU's share of a context: that PMU's groups in that context.
 * Reference counted (events hold it), freed after RCU.  Its group lists
 * and ctx->pmu_ctx_list change under ctx->lock (multiplexing reorders the
 * groups from an hrtimer), so readers hold ctx->lock.
 * Drivers see ->pmu and ->task_ctx_data (sched_task/swap_task_ctx).
 */
struct perf_event_pmu_context {
	struct pmu			*pmu;
	struct perf_event_context	*ctx;
	struct list_head		pmu_ctx_entry;	/* in ctx->pmu_ctx_list */
	struct list_head		pmu_epc_entry;	/* task's: pmu->task_epcs */

	/*
	 * Group leaders that may run on any CPU, linked by their group_entry;
	 * in a task context, those bound to one CPU are in the trees instead,
	 * by their group_node, keyed by (cpu, group_seq).
	 */
	union {
		struct list_head	pinned_groups;
		/*
		 * A task context's sub-context is freed after a grace
		 * period, once no event refers to it: it has no group then,
		 * and whoever may still read it (perf_sw_event() through
		 * task_epc) reads sw_on_pmu, not the groups.
		 */
		struct rcu_head		rcu_head;
	};
	struct list_head		flexible_groups;
	struct rb_root			pinned_cpu_groups;
	struct rb_root			flexible_cpu_groups;
	/* leaders that are off, pinned or not: in no walk */
	struct list_head		off_groups;
	u64				group_seq;	/* the last one given */

	int				nr_events;	/* leaders and siblings */
	int				nr_active;	/* groups on the PMU */
	int				nr_cgroups;	/* cgroup events */
	/* events that may stay on while their task is out (context.c) */
	int				nr_stay_on;
	/* the CPU it stayed on at when its task last went out, else -1 */
	int				stayed_cpu;
	unsigned int			embedded : 1;	/* in perf_cpu_pmu_context */
	unsigned int			revoked : 1;	/* its PMU went away */
	unsigned int			rotate_necessary : 1; /* a group did not fit */

	atomic_t			refcount;
	union {
		/* from pmu->task_ctx_cache, for the drivers that have one */
		void			*task_ctx_data;
		/*
		 * The software PMU's sub-context of a task context: its
		 * events on the PMU, of every counter (swevent.c).
		 */
		struct hlist_head	sw_on_pmu;
	};
};

/*
 * A context: the events of one task, or the CPU-wide events of one CPU.
 * The locking rules are at the top of kernel/events/context.c.
 */
struct perf_event_context {
	struct mutex			mutex;		/* sleeping, taken first */
	raw_spinlock_t			lock;		/* IRQs off, taken second */
	refcount_t			refcount;

	struct list_head		event_list;	/* every event, by event_entry */
	struct list_head		pmu_ctx_list;	/* perf_event_pmu_contexts */

	struct task_struct		*task;		/* NULL: a CPU context */
	/* bumped when an event joins or leaves, or a leader goes off or on */
	unsigned long			groups_gen;

	int				nr_events;
	int				nr_queued;	/* leaders that are not off */
	int				nr_active;
	int				is_active;	/* EVENT_* of internal.h */
	/*
	 * Events whose PMU lets user space read their counter directly
	 * (PERF_EVENT_FLAG_USER_READ_CNT); arm64's PMUv3 opens EL0 access
	 * on context switch while there are any.
	 */
	int				nr_user;
	int				nr_stat;	/* inherit_stat events */
	int				nr_freq;
	int				nr_cgroups;	/* cgroup events */
	/* changed under ctx->lock while inactive, since it was last active */
	u8				changed_out;
	/* task context: its sub-contexts of hardware PMUs (context.c) */
	u16				nr_hw_epcs;
	/* events with a buffer (user pages), under their mmap_mutexes */
	atomic_t			nr_mapped;

	u64				time;		/* time the context was active */
	u64				timestamp;	/* perf_clock() at the last update */
	u64				timeoffset;	/* time - timestamp, for NMI */

	/* task context: its events that take side-band records (records.c) */
	struct hlist_head		sb_events;

	struct rcu_head			rcu_head;
};

/*
 * struct perf_event - one counter, as the kernel sees it
 *
 * Placement in a context (the list heads, ctx, pmu_ctx) changes under
 * ctx->mutex, and also under ctx->lock while the context may be active;
 * state, counts and times change under ctx->lock.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/* ---- place in a context ---- */
	struct list_head		event_entry;	/* ctx->event_list */
	struct list_head		group_entry;	/* leaders: epc group list */
	struct rb_node			group_node;	/* or: epc group tree */
	u64				group_seq;	/* order among the leaders */
	struct list_head		sibling_list;	/* leader: head; sibling: link */
	struct list_head		active_entry;	/* free for the PMU driver */
	struct hlist_node		hlist_entry;	/* software/tracepoint hash */
	struct list_head		migrate_entry;	/* perf_pmu_migrate_context */
	int				nr_siblings;
	int				group_generation;
	struct perf_event		*group_leader;
	unsigned int			group_caps;	/* AND of the group's event_caps */
	unsigned int			event_caps;	/* PERF_EV_CAP_*, set at init */
	struct perf_event_context	*ctx;
	/*
	 * The sub-context the event is scheduled in; a software event in
	 * a hardware group sits in the leader's PMU's one.
	 */
	struct perf_event_pmu_context	*pmu_ctx;

	/* ---- the PMU ---- */
	struct pmu			*pmu;		/* always the event's own */
	struct list_head		pmu_list;	/* pmu->events */
	void				*pmu_private;	/* the driver's */
	struct hw_perf_event		hw;

	/* ---- state and counts (ctx->lock) ---- */
	enum perf_event_state		state;
	unsigned int			attach_state;	/* PERF_ATTACH_* */
	int				oncpu;		/* -1 when not on a PMU */
	int				cpu;		/* asked for, -1: any */
	local64_t			count;
	/* nanoseconds enabled (may count) and running (on a PMU) */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;		/* ctx time of the last update */
	/* what exited children left behind */
	atomic64_t			child_count;
	atomic64_t			child_total_time_enabled;
	atomic64_t			child_total_time_running;

	struct perf_event_attr		attr;
	__u32				orig_type;	/* attr.type as the user gave it */
	u16				header_size;
	u16				id_header_size;
	u16				read_size;
	bool				has_ftrace_ops;	/* allocated whole (event.c) */

	/* ---- lifetime ---- */
	atomic_long_t			refcount;
	struct file			*filp;
	u64				id;		/* PERF_EVENT_IOC_ID */
	void (*destroy)(struct perf_event *event);
	union {
		/* on perf_event_put_deferred()'s list, then freed by RCU */
		struct llist_node	free_entry;
		struct rcu_head		rcu_head;
	};
	struct pid_namespace		*ns;

	/* ---- inheritance (child_mutex) ---- */
	struct perf_event		*parent;
	struct mutex			child_mutex;	/* child_list */
	struct list_head		child_list;
	struct list_head		child_entry;	/* parent->child_list */

	/* ---- owner task, for prctl(PR_TASK_PERF_EVENTS_*) ---- */
	struct task_struct		*owner;
	struct list_head		owner_entry;

	/* ---- overflow ---- */
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;
	atomic_t			event_limit;	/* IOC_REFRESH */
	int				pending_kill;	/* POLL_* for the signal */
	atomic64_t			lost_samples;
	u64				(*clock)(void);

	/*
	 * Work an overflow (possibly in NMI) leaves for later: wakeups and
	 * disabling in pending_irq (IRQ work, on the event's CPU), SIGTRAP
	 * in pending_task (task work of the task that overflowed).
	 * kernel/events/overflow.c.
	 */
	wait_queue_head_t		waitq;		/* poll() and read waiters */
	struct fasync_struct		*fasync;	/* O_ASYNC owners */
	struct irq_work			pending_irq;
	struct callback_head		pending_task;
	unsigned int			pending_wakeup;
	unsigned int			pending_disable;
	unsigned int			pending_work;	/* pending_task queued */
	u64				pending_addr;	/* SIGTRAP si_addr */

	/*
	 * ---- ring buffer and AUX ----
	 * rb is the buffer the event writes to: its own mmap()ed one or the
	 * one SET_OUTPUT sent it to.  It changes under mmap_mutex and is
	 * read under RCU by writers (kernel/events/ring_buffer.c).
	 */
	struct mutex			mmap_mutex;	/* rb, rb_entry, mmap_count */
	struct perf_buffer		*rb;
	struct list_head		rb_entry;	/* on rb's list of writers */
	atomic_t			mmap_count;	/* mappings of this fd */
	/* RCU state when the event left a buffer's list, if not yet past */
	unsigned long			rb_left_gp;
	bool				rb_left_pending;
	struct perf_event		*aux_event;	/* aux_output: the AUX leader */

	/*
	 * ---- side-band records (kernel/events/records.c) ----
	 * While the event sits in a context and asks for records, sb_entry
	 * links it into the list records are delivered from: its CPU's list
	 * for a CPU-wide event, its task context's sb_events otherwise.
	 * sb_kinds says which kinds of record it is sent.
	 */
	struct hlist_node		sb_entry;
	unsigned int			sb_kinds;

	/* ---- address range filters ---- */
	struct perf_addr_filters_head	addr_filters;
	struct perf_addr_filter_range	*addr_filter_ranges; /* file filters' VMAs */
	unsigned long			addr_filters_gen;

#ifdef CONFIG_SECURITY
	void				*security;	/* LSM blob */
#endif

#ifdef CONFIG_CGROUP_PERF
	struct perf_cgroup		*cgrp;		/* the cgroup it counts in */
#endif

	/* ---- BPF program attached to the event ---- */
	u64				bpf_cookie;
	struct bpf_prog			*prog;

#ifdef CONFIG_EVENT_TRACING
	/* ---- tracepoint, kprobe and uprobe events ---- */
	struct event_filter		*filter;
	struct trace_event_call		*tp_event;
#ifdef CONFIG_FUNCTION_TRACER
	/*
	 * Last, and there only in events that may become function trace
	 * events (those opened as PERF_TYPE_TRACEPOINT, has_ftrace_ops):
	 * every other event is allocated without it.
	 */
	struct ftrace_ops		ftrace_ops;
#endif
#endif
#endif /* CONFIG_PERF_EVENTS */
};

/*
 * The head of @event's sibling list if it leads a group, an empty list if
 * not.  Walking it needs ctx->mutex, or IRQs off on the CPU that owns the
 * context (changes reach a live context there under ctx->lock).
 */
#ifdef CONFIG_PERF_EVENTS
static inline struct list_head *perf_event_siblings(struct perf_event *event)
{
	static struct list_head no_siblings = LIST_HEAD_INIT(no_siblings);

#ifdef CONFIG_PROVE_LOCKING
	WARN_ON_ONCE(event->ctx && lockdep_hardirqs_enabled() &&
		     lockdep_is_held(&event->ctx->mutex) == LOCK_STATE_NOT_HELD);
#endif
	return event->group_leader == event ? &event->sibling_list : &no_siblings;
}
#endif

/* Every sibling of @event, which must be a group leader (else: none). */
#define for_each_sibling_event(sibling, event)				\
	list_for_each_entry(sibling, perf_event_siblings(event), sibling_list)

/*
 * ---------------------------------------------------------------------
 * 5. Output handles, BPF, cgroups
 * ---------------------------------------------------------------------
 */

/* A reservation in an event's ring buffer or AUX area. */
struct perf_aux_area;

struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	union {
		void			*addr;	/* ring buffer: write position */
		unsigned long		head;	/* AUX: offset */
	};
	unsigned long			size;	/* bytes still reserved */
	unsigned long			wakeup;
	union {
		struct {
			u64		skip_read : 1;
			/* took a shared buffer for its CPU */
			u64		rb_taken : 1;
		};
		u64			aux_flags;	/* perf_aux_output_*() */
		u64			flags;		/* perf_output_*() */
	};
	union {
		void			*record;	/* ring buffer: the record begun */
		struct perf_aux_area	*aux;		/* AUX: the area written */
	};
	int				page;
};

/* What a BPF_PROG_TYPE_PERF_EVENT program's context points to. */
struct bpf_perf_event_data_kern {
	struct perf_event		*event;
	struct perf_sample_data		*data;
	bpf_user_pt_regs_t		*regs;
};

#ifdef CONFIG_CGROUP_PERF
/* The perf_event controller's state for one cgroup. */
struct perf_cgroup {
	struct cgroup_subsys_state	css;
	struct perf_cgroup_info	__percpu *info;
};

/* Per CPU: the clock cgroup events of one cgroup read their time from. */
struct perf_cgroup_info {
	int				active;
	u64				time;
	u64				timestamp;
	u64				timeoffset;
};

/*
 * The perf cgroup of @task.  The caller keeps the result valid: RCU, the
 * runqueue lock in the scheduler, or @ctx->lock if @ctx is given.
 */
static inline struct perf_cgroup *perf_cgroup_from_task(struct task_struct *task,
							struct perf_event_context *ctx)
{
	struct cgroup_subsys_state *css =
		task_css_check(task, perf_event_cgrp_id,
			       !ctx || lockdep_is_held(&ctx->lock));

	return container_of(css, struct perf_cgroup, css);
}
#endif /* CONFIG_CGROUP_PERF */

/*
 * ---------------------------------------------------------------------
 * 6. Functions and inline helpers
 * ---------------------------------------------------------------------
 */

#ifdef CONFIG_PERF_EVENTS

/* ---- PMU registration and control ---- */

int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);
/* ask for pmu->sched_task() calls on this CPU (IRQs off) */
void perf_sched_cb_inc(struct pmu *pmu);
void perf_sched_cb_dec(struct pmu *pmu);
/* reschedule this CPU's events of @pmu (its constraints changed) */
void perf_pmu_resched(struct pmu *pmu);
/* move @pmu's CPU-wide events from @src_cpu to @dst_cpu (hotplug) */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);
/* the context of the task running on this CPU, or NULL (IRQs off) */
struct perf_event_context *perf_cpu_task_ctx(void);
void perf_event_print_debug(void);

/* ---- the kernel counter API (watchdog, KVM, resctrl ...) ---- */

struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context);
int perf_event_release_kernel(struct perf_event *event);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
void perf_event_disable_inatomic(struct perf_event *event);
int perf_event_refresh(struct perf_event *event, int refresh);
int perf_event_period(struct perf_event *event, u64 value);
u64 perf_event_pause(struct perf_event *event, bool reset);
u64 perf_event_read_value(struct perf_event *event,
			  u64 *enabled, u64 *running);
/* read without sleeping, IRQs off, for an event of this CPU or task */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);

/* ---- events behind file descriptors (BPF) ---- */

struct file *perf_event_get(unsigned int fd);
const struct perf_event *perf_get_event(struct file *file);
const struct perf_event_attr *perf_event_attrs(struct perf_event *event);

/* ---- task life cycle and prctl ---- */

int perf_event_init_task(struct task_struct *child, u64 clone_flags);
void perf_event_exit_task(struct task_struct *child);
void perf_event_free_task(struct task_struct *task);
void perf_event_delayed_put(struct task_struct *task);
int perf_event_task_disable(void);
int perf_event_task_enable(void);
void perf_event_task_tick(void);
void perf_event_init(void);

/* ---- side-band records ---- */

void perf_event_exec(void);
void perf_event_comm(struct task_struct *tsk, bool exec);
void perf_event_fork(struct task_struct *tsk);
void perf_event_namespaces(struct task_struct *tsk);
void perf_event_mmap(struct vm_area_struct *vma);
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
			bool unregister, const char *sym);
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags);
void perf_event_text_poke(const void *addr,
			  const void *old_bytes, size_t old_len,
			  const void *new_bytes, size_t new_len);

/* ---- AUX area output and address filters ---- */

void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event);
void *perf_get_aux(struct perf_output_handle *handle);
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags);
int perf_aux_output_skip(struct perf_output_handle *handle,
			 unsigned long size);
void perf_aux_output_end(struct perf_output_handle *handle,
			 unsigned long size);
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to);
void perf_event_itrace_started(struct perf_event *event);
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id);
void perf_event_addr_filters_sync(struct perf_event *event);

/* ---- ring buffer output ---- */

/* reserve @size bytes (begin picks the direction the event asked for) */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event,
		      unsigned int size);
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len);
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len);
void perf_output_end(struct perf_output_handle *handle);
void perf_event_update_userpage(struct perf_event *event);

/* ---- samples ---- */

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

static inline bool has_branch_stack(struct perf_event *event)
{
	return !!(event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK);
}

/* The event asks for branch records (in samples or for its own use). */
static inline bool needs_branch_stack(struct perf_event *event)
{
	return event->attr.branch_sample_type;
}

/* Tests of single attr.branch_sample_type bits. */
static inline bool perf_branch_sample_has(const struct perf_event *event, u64 bit)
{
	return event->attr.branch_sample_type & bit;
}

static inline bool branch_sample_no_flags(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_NO_FLAGS);
}

static inline bool branch_sample_no_cycles(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_NO_CYCLES);
}

static inline bool branch_sample_type(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_TYPE_SAVE);
}

static inline bool branch_sample_hw_index(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_HW_INDEX);
}

static inline bool branch_sample_priv(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_PRIV_SAVE);
}

static inline bool branch_sample_counters(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_COUNTERS);
}

static inline bool branch_sample_call_stack(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_CALL_STACK);
}

/*
 * One sample on its way to the ring buffer.  A driver sets what its
 * hardware knows (marking each in sample_flags); perf_prepare_sample()
 * fills in the rest.  The fields every sample touches come first.
 */
struct perf_sample_data {
	/* set by perf_sample_data_init() */
	u64				sample_flags;	/* PERF_SAMPLE_* filled in */
	u64				dyn_size;	/* variable-size parts */
	u64				period;
	/* a group's PERF_SAMPLE_READ: the bytes reserved for it, 0 before */
	u64				read_size;

	/* the sample id fields */
	u64				type;
	u64				id;
	u64				time;
	struct { u32 pid, tid; }	tid_entry;
	struct { u32 cpu, reserved; }	cpu_entry;

	/* the rest, each valid if its bit is in sample_flags */
	u64				ip;
	u64				addr;
	u64				phys_addr;
	u64				data_page_size;
	u64				code_page_size;
	union perf_mem_data_src		data_src;
	union perf_sample_weight	weight;
	u64				txn;
	u64				stream_id;
	u64				cgroup;
	u64				aux_size;

	struct perf_raw_record		*raw;
	struct perf_callchain_entry	*callchain;
	struct perf_branch_stack	*br_stack;
	u64				*br_stack_cntr;

	struct perf_regs		regs_intr;
	struct perf_regs		regs_user;
	u64				stack_user_size;
} ____cacheline_aligned;

/* data_src of a sample that knows nothing about the access */
#define PERF_MEM_NA (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |		\
		     PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |	\
		     PERF_MEM_S(TLB, NA) | PERF_MEM_S(LVLNUM, NA))

/* Start a sample: only the period, and @addr if not 0, are known. */
static inline void perf_sample_data_init(struct perf_sample_data *data,
					 u64 addr, u64 period)
{
	data->period = period;
	data->dyn_size = 0;
	data->read_size = 0;
	data->sample_flags = PERF_SAMPLE_PERIOD;
	/* 0 unless given: a BPF program may read it before it is sampled */
	data->addr = addr;
	if (addr)
		data->sample_flags |= PERF_SAMPLE_ADDR;
}

/* Bytes the sample will take in the ring buffer, header included. */
static inline u32 perf_sample_data_size(struct perf_sample_data *data,
					struct perf_event *event)
{
	return sizeof(struct perf_event_header) + event->header_size +
	       event->id_header_size + data->dyn_size;
}

/*
 * Add a branch stack; @brs_cntr, if given, holds one u64 of event
 * occurrence counts per branch, written after the entries.
 */
static inline void
perf_sample_save_brstack(struct perf_sample_data *data, struct perf_event *event,
			 struct perf_branch_stack *brs, u64 *brs_cntr)
{
	u64 bytes = sizeof(brs->nr) +
		    brs->nr * sizeof(struct perf_branch_entry);

	if (branch_sample_hw_index(event))
		bytes += sizeof(brs->hw_idx);
	if (brs_cntr)
		bytes += brs->nr * sizeof(u64);

	data->br_stack = brs;
	data->br_stack_cntr = brs_cntr;
	data->dyn_size += bytes;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

/*
 * Add raw data, if the event samples it.  The record is a u32 size and the
 * pieces, padded to whole u64s; the padding is noted in the last piece.
 */
static inline void
perf_sample_save_raw_data(struct perf_sample_data *data, struct perf_event *event,
			  struct perf_raw_record *raw)
{
	struct perf_raw_frag *last = &raw->frag;
	u32 bytes = last->size;
	u32 record;

	if (!(event->attr.sample_type & PERF_SAMPLE_RAW) ||
	    WARN_ON_ONCE(data->sample_flags & PERF_SAMPLE_RAW))
		return;

	while (!perf_raw_frag_last(last)) {
		last = last->next;
		bytes += last->size;
	}
	record = ALIGN(bytes + sizeof(u32), sizeof(u64));
	raw->size = record - sizeof(u32);
	last->pad = raw->size - bytes;

	data->raw = raw;
	data->dyn_size += record;
	data->sample_flags |= PERF_SAMPLE_RAW;
}

struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs);

/* Add the callchain at @regs, if the event samples one. */
static inline void
perf_sample_save_callchain(struct perf_sample_data *data, struct perf_event *event,
			   struct pt_regs *regs)
{
	struct perf_callchain_entry *chain;

	if (!(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) ||
	    WARN_ON_ONCE(data->sample_flags & PERF_SAMPLE_CALLCHAIN))
		return;

	chain = perf_callchain(event, regs);
	data->callchain = chain;
	/* the nr word, then the frames */
	data->dyn_size += (chain->nr + 1) * sizeof(u64);
	data->sample_flags |= PERF_SAMPLE_CALLCHAIN;
}

/* Zero a branch entry's flag bits; from and to are the caller's. */
static inline void perf_clear_branch_entry_bitfields(struct perf_branch_entry *br)
{
	br->type = 0;
	br->spec = PERF_BR_SPEC_NA;
	br->cycles = 0;
	br->mispred = 0;
	br->predicted = 0;
	br->in_tx = 0;
	br->abort = 0;
	br->reserved = 0;
}

void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event);
void perf_event_header__init(struct perf_event_header *header,
			     struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size,
			     struct perf_event *event);
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *sample);
void perf_log_lost_samples(struct perf_event *event, u64 lost);

/*
 * A driver's overflow interrupt: hand over the sample.  Non-zero means
 * the event must be stopped (throttled or disabled).
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data,
			struct pt_regs *regs);
/* count an interrupt for throttling, without a sample */
int perf_event_account_interrupt(struct perf_event *event);
/* tell the core how long a PMU interrupt took */
void perf_sample_event_took(u64 sample_len_ns);

/* the core's own overflow handlers (forward and backward ring buffers) */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data, struct pt_regs *regs);
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data, struct pt_regs *regs);
int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data, struct pt_regs *regs);

/* Does the event write its samples to its ring buffer, as by default? */
static inline bool is_default_overflow_handler(struct perf_event *event)
{
	perf_overflow_handler_t handler = event->overflow_handler;

	return likely(handler == perf_event_output_forward) ||
	       unlikely(handler == perf_event_output_backward);
}

/* ---- small predicates ---- */

static inline int is_exclusive_pmu(struct pmu *pmu)
{
	return !!(pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE);
}

static inline int is_software_event(struct perf_event *event)
{
	return !!(event->event_caps & PERF_EV_CAP_SOFTWARE);
}

/* Is the event scheduled with the software events of its context? */
static inline int in_software_context(struct perf_event *event)
{
	struct pmu *sched_pmu = event->pmu_ctx->pmu;

	return sched_pmu->task_ctx_nr == perf_sw_context;
}

static inline bool event_has_any_exclude_flag(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	return attr->exclude_user || attr->exclude_kernel ||
	       attr->exclude_hv || attr->exclude_idle ||
	       attr->exclude_host || attr->exclude_guest;
}

static inline bool is_write_backward(struct perf_event *event)
{
	return event->attr.write_backward;
}

/* The PMU can take AUX buffers (it has a setup_aux callback). */
static inline bool has_aux(struct perf_event *event)
{
	return !!event->pmu->setup_aux;
}

static inline bool has_aux_action(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	return attr->aux_sample_size || attr->aux_pause || attr->aux_resume;
}

static inline bool has_addr_filter(struct perf_event *event)
{
	return event->pmu->nr_addr_filters != 0;
}

/* The filters in force for @event: an inherited event uses its parent's. */
static inline struct perf_addr_filters_head *
perf_event_addr_filters(struct perf_event *event)
{
	struct perf_event *owner = event->parent ? event->parent : event;

	return &owner->addr_filters;
}

/* ---- software events ---- */

extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];

/* count a software event; __ checks recursion, ___ leaves it to the caller */
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
int perf_swevent_get_recursion_context(void);
void perf_swevent_put_recursion_context(int rctx);
u64 perf_swevent_set_period(struct perf_event *event);

static __always_inline bool __perf_sw_enabled(int swevt)
{
	return static_key_false(&perf_swevent_enabled[swevt]);
}

static __always_inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	if (__perf_sw_enabled(event_id))
		__perf_sw_event(event_id, nr, regs, addr);
}

/*
 * The arch fills in the few registers a sample taken without an
 * interrupt needs (ip, sp, and what user_mode() looks at).
 */
#ifndef perf_arch_fetch_caller_regs
static inline void
perf_arch_fetch_caller_regs(struct pt_regs *regs, unsigned long ip) { }
#endif

/* Scratch registers, one set per recursion level, for in-line samples. */
DECLARE_PER_CPU(struct pt_regs, __perf_regs[4]);

/* @regs, zeroed by the caller, as of the caller's caller. */
static inline void perf_fetch_caller_regs(struct pt_regs *regs)
{
	perf_arch_fetch_caller_regs(regs, CALLER_ADDR0);
}

/*
 * The scheduler's own software events: it never nests inside another
 * software event (they run with preemption off), so no recursion check.
 */
static __always_inline void
__perf_sw_event_sched(u32 event_id, u64 nr, u64 addr)
{
	struct pt_regs *regs = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(regs);
	___perf_sw_event(event_id, nr, regs, addr);
}

/* ---- context switch hooks ---- */

void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task);
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next);

/* on while any context has events that need the switch hooks */
extern struct static_key_false perf_sched_events;

/* Note a migration; it is counted when the task next runs. */
static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (!__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		return;
	task->sched_migrated = 1;
}

static inline void
perf_event_task_sched_in(struct task_struct *prev, struct task_struct *task)
{
	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_in(prev, task);

	/* after the task's own events are on, so that they see it */
	if (!__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS) ||
	    !task->sched_migrated)
		return;
	task->sched_migrated = 0;
	__perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS, 1, 0);
}

static inline void
perf_event_task_sched_out(struct task_struct *prev, struct task_struct *next)
{
	/* counted while prev's events are still on */
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		__perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0);

#ifdef CONFIG_CGROUP_PERF
	if (__perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES)) {
		struct perf_cgroup *from = perf_cgroup_from_task(prev, NULL);

		if (from != perf_cgroup_from_task(next, NULL))
			__perf_sw_event_sched(PERF_COUNT_SW_CGROUP_SWITCHES,
					      1, 0);
	}
#endif

	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_out(prev, next);
}

/* ---- virtualization guests ---- */

#ifndef CONFIG_GUEST_PERF_EVENTS
static inline unsigned long perf_guest_get_ip(void)
{
	return 0;
}

static inline unsigned int perf_guest_state(void)
{
	return 0;
}

static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{
	return 0;
}
#else
extern struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

void
perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *callbacks);
void
perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *callbacks);

/* static calls that follow the registered callbacks (0 when none) */
DECLARE_STATIC_CALL(__perf_guest_state, *perf_guest_cbs->state);
DECLARE_STATIC_CALL(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DECLARE_STATIC_CALL(__perf_guest_handle_intel_pt_intr,
		    *perf_guest_cbs->handle_intel_pt_intr);

static inline unsigned long perf_guest_get_ip(void)
{ return static_call(__perf_guest_get_ip)(); }

static inline unsigned int perf_guest_state(void)
{ return static_call(__perf_guest_state)(); }

static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{ return static_call(__perf_guest_handle_intel_pt_intr)(); }
#endif /* CONFIG_GUEST_PERF_EVENTS */

/* ---- callchains ---- */

extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;

DECLARE_PER_CPU(struct perf_callchain_entry, perf_callchain_entry);

/* BPF stack maps borrow the per-CPU callchain buffers */
int get_callchain_buffers(int max_stack);
void put_callchain_buffers(void);
struct perf_callchain_entry *get_callchain_entry(int *rctx);
void put_callchain_entry(int rctx);
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user, u32 max_stack,
		   bool crosstask, bool add_mark);

/* the arch stack walkers */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs);
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs);

/* Store a frame; -1 when the chain is full (the walker should stop). */
static inline int perf_callchain_store(struct perf_callchain_entry_ctx *ctx,
				       u64 ip)
{
	if (ctx->contexts_maxed || ctx->nr >= ctx->max_stack)
		return -1;
	ctx->entry->ip[ctx->entry->nr++] = ip;
	ctx->nr++;
	return 0;
}

/* Store a PERF_CONTEXT_* marker; -1 once too many have been stored. */
static inline int perf_callchain_store_context(struct perf_callchain_entry_ctx *ctx,
					       u64 ip)
{
	if (ctx->contexts >= sysctl_perf_event_max_contexts_per_stack) {
		ctx->contexts_maxed = true;
		return -1;
	}
	ctx->entry->ip[ctx->entry->nr++] = ip;
	ctx->contexts++;
	return 0;
}

/* ---- sysctls and permissions ---- */

extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_paranoid;

int perf_event_max_sample_rate_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos);
int perf_cpu_time_max_percent_handler(const struct ctl_table *table,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos);
int perf_event_max_stack_handler(const struct ctl_table *table,
				 int write, void *buffer, size_t *lenp,
				 loff_t *ppos);

/* what security_perf_event_open() is asked about */
#define PERF_SECURITY_OPEN		0	/* perf_event_open(2) at all */
#define PERF_SECURITY_CPU		1	/* CPU-wide events */
#define PERF_SECURITY_KERNEL		2	/* kernel-side counting/samples */
#define PERF_SECURITY_TRACEPOINT	3	/* tracepoint data */

/* 0 if the caller may observe the kernel, else -EACCES or the LSM's error */
int perf_allow_kernel(void);

static inline int perf_allow_cpu(void)
{
	int err = 0;

	if (!perfmon_capable() && sysctl_perf_event_paranoid > 0)
		err = -EACCES;
	return err ?: security_perf_event_open(PERF_SECURITY_CPU);
}

static inline int perf_allow_tracepoint(void)
{
	int err = 0;

	if (!perfmon_capable() && sysctl_perf_event_paranoid > -1)
		err = -EPERM;
	return err ?: security_perf_event_open(PERF_SECURITY_TRACEPOINT);
}

/* paranoid level 3 and up (Debian's default): no access without CAP_PERFMON */
static inline bool perf_paranoid_any(void)
{
	return sysctl_perf_event_paranoid >= 3;
}

static inline int perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid >= 0;
}

/* ---- tracepoints and breakpoints ---- */

void perf_bp_event(struct perf_event *event, void *data);
void perf_tp_event(u16 event_type, u64 count, void *record,
		   int entry_size, struct pt_regs *regs,
		   struct hlist_head *head, int rctx,
		   struct task_struct *task);

/* ---- arch defaults ---- */

#ifndef perf_arch_bpf_user_pt_regs
# define perf_arch_bpf_user_pt_regs(regs)	regs
#endif
#ifndef perf_misc_flags
# define perf_instruction_pointer(regs)	instruction_pointer(regs)
# define perf_misc_flags(regs)						\
	(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)
#endif

#else /* !CONFIG_PERF_EVENTS */

/* Without perf, the hooks the rest of the kernel calls do nothing. */

static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)
{
}

static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)
{
}

static inline void perf_event_task_migrate(struct task_struct *task)
{
}

static inline void perf_event_task_tick(void)
{
}

static inline int perf_event_init_task(struct task_struct *child,
				       u64 clone_flags)
{
	return 0;
}

static inline void perf_event_delayed_put(struct task_struct *task)
{
}

static inline void perf_event_free_task(struct task_struct *task)
{
}

static inline void perf_event_exit_task(struct task_struct *child)
{
}

static inline int perf_event_task_enable(void)
{
	return -EINVAL;
}

static inline int perf_event_task_disable(void)
{
	return -EINVAL;
}

static inline void perf_event_init(void)
{
}

static inline void perf_event_print_debug(void)
{
}

static inline void *perf_aux_output_begin(struct perf_output_handle *handle,
					  struct perf_event *event)
{
	return NULL;
}

static inline void *perf_get_aux(struct perf_output_handle *handle)
{
	return NULL;
}

static inline int perf_aux_output_skip(struct perf_output_handle *handle,
				       unsigned long size)
{
	return -EINVAL;
}

static inline void perf_aux_output_end(struct perf_output_handle *handle,
				       unsigned long size)
{
}

static inline const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return ERR_PTR(-EINVAL);
}

static inline struct file *perf_event_get(unsigned int fd)
{
	return ERR_PTR(-EINVAL);
}

static inline const struct perf_event *perf_get_event(struct file *file)
{
	return ERR_PTR(-EINVAL);
}

static inline void perf_event_enable(struct perf_event *event)
{
}

static inline void perf_event_disable(struct perf_event *event)
{
}

static inline u64 perf_event_pause(struct perf_event *event, bool reset)
{
	return 0;
}

static inline int perf_event_release_kernel(struct perf_event *event)
{
	return 0;
}

static inline int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}

static inline int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}

static inline int perf_event_read_local(struct perf_event *event,
					u64 *value, u64 *enabled,
					u64 *running)
{
	return -EINVAL;
}

static inline void perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs,
				 u64 addr)
{
}

static inline int perf_swevent_get_recursion_context(void)
{
	return -1;
}

static inline void perf_swevent_put_recursion_context(int rctx)
{
}

static inline u64 perf_swevent_set_period(struct perf_event *event)
{
	return 0;
}

static inline void perf_bp_event(struct perf_event *event, void *data)
{
}

static inline void perf_event_exec(void)
{
}

static inline void perf_event_comm(struct task_struct *tsk, bool exec)
{
}

static inline void perf_event_fork(struct task_struct *tsk)
{
}

static inline void perf_event_namespaces(struct task_struct *tsk)
{
}

static inline void perf_event_mmap(struct vm_area_struct *vma)
{
}

static inline void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
				      bool unregister, const char *sym)
{
}

static inline void perf_event_bpf_event(struct bpf_prog *prog,
					enum perf_bpf_event_type type,
					u16 flags)
{
}

static inline void perf_event_text_poke(const void *addr, const void *old_bytes,
					size_t old_len, const void *new_bytes,
					size_t new_len)
{
}

#endif /* CONFIG_PERF_EVENTS */

/* copy one object into a reserved ring buffer handle */
#define perf_output_put(handle, x)					\
	perf_output_copy((handle), &(x), sizeof(x))

#if !defined(CONFIG_PERF_EVENTS) || !defined(CONFIG_CPU_SUP_INTEL)
static inline void perf_restore_debug_store(void) { }
#else
/* reprogram the debug store after resume (x86) */
void perf_restore_debug_store(void);
#endif

/*
 * ---------------------------------------------------------------------
 * 7. sysfs helpers for PMU drivers, CPU hotplug, arch hooks
 * ---------------------------------------------------------------------
 */

/*
 * Attributes of a PMU's events/ directory.  They all start with the same
 * two members, and x86 reads any of them as a perf_pmu_events_attr.
 */
#define PERF_PMU_EVENTS_ATTR_HEAD					\
	struct device_attribute	attr;					\
	u64			id

/* An id for the driver's show(), or a fixed string. */
struct perf_pmu_events_attr {
	PERF_PMU_EVENTS_ATTR_HEAD;
	const char		*event_str;
};

/* x86 hybrid: the attribute applies to the PMUs in pmu_type */
struct perf_pmu_events_hybrid_attr {
	PERF_PMU_EVENTS_ATTR_HEAD;
	const char		*event_str;	/* where perf_pmu_events_attr has it */
	u64			pmu_type;
};

/* x86: an event whose encoding depends on SMT being on */
struct perf_pmu_events_ht_attr {
	PERF_PMU_EVENTS_ATTR_HEAD;
	const char		*event_str_ht;
	const char		*event_str_noht;
};

/* A format/ attribute of an x86 hybrid PMU. */
struct perf_pmu_format_hybrid_attr {
	struct device_attribute	attr;
	u64			pmu_type;
};

/* show() of PMU_EVENT_ATTR_STRING(): prints event_str */
ssize_t perf_event_sysfs_show(struct device *dev,
			      struct device_attribute *attr, char *page);

/* Note: the next two expand to a full definition, ';' included. */
#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
static struct perf_pmu_events_attr _var = {				\
	.event_str	= _str,						\
	.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
};

#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
static struct perf_pmu_events_attr _var = {				\
	.id	= _id,							\
	.attr	= __ATTR(_name, 0444, _show, NULL),			\
};

/* An anonymous events/ attribute, as a struct attribute pointer. */
#define PMU_EVENT_ATTR_ID(_name, _show, _id)				\
	(&((struct perf_pmu_events_attr[]) {				\
		{ .attr = __ATTR(_name, 0444, _show, NULL), .id = _id }	\
	})[0].attr.attr)

/*
 * A format/ attribute: PMU_FORMAT_ATTR(name, "config:0-7") defines
 * name_show(), which prints the string, and format_attr_name.
 */
#define PERF_FORMAT_SHOW_FN(_fn, _format)				\
static ssize_t _fn(struct device *dev, struct device_attribute *attr,	\
		   char *page)						\
{									\
	BUILD_BUG_ON(sizeof(_format) >= PAGE_SIZE);			\
	return sprintf(page, "%s\n", _format);				\
}

#define PMU_FORMAT_ATTR_SHOW(_name, _format)				\
	PERF_FORMAT_SHOW_FN(_name##_show, _format)

#define PMU_FORMAT_ATTR(_name, _format)					\
	PERF_FORMAT_SHOW_FN(_name##_show, _format)			\
	static struct device_attribute format_attr_##_name =		\
		__ATTR(_name, 0444, _name##_show, NULL)

/* CPU hotplug callbacks of the core */
#ifndef CONFIG_PERF_EVENTS
#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL
#else
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);
#endif

/* the arch's part of filling in the mmap()ed control page */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now);

/*
 * Grab the hardware branch record (LBR/BRS) right now, for BPF's
 * bpf_get_branch_snapshot(): the driver sets the static call, which fills
 * up to @cnt entries and returns how many it wrote (0 without a driver).
 */
typedef int (perf_snapshot_branch_stack_t)(struct perf_branch_entry *entries,
					   unsigned int cnt);
DECLARE_STATIC_CALL(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

/* Entering or leaving a low-power idle state; x86 AMD BRS overrides it. */
#ifndef PERF_NEEDS_LOPWR_CB
static inline void perf_lopwr_cb(bool mode) { }
#endif

#endif /* _LINUX_PERF_EVENT_H */
