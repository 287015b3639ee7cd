// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happens around the sampled code (mappings,
 * names, forks and exits, namespaces, cgroups, kernel symbols, BPF
 * programs, text patching, context switches), written into the ring
 * buffers of the events that asked for it.
 *
 * Listeners
 * ---------
 * perf_sb_event_attach() puts an event that asks for records on one of
 * two kinds of RCU list: a CPU-wide event (its context has no task) on
 * the list of its CPU, a task event (inherited copies included) on the
 * sb_events list of its task context.  event->sb_kinds holds the kinds of
 * record it takes (enum perf_sb_kind), and perf_sb_listeners[] counts the
 * attached events per kind, so that every hook is a single atomic read
 * while nobody listens.  The lists change under perf_sb_lists_lock (a raw
 * spinlock, taken by attach and detach in process context under
 * ctx->mutex); readers walk them under rcu_read_lock() with preemption
 * off.  Events and task contexts are freed after a grace period, so
 * unlinking at detach is enough.
 *
 * Delivery
 * --------
 * A record about the running task goes to the CPU-wide listeners of this
 * CPU and to the listeners in the running task's context.  A listener
 * takes it if it asked for the kind, is enabled (state INACTIVE or
 * ACTIVE), may count on this CPU and, for a cgroup event, current is in
 * its cgroup.  Each listener gets its own copy: pid and tid are given in
 * the listener's pid namespace and the sample_id trailer is its own.
 *
 * Records that concern one event (THROTTLE, READ, ITRACE_START,
 * AUX_OUTPUT_HW_ID) are written to that event directly.
 *
 * Not here: PERF_RECORD_AUX (the AUX code writes it) and the adjustment
 * of AUX address filters on new mappings (comes with AUX).
 */

/**
 * DOC: Side-band lists lock
 *
 * ``perf_sb_lists_lock`` (``records.c``, a raw spinlock, IRQs saved)
 *   Protects the side-band listener lists: the per-CPU lists of CPU-wide
 *   listeners and the ``sb_events`` lists of task contexts.  Events are
 *   attached and detached by the install and remove paths, with
 *   ``ctx->mutex`` held and ``ctx->lock`` not held.  Records are delivered by
 *   walking the lists under ``rcu_read_lock()`` with preemption disabled.
 */

#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/pid_namespace.h>
#include <linux/proc_ns.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"
#include "addr_filter.h"
#include "context.h"
#include "read.h"
#include "records.h"
#include "callchain_deferred.h"

/* ---------------------------------------------------------------------
 * Who listens
 */

atomic_t perf_sb_listeners[PERF_SB_NR_KINDS];

static DEFINE_PER_CPU(struct hlist_head, perf_sb_cpu_events);
static DEFINE_RAW_SPINLOCK(perf_sb_lists_lock);

/* The record kinds @attr asks for, as a mask of BIT(PERF_SB_*). */
static unsigned int perf_sb_kinds_of(const struct perf_event_attr *attr)
{
	bool maps = attr->mmap || attr->mmap2 || attr->mmap_data;
	unsigned int kinds = 0;

	kinds |= maps ? BIT(PERF_SB_MMAP) : 0;
	kinds |= attr->mmap2 && attr->build_id ? BIT(PERF_SB_BUILD_ID) : 0;
	kinds |= attr->comm ? BIT(PERF_SB_COMM) : 0;
	/* tools need forks and exits to make sense of names and maps */
	kinds |= maps || attr->comm || attr->task ? BIT(PERF_SB_TASK) : 0;
	kinds |= attr->namespaces ? BIT(PERF_SB_NAMESPACES) : 0;
	kinds |= attr->cgroup ? BIT(PERF_SB_CGROUP) : 0;
	kinds |= attr->ksymbol ? BIT(PERF_SB_KSYMBOL) : 0;
	kinds |= attr->bpf_event ? BIT(PERF_SB_BPF) : 0;
	kinds |= attr->text_poke ? BIT(PERF_SB_TEXT_POKE) : 0;
	kinds |= attr->context_switch ? BIT(PERF_SB_SWITCH) : 0;
	kinds |= attr->defer_output ? BIT(PERF_SB_CALLCHAIN_DEFERRED) : 0;

	return kinds;
}

static void perf_sb_count(unsigned int kinds, int delta)
{
	unsigned long mask = kinds;
	unsigned int kind;

	for_each_set_bit(kind, &mask, PERF_SB_NR_KINDS)
		atomic_add(delta, &perf_sb_listeners[kind]);
}

/**
 * perf_sb_event_attach - start sending side-band records to an event
 * @event: an event just installed in its context (ctx->mutex held)
 *
 * Does nothing if @event asks for no record, or is still attached (a
 * move within its context, DETACH_MOVE).
 */
