// SPDX-License-Identifier: GPL-2.0
/*
 * One fd for every CPU: perf_event_open() with PERF_FLAG_ALL_CPUS,
 * pid == -1 and cpu == -1.
 *
 * The fd stands for one event per possible CPU, each an ordinary CPU-wide
 * event in its CPU's context, all with the same id.  An event of a CPU
 * that is offline waits there and counts once the CPU comes online, so
 * CPUs that come online later are counted without anything done at
 * hotplug.
 *
 * Opening, ENABLE, DISABLE, RESET and the last close reach every CPU with
 * one cross-call (on_each_cpu()), where each CPU acts on its own event
 * under its context's lock; only the events of CPUs that did not answer
 * (offline ones) are then reached one by one through their context.  A
 * read brings the events up to date one by one: the reader's own CPU's
 * event is read in place, as a read of one event is (perf_read_here()),
 * the others through perf_event_sync(), where only an event that is on a
 * PMU elsewhere needs a cross-call of its own; waiting for one CPU at a
 * time measured cheaper than waking them all.
 * Installing and removing change the contexts' lists, so they hold every
 * context's mutex meanwhile; ENABLE, DISABLE and RESET change only the
 * events' state, counts and times, which ctx->lock alone protects.
 *
 * read() gives the read_format layout of one event, with the counts, times
 * and lost samples summed over the CPUs, or with PERF_FORMAT_PER_CPU the
 * number of CPUs and each CPU's values (include/uapi/linux/perf_event.h).
 * The id is that of the first CPU's event, which every other CPU's event
 * takes too: samples and side-band records carry the id that
 * PERF_EVENT_IOC_ID gives.
 *
 * Each CPU's event writes to a buffer of its own: mmap() of length L at
 * offset cpu * L maps that CPU's (ring_buffer.c then sees offset 0; there
 * is no AUX area).  poll() waits on every CPU's event and reports what
 * any of their buffers has.  SET_FILTER gives each CPU's event the filter
 * in turn, under that event's context mutex alone.
 *
 * Refused, in this order (after the checks of the attr that every open
 * makes, and before the first event is made):
 *   pid or cpu not -1, a group_fd, PERF_FLAG_PID_CGROUP or
 *     PERF_FLAG_FD_OUTPUT                                    EINVAL
 *   PERF_FORMAT_GROUP (the fd is no group)                  EINVAL
 *   aux_output or aux_pause/aux_resume (no AUX leader)      EINVAL
 *   no right to watch CPUs (perf_allow_cpu())               EACCES
 *   a PMU whose counters several CPUs share (uncore): its
 *     events move between CPUs, and N CPUs would count one
 *     counter N times                                       EOPNOTSUPP
 * and then whatever opening the event of one CPU gives.
 *
 * Locking: the DOC: block "ALL_CPUS fd lock" below, shown in
 * Documentation/perf/core/locking.rst.
 */

/**
 * DOC: ALL_CPUS fd lock
 *
 * ``all->mutex`` (``struct perf_all_cpus``, a mutex)
 *   Serialises the ioctls of one ``PERF_FLAG_ALL_CPUS`` fd.  The
 *   ioctls reach each CPU's event by one cross-call to all CPUs, whose
 *   handler changes its CPU's event (enable, disable, reset) under that
 *   context's ``ctx->lock`` without its ``ctx->mutex``.
 *   That is the one exception to the rule that such changes are made under
 *   ``ctx->mutex``, and it holds because only the fd changes the state of
 *   its events, and they never leave their contexts while it is open (PMUs
 *   whose events migrate are refused).  Events of CPUs the cross-call did
 *   not reach (offline ones) are changed under ``ctx->mutex`` as usual.
 *   Installing and removing the events, which changes the contexts' lists,
 *   holds the mutexes of all the CPU contexts, taken in CPU order as one
 *   lockdep nest under ``all->mutex`` (``mutex_lock_nest_lock()``), around
 *   one cross-call.
 *   ``SET_FILTER`` takes each CPU context's ``ctx->mutex`` in turn, one at a
 *   time, as the ioctl of one event does.  ``mmap()`` and ``poll()`` of the
 *   fd do not take ``all->mutex``: they act on one CPU's event at a time
 *   under its ``event->mmap_mutex``, as for one event.
 */

