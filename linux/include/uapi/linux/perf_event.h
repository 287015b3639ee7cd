/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_event_open(2): the user/kernel interface.
 *
 * Everything here is ABI shared with user space: the attribute block passed
 * to the system call, the ioctl()s and read() format of an event fd, the
 * control page and record stream of its mmap()ed ring buffer, and the
 * encodings used inside samples.  Values and layouts must never change;
 * new things are only ever appended.  Most enums end in a *_MAX entry one
 * past the last value this kernel knows; those move as values are added
 * and are not ABI (PERF_CONTEXT_MAX, a fixed bound, is the exception).
 */
#ifndef _UAPI_LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/* ====================================================================
 * 1. Choosing what to count: perf_event_attr.type and .config
 * ====================================================================
 */

/* Values of attr.type below PERF_TYPE_MAX; dynamic PMUs get larger ones. */
enum perf_type_id {
	PERF_TYPE_HARDWARE	= 0,	/* config: enum perf_hw_id */
	PERF_TYPE_SOFTWARE	= 1,	/* config: enum perf_sw_ids */
	PERF_TYPE_TRACEPOINT	= 2,	/* config: tracepoint id */
	PERF_TYPE_HW_CACHE	= 3,	/* config: cache id/op/result */
	PERF_TYPE_RAW		= 4,	/* config: model-specific code */
	PERF_TYPE_BREAKPOINT	= 5,	/* uses bp_type, bp_addr, bp_len */

	PERF_TYPE_MAX
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE, config may carry a PMU
 * type in its upper half so that a generic event can be aimed at one PMU
 * of a hybrid system:
 *
 *   bits 63..32  PMU type (0 means the default CPU PMU)
 *   bits 31..0   the generic event:
 *                  HARDWARE: enum perf_hw_id
 *                  HW_CACHE: id | op << 8 | result << 16
 */
#define PERF_PMU_TYPE_SHIFT	32
#define PERF_HW_EVENT_MASK	0xffffffff

/* Generic hardware events, mapped by each PMU driver onto its own. */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX
};

/* PERF_TYPE_HW_CACHE, config bits 7..0: which cache. */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D		= 0,
	PERF_COUNT_HW_CACHE_L1I		= 1,
	PERF_COUNT_HW_CACHE_LL		= 2,
	PERF_COUNT_HW_CACHE_DTLB	= 3,
	PERF_COUNT_HW_CACHE_ITLB	= 4,
	PERF_COUNT_HW_CACHE_BPU		= 5,
	PERF_COUNT_HW_CACHE_NODE	= 6,

	PERF_COUNT_HW_CACHE_MAX
};

/* PERF_TYPE_HW_CACHE, config bits 15..8: which kind of access. */
enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ	= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE	= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH	= 2,

	PERF_COUNT_HW_CACHE_OP_MAX
};

/* PERF_TYPE_HW_CACHE, config bits 23..16: count accesses or misses. */
enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX
};

/* PERF_TYPE_SOFTWARE: counters the kernel keeps itself, on any CPU. */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK		= 0,
	PERF_COUNT_SW_TASK_CLOCK	= 1,
	PERF_COUNT_SW_PAGE_FAULTS	= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES	= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS	= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ	= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS	= 7,
	PERF_COUNT_SW_EMULATION_FAULTS	= 8,
	PERF_COUNT_SW_DUMMY		= 9,	/* counts nothing */
	PERF_COUNT_SW_BPF_OUTPUT	= 10,	/* bpf_perf_event_output() */
	PERF_COUNT_SW_CGROUP_SWITCHES	= 11,

	PERF_COUNT_SW_MAX
};

/* ====================================================================
 * 2. What a sample contains: attr.sample_type, attr.read_format
 * ====================================================================
 */

/*
 * attr.sample_type bits.  Each one adds a field to PERF_RECORD_SAMPLE (see
 * enum perf_event_type for the order in which they appear).
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP			= 1U << 0,
	PERF_SAMPLE_TID			= 1U << 1,
	PERF_SAMPLE_TIME		= 1U << 2,
	PERF_SAMPLE_ADDR		= 1U << 3,
	PERF_SAMPLE_READ		= 1U << 4,
	PERF_SAMPLE_CALLCHAIN		= 1U << 5,
	PERF_SAMPLE_ID			= 1U << 6,
	PERF_SAMPLE_CPU			= 1U << 7,
	PERF_SAMPLE_PERIOD		= 1U << 8,
	PERF_SAMPLE_STREAM_ID		= 1U << 9,
	PERF_SAMPLE_RAW			= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK	= 1U << 11,
	PERF_SAMPLE_REGS_USER		= 1U << 12,
	PERF_SAMPLE_STACK_USER		= 1U << 13,
	PERF_SAMPLE_WEIGHT		= 1U << 14,
	PERF_SAMPLE_DATA_SRC		= 1U << 15,
	PERF_SAMPLE_IDENTIFIER		= 1U << 16,
	PERF_SAMPLE_TRANSACTION		= 1U << 17,
	PERF_SAMPLE_REGS_INTR		= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR		= 1U << 19,
	PERF_SAMPLE_AUX			= 1U << 20,
	PERF_SAMPLE_CGROUP		= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE	= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE	= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT	= 1U << 24,

	PERF_SAMPLE_MAX			= 1U << 25
};

/* The two ways of asking for a weight; at most one may be set. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * attr.read_format bits: what read() on the event fd returns, and what
 * PERF_SAMPLE_READ puts in a sample.
 *
 *   Without PERF_FORMAT_GROUP:    With PERF_FORMAT_GROUP:
 *     u64 value;                    u64 nr;            (events in group)
 *     u64 time_enabled;  (a)        u64 time_enabled;  (a)
 *     u64 time_running;  (b)        u64 time_running;  (b)
 *     u64 id;            (c)        struct { u64 value;
 *     u64 lost;          (d)                 u64 id;    (c)
 *                                            u64 lost;  (d) } cntr[nr];
 *
 *   (a) TOTAL_TIME_ENABLED  (b) TOTAL_TIME_RUNNING  (c) ID  (d) LOST
 *
 *   With PERF_FORMAT_PER_CPU (only on an event opened with
 *   PERF_FLAG_ALL_CPUS, and not with PERF_FORMAT_GROUP):
 *     u64 nr;                                   (CPUs that follow)
 *     struct { u64 cpu;
 *              u64 value;
 *              u64 time_enabled;  (a)
 *              u64 time_running;  (b)
 *              u64 id;            (c)
 *              u64 lost;          (d) } cpus[nr];
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED	= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING	= 1U << 1,
	PERF_FORMAT_ID			= 1U << 2,
	PERF_FORMAT_GROUP		= 1U << 3,
	PERF_FORMAT_LOST		= 1U << 4,
	PERF_FORMAT_PER_CPU		= 1U << 5,	/* extension */

	PERF_FORMAT_MAX			= 1U << 6
};

