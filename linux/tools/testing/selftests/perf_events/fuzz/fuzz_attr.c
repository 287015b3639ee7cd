// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: perf_event_attr generation, for every PMU the system has,
 * mostly plausible and sometimes not, and the attr as C text for the log.
 */
#include "fuzz.h"

/* ---- attrs ---------------------------------------------------------- */

#ifdef __x86_64__
static const char * const kprobe_syms[] = {
	"vfs_read", "vfs_write", "ksys_read", "do_sys_openat2", "do_sys_open",
	"__x64_sys_getppid", "__x64_sys_sched_yield", "schedule",
	"do_nanosleep", "handle_mm_fault", "do_exit", "kernel_clone",
	"perf_event_mmap", "perf_event_open", "kfree", "no_such_function",
	"__x64_sys_getpid", "",
};
#else
static const char * const kprobe_syms[] = {
	"vfs_read", "vfs_write", "ksys_read", "do_sys_openat2", "do_sys_open",
	"__arm64_sys_getppid", "__arm64_sys_sched_yield", "schedule",
	"do_nanosleep", "handle_mm_fault", "do_exit", "kernel_clone",
	"perf_event_mmap", "perf_event_open", "kfree", "no_such_function",
	"__arm64_sys_getpid", "",
};
#endif

static const char * const uprobe_paths[] = {
	"/proc/self/exe", "/proc/self/exe", "/proc/self/exe", "/bin/true",
	"/nonexistent", "", "/tmp",
};

void gen_breakpoint(struct worker *w, struct gattr *g)
{
	struct perf_event_attr *a = &g->a;
	static const __u32 bad_types[] = { 0, 5, 6, 7, 8, 0x10, ~0U };
	static const __u64 bad_lens[] = { 0, 3, 5, 7, 16, 64, ~0ULL };
	unsigned int r = rnd(w, 100), i;

	a->type = PERF_TYPE_BREAKPOINT;
	if (chance(w, 3))
		a->config = rnd_edge(w);
	if (r < 35)
		a->bp_type = HW_BREAKPOINT_W;
	else if (r < 60)
		a->bp_type = HW_BREAKPOINT_RW;
	else if (r < 75)
		a->bp_type = HW_BREAKPOINT_X;
	else if (r < 85)
		a->bp_type = HW_BREAKPOINT_R;
	else
		a->bp_type = PICK(w, bad_types);

	if (a->bp_type == HW_BREAKPOINT_X) {
#ifdef __x86_64__
		a->bp_len = chance(w, 85) ? sizeof(long) : 1UL << rnd(w, 4);
#else
		a->bp_len = chance(w, 85) ? HW_BREAKPOINT_LEN_4 : 1 << rnd(w, 4);
#endif
	} else {
		a->bp_len = chance(w, 85) ? 1ULL << rnd(w, 4) : PICK(w, bad_lens);
	}

	r = rnd(w, 100);
	if (a->bp_type == HW_BREAKPOINT_X && r < 75) {
		a->bp_addr = (uintptr_t)fz_bp_func;
		if (w->log)
			snprintf(g->c1, sizeof(g->c1), "(uintptr_t)fz_bp_func");
	} else if (r < 85) {
		unsigned int mis = chance(w, 10) ? 1 + rnd(w, 7) : 0;

		i = rnd(w, FZ_TARGETS);
		a->bp_addr = (uintptr_t)&fz_target[i] + mis;
		if (w->log)
			snprintf(g->c1, sizeof(g->c1),
				 "(uintptr_t)&fz_target[%u] + %u", i, mis);
	} else if (r < 90) {
		a->bp_addr = 0;
	} else if (r < 95) {
		a->bp_addr = sizeof(long) == 8 ? 0xffffffff81000000ULL : 0xc0008000;
	} else {
		a->bp_addr = rnd_edge(w);
	}
}

