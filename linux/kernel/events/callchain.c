// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains: the kernel and user stacks of a sample, as return addresses
 * with PERF_CONTEXT_* markers between the parts.
 *
 * The arch walks the stacks (perf_callchain_kernel(), perf_callchain_user())
 * into a scratch entry.  Scratch entries live in one area per CPU, holding
 * one entry for each interrupt level (task, softirq, hardirq, NMI): a walk
 * at one level may interrupt a walk at a lower one, never one at its own.
 *
 * The areas exist only while someone may walk: sampling events that ask
 * for PERF_SAMPLE_CALLCHAIN and BPF stack maps and programs take a
 * reference with get_callchain_buffers().  They are allocated with the
 * size the two sysctls (perf_event_max_stack, perf_event_max_contexts_per_
 * stack) had when the first reference was taken; while references exist
 * those sysctls may not change (perf_callchain_limit_store()).  The last
 * reference frees them after an RCU grace period, so walkers (which run
 * inside an RCU read-side section or with preemption off) never see them
 * go away underneath.
 */

/**
 * DOC: Callchain buffers lock
 *
 * ``perf_callchain_mutex`` (``callchain.c``, a mutex)
 *   Protects the reference count of the per-CPU callchain buffers and the
 *   ``perf_event_max_stack`` and ``perf_event_max_contexts_per_stack``
 *   sysctls, which cannot change while the buffers exist.  The buffers
 *   themselves are read under RCU (or with preemption disabled) and freed
 *   after a grace period.
 */

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uprobes.h>

#include "internal.h"
#include "callchain.h"
#include "callchain_deferred.h"

/* task, softirq, hardirq, NMI: see interrupt_context_level() */
#define PERF_CALLCHAIN_LEVELS	4

struct perf_callchain_area {
	struct rcu_head		rcu;
	size_t			entry_bytes;	/* one entry with its ip[] */
	u32			max_frames;	/* ip[] slots for frames */
	u32			max_markers;	/* ip[] slots for markers */
	/* per CPU, indexed by CPU number: PERF_CALLCHAIN_LEVELS entries */
	void			*per_cpu[];
};

/* users of the areas and the sysctls that size them change under this */
static DEFINE_MUTEX(perf_callchain_mutex);
static unsigned int perf_callchain_users;
static struct perf_callchain_area __rcu *perf_callchain_areas;

/* per CPU and level: an entry of that level is lent out */
static DEFINE_PER_CPU(u8, perf_callchain_lent[PERF_CALLCHAIN_LEVELS]);

/**
 * perf_callchain_kernel - arch hook: walk the kernel stack at @regs
 * @entry: where to store the frames (perf_callchain_store())
 * @regs: the registers of the sampled kernel code
 *
 * The default, for arches without a kernel unwinder for perf, stores
 * nothing.
 */
void __weak perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
				  struct pt_regs *regs)
{
}

/**
 * perf_callchain_user - arch hook: walk the user stack at @regs
 * @entry: where to store the frames (perf_callchain_store())
 * @regs: the user registers of the current task
 *
 * The default stores nothing.
 */
void __weak perf_callchain_user(struct perf_callchain_entry_ctx *entry,
				struct pt_regs *regs)
{
}

static void perf_callchain_area_free(struct perf_callchain_area *area)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(area->per_cpu[cpu]);
	kfree(area);
}

static void perf_callchain_area_free_rcu(struct rcu_head *head)
{
	perf_callchain_area_free(container_of(head, struct perf_callchain_area,
					      rcu));
}

/*
 * Plain kmalloc per CPU rather than the percpu allocator: NMI handlers
 * read these, and must not touch memory that could fault.
 */
static struct perf_callchain_area *perf_callchain_area_alloc(void)
{
	struct perf_callchain_area *area;
	size_t bytes;
	int cpu;

	area = kzalloc(struct_size(area, per_cpu, nr_cpu_ids), GFP_KERNEL);
	if (!area)
		return NULL;

