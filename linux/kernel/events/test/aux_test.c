// SPDX-License-Identifier: GPL-2.0
/*
 * "aux_test": a PMU, counted in software, that writes into the AUX area,
 * so that the AUX code can be tested on machines whose hardware has no
 * tracer (or whose emulator does not model one).  Debug kernels only, and
 * registered only while /sys/module/aux_test/parameters/enable is 1 (root
 * sets it; setting it back to 0 takes the PMU away, revoking its open
 * events).  It registers as a hardware PMU (perf_hw_context), as a trace
 * unit does: the core's shortcuts for its own software PMUs (groups that
 * always fit, no per-CPU accounting) are not for it.
 *
 * An event of it counts bytes.  Each time it leaves the CPU (context
 * switch, disable, close) it writes attr.config bytes (a multiple of 8,
 * at most 64 KiB; 0 means 64) into the AUX area: u64 words numbered on
 * from 1 across the event's life, in the order written.  Where there is
 * less room than that, it writes what fits and flags the record
 * PERF_AUX_FLAG_TRUNCATED.  In overwrite mode it writes round the area.
 *
 * It begins its AUX transaction when it is started and ends it when it
 * is stopped, like a trace unit that runs while its task runs.  It takes
 * snapshots for other events' samples (PERF_SAMPLE_AUX): the last bytes it
 * wrote.  It can be paused (aux_start_paused, members' aux_pause and
 * aux_resume): a pause ends the transaction as a stop does, a resume
 * begins a new one, and nothing is written while paused.
 *
 * An aux_test event with aux_output in the group of another one writes
 * into the leader's open transaction instead: each time it is started
 * (with its group, after the leader), one word, AUX_TEST_MARK or'ed with
 * its own count of starts.  The leader's next burst follows it.
 *
 * It takes two address filters ("filter" and "stop" with a size, as Intel
 * PT).  With bit 0 of attr.config1 set, each burst is instead 8 words that
 * show the filters its driver side has: how many, then start, size and
 * action of each (zeroes past the last), then how many times the core
 * has synced them.
 *
 * With bit 1 of attr.config1 set it behaves as a trace unit whose data
 * format is told per record (a CoreSight sink writing raw data): every
 * transaction is flagged PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW, and every
 * second one ends with nothing written, as a unit that saw nothing to
 * trace.
 */

#include <linux/bits.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "test_pmu.h"

#define AUX_TEST_BURST_MAX	(64 * 1024)
#define AUX_TEST_BURST_DEFAULT	64
#define AUX_TEST_MARK		BIT_ULL(63)
#define AUX_TEST_NR_FILTERS	2
#define AUX_TEST_SHOW_FILTERS	BIT_ULL(0)	/* attr.config1 */
#define AUX_TEST_RAW_FORMAT	BIT_ULL(1)	/* attr.config1 */

/* What setup_aux() gives back: the area's pages. */
struct aux_test_buf {
	void		**pages;
	int		nr_pages;
	bool		overwrite;
};

/*
 * Per event: the open transaction, the next word to write, and the bytes
 * aux_output members have put into the transaction before the burst.
 */
struct aux_test_state {
	struct perf_output_handle	handle;
	u64				next_word;
	unsigned long			pending;

	/* the address filters as the core last synced them */
	struct {
		u64			start;
		u64			size;
		u64			action;
	} filter[AUX_TEST_NR_FILTERS];
	u64				nr_filters;
	u64				syncs;

	/* transactions ended, for AUX_TEST_RAW_FORMAT's empty ones */
	u64				ends;
};

static struct pmu aux_test_pmu;

