// SPDX-License-Identifier: GPL-2.0
/*
 * Address range filters: where an instruction trace PMU (Intel PT, Arm
 * CoreSight ETM) traces, set with PERF_EVENT_IOC_SET_FILTER on one of its
 * events (pmu->nr_addr_filters > 0).  The text is a list of filters,
 * separated by spaces, commas or newlines, each an action and a source:
 *
 *	filter|start|stop  ADDR[/SIZE][@FILE]
 *
 * "filter" traces inside the range (it needs a SIZE), "start" and "stop"
 * switch tracing on and off when the range (or the single address) is
 * executed.  Without @FILE, ADDR is a kernel address; with it, an offset
 * into FILE, a regular file, which may be mapped anywhere (per-task events
 * only: a CPU-wide event sees many address spaces).  Numbers take a 0x or
 * 0 prefix.  An empty text removes the filters.
 *
 * What the driver gets: the list (perf_event_addr_filters(), the parent's
 * for an inherited event) and, per event, event->addr_filter_ranges[]: for
 * each filter in list order, the address range it stands for now -- the
 * kernel range as written, or where the file's bytes are mapped in the
 * event's task (start 0 while they are not).  Whenever that changes,
 * event->addr_filters_gen moves on and a running event is restarted; the
 * driver calls perf_event_addr_filters_sync() from its start() and is
 * given the new ranges through pmu->addr_filters_sync() once per change.
 *
 * The ranges follow the address space: set when the filters are set
 * (every inherited copy too), moved when current maps an executable part
 * of a filtered file (perf_event_mmap()), and cleared at exec.
 *
 * Locking: the DOC: block "Address filter lock" below, shown in
 * Documentation/perf/core/locking.rst.
 */

/**
 * DOC: Address filter lock
 *
 * ``event->addr_filters.lock`` (``struct perf_addr_filters_head``)
 *   A raw spinlock, the *head lock*.  Inherited copies use their top parent's head, lock
 *   included.  Protects the filter list and ``nr_file_filters`` (which also
 *   need the owner's ``ctx->mutex`` to change), each event's
 *   ``addr_filter_ranges`` and ``addr_filters_gen``.  ``pmu->addr_filters_sync()``
 *   runs under it.  Taken inside ``ctx->lock`` (the mmap hook, a driver's
 *   ``start()``) and inside ``mmap_lock``.
 */

#include <linux/export.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/perf_event.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"
#include "addr_filter.h"
#include "context.h"

/* owners whose filters name files: only then does mmap() look */
atomic_t perf_file_filter_owners = ATOMIC_INIT(0);

/**
 * perf_addr_filters_init - set up a new event's address filter state
 * @event: a new event whose PMU has accepted it
 *
 * Return: 0 or -ENOMEM.
 */
int perf_addr_filters_init(struct perf_event *event)
{
	raw_spin_lock_init(&event->addr_filters.lock);
	INIT_LIST_HEAD(&event->addr_filters.list);
	if (!has_addr_filter(event))
		return 0;

	event->addr_filter_ranges = kcalloc(event->pmu->nr_addr_filters,
					    sizeof(*event->addr_filter_ranges),
					    GFP_KERNEL);
	if (!event->addr_filter_ranges)
		return -ENOMEM;
	/* the driver's copy (generation 0) is out of date from the start */
	event->addr_filters_gen = 1;
	return 0;
}

/**
 * perf_addr_filters_inherit - a copy for a new child starts where @from is
 * @event: the copy, not yet installed
 * @from: the event it copies (the parent task's)
 *
 * The child's address space is a copy of the parent task's until it
 * execs, so its file ranges are the same.
 */
void perf_addr_filters_inherit(struct perf_event *event,
			       struct perf_event *from)
{
	struct perf_addr_filters_head *head;
	unsigned long flags;

	if (!event->addr_filter_ranges || !from->addr_filter_ranges)
		return;
	head = perf_event_addr_filters(event);
	raw_spin_lock_irqsave(&head->lock, flags);
	memcpy(event->addr_filter_ranges, from->addr_filter_ranges,
	       event->pmu->nr_addr_filters * sizeof(*event->addr_filter_ranges));
	raw_spin_unlock_irqrestore(&head->lock, flags);
}

static void free_filter_list(struct list_head *list)
{
	struct perf_addr_filter *filter, *next;

	list_for_each_entry_safe(filter, next, list, entry) {
		list_del(&filter->entry);
		path_put(&filter->path);
		kfree(filter);
	}
}

