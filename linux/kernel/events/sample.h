/* SPDX-License-Identifier: GPL-2.0 */
/* The sample layout and sample_id_all (sample.c). */
#ifndef _KERNEL_EVENTS_SAMPLE_H
#define _KERNEL_EVENTS_SAMPLE_H

#include <linux/types.h>

struct perf_event;
struct perf_event_header;
struct perf_output_handle;
struct perf_sample_data;

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

#endif /* _KERNEL_EVENTS_SAMPLE_H */