/*
 * attr.branch_sample_type, used with PERF_SAMPLE_BRANCH_STACK: which taken
 * branches to record.  With no privilege bit set the event's own exclude_*
 * settings decide; ANY takes every kind of branch.  Each bit is given by
 * its number first and then as a mask.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,	/* user-level target */
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,	/* kernel-level target */
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,	/* hypervisor target */
	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,	/* every branch kind */
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,	/* calls of any kind */
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,	/* returns of any kind */
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,	/* calls via register */
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,	/* HTM aborts */
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,	/* inside an HTM txn */
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,	/* outside any txn */
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,	/* conditional ones */
	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,	/* LBR call stack */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,	/* jumps via register */
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,	/* direct calls */
	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,	/* omit the flag bits */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,	/* omit cycle counts */
	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,	/* fill entry.type */
	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,	/* emit hw_idx */
	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,	/* fill entry.priv */
	PERF_SAMPLE_BRANCH_COUNTERS_SHIFT	= 19,	/* per-branch counts */

	PERF_SAMPLE_BRANCH_MAX_SHIFT
};

enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,
	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	= 1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	= 1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	= 1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	= 1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,
	PERF_SAMPLE_BRANCH_CALL_STACK	= 1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	= 1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_NO_FLAGS	= 1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	= 1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,
	PERF_SAMPLE_BRANCH_TYPE_SAVE	= 1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,
	PERF_SAMPLE_BRANCH_HW_INDEX	= 1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,
	PERF_SAMPLE_BRANCH_PRIV_SAVE	= 1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,
	PERF_SAMPLE_BRANCH_COUNTERS	= 1U << PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT
};

/* The three privilege filters together. */
#define PERF_SAMPLE_BRANCH_PLM_ALL \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | \
	 PERF_SAMPLE_BRANCH_HV)

/* perf_branch_entry.type: what kind of control transfer was taken. */
enum {
	PERF_BR_UNKNOWN		= 0,
	PERF_BR_COND		= 1,	/* conditional jump */
	PERF_BR_UNCOND		= 2,	/* unconditional direct jump */
	PERF_BR_IND		= 3,	/* jump via register */
	PERF_BR_CALL		= 4,	/* direct call */
	PERF_BR_IND_CALL	= 5,	/* call via register */
	PERF_BR_RET		= 6,	/* return */
	PERF_BR_SYSCALL		= 7,	/* into the kernel by syscall */
	PERF_BR_SYSRET		= 8,	/* back from a syscall */
	PERF_BR_COND_CALL	= 9,	/* call taken on a condition */
	PERF_BR_COND_RET	= 10,	/* return taken on a condition */
	PERF_BR_ERET		= 11,	/* return from an exception */
	PERF_BR_IRQ		= 12,	/* interrupt entry */
	PERF_BR_SERROR		= 13,	/* system error exception */
	PERF_BR_NO_TX		= 14,	/* outside a transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* look in new_type instead */
	PERF_BR_MAX
};

/* perf_branch_entry.spec: how the branch relates to speculation. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculated, then discarded */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* retired, not speculated */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculated and retired */
	PERF_BR_SPEC_MAX
};

/* perf_branch_entry.new_type, valid when type is PERF_BR_EXTEND_ABI. */
enum {
	PERF_BR_NEW_FAULT_ALGN	= 0,	/* misaligned access fault */
	PERF_BR_NEW_FAULT_DATA	= 1,	/* data abort */
	PERF_BR_NEW_FAULT_INST	= 2,	/* instruction abort */
	PERF_BR_NEW_ARCH_1	= 3,	/* ARCH_1..5: meaning set per arch */
	PERF_BR_NEW_ARCH_2	= 4,
	PERF_BR_NEW_ARCH_3	= 5,
	PERF_BR_NEW_ARCH_4	= 6,
	PERF_BR_NEW_ARCH_5	= 7,
	PERF_BR_NEW_MAX
};