void perf_sb_event_attach(struct perf_event *event)
{
	unsigned int kinds = perf_sb_kinds_of(&event->attr);
	struct perf_event_context *ctx = event->ctx;
	struct hlist_head *list;
	unsigned long flags;

	lockdep_assert_held(&ctx->mutex);
	if (!kinds || !hlist_unhashed(&event->sb_entry))
		return;

	if (ctx->task)
		list = &ctx->sb_events;
	else if (!WARN_ON_ONCE(event->cpu < 0))
		list = per_cpu_ptr(&perf_sb_cpu_events, event->cpu);
	else
		return;

	/* counts first: a hook that sees the event also sees them non-zero */
	perf_sb_count(kinds, 1);
	WRITE_ONCE(event->sb_kinds, kinds);

	raw_spin_lock_irqsave(&perf_sb_lists_lock, flags);
	hlist_add_head_rcu(&event->sb_entry, list);
	raw_spin_unlock_irqrestore(&perf_sb_lists_lock, flags);
}

/**
 * perf_sb_event_detach - stop sending side-band records to an event
 * @event: an event leaving its context (ctx->mutex held)
 *
 * A walker already past the unlink may still hand @event one more record;
 * the event is freed only after a grace period, so that is harmless.  An
 * event linked again elsewhere must wait for a grace period in between:
 * a walker still on it would go on along the other list.
 */
void perf_sb_event_detach(struct perf_event *event)
{
	unsigned int kinds = event->sb_kinds;
	unsigned long flags;

	lockdep_assert_held(&event->ctx->mutex);
	if (hlist_unhashed(&event->sb_entry))
		return;

	raw_spin_lock_irqsave(&perf_sb_lists_lock, flags);
	hlist_del_init_rcu(&event->sb_entry);
	raw_spin_unlock_irqrestore(&perf_sb_lists_lock, flags);

	WRITE_ONCE(event->sb_kinds, 0);
	perf_sb_count(kinds, -1);
}

#ifdef CONFIG_CGROUP_PERF
/* A cgroup event hears only of what tasks of its cgroup do.  RCU held. */
static bool perf_sb_cgroup_ok(struct perf_event *event)
{
	struct cgroup *mine;

	if (!event->cgrp)
		return true;
	mine = perf_cgroup_from_task(current, NULL)->css.cgroup;
	return cgroup_is_descendant(mine, event->cgrp->css.cgroup);
}
#else
static bool perf_sb_cgroup_ok(struct perf_event *event)
{
	return true;
}
#endif

/* Whether @event takes a record of @kind here and now. */
static bool perf_sb_event_takes(struct perf_event *event, unsigned int kind)
{
	int cpu = READ_ONCE(event->cpu);

	if (!(READ_ONCE(event->sb_kinds) & BIT(kind)))
		return false;
	if (READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return false;
	if (cpu != -1 && cpu != smp_processor_id())
		return false;
	return perf_sb_cgroup_ok(event);
}

typedef void (*perf_sb_writer_t)(struct perf_event *event, void *rec);

/*
 * Hand @rec to @write for every listener of @kind among this CPU's
 * CPU-wide events and the events of @task's context (@task is current,
 * or NULL for CPU-wide listeners only).
 */
static void perf_sb_deliver(unsigned int kind, struct task_struct *task,
			    perf_sb_writer_t write, void *rec)
{
	struct perf_event_context *ctx;
	struct perf_event *event;

	rcu_read_lock();
	preempt_disable();

	hlist_for_each_entry_rcu(event, this_cpu_ptr(&perf_sb_cpu_events),
				 sb_entry) {
		if (perf_sb_event_takes(event, kind))
			write(event, rec);
	}

	ctx = task ? rcu_dereference(*task_ctxp(task)) : NULL;
	if (ctx) {
		hlist_for_each_entry_rcu(event, &ctx->sb_events, sb_entry) {
			/* an event moved to another list while we walked */
			if (READ_ONCE(event->ctx) != ctx)
				continue;
			if (perf_sb_event_takes(event, kind))
				write(event, rec);
		}
	}

	preempt_enable();
	rcu_read_unlock();
}

/* ---------------------------------------------------------------------
 * Writing one record
 */

/* Output handle and sample_id of one record being written. */
struct perf_sb_out {
	struct perf_output_handle	handle;
	struct perf_sample_data		sample;
};

/*
 * Reserve a record of @type for @event, @body bytes between the header and
 * the sample_id trailer, and write the header.  False: no room (or no
 * buffer); nothing to finish then.
 */
static bool perf_sb_reserve(struct perf_sb_out *out, struct perf_event *event,
			    u32 type, u16 misc, size_t body)
{
	struct perf_event_header header;
	size_t size = sizeof(header) + body;

	if (WARN_ON_ONCE(size + event->id_header_size > U16_MAX))
		return false;

	perf_sample_data_init(&out->sample, 0, 0);
	perf_event_header__init(&header, &out->sample, type, misc, size, event);
	if (perf_output_begin(&out->handle, &out->sample, event, header.size))
		return false;

	perf_output_put(&out->handle, header);
	return true;
}

/* Append the sample_id trailer and publish the record. */
static void perf_sb_publish(struct perf_sb_out *out, struct perf_event *event)
{
	perf_event__output_id_sample(event, &out->handle, &out->sample);
	perf_output_end(&out->handle);
}

/* Padding source: no record pads by more than a u64. */
static const u64 perf_sb_zeroes;

/* Bytes a string of @len characters takes: NUL-terminated, whole u64s. */
static size_t perf_sb_str_size(size_t len)
{
	return ALIGN(len + 1, sizeof(u64));
}

/* Write @len characters of @str, then zeroes up to perf_sb_str_size(). */
static void perf_sb_put_str(struct perf_output_handle *handle,
			    const char *str, size_t len)
{
	perf_output_copy(handle, str, len);
	perf_output_copy(handle, &perf_sb_zeroes, perf_sb_str_size(len) - len);
}

/* The pid namespace an event reports in: its top parent's (the opener's). */
static struct pid_namespace *perf_sb_ns(struct perf_event *event)
{
	return event->parent ? event->parent->ns : event->ns;
}

/*
 * @p's number of @type in @event's namespace.  0 means @p is not visible
 * there (or is an idle task); a task already unhashed reads as -1.
 */
static u32 perf_sb_nr(struct perf_event *event, struct task_struct *p,
		      enum pid_type type)
{
	pid_t nr = __task_pid_nr_ns(p, type, perf_sb_ns(event));

	return nr || pid_alive(p) ? nr : -1;
}

/* pid and tid of a task, as most records start. */
struct perf_sb_ids {
	u32	pid;
	u32	tid;
};

static struct perf_sb_ids perf_sb_ids_of(struct perf_event *event,
					 struct task_struct *p)
{
	return (struct perf_sb_ids) {
		.pid = perf_sb_nr(event, p, PIDTYPE_TGID),
		.tid = perf_sb_nr(event, p, PIDTYPE_PID),
	};
}

/* A record that is a pid/tid pair and nothing else (ITRACE_START). */
static void perf_sb_write_ids_record(struct perf_event *event, u32 type,
				     struct task_struct *p)
{
	struct perf_sb_ids ids = perf_sb_ids_of(event, p);
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, type, 0, sizeof(ids)))
		return;
	perf_output_put(&out.handle, ids);
	perf_sb_publish(&out, event);
}

