// SPDX-License-Identifier: GPL-2.0
/*
 * The sample layout: what a PERF_RECORD_SAMPLE holds for each bit of
 * attr.sample_type, and the sample id trailer (attr.sample_id_all) that
 * other records carry.
 *
 * A sample goes out in three steps, all of which may run in NMI:
 *
 *   perf_prepare_sample()  collects what the driver did not already put in
 *                          the perf_sample_data (data->sample_flags says
 *                          what it did) and adds up the variable-size parts
 *                          in data->dyn_size;
 *   perf_prepare_header()  sizes the record: header, the fixed part
 *                          (event->header_size), the id fields
 *                          (event->id_header_size) and dyn_size;
 *   perf_output_sample()   writes it into the space perf_output_begin*()
 *                          reserved, in the order of the man page:
 *
 *   IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD READ CALLCHAIN RAW
 *   BRANCH_STACK REGS_USER STACK_USER WEIGHT(_STRUCT) DATA_SRC TRANSACTION
 *   REGS_INTR PHYS_ADDR CGROUP DATA_PAGE_SIZE CODE_PAGE_SIZE AUX
 *
 * A record's size is a u16 and a whole number of u64 words.  The user
 * stack dump takes what room the rest leaves; should the rest alone be
 * too big (a deep callchain, big raw data), the callchain is cut short,
 * then raw data and branch stack are left out (an empty one is written),
 * so that what is written is always exactly what was reserved.
 *
 * Records are written with the perf_output_*() helpers of ring_buffer.c;
 * what cannot be read (user stack, raw data whose source went away) is
 * written as zeros, so the layout always matches the header.
 */

#include <linux/cgroup.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/pgtable.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "aux.h"
#include "context.h"
#include "ring_buffer.h"
#include "sample.h"

/*
 * Lets a PMU driver offer a snapshot of its branch records to BPF
 * (bpf_get_branch_snapshot()); it returns 0 entries until a driver
 * installs its own.
 */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

/* the sample_type bits that make up the sample id (and its trailer) */
#define PERF_SAMPLE_ID_FIELDS	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME |	  \
				 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
				 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/*
 * Bits whose field is one u64 at a fixed place; the weight is one word
 * whichever of its two forms is asked for (both at once is refused).
 */
#define PERF_SAMPLE_ONE_WORD	(PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |	     \
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_TRANSACTION |		     \
				 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
				 PERF_SAMPLE_DATA_PAGE_SIZE |		     \
				 PERF_SAMPLE_CODE_PAGE_SIZE)

/* the largest record: header.size is a u16, records are whole u64s */
#define PERF_RECORD_SIZE_MAX	(U16_MAX & ~7U)

/* The fields a sample starts with, one or two u32s each, fixed in size. */
#define PERF_SAMPLE_FIXED_HEAD	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
				 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
				 PERF_SAMPLE_PERIOD)

/* zeros for the parts of a record that could not be read */
#define PERF_ZERO_WORDS		16

/* ---------------------------------------------------------------------
 * Sizes
 */

/**
 * perf_event_calc_header_sizes - size the fixed parts of @event's records
 * @event: the event; event->read_size is up to date (read.c)
 *
 * event->header_size: the fields of a sample that have a fixed size
 * (the READ layout included), id fields aside; event->id_header_size: the
 * sample id fields, which samples always have and other records carry
 * with attr.sample_id_all.  Called at creation and, for every member,
 * whenever a group gains or loses a member.
 */
void perf_event_calc_header_sizes(struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	unsigned int words = hweight64(type & PERF_SAMPLE_ONE_WORD);
	unsigned int bytes;

	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		words++;
	bytes = words * sizeof(u64);
	/* a group's size changes with it: each sample sizes it (dyn_size) */
	if ((type & PERF_SAMPLE_READ) &&
	    !(event->attr.read_format & PERF_FORMAT_GROUP))
		bytes += event->read_size;
	event->header_size = bytes;

	event->id_header_size = sizeof(u64) *
				hweight64(type & PERF_SAMPLE_ID_FIELDS);
}

/* ---------------------------------------------------------------------
 * The sample id
 */

/* @task's pid or tid as seen from the namespace of the event's opener */
static u32 perf_sample_pid(struct perf_event *event, struct task_struct *task,
			   enum pid_type type)
{
	struct perf_event *opened = event->parent ?: event;
	pid_t nr;

	nr = __task_pid_nr_ns(task, type, opened->ns);

	/* 0 is the idle task; a task on its way out has no number at all */
	if (!nr && !pid_alive(task))
		return (u32)-1;
	return nr;
}

/*
 * The event's clock: attr.clockid's with use_clockid (event->clock, set at
 * open), else perf's own, called directly.
 */
static __always_inline u64 perf_sample_clock(struct perf_event *event)
{
	if (likely(!event->attr.use_clockid) || !event->clock)
		return perf_clock();
	return event->clock();
}

