/* SPDX-License-Identifier: GPL-2.0 */
/* Address range filters of instruction trace PMUs (addr_filter.c). */
#ifndef _KERNEL_EVENTS_ADDR_FILTER_H
#define _KERNEL_EVENTS_ADDR_FILTER_H

#include <linux/atomic.h>
#include <linux/mm_types.h>

struct perf_event;
struct perf_event_context;

int perf_addr_filters_init(struct perf_event *event);
void perf_addr_filters_inherit(struct perf_event *event,
			       struct perf_event *from);
void perf_addr_filters_free(struct perf_event *event);
int perf_addr_filters_set(struct perf_event *event, char *text);
void perf_addr_filters_exec(struct perf_event_context *ctx);

extern atomic_t perf_file_filter_owners;
void __perf_addr_filters_mmap(struct vm_area_struct *vma);

/* perf_event_mmap(): a new mapping may give file filters an address */
static inline void perf_addr_filters_mmap(struct vm_area_struct *vma)
{
	if (unlikely(atomic_read(&perf_file_filter_owners)) &&
	    (vma->vm_flags & VM_EXEC) && vma->vm_file)
		__perf_addr_filters_mmap(vma);
}

#endif /* _KERNEL_EVENTS_ADDR_FILTER_H */
