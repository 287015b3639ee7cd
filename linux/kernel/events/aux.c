// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area: a second buffer, next to an event's ring buffer, that a
 * driver fills with trace data in its own format (Intel PT and BTS, Arm
 * SPE and CoreSight).  The ring buffer gets a PERF_RECORD_AUX for each
 * piece of it the driver hands over.
 *
 * User space maps it after the ring buffer: it writes aux_offset and
 * aux_size into the control page, then mmap()s the event at that offset.
 * The area is 2^n pages; a writable mapping makes the reader advance
 * aux_tail, a read-only one lets the driver overwrite old data (snapshot
 * mode).  The pages are handed to the driver's setup_aux() once, in chunks
 * as large as could be had: the first page of a chunk of 2^k pages has
 * PagePrivate set and k in page_private.
 *
 * A driver writes in transactions: perf_aux_output_begin() (typically
 * from pmu->start()) tells it where it may write and how much,
 * perf_aux_output_end() (from pmu->stop() or its interrupt) how much it
 * wrote.  One transaction at a time per area: the events that write to a
 * buffer all run on one CPU, or in one task.
 *
 * Lifetime: the area holds a reference on its ring buffer; it is itself
 * held by its mappings (one reference for all of them) and by each open
 * transaction.  Unmapping it unhooks it from the buffer at once, so that
 * no new transaction can begin, gives back the locked memory, and drops
 * the mappings' reference; the last reference, which may be an ending
 * transaction in NMI context or under the runqueue lock, hands the
 * freeing to an IRQ work, which hands it to a work item.  The pages
 * stay allocated while hardware may still write to them.
 *
 * Locking: the DOC: block "AUX area lock" below, shown in
 * Documentation/perf/core/locking.rst.
 */

/**
 * DOC: AUX area lock
 *
 * ``rb->aux_mutex`` (``struct perf_buffer``, a mutex)
 *   Protects ``rb->aux`` (set and cleared under it, read under RCU) and the
 *   AUX area's mapping count, so that a new mapping never takes up an area
 *   whose last unmapping is taking it away.  Taken inside the mapping
 *   event's ``mmap_mutex`` when mapping, alone when a mapping goes.
 *
 * A transaction takes no lock: it runs with IRQs off (or in NMI) on the
 * CPU the writing event is active on, and ``aux->busy`` keeps a second
 * transaction on the same area out.
 */

#include <linux/export.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "aux.h"
#include "event.h"
#include "ring_buffer.h"

/* a pause or resume is running on this CPU (perf_aux_pause()) */
static DEFINE_PER_CPU(int, perf_aux_pausing);

struct perf_aux_area {
	refcount_t		refs;		/* mappings (one), transactions */
	atomic_t		mmap_count;	/* VMAs that map it */
	struct rcu_head		rcu;
	struct irq_work		free_irq_work;
	struct work_struct	free_work;

	struct perf_buffer	*rb;		/* a reference */
	struct pmu		*pmu;		/* its free_aux() */
	void			*priv;		/* setup_aux()'s */

	unsigned long		pgoff;		/* where it is mapped */
	unsigned long		size;		/* bytes */
	unsigned long		watermark;	/* bytes between wake-ups */
	int			nr_pages;
	bool			overwrite;

	/* the transaction side, on one CPU at a time */
	atomic_t		busy;
	atomic_t		sampling;	/* a snapshot is being copied */
	local_t			head;		/* bytes handed over so far */
	local_t			wake_pos;	/* head at the last wake-up */

	/* locked memory charged for the pages */
	struct user_struct	*user;
	unsigned long		pinned;		/* the part on mm->pinned_vm */

	void			*pages[];
};

/* ---------------------------------------------------------------------
 * Pages
 */

/*
 * A chunk of 2^@order pages, split into single pages; the first says how
 * many came together.
 */
static struct page *aux_alloc_chunk(int node, int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	struct page *page;

	if (order)
		gfp |= __GFP_NORETRY;
	page = alloc_pages_node(node, gfp, order);
	if (page && order) {
		split_page(page, order);
		SetPagePrivate(page);
		set_page_private(page, order);
	}
	return page;
}

static void aux_free_pages(struct perf_aux_area *aux, int count)
{
	struct page *page;
	int i;

	for (i = 0; i < count; i++) {
		page = virt_to_page(aux->pages[i]);
		if (PagePrivate(page)) {
			ClearPagePrivate(page);
			set_page_private(page, 0);
		}
		__free_page(page);
	}
}