/* The arm64 meanings of the per-architecture new_type values. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/* perf_branch_entry.priv: privilege level of the branch target. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3
};

/* First u64 of a PERF_SAMPLE_REGS_USER/_INTR block: the register set. */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,	/* no registers follow */
	PERF_SAMPLE_REGS_ABI_32		= 1,	/* a 32-bit task's set */
	PERF_SAMPLE_REGS_ABI_64		= 2	/* a 64-bit task's set */
};

/*
 * PERF_SAMPLE_TRANSACTION: why a hardware memory transaction ended.  The
 * low bits are flags that may be combined; the upper 32 bits hold the
 * abort code the program passed, if any.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0),	/* lock elision */
	PERF_TXN_TRANSACTION	= (1 << 1),	/* explicit transaction */
	PERF_TXN_SYNC		= (1 << 2),	/* caused by the sampled insn */
	PERF_TXN_ASYNC		= (1 << 3),	/* caused by something else */
	PERF_TXN_RETRY		= (1 << 4),	/* retrying may succeed */
	PERF_TXN_CONFLICT	= (1 << 5),	/* data conflict */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6),	/* write set overflowed */
	PERF_TXN_CAPACITY_READ	= (1 << 7),	/* read set overflowed */

	PERF_TXN_MAX		= (1 << 8),

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32
};

/* ====================================================================
 * 3. The attribute block passed to perf_event_open(2)
 * ====================================================================
 */

/*
 * attr.size as passed by programs built against each revision of the
 * struct; the kernel accepts any of them (and larger ones whose excess
 * is zero).  The comment names the member(s) each revision appended.
 */
#define PERF_ATTR_SIZE_VER0	64	/* the original layout */
#define PERF_ATTR_SIZE_VER1	72	/* config2 */
#define PERF_ATTR_SIZE_VER2	80	/* branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* sig_data */
#define PERF_ATTR_SIZE_VER8	136	/* config3 */
#define PERF_ATTR_SIZE_VER9	144	/* config4 */

struct perf_event_attr {
	__u32	type;		/* enum perf_type_id or a PMU's own type */
	__u32	size;		/* sizeof(struct) the caller was built with */
	__u64	config;		/* event selector, meaning set by type */

	union {			/* sampling interval (see attr.freq) */
		__u64	sample_period;	/* every N events */
		__u64	sample_freq;	/* about N samples a second */
	};

	__u64	sample_type;	/* enum perf_event_sample_format */
	__u64	read_format;	/* enum perf_event_read_format */

	/* Flags, one bit each unless noted; each comment starts with the bit. */
	__u64	disabled	:  1;	/*  0 created stopped */
	__u64	inherit		:  1;	/*  1 follow new child tasks */
	__u64	pinned		:  1;	/*  2 error state if it can't be on */
	__u64	exclusive	:  1;	/*  3 sole group on its PMU */
	__u64	exclude_user	:  1;	/*  4 not in user mode */
	__u64	exclude_kernel	:  1;	/*  5 not in kernel mode */
	__u64	exclude_hv	:  1;	/*  6 not in the hypervisor */
	__u64	exclude_idle	:  1;	/*  7 not while the CPU idles */
	__u64	mmap		:  1;	/*  8 PERF_RECORD_MMAP, exec maps */
	__u64	comm		:  1;	/*  9 PERF_RECORD_COMM */
	__u64	freq		:  1;	/* 10 sample_freq, not _period */
	__u64	inherit_stat	:  1;	/* 11 keep per-child totals */
	__u64	enable_on_exec	:  1;	/* 12 start at the next exec() */
	__u64	task		:  1;	/* 13 PERF_RECORD_FORK/EXIT */
	__u64	watermark	:  1;	/* 14 wake by bytes, not events */
	__u64	precise_ip	:  2;	/* 15-16 skid: 0 any .. 3 none */
	__u64	mmap_data	:  1;	/* 17 MMAP records for data maps */
	__u64	sample_id_all	:  1;	/* 18 sample_id on every record */
	__u64	exclude_host	:  1;	/* 19 only while a guest runs */
	__u64	exclude_guest	:  1;	/* 20 not while a guest runs */
	__u64	exclude_callchain_kernel : 1;	/* 21 no kernel frames */
	__u64	exclude_callchain_user	 : 1;	/* 22 no user frames */
	__u64	mmap2		:  1;	/* 23 PERF_RECORD_MMAP2 instead */
	__u64	comm_exec	:  1;	/* 24 mark COMM caused by exec() */
	__u64	use_clockid	:  1;	/* 25 timestamps from clockid */
	__u64	context_switch	:  1;	/* 26 PERF_RECORD_SWITCH* */
	__u64	write_backward	:  1;	/* 27 ring buffer fills downwards */
	__u64	namespaces	:  1;	/* 28 PERF_RECORD_NAMESPACES */
	__u64	ksymbol		:  1;	/* 29 PERF_RECORD_KSYMBOL */
	__u64	bpf_event	:  1;	/* 30 PERF_RECORD_BPF_EVENT */
	__u64	aux_output	:  1;	/* 31 samples go in the leader's AUX data */
	__u64	cgroup		:  1;	/* 32 PERF_RECORD_CGROUP */
	__u64	text_poke	:  1;	/* 33 PERF_RECORD_TEXT_POKE */
	__u64	build_id	:  1;	/* 34 MMAP2 carries a build id */
	__u64	inherit_thread	:  1;	/* 35 inherit on CLONE_THREAD only */
	__u64	remove_on_exec	:  1;	/* 36 drop the event at exec() */
	__u64	sigtrap		:  1;	/* 37 SIGTRAP on each overflow */
	__u64	defer_callchain	:  1;	/* 38 user frames unwound on return to user */
	__u64	defer_output	:  1;	/* 39 CALLCHAIN_DEFERRED records here */
	__u64	__reserved_1	: 24;	/* 40-63 must be zero */

