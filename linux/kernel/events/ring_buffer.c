// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap()ed ring buffer of perf events.
 *
 * A buffer is one control page (struct perf_event_mmap_page) followed by
 * 2^n data pages, each allocated on its own and mapped into user space by
 * the fault handler below.  The kernel appends records at data_head, the
 * reader consumes them up to data_tail, both free-running byte counters
 * that are reduced modulo the data size only to find a page.
 *
 * Writers (perf_output_begin() .. perf_output_end()) run in any context,
 * NMI included, on the CPU the writing event is active on.  The events of
 * most buffers run on one CPU or in one task, so their writers only ever
 * interrupt each other, never run side by side.  They reserve room by a
 * cmpxchg loop on rb->head; rb->nest counts the writers stacked on this
 * CPU, and only the last one to finish publishes data_head, so that the
 * reader never sees the head pass a record that an interrupted writer is
 * still filling in.  A shared buffer (rb->shared), written from many CPUs
 * at once, is claimed for one CPU at a time (rb->writer_cpu).
 *
 * The buffer lives as long as it has references: each attached event
 * holds one, so do the functions below while they use it.  The last
 * reference frees it after an RCU grace period, since writers and the
 * fault handler find it through event->rb under RCU.
 *
 * Locking: the DOC: block "Buffer locks" below (the claim of a shared
 * buffer among them); Documentation/perf/core/locking.rst shows it with
 * the order the locks nest in.
 *
 * The AUX area (mmap at a page offset past the data) is aux.c's; the
 * buffer only holds the pointer to it.
 */

/**
 * DOC: Buffer locks
 *
 * ``event->mmap_mutex`` (a mutex)
 *   Protects ``event->rb``, ``event->rb_entry`` and ``event->mmap_count``:
 *   mapping, unmapping, ``SET_OUTPUT`` and ``poll()``.  Taken inside
 *   ``mmap_lock`` (mmap, munmap) and inside ``ctx->mutex`` (``SET_OUTPUT``
 *   from the ioctl or from ``PERF_FLAG_FD_OUTPUT``).  ``SET_OUTPUT`` takes
 *   the two events' mutexes in address order.  Writers of records never
 *   take it: they find the buffer through ``event->rb`` under RCU.
 *
 * ``rb->writers_lock`` (``struct perf_buffer``, a spinlock, IRQs saved)
 *   Protects the buffer's list of writing events (``rb->writers``), which
 *   changes under the writer's ``mmap_mutex`` too.  The wake-up code walks
 *   the list under RCU; an event that leaves one buffer's list waits for a
 *   grace period before it joins another's.
 *
 * ``rb->pause_mutex`` (``struct perf_buffer``, a mutex)
 *   Serialises ``PERF_EVENT_IOC_PAUSE_OUTPUT`` on a buffer (several events
 *   may share it through ``SET_OUTPUT``), so that ``rb->paused`` and the
 *   control page's ``output_state`` and ``data_bound`` agree, between the
 *   ioctl and the RCU work item (``rb->pause_work``) that a pause queues:
 *   it runs a grace period later, when the writers under way (each an RCU
 *   reader from ``perf_output_begin()`` to ``perf_output_end()``) are done,
 *   and writes the page, unless a resume came meanwhile (``rb->pause_seq``
 *   moved on; after a newer pause it waits another grace period).  The
 *   ioctl waits for nothing under it and takes it without ``ctx->mutex``;
 *   nothing nests in it.
 *
 * ``rb->oldest`` (overwrite buffers written forward) is the writers' own,
 * like ``rb->head``: a writer about to overwrite the oldest bytes moves it
 * past the records that go, and a writer it interrupted that was walking
 * the same records drops its result.
 *
 * ``rb->writer_cpu`` (``struct perf_buffer``, an atomic CPU number)
 *   Only in a shared buffer (``rb->shared``): the mapped buffer of an
 *   inherited per-task event, which the event's copies in other threads and
 *   children write from several CPUs at once.  The first writer on a CPU
 *   claims the buffer for that CPU with a compare-and-exchange from -1,
 *   and holds it with IRQs off; NMI writers that interrupt it on the same
 *   CPU find the buffer theirs and stack up as in any buffer; the
 *   claimant sets it back to -1 (release) once it has published
 *   ``data_head``, then restores IRQs.  It covers what a single CPU's
 *   writers share in other buffers: ``rb->head``, ``rb->nest``, the lost
 *   count, the wake-up positions, ``rb->oldest`` and ``data_head``.
 *
 *   It is a lock, and lockdep knows it as one (``rb->writer_map``, class
 *   ``perf_buffer_writer_cpu``; a trylock in NMI).  Writers that want it
 *   hold other locks: the scheduler writes SWITCH records and context-switch
 *   samples under the runqueue lock.  A holder with IRQs on could be
 *   interrupted by a softirq that wants that runqueue lock, while the CPU
 *   holding it spins for the claim: hence IRQs off.  And since a waiter may
 *   be an NMI that stopped a holder of another shared buffer, no one waits
 *   unboundedly: a writer on another CPU spins at most 10 ms (20 us in NMI)
 *   and then counts its record as lost (``PERF_RECORD_LOST``, as when the
 *   buffer is full).  ``rb->shared`` is set
 *   before the first such writer is attached and never cleared; an
 *   existing buffer that an inherited per-task event is redirected into
 *   waits for a grace period after setting it, so that no writer still
 *   running ignored it.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/circ_buf.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/pagemap.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sched/user.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "aux.h"
#include "context.h"
#include "event.h"
#include "overflow.h"
#include "ring_buffer.h"
#include "swevent.h"

/* --- allocation and references ---------------------------------------- */

static void *rb_page_alloc(int node)
{
	struct page *page;

	page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);
	return page ? page_address(page) : NULL;
}

static void rb_free_pages(struct perf_buffer *rb, int count)
{
	int i;

	for (i = 0; i < count; i++)
		free_page((unsigned long)rb->pages[i]);
	kvfree(rb);
}

static void rb_free_rcu(struct rcu_head *head)
{
	struct perf_buffer *rb = container_of(head, struct perf_buffer,
					      rcu_head);

	rb_free_pages(rb, rb->nr_pages + 1);
}

static void rb_pause_settled(struct work_struct *work);

/* one lockdep class for the claims of every shared buffer */
static struct lock_class_key rb_writer_key;

/*
 * A buffer with @nr_pages data pages (0 or a power of two) close to @cpu.
 * @watermark: bytes between wake-ups, 0 for half the data.
 */