/* ---------------------------------------------------------------------
 * MMAP and MMAP2
 */

/* After pid and tid, both record types go on with the range. */
struct perf_sb_range {
	u64	start;
	u64	len;
	u64	pgoff;
};

/* What MMAP2 adds before the file name. */
struct perf_sb_mmap2_ids {
	union {
		struct {
			u32	maj;
			u32	min;
			u64	ino;
			u64	ino_generation;
		} inode;
		struct {
			u8	size;
			u8	reserved_1;
			u16	reserved_2;
			u8	bytes[BUILD_ID_SIZE_MAX];
		} build_id;
	};
	u32	prot;
	u32	flags;
};

static_assert(sizeof(struct perf_sb_mmap2_ids) == 32);

struct perf_sb_mmap {
	bool				exec;
	bool				has_build_id;
	struct perf_sb_range		range;
	struct perf_sb_mmap2_ids	by_inode;
	struct perf_sb_mmap2_ids	by_build_id;
	const char			*name;
	size_t				name_len;
};

static void perf_sb_write_mmap(struct perf_event *event, void *rec)
{
	struct perf_sb_mmap *m = rec;
	const struct perf_sb_mmap2_ids *extra = &m->by_inode;
	struct perf_event_attr *attr = &event->attr;
	bool two = attr->mmap2;
	u16 misc = PERF_RECORD_MISC_USER;
	struct perf_sb_ids ids;
	struct perf_sb_out out __uninitialized;
	size_t body;

	/* data mappings only for mmap_data, code only for mmap and mmap2 */
	if (m->exec ? !(attr->mmap || two) : !attr->mmap_data)
		return;

	if (!m->exec)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (two && attr->build_id && m->has_build_id) {
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		extra = &m->by_build_id;
	}

	body = sizeof(ids) + sizeof(m->range) + perf_sb_str_size(m->name_len);
	if (two)
		body += sizeof(*extra);

	if (!perf_sb_reserve(&out, event, two ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP,
			     misc, body))
		return;
	ids = perf_sb_ids_of(event, current);
	perf_output_put(&out.handle, ids);
	perf_output_put(&out.handle, m->range);
	if (two)
		perf_output_put(&out.handle, *extra);
	perf_sb_put_str(&out.handle, m->name, m->name_len);
	perf_sb_publish(&out, event);
}

static u32 perf_sb_vma_prot(const struct vm_area_struct *vma)
{
	vm_flags_t f = vma->vm_flags;

	return (f & VM_READ ? PROT_READ : 0) |
	       (f & VM_WRITE ? PROT_WRITE : 0) |
	       (f & VM_EXEC ? PROT_EXEC : 0);
}

static u32 perf_sb_vma_map_flags(struct vm_area_struct *vma)
{
	u32 flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;

	flags |= vma->vm_flags & VM_LOCKED ? MAP_LOCKED : 0;
	flags |= is_vm_hugetlb_page(vma) ? MAP_HUGETLB : 0;
	return flags;
}

/* The name user space knows a mapping without a file by. */
static const char *perf_sb_anon_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;

	if (vma_is_initial_heap(vma))
		return "[heap]";
	return vma_is_initial_stack(vma) ? "[stack]" : "//anon";
}

/* Room for a file's path without allocating one of PATH_MAX. */
#define PERF_SB_PATH_ON_STACK	256

/* Longest special mapping name reported, as user space has always seen. */
#define PERF_SB_ANON_NAME_MAX	15