/*
 * Fill in the id fields named in @fields (others are left alone).  Inlined
 * into its two callers: the sample path calls it for every sample.
 */
static __always_inline void perf_sample_fill_id(struct perf_sample_data *data,
						struct perf_event *event,
						u64 fields)
{
	struct task_struct *task = current;
	struct perf_event *opened;

	if (fields & PERF_SAMPLE_CPU) {
		data->cpu_entry.reserved = 0;
		data->cpu_entry.cpu = raw_smp_processor_id();
	}
	if (fields & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (fields & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		data->id = perf_event_primary_id(event);
	if (fields & PERF_SAMPLE_TIME)
		data->time = perf_sample_clock(event);
	if (!(fields & PERF_SAMPLE_TID))
		return;
	/* the initial namespace's numbers are the task's own */
	opened = event->parent ?: event;
	if (likely(opened->ns == &init_pid_ns && pid_alive(task))) {
		data->tid_entry.tid = task->pid;
		data->tid_entry.pid = task->tgid;
		return;
	}
	data->tid_entry.tid = perf_sample_pid(event, task, PIDTYPE_PID);
	data->tid_entry.pid = perf_sample_pid(event, task, PIDTYPE_TGID);
}

/**
 * perf_event_header__init_id - add the sample id trailer to a record
 * @header: the record's header; its size grows by the trailer's
 * @data: where the id fields are collected, for
 *	  perf_event__output_id_sample()
 * @event: the event the record is for
 *
 * Nothing is added unless the event has attr.sample_id_all.  Any context.
 */
void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data,
				struct perf_event *event)
{
	data->type = event->attr.sample_type;
	if (!event->attr.sample_id_all)
		return;

	header->size += event->id_header_size;
	perf_sample_fill_id(data, event, data->type & PERF_SAMPLE_ID_FIELDS);
}

/**
 * perf_event_header__init - start the header of a record that is not a sample
 * @header: the header
 * @data: collects the sample id fields (perf_event__output_id_sample())
 * @type: PERF_RECORD_*
 * @misc: PERF_RECORD_MISC_* bits
 * @size: the record's size without the sample id trailer
 * @event: the event the record goes to
 *
 * With attr.sample_id_all the trailer's size is added to @size.  Any
 * context, NMI too.
 */
void perf_event_header__init(struct perf_event_header *header,
			     struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size,
			     struct perf_event *event)
{
	*header = (struct perf_event_header) {
		.type = type, .misc = misc, .size = size,
	};
	perf_event_header__init_id(header, data, event);
}

/*
 * Gather the u64 words of consecutive fixed fields on the stack and copy
 * them with one perf_output_copy().  No run between two flushes is
 * longer than a sample's fixed head (the header and nine one-word fields:
 * 10 words), so the array never fills.
 */
struct perf_sample_words {
	u64		word[12];
	unsigned int	nr;
};

static __always_inline void perf_words_add(struct perf_sample_words *w,
					   u64 value)
{
	w->word[w->nr++] = value;
}

/* two u32 fields that go out as one word, the first at the lower address */
static void perf_words_add_pair(struct perf_sample_words *w, const void *pair)
{
	u64 value;

	memcpy(&value, pair, sizeof(value));
	perf_words_add(w, value);
}

/* A sample's fixed head: the header and its nine one-word fields. */
#define PERF_FIXED_HEAD_WORDS	10

/* Store two u32 fields as one word (the first at the lower address). */
static __always_inline u64 *perf_put_pair(u64 *p, const void *pair)
{
	memcpy(p, pair, sizeof(*p));
	return p + 1;
}

static void perf_words_flush(struct perf_output_handle *handle,
			     struct perf_sample_words *w)
{
	unsigned int len = w->nr * sizeof(u64);

	w->nr = 0;
	/* most runs end inside the page they start in: word by word there */
	if (likely(len < handle->size)) {
		u64 *to = handle->addr;
		unsigned int i;

		for (i = 0; i < len / sizeof(u64); i++)
			to[i] = w->word[i];
		handle->addr += len;
		handle->size -= len;
		return;
	}
	if (len)
		perf_output_copy(handle, w->word, len);
}

/* The id trailer's words, in the order user space reads them. */
static void perf_words_add_id_trailer(struct perf_sample_words *w,
				      struct perf_sample_data *data, u64 type)
{
	if (type & PERF_SAMPLE_TID)
		perf_words_add_pair(w, &data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_words_add(w, data->time);
	if (type & PERF_SAMPLE_ID)
		perf_words_add(w, data->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_words_add(w, data->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_words_add_pair(w, &data->cpu_entry);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_words_add(w, data->id);
}

/**
 * perf_event__output_id_sample - write the sample id trailer of a record
 * @event: the event the record goes to
 * @handle: the record's reservation, positioned after its body
 * @sample: the id fields, from perf_event_header__init()
 *
 * Writes nothing unless the event has attr.sample_id_all.  Any context.
 */
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *sample)
{
	struct perf_sample_words w __uninitialized;

	w.nr = 0;

	if (!event->attr.sample_id_all)
		return;

	perf_words_add_id_trailer(&w, sample, event->attr.sample_type);
	perf_words_flush(handle, &w);
}

/* ---------------------------------------------------------------------
 * Collecting a sample
 */

static void perf_sample_user_regs(struct perf_regs *user,
				  struct pt_regs *regs)
{
	if (user_mode(regs)) {
		user->regs = regs;
		user->abi = perf_reg_abi(current);
	} else if (is_user_task(current)) {
		/* interrupted in the kernel: the task's saved user state */
		perf_get_regs_user(user, regs);
	} else {
		user->regs = NULL;
		user->abi = PERF_SAMPLE_REGS_ABI_NONE;
	}
}

/* abi word, then one word per register in @mask if there are registers */
static unsigned int perf_sample_regs_bytes(struct perf_regs *set, u64 mask)
{
	unsigned int words = 1;

	if (set->regs)
		words += hweight64(mask);
	return words * sizeof(u64);
}

#ifdef CONFIG_HAVE_PERF_USER_STACK_DUMP
static unsigned long perf_sample_user_sp(struct pt_regs *regs)
{
	return user_stack_pointer(regs);
}
#else
static unsigned long perf_sample_user_sp(struct pt_regs *regs)
{
	return 0;
}
#endif

/*
 * How much of the user stack to dump: what attr.sample_stack_user asks,
 * no more than lies between the stack pointer and the top of user space,
 * and no more than the record has room for after the size words (@used:
 * the record's size so far).
 */
static u64 perf_sample_stack_dump_size(struct perf_event *event,
				       struct pt_regs *user_regs, u64 used)
{
	u64 size = event->attr.sample_stack_user;
	unsigned long sp;
	u64 room;

	if (!user_regs || !current->mm)
		return 0;

	sp = perf_sample_user_sp(user_regs);
	if (!sp || sp >= TASK_SIZE)
		return 0;
	size = min_t(u64, size, TASK_SIZE - sp);

	used += 2 * sizeof(u64);	/* the size and dyn_size words */
	room = used < PERF_RECORD_SIZE_MAX ? PERF_RECORD_SIZE_MAX - used : 0;
	size = min(size, room);

	return round_down(size, sizeof(u64));
}

/* the physical address behind @addr, 0 if it cannot be known from here */
static u64 perf_sample_phys_addr(u64 addr)
{
	struct page *page;
	u64 phys = 0;

	if (!addr)
		return 0;

	if (addr >= TASK_SIZE) {
		void *kaddr = (void *)(uintptr_t)addr;

		if (is_vmalloc_addr(kaddr) || !virt_addr_valid(kaddr))
			return 0;
		return virt_to_phys(kaddr);
	}

	if (!is_user_task(current))
		return 0;

	/* IRQ-safe GUP: only what is already mapped, no faults */
	pagefault_disable();
	if (get_user_page_fast_only(addr, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(addr);
		put_page(page);
	}
	pagefault_enable();

	return phys;
}

#ifdef CONFIG_HAVE_GUP_FAST
/*
 * Size of the mapping that backs @addr: the size of the leaf entry the
 * page table walk ends at, 0 where nothing is mapped.  The caller has
 * IRQs off, which keeps the page tables from being freed under the walk
 * (as for GUP-fast).  Each level reads its entry once and goes on from
 * that copy only; the next level down is looked up through it.
 */
static u64 perf_pte_level_size(pmd_t table, unsigned long addr)
{
	pte_t *slot = pte_offset_map(&table, addr);
	pte_t entry;
	u64 bytes;

	if (!slot)
		return 0;
	entry = ptep_get_lockless(slot);
	bytes = pte_present(entry) ? __pte_leaf_size(table, entry) : 0;
	pte_unmap(slot);
	return bytes;
}

static u64 perf_pmd_level_size(pud_t *above, pud_t table, unsigned long addr)
{
	pmd_t entry = pmdp_get_lockless(pmd_offset_lockless(above, table, addr));

	if (!pmd_present(entry))
		return 0;
	return pmd_leaf(entry) ? pmd_leaf_size(entry) :
				 perf_pte_level_size(entry, addr);
}

static u64 perf_pud_level_size(p4d_t *above, p4d_t table, unsigned long addr)
{
	pud_t *slot = pud_offset_lockless(above, table, addr);
	pud_t entry = READ_ONCE(*slot);

	if (!pud_present(entry))
		return 0;
	return pud_leaf(entry) ? pud_leaf_size(entry) :
				 perf_pmd_level_size(slot, entry, addr);
}

static u64 perf_p4d_level_size(pgd_t *above, pgd_t table, unsigned long addr)
{
	p4d_t *slot = p4d_offset_lockless(above, table, addr);
	p4d_t entry = READ_ONCE(*slot);

	if (!p4d_present(entry))
		return 0;
	return p4d_leaf(entry) ? p4d_leaf_size(entry) :
				 perf_pud_level_size(slot, entry, addr);
}

static u64 perf_mapping_size(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *slot = pgd_offset(mm, addr);
	pgd_t entry = READ_ONCE(*slot);

	if (pgd_none(entry))
		return 0;
	return pgd_leaf(entry) ? pgd_leaf_size(entry) :
				 perf_p4d_level_size(slot, entry, addr);
}
#else
static u64 perf_mapping_size(struct mm_struct *mm, unsigned long addr)
{
	return 0;
}
#endif

/*
 * Page size behind a data or code address of the sample, 0 if unknown.
 * Kernel threads have no mm of their own: the kernel's page tables.
 */
static u64 perf_sample_page_size(u64 addr)
{
	unsigned long flags;
	u64 bytes = 0;

	if (addr) {
		local_irq_save(flags);
		bytes = perf_mapping_size(current->mm ?: &init_mm, addr);
		local_irq_restore(flags);
	}
	return bytes;
}

static u64 perf_sample_cgroup_id(void)
{
#ifdef CONFIG_CGROUP_PERF
	struct cgroup_subsys_state *css;
	u64 id;

	rcu_read_lock();
	css = task_css_check(current, perf_event_cgrp_id, true);
	id = cgroup_id(css->cgroup);
	rcu_read_unlock();
	return id;
#else
	return 0;
#endif
}

/*
 * attr.sample_max_stack bounds the branch stack too (entries past it are
 * dropped, the newest kept).  The stack is the driver's, shared by every
 * event that samples in the same interrupt, and is cut in place: once cut,
 * a second call finds nothing to do.  0 (an in-kernel counter's attr
 * never got the default) leaves it whole.
 */
static void perf_sample_cap_brstack(struct perf_sample_data *data,
				    struct perf_event *event)
{
	struct perf_branch_stack *brs = data->br_stack;
	u64 cap = event->attr.sample_max_stack;
	u64 entry = sizeof(struct perf_branch_entry);

	if (!cap || brs->nr <= cap)
		return;
	if (data->br_stack_cntr)
		entry += sizeof(u64);
	data->dyn_size -= (brs->nr - cap) * entry;
	brs->nr = cap;
}

/* bytes of the branch stack part for what perf_sample_save_brstack() took */
static u64 perf_sample_brstack_bytes(struct perf_sample_data *data,
				     struct perf_event *event)
{
	u64 nr = data->br_stack->nr;
	u64 bytes = sizeof(u64) + nr * sizeof(struct perf_branch_entry);

	if (branch_sample_hw_index(event))
		bytes += sizeof(u64);
	if (data->br_stack_cntr)
		bytes += nr * sizeof(u64);
	return bytes;
}

static u64 perf_sample_total(struct perf_sample_data *data,
			     struct perf_event *event)
{
	return sizeof(struct perf_event_header) + event->header_size +
	       event->id_header_size + data->dyn_size;
}

/*
 * Keep the record within PERF_RECORD_SIZE_MAX: cut the callchain short,
 * then leave out raw data, then the branch stack (each becomes the empty
 * form of its field).
 */
static void perf_sample_fit(struct perf_sample_data *data,
			    struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	u64 total = perf_sample_total(data, event);
	u64 excess, cut;

	if (likely(total <= PERF_RECORD_SIZE_MAX))
		return;

	if ((type & PERF_SAMPLE_CALLCHAIN) && data->callchain &&
	    data->callchain->nr) {
		excess = total - PERF_RECORD_SIZE_MAX;
		cut = min_t(u64, DIV_ROUND_UP(excess, sizeof(u64)),
			    data->callchain->nr);
		data->callchain->nr -= cut;
		data->dyn_size -= cut * sizeof(u64);
		total -= cut * sizeof(u64);
	}

	if (total > PERF_RECORD_SIZE_MAX && (type & PERF_SAMPLE_RAW) &&
	    data->raw) {
		data->dyn_size -= sizeof(u32) + data->raw->size;
		data->dyn_size += sizeof(u64);	/* size 4 and a zero u32 */
		data->raw = NULL;
		total = perf_sample_total(data, event);
	}

	if (total > PERF_RECORD_SIZE_MAX &&
	    (type & PERF_SAMPLE_BRANCH_STACK) && data->br_stack) {
		data->dyn_size -= perf_sample_brstack_bytes(data, event);
		data->dyn_size += sizeof(u64);	/* nr = 0 */
		data->br_stack = NULL;
		data->br_stack_cntr = NULL;
		total = perf_sample_total(data, event);
	}

	/* what is left has a small bound: 16 KiB of READ, registers */
	WARN_ON_ONCE(total > PERF_RECORD_SIZE_MAX);
}

/**
 * perf_prepare_sample - collect the parts of a sample the event asked for
 * @data: the sample, from perf_sample_data_init() and whatever the driver
 *	  added (recorded in data->sample_flags)
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * Fills in every part of attr.sample_type that data->sample_flags does not
 * have yet and adds the variable-size parts to data->dyn_size.  Calling it
 * again (the BPF overflow path does) changes nothing.  Any context, NMI
 * too; the caller holds rcu_read_lock() (callchain buffers).
 */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u64 type = event->attr.sample_type;
	u64 todo = type;

	data->type = type;

	/* parts some others are computed from */
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		todo |= PERF_SAMPLE_IP;
	if (type & (PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_PHYS_ADDR))
		todo |= PERF_SAMPLE_ADDR;
	if (type & PERF_SAMPLE_STACK_USER)
		todo |= PERF_SAMPLE_REGS_USER;
	todo &= ~data->sample_flags;

	perf_sample_fill_id(data, event, todo);
	if (todo & PERF_SAMPLE_IP)
		data->ip = perf_instruction_pointer(regs);

	/* only fixed fields: nothing variable to size, nothing to cut */
	if (likely(!(type & ~PERF_SAMPLE_FIXED_HEAD))) {
		if (todo & PERF_SAMPLE_ADDR)
			data->addr = 0;
		data->sample_flags |= todo;
		return;
	}

	/*
	 * A group's READ layout is sized once per sample, here: a member
	 * that joins or leaves meanwhile (an NMI may come in the middle
	 * of that) changes what is written, never how much.
	 */
	if ((type & PERF_SAMPLE_READ) &&
	    (event->attr.read_format & PERF_FORMAT_GROUP) && !data->read_size) {
		data->read_size = READ_ONCE(event->read_size);
		data->dyn_size += data->read_size;
	}

	/* what only the hardware could tell: "unknown" unless a driver did */
	if (todo & PERF_SAMPLE_ADDR)
		data->addr = 0;
	if (todo & PERF_SAMPLE_WEIGHT_TYPE)
		data->weight.full = 0;
	if (todo & PERF_SAMPLE_DATA_SRC)
		data->data_src.val = PERF_MEM_NA;
	if (todo & PERF_SAMPLE_TRANSACTION)
		data->txn = 0;
	if (todo & PERF_SAMPLE_AUX)
		data->aux_size = 0;	/* sized below, once the rest is known */

	/* the variable-size parts and their empty forms */
	if (todo & PERF_SAMPLE_CALLCHAIN)
		perf_sample_save_callchain(data, event, regs);
	if (todo & PERF_SAMPLE_RAW)
		data->raw = NULL;
	if (todo & PERF_SAMPLE_BRANCH_STACK) {
		data->br_stack = NULL;
		data->br_stack_cntr = NULL;
	} else if ((type & PERF_SAMPLE_BRANCH_STACK) && data->br_stack) {
		perf_sample_cap_brstack(data, event);
	}
	/* raw: size 4 and a zero u32; branch stack: nr = 0; AUX: size 0 */
	data->dyn_size += sizeof(u64) *
		hweight64(todo & (PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
				  PERF_SAMPLE_AUX));

	if (todo & PERF_SAMPLE_REGS_USER) {
		perf_sample_user_regs(&data->regs_user, regs);
		/* sized only when asked for, not when STACK_USER needs it */
		if (type & PERF_SAMPLE_REGS_USER)
			data->dyn_size += perf_sample_regs_bytes(&data->regs_user,
						event->attr.sample_regs_user);
		else
			todo &= ~PERF_SAMPLE_REGS_USER;
	}
	if (todo & PERF_SAMPLE_REGS_INTR) {
		data->regs_intr.abi = perf_reg_abi(current);
		data->regs_intr.regs = regs;
		data->dyn_size += perf_sample_regs_bytes(&data->regs_intr,
						event->attr.sample_regs_intr);
	}

	/* derived from the addresses above */
	if (todo & PERF_SAMPLE_PHYS_ADDR)
		data->phys_addr = perf_sample_phys_addr(data->addr);
	if (todo & PERF_SAMPLE_DATA_PAGE_SIZE)
		data->data_page_size = perf_sample_page_size(data->addr);
	if (todo & PERF_SAMPLE_CODE_PAGE_SIZE)
		data->code_page_size = perf_sample_page_size(data->ip);
	if (todo & PERF_SAMPLE_CGROUP)
		data->cgroup = perf_sample_cgroup_id();

	/* AUX data (attr.aux_sample_size), within what the record can take */
	if (todo & PERF_SAMPLE_AUX) {
		u64 used = perf_sample_total(data, event);

		data->aux_size = used < PERF_RECORD_SIZE_MAX ?
			perf_aux_sample_size(event, PERF_RECORD_SIZE_MAX - used) : 0;
		data->dyn_size += data->aux_size;
	}

	/* last: the stack dump gets the room everything else leaves */
	if (todo & PERF_SAMPLE_STACK_USER) {
		u64 dump;

		dump = perf_sample_stack_dump_size(event, data->regs_user.regs,
						   perf_sample_total(data, event));
		data->stack_user_size = dump;
		/* size, then (if any) the dump and the dyn_size word */
		data->dyn_size += dump ? dump + 2 * sizeof(u64) : sizeof(u64);
	}

	/* READ in sample_flags would say a driver already read the counts */
	data->sample_flags |= todo & ~PERF_SAMPLE_READ;
	perf_sample_fit(data, event);
}

/**
 * perf_prepare_header - fill in the header of a sample record
 * @header: the header
 * @data: the sample, after perf_prepare_sample()
 * @event: the sampling event
 * @regs: the registers at the overflow (for the misc bits)
 */
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u32 size = perf_sample_data_size(data, event);

	header->type = PERF_RECORD_SAMPLE;
	header->size = size;
	header->misc = perf_misc_flags(regs);

	/*
	 * perf_prepare_sample() keeps records whole u64s, and within the
	 * u16: nothing cut off.
	 */
	WARN_ON_ONCE(size != header->size || (size & (sizeof(u64) - 1)));
}

/* ---------------------------------------------------------------------
 * Writing a sample
 */

/* attr.read_format words before the members, and per member */
static unsigned int perf_sample_read_head_words(u64 read_format)
{
	return !!(read_format & PERF_FORMAT_GROUP) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

static unsigned int perf_sample_read_member_words(u64 read_format)
{
	return 1 + !!(read_format & PERF_FORMAT_ID) +
	       !!(read_format & PERF_FORMAT_LOST);
}

/*
 * A count for PERF_SAMPLE_READ.  With attr.inherit, samples report what
 * each thread counted (its own copy) rather than the sum over copies.
 */
static u64 perf_sample_count(struct perf_event *member, bool own_only)
{
	u64 count = local64_read(&member->count);

	if (!own_only)
		count += atomic64_read(&member->child_count);
	return count;
}

/* Bring another member's count up to date if it counts on this CPU. */
static void perf_sample_refresh(struct perf_event *member)
{
	if (READ_ONCE(member->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(member->oncpu) == smp_processor_id())
		member->pmu->read(member);
}

static void perf_words_add_member(struct perf_sample_words *w,
				  struct perf_event *member, u64 read_format,
				  bool own_only)
{
	perf_words_add(w, perf_sample_count(member, own_only));
	if (read_format & PERF_FORMAT_ID)
		perf_words_add(w, perf_event_primary_id(member));
	if (read_format & PERF_FORMAT_LOST)
		perf_words_add(w, atomic64_read(&member->lost_samples));
}

/*
 * The group layout of read(2).  As many members are written as
 * @reserved bytes (data->read_size, sized at perf_prepare_sample()) have
 * room for: should the group have changed since, members are left out or
 * zero-filled, never written past the reservation.  IRQs off: the group
 * cannot be rescheduled on this CPU meanwhile.
 */
static void perf_output_read_group(struct perf_output_handle *handle,
				   struct perf_event *event, u64 reserved,
				   bool refresh, bool own_only,
				   u64 enabled, u64 running)
{
	struct perf_event *leader = event->group_leader, *member;
	u64 read_format = event->attr.read_format;
	unsigned int head = perf_sample_read_head_words(read_format);
	unsigned int per = perf_sample_read_member_words(read_format);
	unsigned int room, written = 0;
	struct perf_sample_words w __uninitialized;

	w.nr = 0;

	room = reserved / sizeof(u64);
	room = room > head ? (room - head) / per : 0;

	perf_words_add(&w, room);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_words_add(&w, enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_words_add(&w, running);

	if (room) {
		if (refresh && leader != event)
			perf_sample_refresh(leader);
		perf_words_add_member(&w, leader, read_format, own_only);
		written++;
	}
	perf_words_flush(handle, &w);

	for_each_sibling_event(member, leader) {
		if (written == room)
			break;
		if (refresh && member != event)
			perf_sample_refresh(member);
		perf_words_add_member(&w, member, read_format, own_only);
		perf_words_flush(handle, &w);
		written++;
	}

	for (; written < room; written++) {
		unsigned int i;

		for (i = 0; i < per; i++)
			perf_words_add(&w, 0);
		perf_words_flush(handle, &w);
	}
}

static void perf_output_read(struct perf_output_handle *handle,
			     struct perf_sample_data *data,
			     struct perf_event *event)
{
	u64 read_format = event->attr.read_format;
	/* the driver already brought the counts up to date */
	bool refresh = !(data->sample_flags & PERF_SAMPLE_READ);
	bool own_only = event->attr.inherit;
	struct perf_sample_words w __uninitialized;
	u64 enabled = 0, running = 0;
	unsigned long flags;

	w.nr = 0;

	local_irq_save(flags);

	if (read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING))
		perf_event_times_local(event, &enabled, &running);

	if (read_format & PERF_FORMAT_GROUP) {
		perf_output_read_group(handle, event, data->read_size, refresh,
				       own_only, enabled, running);
		goto out;
	}

	perf_words_add(&w, perf_sample_count(event, own_only));
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_words_add(&w, enabled +
			       atomic64_read(&event->child_total_time_enabled));
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_words_add(&w, running +
			       atomic64_read(&event->child_total_time_running));
	if (read_format & PERF_FORMAT_ID)
		perf_words_add(&w, perf_event_primary_id(event));
	if (read_format & PERF_FORMAT_LOST)
		perf_words_add(&w, atomic64_read(&event->lost_samples));
	perf_words_flush(handle, &w);
out:
	local_irq_restore(flags);
}

/* @len zero bytes */
static void perf_output_zeros(struct perf_output_handle *handle, u64 len)
{
	static const u64 zeros[PERF_ZERO_WORDS];

	while (len) {
		unsigned int chunk = min_t(u64, len, sizeof(zeros));

		perf_output_copy(handle, zeros, chunk);
		len -= chunk;
	}
}

static void perf_output_raw(struct perf_output_handle *handle,
			    struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag;
	unsigned long unread;

	if (!raw) {
		/* an empty record: size 4, then 4 zero bytes */
		u32 empty[2] = { sizeof(u32), 0 };

		perf_output_copy(handle, empty, sizeof(empty));
		return;
	}

	perf_output_put(handle, raw->size);
	for (frag = &raw->frag; ; frag = frag->next) {
		if (frag->copy) {
			unread = perf_output_copy_custom(handle, frag->copy,
							 frag->data, frag->size);
			/* a source that went away: zeros keep the layout */
			perf_output_zeros(handle, unread);
		} else {
			perf_output_copy(handle, frag->data, frag->size);
		}
		if (perf_raw_frag_last(frag))
			break;
	}
	perf_output_zeros(handle, frag->pad);
}

static void perf_output_brstack(struct perf_output_handle *handle,
				struct perf_sample_data *data,
				struct perf_event *event)
{
	struct perf_branch_stack *brs = data->br_stack;

	if (!brs) {
		u64 none = 0;

		perf_output_put(handle, none);
		return;
	}

	perf_output_put(handle, brs->nr);
	if (branch_sample_hw_index(event))
		perf_output_put(handle, brs->hw_idx);
	perf_output_copy(handle, brs->entries,
			 brs->nr * sizeof(struct perf_branch_entry));
	if (data->br_stack_cntr)
		perf_output_copy(handle, data->br_stack_cntr,
				 brs->nr * sizeof(u64));
}

/* abi, then the registers of @mask in bit order (if there are any) */
static void perf_output_regs(struct perf_output_handle *handle,
			     struct perf_regs *set, u64 mask)
{
	struct perf_sample_words w __uninitialized;
	u64 rest;

	w.nr = 0;

	perf_words_add(&w, set->abi);
	if (set->regs) {
		for (rest = mask; rest; rest &= rest - 1) {
			if (w.nr == ARRAY_SIZE(w.word))
				perf_words_flush(handle, &w);
			perf_words_add(&w, perf_reg_value(set->regs,
							  __ffs64(rest)));
		}
	}
	perf_words_flush(handle, &w);
}

/*
 * size, then (if not 0) the stack from the user stack pointer and how
 * much of it could be read; what could not is written as zeros.
 */
static void perf_output_stack_user(struct perf_output_handle *handle,
				   struct perf_sample_data *data)
{
	u64 size = data->stack_user_size;
	unsigned long sp, unread;

	perf_output_put(handle, size);
	if (!size)
		return;

	sp = perf_sample_user_sp(data->regs_user.regs);
	unread = perf_output_copy_user(handle, (const void __user *)sp, size);
	perf_output_zeros(handle, unread);
	size -= unread;
	perf_output_put(handle, size);
}

/**
 * perf_output_sample - write a prepared sample into a reserved record
 * @handle: the reservation, header.size bytes
 * @header: the record's header, from perf_prepare_header()
 * @data: the sample, from perf_prepare_sample()
 * @event: the sampling event
 *
 * Writes exactly header->size bytes.  Any context, NMI too.
 */
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	struct perf_sample_words w __uninitialized;
	u64 head[PERF_FIXED_HEAD_WORDS] __uninitialized;
	u64 *start, *p;

	/*
	 * The fixed head goes straight into the buffer when it surely ends
	 * in this page, else through @head and perf_output_copy().  @p is
	 * a local whose address is never taken: it stays in a register.
	 */
	start = likely(handle->size > sizeof(head)) ? handle->addr : head;
	p = start;
	p = perf_put_pair(p, header);
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = data->id;
	if (type & PERF_SAMPLE_IP)
		*p++ = data->ip;
	if (type & PERF_SAMPLE_TID)
		p = perf_put_pair(p, &data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		*p++ = data->time;
	if (type & PERF_SAMPLE_ADDR)
		*p++ = data->addr;
	if (type & PERF_SAMPLE_ID)
		*p++ = data->id;
	if (type & PERF_SAMPLE_STREAM_ID)
		*p++ = data->stream_id;
	if (type & PERF_SAMPLE_CPU)
		p = perf_put_pair(p, &data->cpu_entry);
	if (type & PERF_SAMPLE_PERIOD)
		*p++ = data->period;
	if (likely(start != head)) {
		handle->addr = p;
		handle->size -= (void *)p - (void *)start;
	} else {
		perf_output_copy(handle, head, (void *)p - (void *)head);
	}
	w.nr = 0;

	/* most samples end here: only fixed fields, written above */
	if (likely(!(type & ~PERF_SAMPLE_FIXED_HEAD)))
		return;

	if (type & PERF_SAMPLE_READ)
		perf_output_read(handle, data, event);

	if (type & PERF_SAMPLE_CALLCHAIN)
		perf_output_copy(handle, data->callchain,
				 (1 + data->callchain->nr) * sizeof(u64));

	if (type & PERF_SAMPLE_RAW)
		perf_output_raw(handle, data->raw);

	if (type & PERF_SAMPLE_BRANCH_STACK)
		perf_output_brstack(handle, data, event);

	if (type & PERF_SAMPLE_REGS_USER)
		perf_output_regs(handle, &data->regs_user,
				 event->attr.sample_regs_user);

	if (type & PERF_SAMPLE_STACK_USER)
		perf_output_stack_user(handle, data);

	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		perf_words_add(&w, data->weight.full);
	if (type & PERF_SAMPLE_DATA_SRC)
		perf_words_add(&w, data->data_src.val);
	if (type & PERF_SAMPLE_TRANSACTION)
		perf_words_add(&w, data->txn);
	perf_words_flush(handle, &w);

	if (type & PERF_SAMPLE_REGS_INTR)
		perf_output_regs(handle, &data->regs_intr,
				 event->attr.sample_regs_intr);

	if (type & PERF_SAMPLE_PHYS_ADDR)
		perf_words_add(&w, data->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		perf_words_add(&w, data->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		perf_words_add(&w, data->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		perf_words_add(&w, data->code_page_size);
	/* AUX: the size, then a snapshot of the group leader's AUX data */
	if (type & PERF_SAMPLE_AUX)
		perf_words_add(&w, data->aux_size);
	perf_words_flush(handle, &w);
	if ((type & PERF_SAMPLE_AUX) && data->aux_size)
		perf_aux_sample_output(event, handle, data->aux_size);
}

/* ---------------------------------------------------------------------
 * Sample and lost-sample records
 */

typedef int (*perf_output_begin_f)(struct perf_output_handle *handle,
				   struct perf_sample_data *data,
				   struct perf_event *event,
				   unsigned int size);

static __always_inline int perf_sample_write(struct perf_event *event,
					     struct perf_sample_data *data,
					     struct pt_regs *regs,
					     perf_output_begin_f begin)
{
	struct perf_event_header hdr;
	struct perf_output_handle out __uninitialized;
	int ret;

	/* held until the record is written: the callchain buffers are RCU */
	guard(rcu)();

	perf_prepare_sample(data, event, regs);
	perf_prepare_header(&hdr, data, event, regs);
	ret = begin(&out, data, event, hdr.size);
	if (ret)
		return ret;

	perf_output_sample(&out, &hdr, data, event);
	perf_output_end(&out);
	return 0;
}

/**
 * perf_event_output_forward - overflow handler: write a sample forward
 * @event: the sampling event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * The default overflow handler of an event whose buffer is written
 * forward.  Any context, NMI too.
 */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	perf_sample_write(event, data, regs, perf_output_begin_forward);
}

/**
 * perf_event_output_backward - overflow handler: write a sample backward
 * @event: the sampling event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * The default overflow handler with attr.write_backward.  Any context.
 */
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	perf_sample_write(event, data, regs, perf_output_begin_backward);
}

/**
 * perf_event_output - write one sample of @event to its ring buffer
 * @event: the event
 * @data: the sample
 * @regs: the registers to take the rest of the sample from
 *
 * For bpf_perf_event_output() and other writers outside the overflow
 * path; writes in the buffer's own direction.  Any context.
 *
 * Return: 0, or perf_output_begin()'s error (no buffer, no room).
 */
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return perf_sample_write(event, data, regs, perf_output_begin);
}

/**
 * perf_log_lost_samples - write a PERF_RECORD_LOST_SAMPLES record
 * @event: the event whose samples were dropped
 * @lost: how many the driver dropped
 *
 * With the sample id trailer if attr.sample_id_all.  Any context.
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct {
		struct perf_event_header	header;
		u64				lost;
	} rec = { .lost = lost };

	perf_event_header__init(&rec.header, &data, PERF_RECORD_LOST_SAMPLES,
				0, sizeof(rec), event);
	if (perf_output_begin(&handle, &data, event, rec.header.size))
		return;

	perf_output_put(&handle, rec);
	perf_event__output_id_sample(event, &handle, &data);
	perf_output_end(&handle);
}