/*
 * Fill aux->pages, largest chunks first.  A driver that cannot scatter
 * (PERF_PMU_CAP_AUX_NO_SG) needs the whole area in one chunk.
 */
static int aux_alloc_pages(struct perf_aux_area *aux, int node)
{
	bool one_chunk = aux->pmu->capabilities & PERF_PMU_CAP_AUX_NO_SG;
	int max_order = min_t(int, ilog2(aux->nr_pages), MAX_PAGE_ORDER);
	int done = 0, order, i;
	struct page *page;

	if (one_chunk && ilog2(aux->nr_pages) > MAX_PAGE_ORDER)
		return -EINVAL;

	while (done < aux->nr_pages) {
		order = min(max_order, ilog2(aux->nr_pages - done));
		for (page = NULL; !page && order >= 0; order--) {
			page = aux_alloc_chunk(node, order);
			if (one_chunk)
				break;
		}
		if (!page) {
			aux_free_pages(aux, done);
			return -ENOMEM;
		}
		order++;
		for (i = 0; i < (1 << order); i++)
			aux->pages[done + i] = page_address(page + i);
		done += 1 << order;
		cond_resched();
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * References
 */

static void aux_free_work(struct work_struct *work)
{
	struct perf_aux_area *aux = container_of(work, struct perf_aux_area,
						 free_work);

	if (aux->priv)
		aux->pmu->free_aux(aux->priv);
	aux_free_pages(aux, aux->nr_pages);
	rb_put(aux->rb);
	/* a writer may still be looking at it through rb->aux */
	kvfree_rcu(aux, rcu);
}

static void aux_free_irq_work(struct irq_work *work)
{
	struct perf_aux_area *aux = container_of(work, struct perf_aux_area,
						 free_irq_work);

	schedule_work(&aux->free_work);
}

/*
 * The last reference may go in NMI, or in a driver's pmu->stop() under
 * the runqueue lock, where not even a work item can be queued (that may
 * wake a worker): an IRQ work queues it.
 */
static void aux_put(struct perf_aux_area *aux)
{
	if (refcount_dec_and_test(&aux->refs))
		irq_work_queue(&aux->free_irq_work);
}

/* ---------------------------------------------------------------------
 * Mapping
 */

/* A new area of @nr_pages at page offset @pgoff for @event's buffer. */
static struct perf_aux_area *aux_create(struct perf_event *event,
					struct perf_buffer *rb,
					struct vm_area_struct *vma,
					unsigned long pgoff, int nr_pages)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	struct perf_aux_area *aux;
	unsigned long pinned;
	size_t bytes;
	int err;

	/*
	 * The locked-memory limits first: nothing is allocated for a size
	 * the caller may not have.  The page array is charged to the
	 * caller's memory cgroup too, and a size kvmalloc() cannot give is
	 * ENOMEM, not a warning.
	 */
	bytes = struct_size(aux, pages, nr_pages);
	if (bytes > INT_MAX)
		return ERR_PTR(-ENOMEM);
	err = rb_charge(vma->vm_mm, current_user(), nr_pages, &pinned);
	if (err)
		return ERR_PTR(err);

	aux = kvzalloc_node(bytes, GFP_KERNEL_ACCOUNT | __GFP_NOWARN, node);
	if (!aux) {
		err = -ENOMEM;
		goto uncharge;
	}

	aux->pinned = pinned;
	aux->pmu = event->pmu;
	aux->pgoff = pgoff;
	aux->nr_pages = nr_pages;
	aux->size = (unsigned long)nr_pages << PAGE_SHIFT;
	aux->overwrite = !(vma->vm_flags & VM_WRITE);
	aux->watermark = event->attr.aux_watermark;
	if (!aux->watermark || aux->watermark > aux->size)
		aux->watermark = aux->size / 2;
	refcount_set(&aux->refs, 1);
	atomic_set(&aux->mmap_count, 1);
	init_irq_work(&aux->free_irq_work, aux_free_irq_work);
	INIT_WORK(&aux->free_work, aux_free_work);

	err = aux_alloc_pages(aux, node);
	if (err)
		goto free;

	aux->priv = event->pmu->setup_aux(event, aux->pages, nr_pages,
					  aux->overwrite);
	if (!aux->priv) {
		err = -ENOMEM;
		goto free_pages;
	}
	aux->user = get_uid(current_user());

	refcount_inc(&rb->refcount);
	aux->rb = rb;
	return aux;

free_pages:
	aux_free_pages(aux, nr_pages);
free:
	kvfree(aux);
uncharge:
	atomic_long_sub(nr_pages - pinned, &current_user()->perf_mlock);
	atomic64_sub(pinned, &vma->vm_mm->pinned_vm);
	return ERR_PTR(err);
}

/**
 * perf_aux_mmap - mmap() of an event fd past its ring buffer
 * @event: the event
 * @vma: the new mapping; vm_pgoff is not 0
 *
 * The ring buffer must be mapped already, and its control page must say
 * where the AUX area goes (aux_offset, past the data) and how large it is
 * (aux_size, the size of @vma, 2^n pages).  A second mapping of the area
 * must agree with the first.  On success the mapping counts as one of the
 * buffer's (rb->mmap_count, event->mmap_count).
 *
 * Return: 0, -EINVAL (no buffer, bad offset or size), -EOPNOTSUPP (the
 * event's PMU has no AUX support), -EPERM (locked-memory limits),
 * -ENOMEM.
 */
int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long offset, size, nr_pages;
	struct perf_aux_area *aux;
	struct perf_buffer *rb;
	int err = -EINVAL;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (!rb)
		goto unlock_event;

	mutex_lock(&rb->aux_mutex);
	offset = READ_ONCE(rb->user_page->aux_offset);
	size = READ_ONCE(rb->user_page->aux_size);
	nr_pages = len >> PAGE_SHIFT;
	if (offset < ((unsigned long)rb->nr_pages + 1) << PAGE_SHIFT ||
	    offset != vma->vm_pgoff << PAGE_SHIFT || size != len ||
	    !nr_pages || !is_power_of_2(nr_pages) || nr_pages > INT_MAX)
		goto unlock;

	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (aux) {
		if (aux->pgoff != vma->vm_pgoff || aux->nr_pages != nr_pages)
			goto unlock;
		if (!atomic_inc_not_zero(&rb->mmap_count))
			goto unlock;
		atomic_inc(&aux->mmap_count);
		goto mapped;
	}

	err = -EOPNOTSUPP;
	if (!has_aux(event))
		goto unlock;

	err = -EINVAL;
	if (!atomic_inc_not_zero(&rb->mmap_count))
		goto unlock;
	aux = aux_create(event, rb, vma, vma->vm_pgoff, nr_pages);
	if (IS_ERR(aux)) {
		err = PTR_ERR(aux);
		atomic_dec(&rb->mmap_count);
		goto unlock;
	}
	WRITE_ONCE(rb->user_page->aux_head, 0);
	rcu_assign_pointer(rb->aux, aux);
mapped:
	atomic_inc(&event->mmap_count);
	err = 0;
unlock:
	mutex_unlock(&rb->aux_mutex);
unlock_event:
	mutex_unlock(&event->mmap_mutex);
	return err;
}

