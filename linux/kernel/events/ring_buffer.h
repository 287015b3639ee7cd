/* SPDX-License-Identifier: GPL-2.0 */
/* The mmap()ed ring buffer: what the other core files call (ring_buffer.c). */
#ifndef _KERNEL_EVENTS_RING_BUFFER_H
#define _KERNEL_EVENTS_RING_BUFFER_H

#include <linux/fs.h>
#include <linux/poll.h>

struct perf_event;
struct perf_output_handle;

/* file operations of an event fd */
int perf_mmap(struct file *file, struct vm_area_struct *vma);
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
