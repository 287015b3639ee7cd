// SPDX-License-Identifier: GPL-2.0
/*
 * Entry points of perf features that have not landed yet.
 *
 * Step 1 of the core counts events and nothing more.  Everything that
 * needs the ring buffer (samples, side-band records, AUX data, callchains)
 * or that hangs BPF programs and tracepoints off events arrives with a
 * later issue.  The rest of the kernel still calls into those features:
 * the scheduler, mm, exec and fork emit side-band records, PMU drivers
 * write samples and AUX data from their interrupt handlers, the tracing
 * and BPF code hand records and programs to perf.  Each of those entry
 * points lives here with its final signature and does the least that is
 * safe:
 *
 *  - attributes asking for a missing feature are refused up front, by
 *    perf_pending_attr_check(), so no event ever depends on a stub doing
 *    real work;
 *  - output functions report that there is no buffer to write to;
 *  - record hooks do nothing, since no event can have asked for records;
 *  - resources that callers borrow (the swevent recursion context of a
 *    tracepoint record) are still given back.
 *
 * None of these warn: all of them are reachable in normal operation.
 */

#include <linux/bpf.h>
#include <linux/export.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>
#include <linux/trace_events.h>

#include "internal.h"

/* --- attributes ------------------------------------------------------- */

/* Side-band record kinds, each asked for by one attr bit. */
static bool perf_attr_wants_records(const struct perf_event_attr *attr)
{
	return attr->mmap || attr->mmap2 || attr->mmap_data ||
	       attr->build_id || attr->comm || attr->comm_exec ||
	       attr->task || attr->context_switch || attr->namespaces ||
	       attr->ksymbol || attr->bpf_event || attr->cgroup ||
	       attr->text_poke;
}

/* Anything that reads from or steers an AUX area. */
static bool perf_attr_wants_aux(const struct perf_event_attr *attr)
{
	return attr->aux_output || attr->aux_action ||
	       attr->aux_watermark || attr->aux_sample_size;
}

/**
 * perf_pending_attr_check - refuse attributes whose feature has not landed
 * @attr: the attributes of an event being created, already copied in
 *
 * Only what would silently fail to work is refused.  Fields that merely
 * describe a sample's layout (sample_type, the register and stack masks,
 * branch_sample_type, sample_max_stack) or when to wake readers of the
 * buffer (wakeup_events, watermark) have no effect on a counting event,
 * and perf stat and friends set some of them, so they are let through.
 * The same goes for freq with a zero sample_freq: it counts, as it always
 * has.
 *
 * Return: -EOPNOTSUPP if @attr asks for sampling, SIGTRAP on overflow,
 * side-band records, a backward ring buffer or anything to do with AUX
 * data; 0 otherwise.
 */
int perf_pending_attr_check(struct perf_event_attr *attr)
{
	/* sample_period and sample_freq share their storage. */
	if (attr->sample_period)
		return -EOPNOTSUPP;

	/* Signals are sent per overflow, which needs a period. */
	if (attr->sigtrap)
		return -EOPNOTSUPP;

	if (perf_attr_wants_records(attr))
		return -EOPNOTSUPP;

	if (attr->write_backward)
		return -EOPNOTSUPP;

	if (perf_attr_wants_aux(attr))
		return -EOPNOTSUPP;

	return 0;
}

/* --- overflow interrupts ---------------------------------------------- */