/**
 * perf_aux_page - the page of the AUX area at a mapping offset
 * @rb: the buffer of the mapped event
 * @pgoff: the page offset in the event's mapping
 *
 * Caller holds rcu_read_lock() or @rb->aux_mutex.
 *
 * Return: the page, or NULL when @pgoff is outside the AUX area (or there
 * is none).
 */
struct page *perf_aux_page(struct perf_buffer *rb, unsigned long pgoff)
{
	struct perf_aux_area *aux;
	unsigned long nr;

	aux = rcu_dereference_check(rb->aux, lockdep_is_held(&rb->aux_mutex));
	if (!aux || pgoff < aux->pgoff || pgoff - aux->pgoff >= aux->nr_pages)
		return NULL;
	nr = array_index_nospec(pgoff - aux->pgoff, aux->nr_pages);
	return virt_to_page(aux->pages[nr]);
}

/**
 * perf_aux_revoke - give a departing PMU's driver data of an AUX area back
 * @rb: a buffer (referenced by the caller)
 * @pmu: the PMU being unregistered, whose events no longer run
 *
 * If @rb has an AUX area set up by @pmu, its setup_aux() data goes to
 * free_aux() now, while the driver is still there; the core's pages stay
 * mapped until their last user lets go.  Process context.
 */
