/* SPDX-License-Identifier: GPL-2.0 */
/* The mmap()ed ring buffer: what the other core files call (ring_buffer.c). */
#ifndef _KERNEL_EVENTS_RING_BUFFER_H
#define _KERNEL_EVENTS_RING_BUFFER_H

#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <asm/local.h>

struct perf_event;
struct perf_output_handle;
struct perf_aux_area;

/*
 * A ring buffer (ring_buffer.c says who may touch what): one control page
 * followed by 2^n data pages, and optionally an AUX area (aux.c).
 */
struct perf_buffer {
	refcount_t			refcount;
	struct rcu_head			rcu_head;

	/* set at allocation */
	struct perf_event_mmap_page	*user_page;
	unsigned long			data_size;	/* bytes, 0 or 2^n pages */
	int				nr_pages;	/* data pages */
	bool				overwrite;	/* mapped without PROT_WRITE */
	unsigned long			watermark;	/* bytes between wake-ups */

	/* PERF_EVENT_IOC_PAUSE_OUTPUT; always set when there is no data */
	int				paused;
	/*
	 * The control page's output_state follows a pause once the writers
	 * under way have finished: after a grace period, in pause_work.
	 * pause_mutex orders the ioctl and that work; pause_seq counts
	 * pauses and resumes, pause_armed is the pause the work is for.
	 */
	struct mutex			pause_mutex;
	unsigned int			pause_seq;
	unsigned int			pause_armed;
	bool				pause_pending;	/* pause_work queued */
	bool				pause_backward;	/* write_backward */
	struct rcu_work			pause_work;

	/*
	 * Written by the copies of an inherited per-task event, which run
	 * on many CPUs at once: writers then take the buffer for their CPU
	 * (writer_cpu, -1 when free) before they touch the fields below.
	 * Set before the first such writer is attached, never cleared.
	 */
	bool				shared;
	atomic_t			writer_cpu;
	/* writer_cpu is a lock in all but name: lockdep knows it by this */
	struct lockdep_map		writer_map;
	unsigned long			writer_irqflags;	/* the holder's */

	/* writers: one CPU at a time (see shared), any context */
	local_t				head;		/* next byte to reserve */
	unsigned int			nest;		/* writers stacked up */
	local_t				wake_pos;	/* head at the last watermark */
	local_t				wake_seq;	/* wake-ups owed so far */
	local_t				samples;	/* towards wakeup_events */
	/* overwrite mode, forward: where the oldest whole record starts */
	local_t				oldest;

	/*
	 * Records not written yet to be reported: counted, and taken for
	 * the report, before the buffer is taken (any CPU, any context).
	 */
	atomic_long_t			lost;

	/* what poll() reports next, set when readers are woken */
	atomic_t			poll;

	/* events writing here: theirs, or redirected with SET_OUTPUT */
	spinlock_t			writers_lock;
	struct list_head		writers;

	/*
	 * The AUX area: set and cleared under aux_mutex, which is the
	 * buffer's and not an event's, since SET_OUTPUT shares the buffer
	 * and each sharer may map the area.  Read under RCU.
	 */
	struct mutex			aux_mutex;
	struct perf_aux_area __rcu	*aux;

	/* mappings and the locked memory they were charged */
	atomic_t			mmap_count;
	unsigned long			pinned_pages;	/* charged to mm->pinned_vm */
	struct user_struct		*mmap_user;

	/* [0] is the control page, [1 + i] data page i */
	void				*pages[];
};

/* a reference on the buffer @event writes to (its parent's if inherited) */
struct perf_buffer *rb_get(struct perf_event *event);
void rb_put(struct perf_buffer *rb);
/* readers are owed a wake-up (poll, SIGIO); any context */
void rb_owe_wakeup(struct perf_buffer *rb, struct perf_event *event);
/* charge @pages of locked memory; *@pinned: the part on mm->pinned_vm */
int rb_charge(struct mm_struct *mm, struct user_struct *user,
	      unsigned long pages, unsigned long *pinned);

/* file operations of an event fd */
int perf_mmap(struct file *file, struct vm_area_struct *vma);
int perf_mmap_event(struct perf_event *event, struct vm_area_struct *vma);
__poll_t perf_poll(struct file *file, poll_table *wait);
int perf_fasync(int fd, struct file *filp, int on);

/*
 * Wake every reader of @event's buffer (all events that share it), or of
 * @event alone if it has none: poll/read waiters and SIGIO.  Not in NMI.
 */
void perf_event_wakeup(struct perf_event *event);

/* PERF_EVENT_IOC_SET_OUTPUT and PERF_FLAG_FD_OUTPUT; @output NULL: detach */
int perf_event_set_output(struct perf_event *event, struct perf_event *output);
/* PERF_EVENT_IOC_PAUSE_OUTPUT */
int perf_event_pause_output(struct perf_event *event, bool pause);
/* The event is being freed (process context): let go of its buffer. */
void perf_event_rb_release(struct perf_event *event);

/*
 * More ways to fill a record begun with perf_output_begin() (any context,
 * NMI too).  Both return the bytes not copied, which the caller still has
 * to fill or skip: a record's size is fixed when it is begun.
 */
/* from user memory, without faulting pages in */
unsigned long perf_output_copy_user(struct perf_output_handle *handle,
				    const void __user *buf, unsigned long len);
/* by @copy(dst, @src, offset, n), which returns the bytes it left out */
unsigned long perf_output_copy_custom(struct perf_output_handle *handle,
				      perf_copy_f copy, const void *src,
				      unsigned long len);

#endif /* _KERNEL_EVENTS_RING_BUFFER_H */