/* Count an owner in or out of perf_file_filter_owners. */
static void account_file_filters(unsigned int before, unsigned int after)
{
	if (!before && after)
		atomic_inc(&perf_file_filter_owners);
	else if (before && !after)
		atomic_dec(&perf_file_filter_owners);
}

/**
 * perf_addr_filters_free - free an event's address filter state
 * @event: an event being freed (its inherited copies are gone)
 */
void perf_addr_filters_free(struct perf_event *event)
{
	struct perf_addr_filters_head *head = &event->addr_filters;

	if (!event->addr_filter_ranges)
		return;
	if (!event->parent) {
		account_file_filters(head->nr_file_filters, 0);
		head->nr_file_filters = 0;
		free_filter_list(&head->list);
	}
	kfree(event->addr_filter_ranges);
	event->addr_filter_ranges = NULL;
}

/* ---------------------------------------------------------------------
 * Parsing
 */

/*
 * "ADDR[/SIZE][@FILE]" into @filter; @file gets FILE or NULL (pointing
 * into @src, which is cut up).
 */
static int parse_source(char *src, struct perf_addr_filter *filter,
			char **file)
{
	char *at = strchr(src, '@');
	char *slash;
	int err;

	*file = NULL;
	if (at) {
		*at = '\0';
		*file = at + 1;
		if (!**file)
			return -EINVAL;
	}
	slash = strchr(src, '/');
	if (slash) {
		*slash = '\0';
		err = kstrtoul(slash + 1, 0, &filter->size);
		if (err)
			return err;
	}
	return kstrtoul(src, 0, &filter->offset);
}

/* Resolve FILE for a file-based @filter of @event. */
static int filter_set_file(struct perf_event *event,
			   struct perf_addr_filter *filter, const char *file)
{
	int err;

	/* the same file is mapped at other addresses in each process */
	if (!event->ctx->task)
		return -EOPNOTSUPP;
	err = kern_path(file, LOOKUP_FOLLOW, &filter->path);
	if (err)
		return err;
	if (!d_is_reg(filter->path.dentry)) {
		path_put(&filter->path);
		filter->path.dentry = NULL;
		filter->path.mnt = NULL;
		return -EINVAL;
	}
	return 0;
}

static const struct {
	const char			*word;
	enum perf_addr_filter_action_t	action;
} filter_actions[] = {
	{ "filter",	PERF_ADDR_FILTER_ACTION_FILTER },
	{ "start",	PERF_ADDR_FILTER_ACTION_START },
	{ "stop",	PERF_ADDR_FILTER_ACTION_STOP },
};

/* The action named @word, or -EINVAL. */
static int parse_action(const char *word)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(filter_actions); i++)
		if (!strcmp(word, filter_actions[i].word))
			return filter_actions[i].action;
	return -EINVAL;
}

/*
 * Parse @text (modified) into a list of filters at @list; @nr and
 * @nr_file count them.  On error nothing is left on @list.
 */
static int parse_filters(struct perf_event *event, char *text,
			 struct list_head *list, unsigned int *nr,
			 unsigned int *nr_file)
{
	struct perf_addr_filter *filter = NULL;
	char *word, *file;
	int action, err = 0;

	*nr = 0;
	*nr_file = 0;
	while ((word = strsep(&text, " ,\n"))) {
		if (!*word)
			continue;
		if (!filter) {
			action = parse_action(word);
			if (action < 0) {
				err = action;
				break;
			}
			filter = kzalloc(sizeof(*filter), GFP_KERNEL);
			if (!filter) {
				err = -ENOMEM;
				break;
			}
			filter->action = action;
			continue;
		}
		err = parse_source(word, filter, &file);
		/* a range to trace in cannot be empty */
		if (!err && filter->action == PERF_ADDR_FILTER_ACTION_FILTER &&
		    !filter->size)
			err = -EINVAL;
		if (!err && file)
			err = filter_set_file(event, filter, file);
		if (err)
			break;
		list_add_tail(&filter->entry, list);
		(*nr)++;
		if (file)
			(*nr_file)++;
		filter = NULL;
	}
	/* an action without its source */
	if (!err && filter)
		err = -EINVAL;
	kfree(filter);
	if (err)
		free_filter_list(list);
	return err;
}