#include <linux/anon_inodes.h>
#include <linux/compat.h>
#include <linux/cpumask.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "all_cpus.h"
#include "context.h"
#include "event.h"
#include "read.h"
#include "records.h"
#include "ring_buffer.h"
#include "syscall.h"
#include "tracepoint.h"

/**
 * struct perf_all_cpus - the object behind a PERF_FLAG_ALL_CPUS fd
 * @mutex: serialises the ioctls, open and release (users of @answered)
 * @read_format: the user's read_format (the events have no PER_CPU bit)
 * @id: what PERF_EVENT_IOC_ID and PERF_FORMAT_ID give
 * @words: u64 words of one CPU's values, or of the sum, in a read()
 * @nr: events in @events
 * @answered: the CPUs whose event the last cross-call reached
 * @events: the event of each possible CPU, NULL for the others
 */
struct perf_all_cpus {
	struct mutex		mutex;		/* see above */
	u64			read_format;
	u64			id;
	unsigned int		words;
	unsigned int		nr;
	cpumask_var_t		answered;
	struct perf_event	*events[];
};

struct all_cpus_call {
	struct perf_all_cpus	*all;
	ctx_func_t		func;
};

static void all_cpus_call_ipi(void *data)
{
	struct all_cpus_call *call = data;
	struct perf_all_cpus *all = call->all;
	int cpu = smp_processor_id();
	struct perf_event *event = all->events[cpu];

	if (event && perf_ctx_call_local(event->ctx, call->func, event))
		cpumask_set_cpu(cpu, all->answered);
}

/*
 * @func on each CPU's event, on that CPU, in one cross-call; sets
 * @all->answered to the CPUs where it ran.
 */
static void all_cpus_broadcast(struct perf_all_cpus *all, ctx_func_t func)
	__must_hold(&all->mutex)
{
	struct all_cpus_call call = { .all = all, .func = func };

	lockdep_assert_held(&all->mutex);
	cpumask_clear(all->answered);
	on_each_cpu(all_cpus_call_ipi, &call, 1);
}

/*
 * @func on every event: a broadcast, then one call each for the events of
 * CPUs that did not answer, under their context's mutex unless the caller
 * holds every one already (@ctxs_held: an install or a removal).
 */
static void all_cpus_apply(struct perf_all_cpus *all, ctx_func_t func,
			   bool ctxs_held)
	__must_hold(&all->mutex)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int cpu;

	all_cpus_broadcast(all, func);
	for_each_possible_cpu(cpu) {
		event = all->events[cpu];
		if (!event || cpumask_test_cpu(cpu, all->answered))
			continue;
		if (ctxs_held) {
			ctx_function_call(event->ctx, func, event);
			continue;
		}
		ctx = perf_event_ctx_lock(event);
		ctx_function_call(ctx, func, event);
		perf_event_ctx_unlock(event, ctx);
	}
}

/* Every event's context mutex, in CPU order: one nest for lockdep. */
static void all_cpus_lock_ctxs(struct perf_all_cpus *all)
	__must_hold(&all->mutex)
{
	int cpu;

	lockdep_assert_held(&all->mutex);
	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			mutex_lock_nest_lock(&all->events[cpu]->ctx->mutex,
					     &all->mutex);
}

static void all_cpus_unlock_ctxs(struct perf_all_cpus *all)
	__must_hold(&all->mutex)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			mutex_unlock(&all->events[cpu]->ctx->mutex);
}

/* Take every installed event out of its context and free it. */
static void all_cpus_free(struct perf_all_cpus *all)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			perf_event_drop_owner(all->events[cpu]);
	mutex_lock(&all->mutex);
	all_cpus_lock_ctxs(all);
	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			perf_sb_event_detach(all->events[cpu]);
	all_cpus_apply(all, perf_remove_dead_func, true);
	all_cpus_unlock_ctxs(all);
	mutex_unlock(&all->mutex);

	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			perf_event_put(all->events[cpu]);
	free_cpumask_var(all->answered);
	kvfree(all);
}

static int perf_all_cpus_release(struct inode *inode, struct file *file)
{
	all_cpus_free(file->private_data);
	return 0;
}