/* The record of a new mapping, built once for every listener. */
static noinline void perf_sb_mmap_record(struct vm_area_struct *vma)
{
	char small[PERF_SB_PATH_ON_STACK] __uninitialized;
	struct perf_sb_mmap m = { };
	struct file *file = vma->vm_file;
	char *buf = NULL;

	m.exec = vma->vm_flags & VM_EXEC;
	m.range.start = vma->vm_start;
	m.range.len = vma->vm_end - vma->vm_start;
	m.range.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
	m.by_inode.prot = perf_sb_vma_prot(vma);
	m.by_inode.flags = perf_sb_vma_map_flags(vma);

	if (file) {
		const struct inode *inode = file_user_inode(file);
		dev_t dev = inode->i_sb->s_dev;

		m.by_inode.inode.maj = MAJOR(dev);
		m.by_inode.inode.min = MINOR(dev);
		m.by_inode.inode.ino = inode->i_ino;
		m.by_inode.inode.ino_generation = inode->i_generation;

		/* most paths fit on the stack; the rest get a page */
		m.name = d_path(file_user_path(file), small, sizeof(small));
		if (IS_ERR(m.name)) {
			buf = kmalloc(PATH_MAX, GFP_KERNEL);
			if (buf) {
				m.name = d_path(file_user_path(file), buf,
						PATH_MAX);
				if (IS_ERR(m.name))
					m.name = "//toolong";
			} else {
				m.name = "//enomem";
			}
		}
		m.name_len = strlen(m.name);
	} else {
		m.name = perf_sb_anon_name(vma);
		m.name_len = strnlen(m.name, PERF_SB_ANON_NAME_MAX);
	}

	m.by_build_id.prot = m.by_inode.prot;
	m.by_build_id.flags = m.by_inode.flags;
	if (perf_sb_wanted(PERF_SB_BUILD_ID)) {
		u32 size = 0;

		if (!build_id_parse_nofault(vma, m.by_build_id.build_id.bytes,
					    &size) && size) {
			m.by_build_id.build_id.size = size;
			m.has_build_id = true;
		}
	}

	perf_sb_deliver(PERF_SB_MMAP, current, perf_sb_write_mmap, &m);
	kfree(buf);
}

/**
 * perf_event_mmap - a mapping was created (PERF_RECORD_MMAP/MMAP2)
 * @vma: the new mapping, in current's address space (mmap lock held)
 *
 * Code mappings go to attr.mmap and attr.mmap2 listeners, the others to
 * attr.mmap_data ones; file address filters of current's events that
 * name the file follow a code mapping.  May sleep.
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	mmap_assert_locked(vma->vm_mm);
	perf_addr_filters_mmap(vma);
	if (perf_sb_wanted(PERF_SB_MMAP))
		perf_sb_mmap_record(vma);
}

/* ---------------------------------------------------------------------
 * COMM, FORK, EXIT
 */

struct perf_sb_comm {
	struct task_struct	*task;
	u16			misc;
	size_t			len;
	char			comm[TASK_COMM_LEN];
};

static void perf_sb_write_comm(struct perf_event *event, void *rec)
{
	struct perf_sb_comm *c = rec;
	struct perf_sb_ids ids = perf_sb_ids_of(event, c->task);
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_COMM, c->misc,
			     sizeof(ids) + perf_sb_str_size(c->len)))
		return;
	perf_output_put(&out.handle, ids);
	perf_sb_put_str(&out.handle, c->comm, c->len);
	perf_sb_publish(&out, event);
}

/* Copy @task's name once, then write it to every listener. */
static noinline void perf_sb_comm_record(struct task_struct *task, bool exec)
{
	struct perf_sb_comm c;

	c.task = task;
	c.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	strscpy_pad(c.comm, task->comm, sizeof(c.comm));
	c.len = strlen(c.comm);
	perf_sb_deliver(PERF_SB_COMM, current, perf_sb_write_comm, &c);
}

/**
 * perf_event_comm - a task changed its name (PERF_RECORD_COMM)
 * @task: the task
 * @exec: whether exec() changed it; such records carry
 *	  PERF_RECORD_MISC_COMM_EXEC (attr.comm_exec only tells user space
 *	  the kernel sets it)
 *
 * Goes to attr.comm listeners of this CPU and of current's context.
 */
void perf_event_comm(struct task_struct *task, bool exec)
{
	if (perf_sb_wanted(PERF_SB_COMM))
		perf_sb_comm_record(task, exec);
}

struct perf_sb_task {
	struct task_struct	*task;
	bool			fork;
};

/* FORK and EXIT records, after the header. */
struct perf_sb_task_body {
	u32	pid;
	u32	ppid;
	u32	tid;
	u32	ptid;
	u64	time;
};

static void perf_sb_write_task(struct perf_event *event, void *rec)
{
	struct perf_sb_task *t = rec;
	struct perf_sb_task_body body;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event,
			     t->fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0,
			     sizeof(body)))
		return;

	body.pid = perf_sb_nr(event, t->task, PIDTYPE_TGID);
	body.tid = perf_sb_nr(event, t->task, PIDTYPE_PID);
	if (t->fork) {
		/* forks are reported by the parent, which is current */
		body.ppid = perf_sb_nr(event, current, PIDTYPE_TGID);
		body.ptid = perf_sb_nr(event, current, PIDTYPE_PID);
	} else {
		/* an exit names the parent process in both fields */
		struct task_struct *parent = rcu_dereference(t->task->real_parent);

		body.ppid = perf_sb_nr(event, parent, PIDTYPE_TGID);
		body.ptid = body.ppid;
	}
	body.time = event->clock();

	perf_output_put(&out.handle, body);
	perf_sb_publish(&out, event);
}