static void aux_test_free(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

static int aux_test_event_init(struct perf_event *event)
{
	u64 burst = event->attr.config;
	struct aux_test_state *st;

	if (event->attr.type != aux_test_pmu.type)
		return -ENOENT;
	if (is_sampling_event(event) || burst % 8 ||
	    burst > AUX_TEST_BURST_MAX)
		return -EINVAL;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->next_word = 1;
	event->pmu_private = st;
	event->destroy = aux_test_free;
	return 0;
}

/* Write @len bytes of numbered words at byte @pos of the area, wrapping. */
static void aux_test_fill(struct aux_test_buf *buf, struct aux_test_state *st,
			  unsigned long pos, unsigned long len)
{
	unsigned long size = (unsigned long)buf->nr_pages << PAGE_SHIFT;
	unsigned long off;
	u64 *word;

	for (; len; len -= sizeof(u64), pos += sizeof(u64)) {
		off = pos & (size - 1);
		word = buf->pages[off >> PAGE_SHIFT] + offset_in_page(off);
		*word = st->next_word++;
	}
}

/* The filter words of AUX_TEST_SHOW_FILTERS, @len bytes of them at @pos. */
static void aux_test_fill_filters(struct aux_test_buf *buf,
				  struct aux_test_state *st,
				  unsigned long pos, unsigned long len)
{
	unsigned long size = (unsigned long)buf->nr_pages << PAGE_SHIFT;
	u64 words[8] = { st->nr_filters };
	unsigned long off;
	int i;

	for (i = 0; i < AUX_TEST_NR_FILTERS; i++) {
		words[1 + 3 * i] = st->filter[i].start;
		words[2 + 3 * i] = st->filter[i].size;
		words[3 + 3 * i] = st->filter[i].action;
	}
	words[7] = st->syncs;
	for (i = 0; len && i < ARRAY_SIZE(words); i++) {
		off = pos & (size - 1);
		*(u64 *)(buf->pages[off >> PAGE_SHIFT] + offset_in_page(off)) =
			words[i];
		pos += sizeof(u64);
		len -= sizeof(u64);
	}
}

/* An aux_output member starts: one marked word into its leader's area. */
static void aux_test_mark(struct perf_event *event)
{
	struct aux_test_state *st = event->pmu_private, *lst;
	struct perf_event *leader = event->aux_event;
	struct aux_test_buf *buf;
	unsigned long size, off;

	if (!leader || leader->pmu != &aux_test_pmu)
		return;
	lst = leader->pmu_private;
	buf = perf_get_aux(&lst->handle);
	if (!buf || (!buf->overwrite &&
		     lst->pending + sizeof(u64) > lst->handle.size))
		return;
	size = (unsigned long)buf->nr_pages << PAGE_SHIFT;
	off = (lst->handle.head + lst->pending) & (size - 1);
	*(u64 *)(buf->pages[off >> PAGE_SHIFT] + offset_in_page(off)) =
		AUX_TEST_MARK | st->next_word++;
	lst->pending += sizeof(u64);
	local64_add(sizeof(u64), &event->count);
}

/* Begin a transaction; false if there is no AUX area to write to. */
static bool aux_test_begin(struct perf_event *event)
{
	struct aux_test_state *st = event->pmu_private;

	if (perf_get_aux(&st->handle))
		return true;
	st->pending = 0;
	if (!perf_aux_output_begin(&st->handle, event))
		return false;
	/* one PERF_RECORD_ITRACE_START is enough */
	perf_event_itrace_started(event);
	return true;
}

/* End the open transaction, if any, with a burst of numbered words. */
static void aux_test_end(struct perf_event *event)
{
	struct aux_test_state *st = event->pmu_private;
	struct perf_output_handle *handle = &st->handle;
	bool show = event->attr.config1 & AUX_TEST_SHOW_FILTERS;
	unsigned long want = event->attr.config ?: AUX_TEST_BURST_DEFAULT;
	unsigned long len;
	struct aux_test_buf *buf;

	if (show)
		want = 8 * sizeof(u64);

	buf = perf_get_aux(handle);
	if (!buf)
		return;

	if (event->attr.config1 & AUX_TEST_RAW_FORMAT) {
		perf_aux_output_flag(handle,
				     PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW);
		if (st->ends++ & 1)
			want = 0;
	}
	len = st->pending + want;

	if (!buf->overwrite && len > handle->size) {
		len = round_down(handle->size, sizeof(u64));
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
	}
	if (show)
		aux_test_fill_filters(buf, st, handle->head + st->pending,
				      len - st->pending);
	else
		aux_test_fill(buf, st, handle->head + st->pending,
			      len - st->pending);
	st->pending = 0;
	local64_add(len, &event->count);
	perf_aux_output_end(handle, len);
}

static void aux_test_start(struct perf_event *event, int flags)
{
	if (event->attr.aux_output) {
		event->hw.state = 0;
		aux_test_mark(event);
		return;
	}
	if (flags & PERF_EF_RESUME) {
		aux_test_begin(event);
		return;
	}
	event->hw.state = 0;
	perf_event_addr_filters_sync(event);
	if (READ_ONCE(event->hw.aux_paused))
		return;
	if (!aux_test_begin(event))
		event->hw.state = PERF_HES_STOPPED;
}

static void aux_test_stop(struct perf_event *event, int flags)
{
	if (flags & PERF_EF_PAUSE) {
		aux_test_end(event);
		return;
	}
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	aux_test_end(event);
}

/* Like Intel PT: ranges to trace in or to stop at, no single addresses. */
static int aux_test_addr_filters_validate(struct list_head *filters)
{
	struct perf_addr_filter *filter;

	list_for_each_entry(filter, filters, entry)
		if (!filter->size ||
		    filter->action == PERF_ADDR_FILTER_ACTION_START)
			return -EOPNOTSUPP;
	return 0;
}

/* The core's ranges, now: head lock held, IRQs off. */
static void aux_test_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct perf_addr_filter_range *range = event->addr_filter_ranges;
	struct aux_test_state *st = event->pmu_private;
	struct perf_addr_filter *filter;
	int i = 0;

	memset(st->filter, 0, sizeof(st->filter));
	list_for_each_entry(filter, &head->list, entry) {
		if (i == AUX_TEST_NR_FILTERS)
			break;
		st->filter[i].start = range[i].start;
		st->filter[i].size = range[i].size;
		st->filter[i].action = filter->action;
		i++;
	}
	st->nr_filters = i;
	st->syncs++;
}