static struct perf_buffer *rb_alloc(int nr_pages, unsigned long watermark,
				    int cpu, bool overwrite, bool shared)
{
	int node = cpu == -1 ? NUMA_NO_NODE : cpu_to_node(cpu);
	struct perf_event_mmap_page *up;
	struct perf_buffer *rb;
	size_t bytes;
	int i;

	bytes = struct_size(rb, pages, (size_t)nr_pages + 1);
	/* the page table is one physically contiguous allocation at most */
	if (bytes > (PAGE_SIZE << MAX_PAGE_ORDER))
		return NULL;

	rb = kvzalloc_node(bytes, GFP_KERNEL, node);
	if (!rb)
		return NULL;

	for (i = 0; i <= nr_pages; i++) {
		rb->pages[i] = rb_page_alloc(node);
		if (!rb->pages[i]) {
			rb_free_pages(rb, i);
			return NULL;
		}
	}

	rb->nr_pages = nr_pages;
	rb->data_size = (unsigned long)nr_pages << PAGE_SHIFT;
	rb->overwrite = overwrite;
	rb->shared = shared;
	atomic_set(&rb->writer_cpu, -1);
	lockdep_init_map_wait(&rb->writer_map, "perf_buffer_writer_cpu",
			      &rb_writer_key, 0, LD_WAIT_SPIN);
	rb->watermark = watermark ? min(watermark, rb->data_size) : 0;
	if (!rb->watermark)
		rb->watermark = rb->data_size / 2;
	rb->paused = !nr_pages;
	refcount_set(&rb->refcount, 1);
	spin_lock_init(&rb->writers_lock);
	INIT_LIST_HEAD(&rb->writers);
	mutex_init(&rb->aux_mutex);
	mutex_init(&rb->pause_mutex);
	INIT_RCU_WORK(&rb->pause_work, rb_pause_settled);

	up = rb->pages[0];
	rb->user_page = up;
	up->cap_bit0_is_deprecated = 1;
	up->cap_output_state = 1;
	up->size = offsetof(struct perf_event_mmap_page, __reserved);
	up->data_offset = PAGE_SIZE;
	up->data_size = rb->data_size;

	return rb;
}

void rb_put(struct perf_buffer *rb)
{
	if (!refcount_dec_and_test(&rb->refcount))
		return;

	WARN_ON_ONCE(!list_empty(&rb->writers));
	call_rcu(&rb->rcu_head, rb_free_rcu);
}

/* The event whose buffer @event writes to: inherited copies use their parent's. */
static struct perf_event *rb_owner(struct perf_event *event)
{
	return event->parent ? event->parent : event;
}

/* Will copies of @event write to its buffer from many CPUs at once? */
static bool rb_needs_sharing(struct perf_event *event)
{
	return event->attr.inherit && event->cpu == -1;
}

/* A reference on the buffer @event writes to, or NULL. */
struct perf_buffer *rb_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(rb_owner(event)));
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	return rb;
}

/*
 * Point @event at @rb (which brings a reference along, or NULL to detach),
 * dropping the reference on the old buffer.  event->mmap_mutex held.
 *
 * A wake-up may walk the old buffer's writer list through this event
 * under RCU, so the event may join another list only after a grace period
 * since it left the first one.
 */
static void rb_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old = event->rb;
	struct perf_event_context *ctx;
	unsigned long flags;

	lockdep_assert_held(&event->mmap_mutex);
	WARN_ON_ONCE(event->parent);

	if (old) {
		spin_lock_irqsave(&old->writers_lock, flags);
		list_del_rcu(&event->rb_entry);
		spin_unlock_irqrestore(&old->writers_lock, flags);
		event->rb_left_gp = get_state_synchronize_rcu();
		event->rb_left_pending = true;
	}

	if (rb) {
		if (event->rb_left_pending) {
			cond_synchronize_rcu(event->rb_left_gp);
			event->rb_left_pending = false;
		}
		/*
		 * Its first writer from many CPUs: a writer that began
		 * before it saw the flag would not take the buffer, so wait
		 * until every writer (an RCU reader) has finished.
		 */
		if (rb_needs_sharing(event) && !READ_ONCE(rb->shared)) {
			WRITE_ONCE(rb->shared, true);
			synchronize_rcu();
		}
		spin_lock_irqsave(&rb->writers_lock, flags);
		list_add_rcu(&event->rb_entry, &rb->writers);
		spin_unlock_irqrestore(&rb->writers_lock, flags);
	}

	rcu_assign_pointer(*event_rbp(event), rb);
	/*
	 * A task context whose events stayed on rewrites their pages.  An
	 * event given a buffer at open (PERF_FLAG_FD_OUTPUT) has no context
	 * yet: perf_install_event() counts it.
	 */
	ctx = READ_ONCE(event->ctx);
	if (ctx && !old != !rb)
		atomic_add(rb ? 1 : -1, &ctx->nr_mapped);

	if (old) {
		rb_put(old);
		/* a wake-up meant for the old buffer may have been missed */
		wake_up_all(&event->waitq);
	}
}

/* --- the control page -------------------------------------------------- */

/**
 * arch_perf_update_userpage - the architecture's fields of the control page
 * @event: the event
 * @userpg: its control page, inside the update's seqcount
 * @now: perf_clock() at the update
 *
 * Architectures that let user space read the clock or the counter
 * directly fill in cap_user_time and friends here.  Default: nothing.
 */
void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg,
				      u64 now)
{
}

/* The counter index user space may rdpmc, 0 when it may not. */
static u32 rb_user_index(struct perf_event *event)
{
	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED) || !event->pmu->event_idx)
		return 0;
	return event->pmu->event_idx(event);
}

/**
 * perf_event_update_userpage - refresh the event's mmap()ed control page
 * @event: the event
 *
 * Writes the counter index, offset and times that user space needs to
 * read the counter itself, inside the page's seqcount (lock).  PMU
 * drivers call this when the event starts, stops or moves to another
 * counter, the core when it is mapped and when its times change, and the
 * software PMUs whenever the count of an event whose page shows it
 * changes (cap_user_count: perf_swevent_user_count()).
 *
 * Any context, NMI included; calls for one event must not nest, since
 * the seqcount has a single writer.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *up;
	u64 enabled = 0, running = 0, count, now;
	unsigned int user_count;
	struct perf_buffer *rb;
	unsigned long flags;
	u32 index;

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(event));
	if (!rb)
		goto out;

	/* no interrupt on this CPU may see the page half written */
	local_irq_save(flags);
	now = perf_clock();
	if (event->ctx)
		perf_event_times_local(event, &enabled, &running);
	enabled += atomic64_read(&event->child_total_time_enabled);
	running += atomic64_read(&event->child_total_time_running);
	index = rb_user_index(event);
	count = local64_read(&event->count) +
		atomic64_read(&event->child_count);
	if (index)
		count -= local64_read(&event->hw.prev_count);
	user_count = perf_swevent_user_count(event, rb, now, &count);

	up = rb->user_page;
	WRITE_ONCE(up->lock, up->lock + 1);
	barrier();
	up->index = index;
	up->offset = count;
	up->time_enabled = enabled;
	up->time_running = running;
	arch_perf_update_userpage(event, up, now);
	/* a growing count needs the clock the architecture may give */
	if ((user_count & PERF_USER_COUNT_TIME) && !up->cap_user_time)
		user_count = 0;
	up->cap_user_count = !!user_count;
	up->cap_user_count_time = !!(user_count & PERF_USER_COUNT_TIME);
	barrier();
	WRITE_ONCE(up->lock, up->lock + 1);
	local_irq_restore(flags);
out:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

/* --- writing records --------------------------------------------------- */

/* PERF_RECORD_LOST, before its sample_id_all trailer */
struct perf_lost_record {
	struct perf_event_header	header;
	u64				id;
	u64				lost;
};

/*
 * Readers are owed a wake-up: poll() will say so, an O_ASYNC owner gets
 * SIGIO, and perf_event_wakeup() runs from the event's IRQ work.
 */
void rb_owe_wakeup(struct perf_buffer *rb, struct perf_event *event)
{
	atomic_set(&rb->poll, (__force int)(EPOLLIN | EPOLLRDNORM));
	if (READ_ONCE(rb_owner(event)->fasync) && !event->pending_kill)
		event->pending_kill = POLL_IN;
	perf_event_queue_wakeup(event);
}

/*
 * How long a writer waits for another CPU's writer to let a shared buffer
 * go before it counts its record as lost.  The holder has IRQs off and
 * writes one record, so waits are short; the bound is what keeps two
 * CPUs from waiting on each other for ever (two NMIs, each wanting the
 * buffer the other's interrupted writer holds; a vCPU preempted by its
 * host).  An NMI waits far less than anyone else: it may have stopped a
 * writer of another buffer on its own CPU.
 */
#define RB_CLAIM_WAIT_NS	(10 * NSEC_PER_MSEC)
#define RB_CLAIM_WAIT_NMI_NS	(20 * NSEC_PER_USEC)

/*
 * A shared buffer: take it for this CPU, unless a writer this one
 * interrupted (in NMI: IRQs are off while it is held) has it already.
 * Preemption disabled.  False if another CPU kept it past the bound.
 */
static bool rb_take_for_cpu(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	int cpu = smp_processor_id();
	bool nmi = in_nmi();
	unsigned long flags;
	u64 deadline = 0;
	int holder;

	if (atomic_read(&rb->writer_cpu) == cpu)
		return true;

	local_irq_save(flags);
	for (;;) {
		holder = atomic_cmpxchg_acquire(&rb->writer_cpu, -1, cpu);
		if (holder == -1)
			break;
		if (!deadline)
			deadline = local_clock() +
				   (nmi ? RB_CLAIM_WAIT_NMI_NS : RB_CLAIM_WAIT_NS);
		else if (local_clock() > deadline)
			goto busy;
		cpu_relax();
	}
	/* lockdep: a lock taken with IRQs off; in NMI a trylock */
	if (nmi)
		lock_map_acquire_try(&rb->writer_map);
	else
		lock_map_acquire(&rb->writer_map);
	rb->writer_irqflags = flags;
	handle->rb_taken = 1;
	return true;

busy:
	local_irq_restore(flags);
	return false;
}

/*
 * A writer starts: stack it up and note the wake-ups owed so far.  False
 * (nothing to undo) if a shared buffer could not be taken.
 */
static bool rb_writer_enter(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	preempt_disable();
	if (unlikely(READ_ONCE(rb->shared)) && !rb_take_for_cpu(handle)) {
		preempt_enable();
		return false;
	}
	WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
	barrier();
	handle->wakeup = local_read(&rb->wake_seq);
	return true;
}

/*
 * A writer is done.  The last one out publishes the head, and keeps at
 * it until no writer that interrupted it has moved the head further; the
 * one that took a shared buffer then lets other CPUs have it.  (Writers
 * that interrupt it after it published find the buffer still taken for
 * this CPU and publish their own records.)
 */
static void rb_writer_leave(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned int depth = READ_ONCE(rb->nest);
	unsigned long published;

	if (depth > 1) {
		/* only the first writer on this CPU can have taken it */
		WARN_ON_ONCE(handle->rb_taken);
		WRITE_ONCE(rb->nest, depth - 1);
		preempt_enable();
		return;
	}

	for (;;) {
		/* read head only once we are known to be the outermost */
		barrier();
		published = local_read(&rb->head);
		/*
		 * Pairs with the reader's read barrier between loading
		 * data_head and the data; the reader's full barrier before it
		 * stores data_tail pairs with the dependency on data_tail in
		 * rb_output_begin().
		 */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, published);
		/* an interrupting writer must see us still in, until here */
		barrier();
		WRITE_ONCE(rb->nest, 0);
		barrier();
		if (likely(local_read(&rb->head) == published))
			break;
		/* someone reserved (and finished) after our read: redo it */
		WRITE_ONCE(rb->nest, 1);
	}

	if (handle->wakeup != local_read(&rb->wake_seq))
		rb_owe_wakeup(rb, handle->event);
	if (handle->rb_taken) {
		unsigned long flags = rb->writer_irqflags;

		handle->rb_taken = 0;
		lock_map_release(&rb->writer_map);
		atomic_set_release(&rb->writer_cpu, -1);
		local_irq_restore(flags);
	}
	preempt_enable();
}

/* Room for @size bytes between @head and the reader's @tail? */
static __always_inline bool rb_has_room(struct perf_buffer *rb,
					unsigned long head, unsigned long tail,
					unsigned int size, bool backward)
{
	if (backward)
		return CIRC_SPACE(tail, head, rb->data_size) >= size;
	return CIRC_SPACE(head, tail, rb->data_size) >= size;
}

static inline void *rb_data_page(struct perf_buffer *rb, int nr)
{
	return rb->pages[1 + nr];
}

/* Point @handle at byte @pos of the data area. */
static __always_inline void
rb_handle_seek(struct perf_output_handle *handle, unsigned long pos)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long in_page = pos & (PAGE_SIZE - 1);

	handle->page = (pos >> PAGE_SHIFT) & (rb->nr_pages - 1);
	handle->addr = rb_data_page(rb, handle->page) + in_page;
	handle->size = PAGE_SIZE - in_page;
}

static void rb_handle_next_page(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	handle->page = (handle->page + 1) & (rb->nr_pages - 1);
	handle->addr = rb_data_page(rb, handle->page);
	handle->size = PAGE_SIZE;
}

/* The header of the record at byte @pos of the data area (8-byte aligned). */
static const struct perf_event_header *rb_header_at(struct perf_buffer *rb,
						    unsigned long pos)
{
	return rb_data_page(rb, (pos >> PAGE_SHIFT) & (rb->nr_pages - 1)) +
	       (pos & (PAGE_SIZE - 1));
}