/* Words of one CPU's entry, or of the sum: a lone event's read. */
static unsigned int all_cpus_words(u64 read_format)
{
	return perf_read_size_for(read_format & ~PERF_FORMAT_PER_CPU, 0) /
	       sizeof(u64);
}

/*
 * Bring @event up to date, as a read of one event does (no lock), and
 * write its values as read_format words from @w; return the end.
 */
static u64 *all_cpus_entry(struct perf_all_cpus *all, struct perf_event *event,
			   u64 *w)
{
	u64 fmt = all->read_format;
	u64 enabled, running;

	/* this CPU's event needs no cross-call */
	if (!perf_read_here(event, w, &enabled, &running)) {
		perf_event_sync(event, false);
		*w = local64_read(&event->count);
		enabled = event->total_time_enabled;
		running = event->total_time_running;
	}
	w++;
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*w++ = enabled;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*w++ = running;
	if (fmt & PERF_FORMAT_ID)
		*w++ = all->id;
	if (fmt & PERF_FORMAT_LOST)
		*w++ = atomic64_read(&event->lost_samples);
	return w;
}

static ssize_t all_cpus_read_per_cpu(struct perf_all_cpus *all,
				     u64 __user *ubuf)
{
	unsigned int words = all->words;
	u64 entry[6];
	int cpu;

	if (put_user((u64)all->nr, ubuf++))
		return -EFAULT;
	for_each_possible_cpu(cpu) {
		if (!all->events[cpu])
			continue;
		entry[0] = cpu;
		all_cpus_entry(all, all->events[cpu], entry + 1);
		if (copy_to_user(ubuf, entry, (words + 1) * sizeof(u64)))
			return -EFAULT;
		ubuf += words + 1;
	}
	return (1 + all->nr * (words + 1)) * sizeof(u64);
}

static ssize_t all_cpus_read_sum(struct perf_all_cpus *all, u64 __user *ubuf)
{
	unsigned int words = all->words, i;
	u64 sum[5] = {}, one[5];
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!all->events[cpu])
			continue;
		all_cpus_entry(all, all->events[cpu], one);
		for (i = 0; i < words; i++)
			sum[i] += one[i];
	}
	/* the id is the fd's, not a sum */
	if (all->read_format & PERF_FORMAT_ID)
		sum[words - 1 - !!(all->read_format & PERF_FORMAT_LOST)] =
			all->id;
	if (words == 1)
		return put_user(sum[0], ubuf) ? -EFAULT : sizeof(u64);
	if (copy_to_user(ubuf, sum, words * sizeof(u64)))
		return -EFAULT;
	return words * sizeof(u64);
}

static ssize_t perf_all_cpus_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct perf_all_cpus *all = file->private_data;
	bool per_cpu = all->read_format & PERF_FORMAT_PER_CPU;
	unsigned int words = all->words;
	size_t size;
	ssize_t ret;

	ret = security_perf_event_read(all->events[cpumask_first(cpu_possible_mask)]);
	if (ret)
		return ret;
	size = per_cpu ? (1 + all->nr * (words + 1)) * sizeof(u64) :
			 words * sizeof(u64);
	if (count < size)
		return -ENOSPC;

	if (per_cpu)
		return all_cpus_read_per_cpu(all, (u64 __user *)buf);
	return all_cpus_read_sum(all, (u64 __user *)buf);
}

/*
 * The same filter for every CPU's event, in CPU order.  Each CPU's event
 * checks the text as one event would, so a bad expression, or a second
 * filter (EEXIST), fails at the first CPU with nothing set; only a want
 * of memory can leave the CPUs before it filtered and those after not.
 */
static long all_cpus_set_filter(struct perf_all_cpus *all, void __user *arg)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	long err = 0;
	int cpu;

	mutex_lock(&all->mutex);
	for_each_possible_cpu(cpu) {
		event = all->events[cpu];
		if (!event)
			continue;
		ctx = perf_event_ctx_lock(event);
		err = perf_event_set_filter(event, arg);
		perf_event_ctx_unlock(event, ctx);
		if (err)
			break;
	}
	mutex_unlock(&all->mutex);
	return err;
}