static void perf_sb_task_record(struct task_struct *task, bool fork)
{
	struct perf_sb_task t = { .task = task, .fork = fork };

	if (perf_sb_wanted(PERF_SB_TASK))
		perf_sb_deliver(PERF_SB_TASK, current, perf_sb_write_task, &t);
}

/**
 * perf_event_fork - a task was created (PERF_RECORD_FORK)
 * @task: the new task; current is its parent
 *
 * Only the records (FORK, then NAMESPACES); inheriting the parent's events
 * is done by perf_event_init_task().  The FORK record goes to the listeners
 * of this CPU and of the parent's context.
 */
void perf_event_fork(struct task_struct *task)
{
	perf_sb_task_record(task, true);
	perf_event_namespaces(task);
}

/**
 * perf_event_exit_record - current exits (PERF_RECORD_EXIT)
 * @task: the exiting task, current
 *
 * To the listeners of this CPU and of @task's own context, which must
 * still be in place.
 */
void perf_event_exit_record(struct task_struct *task)
{
	if (WARN_ON_ONCE(task != current))
		return;
	perf_sb_task_record(task, false);
}

/* ---------------------------------------------------------------------
 * NAMESPACES
 */

struct perf_sb_namespaces {
	struct task_struct	*task;
	struct perf_ns_link_info links[NR_NAMESPACES];
};

static void perf_sb_write_namespaces(struct perf_event *event, void *rec)
{
	struct perf_sb_namespaces *ns = rec;
	struct perf_sb_ids ids = perf_sb_ids_of(event, ns->task);
	u64 nr = NR_NAMESPACES;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_NAMESPACES, 0,
			     sizeof(ids) + sizeof(nr) + sizeof(ns->links)))
		return;
	perf_output_put(&out.handle, ids);
	perf_output_put(&out.handle, nr);
	perf_output_put(&out.handle, ns->links);
	perf_sb_publish(&out, event);
}

/* Where each namespace goes in the record; those not built stay 0/0. */
static const struct {
	unsigned int				index;
	const struct proc_ns_operations		*ops;
} perf_sb_ns_kinds[] = {
#ifdef CONFIG_NET_NS
	{ NET_NS_INDEX,		&netns_operations },
#endif
#ifdef CONFIG_UTS_NS
	{ UTS_NS_INDEX,		&utsns_operations },
#endif
#ifdef CONFIG_IPC_NS
	{ IPC_NS_INDEX,		&ipcns_operations },
#endif
#ifdef CONFIG_PID_NS
	{ PID_NS_INDEX,		&pidns_operations },
#endif
#ifdef CONFIG_USER_NS
	{ USER_NS_INDEX,	&userns_operations },
#endif
	{ MNT_NS_INDEX,		&mntns_operations },
#ifdef CONFIG_CGROUPS
	{ CGROUP_NS_INDEX,	&cgroupns_operations },
#endif
};

/* Collect @task's namespace links, then write them to every listener. */
static noinline void perf_sb_namespaces_record(struct task_struct *task)
{
	struct perf_sb_namespaces ns = { .task = task };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(perf_sb_ns_kinds); i++) {
		struct perf_ns_link_info *link;
		struct path path;
		struct inode *inode;

		if (ns_get_path(&path, task, perf_sb_ns_kinds[i].ops))
			continue;
		inode = d_inode(path.dentry);
		link = &ns.links[perf_sb_ns_kinds[i].index];
		link->dev = new_encode_dev(inode->i_sb->s_dev);
		link->ino = inode->i_ino;
		path_put(&path);
	}

	perf_sb_deliver(PERF_SB_NAMESPACES, current, perf_sb_write_namespaces,
			&ns);
}

/**
 * perf_event_namespaces - a task has new namespaces (PERF_RECORD_NAMESPACES)
 * @task: the task (a new child, or current after unshare/setns)
 *
 * Each namespace is given as the device and inode of its nsfs file, in
 * the order of the NET_NS_INDEX ... CGROUP_NS_INDEX enum.  May sleep.
 */
void perf_event_namespaces(struct task_struct *task)
{
	if (perf_sb_wanted(PERF_SB_NAMESPACES))
		perf_sb_namespaces_record(task);
}

/* ---------------------------------------------------------------------
 * CGROUP
 */

#ifdef CONFIG_CGROUP_PERF
struct perf_sb_cgroup {
	u64		id;
	const char	*path;
	size_t		len;
};

static void perf_sb_write_cgroup(struct perf_event *event, void *rec)
{
	struct perf_sb_cgroup *cg = rec;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_CGROUP, 0,
			     sizeof(cg->id) + perf_sb_str_size(cg->len)))
		return;
	perf_output_put(&out.handle, cg->id);
	perf_sb_put_str(&out.handle, cg->path, cg->len);
	perf_sb_publish(&out, event);
}