/*
 * Overwrite mode, forward: the record reserved at [@head, @next) is about
 * to write over the oldest bytes of the data area, those below
 * @next - data_size.  Move rb->oldest past the records that go, reading
 * their headers before they are overwritten.
 *
 * Only records below the published data_head are known to be whole.  A
 * reservation that reaches into records of writers it interrupted (which
 * takes records as large as the buffer) leaves nothing before its own end
 * known to be whole.  A writer that interrupts the walk and moves
 * rb->oldest itself has walked at least as far, and may have overwritten
 * headers this walk read: the walk's result is then dropped.
 */
static void rb_forget_overwritten(struct perf_buffer *rb, unsigned long head,
				  unsigned long next)
{
	unsigned long gone = next - rb->data_size;
	unsigned long done = READ_ONCE(rb->user_page->data_head);
	long start = local_read(&rb->oldest);
	unsigned long pos = start;
	unsigned int size;

	while ((long)(gone - pos) > 0) {
		if ((long)(done - pos) <= 0) {
			pos = next;
			break;
		}
		size = READ_ONCE(rb_header_at(rb, pos)->size);
		if (unlikely(size < sizeof(struct perf_event_header))) {
			pos = next;
			break;
		}
		pos += size;
	}
	if (pos != start)
		local_cmpxchg(&rb->oldest, start, pos);
}

/* The buffer has no room or takes no output: count the record as lost. */
static void rb_count_lost(struct perf_buffer *rb, struct perf_event *event,
			  long n)
{
	atomic_long_add(n, &rb->lost);
	atomic64_inc(&rb_owner(event)->lost_samples);
}

static __always_inline int
rb_output_begin(struct perf_output_handle *handle,
		struct perf_sample_data *data, struct perf_event *event,
		unsigned int size, bool backward)
{
	/* filled in whole where it is used, on the rare lost path */
	struct perf_lost_record lost_rec __uninitialized;
	struct perf_buffer *rb;
	long lost = 0, head, next;
	unsigned long pos, progress;
	unsigned int need = size;
	int err = -ENOSPC;

	handle->event = event;
	handle->rb = NULL;
	handle->size = 0;
	handle->flags = 0;
	handle->record = NULL;

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(rb_owner(event)));
	if (unlikely(!rb))
		goto out;
	if (unlikely(READ_ONCE(rb->paused))) {
		if (rb->nr_pages)
			rb_count_lost(rb, event, 1);
		goto out;
	}

	/*
	 * Records lost earlier are reported first.  That needs @data for
	 * the sample_id_all trailer; without it the report waits.
	 */
	if (unlikely(atomic_long_read(&rb->lost)) && data) {
		lost = atomic_long_xchg(&rb->lost, 0);
		if (lost) {
			need += sizeof(lost_rec);
			if (event->attr.sample_id_all)
				need += event->id_header_size;
		}
	}

	handle->rb = rb;
	if (unlikely(!rb_writer_enter(handle))) {
		handle->rb = NULL;
		rb_count_lost(rb, event, lost + 1);
		goto out;
	}

	head = local_read(&rb->head);
	do {
		/*
		 * Overwrite mode ignores the reader.  Otherwise the stores
		 * below depend on data_tail through this test, which orders
		 * them after the load.
		 */
		if (!rb->overwrite &&
		    unlikely(!rb_has_room(rb, head,
					  READ_ONCE(rb->user_page->data_tail),
					  need, backward)))
			goto no_room;
		next = backward ? head - need : head + need;
	} while (!local_try_cmpxchg(&rb->head, &head, next));

	if (unlikely(rb->overwrite) && !backward)
		rb_forget_overwritten(rb, head, next);

	/* a backward record starts at the lower end of what was reserved */
	pos = backward ? next : head;
	progress = backward ? -(unsigned long)next : next;
	if (unlikely(progress - local_read(&rb->wake_pos) > rb->watermark)) {
		local_add(rb->watermark, &rb->wake_pos);
		local_inc(&rb->wake_seq);
	}

	rb_handle_seek(handle, pos);

	if (unlikely(lost)) {
		lost_rec.id = perf_event_primary_id(event);
		lost_rec.lost = lost;
		perf_event_header__init(&lost_rec.header, data, PERF_RECORD_LOST,
					0, sizeof(lost_rec), event);
		perf_output_put(handle, lost_rec);
		perf_event__output_id_sample(event, handle, data);
	}
	handle->record = handle->addr;
	return 0;

no_room:
	rb_count_lost(rb, event, lost + 1);
	rb_writer_leave(handle);
	handle->rb = NULL;
out:
	rcu_read_unlock();
	return err;
}

/**
 * perf_output_begin - reserve room for a record in the event's direction
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: as for perf_output_begin_forward()
 * @event: the event writing
 * @size: bytes of the record
 *
 * Return: as perf_output_begin_forward().
 */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event,
		      unsigned int size)
{
	bool backward = is_write_backward(event);

	return rb_output_begin(handle, data, event, size, unlikely(backward));
}

/**
 * perf_output_begin_forward - reserve room for a record, head growing
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample the record belongs to, for the sample_id_all fields of
 *	  a PERF_RECORD_LOST written first (may be NULL: the report waits)
 * @event: the event writing; its output goes to the buffer it was mapped
 *	   with or redirected to, an inherited copy's to its parent's
 * @size: bytes of the record
 *
 * Any context, NMI included.  On success the caller writes exactly @size
 * bytes and calls perf_output_end(); it is inside an RCU read-side section
 * until then.
 *
 * Return: 0, or -ENOSPC when there is no buffer, it is paused, or (when
 * mapped writable) the reader has not freed enough room; the last two
 * count as lost records.
 */
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event,
			      unsigned int size)
{
	return rb_output_begin(handle, data, event, size, false);
}

/**
 * perf_output_begin_backward - reserve room for a record, head shrinking
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: as for perf_output_begin_forward()
 * @event: the event writing
 * @size: bytes of the record
 *
 * For attr.write_backward buffers: records go below the previous ones, so
 * that a reader of an overwritten buffer can walk from data_head to the
 * oldest record still complete.
 *
 * Return: as perf_output_begin_forward().
 */
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event,
			       unsigned int size)
{
	return rb_output_begin(handle, data, event, size, true);
}

/* How a chunk gets into the buffer. */
enum rb_fill {
	RB_FILL_KERNEL,		/* memcpy from a kernel address */
	RB_FILL_USER,		/* from user memory, without faulting */
	RB_FILL_CUSTOM,		/* by a perf_copy_f */
	RB_FILL_NOTHING,	/* leave the bytes as they are */
};

#ifndef arch_perf_out_copy_user
static unsigned long arch_perf_out_copy_user(void *dst, const void __user *src,
					     unsigned long n)
{
	unsigned long left;

	pagefault_disable();
	left = __copy_from_user_inatomic(dst, src, n);
	pagefault_enable();
	return left;
}
#endif