/**
 * perf_event_overflow - a PMU driver reports that an event's period ran out
 * @event: the event whose counter overflowed
 * @data: the sample the driver has started to fill in
 * @regs: the registers at the interrupt
 *
 * Called from the driver's interrupt handler (possibly NMI).  A counting
 * event may still take overflow interrupts when its hardware counter is
 * narrower than 64 bits; there is nothing to do for those.
 *
 * perf_pending_attr_check() keeps sampling events from being created in
 * step 1, in-kernel counters included.  Should one exist all the same, a
 * PERF_EVENT_IOC_REFRESH limit is counted down and the in-kernel overflow
 * handler, if any, is called, as in-kernel users (the hard-lockup detector,
 * KVM's virtual PMU) will expect.  No sample is written anywhere until the
 * ring buffer lands.
 *
 * Return: 1 when the driver should stop the counter (the refresh limit
 * ran out), 0 to let it run on.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	perf_overflow_handler_t handler;
	int stop = 0;

	if (!event->attr.sample_period)
		return 0;

	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		event->pending_kill = POLL_HUP;
		stop = 1;
	}

	handler = READ_ONCE(event->overflow_handler);
	if (handler)
		handler(event, data, regs);

	return stop;
}

/**
 * perf_event_account_interrupt - count an overflow interrupt for throttling
 * @event: the event that interrupted
 *
 * Drivers that consume an overflow without calling perf_event_overflow()
 * (a PEBS drain with no records, for one) call this so that interrupt
 * storms are still throttled.  Throttling only concerns sampling events,
 * which user space cannot open yet, so this never asks for a stop.
 *
 * Return: 0, always.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	return 0;
}

/**
 * perf_sample_event_took - report how long an overflow handler ran
 * @sample_len_ns: nanoseconds spent in the handler
 *
 * Feeds the automatic lowering of perf_event_max_sample_rate.  Nothing
 * samples yet, so nothing is lowered: the report is dropped.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
}

/* --- samples and the ring buffer -------------------------------------- */

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
 * perf_output_begin - reserve room for a record in an event's ring buffer
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample being written, if the record is one
 * @event: the event whose buffer receives the record
 * @size: bytes to reserve
 *
 * No event has a ring buffer until mmap lands, so there is never room.
 *
 * Return: -ENOSPC, as for an event with no buffer mapped.
 */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	return perf_output_refuse(handle);
}

/**
 * perf_output_begin_forward - perf_output_begin() for a forward buffer
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample being written, if the record is one
 * @event: the event whose buffer receives the record
 * @size: bytes to reserve
 *
 * Return: -ENOSPC until the ring buffer lands (see perf_output_begin()).
 */
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return perf_output_refuse(handle);
}

/**
 * perf_output_begin_backward - perf_output_begin() for a backward buffer
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample being written, if the record is one
 * @event: the event whose buffer receives the record
 * @size: bytes to reserve
 *
 * Return: -ENOSPC until the ring buffer lands (see perf_output_begin()).
 */
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return perf_output_refuse(handle);
}

/**
 * perf_output_copy - append bytes to a record begun with perf_output_begin()
 * @handle: the reservation
 * @buf: the bytes
 * @len: how many
 *
 * Return: the number of bytes not copied, here all @len of them, since no
 * reservation can have succeeded.
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	return len;
}

/**
 * perf_output_skip - leave a gap in a record begun with perf_output_begin()
 * @handle: the reservation
 * @len: bytes to skip
 *
 * Return: the number of bytes not skipped, here all @len of them.
 */
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return len;
}

/**
 * perf_output_end - publish a record begun with perf_output_begin()
 * @handle: the reservation
 *
 * There is never a reservation to publish: does nothing.
 */
void perf_output_end(struct perf_output_handle *handle)
{
}

/**
 * perf_prepare_header - fill in the header of a sample record
 * @header: the header to fill in
 * @data: the sample, as perf_prepare_sample() left it
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * The sample layout is not computed yet; @header describes an empty
 * PERF_RECORD_SAMPLE so that a caller which goes on to perf_output_begin()
 * (and fails there) has read nothing uninitialised.
 */
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	header->type = PERF_RECORD_SAMPLE;
	header->misc = 0;
	header->size = sizeof(*header);
}

/**
 * perf_prepare_sample - collect the parts of a sample the event asked for
 * @data: the sample, initialised by perf_sample_data_init()
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * Nothing is collected until sample output lands: does nothing.
 */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
}

/**
 * perf_output_sample - write a prepared sample into a reserved record
 * @handle: the reservation
 * @header: the record's header
 * @data: the sample
 * @event: the sampling event
 *
 * There is never a reservation to write into: does nothing.
 */
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event)
{
}

/**
 * perf_event_output - write one sample of @event to its ring buffer
 * @event: the sampling event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * Also what bpf_perf_event_output() ends up in.
 *
 * Return: -ENOSPC, as for an event with no buffer mapped, until the ring
 * buffer lands.
 */
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return -ENOSPC;
}

/**
 * perf_event_output_forward - overflow handler writing to a forward buffer
 * @event: the sampling event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * Does nothing until the ring buffer lands.
 */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
}