static long perf_all_cpus_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct perf_all_cpus *all = file->private_data;
	ctx_func_t func;
	long err;

	/* as perf_ioctl(): the LSM is asked for write access to the events */
	err = security_perf_event_write(all->events[cpumask_first(cpu_possible_mask)]);
	if (err)
		return err;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		func = perf_enable_func;
		break;
	case PERF_EVENT_IOC_DISABLE:
		func = perf_disable_func;
		break;
	case PERF_EVENT_IOC_RESET:
		func = perf_reset_func;
		break;
	case PERF_EVENT_IOC_ID:
		return put_user(all->id, (u64 __user *)arg) ? -EFAULT : 0;
	case PERF_EVENT_IOC_SET_FILTER:
		return all_cpus_set_filter(all, (void __user *)arg);
	case PERF_EVENT_IOC_REFRESH:
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_SET_OUTPUT:
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
	case PERF_EVENT_IOC_QUERY_BPF:
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return -EOPNOTSUPP;
	default:
		return -ENOTTY;
	}

	mutex_lock(&all->mutex);
	all_cpus_apply(all, func, false);
	mutex_unlock(&all->mutex);
	return 0;
}

/*
 * mmap() of length L at offset cpu * L: that CPU's buffer.  The fd's file
 * keeps the events (and so the buffers) alive while the mapping holds it.
 */
static int perf_all_cpus_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_all_cpus *all = file->private_data;
	unsigned long pages = vma_pages(vma), cpu;
	struct perf_event *event;

	if (!pages || vma->vm_pgoff % pages)
		return -EINVAL;
	cpu = vma->vm_pgoff / pages;
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	event = all->events[array_index_nospec(cpu, nr_cpu_ids)];
	if (!event)
		return -EINVAL;
	/* from here on the mapping counts from the buffer's first page */
	vma->vm_pgoff = 0;
	return perf_mmap_event(event, vma);
}

/*
 * What any CPU's buffer has (each event's readiness is taken, as for one
 * event); EPOLLHUP while no CPU's buffer is mapped, as for an event with
 * no buffer.
 */
static __poll_t perf_all_cpus_poll(struct file *file, poll_table *wait)
{
	struct perf_all_cpus *all = file->private_data;
	struct perf_event *event;
	__poll_t ready = 0;
	bool mapped = false;
	int cpu;

	for_each_possible_cpu(cpu) {
		event = all->events[cpu];
		if (!event)
			continue;
		poll_wait(file, &event->waitq, wait);
		mutex_lock(&event->mmap_mutex);
		if (event->rb) {
			mapped = true;
			ready |= (__force __poll_t)atomic_xchg(&event->rb->poll, 0);
		}
		mutex_unlock(&event->mmap_mutex);
	}
	return mapped ? ready : EPOLLHUP;
}

/* The attr is every CPU's: the first event's lines stand for all. */
static void perf_all_cpus_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct perf_all_cpus *all = file->private_data;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (all->events[cpu]) {
			perf_event_show_fdinfo(m, all->events[cpu]);
			return;
		}
	}
}

static const struct file_operations perf_all_cpus_fops = {
	.read		= perf_all_cpus_read,
	.poll		= perf_all_cpus_poll,
	.mmap		= perf_all_cpus_mmap,
	.unlocked_ioctl	= perf_all_cpus_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.release	= perf_all_cpus_release,
	.show_fdinfo	= perf_all_cpus_show_fdinfo,
};

/* The refusals of the table at the top that come before any event. */
static int all_cpus_check(struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags)
{
	if (pid != -1 || cpu != -1 || group_fd != -1 ||
	    (flags & (PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_OUTPUT)))
		return -EINVAL;
	if (attr->read_format & PERF_FORMAT_GROUP)
		return -EINVAL;
	if (attr->aux_output || attr->aux_action)
		return -EINVAL;
	return perf_allow_cpu();
}

/* An uncore-style PMU: one set of counters for several CPUs. */
static bool all_cpus_pmu_shared(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	return pmu->scope != PERF_PMU_SCOPE_NONE ||
	       pmu->task_ctx_nr == perf_invalid_context;
}

/*
 * Make each possible CPU's event into @events, none in a context yet, all
 * with the first one's id.  Nothing is locked: allocation may take locks
 * that nest outside a context's mutex.
 */
static int all_cpus_alloc_events(struct perf_event_attr *attr,
				 struct perf_event **events)
{
	struct perf_event_attr one = *attr;
	struct perf_event *event;
	u64 id = 0;
	int cpu;