/**
 * perf_event_cgroup_record - a cgroup was created (PERF_RECORD_CGROUP)
 * @cgrp: the new cgroup, online now
 *
 * Gives its id (what PERF_SAMPLE_CGROUP samples carry) and its path in the
 * hierarchy.  Process context, may sleep.
 */
void perf_event_cgroup_record(struct cgroup *cgrp)
{
	struct perf_sb_cgroup cg = { .id = cgroup_id(cgrp) };
	char *buf;
	int len;

	if (!perf_sb_wanted(PERF_SB_CGROUP))
		return;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (buf) {
		len = cgroup_path(cgrp, buf, PATH_MAX);
		cg.path = len >= 0 && len < PATH_MAX ? buf : "//toolong";
	} else {
		cg.path = "//enomem";
	}
	cg.len = strlen(cg.path);

	perf_sb_deliver(PERF_SB_CGROUP, current, perf_sb_write_cgroup, &cg);
	kfree(buf);
}
#endif /* CONFIG_CGROUP_PERF */

/* ---------------------------------------------------------------------
 * KSYMBOL and BPF_EVENT
 */

struct perf_sb_ksymbol {
	struct {
		u64	addr;
		u32	len;
		u16	ksym_type;
		u16	flags;
	} body;
	const char	*name;
	size_t		name_len;
};

static void perf_sb_write_ksymbol(struct perf_event *event, void *rec)
{
	struct perf_sb_ksymbol *k = rec;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_KSYMBOL, 0,
			     sizeof(k->body) + perf_sb_str_size(k->name_len)))
		return;
	perf_output_put(&out.handle, k->body);
	perf_sb_put_str(&out.handle, k->name, k->name_len);
	perf_sb_publish(&out, event);
}

/**
 * perf_event_ksymbol - a kernel symbol appeared or went away
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_* (not UNKNOWN)
 * @addr: its address
 * @len: its size
 * @unregister: true when it goes away
 * @sym: its name (at most KSYM_NAME_LEN - 1 characters are reported)
 *
 * Writes PERF_RECORD_KSYMBOL to the attr.ksymbol listeners.
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
	struct perf_sb_ksymbol k;

	if (!perf_sb_wanted(PERF_SB_KSYMBOL))
		return;

	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: KSYMBOL record of unknown type %u\n", ksym_type))
		return;

	k.body.addr = addr;
	k.body.len = len;
	k.body.ksym_type = ksym_type;
	k.body.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0;
	k.name = sym;
	k.name_len = strnlen(sym, KSYM_NAME_LEN - 1);
	perf_sb_deliver(PERF_SB_KSYMBOL, current, perf_sb_write_ksymbol, &k);
}

/* One KSYMBOL record per function of a BPF program: main, then the rest. */
static void perf_sb_bpf_ksymbols(struct bpf_prog *prog, bool unregister)
{
	u32 i;

	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
			   (unsigned long)prog->bpf_func, prog->jited_len,
			   unregister, prog->aux->ksym.name);

	/* func[0] is the main program, already reported */
	for (i = 1; i < prog->aux->func_cnt; i++) {
		struct bpf_prog *sub = prog->aux->func[i];

		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (unsigned long)sub->bpf_func, sub->jited_len,
				   unregister, sub->aux->ksym.name);
	}
}

/* BPF_EVENT, after the header. */
struct perf_sb_bpf_body {
	u16	type;
	u16	flags;
	u32	id;
	u8	tag[BPF_TAG_SIZE];
};

static void perf_sb_write_bpf(struct perf_event *event, void *rec)
{
	struct perf_sb_bpf_body *body = rec;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_BPF_EVENT, 0, sizeof(*body)))
		return;
	perf_output_put(&out.handle, *body);
	perf_sb_publish(&out, event);
}

/**
 * perf_event_bpf_event - a BPF program was loaded or unloaded
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or _UNLOAD (others are ignored)
 * @flags: copied into the record
 *
 * attr.ksymbol listeners get a KSYMBOL record for each of the program's
 * functions, attr.bpf_event listeners a BPF_EVENT record with the
 * program's id and tag.
 */
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
	struct perf_sb_bpf_body body = { .type = type, .flags = flags };

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;

	if (perf_sb_wanted(PERF_SB_KSYMBOL))
		perf_sb_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);

	if (!perf_sb_wanted(PERF_SB_BPF))
		return;

	body.id = prog->aux->id;
	memcpy(body.tag, prog->tag, sizeof(body.tag));
	perf_sb_deliver(PERF_SB_BPF, current, perf_sb_write_bpf, &body);
}

/* ---------------------------------------------------------------------
 * TEXT_POKE
 */

struct perf_sb_text_poke {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
};