	area->max_frames = READ_ONCE(sysctl_perf_event_max_stack);
	area->max_markers = READ_ONCE(sysctl_perf_event_max_contexts_per_stack);
	area->entry_bytes = struct_size_t(struct perf_callchain_entry, ip,
					  area->max_frames + area->max_markers);
	bytes = area->entry_bytes * PERF_CALLCHAIN_LEVELS;

	for_each_possible_cpu(cpu) {
		area->per_cpu[cpu] = kmalloc_node(bytes, GFP_KERNEL,
						  cpu_to_node(cpu));
		if (!area->per_cpu[cpu]) {
			perf_callchain_area_free(area);
			return NULL;
		}
	}
	return area;
}

/**
 * get_callchain_buffers - take a reference on the per-CPU callchain buffers
 * @max_stack: the deepest chain the caller will ask for
 *
 * Sampling events with PERF_SAMPLE_CALLCHAIN, BPF stack maps and programs
 * calling bpf_get_stack() hold one while they may unwind.  Allocates the
 * buffers for the first user.  Sleeps.
 *
 * Return: 0; -EOVERFLOW if @max_stack is deeper than perf_event_max_stack
 * allows, -ENOMEM.
 */
int get_callchain_buffers(int max_stack)
{
	struct perf_callchain_area *area;
	int err = 0;

	mutex_lock(&perf_callchain_mutex);

	if (max_stack > READ_ONCE(sysctl_perf_event_max_stack)) {
		err = -EOVERFLOW;
		goto unlock;
	}

	if (!perf_callchain_users) {
		area = perf_callchain_area_alloc();
		if (!area) {
			err = -ENOMEM;
			goto unlock;
		}
		rcu_assign_pointer(perf_callchain_areas, area);
	}
	perf_callchain_users++;

unlock:
	mutex_unlock(&perf_callchain_mutex);
	return err;
}

/**
 * put_callchain_buffers - drop a reference from get_callchain_buffers()
 *
 * The last one frees the buffers once walkers that may still use them
 * are done.  Sleeps.
 */
void put_callchain_buffers(void)
{
	struct perf_callchain_area *area;

	mutex_lock(&perf_callchain_mutex);
	if (!WARN_ON_ONCE(!perf_callchain_users) && !--perf_callchain_users) {
		area = rcu_replace_pointer(perf_callchain_areas, NULL,
					   lockdep_is_held(&perf_callchain_mutex));
		call_rcu(&area->rcu, perf_callchain_area_free_rcu);
	}
	mutex_unlock(&perf_callchain_mutex);
}

/**
 * perf_callchain_limit_store - change perf_event_max_stack or
 *	perf_event_max_contexts_per_stack
 * @limit: the sysctl's variable
 * @value: its new, already validated value
 *
 * The callchain buffers are sized from both values, so neither may change
 * while anyone holds them.
 *
 * Return: 0, or -EBUSY while callchain buffers are in use.
 */
int perf_callchain_limit_store(int *limit, int value)
{
	int err = 0;

	mutex_lock(&perf_callchain_mutex);
	if (perf_callchain_users)
		err = -EBUSY;
	else
		WRITE_ONCE(*limit, value);
	mutex_unlock(&perf_callchain_mutex);

	return err;
}

/*
 * Lend this CPU's entry for the current interrupt level, and say which
 * area it is in.  NULL if the level's entry is lent already or there are
 * no buffers.
 */
static struct perf_callchain_entry *
perf_callchain_borrow(int *rctx, struct perf_callchain_area **areap)
{
	u8 *lent = this_cpu_ptr(perf_callchain_lent);
	struct perf_callchain_area *area;
	int level = interrupt_context_level();

	*rctx = -1;
	if (lent[level])
		return NULL;
	lent[level] = 1;
	barrier();	/* an interrupt taken from here on sees it lent */

	area = rcu_dereference_check(perf_callchain_areas,
				     rcu_read_lock_any_held());
	if (!area) {
		barrier();
		lent[level] = 0;
		return NULL;
	}

	*rctx = level;
	*areap = area;
	return area->per_cpu[smp_processor_id()] + level * area->entry_bytes;
}