/**
 * perf_event_output_backward - overflow handler writing to a backward buffer
 * @event: the sampling event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * Does nothing until the ring buffer lands.
 */
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
}

/**
 * perf_log_lost_samples - record that a driver dropped samples
 * @event: the sampling event
 * @lost: how many were dropped
 *
 * The record would go to the ring buffer: does nothing until it lands.
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
}

/**
 * perf_event_update_userpage - refresh the event's mmap()ed control page
 * @event: the event
 *
 * PMU drivers call this whenever an event starts, stops or changes its
 * counter index.  No event has a control page before mmap lands: does
 * nothing.
 */
void perf_event_update_userpage(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

/* --- AUX area --------------------------------------------------------- */

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
 * perf_event_itrace_started - a driver says instruction tracing has started
 * @event: the tracing event
 *
 * Only matters for the ITRACE_START record: does nothing.
 */
void perf_event_itrace_started(struct perf_event *event)
{
}

/**
 * perf_report_aux_output_id - tell user space the hardware id of AUX data
 * @event: the AUX event
 * @hw_id: the driver's id for the data it produces
 *
 * The id goes out as a side-band record: does nothing until those land.
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

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

/* --- side-band records ------------------------------------------------ */

/*
 * Each hook below would write a record to every event that asked for it.
 * perf_pending_attr_check() refuses every attr bit that asks, so there is
 * never anyone to write to.
 */

/**
 * perf_event_mmap - a mapping was created (PERF_RECORD_MMAP/MMAP2)
 * @vma: the new mapping
 *
 * Does nothing until side-band records land.
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
}

/**
 * perf_event_comm - a task changed its name (PERF_RECORD_COMM)
 * @task: the task
 * @exec: whether exec() changed it
 *
 * Does nothing until side-band records land.
 */
void perf_event_comm(struct task_struct *task, bool exec)
{
}

/**
 * perf_event_fork - a task was created (PERF_RECORD_FORK)
 * @task: the new task
 *
 * Only the record; inheriting the parent's events is done by
 * perf_event_init_task().  Does nothing until side-band records land.
 */
void perf_event_fork(struct task_struct *task)
{
}

/**
 * perf_event_namespaces - a task entered new namespaces
 * @task: the task
 *
 * Does nothing until side-band records land.
 */
void perf_event_namespaces(struct task_struct *task)
{
}

/**
 * perf_event_ksymbol - a kernel symbol appeared or went away
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_*
 * @addr: its address
 * @len: its size
 * @unregister: true when it goes away
 * @sym: its name
 *
 * Does nothing until side-band records land.
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
}

/**
 * perf_event_bpf_event - a BPF program was loaded or unloaded
 * @prog: the program
 * @type: PERF_BPF_EVENT_*
 * @flags: unused so far, as in the record
 *
 * Does nothing until side-band records land.
 */
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
}

/**
 * perf_event_text_poke - kernel text was modified in place
 * @addr: where
 * @old_bytes: the bytes before
 * @old_len: how many
 * @new_bytes: the bytes after
 * @new_len: how many
 *
 * Does nothing until side-band records land.
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
}

/* --- callchains ------------------------------------------------------- */

/* What a sample that asked for a callchain gets when none is available. */
static struct perf_callchain_entry perf_no_callchain;

/**
 * perf_callchain - the callchain of a sample, for drivers filling one in
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * Return: an empty callchain (nr == 0), never NULL: callers read ->nr
 * straight away.
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	return &perf_no_callchain;
}

/**
 * get_callchain_buffers - take a reference on the per-CPU callchain buffers
 * @max_stack: the deepest chain the caller will ask for
 *
 * BPF stack maps and the bpf_get_stack() helpers take this reference
 * before they may call get_perf_callchain().  The buffers come with
 * callchain support, so the reference is refused and the BPF side fails
 * cleanly (map creation or program load).
 *
 * Return: -EOPNOTSUPP until callchains land.
 */
int get_callchain_buffers(int max_stack)
{
	return -EOPNOTSUPP;
}

/**
 * put_callchain_buffers - drop a reference from get_callchain_buffers()
 *
 * No reference can have been taken: does nothing.
 */