	/* a CPU-wide event has no copies to make or sum */
	one.read_format &= ~(u64)PERF_FORMAT_PER_CPU;
	one.inherit = 0;
	one.inherit_stat = 0;
	one.inherit_thread = 0;
	for_each_possible_cpu(cpu) {
		event = perf_event_alloc_cpu_event(&one, cpu);
		if (IS_ERR(event))
			return PTR_ERR(event);
		events[cpu] = event;
		if (all_cpus_pmu_shared(event))
			return -EOPNOTSUPP;
		/* no lookup goes by id: only what records and reads show */
		if (!id)
			id = event->id;
		event->id = id;
	}
	return 0;
}

/*
 * Put each event of @events into its CPU's context and under @all; on
 * failure, the events that did not get in stay in @events for the caller
 * to free.
 */
static int all_cpus_install(struct perf_all_cpus *all,
			    struct perf_event **events)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int cpu, err = 0;

	mutex_lock(&all->mutex);
	for_each_possible_cpu(cpu) {
		event = events[cpu];
		ctx = perf_ctx_find_get(NULL, cpu);
		if (IS_ERR(ctx)) {
			err = PTR_ERR(ctx);
			break;
		}
		mutex_lock_nest_lock(&ctx->mutex, &all->mutex);
		err = perf_event_join_cpu_ctx(event, ctx);
		if (err) {
			mutex_unlock(&ctx->mutex);
			perf_ctx_put(ctx);
			break;
		}
		/* the context's reference passes to the event */
		WRITE_ONCE(event->ctx, ctx);
		all->events[cpu] = event;
		events[cpu] = NULL;
		all->nr++;
	}
	/* even after a failure: all_cpus_free() then takes them out again */
	all_cpus_apply(all, perf_install_func, true);
	for_each_possible_cpu(cpu)
		if (all->events[cpu])
			perf_sb_event_attach(all->events[cpu]);
	all_cpus_unlock_ctxs(all);
	mutex_unlock(&all->mutex);
	return err;
}

/**
 * perf_all_cpus_open - perf_event_open() with PERF_FLAG_ALL_CPUS
 * @attr: the attr, copied and checked (perf_copy_attr() and the access and
 *	  rate checks)
 * @pid: must be -1
 * @cpu: must be -1
 * @group_fd: must be -1
 * @flags: PERF_FLAG_ALL_CPUS, maybe PERF_FLAG_FD_CLOEXEC and
 *	   PERF_FLAG_FD_NO_GROUP
 *
 * Return: the new fd, or a negative errno (the table at the top).
 */
int perf_all_cpus_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd, unsigned long flags)
{
	struct perf_event **events;
	struct perf_all_cpus *all;
	int err, c;

	err = all_cpus_check(attr, pid, cpu, group_fd, flags);
	if (err)
		return err;

	all = kvzalloc(struct_size(all, events, nr_cpu_ids),
		       GFP_KERNEL_ACCOUNT);
	events = kvcalloc(nr_cpu_ids, sizeof(*events), GFP_KERNEL);
	if (!all || !events ||
	    !zalloc_cpumask_var(&all->answered, GFP_KERNEL_ACCOUNT)) {
		kvfree(events);
		kvfree(all);
		return -ENOMEM;
	}
	mutex_init(&all->mutex);
	all->read_format = attr->read_format;
	all->words = all_cpus_words(attr->read_format);

	err = all_cpus_alloc_events(attr, events);
	if (!err)
		err = all_cpus_install(all, events);
	for_each_possible_cpu(c)
		if (events[c] && !IS_ERR(events[c]))
			perf_event_free(events[c]);
	kvfree(events);
	if (err)
		goto out_free;

	/* prctl() reaches them as it reaches the opener's other events */
	for_each_possible_cpu(c)
		if (all->events[c])
			perf_event_set_owner(all->events[c]);
	all->id = perf_event_primary_id(all->events[cpumask_first(cpu_possible_mask)]);
	err = anon_inode_getfd("[perf_event]", &perf_all_cpus_fops, all,
			       O_RDWR | (flags & PERF_FLAG_FD_CLOEXEC ?
					 O_CLOEXEC : 0));
	if (err < 0)
		goto out_free;
	return err;

out_free:
	all_cpus_free(all);
	return err;
}