	union {			/* when to wake poll()ers (see watermark) */
		__u32	wakeup_events;		/* after N records */
		__u32	wakeup_watermark;	/* after N bytes */
	};

	__u32	bp_type;	/* HW_BREAKPOINT_* access kind */

	/* Meaning set by type: breakpoint, [ku]probe PMU, or plain PMU. */
	union {
		__u64	bp_addr;	/* address watched */
		__u64	kprobe_func;	/* kprobe: symbol name pointer */
		__u64	uprobe_path;	/* uprobe: file name pointer */
		__u64	config1;	/* more selector bits */
	};
	union {
		__u64	bp_len;		/* bytes watched */
		__u64	kprobe_addr;	/* kprobe: address, if no symbol */
		__u64	probe_offset;	/* [ku]probe: offset from the above */
		__u64	config2;	/* more selector bits */
	};

	__u64	branch_sample_type;	/* enum perf_branch_sample_type */
	__u64	sample_regs_user;	/* bits: asm/perf_regs.h indices */
	__u32	sample_stack_user;	/* bytes of user stack to copy */
	__s32	clockid;		/* with use_clockid */
	__u64	sample_regs_intr;	/* mask of regs at the overflow */
	__u32	aux_watermark;		/* AUX bytes before a wakeup */
	__u16	sample_max_stack;	/* callchain depth limit */
	/*
	 * period_random_bits = k, from 1 to 63 (an extension of this core; 6.12
	 * and later mainline refuse it with EINVAL): after each overflow the
	 * event counts sample_period - 2^(k-1) + r events to the next one, r
	 * drawn uniformly below 2^k.  Needs a fixed sample_period above 2^(k-1).
	 */
	union {
		__u16	__reserved_2;		/* 6.12's name: zero there */
		__u16	period_random_bits;
	};
	__u32	aux_sample_size;	/* AUX bytes per PERF_SAMPLE_AUX */

	union {
		__u32	aux_action;	/* the three bits below, as one */
		struct {
			__u32	aux_start_paused :  1;	/* AUX starts paused */
			__u32	aux_pause	 :  1;	/* overflow pauses AUX */
			__u32	aux_resume	 :  1;	/* overflow resumes AUX */
			__u32	__reserved_3	 : 29;
		};
	};

	/* Copied to siginfo's si_perf_data (cut to long) for sigtrap. */
	__u64	sig_data;

	__u64	config3;	/* yet more selector bits */
	__u64	config4;	/* and more again */
};

/* ====================================================================
 * 4. Flags of the system call and ioctl()s on an event fd
 * ====================================================================
 */

/* The flags argument of perf_event_open(2). */
#define PERF_FLAG_FD_NO_GROUP	(1UL << 0)	/* ignore group_fd for grouping */
#define PERF_FLAG_FD_OUTPUT	(1UL << 1)	/* output to group_fd's buffer */
#define PERF_FLAG_PID_CGROUP	(1UL << 2)	/* pid is a cgroup fd (cpu >= 0) */
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)	/* set FD_CLOEXEC on the fd */
/*
 * Extension: with pid == -1 and cpu == -1, one fd for an event on every
 * possible CPU (those that come online later too).  read() gives the sum
 * over the CPUs, or each CPU's values with PERF_FORMAT_PER_CPU; ENABLE,
 * DISABLE, RESET and ID apply to all CPUs at once.  A sampling event
 * writes each CPU's records to that CPU's buffer: mmap() of length L at
 * offset cpu * L maps it.
 */
#define PERF_FLAG_ALL_CPUS	(1UL << 4)

/*
 * Argument of PERF_EVENT_IOC_QUERY_BPF.  The caller sets ids_len to the
 * room in ids[]; the kernel sets prog_cnt to the number of BPF programs on
 * the event's tracepoint and copies up to ids_len of their ids.
 */
struct perf_event_query_bpf {
	__u32	ids_len;
	__u32	prog_cnt;
	__u32	ids[];
};

#define PERF_EVENT_IOC_ENABLE		_IO('$', 0)
#define PERF_EVENT_IOC_DISABLE		_IO('$', 1)
#define PERF_EVENT_IOC_REFRESH		_IO('$', 2)	/* arg: overflows */
#define PERF_EVENT_IOC_RESET		_IO('$', 3)
#define PERF_EVENT_IOC_PERIOD		_IOW('$', 4, __u64)
#define PERF_EVENT_IOC_SET_OUTPUT	_IO('$', 5)	/* arg: event fd */
#define PERF_EVENT_IOC_SET_FILTER	_IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID		_IOR('$', 7, __u64 *)
#define PERF_EVENT_IOC_SET_BPF		_IOW('$', 8, __u32)	/* prog fd */
#define PERF_EVENT_IOC_PAUSE_OUTPUT	_IOW('$', 9, __u32)	/* 1 stop, 0 go */
#define PERF_EVENT_IOC_QUERY_BPF	_IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES _IOW('$', 11, struct perf_event_attr *)

/* Argument of ENABLE, DISABLE and RESET: act on the whole group. */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP	= 1U << 0
};