static void gen_kprobe(struct worker *w, struct gattr *g)
{
	struct perf_event_attr *a = &g->a;
	unsigned int r = rnd(w, 100), i;

	a->type = sys_info.pmu[sys_info.kprobe].type;
	a->config = chance(w, 20);		/* bit 0: retprobe */
	if (chance(w, 3))
		a->config = rnd_edge(w);
	if (r < 82) {
		i = rnd(w, ARRAY_SIZE(kprobe_syms));
		a->kprobe_func = (uintptr_t)kprobe_syms[i];
		if (w->log) {
			snprintf(g->c1, sizeof(g->c1), "(uintptr_t)\"%s\"",
				 kprobe_syms[i]);
		}
		a->probe_offset = chance(w, 85) ? 0 : PICK(w, ((__u64[]){
			1, 4, 8, 0x10, 0x1000, ~0ULL }));
	} else if (r < 92) {
		a->kprobe_func = 0;
		a->kprobe_addr = chance(w, 50) ? rnd_edge(w) :
			(sizeof(long) == 8 ? 0xffffffff81000000ULL : 0);
	} else {
		a->kprobe_func = PICK(w, ((__u64[]){ 1, 0xdead0000, ~0ULL }));
	}
}

static void gen_uprobe(struct worker *w, struct gattr *g)
{
	struct perf_event_attr *a = &g->a;
	unsigned int i, k;

	a->type = sys_info.pmu[sys_info.uprobe].type;
	a->config = chance(w, 20);		/* bit 0: retprobe */
	if (chance(w, 4))
		a->config |= (__u64)(rnd(w, 64) * 8) << 32;	/* ref_ctr_offset */
	if (chance(w, 5)) {
		a->uprobe_path = PICK(w, ((__u64[]){ 0, 1, 0xdead0000 }));
		return;
	}
	i = rnd(w, ARRAY_SIZE(uprobe_paths));
	a->uprobe_path = (uintptr_t)uprobe_paths[i];
	if (w->log)
		snprintf(g->c1, sizeof(g->c1), "(uintptr_t)\"%s\"", uprobe_paths[i]);
	if (i < 3 && chance(w, 90)) {
		static const int ks[] = { 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5 };

		k = PICK(w, ks);
		a->probe_offset = sys_info.uprobe_off[k];
		if (w->log)
			snprintf(g->c2, sizeof(g->c2), "fz_uprobe_off(%u)", k);
	} else if (i == 3) {
		a->probe_offset = rnd(w, 8192) & ~(chance(w, 80) ? 3 : 0);
	} else {
		a->probe_offset = rnd_edge(w);
	}
}

static void gen_type(struct worker *w, struct gattr *g)
{
	struct perf_event_attr *a = &g->a;
	unsigned int r = rnd(w, 100);
	struct pmu *p;

	if (r >= 68 && r < 77 && sys_info.kprobe < 0)
		r = 0;
	if (r >= 77 && r < 84 && sys_info.uprobe < 0)
		r = 0;
	if (r >= 84 && r < 97 && !sys_info.npmu)
		r = 0;
	if (r >= 22 && r < 36 && !sys_info.ntp)
		r = 0;

	if (r < 22) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = chance(w, 92) ? rnd(w, PERF_COUNT_SW_MAX) :
			rnd_edge(w);
	} else if (r < 36) {
		a->type = PERF_TYPE_TRACEPOINT;
		if (sys_info.nhot && chance(w, 50))
			a->config = sys_info.hot[rnd(w, sys_info.nhot)];
		else if (chance(w, 93))
			a->config = sys_info.tp[rnd(w, sys_info.ntp)];
		else
			a->config = rnd_edge(w);
	} else if (r < 48) {
		gen_breakpoint(w, g);
	} else if (r < 58) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = rnd(w, PERF_COUNT_HW_MAX);
		if (chance(w, 10) && sys_info.npmu)
			a->config |= (__u64)sys_info.pmu[rnd(w, sys_info.npmu)].type
				<< PERF_PMU_TYPE_SHIFT;
		else if (chance(w, 5))
			a->config = rnd_edge(w);
	} else if (r < 63) {
		a->type = PERF_TYPE_HW_CACHE;
		a->config = rnd(w, PERF_COUNT_HW_CACHE_MAX) |
			rnd(w, PERF_COUNT_HW_CACHE_OP_MAX) << 8 |
			rnd(w, PERF_COUNT_HW_CACHE_RESULT_MAX) << 16;
		if (chance(w, 12))
			a->config = rnd_edge(w);
	} else if (r < 68) {
		a->type = PERF_TYPE_RAW;
#ifdef __x86_64__
		a->config = rnd(w, 256) | rnd(w, 256) << 8;
#else
		a->config = chance(w, 70) ? rnd(w, 0x40) : rnd(w, 0x10000);
#endif
		if (chance(w, 15))
			a->config = rnd_edge(w);
	} else if (r < 77) {
		gen_kprobe(w, g);
	} else if (r < 84) {
		gen_uprobe(w, g);
	} else if (r < 97) {
		p = &sys_info.pmu[rnd(w, sys_info.npmu)];
		a->type = p->type;
		a->config = chance(w, 60) ? rnd(w, 64) : rnd_edge(w);
		if (chance(w, 20))
			a->config1 = rnd_edge(w);
		if (chance(w, 10))
			a->config2 = rnd_edge(w);
	} else {
		a->type = chance(w, 50) ? PERF_TYPE_MAX + rnd(w, 64) :
			(__u32)rnd_edge(w);
		a->config = rnd_edge(w);
	}
}

