/* SPDX-License-Identifier: GPL-2.0 */
/* The AUX area of a ring buffer: what ring_buffer.c calls (aux.c). */
#ifndef _KERNEL_EVENTS_AUX_H
#define _KERNEL_EVENTS_AUX_H

#include <linux/mm_types.h>

struct perf_buffer;
struct perf_event;

int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma);
vm_fault_t perf_aux_fault(struct perf_buffer *rb, struct vm_fault *vmf);
void perf_aux_vma_open(struct perf_buffer *rb);
void perf_aux_vma_close(struct perf_event *event, struct perf_buffer *rb,
			struct mm_struct *mm);

#endif /* _KERNEL_EVENTS_AUX_H */