void perf_aux_revoke(struct perf_buffer *rb, struct pmu *pmu)
{
	struct perf_aux_area *aux;
	void *priv = NULL;

	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (aux && aux->pmu == pmu)
		priv = xchg(&aux->priv, NULL);
	mutex_unlock(&rb->aux_mutex);
	if (priv)
		pmu->free_aux(priv);
}

/**
 * perf_aux_vma_open - one more VMA maps the AUX area (mremap)
 * @rb: the buffer
 */
void perf_aux_vma_open(struct perf_buffer *rb)
{
	struct perf_aux_area *aux;

	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (aux)
		atomic_inc(&aux->mmap_count);
	mutex_unlock(&rb->aux_mutex);
}

/**
 * perf_aux_vma_close - a mapping of the AUX area goes
 * @event: the event it was mapped through
 * @rb: its buffer (referenced by the caller)
 * @mm: the mapping's mm, charged for the pages
 *
 * The last one takes the area off the buffer and gives back its locked
 * memory; the pages go when the last transaction on them has ended.  The
 * caller then closes the mapping as one of the buffer's.
 */
void perf_aux_vma_close(struct perf_event *event, struct perf_buffer *rb,
			struct mm_struct *mm)
{
	struct perf_aux_area *aux;

	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (!aux || !atomic_dec_and_test(&aux->mmap_count)) {
		mutex_unlock(&rb->aux_mutex);
		return;
	}
	RCU_INIT_POINTER(rb->aux, NULL);
	mutex_unlock(&rb->aux_mutex);

	atomic_long_sub(aux->nr_pages - aux->pinned, &aux->user->perf_mlock);
	atomic64_sub(aux->pinned, &mm->pinned_vm);
	free_uid(aux->user);
	aux->user = NULL;
	aux_put(aux);
}

/* ---------------------------------------------------------------------
 * Transactions: the driver's side
 */

/* Leave @handle as a transaction that never began. */
static void aux_handle_clear(struct perf_output_handle *handle)
{
	handle->event = NULL;
	handle->rb = NULL;
	handle->aux = NULL;
	handle->size = 0;
	handle->head = 0;
	handle->aux_flags = 0;
}

/**
 * perf_aux_output_begin - start a transaction on an event's AUX area
 * @handle: filled in for the transaction
 * @event: the event that produces AUX data, active on this CPU
 *
 * On success @handle->head is where the driver writes next (a byte count
 * that runs on past the area's size: reduce it modulo the size) and
 * @handle->size how much it may write.  With no room left the event is
 * disabled and its reader woken: it must make room (aux_tail) and enable
 * the event again.  IRQs off or NMI.
 *
 * Return: the driver's setup_aux() data, or NULL with @handle->event
 * cleared (no area, no room, output paused, a transaction already open).
 */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	struct perf_event *owner = event->parent ? event->parent : event;
	struct perf_aux_area *aux = NULL;
	unsigned long head, tail, used;
	struct perf_buffer *rb;

	aux_handle_clear(handle);

	rcu_read_lock();
	rb = rcu_dereference(*event_rbp(owner));
	if (rb)
		aux = rcu_dereference(rb->aux);
	if (aux && !refcount_inc_not_zero(&aux->refs))
		aux = NULL;
	rcu_read_unlock();
	if (!aux)
		return NULL;

	if (READ_ONCE(rb->paused) && rb->nr_pages)
		goto put;
	if (atomic_cmpxchg(&aux->busy, 0, 1))
		goto put;

	head = local_read(&aux->head);
	handle->event = event;
	handle->rb = rb;
	handle->aux = aux;
	handle->head = head;
	if (aux->overwrite) {
		handle->size = aux->size;
		return aux->priv;
	}

	tail = READ_ONCE(rb->user_page->aux_tail);
	/*
	 * The reader's tail before any write into what it has freed: pairs
	 * with the reader's barrier between reading the data and storing
	 * aux_tail.
	 */
	smp_mb();
	used = head - tail;
	handle->size = used < aux->size ? aux->size - used : 0;
	if (handle->size)
		return aux->priv;

	/* full: stop until the reader has caught up and enables it */
	perf_event_disable_inatomic(event);
	rb_owe_wakeup(rb, event);
	atomic_set(&aux->busy, 0);
	aux_handle_clear(handle);