/* ====================================================================
 * 5. The first page of the mmap()ed ring buffer
 * ====================================================================
 */

/*
 * The kernel fills this page for the event's owner.  The fields from lock
 * to time_mask let a task read its own counter without a system call,
 * retrying until lock reads the same before and after: the count is
 * offset, plus (if cap_user_rdpmc and index != 0) hardware counter
 * index - 1 sign-extended from pmc_width bits.
 *
 * With cap_user_time, the ns elapsed since time_enabled was last updated
 * are, for a cycle count c (e.g. the TSC) read in the same retry loop,
 *
 *   time_offset + (c >> time_shift) * time_mult
 *               + (((c & ((1 << time_shift) - 1)) * time_mult) >> time_shift)
 *
 * to be added to time_enabled, and to time_running if index != 0.  With
 * cap_user_time_zero, time_zero is the timestamp at which the cycle count
 * was zero, so that sample times can be turned back into cycles.  With
 * cap_user_time_short the cycle counter is narrower than 64 bits and c is
 * first widened as time_cycles + ((c - time_cycles) & time_mask).
 *
 * The data area starts at data_offset.  The kernel writes records and then
 * advances data_head; the reader loads data_head, issues a read barrier,
 * consumes records and, in a writable mapping, stores data_tail after a
 * full barrier so the kernel may reuse the space.  aux_head/aux_tail work
 * the same for the AUX area, whose offset and size user space sets before
 * mapping it.
 *
 * With cap_user_count (an extension of this core; mainline leaves the bit
 * zero), offset alone is the event's count, with no system call and no
 * counter to read: the kernel rewrites the page whenever the count
 * changes.  It is set for a counting (not sampling), not inherited
 * software event whose buffer no other event writes to.  A running
 * cpu-clock or task-clock event's count also grows by one per ns:
 * cap_user_count_time then says to add the ns elapsed since the page was
 * written, computed as for time_enabled above (it is only set along with
 * cap_user_time).  The count read this way equals what read() would
 * return at that instant for the reading thread's own events; another
 * thread's running clock is as exact as the two CPUs' clocks agree.
 *
 * With cap_output_state (also an extension; mainline leaves these
 * bytes zero), output_state has PERF_OUTPUT_STATE_PAUSED set while
 * PERF_EVENT_IOC_PAUSE_OUTPUT holds the buffer's output, set only once no
 * record is being written any more.  While it is set, in a buffer mapped
 * without PROT_WRITE (overwrite mode), data_bound is the other end of the
 * records that are still whole: they fill [data_bound, data_head) when
 * records are written forward, [data_head, data_bound) when they are
 * written backward (write_backward).  Bytes outside it may be parts of
 * records that were written over.
 */
struct perf_event_mmap_page {
	__u32	version;		/* layout version */
	__u32	compat_version;		/* oldest version it is a superset of */

	__u32	lock;			/* sequence count of the fields below */
	__u32	index;			/* hw counter + 1, or 0: none */
	__s64	offset;			/* base added to the hw counter */
	__u64	time_enabled;		/* ns the event was enabled */
	__u64	time_running;		/* ns it was on a counter */

	union {
		__u64	capabilities;	/* the bits below, as one word */
		struct {
			__u64	cap_bit0		: 1;	/* 0 (retired meaning) */
			__u64	cap_bit0_is_deprecated	: 1;	/* 1 */
			__u64	cap_user_rdpmc		: 1;	/* read hw counter */
			__u64	cap_user_time		: 1;	/* time_mult/shift/offset */
			__u64	cap_user_time_zero	: 1;	/* time_zero */
			__u64	cap_user_time_short	: 1;	/* time_cycles/mask */
			__u64	cap_____res		: 55;
			/* 61-63: extensions of this core (see above) */
			__u64	cap_user_count		: 1;	/* 61: offset */
			__u64	cap_user_count_time	: 1;	/* 62: + ns */
			__u64	cap_output_state	: 1;	/* 63 */
		};
	};

	__u16	pmc_width;		/* valid bits of a hw counter read */
	__u16	time_shift;
	__u32	time_mult;
	__u64	time_offset;
	__u64	time_zero;

	__u32	size;			/* bytes of this header in use */
	__u32	__reserved_1;

	__u64	time_cycles;
	__u64	time_mask;

	/* An extension of this core, with cap_output_state (see below). */
	__u64	output_state;		/* PERF_OUTPUT_STATE_* bits */
	__u64	data_bound;		/* paused: the far end of whole records */

	__u8	__reserved[114 * 8];	/* pads the header to 1 KiB */

	/* Ring buffer positions, byte counts that only grow. */
	__u64	data_head;		/* kernel's write position */
	__u64	data_tail;		/* reader's position (writable maps) */
	__u64	data_offset;		/* data area's offset in the mapping */
	__u64	data_size;		/* data area's length */

	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/* perf_event_mmap_page.output_state, with cap_output_state */
#define PERF_OUTPUT_STATE_PAUSED	(1U << 0)	/* PAUSE_OUTPUT in force */

/* ====================================================================
 * 6. Records in the data area
 * ====================================================================
 */

/* Every record starts with this; size counts the header too. */
struct perf_event_header {
	__u32	type;			/* enum perf_event_type */
	__u16	misc;			/* PERF_RECORD_MISC_* */
	__u16	size;
};

/*
 * header.misc.  Bits 0-2 hold the CPU mode the record was taken in.  Bits
 * 13 and 14 mean different things for different record types, so several
 * names share each of them.  Bit 15 is kept for a future extension.
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)

/* Synthesized by the perf tool: reading /proc/PID/maps timed out. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)

/* Bit 13. */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13)	/* MMAP*: not exec */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13)	/* COMM: by exec() */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13)	/* FORK (tool use) */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13)	/* SWITCH*: out */