static void perf_sb_write_text_poke(struct perf_event *event, void *rec)
{
	struct perf_sb_text_poke *p = rec;
	/* addr, the two lengths, the bytes; padded to whole u64s */
	size_t used = sizeof(p->addr) + sizeof(p->old_len) +
		      sizeof(p->new_len) + p->old_len + p->new_len;
	size_t body = ALIGN(used, sizeof(u64));
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_TEXT_POKE,
			     PERF_RECORD_MISC_KERNEL, body))
		return;
	perf_output_put(&out.handle, p->addr);
	perf_output_put(&out.handle, p->old_len);
	perf_output_put(&out.handle, p->new_len);
	perf_output_copy(&out.handle, p->old_bytes, p->old_len);
	perf_output_copy(&out.handle, p->new_bytes, p->new_len);
	perf_output_copy(&out.handle, &perf_sb_zeroes, body - used);
	perf_sb_publish(&out, event);
}

/* More than any instruction patch; keeps the record well inside 64 KiB. */
#define PERF_SB_TEXT_POKE_MAX	1024

/**
 * perf_event_text_poke - kernel text was modified in place
 * @addr: where
 * @old_bytes: the bytes before
 * @old_len: how many
 * @new_bytes: the bytes after
 * @new_len: how many
 *
 * Writes PERF_RECORD_TEXT_POKE to the attr.text_poke listeners.  A patch
 * larger than PERF_SB_TEXT_POKE_MAX bytes (none is) is not reported.
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
	struct perf_sb_text_poke p;

	if (!perf_sb_wanted(PERF_SB_TEXT_POKE))
		return;
	if (WARN_ON_ONCE(old_len > PERF_SB_TEXT_POKE_MAX ||
			 new_len > PERF_SB_TEXT_POKE_MAX))
		return;

	p.addr = (unsigned long)addr;
	p.old_bytes = old_bytes;
	p.new_bytes = new_bytes;
	p.old_len = old_len;
	p.new_len = new_len;
	perf_sb_deliver(PERF_SB_TEXT_POKE, current, perf_sb_write_text_poke, &p);
}

/* ---------------------------------------------------------------------
 * SWITCH and SWITCH_CPU_WIDE
 */

struct perf_sb_switch {
	struct task_struct	*other;
	u16			misc;
};

static void perf_sb_write_switch(struct perf_event *event, void *rec)
{
	struct perf_sb_switch *s = rec;
	struct perf_sb_out out __uninitialized;
	struct perf_sb_ids other;

	/* a task's own events do not learn who ran before or after it */
	if (event->ctx->task) {
		if (perf_sb_reserve(&out, event, PERF_RECORD_SWITCH, s->misc, 0))
			perf_sb_publish(&out, event);
		return;
	}

	other = perf_sb_ids_of(event, s->other);
	if (!perf_sb_reserve(&out, event, PERF_RECORD_SWITCH_CPU_WIDE, s->misc,
			     sizeof(other)))
		return;
	perf_output_put(&out.handle, other);
	perf_sb_publish(&out, event);
}

/**
 * perf_event_switch_record - write SWITCH and SWITCH_CPU_WIDE records
 * @task: the task switching, current
 * @other: the next task when @task goes out, the previous one when it
 *	   comes in
 * @sched_in: whether @task is coming in
 *
 * A switch-out of a task that is still runnable was a preemption and is
 * marked PERF_RECORD_MISC_SWITCH_OUT_PREEMPT.  IRQs off, runqueue lock
 * held: the ring buffer defers its wakeups to IRQ work.
 */
void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *other, bool sched_in)
{
	struct perf_sb_switch s = { .other = other };

	if (!sched_in) {
		s.misc = PERF_RECORD_MISC_SWITCH_OUT;
		if (task_is_runnable(task))
			s.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_deliver(PERF_SB_SWITCH, task, perf_sb_write_switch, &s);
}

/* ---------------------------------------------------------------------
 * Deferred user callchains (callchain_deferred.c)
 */

struct perf_sb_callchain {
	u64				cookie;
	struct perf_callchain_entry	*chain;
};

static void perf_sb_write_callchain(struct perf_event *event, void *rec)
{
	struct perf_sb_callchain *c = rec;
	u64 nr = c->chain->nr;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event, PERF_RECORD_CALLCHAIN_DEFERRED,
			     PERF_RECORD_MISC_USER, (2 + nr) * sizeof(u64)))
		return;
	perf_output_put(&out.handle, c->cookie);
	perf_output_put(&out.handle, nr);
	perf_output_copy(&out.handle, c->chain->ip, nr * sizeof(u64));
	perf_sb_publish(&out, event);
}

/**
 * perf_event_callchain_deferred - the user stack of deferred samples
 * @cookie: the cookie those samples carry after PERF_CONTEXT_USER_DEFERRED
 * @chain: current's user callchain, PERF_CONTEXT_USER first
 *
 * Writes PERF_RECORD_CALLCHAIN_DEFERRED to the attr.defer_output listeners
 * of this CPU and of current's context.  Task context, preemption off,
 * from the task work of callchain_deferred.c.
 */
void perf_event_callchain_deferred(u64 cookie,
				   struct perf_callchain_entry *chain)
{
	struct perf_sb_callchain c = { .cookie = cookie, .chain = chain };

	if (perf_sb_wanted(PERF_SB_CALLCHAIN_DEFERRED))
		perf_sb_deliver(PERF_SB_CALLCHAIN_DEFERRED, current,
				perf_sb_write_callchain, &c);
}

/* ---------------------------------------------------------------------
 * Records about one event
 */