/* Each of the low @nbits bits set with @pct percent chance. */
static __u64 gen_bits(struct worker *w, unsigned int nbits, unsigned int pct)
{
	__u64 v = 0;
	unsigned int i;

	for (i = 0; i < nbits; i++)
		if (chance(w, pct))
			v |= 1ULL << i;
	return v;
}

/* Register masks for sample_regs_*: the first ones are valid. */
#ifdef __x86_64__
#define GOOD_REGS	3
static const __u64 regs[] = {
	1ULL << 8, 0x1ff, 0xff0fff, 0xffffff, 1ULL << 24, ~0ULL, 0x3ff,
	0xffff00000000ULL,
};
#else
#define GOOD_REGS	3
static const __u64 regs[] = {
	1ULL << 32, (1ULL << 33) - 1, 0xffffffffULL, 1ULL << 33,
	1ULL << 46, ~0ULL, 0x7,
};
#endif

/* Flags a caller could mean: each rare, and no combination the ABI refuses. */
void gen_flags(struct worker *w, struct perf_event_attr *a)
{
	a->disabled = chance(w, 35);
	a->inherit = chance(w, 20);
	a->pinned = chance(w, 3);
	a->exclusive = chance(w, 2);
	a->exclude_user = chance(w, 4);
	a->exclude_kernel = chance(w, 20);
	a->exclude_hv = chance(w, 30);
	a->exclude_idle = chance(w, 3);
	a->mmap = chance(w, 8);
	a->comm = chance(w, 8);
	a->inherit_stat = a->inherit && chance(w, 15);
	a->task = chance(w, 6);
	a->watermark = chance(w, 6);
	a->precise_ip = chance(w, 4);
	a->mmap_data = chance(w, 4);
	a->sample_id_all = chance(w, 25);
	a->exclude_callchain_kernel = chance(w, 3);
	a->exclude_callchain_user = chance(w, 3);
	a->mmap2 = chance(w, 6);
	a->comm_exec = chance(w, 4);
	a->use_clockid = chance(w, 6);
	a->context_switch = chance(w, 6);
	a->write_backward = chance(w, 4);
	a->namespaces = chance(w, 3);
	a->ksymbol = chance(w, 3);
	a->bpf_event = chance(w, 3);
	a->cgroup = chance(w, 3);
	a->text_poke = chance(w, 2);
	a->build_id = a->mmap2 && chance(w, 20);
	a->inherit_thread = a->inherit && chance(w, 20);
	if (chance(w, 6))
		a->remove_on_exec = 1;
	else
		a->enable_on_exec = chance(w, 6);
	if (chance(w, 6)) {
		a->sigtrap = 1;
		a->remove_on_exec = 1;
		a->enable_on_exec = 0;
	}
}