/* Bit 14. */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14)	/* SAMPLE: ip exact */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)	/* SWITCH*: runnable */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14)	/* MMAP2: build id */

#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

/* One entry of PERF_RECORD_NAMESPACES. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Order of the entries in PERF_RECORD_NAMESPACES. */
enum {
	NET_NS_INDEX	= 0,
	UTS_NS_INDEX	= 1,
	IPC_NS_INDEX	= 2,
	PID_NS_INDEX	= 3,
	USER_NS_INDEX	= 4,
	MNT_NS_INDEX	= 5,
	CGROUP_NS_INDEX	= 6,

	NR_NAMESPACES
};

/*
 * header.type.  The layout after the header is given for each type, in
 * order, with "x?" for a field present only when sample_type has
 * PERF_SAMPLE_x.  Strings are NUL-terminated and padded so that the record
 * stays a multiple of 8 bytes.
 *
 * When attr.sample_id_all is set, every type except SAMPLE ends with
 *
 *   sample_id:  u32 pid, tid (TID?); u64 time (TIME?); u64 id (ID?);
 *               u64 stream_id (STREAM_ID?); u32 cpu, res (CPU?);
 *               u64 id (IDENTIFIER?)
 *
 * IDENTIFIER repeats ID but at a fixed place: the last u64 of any record
 * with a sample_id, and the first u64 after a SAMPLE's header.
 */
enum perf_event_type {
	/* u32 pid, tid; u64 addr, len, pgoff; char filename[]; sample_id */
	PERF_RECORD_MMAP		= 1,

	/* Records dropped for lack of room: u64 id, lost; sample_id */
	PERF_RECORD_LOST		= 2,

	/* Task name set: u32 pid, tid; char comm[]; sample_id */
	PERF_RECORD_COMM		= 3,

	/* u32 pid, ppid, tid, ptid; u64 time; sample_id */
	PERF_RECORD_EXIT		= 4,

	/* Sampling stopped / restarted by the rate limit:
	 * u64 time, id, stream_id; sample_id
	 */
	PERF_RECORD_THROTTLE		= 5,
	PERF_RECORD_UNTHROTTLE		= 6,

	/* u32 pid, ppid, tid, ptid; u64 time; sample_id */
	PERF_RECORD_FORK		= 7,

	/* u32 pid, tid; the read_format values; sample_id */
	PERF_RECORD_READ		= 8,

	/*
	 * u64 id (IDENTIFIER?); u64 ip (IP?); u32 pid, tid (TID?);
	 * u64 time (TIME?); u64 addr (ADDR?); u64 id (ID?);
	 * u64 stream_id (STREAM_ID?); u32 cpu, res (CPU?);
	 * u64 period (PERIOD?); the read_format values (READ?);
	 * u64 nr, ips[nr] (CALLCHAIN?);
	 * u32 size; u8 data[size] (RAW?; the content is not ABI);
	 * BRANCH_STACK?: u64 nr; u64 hw_idx (if branch HW_INDEX);
	 *   struct perf_branch_entry lbr[nr];
	 *   u64 cntr[nr] (if branch COUNTERS);
	 * u64 abi, regs[popcount(sample_regs_user)] (REGS_USER?; abi NONE
	 *   means no regs);
	 * u64 size; u8 data[size]; u64 dyn_size (STACK_USER?; no dyn_size
	 *   when size is 0);
	 * union perf_sample_weight (WEIGHT? or WEIGHT_STRUCT?);
	 * u64 data_src (DATA_SRC?); u64 transaction (TRANSACTION?);
	 * u64 abi, regs[popcount(sample_regs_intr)] (REGS_INTR?);
	 * u64 phys_addr (PHYS_ADDR?); u64 cgroup (CGROUP?);
	 * u64 data_page_size (DATA_PAGE_SIZE?);
	 * u64 code_page_size (CODE_PAGE_SIZE?);
	 * u64 size; u8 data[size] (AUX?)
	 */
	PERF_RECORD_SAMPLE		= 9,

	/*
	 * MMAP with the identity of the mapped file:
	 * u32 pid, tid; u64 addr, len, pgoff;
	 * then either u32 maj, min; u64 ino, ino_generation;
	 * or (MISC_MMAP_BUILD_ID) u8 build_id_size, __reserved_1;
	 *   u16 __reserved_2; u8 build_id[20];
	 * u32 prot, flags; char filename[]; sample_id
	 */
	PERF_RECORD_MMAP2		= 10,

	/* Data reached the AUX area: u64 aux_offset, aux_size, flags
	 * (PERF_AUX_FLAG_*); sample_id
	 */
	PERF_RECORD_AUX			= 11,

	/* AUX tracing began for a task: u32 pid, tid; sample_id */
	PERF_RECORD_ITRACE_START	= 12,

	/* Samples dropped before reaching the buffer: u64 lost; sample_id */
	PERF_RECORD_LOST_SAMPLES	= 13,

	/* A task was switched in, or out with MISC_SWITCH_OUT: sample_id */
	PERF_RECORD_SWITCH		= 14,