/**
 * perf_log_throttle - write THROTTLE or UNTHROTTLE for an event
 * @event: the sampling event being throttled or let go again
 * @enable: 0: THROTTLE, else UNTHROTTLE
 *
 * Any context, NMI included.
 */
void perf_log_throttle(struct perf_event *event, int enable)
{
	struct {
		u64	time;
		u64	id;
		u64	stream_id;
	} body = {
		.time = event->clock(),
		.id = perf_event_primary_id(event),
		.stream_id = event->id,
	};
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, event,
			     enable ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE,
			     0, sizeof(body)))
		return;
	perf_output_put(&out.handle, body);
	perf_sb_publish(&out, event);
}

static u64 perf_sb_count_of(struct perf_event *event)
{
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

/* What follows an event's value in a read() layout: [id] [lost]. */
static void perf_sb_put_value_tail(struct perf_output_handle *handle,
				   struct perf_event *event, u64 read_format)
{
	u64 word;

	if (read_format & PERF_FORMAT_ID) {
		word = perf_event_primary_id(event);
		perf_output_put(handle, word);
	}
	if (read_format & PERF_FORMAT_LOST) {
		word = atomic64_read(&event->lost_samples);
		perf_output_put(handle, word);
	}
}

/* One group member: value [id] [lost]. */
static void perf_sb_put_member(struct perf_output_handle *handle,
			       struct perf_event *member, u64 read_format)
{
	u64 value = perf_sb_count_of(member);

	perf_output_put(handle, value);
	perf_sb_put_value_tail(handle, member, read_format);
}

/*
 * @event's counts in its read() layout (see read.c).  Group: nr, the
 * leader's times, then each member.  Single: value, times, [id] [lost].
 */
static void perf_sb_put_read_values(struct perf_output_handle *handle,
				    struct perf_event *event)
{
	u64 read_format = event->attr.read_format;
	bool group = read_format & PERF_FORMAT_GROUP;
	struct perf_event *leader = event->group_leader;
	struct perf_event *member;
	unsigned long flags;
	u64 enabled, running, first;

	/* the context is on no CPU any more: its clock stands still */
	local_irq_save(flags);
	perf_event_times_local(group ? leader : event, &enabled, &running);
	local_irq_restore(flags);

	first = group ? 1 + leader->nr_siblings : perf_sb_count_of(event);
	perf_output_put(handle, first);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_output_put(handle, enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_output_put(handle, running);

	if (!group) {
		perf_sb_put_value_tail(handle, event, read_format);
		return;
	}
	perf_sb_put_member(handle, leader, read_format);
	for_each_sibling_event(member, leader)
		perf_sb_put_member(handle, member, read_format);
}

/**
 * perf_event_read_record - PERF_RECORD_READ for an exiting inherit_stat copy
 * @child: the inherited event, scheduled out, still in its group
 *	   (its ctx->mutex held)
 * @task: the task it counted, which is exiting
 *
 * Gives @task's pid and tid and @child's counts in its read() layout.
 */
void perf_event_read_record(struct perf_event *child, struct task_struct *task)
{
	struct perf_event *leader = child->group_leader;
	struct perf_sb_ids ids = perf_sb_ids_of(child, task);
	size_t values = perf_read_size_for(child->attr.read_format,
					   leader->nr_siblings);
	struct perf_sb_out out __uninitialized;

	lockdep_assert_held(&child->ctx->mutex);
	if (!perf_sb_reserve(&out, child, PERF_RECORD_READ, 0,
			     sizeof(ids) + values))
		return;
	perf_output_put(&out.handle, ids);
	perf_sb_put_read_values(&out.handle, child);
	perf_sb_publish(&out, child);
}

/**
 * perf_event_itrace_started - a driver says instruction tracing has started
 * @event: the tracing event
 *
 * Called from the driver's start callback once the trace runs; from then
 * on perf_log_itrace_start() writes nothing more for @event.
 */
void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

/**
 * perf_log_itrace_start - ITRACE_START before an itrace event first runs
 * @event: the event going on its PMU (ctx->lock held)
 *
 * The record (pid and tid of current) goes to the top parent of @event,
 * and only as long as the driver has not reported a started trace on it.
 */
void perf_log_itrace_start(struct perf_event *event)
{
	struct perf_event *top = event->parent ?: event;

	lockdep_assert_held(&event->ctx->lock);
	if (!(top->pmu->capabilities & PERF_PMU_CAP_ITRACE))
		return;
	if (top->attach_state & PERF_ATTACH_ITRACE)
		return;
	perf_sb_write_ids_record(top, PERF_RECORD_ITRACE_START, current);
}

/**
 * perf_report_aux_output_id - tell user space the hardware id of AUX data
 * @event: the AUX event (an inherited copy reports through its parent)
 * @hw_id: the driver's id for the data it produces
 *
 * Writes PERF_RECORD_AUX_OUTPUT_HW_ID.  Any context the driver calls from.
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct perf_event *top = event->parent ?: event;
	struct perf_sb_out out __uninitialized;

	if (!perf_sb_reserve(&out, top, PERF_RECORD_AUX_OUTPUT_HW_ID, 0,
			     sizeof(hw_id)))
		return;
	perf_output_put(&out.handle, hw_id);
	perf_sb_publish(&out, top);
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);