/**
 * get_callchain_entry - borrow this CPU's callchain entry for this level
 * @rctx: set to the level, for put_callchain_entry(), or to -1
 *
 * Preemption off (any context, NMI too), inside an RCU read-side section
 * or with preemption disabled for as long as the entry is used; the caller
 * holds a reference from get_callchain_buffers().  The entry has room for
 * perf_event_max_stack frames plus perf_event_max_contexts_per_stack
 * markers.
 *
 * Return: the entry (its nr is not reset), or NULL when this level's
 * entry is already lent out or there are no buffers.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	struct perf_callchain_area *area;

	return perf_callchain_borrow(rctx, &area);
}

/**
 * put_callchain_entry - give back an entry from get_callchain_entry()
 * @rctx: what get_callchain_entry() stored there (not -1)
 */
void put_callchain_entry(int rctx)
{
	barrier();	/* the entry's users come first */
	this_cpu_ptr(perf_callchain_lent)[rctx] = 0;
}

/*
 * A pending uretprobe replaces the return address of the probed function
 * with the address of its trampoline.  Put the real return addresses back
 * (ip[from] onwards, the user frames), in the order the return instances
 * were stacked: innermost first, as the walk met them.
 */
static void perf_callchain_fix_uretprobes(struct perf_callchain_entry *entry,
					  u64 from)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *utask = current->utask;
	struct return_instance *pending;
	unsigned long trampoline;
	u64 i;

	if (likely(!utask || !utask->return_instances))
		return;

	trampoline = uprobe_get_trampoline_vaddr();
	pending = utask->return_instances;
	for (i = from; i < entry->nr && pending; i++) {
		if (entry->ip[i] != trampoline)
			continue;
		entry->ip[i] = pending->orig_ret_vaddr;
		pending = pending->next;
	}
#endif
}

static struct perf_callchain_entry *
perf_callchain_walk(struct pt_regs *regs, bool kernel, bool user,
		    u32 max_stack, bool crosstask, bool add_mark, u64 deferred);

/**
 * get_perf_callchain - unwind the kernel and/or user stack at @regs
 * @regs: where to start (the interrupted state)
 * @kernel: include the kernel frames (if @regs are kernel registers)
 * @user: include the user frames of the current task
 * @max_stack: the most frames to store (markers not counted)
 * @crosstask: @regs belong to a task other than current, whose user stack
 *	       cannot be read from here
 * @add_mark: put PERF_CONTEXT_KERNEL / PERF_CONTEXT_USER before each part
 *
 * Preemption off, any context; the caller holds the callchain buffers
 * (get_callchain_buffers()) and keeps RCU or preemption off while it uses
 * the result.  The entry stays this CPU's scratch entry for this interrupt
 * level: it is valid until the caller's context does another walk.
 *
 * Return: the chain (possibly empty), or NULL if only @user was asked for
 * with @crosstask, or no entry could be had (recursion, no buffers).
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	return perf_callchain_walk(regs, kernel, user, max_stack, crosstask,
				   add_mark, 0);
}

/*
 * get_perf_callchain(), and with a non-zero @deferred (a cookie from
 * perf_callchain_defer()) the user part is PERF_CONTEXT_USER_DEFERRED and
 * the cookie instead of the frames, the cookie taking a frame's room.
 */