/* Sampling fields a caller could mean. */
void gen_sampling(struct worker *w, struct perf_event_attr *a)
{
	static const __u64 periods[] = {
		1, 2, 3, 10, 100, 1000, 10000, 100000, 1000000, 1ULL << 31,
	};
	static const __u64 freqs[] = { 1, 10, 100, 1000, 4000 };
	static const __u32 stacks[] = { 8, 64, 512, 4096, 8192, 65528 };
	static const int clocks[] = { 0, 1, 4, 7, 11 };
	/* Sample bits that need nothing else (not BRANCH_STACK, REGS_*, */
	/* STACK_USER, AUX, WEIGHT_STRUCT). */
	const __u64 easy = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
		PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT |
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_IDENTIFIER |
		PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
		PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE;

	if (chance(w, 60)) {
		a->freq = chance(w, 20);
		a->sample_period = a->freq ? PICK(w, freqs) : PICK(w, periods);
		a->sample_type = gen_bits(w, 25, 30) & easy;
		if (chance(w, 12)) {
			a->sample_type |= PERF_SAMPLE_REGS_USER;
			a->sample_regs_user = regs[rnd(w, GOOD_REGS)];
		}
		if (chance(w, 12)) {
			a->sample_type |= PERF_SAMPLE_STACK_USER;
			a->sample_stack_user = PICK(w, stacks);
		}
		if (chance(w, 5)) {
			a->sample_type |= PERF_SAMPLE_REGS_INTR;
			a->sample_regs_intr = regs[rnd(w, GOOD_REGS)];
		}
		if (chance(w, 5)) {
			a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				gen_bits(w, PERF_SAMPLE_BRANCH_MAX_SHIFT, 15);
		}
		if (chance(w, 10))
			a->sample_max_stack = 1 + rnd(w, 127);
		if (chance(w, 20)) {
			if (a->watermark)
				a->wakeup_watermark = 4096 << rnd(w, 4);
			else
				a->wakeup_events = 1 + rnd(w, 16);
		}
	}
	a->read_format = gen_bits(w, 5, 35);
	if (a->inherit && (a->sample_type & PERF_SAMPLE_READ))
		a->sample_type |= PERF_SAMPLE_TID;
	if (a->use_clockid)
		a->clockid = PICK(w, clocks);
	if (a->sigtrap)
		a->sig_data = rnd64(w);
}

/* Wild flags: any bit, reserved ones too. */
static void gen_flags_wild(struct worker *w, struct perf_event_attr *a)
{
	a->disabled = chance(w, 40);
	a->inherit = chance(w, 20);
	a->pinned = chance(w, 5);
	a->exclusive = chance(w, 5);
	a->exclude_user = chance(w, 8);
	a->exclude_kernel = chance(w, 25);
	a->exclude_hv = chance(w, 30);
	a->exclude_idle = chance(w, 5);
	a->mmap = chance(w, 10);
	a->comm = chance(w, 10);
	a->freq = 0;
	a->inherit_stat = chance(w, 5);
	a->enable_on_exec = chance(w, 8);
	a->task = chance(w, 8);
	a->watermark = chance(w, 8);
	a->precise_ip = chance(w, 12) ? rnd(w, 4) : 0;
	a->mmap_data = chance(w, 5);
	a->sample_id_all = chance(w, 20);
	a->exclude_host = chance(w, 4);
	a->exclude_guest = chance(w, 4);
	a->exclude_callchain_kernel = chance(w, 5);
	a->exclude_callchain_user = chance(w, 5);
	a->mmap2 = chance(w, 8);
	a->comm_exec = chance(w, 5);
	a->use_clockid = chance(w, 8);
	a->context_switch = chance(w, 8);
	a->write_backward = chance(w, 5);
	a->namespaces = chance(w, 5);
	a->ksymbol = chance(w, 5);
	a->bpf_event = chance(w, 5);
	a->aux_output = chance(w, 3);
	a->cgroup = chance(w, 5);
	a->text_poke = chance(w, 3);
	a->build_id = chance(w, 3);
	a->inherit_thread = chance(w, 5);
	if (a->inherit_thread && chance(w, 80))
		a->inherit = 1;
	a->remove_on_exec = chance(w, 8);
	a->sigtrap = chance(w, 6);
	if (a->sigtrap && chance(w, 85))
		a->remove_on_exec = 1;
	a->defer_callchain = chance(w, 2);
	a->defer_output = chance(w, 2);
	if (chance(w, 1))
		a->__reserved_1 = rnd64(w);
}