	/* Per-CPU variant naming the other task (the one coming in when
	 * switching out, the one going out when switching in):
	 * u32 next_prev_pid, next_prev_tid; sample_id
	 */
	PERF_RECORD_SWITCH_CPU_WIDE	= 15,

	/* u32 pid, tid; u64 nr_namespaces;
	 * struct perf_ns_link_info [nr_namespaces]; sample_id
	 */
	PERF_RECORD_NAMESPACES		= 16,

	/* A kernel symbol appeared, or went (KSYMBOL_FLAGS_UNREGISTER):
	 * u64 addr; u32 len; u16 ksym_type, flags; char name[]; sample_id
	 */
	PERF_RECORD_KSYMBOL		= 17,

	/* A BPF program was loaded or unloaded:
	 * u16 type (enum perf_bpf_event_type), flags; u32 id;
	 * u8 tag[BPF_TAG_SIZE]; sample_id
	 */
	PERF_RECORD_BPF_EVENT		= 18,

	/* A cgroup's id and path: u64 id; char path[]; sample_id */
	PERF_RECORD_CGROUP		= 19,

	/* Kernel code at addr was rewritten; bytes holds old_len old
	 * bytes then new_len new ones:
	 * u64 addr; u16 old_len, new_len; u8 bytes[]; sample_id
	 */
	PERF_RECORD_TEXT_POKE		= 20,

	/* Hardware id that tags this event's aux_output data in the AUX
	 * area: u64 hw_id; sample_id
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID	= 21,

	/* The user frames of samples that carried PERF_CONTEXT_USER_DEFERRED
	 * and this cookie in their callchain (attr.defer_callchain):
	 * u64 cookie; u64 nr; u64 ips[nr]; sample_id
	 */
	PERF_RECORD_CALLCHAIN_DEFERRED	= 22,

	PERF_RECORD_MAX
};

/* PERF_RECORD_KSYMBOL ksym_type. */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,	/* trampolines, kprobe copies */
	PERF_RECORD_KSYMBOL_TYPE_MAX
};

/* PERF_RECORD_KSYMBOL flags. */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	(1 << 0)

/* PERF_RECORD_BPF_EVENT type. */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX
};

/* PERF_RECORD_AUX flags. */
#define PERF_AUX_FLAG_TRUNCATED			0x01	/* cut short: no room */
#define PERF_AUX_FLAG_OVERWRITE			0x02	/* snapshot mode data */
#define PERF_AUX_FLAG_PARTIAL			0x04	/* has holes */
#define PERF_AUX_FLAG_COLLISION			0x08	/* data lost to a collision */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU's data format */

/* Values in the format field for Arm CoreSight. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000	/* formatted frames */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100	/* unformatted */

/* ====================================================================
 * 7. Contents of sample fields
 * ====================================================================
 */

/* Callchain limits: frames by default, context markers per chain. */
#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	8

/*
 * Markers in PERF_SAMPLE_CALLCHAIN ips[]: the addresses after one belong
 * to that context.  They sit at the top of the address space, where no
 * code lives.
 */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,
	PERF_CONTEXT_USER_DEFERRED	= (__u64)-640,	/* then a cookie */

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095
};

/*
 * PERF_SAMPLE_DATA_SRC: where a sampled memory access was served from.
 * Each field holds PERF_MEM_<FIELD>_* flags; PERF_MEM_S() puts one at its
 * place in val.  The field order flips with the bitfield order so that val
 * means the same on both byte orders.
 */
union perf_mem_data_src {
	__u64	val;
	struct {
#if defined(__LITTLE_ENDIAN_BITFIELD)
		__u64	mem_op		:  5;	/* PERF_MEM_OP_* */
		__u64	mem_lvl		: 14;	/* PERF_MEM_LVL_* */
		__u64	mem_snoop	:  5;	/* PERF_MEM_SNOOP_* */
		__u64	mem_lock	:  2;	/* PERF_MEM_LOCK_* */
		__u64	mem_dtlb	:  7;	/* PERF_MEM_TLB_* */
		__u64	mem_lvl_num	:  4;	/* PERF_MEM_LVLNUM_* */
		__u64	mem_remote	:  1;	/* PERF_MEM_REMOTE_* */
		__u64	mem_snoopx	:  2;	/* PERF_MEM_SNOOPX_* */
		__u64	mem_blk		:  3;	/* PERF_MEM_BLK_* */
		__u64	mem_hops	:  3;	/* PERF_MEM_HOPS_* */
		__u64	mem_region	:  5;	/* PERF_MEM_REGION_* */
		__u64	mem_rsvd	: 13;
#elif defined(__BIG_ENDIAN_BITFIELD)
		__u64	mem_rsvd	: 13;
		__u64	mem_region	:  5;
		__u64	mem_hops	:  3;
		__u64	mem_blk		:  3;
		__u64	mem_snoopx	:  2;
		__u64	mem_remote	:  1;
		__u64	mem_lvl_num	:  4;
		__u64	mem_dtlb	:  7;
		__u64	mem_lock	:  2;
		__u64	mem_snoop	:  5;
		__u64	mem_lvl		: 14;
		__u64	mem_op		:  5;
#else
#error "perf_event.h: asm/byteorder.h gave no bitfield order"
#endif
	};
};

/* mem_op, bits 0-4 */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl, bits 5-18: level plus hit/miss in one field.  Kept for old
 * users; new code describes the level with mem_lvl_num, mem_remote and
 * mem_snoopx.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* this node's DRAM */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* a cache one hop away */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* a cache two hops away */
