// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area: not there yet.
 *
 * Drivers that trace into a second buffer (Intel PT and BTS, Arm SPE and
 * CoreSight) call the AUX API below from their interrupt handlers and
 * their pmu->start()/stop().  The core does not map an AUX area (mmap at
 * aux_offset and the aux_* attributes are refused with -EOPNOTSUPP), so
 * no event ever has one: a transaction never begins, the driver gets no
 * buffer and keeps its hardware stopped, and the rest do nothing.  Address
 * filters come with AUX and are likewise empty.
 *
 * None of these warn: a driver reaches them in normal operation.
 */

#include <linux/export.h>
#include <linux/perf_event.h>

#include "internal.h"

/*
 * Leave @handle looking like a failed perf_output_begin() so that a caller
 * which inspects it afterwards sees no event and no room.
 */
static int perf_output_refuse(struct perf_output_handle *handle)
{
	handle->event = NULL;
	handle->rb = NULL;
	handle->size = 0;
	handle->head = 0;
	return -ENOSPC;
}

/**
 * perf_aux_output_begin - start a transaction on an event's AUX area
 * @handle: filled in for the transaction
 * @event: the event that produces AUX data
 *
 * No event has an AUX area before the ring buffer lands, so the driver
 * gets nothing to write to and keeps its hardware stopped.
 *
 * Return: NULL, with @handle->event cleared.
 */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	perf_output_refuse(handle);
	handle->aux_flags = 0;
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

/**
 * perf_aux_output_end - finish a transaction on an AUX area
 * @handle: the transaction
 * @size: bytes the hardware wrote
 *
 * No transaction can have begun: does nothing.
 */
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/**
 * perf_aux_output_skip - pad an AUX transaction
 * @handle: the transaction
 * @size: bytes to skip
 *
 * Return: -EOPNOTSUPP: there is no AUX area to pad.
 */
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

/**
 * perf_aux_output_flag - mark an AUX transaction (truncated, overwrite, ...)
 * @handle: the transaction
 * @flags: PERF_AUX_FLAG_* bits
 *
 * No transaction can have begun: does nothing.
 */
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/**
 * perf_get_aux - the driver's private data of an AUX transaction
 * @handle: the transaction
 *
 * Return: NULL: no transaction can have begun.
 */
void *perf_get_aux(struct perf_output_handle *handle)
{
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

/**
 * perf_output_copy_aux - copy AUX data into a sample record
 * @aux_handle: the AUX transaction
 * @handle: the sample record
 * @from: start offset in the AUX area
 * @to: end offset in the AUX area
 *
 * Return: 0, the number of bytes copied: there is no AUX area.
 */
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to)
{
	return 0;
}

/**
 * perf_event_addr_filters_sync - bring an event's address filters up to date
 * @event: the event
 *
 * Address filters come with AUX support (and PERF_EVENT_IOC_SET_FILTER on
 * such events); no event has any yet: does nothing.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);