/* Wild sampling fields: edges, invalid bits, combinations the ABI refuses. */
static void gen_sampling_wild(struct worker *w, struct perf_event_attr *a)
{
	static const __u64 periods[] = {
		1, 1, 2, 3, 10, 100, 1000, 10000, 100000, 1000000,
		1ULL << 31, 1ULL << 62, (1ULL << 63) - 1, 1ULL << 63, ~0ULL,
	};
	static const __u64 freqs[] = {
		1, 2, 10, 100, 1000, 4000, 10000, 100000, 1000000,
		1ULL << 31, 1ULL << 63, ~0ULL,
	};
	static const __u32 wakeups[] = { 0, 1, 2, 8, 100, 4096, 1 << 20, ~0U };
	static const __u32 stacks[] = {
		8, 64, 512, 4096, 8192, 65528, 65536, 7, 12, ~0U,
	};
	static const int clocks[] = { 0, 1, 4, 7, 11, 2, 3, 5, 6, 12, -1, 100 };

	if (chance(w, 55)) {
		a->freq = chance(w, 25);
		a->sample_period = a->freq ? PICK(w, freqs) : PICK(w, periods);
		if (chance(w, 3))
			a->sample_period = rnd_edge(w);
	}
	if (a->sample_period || chance(w, 30)) {
		a->sample_type = gen_bits(w, 25, 25);
		if (chance(w, 4))
			a->sample_type |= 1ULL << (25 + rnd(w, 39));
		if (chance(w, 2))
			a->sample_type = ~0ULL;
	}
	a->read_format = gen_bits(w, 5, 35);
	if (chance(w, 3))
		a->read_format |= 1ULL << (5 + rnd(w, 59));
	if (chance(w, 20)) {
		if (a->watermark)
			a->wakeup_watermark = PICK(w, wakeups);
		else
			a->wakeup_events = PICK(w, wakeups);
	}
	if (chance(w, 12)) {
		a->branch_sample_type = gen_bits(w, PERF_SAMPLE_BRANCH_MAX_SHIFT, 30);
		if (chance(w, 10))
			a->branch_sample_type |= 1ULL << (PERF_SAMPLE_BRANCH_MAX_SHIFT +
						  rnd(w, 64 - PERF_SAMPLE_BRANCH_MAX_SHIFT));
	}
	if (chance(w, 15))
		a->sample_regs_user = PICK(w, regs);
	if (chance(w, 8))
		a->sample_regs_intr = PICK(w, regs);
	if (chance(w, 15))
		a->sample_stack_user = PICK(w, stacks);
	if (a->use_clockid || chance(w, 2))
		a->clockid = PICK(w, clocks);
	if (chance(w, 8))
		a->aux_watermark = chance(w, 70) ? 4096U << rnd(w, 8) :
			(__u32)rnd_edge(w);
	if (chance(w, 8))
		a->sample_max_stack =
			PICK(w, ((__u16[]){ 0, 1, 8, 127, 128, 1000, 0xffff }));
	/* period_random_bits, an extension of ours, shares __reserved_2 */
	if (chance(w, 2))
		a->__reserved_2 = chance(w, 70) ? 1 + rnd(w, 20) :
			1 + rnd(w, 0xfffe);
	if (chance(w, 6)) {
		a->aux_sample_size =
			PICK(w, ((__u32[]){ 0, 8, 4096, 65536, 1 << 20, ~0U }));
		if (chance(w, 60))
			a->sample_type |= PERF_SAMPLE_AUX;
	}
	if (chance(w, 4))
		a->aux_action = chance(w, 80) ? 1 + rnd(w, 7) : (__u32)rnd64(w);
	if (a->sigtrap || chance(w, 5))
		a->sig_data = rnd_edge(w);
	if (chance(w, 4))
		a->config3 = rnd_edge(w);
}