void put_callchain_buffers(void)
{
}

/**
 * get_callchain_entry - borrow this CPU's callchain buffer for one context
 * @rctx: set to the recursion context to hand to put_callchain_entry()
 *
 * Return: NULL (with *@rctx set to -1): there are no buffers.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	*rctx = -1;
	return NULL;
}

/**
 * put_callchain_entry - give back a buffer from get_callchain_entry()
 * @rctx: its recursion context
 *
 * No buffer can have been lent: does nothing.
 */
void put_callchain_entry(int rctx)
{
}

/**
 * get_perf_callchain - unwind the kernel and/or user stack at @regs
 * @regs: where to start
 * @kernel: include kernel frames
 * @user: include user frames
 * @max_stack: deepest chain wanted
 * @crosstask: @regs belong to another task
 * @add_mark: put PERF_CONTEXT_* markers between the parts
 *
 * Return: NULL, which callers treat as "could not unwind", until callchains
 * land.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	return NULL;
}

/* --- tracepoints and BPF ---------------------------------------------- */

/*
 * Scratch registers for records written from tracepoints and software
 * events, one set per swevent recursion context.
 */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

/**
 * perf_tp_event - hand a tracepoint record to the perf events watching it
 * @event_type: the trace event's type
 * @count: how many occurrences the record stands for
 * @record: the record, from perf_trace_buf_alloc()
 * @entry_size: its size
 * @regs: the registers at the tracepoint
 * @head: the events attached to the tracepoint on this CPU
 * @rctx: the swevent recursion context perf_trace_buf_alloc() took
 * @task: the task the record is about, if not current
 *
 * The tracepoint PMU is not registered in step 1, so no event watches.
 * The recursion context is given back all the same: the caller's buffer
 * stays locked until it is.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - run a tracepoint's BPF programs, then perf_tp_event()
 * @raw_data: the record, from perf_trace_buf_alloc()
 * @size: its size
 * @rctx: the swevent recursion context perf_trace_buf_alloc() took
 * @call: the trace event
 * @count: how many occurrences the record stands for
 * @regs: the registers at the tracepoint
 * @head: the events attached to the tracepoint on this CPU
 * @task: the task the record is about, if not current
 *
 * BPF programs reach a tracepoint only through perf_event_set_bpf_prog(),
 * which refuses them for now, so there are none to run; the record goes
 * on to perf_tp_event(), which gives back the recursion context.
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

/**
 * perf_event_set_bpf_prog - attach a BPF program to an event
 * @event: the event
 * @prog: the program
 * @bpf_cookie: the value bpf_get_attach_cookie() returns to the program
 *
 * Used by PERF_EVENT_IOC_SET_BPF and BPF_LINK_CREATE.  Programs run from
 * sample overflows and from tracepoint and probe events, none of which
 * exist yet.
 *
 * Return: -EOPNOTSUPP until BPF attach lands.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	return -EOPNOTSUPP;
}

/**
 * perf_event_free_bpf_prog - detach an event's BPF program
 * @event: the event
 *
 * perf_event_set_bpf_prog() never attaches one: does nothing.
 */
void perf_event_free_bpf_prog(struct perf_event *event)
{
}

/**
 * perf_event_get - the perf event file behind a file descriptor
 * @fd: a descriptor of the calling task
 *
 * For BPF perf_event_array maps and BPF links, which keep the file (and so
 * the event) alive.
 *
 * Return: the file with a reference the caller drops with fput(), or
 * ERR_PTR(-EBADF) if @fd is not open or not a perf event.
 */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);

	if (!is_perf_file(file)) {
		fput(file);
		return ERR_PTR(-EBADF);
	}

	return file;
}

/**
 * perf_get_event - the event of a perf event file
 * @file: any file
 *
 * Return: the event, valid as long as the caller holds @file, or
 * ERR_PTR(-EINVAL) if @file is not a perf event.
 */
const struct perf_event *perf_get_event(struct file *file)
{
	if (!is_perf_file(file))
		return ERR_PTR(-EINVAL);

	return file->private_data;
}

/*
 * Lets a PMU driver offer a snapshot of its branch records to BPF
 * (bpf_get_branch_snapshot()); it returns 0 entries until a driver
 * installs its own.
 */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);