/* ---------------------------------------------------------------------
 * Ranges
 */

/*
 * Where the file bytes of @filter lie in @vma, if they do: the part of
 * [offset, offset + size) (or the single offset) that @vma maps.
 */
static bool filter_in_vma(const struct perf_addr_filter *filter,
			  struct vm_area_struct *vma,
			  struct perf_addr_filter_range *range)
{
	unsigned long vm_off = vma->vm_pgoff << PAGE_SHIFT;
	unsigned long vm_end = vm_off + (vma->vm_end - vma->vm_start);
	unsigned long lo, hi;

	/* the file the user named: an overlay's, not its backing file's */
	if (!vma->vm_file ||
	    file_user_inode(vma->vm_file) != d_inode(filter->path.dentry))
		return false;

	lo = max(filter->offset, vm_off);
	if (filter->size) {
		if (check_add_overflow(filter->offset, filter->size, &hi))
			hi = ULONG_MAX;
		hi = min(hi, vm_end);
		if (lo >= hi)
			return false;
	} else {
		if (filter->offset < vm_off || filter->offset >= vm_end)
			return false;
		hi = lo;
	}
	range->start = vma->vm_start + (lo - vm_off);
	range->size = hi - lo;
	return true;
}

/* The first mapping of @filter's file bytes in @mm; mmap_lock held. */
static void filter_find_in_mm(const struct perf_addr_filter *filter,
			      struct mm_struct *mm,
			      struct perf_addr_filter_range *range)
{
	struct vma_iterator vmi;
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma)
		if (filter_in_vma(filter, vma, range))
			return;
}

/*
 * Recompute all of @event's ranges from its filters and its task's
 * address space, then have the driver take them.
 */
static void perf_addr_filters_apply(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct task_struct *task = event->ctx->task;
	struct perf_addr_filter_range *range;
	struct perf_addr_filter *filter;
	struct mm_struct *mm = NULL;
	unsigned long flags;

	if (head->nr_file_filters && task) {
		mm = get_task_mm(task);
		if (mm)
			mmap_read_lock(mm);
	}

	raw_spin_lock_irqsave(&head->lock, flags);
	range = event->addr_filter_ranges;
	list_for_each_entry(filter, &head->list, entry) {
		if (filter->path.dentry) {
			range->start = 0;
			range->size = 0;
			if (mm)
				filter_find_in_mm(filter, mm, range);
		} else {
			range->start = filter->offset;
			range->size = filter->size;
		}
		range++;
	}
	event->addr_filters_gen++;
	raw_spin_unlock_irqrestore(&head->lock, flags);

	if (mm) {
		mmap_read_unlock(mm);
		mmput(mm);
	}
	perf_event_restart(event);
}

/**
 * perf_addr_filters_set - PERF_EVENT_IOC_SET_FILTER on an event whose PMU
 *			   takes address filters
 * @event: the event of the fd (not an inherited copy)
 * @text: the filter text (modified)
 *
 * Replaces the event's filters and brings the ranges of the event and of
 * its inherited copies up to date.
 *
 * Context: ctx->mutex held; dropped while the text is parsed and while
 * the old filters are freed, since a path lookup takes locks that nest
 * outside it (a /proc/PID link takes the task's exec_update_lock, which
 * perf_event_open() holds around ctx->mutex), as can dropping a path.
 * The caller's reference keeps the context alive meanwhile.
 *
 * Return: 0; -EINVAL for a text that does not parse, a "filter" without
 * a size, a file that is not a regular file; the path lookup's error for a
 * file; -EOPNOTSUPP for a file on a CPU-wide event, for more filters than
 * the PMU has, or what pmu->addr_filters_validate() refuses; -ENOMEM.
 */