/*
 * Move @len bytes into the record, page by page.  Returns how many could
 * not be filled in (a fault or a short custom copy stops it).
 */
static __always_inline unsigned long
rb_fill(struct perf_output_handle *handle, enum rb_fill how,
	const void *src, unsigned long len, perf_copy_f copy)
{
	const void __user *usrc = (const void __force __user *)src;
	unsigned long done = 0;

	while (len) {
		unsigned long chunk = min(handle->size, len);
		unsigned long short_by = 0;

		switch (how) {
		case RB_FILL_KERNEL:
			memcpy(handle->addr, src + done, chunk);
			break;
		case RB_FILL_USER:
			short_by = arch_perf_out_copy_user(handle->addr,
							   usrc + done, chunk);
			break;
		case RB_FILL_CUSTOM:
			short_by = copy(handle->addr, src, done, chunk);
			break;
		case RB_FILL_NOTHING:
			break;
		}

		chunk -= short_by;
		handle->addr += chunk;
		handle->size -= chunk;
		done += chunk;
		len -= chunk;
		if (!handle->size)
			rb_handle_next_page(handle);
		if (short_by)
			break;
	}
	return len;
}

/**
 * perf_output_copy - append bytes to a record begun with perf_output_begin()
 * @handle: the reservation
 * @buf: the bytes
 * @len: how many
 *
 * Return: the number of bytes not copied (0).
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	return rb_fill(handle, RB_FILL_KERNEL, buf, len, NULL);
}

/**
 * perf_output_skip - leave a gap in a record begun with perf_output_begin()
 * @handle: the reservation
 * @len: bytes to pass over (they keep whatever the buffer held)
 *
 * Return: the number of bytes not skipped (0).
 */
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return rb_fill(handle, RB_FILL_NOTHING, NULL, len, NULL);
}

/**
 * perf_output_copy_user - append user memory to a record
 * @handle: the reservation
 * @buf: the user address
 * @len: how many bytes
 *
 * Does not fault pages in: usable from NMI.
 *
 * Return: the number of bytes not copied; the caller fills (or skips)
 * them, since the record's size is fixed.
 */
unsigned long perf_output_copy_user(struct perf_output_handle *handle,
				    const void __user *buf, unsigned long len)
{
	return rb_fill(handle, RB_FILL_USER, (const void __force *)buf, len,
		       NULL);
}

/**
 * perf_output_copy_custom - append bytes produced by a copy function
 * @handle: the reservation
 * @copy: called as copy(dst, @src, offset, n) for each piece, returns the
 *	  bytes it did not copy
 * @src: its source
 * @len: how many bytes
 *
 * Return: the number of bytes not copied.
 */
unsigned long perf_output_copy_custom(struct perf_output_handle *handle,
				      perf_copy_f copy, const void *src,
				      unsigned long len)
{
	return rb_fill(handle, RB_FILL_CUSTOM, src, len, copy);
}

/* Was the record just written a sample?  (It starts with its header.) */
static bool rb_record_is_sample(struct perf_output_handle *handle)
{
	const struct perf_event_header *header = handle->record;

	/* a header is 8-aligned in the data, so within one page */
	if (!header || !IS_ALIGNED((unsigned long)header, sizeof(u32)))
		return false;
	return READ_ONCE(header->type) == PERF_RECORD_SAMPLE;
}

/**
 * perf_output_end - publish a record begun with perf_output_begin()
 * @handle: the reservation, fully written
 *
 * The outermost writer on this CPU moves data_head past the record (and
 * any that interrupted it).  Readers are woken, through the event's IRQ
 * work, when the head passed a watermark or, without attr.watermark, after
 * every attr.wakeup_events samples.
 */
void perf_output_end(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	u32 every = event->attr.wakeup_events;

	if (every && !event->attr.watermark && rb_record_is_sample(handle)) {
		if (local_inc_return(&rb->samples) >= every) {
			local_sub(every, &rb->samples);
			local_inc(&rb->wake_seq);
		}
	}

	rb_writer_leave(handle);
	rcu_read_unlock();
}

/* --- mmap --------------------------------------------------------------- */

/*
 * The page at @pgoff of a mapping of @rb: the control page, a data page or
 * an AUX page; NULL past them.  RCU or @rb->aux_mutex held (for the AUX
 * area).
 */
static struct page *rb_mmap_page(struct perf_buffer *rb, unsigned long pgoff)
{
	if (pgoff <= rb->nr_pages)
		return virt_to_page(rb->pages[array_index_nospec(pgoff,
							 rb->nr_pages + 1)]);
	return perf_aux_page(rb, pgoff);
}

/*
 * A page that mmap() did not map (a mapping without VM_READ, or no memory
 * for a page table in rb_mmap_populate()) or that was zapped since
 * (madvise(MADV_DONTNEED)).
 */