#define PERF_MEM_LVL_IO		0x1000
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_snoop, bits 19-23 */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02
#define PERF_MEM_SNOOP_HIT	0x04
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_lock, bits 24-25 */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02	/* an atomic/locked access */
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb, bits 26-32 */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* page table walker */
#define PERF_MEM_TLB_OS		0x40	/* kernel page fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_lvl_num, bits 33-36: a number, not a set of flags */
#define PERF_MEM_LVLNUM_L1		0x01
#define PERF_MEM_LVLNUM_L2		0x02
#define PERF_MEM_LVLNUM_L3		0x03
#define PERF_MEM_LVLNUM_L4		0x04
#define PERF_MEM_LVLNUM_L2_MHB		0x05	/* MHB behind the L2 */
#define PERF_MEM_LVLNUM_MSC		0x06	/* memory-side cache */
#define PERF_MEM_LVLNUM_L0		0x07
#define PERF_MEM_LVLNUM_UNC		0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL		0x09	/* CXL memory */
#define PERF_MEM_LVLNUM_IO		0x0a
#define PERF_MEM_LVLNUM_ANY_CACHE	0x0b	/* some cache, level unknown */
#define PERF_MEM_LVLNUM_LFB		0x0c	/* fill buffer (MHB of the L1) */
#define PERF_MEM_LVLNUM_RAM		0x0d
#define PERF_MEM_LVLNUM_PMEM		0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA		0x0f	/* unknown */
#define PERF_MEM_LVLNUM_SHIFT		33

/* mem_remote, bit 37 */
#define PERF_MEM_REMOTE_REMOTE	0x01	/* on another node */
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_snoopx, bits 38-39 */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* from a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_blk, bits 40-42 */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* waited for data forwarding */
#define PERF_MEM_BLK_ADDR	0x04	/* waited on an address clash */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops, bits 43-45: how far away the serving cache was */
#define PERF_MEM_HOPS_0		0x01	/* other core, this node */
#define PERF_MEM_HOPS_1		0x02	/* other node, this socket */
#define PERF_MEM_HOPS_2		0x03	/* other socket, this board */
#define PERF_MEM_HOPS_3		0x04	/* other board */
#define PERF_MEM_HOPS_SHIFT	43

/* mem_region, bits 46-50: where the line lives; CA = coherence agent */
#define PERF_MEM_REGION_NA		0x00	/* not known */
#define PERF_MEM_REGION_RSVD		0x01
#define PERF_MEM_REGION_L_SHARE		0x02	/* this CA, a shared cache */
#define PERF_MEM_REGION_L_NON_SHARE	0x03	/* this CA, a private cache */
#define PERF_MEM_REGION_O_IO		0x04	/* another CA, I/O agent */
#define PERF_MEM_REGION_O_SHARE		0x05	/* another CA, a shared cache */
#define PERF_MEM_REGION_O_NON_SHARE	0x06	/* another CA, a private cache */
#define PERF_MEM_REGION_MMIO		0x07
#define PERF_MEM_REGION_MEM0		0x08	/* memory regions 0 to 7 */
#define PERF_MEM_REGION_MEM1		0x09
#define PERF_MEM_REGION_MEM2		0x0a
#define PERF_MEM_REGION_MEM3		0x0b
#define PERF_MEM_REGION_MEM4		0x0c
#define PERF_MEM_REGION_MEM5		0x0d
#define PERF_MEM_REGION_MEM6		0x0e
#define PERF_MEM_REGION_MEM7		0x0f
#define PERF_MEM_REGION_SHIFT		46

/* PERF_MEM_S(LVL, HIT): the value PERF_MEM_LVL_HIT placed in mem_lvl. */
#define PERF_MEM_S(a, s) \
	(((__u64)PERF_MEM_##a##_##s) << PERF_MEM_##a##_SHIFT)

/*
 * One taken branch of a PERF_SAMPLE_BRANCH_STACK.  Fields the hardware
 * cannot report read as zero (so mispred == predicted == 0 means "not
 * known").
 */
struct perf_branch_entry {
	__u64	from;			/* address of the branch */
	__u64	to;			/* where it went */
	__u64	mispred		:  1;	/* the prediction was wrong */
	__u64	predicted	:  1;	/* the prediction was right */
	__u64	in_tx		:  1;	/* inside a memory transaction */
	__u64	abort		:  1;	/* the branch aborted one */
	__u64	cycles		: 16;	/* cycles since the previous entry */
	__u64	type		:  4;	/* PERF_BR_* */
	__u64	spec		:  2;	/* PERF_BR_SPEC_* and friends */
	__u64	new_type	:  4;	/* PERF_BR_NEW_* */
	__u64	priv		:  3;	/* PERF_BR_PRIV_* */
	__u64	reserved	: 31;
};

/* Bits of the third word above that carry information. */
#define PERF_BRANCH_ENTRY_INFO_BITS_MAX		33

/*
 * PERF_SAMPLE_WEIGHT gives full; PERF_SAMPLE_WEIGHT_STRUCT splits the same
 * u64 into three PMU-defined parts, var1_dw in its low 32 bits.
 */
union perf_sample_weight {
	__u64	full;
	struct {
#if defined(__LITTLE_ENDIAN_BITFIELD)
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
#elif defined(__BIG_ENDIAN_BITFIELD)
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
#else
#error "perf_event.h: asm/byteorder.h gave no bitfield order"
#endif
	};
};

#endif /* _UAPI_LINUX_PERF_EVENT_H */