int perf_addr_filters_set(struct perf_event *event, char *text)
{
	struct perf_addr_filters_head *head = &event->addr_filters;
	struct perf_event_context *ctx = event->ctx;
	unsigned int nr, nr_file, old_nr_file;
	struct perf_event *child;
	unsigned long flags;
	LIST_HEAD(filters);
	LIST_HEAD(old);
	int err;

	lockdep_assert_held(&ctx->mutex);
	if (WARN_ON_ONCE(event->parent || !event->addr_filter_ranges))
		return -EINVAL;

	mutex_unlock(&ctx->mutex);
	err = parse_filters(event, text, &filters, &nr, &nr_file);
	if (!err && nr > event->pmu->nr_addr_filters)
		err = -EOPNOTSUPP;
	if (!err && event->pmu->addr_filters_validate)
		err = event->pmu->addr_filters_validate(&filters);
	if (err) {
		free_filter_list(&filters);
		mutex_lock(&ctx->mutex);
		return err;
	}
	mutex_lock(&ctx->mutex);

	raw_spin_lock_irqsave(&head->lock, flags);
	list_splice_init(&head->list, &old);
	list_splice_init(&filters, &head->list);
	old_nr_file = head->nr_file_filters;
	head->nr_file_filters = nr_file;
	raw_spin_unlock_irqrestore(&head->lock, flags);
	account_file_filters(old_nr_file, nr_file);

	perf_addr_filters_apply(event);
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_entry)
		perf_addr_filters_apply(child);
	mutex_unlock(&event->child_mutex);

	mutex_unlock(&ctx->mutex);
	free_filter_list(&old);
	mutex_lock(&ctx->mutex);
	return 0;
}

/**
 * perf_event_addr_filters_sync - give the driver the current ranges
 * @event: the event, being started on this CPU (IRQs off)
 *
 * For a PMU with address filters: calls pmu->addr_filters_sync() if the
 * ranges changed since the driver last took them.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);

	if (!has_addr_filter(event) || !event->pmu->addr_filters_sync)
		return;
	raw_spin_lock(&head->lock);
	if (event->hw.addr_filters_gen != event->addr_filters_gen) {
		event->pmu->addr_filters_sync(event);
		event->hw.addr_filters_gen = event->addr_filters_gen;
	}
	raw_spin_unlock(&head->lock);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);

/* ---------------------------------------------------------------------
 * Following the address space
 */

/* Whether @event has file filters (they are its owner's). */
static bool has_file_filters(struct perf_event *event)
{
	return event->addr_filter_ranges &&
	       READ_ONCE(perf_event_addr_filters(event)->nr_file_filters);
}

/*
 * Move @event's file ranges to where @vma maps their files, or clear them
 * all when @vma is NULL (exec).  The owner's head lock held.  Return: true
 * if one changed; the generation has then moved on.
 */
static bool file_ranges_update(struct perf_event *event,
			       struct vm_area_struct *vma)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct perf_addr_filter_range *range = event->addr_filter_ranges;
	struct perf_addr_filter *filter;
	bool changed = false;

	lockdep_assert_held(&head->lock);
	list_for_each_entry(filter, &head->list, entry) {
		if (filter->path.dentry) {
			if (!vma) {
				range->start = 0;
				range->size = 0;
				changed = true;
			} else if (filter_in_vma(filter, vma, range)) {
				changed = true;
			}
		}
		range++;
	}
	if (changed)
		event->addr_filters_gen++;
	return changed;
}

/**
 * __perf_addr_filters_mmap - current mapped an executable part of a file
 * @vma: the new mapping, in current's address space (mmap_lock held)
 *
 * The file filters of current's events that name this file now have an
 * address.
 */
void __perf_addr_filters_mmap(struct vm_area_struct *vma)
{
	struct perf_addr_filters_head *head;
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	bool moved;

	mmap_assert_locked(vma->vm_mm);
	rcu_read_lock();
	ctx = rcu_dereference(*task_ctxp(current));
	if (!ctx)
		goto out;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!has_file_filters(event))
			continue;
		head = perf_event_addr_filters(event);
		raw_spin_lock(&head->lock);
		moved = file_ranges_update(event, vma);
		raw_spin_unlock(&head->lock);
		if (moved)
			perf_event_restart_local(event);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * perf_addr_filters_exec - current exec'ed: its file ranges are gone
 * @ctx: current's context, ctx->mutex held
 */
void perf_addr_filters_exec(struct perf_event_context *ctx)
{
	struct perf_addr_filters_head *head;
	struct perf_event *event;
	unsigned long flags;
	bool cleared;

	lockdep_assert_held(&ctx->mutex);
	if (likely(!atomic_read(&perf_file_filter_owners)))
		return;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!has_file_filters(event))
			continue;
		head = perf_event_addr_filters(event);
		raw_spin_lock_irqsave(&head->lock, flags);
		cleared = file_ranges_update(event, NULL);
		raw_spin_unlock_irqrestore(&head->lock, flags);
		if (cleared)
			perf_event_restart(event);
	}
}