static vm_fault_t perf_mmap_fault(struct vm_fault *vmf)
{
	struct perf_event *event = vmf->vma->vm_private_data;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct perf_buffer *rb;
	struct page *page;

	/* user space writes data_tail in the control page, nothing else */
	if (vmf->pgoff && (vmf->flags & FAULT_FLAG_WRITE))
		return VM_FAULT_SIGBUS;

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(event));
	page = rb ? rb_mmap_page(rb, vmf->pgoff) : NULL;
	if (page) {
		get_page(page);
		vmf->page = page;
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Fill the page table of @vma, a new mapping of @event's buffer or of its
 * AUX area, so that a reader takes no page fault on its first pass.  The
 * control page is mapped as the VMA asks; the others read-only, since
 * user space writes nothing but the tails in the control page (a write
 * elsewhere faults and perf_mmap_mkwrite() refuses it).  Best effort: a
 * page left out for want of memory for a page table is mapped at its
 * first touch by perf_mmap_fault().
 *
 * Only a readable mapping is filled.  The protection of a VMA without
 * VM_READ, less VM_WRITE, is PAGE_NONE: the entries would look like NUMA
 * hinting ones, and a read through a write-only mapping (which the
 * hardware allows) would fault on them for ever.  Such mappings keep
 * taking their pages at first touch.
 *
 * Called from perf_mmap() with mmap_lock held for writing, before the VMA
 * is in the mm's tree: its vm_page_prot is still ours to set.  The new
 * mapping's counts keep the buffer and the area alive.
 */
static void rb_mmap_populate(struct perf_event *event,
			     struct vm_area_struct *vma)
{
	pgprot_t prot = vma->vm_page_prot;
	pgprot_t read_only = vm_get_page_prot(vma->vm_flags & ~VM_WRITE);
	unsigned long i, nr = vma_pages(vma);
	struct perf_buffer *rb;
	struct page *page;

	mmap_assert_write_locked(vma->vm_mm);
	if (!(vma->vm_flags & VM_READ))
		return;
	rb = rb_get(event);
	if (!rb)
		return;
	mutex_lock(&rb->aux_mutex);
	for (i = 0; i < nr; i++) {
		page = rb_mmap_page(rb, vma->vm_pgoff + i);
		if (!page)
			break;
		vma->vm_page_prot = vma->vm_pgoff + i ? read_only : prot;
		if (vm_insert_page(vma, vma->vm_start + i * PAGE_SIZE, page))
			break;
		/* a large buffer is many pages: let others run meanwhile */
		cond_resched();
	}
	vma->vm_page_prot = prot;
	mutex_unlock(&rb->aux_mutex);
	rb_put(rb);
}

/* A first write to a page of a writable mapping: the control page only. */
static vm_fault_t perf_mmap_mkwrite(struct vm_fault *vmf)
{
	if (vmf->pgoff)
		return VM_FAULT_SIGBUS;
	lock_page(vmf->page);
	return VM_FAULT_LOCKED;
}

/* One more VMA maps the buffer (mremap moved it). */
static void perf_mmap_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_private_data;

	if (vma->vm_pgoff)
		perf_aux_vma_open(event->rb);
	atomic_inc(&event->rb->mmap_count);
	atomic_inc(&event->mmap_count);
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

/*
 * Some event still on @rb's writer list that can be pinned, with a
 * reference taken, or NULL.  One whose last reference is gone is skipped:
 * perf_event_rb_release() takes it off.
 */
static struct perf_event *rb_pin_writer(struct perf_buffer *rb)
{
	struct perf_event *found = NULL, *pos;
	unsigned long flags;

	spin_lock_irqsave(&rb->writers_lock, flags);
	list_for_each_entry(pos, &rb->writers, rb_entry) {
		if (perf_event_tryget(pos)) {
			found = pos;
			break;
		}
	}
	spin_unlock_irqrestore(&rb->writers_lock, flags);
	return found;
}

/*
 * The last mapping of @rb went away: events still redirected into it lose
 * it too (no one can read it any more), then the locked-memory charge is
 * given back.  No mmap_mutex held; the caller holds mm->mmap_lock.
 */
static void rb_unmapped(struct perf_buffer *rb, struct mm_struct *mm)
{
	unsigned long charged = rb->nr_pages + 1 - rb->pinned_pages;
	struct perf_event *writer;

	mmap_assert_locked(mm);
	/*
	 * Each round takes one event off the list, unless SET_OUTPUT moved
	 * it elsewhere while we waited for its mutex: off the list either way.
	 */
	while ((writer = rb_pin_writer(rb))) {
		mutex_lock(&writer->mmap_mutex);
		if (writer->rb == rb)
			rb_attach(writer, NULL);
		mutex_unlock(&writer->mmap_mutex);
		/* its owner may have closed it meanwhile: not under mmap_lock */
		perf_event_put_deferred(writer);
	}

	atomic_long_sub(charged, &rb->mmap_user->perf_mlock);
	atomic64_sub(rb->pinned_pages, &mm->pinned_vm);
	free_uid(rb->mmap_user);
	rb->mmap_user = NULL;
}

static void perf_mmap_close(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_private_data;
	struct perf_buffer *rb = rb_get(event);
	bool last_of_buffer;

	if (WARN_ON_ONCE(!rb))
		return;

	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, vma->vm_mm);

	if (vma->vm_pgoff)
		perf_aux_vma_close(event, rb, vma->vm_mm);

	last_of_buffer = atomic_dec_and_test(&rb->mmap_count);

	if (atomic_dec_and_mutex_lock(&event->mmap_count, &event->mmap_mutex)) {
		rb_attach(event, NULL);
		mutex_unlock(&event->mmap_mutex);
	}

	if (last_of_buffer)
		rb_unmapped(rb, vma->vm_mm);

	rb_put(rb);
}

/* A mapping holds references that do not split: refuse partial munmap. */
static int perf_mmap_may_split(struct vm_area_struct *vma, unsigned long at)
{
	return -EINVAL;
}

static const struct vm_operations_struct perf_mmap_vm_ops = {
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
	.fault		= perf_mmap_fault,
	.page_mkwrite	= perf_mmap_mkwrite,
	.may_split	= perf_mmap_may_split,
};

/*
 * Charge @pages of locked memory for a new buffer: first against the
 * user's perf_event_mlock_kb allowance (per online CPU), the rest against
 * RLIMIT_MEMLOCK through mm->pinned_vm.  On success *@pinned is what went
 * to pinned_vm.
 */
int rb_charge(struct mm_struct *mm, struct user_struct *user,
	      unsigned long pages, unsigned long *pinned)
{
	unsigned long allowance, used, over = 0, limit;

	allowance = (unsigned long)sysctl_perf_event_mlock >> (PAGE_SHIFT - 10);
	allowance *= num_online_cpus();

	/* the sysctl may have been lowered below what is already used */
	used = min_t(unsigned long, atomic_long_read(&user->perf_mlock),
		     allowance);
	if (used + pages > allowance)
		over = used + pages - allowance;

	limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	if (atomic64_read(&mm->pinned_vm) + over > limit &&
	    perf_is_paranoid() && !capable(CAP_IPC_LOCK))
		return -EPERM;

	atomic_long_add(pages - over, &user->perf_mlock);
	atomic64_add(over, &mm->pinned_vm);
	*pinned = over;
	return 0;
}

/*
 * Map the event's existing buffer again, if it has one.  mmap_mutex held.
 * Return: 0 (mapped), -EAGAIN (no usable buffer, event->rb is now NULL:
 * make one) or -EINVAL.
 */
static int rb_map_existing(struct perf_event *event, unsigned long nr_pages)
{
	struct perf_buffer *rb = event->rb;

	lockdep_assert_held(&event->mmap_mutex);
	if (!rb)
		return -EAGAIN;
	if ((unsigned long)rb->nr_pages != nr_pages)
		return -EINVAL;
	if (!atomic_inc_not_zero(&rb->mmap_count)) {
		/* its last mapping is going away right now: let go of it */
		rb_attach(event, NULL);
		return -EAGAIN;
	}
	return 0;
}

/* The first mapping of a buffer for @event.  mmap_mutex held. */
static int rb_map_new(struct perf_event *event, struct vm_area_struct *vma,
		      unsigned long nr_pages)
{
	struct user_struct *user = current_user();
	unsigned long pinned, watermark = 0;
	struct perf_buffer *rb;
	int err;

	lockdep_assert_held(&event->mmap_mutex);
	err = rb_charge(vma->vm_mm, user, nr_pages + 1, &pinned);
	if (err)
		return err;

	if (event->attr.watermark)
		watermark = event->attr.wakeup_watermark;
	rb = rb_alloc(nr_pages, watermark, event->cpu,
		      !(vma->vm_flags & VM_WRITE), rb_needs_sharing(event));
	if (!rb) {
		atomic_long_sub(nr_pages + 1 - pinned, &user->perf_mlock);
		atomic64_sub(pinned, &vma->vm_mm->pinned_vm);
		return -ENOMEM;
	}

	atomic_set(&rb->mmap_count, 1);
	rb->mmap_user = get_uid(user);
	rb->pinned_pages = pinned;
	rb_attach(event, rb);
	return 0;
}