put:
	aux_put(aux);
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

/* The flags that describe the data of a record rather than report news. */
#define AUX_FLAGS_OF_THE_DATA	(PERF_AUX_FLAG_OVERWRITE | \
				 PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK)

/* PERF_RECORD_AUX: this much at this offset, with these flags. */
static void aux_write_record(struct perf_event *event, u64 offset, u64 size,
			     u64 flags)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct {
		struct perf_event_header	header;
		u64				offset;
		u64				size;
		u64				flags;
	} rec = { .offset = offset, .size = size, .flags = flags };

	perf_sample_data_init(&data, 0, 0);
	perf_event_header__init(&rec.header, &data, PERF_RECORD_AUX, 0,
				sizeof(rec), event);
	if (perf_output_begin(&handle, &data, event, rec.header.size))
		return;
	perf_output_put(&handle, rec);
	perf_event__output_id_sample(event, &handle, &data);
	perf_output_end(&handle);
}

/* Publish the new head; wake the reader past the watermark. */
static void aux_publish(struct perf_output_handle *handle, unsigned long head)
{
	struct perf_aux_area *aux = handle->aux;
	struct perf_buffer *rb = handle->rb;

	local_set(&aux->head, head);
	/* the data before the head that says it is there */
	smp_wmb();
	WRITE_ONCE(rb->user_page->aux_head, head);

	if (head - local_read(&aux->wake_pos) >= aux->watermark ||
	    (handle->aux_flags & PERF_AUX_FLAG_TRUNCATED)) {
		local_set(&aux->wake_pos, head);
		rb_owe_wakeup(rb, handle->event);
	}
}

/**
 * perf_aux_output_end - finish a transaction
 * @handle: the transaction
 * @size: bytes the driver wrote, from @handle->head on
 *
 * Writes PERF_RECORD_AUX (unless nothing was written and no flag but the
 * mode and the PMU's format is set) and moves aux_head on.  In overwrite
 * mode the driver may have moved @handle->head itself (it wraps freely):
 * the record then says where the data now ends.  IRQs off or NMI.
 */
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_aux_area *aux = handle->aux;
	unsigned long offset;

	if (WARN_ON_ONCE(!aux))
		return;

	if (aux->overwrite) {
		handle->aux_flags |= PERF_AUX_FLAG_OVERWRITE;
		offset = handle->head;
	} else {
		offset = local_read(&aux->head);
		size = min(size, handle->size);
	}

	/*
	 * Mode and format flags describe data; with no data they say
	 * nothing, and a record of size 0 is written only for the flags
	 * that report an event (truncated, partial, collision).
	 */
	if (size || (handle->aux_flags & ~(u64)AUX_FLAGS_OF_THE_DATA))
		aux_write_record(handle->event, offset, size,
				 handle->aux_flags);
	aux_publish(handle, offset + size);

	atomic_set(&aux->busy, 0);
	aux_handle_clear(handle);
	aux_put(aux);
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/**
 * perf_aux_output_skip - leave a gap in an open transaction
 * @handle: the transaction
 * @size: bytes to skip (the driver pads to a boundary of its format)
 *
 * Return: 0, or -ENOSPC if the transaction has less room than that.
 */
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_aux_area *aux = handle->aux;

	if (!aux || size > handle->size)
		return -ENOSPC;

	handle->head = local_read(&aux->head) + size;
	handle->size -= size;
	aux_publish(handle, handle->head);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

/**
 * perf_aux_output_flag - mark an open transaction
 * @handle: the transaction
 * @flags: PERF_AUX_FLAG_* bits for its PERF_RECORD_AUX
 */
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	handle->aux_flags |= flags;
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/**
 * perf_get_aux - the driver's data of an open transaction
 * @handle: the transaction
 *
 * Return: what setup_aux() returned, or NULL if no transaction is open.
 */