static void gen_size(struct worker *w, struct gattr *g)
{
	static const __u32 vers[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7, PERF_ATTR_SIZE_VER8,
		PERF_ATTR_SIZE_VER9,
	};
	static const __u32 bad[] = { 0, 0, 1, 32, 63, 65, 4097, 8192, ~0U };
	unsigned int r = rnd(w, 100);

	g->alloc = sizeof(g->a);
	g->tail = 0;
	if (r < 78) {
		g->a.size = sizeof(g->a);
	} else if (r < 88) {
		g->a.size = PICK(w, vers);
	} else if (r < 95) {
		g->a.size = sizeof(g->a) + 8 * (1 + rnd(w, 16));
		if (chance(w, 30))
			g->a.size = sizeof(g->a) + rnd(w, 4096 - sizeof(g->a) + 1);
		g->alloc = g->a.size;
		if (r >= 92)
			g->tail = 1 + rnd(w, 0xffffff);
	} else {
		g->a.size = PICK(w, bad);
	}
}

/* Three attrs in four are plausible, the fourth anything at all. */
void gen_attr(struct worker *w, struct gattr *g)
{
	int wild = chance(w, 25);

	memset(g, 0, sizeof(*g));
	gen_type(w, g);
	if (wild) {
		gen_flags_wild(w, &g->a);
		gen_sampling_wild(w, &g->a);
		gen_size(w, g);
		g->null = chance(w, 3);
	} else {
		gen_flags(w, &g->a);
		gen_sampling(w, &g->a);
		g->a.size = chance(w, 90) ? sizeof(g->a) : PERF_ATTR_SIZE_VER5;
		g->alloc = sizeof(g->a);
	}
}

/*
 * One field of lg_attr()'s compound literal, unless it is zero; @expr is
 * "a->field", and the field's name follows the arrow.
 */
static void lg_field(struct worker *w, const char *expr, __u64 v)
{
	const char *name = strstr(expr, "->");

	if (v)
		lg(w, " .%s = %#llx,", name ? name + 2 : expr,
		   (unsigned long long)v);
}

/* The attr as a compound literal, fields that are zero left out. */
void lg_attr(struct worker *w, const struct gattr *g)
{
	const struct perf_event_attr *a = &g->a;

	if (g->null) {
		lg(w, "NULL");
		return;
	}
	lg(w, "&(struct perf_event_attr){");
#define F(f)	lg_field(w, #f, f)
	F(a->type); F(a->size); F(a->config); F(a->sample_period);
	F(a->sample_type); F(a->read_format); F(a->disabled); F(a->inherit);
	F(a->pinned); F(a->exclusive); F(a->exclude_user); F(a->exclude_kernel);
	F(a->exclude_hv); F(a->exclude_idle); F(a->mmap); F(a->comm);
	F(a->freq); F(a->inherit_stat); F(a->enable_on_exec); F(a->task);
	F(a->watermark); F(a->precise_ip); F(a->mmap_data); F(a->sample_id_all);
	F(a->exclude_host); F(a->exclude_guest); F(a->exclude_callchain_kernel);
	F(a->exclude_callchain_user); F(a->mmap2); F(a->comm_exec);
	F(a->use_clockid); F(a->context_switch); F(a->write_backward);
	F(a->namespaces); F(a->ksymbol); F(a->bpf_event); F(a->aux_output);
	F(a->cgroup); F(a->text_poke); F(a->build_id); F(a->inherit_thread);
	F(a->remove_on_exec); F(a->sigtrap); F(a->defer_callchain);
	F(a->defer_output); F(a->__reserved_1); F(a->wakeup_events);
	F(a->bp_type);
	if (g->c1[0])
		lg(w, " .config1 = %s,", g->c1);
	else
		F(a->config1);
	if (g->c2[0])
		lg(w, " .config2 = %s,", g->c2);
	else
		F(a->config2);
	F(a->branch_sample_type); F(a->sample_regs_user);
	F(a->sample_stack_user);
	if (a->clockid)
		lg(w, " .clockid = %d,", a->clockid);
	F(a->sample_regs_intr); F(a->aux_watermark); F(a->sample_max_stack);
	F(a->__reserved_2); F(a->aux_sample_size); F(a->aux_action);
	F(a->sig_data); F(a->config3); F(a->config4);
#undef F
	lg(w, " }");
}