/**
 * perf_mmap_event - map @event's ring buffer or AUX area into @vma
 * @event: the event
 * @vma: the new mapping; @vma->vm_pgoff counts from @event's first page
 *
 * Offset 0 maps the control page followed by 2^n data pages (n >= 0; the
 * control page alone is allowed too).  An inherited per-task event's
 * buffer takes the records of all its copies, in every thread and child
 * of the task, on whatever CPU they run.  The mapping must be shared; when it
 * is not writable the kernel overwrites old data instead of waiting for
 * the reader.  Mapping an event again (or an event redirected into a
 * buffer) gives the same buffer, which must then have the same size.
 * Mappings at other offsets are for the AUX area (perf_aux_mmap()).
 *
 * The mapping keeps @event in @vma->vm_private_data: the file it was
 * made through may stand for several events (PERF_FLAG_ALL_CPUS), and it
 * outlives the mapping, since the VMA holds it.
 *
 * Return: 0, -EINVAL (bad size or flags, AUX of an inherited per-task
 * event, size other than the existing buffer's), -EPERM (over the locked-memory
 * limits), -ENOMEM, -EOPNOTSUPP (AUX on a PMU without), or what the LSM
 * says.
 */
int perf_mmap_event(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long nr_pages;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

	/* its PMU went away (revoke.c) */
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_REVOKED)
		return -ENODEV;

	err = security_perf_event_read(event);
	if (err)
		return err;

	if (vma->vm_pgoff) {
		/* AUX writers assume a single CPU; shared buffers have none */
		if (rb_needs_sharing(event))
			return -EINVAL;
		err = perf_aux_mmap(event, vma);
		if (err)
			return err;
		goto mapped;
	}

	if (len < PAGE_SIZE || len & (PAGE_SIZE - 1))
		return -EINVAL;
	nr_pages = len / PAGE_SIZE - 1;
	if (nr_pages && !is_power_of_2(nr_pages))
		return -EINVAL;
	if (nr_pages > INT_MAX)
		return -ENOMEM;

	mutex_lock(&event->mmap_mutex);
	err = rb_map_existing(event, nr_pages);
	if (err == -EAGAIN)
		err = rb_map_new(event, vma, nr_pages);
	if (!err)
		atomic_inc(&event->mmap_count);
	mutex_unlock(&event->mmap_mutex);
	if (err)
		return err;
	/* mapped by itself now: the page may show the count */
	perf_event_update_userpage(event);

mapped:
	/* the charge is per mm: a child must not inherit the mapping */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_private_data = event;
	vma->vm_ops = &perf_mmap_vm_ops;
	rb_mmap_populate(event, vma);

	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
	return 0;
}

/**
 * perf_mmap - mmap() of a perf event fd: its ring buffer
 * @file: the event's file
 * @vma: the new mapping
 *
 * Return: as perf_mmap_event().
 */
int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	return perf_mmap_event(file->private_data, vma);
}

/* --- readers: poll, fasync, wake-ups ---------------------------------- */

/* The event will never produce anything again. */
static bool perf_event_hung_up(struct perf_event *event)
{
	enum perf_event_state state = READ_ONCE(event->state);
	bool hung;

	if (state > PERF_EVENT_STATE_EXIT)
		return false;
	if (state == PERF_EVENT_STATE_REVOKED)
		return true;

	/* inherited copies that still run keep it alive */
	mutex_lock(&event->child_mutex);
	hung = list_empty(&event->child_list);
	mutex_unlock(&event->child_mutex);
	return hung;
}

/**
 * perf_poll - poll() of a perf event fd
 * @file: the event's file
 * @wait: the poll table
 *
 * Return: EPOLLIN | EPOLLRDNORM once after each wake-up of the buffer's
 * readers, else 0; EPOLLHUP when nothing more can come: the event has no
 * buffer, its task exited (and left no inherited copies) or its PMU went
 * away; EPOLLERR for a pinned event in the error state (it could not be
 * scheduled and stays off until enabled again), which a reader must tell
 * apart from the end of its task.
 */
__poll_t perf_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;
	__poll_t ready;

	poll_wait(file, &event->waitq, wait);

	if (perf_event_hung_up(event))
		return EPOLLHUP;

	if (unlikely(READ_ONCE(event->state) == PERF_EVENT_STATE_ERROR &&
		     event->attr.pinned))
		return EPOLLERR;

	/* SET_OUTPUT must not swap the buffer between the check and now */
	mutex_lock(&event->mmap_mutex);
	if (event->rb)
		ready = (__force __poll_t)atomic_xchg(&event->rb->poll, 0);
	else
		ready = EPOLLHUP;
	mutex_unlock(&event->mmap_mutex);
	return ready;
}

/**
 * perf_fasync - fcntl(F_SETFL, O_ASYNC) on a perf event fd
 * @fd: the descriptor
 * @filp: the event's file
 * @on: add or remove the owner
 *
 * Return: 0 or a negative error from fasync_helper().
 */
int perf_fasync(int fd, struct file *filp, int on)
{
	struct perf_event *event = filp->private_data;
	struct inode *inode = file_inode(filp);
	int err;

	inode_lock(inode);
	err = fasync_helper(fd, filp, on, &event->fasync);
	inode_unlock(inode);
	return err < 0 ? err : 0;
}

/**
 * perf_event_wakeup - wake the readers of an event's buffer
 * @event: the event that wrote, overflowed or ended
 *
 * Wakes the poll() and read() waiters of every event that writes to the
 * same buffer (of @event alone if it has none), then sends the signal
 * @event->pending_kill asks for (POLL_IN, POLL_HUP, POLL_ERR) to the
 * O_ASYNC owner of @event (of its parent, for an inherited copy).  IRQ or
 * process context, not NMI.
 */
void perf_event_wakeup(struct perf_event *event)
{
	struct perf_event *owner = rb_owner(event);
	struct perf_buffer *rb;
	struct perf_event *reader;
	int sig;

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(owner));
	if (rb) {
		list_for_each_entry_rcu(reader, &rb->writers, rb_entry)
			wake_up_all(&reader->waitq);
	} else {
		wake_up_all(&owner->waitq);
	}
	rcu_read_unlock();

	sig = READ_ONCE(event->pending_kill);
	if (sig) {
		kill_fasync(&owner->fasync, SIGIO, sig);
		WRITE_ONCE(event->pending_kill, 0);
	}
}

/* --- SET_OUTPUT, PAUSE_OUTPUT, release ----------------------------------- */