static struct perf_callchain_entry *
perf_callchain_walk(struct pt_regs *regs, bool kernel, bool user,
		    u32 max_stack, bool crosstask, bool add_mark, u64 deferred)
{
	struct perf_callchain_entry_ctx walk = {};
	struct perf_callchain_area *area;
	struct perf_callchain_entry *entry;
	int markers_now, rctx;
	u64 user_from;

	if (crosstask && user && !kernel)
		return NULL;

	entry = perf_callchain_borrow(&rctx, &area);
	if (!entry)
		return NULL;

	entry->nr = 0;
	walk.entry = entry;
	walk.max_stack = min(max_stack, area->max_frames);
	if (deferred && walk.max_stack)
		walk.max_stack--;	/* the cookie's room */
	/*
	 * perf_callchain_store_context() checks the live sysctl; should it
	 * ever exceed what the entry was sized for, count the difference as
	 * used already.
	 */
	markers_now = READ_ONCE(sysctl_perf_event_max_contexts_per_stack);
	if (markers_now > area->max_markers)
		walk.contexts = min_t(int, markers_now - area->max_markers,
				      SHRT_MAX);

	if (kernel && !user_mode(regs)) {
		if (add_mark)
			perf_callchain_store_context(&walk, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&walk, regs);
	}

	if (user && deferred) {
		if (!perf_callchain_store_context(&walk,
						  PERF_CONTEXT_USER_DEFERRED)) {
			walk.max_stack++;
			perf_callchain_store(&walk, deferred);
		}
	} else if (user && !crosstask) {
		if (!user_mode(regs))
			regs = is_user_task(current) ? task_pt_regs(current) : NULL;
		if (regs) {
			if (add_mark)
				perf_callchain_store_context(&walk,
							     PERF_CONTEXT_USER);
			user_from = entry->nr;
			perf_callchain_user(&walk, regs);
			perf_callchain_fix_uretprobes(entry, user_from);
		}
	}

	put_callchain_entry(rctx);
	return entry;
}

/* What a sample that asked for a callchain gets when none can be had. */
static struct perf_callchain_entry perf_callchain_none = { .nr = 0 };

/**
 * perf_callchain - the callchain of a sample, for perf_sample_save_callchain()
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * Honours attr.exclude_callchain_kernel, exclude_callchain_user,
 * sample_max_stack and defer_callchain (callchain_deferred.c: the user
 * part becomes PERF_CONTEXT_USER_DEFERRED and a cookie); the user stack
 * only of the task the event watches (another task's user memory cannot
 * be read here) and only of a task with user memory.  Preemption off,
 * inside rcu_read_lock().
 *
 * Return: the chain; never NULL (an empty chain when nothing could be
 * walked).
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	struct task_struct *target = event->ctx ? event->ctx->task : NULL;
	bool kernel = !event->attr.exclude_callchain_kernel;
	bool user = !event->attr.exclude_callchain_user &&
		    is_user_task(current) && current->mm;
	bool crosstask = target && target != current;
	struct perf_callchain_entry *chain;
	u64 deferred = 0;

	if (!kernel && !user)
		return &perf_callchain_none;

	if (user && !crosstask && event->attr.defer_callchain)
		deferred = perf_callchain_defer();

	chain = perf_callchain_walk(regs, kernel, user,
				    event->attr.sample_max_stack, crosstask,
				    true, deferred);
	return chain ?: &perf_callchain_none;
}

/**
 * perf_callchain_event_init - take the callchain buffers for a new event
 * @event: the event being allocated
 *
 * An event that samples PERF_SAMPLE_CALLCHAIN needs them; an inherited
 * copy relies on its parent's reference (the parent outlives its copies).
 *
 * Return: 0, -EOVERFLOW if attr.sample_max_stack is deeper than
 * perf_event_max_stack, or -ENOMEM.
 */
int perf_callchain_event_init(struct perf_event *event)
{
	int err;

	if (event->parent ||
	    !(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;

	err = get_callchain_buffers(event->attr.sample_max_stack);
	if (!err)
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	return err;
}

/**
 * perf_callchain_event_free - drop what perf_callchain_event_init() took
 * @event: the event being freed (process context)
 */
void perf_callchain_event_free(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_CALLCHAIN))
		return;
	event->attach_state &= ~PERF_ATTACH_CALLCHAIN;
	put_callchain_buffers();
}
