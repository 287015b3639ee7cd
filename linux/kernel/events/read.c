// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counts: read(2) on an event fd in the layouts attr.read_format
 * selects, and the in-kernel readers perf_event_read_value() and
 * perf_event_read_local().
 *
 * An event's total is its own count plus what its inherited copies
 * counted: the copies that have exited were folded into child_count and
 * child_total_time_* (inherit.c); the live ones, on event->child_list, are
 * read one by one under event->child_mutex.
 *
 * read() layouts, in u64 words (the UAPI header draws the same):
 *
 *   one event:   value [enabled] [running] [id] [lost]
 *   group:       nr [enabled] [running] then, for the leader and each
 *                sibling in group order: value [id] [lost]
 *
 * A group's times are the leader's: its members go on and off the PMU
 * together.
 */

#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "context.h"
#include "pmu.h"
#include "read.h"
#include "sample.h"

/* The words per group member, and the words before the first member. */
static unsigned int perf_read_member_words(u64 read_format)
{
	return 1 + !!(read_format & PERF_FORMAT_ID) +
	       !!(read_format & PERF_FORMAT_LOST);
}

static unsigned int perf_read_header_words(u64 read_format)
{
	return !!(read_format & PERF_FORMAT_GROUP) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

/**
 * perf_read_size_for - bytes read() returns for a read_format
 * @read_format: attr.read_format
 * @nr_siblings: siblings in the group (only counts with PERF_FORMAT_GROUP)
 *
 * Return: the size in bytes.
 */
size_t perf_read_size_for(u64 read_format, int nr_siblings)
{
	size_t members = 1;

	if (read_format & PERF_FORMAT_GROUP)
		members += nr_siblings;

	return sizeof(u64) * (perf_read_header_words(read_format) +
			      members * perf_read_member_words(read_format));
}

/**
 * perf_event_calc_read_size - set event->read_size
 * @event: the event, whose group is not changing (ctx->lock held, or not
 *	   installed yet)
 *
 * To be called again for every member whenever the group grows or shrinks.
 */
void perf_event_calc_read_size(struct perf_event *event)
{
	event->read_size = perf_read_size_for(event->attr.read_format,
					      event->group_leader->nr_siblings);
	perf_event_calc_header_sizes(event);
}

/**
 * perf_group_calc_sizes - perf_event_calc_read_size() for a whole group
 * @leader: the group's leader; its ctx->lock held, as the group changes
 */
void perf_group_calc_sizes(struct perf_event *leader)
{
	struct perf_event *sibling;

	lockdep_assert_held(&leader->ctx->lock);
	perf_event_calc_read_size(leader);
	for_each_sibling_event(sibling, leader)
		perf_event_calc_read_size(sibling);
}

/* count, plus what the inherited copies that exited left behind. */
static u64 perf_event_count_with_exited(struct perf_event *event)
{
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

/* Bring @e up to date, then add its own count and times to the sums. */
static void perf_event_accumulate(struct perf_event *e, u64 *sum,
				  u64 *enabled, u64 *running)
{
	perf_event_sync(e, false);
	*sum += perf_event_count_with_exited(e);
	*enabled += e->total_time_enabled;
	*running += e->total_time_running;
}

/**
 * perf_event_total - an event's count and times, its inherited copies' in
 * @event: the event (a parent: user events and kernel counters are)
 * @enabled: set to the total time enabled
 * @running: set to the total time on the PMU
 *
 * ctx->mutex of @event held by the caller; takes @event->child_mutex.
 * Active events, the copies included, are brought up to date first.
 *
 * Return: the total count.
 */
u64 perf_event_total(struct perf_event *event, u64 *enabled, u64 *running)
{
	struct perf_event *copy;
	u64 sum = 0;

	lockdep_assert_held(&event->ctx->mutex);
	*enabled = 0;
	*running = 0;

	/* only an inherit event ever has copies: no child_mutex round */
	if (!event->attr.inherit) {
		perf_event_accumulate(event, &sum, enabled, running);
		return sum;
	}

	mutex_lock(&event->child_mutex);
	perf_event_accumulate(event, &sum, enabled, running);
	/* times the copies that already exited handed back */
	*enabled += atomic64_read(&event->child_total_time_enabled);
	*running += atomic64_read(&event->child_total_time_running);
	list_for_each_entry(copy, &event->child_list, child_entry)
		perf_event_accumulate(copy, &sum, enabled, running);
	mutex_unlock(&event->child_mutex);

	return sum;
}

/**
 * perf_event_read_value - read an in-kernel counter
 * @event: the counter (from perf_event_create_kernel_counter(), or any
 *	   event the caller holds a reference to)
 * @enabled: set to the time the counter was enabled, in ns
 * @running: set to the time it was on the PMU, in ns
 *
 * Sleeps (takes the context mutex); may send an IPI to read a counter
 * that is active on another CPU.  Counts of inherited copies are included.
 *
 * Return: the count.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled, u64 *running)
{
	struct perf_event_context *held = perf_event_ctx_lock(event);
	u64 value = perf_event_total(event, enabled, running);

	perf_event_ctx_unlock(event, held);
	return value;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/*
 * An event on the PMU of this CPU (a task reading its own events, or a
 * CPU-wide event of this CPU): read it here with IRQs off, which keeps it
 * on the PMU, without ctx->lock, as perf_event_read_local() does.  False
 * if it is not on this CPU's PMU.
 */
bool perf_read_here(struct perf_event *event, u64 *value,
		    u64 *enabled, u64 *running)
{
	unsigned long flags;
	bool here;

	local_irq_save(flags);
	here = perf_event_on_this_cpu(event);
	if (here) {
		event->pmu->read(event);
		*value = local64_read(&event->count);
		perf_event_times_local(event, enabled, running);
	}
	local_irq_restore(flags);
	return here;
}

/*
 * The read_format layout of one event (not PERF_FORMAT_GROUP).  An event
 * with inherited copies sums them under ctx->mutex, which the caller then
 * holds; one without is read where it runs, or brought up to date under
 * its ctx->lock.
 */
static ssize_t perf_read_one(struct perf_event *event, char __user *buf)
{
	u64 fmt = event->attr.read_format;
	/* value, [enabled], [running], [id], [lost]: only what is set is copied */
	u64 record[5] __uninitialized;
	u64 *next = record;
	u64 enabled, running;
	size_t len;

	if (event->attr.inherit) {
		*next++ = perf_event_total(event, &enabled, &running);
	} else if (perf_read_here(event, next, &enabled, &running)) {
		next++;
	} else {
		perf_event_sync(event, false);
		*next++ = perf_event_count_with_exited(event);
		enabled = event->total_time_enabled;
		running = event->total_time_running;
	}
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*next++ = enabled;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*next++ = running;
	if (fmt & PERF_FORMAT_ID)
		*next++ = perf_event_primary_id(event);
	if (fmt & PERF_FORMAT_LOST)
		*next++ = atomic64_read(&event->lost_samples);

	len = (next - record) * sizeof(*record);
	/* the plain count alone is the common read: one store, no copy loop */
	if (len == sizeof(u64))
		return put_user(record[0], (u64 __user *)buf) ? -EFAULT : len;
	return copy_to_user(buf, record, len) ? -EFAULT : len;
}

/* @v into a word of a group read: the first pass sets, later ones add */
static inline u64 *perf_read_group_word(u64 *slot, u64 v, bool first)
{
	*slot = first ? v : *slot + v;
	return slot + 1;
}

/* One member's slot in a group read: value, then [id] [lost]. */
static __always_inline u64 *perf_read_group_member(struct perf_event *member,
						   u64 read_format, u64 *slot,
						   bool first)
{
	slot = perf_read_group_word(slot, perf_event_count_with_exited(member),
				    first);
	if (read_format & PERF_FORMAT_ID)
		*slot++ = perf_event_primary_id(member);
	if (read_format & PERF_FORMAT_LOST)
		*slot++ = atomic64_read(&member->lost_samples);

	return slot;
}

/*
 * Add the counts of @leader's group (the parent's group or one inherited
 * copy of it) to @words; the parent's, which comes first, sets them.
 * -ECHILD if the copy no longer has the parent's shape: the sums would mix
 * up members.
 */
static int perf_read_group_add(struct perf_event *leader, u64 read_format,
			       u64 *words)
{
	struct perf_event_context *ctx = leader->ctx;
	struct perf_event *parent = leader->parent;
	struct perf_event *sibling;
	bool first = !parent;
	unsigned long flags;
	u64 *slot = words + 1;	/* words[0] is nr */
	int err = 0;

	perf_event_sync(leader, true);

	/* ctx->lock keeps the sibling list still while it is walked. */
	raw_spin_lock_irqsave(&ctx->lock, flags);

	if (parent && (parent->group_generation != leader->group_generation ||
		       parent->nr_siblings != leader->nr_siblings)) {
		err = -ECHILD;
		goto out;
	}

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		slot = perf_read_group_word(slot, leader->total_time_enabled +
			atomic64_read(&leader->child_total_time_enabled), first);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		slot = perf_read_group_word(slot, leader->total_time_running +
			atomic64_read(&leader->child_total_time_running), first);

	slot = perf_read_group_member(leader, read_format, slot, first);
	for_each_sibling_event(sibling, leader)
		slot = perf_read_group_member(sibling, read_format, slot, first);

out:
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return err;
}

/*
 * perf_read_group_add() for a group without copies whose leader is on the
 * PMU of this CPU: with IRQs off the group stays there, so each member is
 * read from its PMU and the times taken as perf_event_read_local() does,
 * without ctx->lock (ctx->mutex, held, keeps the members as they are).
 * False if the leader is not on this CPU's PMU.
 */
static bool perf_read_group_here(struct perf_event *leader, u64 read_format,
				 u64 *words)
{
	struct perf_event *sibling;
	u64 enabled, running;
	unsigned long flags;
	u64 *slot = words + 1;	/* words[0] is nr */
	u64 *times;
	bool here;

	local_irq_save(flags);
	here = perf_event_on_this_cpu(leader);
	if (!here)
		goto out;

	/* the times' words come first; they are filled in last */
	times = slot;
	slot += !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		!!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	leader->pmu->read(leader);
	slot = perf_read_group_member(leader, read_format, slot, true);
	for_each_sibling_event(sibling, leader) {
		if (sibling->state == PERF_EVENT_STATE_ACTIVE)
			sibling->pmu->read(sibling);
		slot = perf_read_group_member(sibling, read_format, slot, true);
	}
	perf_event_times_local(leader, &enabled, &running);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*times++ = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*times = running;
out:
	local_irq_restore(flags);
	return here;
}

/*
 * Group layouts up to this many words are built on the stack: a group of
 * ten with every read_format bit set fits.
 */
#define PERF_READ_GROUP_STACK_WORDS	32

/* @size: the layout's size for the group as it is now (ctx->mutex held) */
static ssize_t perf_read_group(struct perf_event *event, char __user *buf,
			       size_t size)
{
	/*
	 * Not zeroed first: every word up to @size is written before the
	 * copy (the layout is the group's, which ctx->mutex keeps still),
	 * and a read that fails copies nothing.
	 */
	u64 on_stack[PERF_READ_GROUP_STACK_WORDS] __uninitialized;
	struct perf_event *leader = event->group_leader;
	u64 read_format = event->attr.read_format;
	struct perf_event *child;
	u64 *words = on_stack;
	ssize_t ret;

	lockdep_assert_held(&leader->ctx->mutex);
	if (size > sizeof(on_stack)) {
		words = kmalloc(size, GFP_KERNEL);
		if (!words)
			return -ENOMEM;
	}

	words[0] = 1 + leader->nr_siblings;

	if (!leader->attr.inherit) {
		/* no copies to add: no child_mutex round */
		ret = 0;
		if (!perf_read_group_here(leader, read_format, words))
			ret = perf_read_group_add(leader, read_format, words);
	} else {
		/*
		 * The leader under child_mutex too: a copy that exits hands
		 * its counts to the leader and leaves the list in one step.
		 */
		mutex_lock(&leader->child_mutex);
		ret = perf_read_group_add(leader, read_format, words);
		list_for_each_entry(child, &leader->child_list, child_entry) {
			if (ret)
				break;
			ret = perf_read_group_add(child, read_format, words);
		}
		mutex_unlock(&leader->child_mutex);
	}

	if (!ret)
		ret = copy_to_user(buf, words, size) ? -EFAULT : size;

	if (words != on_stack)
		kfree(words);
	return ret;
}

/**
 * perf_read_event - read(2) on an event fd
 * @event: the file's event
 * @buf: the user's buffer
 * @count: its size
 *
 * The LSM check is the caller's (perf_fops).  Takes the context mutex for
 * a group read or an event with inherited copies; else only ctx->lock.
 *
 * Return: the bytes written (the read_format layout), 0 for an event in error
 * state (a pinned event that could not go on the PMU: end of file),
 * -ENOSPC if @count is smaller than the layout, -EFAULT, -ENOMEM, or
 * -ECHILD for a group whose inherited copies no longer match it.
 */
ssize_t perf_read_event(struct perf_event *event, char __user *buf,
			size_t count)
{
	u64 read_format = event->attr.read_format;
	struct perf_event_context *ctx;
	size_t size;
	ssize_t ret;

	/*
	 * One event without copies: no group to hold still and no copies
	 * to sum, so ctx->mutex is not needed; the layout's size is fixed
	 * by read_format.
	 */
	if (!(read_format & PERF_FORMAT_GROUP) && !event->attr.inherit) {
		if (READ_ONCE(event->state) == PERF_EVENT_STATE_ERROR)
			return 0;
		if (count < READ_ONCE(event->read_size))
			return -ENOSPC;
		return perf_read_one(event, buf);
	}

	ctx = perf_event_ctx_lock(event);

	/*
	 * A group's size from the group as it stands (it cannot change
	 * while ctx->mutex is held): the buffer is filled for every member
	 * there is now.  Without PERF_FORMAT_GROUP the size is fixed by
	 * read_format alone.
	 */
	size = read_format & PERF_FORMAT_GROUP ?
	       perf_read_size_for(read_format,
				  event->group_leader->nr_siblings) :
	       event->read_size;

	if (event->state == PERF_EVENT_STATE_ERROR)
		ret = 0;
	else if (count < size)
		ret = -ENOSPC;
	else if (read_format & PERF_FORMAT_GROUP)
		ret = perf_read_group(event, buf, size);
	else
		ret = perf_read_one(event, buf);

	perf_event_ctx_unlock(event, ctx);

	return ret;
}

/* Does @event's counter on @cpu serve @this_cpu too (see below)? */
static bool perf_read_scope_has(struct perf_event *event, int cpu,
				int this_cpu)
{
	const struct cpumask *span;

	if ((event->group_caps & PERF_EV_CAP_READ_ACTIVE_PKG) &&
	    topology_physical_package_id(cpu) ==
	    topology_physical_package_id(this_cpu))
		return true;
	if (!(event->group_caps & PERF_EV_CAP_READ_SCOPE))
		return false;
	span = perf_pmu_scope_span(event->pmu->scope, cpu);
	return span && cpumask_test_cpu(this_cpu, span);
}

/**
 * perf_event_read_cpu - the CPU to read an event on, seen from this CPU
 * @event: the event
 * @cpu: the CPU the event is on or bound to (or -1)
 *
 * Counters that serve a whole package, die or other scope (the PMU says
 * which, per event through PERF_EV_CAP_READ_SCOPE or
 * PERF_EV_CAP_READ_ACTIVE_PKG) can be read from any CPU of that scope:
 * if this CPU is one, it is returned instead of @cpu.  Caller has
 * preemption off.
 *
 * Return: this CPU or @cpu.
 */
int perf_event_read_cpu(struct perf_event *event, int cpu)
{
	int this_cpu = smp_processor_id();

	if ((unsigned int)cpu < nr_cpu_ids && cpu != this_cpu &&
	    perf_read_scope_has(event, cpu, this_cpu))
		return this_cpu;
	return cpu;
}

/*
 * Why @event, whose counter is readable from @on (or -1), cannot be read
 * on @cpu without an IPI, as an errno, or 0.  The answers are checked in
 * the order of the errors' precedence.
 */
static int perf_read_local_refusal(struct perf_event *event, int cpu, int on)
{
	bool reachable;

	if (event->attr.inherit)
		return -EOPNOTSUPP;
	if (event->attach_state & PERF_ATTACH_TASK)
		reachable = event->hw.target == current;
	else
		reachable = perf_event_read_cpu(event, event->cpu) == cpu;
	if (!reachable)
		return -EINVAL;
	/* a pinned event that is not on the PMU here has no count to give */
	if (event->attr.pinned && on != cpu)
		return -EBUSY;
	return 0;
}

/**
 * perf_event_read_local - read a counter without sleeping or IPIs
 * @event: the event
 * @value: set to its count
 * @enabled: if not NULL, set to its time enabled
 * @running: if not NULL, set to its time on the PMU
 *
 * For BPF programs and other callers in atomic context, NMI included.
 * Only an event that can be read right here works: one of the current
 * task, or bound to this CPU (or to a CPU it can be read from).  IRQs are
 * off while it is read, so nothing reschedules it meanwhile.
 *
 * Return: 0; -EOPNOTSUPP for an inherited event (its copies cannot be
 * summed here), -EINVAL for another task's event or another CPU's, -EBUSY
 * for a pinned event that is not on this CPU.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	u64 time_enabled, time_running;
	unsigned long flags;
	int err, cpu, on;

	local_irq_save(flags);
	cpu = smp_processor_id();
	/* where it is on the PMU cannot change under us while it is here */
	on = perf_event_read_cpu(event, READ_ONCE(event->oncpu));
	err = perf_read_local_refusal(event, cpu, on);
	if (err)
		goto out;

	/* on the PMU here: bring the count up to the hardware's first */
	if (on == cpu)
		event->pmu->read(event);
	*value = local64_read(&event->count);
	if (enabled || running) {
		perf_event_times_local(event, &time_enabled, &time_running);
		if (enabled)
			*enabled = time_enabled;
		if (running)
			*running = time_running;
	}
out:
	local_irq_restore(flags);
	return err;
}