void *perf_get_aux(struct perf_output_handle *handle)
{
	if (!handle->event || !handle->aux)
		return NULL;
	return handle->aux->priv;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

/* ---------------------------------------------------------------------
 * Events tied to an AUX leader
 *
 * Three kinds of group member work with the AUX event that leads their
 * group, and hold a reference on it in event->aux_event:
 *
 *  - aux_output: the member's PMU writes its records into the leader's
 *    AUX area instead of the ring buffer (PEBS via Intel PT).  The member
 *    PMU has PERF_PMU_CAP_AUX_OUTPUT and its aux_output_match() accepts
 *    the leader; the data path is the two drivers'.  Such a member runs
 *    only in the leader's group: when the leader goes, it is put in
 *    error and stays there.
 *  - aux_pause / aux_resume: an overflow of the member pauses or resumes
 *    the leader's tracing (PERF_EF_PAUSE / PERF_EF_RESUME), on a leader
 *    PMU with PERF_PMU_CAP_AUX_PAUSE; the leader may start paused
 *    (aux_start_paused).
 *  - aux_sample_size: the member's samples carry a snapshot of the
 *    leader's latest AUX data (pmu->snapshot_aux(), PERF_SAMPLE_AUX),
 *    copied by the driver with perf_output_copy_aux().
 */

/**
 * perf_aux_attr_check - AUX attributes against the event's own PMU
 * @event: a new event whose PMU accepted it
 *
 * Return: -EOPNOTSUPP for aux_output on a PMU that cannot write into an
 * AUX area (or with aux_pause/aux_resume), for aux_start_paused on a PMU
 * that cannot pause; -EINVAL for aux_pause with aux_resume; else 0, with
 * a start-paused event marked paused.
 */
int perf_aux_attr_check(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	int caps = event->pmu->capabilities;

	if (likely(!attr->aux_output && !attr->aux_action))
		return 0;
	if (attr->aux_output &&
	    (!(caps & PERF_PMU_CAP_AUX_OUTPUT) ||
	     attr->aux_pause || attr->aux_resume))
		return -EOPNOTSUPP;
	if (attr->aux_pause && attr->aux_resume)
		return -EINVAL;
	if (attr->aux_start_paused) {
		if (!(caps & PERF_PMU_CAP_AUX_PAUSE))
			return -EOPNOTSUPP;
		event->hw.aux_paused = 1;
	}
	return 0;
}

/**
 * perf_aux_link - tie a new group member to its AUX leader
 * @event: a new event
 * @leader: the group it joins, or NULL
 *
 * For aux_output, aux_pause, aux_resume and aux_sample_size events; does
 * nothing for others.
 *
 * Return: 0 (with a reference on @leader in event->aux_event), or -EINVAL
 * when there is no group, its leader has no AUX area, or cannot do what
 * the member asks: take its aux_output (aux_output_match()), pause
 * (PERF_PMU_CAP_AUX_PAUSE), give snapshots (snapshot_aux()); and for
 * aux_output together with aux_sample_size.
 */
int perf_aux_link(struct perf_event *event, struct perf_event *leader)
{
	struct perf_event_attr *attr = &event->attr;

	if (likely(!attr->aux_output && !has_aux_action(event)))
		return 0;
	if (!leader || leader == event || !has_aux(leader))
		return -EINVAL;
	if (attr->aux_output &&
	    (attr->aux_sample_size || !event->pmu->aux_output_match ||
	     !event->pmu->aux_output_match(leader)))
		return -EINVAL;
	if ((attr->aux_pause || attr->aux_resume) &&
	    !(leader->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		return -EINVAL;
	if (attr->aux_sample_size && !leader->pmu->snapshot_aux)
		return -EINVAL;
	if (!perf_event_tryget(leader))
		return -EINVAL;
	event->aux_event = leader;
	return 0;
}

/**
 * perf_aux_pause - pause or resume an AUX leader's tracing
 * @leader: the member's event->aux_event
 * @pause: true to pause, false to resume
 *
 * From the overflow of an aux_pause / aux_resume member, in any context
 * (NMI included), on the CPU where the group runs.  The driver's stop()
 * and start() are called with PERF_EF_PAUSE / PERF_EF_RESUME only when
 * hw.aux_paused changes, and not from inside one another (an NMI member
 * overflowing while an IRQ one pauses finds the leader busy and leaves
 * it).  hw.aux_paused stays as set across context switches: a driver
 * checks it when it starts.
 */
void perf_aux_pause(struct perf_event *leader, bool pause)
{
	struct hw_perf_event *hwc = &leader->hw;
	unsigned long flags;

	local_irq_save(flags);
	if (READ_ONCE(leader->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(leader->oncpu) != smp_processor_id() ||
	    READ_ONCE(hwc->aux_paused) == pause ||
	    this_cpu_xchg(perf_aux_pausing, 1))
		goto out;
	WRITE_ONCE(hwc->aux_paused, pause);
	if (pause)
		leader->pmu->stop(leader, PERF_EF_PAUSE);
	else
		leader->pmu->start(leader, PERF_EF_RESUME);
	this_cpu_write(perf_aux_pausing, 0);
out:
	local_irq_restore(flags);
}

/* The AUX area @leader writes to, with a reference; RCU held. */
static struct perf_aux_area *aux_of_event(struct perf_event *leader)
{
	struct perf_event *owner = leader->parent ? leader->parent : leader;
	struct perf_buffer *rb = rcu_dereference(*event_rbp(owner));
	struct perf_aux_area *aux = rb ? rcu_dereference(rb->aux) : NULL;

	if (aux && !refcount_inc_not_zero(&aux->refs))
		aux = NULL;
	return aux;
}

/**
 * perf_aux_sample_size - bytes of AUX data the next sample of @event gets
 * @event: the sampling event
 * @room: what is left of the record
 *
 * aux_sample_size, within @room and the AUX area, in whole u64s; 0 when
 * the leader is not running here (its hardware is not tracing) or a
 * snapshot is already being taken.  IRQs off or NMI, RCU held.
 *
 * Return: the size.
 */
u64 perf_aux_sample_size(struct perf_event *event, u64 room)
{
	struct perf_event *leader = event->aux_event;
	struct perf_aux_area *aux;
	u64 size = 0;

	if (!leader || READ_ONCE(leader->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(leader->oncpu) != smp_processor_id())
		return 0;

	aux = aux_of_event(leader);
	if (!aux)
		return 0;
	if (!atomic_read(&aux->sampling))
		size = min3((u64)event->attr.aux_sample_size, room,
			    (u64)aux->size);
	aux_put(aux);
	return round_down(size, sizeof(u64));
}

/* zeroes for the part of a sample's AUX data the driver did not give */
static const u64 aux_sample_zeroes[8];

/**
 * perf_aux_sample_output - write a sample's AUX data
 * @event: the sampling event
 * @handle: its record, positioned after the size word
 * @size: the size perf_aux_sample_size() gave: exactly this much is written
 *
 * The leader's driver copies what it has (snapshot_aux()); the rest is
 * zeroes.  IRQs off or NMI, RCU held.
 */
void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle, u64 size)
{
	struct perf_event *leader = event->aux_event;
	struct perf_aux_area *aux = leader ? aux_of_event(leader) : NULL;
	unsigned long flags;
	long copied = 0;
	u64 left;

	if (aux) {
		local_irq_save(flags);
		/* an NMI sample while a snapshot is on its way gets none */
		if (!atomic_xchg(&aux->sampling, 1)) {
			copied = leader->pmu->snapshot_aux(leader, handle, size);
			atomic_set(&aux->sampling, 0);
		}
		local_irq_restore(flags);
		aux_put(aux);
	}

	if (copied < 0 || WARN_ON_ONCE(copied > size))
		copied = 0;
	for (left = size - copied; left; ) {
		u64 n = min_t(u64, left, sizeof(aux_sample_zeroes));

		perf_output_copy(handle, aux_sample_zeroes, n);
		left -= n;
	}
}

/**
 * perf_output_copy_aux - copy AUX data into a sample record
 * @aux_handle: the driver's open AUX transaction
 * @handle: the sample record
 * @from: start offset in the AUX area
 * @to: end offset in the AUX area; the offsets wrap at the area's size,
 *	and @from == @to means the whole area
 *
 * For the driver's snapshot_aux().
 *
 * Return: the bytes copied.
 */
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to)
{
	struct perf_aux_area *aux = aux_handle->aux;
	unsigned long len, copied = 0, want;

	if (!aux)
		return 0;
	from &= aux->size - 1;
	to &= aux->size - 1;
	want = to > from ? to - from : aux->size - from + to;

	while (copied < want) {
		len = min(want - copied, PAGE_SIZE - offset_in_page(from));
		if (perf_output_copy(handle, aux->pages[from >> PAGE_SHIFT] +
				     offset_in_page(from), len))
			break;
		copied += len;
		from = (from + len) & (aux->size - 1);
	}
	return copied;
}
