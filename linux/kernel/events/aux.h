/* SPDX-License-Identifier: GPL-2.0 */
/* The AUX area of a ring buffer: what ring_buffer.c calls (aux.c). */
#ifndef _KERNEL_EVENTS_AUX_H
#define _KERNEL_EVENTS_AUX_H

#include <linux/mm_types.h>

struct perf_buffer;
struct perf_event;
struct perf_output_handle;
struct pmu;

int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma);
struct page *perf_aux_page(struct perf_buffer *rb, unsigned long pgoff);
void perf_aux_vma_open(struct perf_buffer *rb);
void perf_aux_vma_close(struct perf_event *event, struct perf_buffer *rb,
			struct mm_struct *mm);
/* free a departing PMU's data of @rb's AUX area (perf_pmu_unregister()) */
void perf_aux_revoke(struct perf_buffer *rb, struct pmu *pmu);

/* AUX attributes against the event's PMU, at event allocation */
int perf_aux_attr_check(struct perf_event *event);
/* pause (or resume) the AUX writing of @leader */
void perf_aux_pause(struct perf_event *leader, bool pause);

/* members tied to an AUX leader: aux_output, aux_pause/resume, samples */
int perf_aux_link(struct perf_event *event, struct perf_event *leader);
u64 perf_aux_sample_size(struct perf_event *event, u64 room);
void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle, u64 size);

#endif /* _KERNEL_EVENTS_AUX_H */