/* aux_output members may write into another aux_test event's area */
static int aux_test_aux_output_match(struct perf_event *aux_event)
{
	return aux_event->pmu == &aux_test_pmu;
}

/*
 * A snapshot for another event's sample: the last @size bytes written
 * (fewer if it has not written that much yet).
 */
static long aux_test_snapshot_aux(struct perf_event *event,
				  struct perf_output_handle *handle,
				  unsigned long size)
{
	struct aux_test_state *st = event->pmu_private;
	unsigned long head = st->handle.head;

	if (!perf_get_aux(&st->handle) || !head)
		return 0;
	size = min(size, head);
	return perf_output_copy_aux(&st->handle, handle, head - size, head);
}

static int aux_test_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		aux_test_start(event, flags);
	return 0;
}

static void aux_test_del(struct perf_event *event, int flags)
{
	aux_test_stop(event, PERF_EF_UPDATE);
}

static void aux_test_read(struct perf_event *event)
{
}

static void *aux_test_setup_aux(struct perf_event *event, void **pages,
				int nr_pages, bool overwrite)
{
	struct aux_test_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->pages = kmemdup(pages, nr_pages * sizeof(void *), GFP_KERNEL);
	if (!buf->pages) {
		kfree(buf);
		return NULL;
	}
	buf->nr_pages = nr_pages;
	buf->overwrite = overwrite;
	return buf;
}

static void aux_test_free_aux(void *data)
{
	struct aux_test_buf *buf = data;

	kfree(buf->pages);
	kfree(buf);
}

static struct pmu aux_test_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI | PERF_PMU_CAP_ITRACE |
			  PERF_PMU_CAP_AUX_OUTPUT | PERF_PMU_CAP_AUX_PAUSE,

	.event_init	= aux_test_event_init,
	.add		= aux_test_add,
	.del		= aux_test_del,
	.start		= aux_test_start,
	.stop		= aux_test_stop,
	.read		= aux_test_read,
	.setup_aux	= aux_test_setup_aux,
	.free_aux	= aux_test_free_aux,
	.snapshot_aux	= aux_test_snapshot_aux,
	.aux_output_match = aux_test_aux_output_match,
	.nr_addr_filters = AUX_TEST_NR_FILTERS,
	.addr_filters_validate = aux_test_addr_filters_validate,
	.addr_filters_sync = aux_test_addr_filters_sync,
};

static PERF_TEST_PMU_SWITCH(aux_test_switch, &aux_test_pmu, "aux_test");
module_param_cb(enable, &perf_test_pmu_switch_ops, &aux_test_switch, 0644);
MODULE_PARM_DESC(enable, "register the aux_test PMU");
