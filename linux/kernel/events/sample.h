/* SPDX-License-Identifier: GPL-2.0 */
/* The sample layout (sample.c) and callchains (callchain.c). */
#ifndef _KERNEL_EVENTS_SAMPLE_H
#define _KERNEL_EVENTS_SAMPLE_H

#include <linux/types.h>

struct perf_event;
struct perf_event_header;
struct perf_output_handle;
struct perf_sample_data;

/* --- sample.c --------------------------------------------------------- */

/*
 * Recompute event->header_size and ->id_header_size (after read_size):
 * at creation and whenever the group's membership changes.
 */
void perf_event_calc_header_sizes(struct perf_event *event);

/*
 * Side-band records with attr.sample_id_all carry the sample id fields
 * after their body: perf_event_header__init_id() adds their size to
 * @header->size and fills them into @data (any context, NMI too);
 * perf_event__output_id_sample() writes them at the end of the record.
 * perf_event_header__init() (perf_event.h) does the first and sets
 * type/misc/size as well.
 */
void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data,
				struct perf_event *event);

/* --- callchain.c ------------------------------------------------------ */

/*
 * Event allocation (not installed yet, process context): an event that
 * samples PERF_SAMPLE_CALLCHAIN takes the callchain buffers (sets
 * PERF_ATTACH_CALLCHAIN).  -EOVERFLOW (sample_max_stack too deep) or
 * -ENOMEM.  Event free: give them back.
 */
int perf_callchain_event_init(struct perf_event *event);
void perf_callchain_event_free(struct perf_event *event);

/*
 * For perf_event_max_stack_handler(): store a new perf_event_max_stack or
 * perf_event_max_contexts_per_stack, or -EBUSY while buffers sized from
 * the current values are in use.
 */
int perf_callchain_limit_store(int *limit, int value);

#endif /* _KERNEL_EVENTS_SAMPLE_H */