/* Take two events' mmap_mutex, in address order. */
static void rb_lock_pair(struct perf_event *a, struct perf_event *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mmap_mutex);
	mutex_lock_nested(&b->mmap_mutex, SINGLE_DEPTH_NESTING);
}

/* May @event's records go into @output's buffer? */
static bool rb_output_compatible(struct perf_event *event,
				 struct perf_event *output)
{
	if (event == output)
		return false;
	/* one buffer is written from one CPU ... */
	if (event->cpu != output->cpu)
		return false;
	/* ... or, per task, by one task (and, inherited, its descendants) */
	if (output->cpu == -1 && event->hw.target != output->hw.target)
		return false;
	/* AUX writers assume a single CPU */
	if (has_aux(event) && rb_needs_sharing(event))
		return false;
	/* timestamps in one buffer must compare */
	if (event->clock != output->clock)
		return false;
	if (is_write_backward(event) != is_write_backward(output))
		return false;
	if (has_aux(event) && has_aux(output) && event->pmu != output->pmu)
		return false;
	return true;
}

/**
 * perf_event_set_output - send an event's records to another's buffer
 * @event: the event to redirect
 * @output: the event whose mapped buffer it shall use, or NULL to undo
 *
 * For PERF_EVENT_IOC_SET_OUTPUT and PERF_FLAG_FD_OUTPUT.  Both events must
 * be on the same CPU (or, if not CPU-bound, on the same task), use the
 * same clock and the same direction; @output must have a mapped buffer
 * and @event must not be mapped itself.  Process context.
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	struct perf_buffer *rb = NULL;
	int err = -EINVAL;

	if (output) {
		if (!rb_output_compatible(event, output))
			return -EINVAL;
		/*
		 * With both mutexes held, either @output is still on its
		 * buffer's list (and a closing last mapping will see @event
		 * there too) or the buffer has no mapping left.
		 */
		rb_lock_pair(event, output);
	} else {
		mutex_lock(&event->mmap_mutex);
	}

	if (atomic_read(&event->mmap_count))
		goto unlock;

	if (output) {
		rb = rb_get(output);
		if (!rb)
			goto unlock;
		if (!atomic_read(&rb->mmap_count)) {
			rb_put(rb);
			goto unlock;
		}
	}

	rb_attach(event, rb);
	err = 0;
unlock:
	mutex_unlock(&event->mmap_mutex);
	if (output)
		mutex_unlock(&output->mmap_mutex);
	return err;
}

/*
 * Overwrite mode, backward: the end of the oldest record that is still
 * whole.  Records start at data_head and follow each other upwards; the
 * first one that would end past data_head + data_size was partly written
 * over, and a zero header is space never written.  No writer may be at
 * work on the buffer.
 */
static unsigned long rb_backward_bound(struct perf_buffer *rb,
				       unsigned long head)
{
	unsigned long pos = head;
	unsigned int size;

	while (pos != 0 || pos == head) {
		size = rb_header_at(rb, pos)->size;
		if (size < sizeof(struct perf_event_header) ||
		    pos + size - head > rb->data_size)
			break;
		pos += size;
	}
	return pos;
}

/*
 * A grace period after a pause: the writers that were under way when it
 * came are done, and nothing moves the head any more.  Say so in the
 * control page, with data_bound in an overwrite buffer; or, if the
 * buffer was resumed and paused again meanwhile, wait for the writers of
 * the newer pause.  Process context (an RCU work item).
 */
static void rb_pause_settled(struct work_struct *work)
{
	struct perf_buffer *rb = container_of(to_rcu_work(work),
					      struct perf_buffer, pause_work);
	struct perf_event_mmap_page *up = rb->user_page;
	unsigned long pos;
	bool again = false;

	mutex_lock(&rb->pause_mutex);
	if (READ_ONCE(rb->paused) && rb->pause_seq == rb->pause_armed) {
		pos = local_read(&rb->head);
		if (rb->overwrite && rb->pause_backward)
			WRITE_ONCE(up->data_bound, rb_backward_bound(rb, pos));
		else if (rb->overwrite)
			WRITE_ONCE(up->data_bound, local_read(&rb->oldest));
		/* the bound before the flag that says it is valid */
		smp_wmb();
		WRITE_ONCE(up->output_state, PERF_OUTPUT_STATE_PAUSED);
	} else if (READ_ONCE(rb->paused)) {
		rb->pause_armed = rb->pause_seq;
		again = true;
	}
	rb->pause_pending = again;
	if (again)
		queue_rcu_work(system_wq, &rb->pause_work);
	mutex_unlock(&rb->pause_mutex);

	if (!again)
		rb_put(rb);
}

/**
 * perf_event_pause_output - PERF_EVENT_IOC_PAUSE_OUTPUT
 * @event: the event
 * @pause: true to drop new records (they count as lost), false to resume
 *
 * Pausing stops new records at once and returns.  The control page says
 * PERF_OUTPUT_STATE_PAUSED (and, in overwrite mode, where the whole
 * records end, in data_bound) once the writers already under way, each an
 * RCU reader from perf_output_begin() to perf_output_end(), are done:
 * after a grace period, which the ioctl does not wait for (an RCU work
 * item writes the page).  Process context.
 *
 * Return: 0, or -EINVAL when the event has no buffer with data pages.
 */
int perf_event_pause_output(struct perf_event *event, bool pause)
{
	struct perf_event_mmap_page *up;
	struct perf_buffer *rb = rb_get(event);
	bool queue = false;

	if (!rb)
		return -EINVAL;
	if (!rb->nr_pages) {
		rb_put(rb);
		return -EINVAL;
	}

	up = rb->user_page;
	mutex_lock(&rb->pause_mutex);
	if (!pause) {
		WRITE_ONCE(up->output_state, 0);
		if (READ_ONCE(rb->paused))
			rb->pause_seq++;
		WRITE_ONCE(rb->paused, 0);
	} else if (!READ_ONCE(rb->paused)) {
		WRITE_ONCE(rb->paused, 1);
		rb->pause_seq++;
		rb->pause_backward = is_write_backward(event);
		if (!rb->pause_pending) {
			rb->pause_armed = rb->pause_seq;
			rb->pause_pending = true;
			queue = true;
		}
	}
	/* the work keeps our reference to the buffer */
	if (queue)
		queue_rcu_work(system_wq, &rb->pause_work);
	mutex_unlock(&rb->pause_mutex);

	if (!queue)
		rb_put(rb);
	return 0;
}

/**
 * perf_event_rb_release - an event is being freed: let go of its buffer
 * @event: the event, with no references left (process context)
 *
 * The buffer itself stays while it is mapped or other events use it.
 */
void perf_event_rb_release(struct perf_event *event)
{
	if (!READ_ONCE(event->rb))
		return;

	mutex_lock(&event->mmap_mutex);
	if (event->rb)
		rb_attach(event, NULL);
	mutex_unlock(&event->mmap_mutex);
}
