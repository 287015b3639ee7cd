// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) under unlucky and hostile use: counts that jump under
 * a frequency event, software events in hardware groups, opens that fail
 * half-way, user-space counter access.  Each test is a reproducer of a
 * kernel fault (a trap, a hung CPU, an event left where it does not
 * belong): passing means the kernel stayed healthy and the event still
 * counts as documented.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define REC_MAX	8192
#define TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* A hardware event of this task, or -1 with errno where there is no PMU. */
static int open_hw(__u64 config, int group_fd, int pinned, int exclusive)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	attr.read_format = TIMES;
	attr.pinned = pinned;
	attr.exclusive = exclusive;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

static int no_hw_pmu(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

/*
 * A frequency event's count going back (RESET), its frequency changed and
 * its being switched off and on, across many ticks: the tick derives the
 * next period from the count since the last tick, and a count that went
 * back is a delta of nearly 2^64 events.
 */
TEST(freq_event_count_jumps)
{
	struct perf_event_attr attr;
	__u64 freqs[] = { 1, 4000, 100, 1000 };
	long long end;
	__u64 v;
	int fd, i;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults at 1000 Hz: %s", strerror(errno));

	/* well past a second of ticks, whatever HZ is */
	end = monotonic_ns() + 1500LL * 1000 * 1000;
	for (i = 0; monotonic_ns() < end; i++) {
		ASSERT_EQ(0, fault_n(64));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		/*
		 * A frequency above kernel.perf_event_max_sample_rate is
		 * EINVAL, and the kernel lowers that limit when sampling
		 * interrupts take long (a loaded debug guest).
		 */
		if (i % 8 == 3 &&
		    ioctl(fd, PERF_EVENT_IOC_PERIOD, &freqs[(i / 8) % 4])) {
			int max_rate = 0;

			ASSERT_EQ(EINVAL, errno);
			ASSERT_EQ(0, read_int("/proc/sys/kernel/perf_event_max_sample_rate",
					      &max_rate));
			ASSERT_LT(max_rate, freqs[(i / 8) % 4]);
		}
		if (i % 16 == 7) {
			ASSERT_EQ(0, disable(fd));
			ASSERT_EQ(0, enable(fd));
		}
	}

	/* it still counts, from the last reset */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, fault_n(32));
	v = read_value(fd);
	TH_LOG("%d rounds; 32 faults counted as %llu", i,
	       (unsigned long long)v);
	EXPECT_GE(v, 32);
	EXPECT_LT(v, 1000);
	close(fd);
}

/*
 * A software event in a hardware group is scheduled by the hardware PMU.
 * Its own (software) PMU's per-CPU state must not be pointed at the
 * hardware group's sub-context: once the task has left that CPU, a
 * reschedule of the software PMU there (a CPU-wide exclusive software
 * group that does not fit) would put the task's group on a CPU it does
 * not run on, linking the software event into two CPUs' lists.
 */
TEST(software_sibling_of_hardware_group)
{
	struct perf_event_attr attr;
	__u64 v[3], before;
	int lead, sib, cpu_ev[2], i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs online");
	if (geteuid())
		SKIP(return, "CPU-wide events: needs root");
	ASSERT_EQ(0, pin_to_cpu(0, 1));
	lead = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, 0, 0);
	if (lead < 0 && no_hw_pmu(errno))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_GE(lead, 0) TH_LOG("cycles: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = TIMES;
	sib = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(sib, 0) TH_LOG("page-faults in the group: %s",
				 strerror(errno));

	/* leave CPU 1; then make its software PMU reschedule */
	ASSERT_EQ(0, pin_to_cpu(0, 0));
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	cpu_ev[0] = sys_perf_event_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(cpu_ev[0], 0) TH_LOG("CPU 1 page-faults: %s",
				       strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
	attr.exclusive = 1;
	cpu_ev[1] = sys_perf_event_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(cpu_ev[1], 0) TH_LOG("CPU 1 exclusive: %s",
				       strerror(errno));

	/* the group runs with the task, wherever it goes */
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, pin_to_cpu(0, i % 2));
		ASSERT_EQ(0, fault_n(16));
	}
	ASSERT_EQ(sizeof(v), read(sib, v, sizeof(v)));
	before = v[0];
	ASSERT_EQ(0, fault_n(100));
	ASSERT_EQ(sizeof(v), read(sib, v, sizeof(v)));
	TH_LOG("page-faults %llu, then %llu; enabled %llu running %llu",
	       (unsigned long long)before, (unsigned long long)v[0],
	       (unsigned long long)v[1], (unsigned long long)v[2]);
	EXPECT_GE(before, 8 * 16);
	EXPECT_GE(v[0] - before, 100);
	EXPECT_LT(v[0] - before, 1000);
	close(cpu_ev[1]);
	close(cpu_ev[0]);
	close(sib);
	close(lead);
}

/*
 * A hardware event joining a software-only group moves the group to the
 * hardware PMU.  An open that then fails (here: PERF_FLAG_FD_OUTPUT to a
 * leader with no buffer, refused after the group checks) must leave the
 * group where it was: a software group moved to the hardware PMU could
 * no longer go on beside an exclusive hardware group.
 */
TEST(failed_open_leaves_group_in_place)
{
	struct perf_event_attr attr;
	int lead, excl, fd;
	__u64 v[3];

	excl = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, 0, 0);
	if (excl < 0 && no_hw_pmu(errno))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_GE(excl, 0) TH_LOG("cycles: %s", strerror(errno));
	close(excl);

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = TIMES;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("page-faults: %s", strerror(errno));

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	fd = sys_perf_event_open(&attr, 0, -1, lead, PERF_FLAG_FD_OUTPUT);
	ASSERT_LT(fd, 0);
	EXPECT_EQ(EINVAL, errno);

	excl = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, 1, 1);
	ASSERT_GE(excl, 0) TH_LOG("pinned exclusive cycles: %s",
				  strerror(errno));
	ASSERT_EQ(0, fault_n(64));
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	TH_LOG("page-faults %llu, enabled %llu, running %llu",
	       (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2]);
	EXPECT_GE(v[0], 64);
	EXPECT_EQ(v[1], v[2]);
	close(excl);
	close(lead);
}

/*
 * The same move with the group running (the opener's own task, so its
 * context is active where the open runs): every member comes off the
 * software PMU and goes back on with the new one, each exactly once, and
 * keeps counting.  (A member put on the PMU before it is back in the
 * context shows as a WARNING in the kernel log, which make test checks.)
 */
TEST(group_moves_to_hardware_while_running)
{
	struct {
		__u64 nr, enabled, running;
		__u64 value[4];
	} gr;
	struct perf_event_attr attr;
	int fd[4], i;

	fd[0] = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, 0, 0);
	if (fd[0] < 0 && no_hw_pmu(errno))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_GE(fd[0], 0) TH_LOG("cycles: %s", strerror(errno));
	close(fd[0]);

	for (i = 0; i < 3; i++) {
		sw_attr(&attr, i == 2 ? PERF_COUNT_SW_TASK_CLOCK :
					PERF_COUNT_SW_PAGE_FAULTS);
		attr.read_format = PERF_FORMAT_GROUP | TIMES;
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		ASSERT_GE(fd[i], 0) TH_LOG("member %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, fault_n(16));
	fd[3] = open_hw(PERF_COUNT_HW_CPU_CYCLES, fd[0], 0, 0);
	ASSERT_GE(fd[3], 0) TH_LOG("cycles joining: %s", strerror(errno));

	ASSERT_EQ(0, fault_n(64));
	ASSERT_EQ(sizeof(gr), read(fd[0], &gr, sizeof(gr)));
	TH_LOG("faults %llu/%llu, task-clock %llu, cycles %llu, enabled %llu, running %llu",
	       (unsigned long long)gr.value[0], (unsigned long long)gr.value[1],
	       (unsigned long long)gr.value[2], (unsigned long long)gr.value[3],
	       (unsigned long long)gr.enabled, (unsigned long long)gr.running);
	EXPECT_EQ(4, gr.nr);
	EXPECT_EQ(gr.value[0], gr.value[1]);
	EXPECT_GE(gr.value[0], 80);
	EXPECT_GT(gr.value[2], 0);
	EXPECT_LE(gr.value[2], gr.enabled);
	EXPECT_GT(gr.value[3], 0);
	/* nothing else wants the PMU: the group ran all along */
	EXPECT_LE(gr.running, gr.enabled);
	EXPECT_GE(gr.running, gr.enabled - gr.enabled / 10);
	for (i = 3; i >= 0; i--)
		close(fd[i]);
}

/* A word that looks like a kernel address (and is no callchain marker). */
static int kernel_address(__u64 w)
{
	return w >= 0xffff800000000000ULL && w < (__u64)-4096;
}

/*
 * What an unprivileged user monitoring itself at perf_event_paranoid 2
 * reads from its buffer; the number of records, -1 on an error, or -2 if
 * a word of a record looks like a kernel address.
 */
static int unprivileged_records(void)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	int fd, n = 0, i;
	struct ring r;
	pid_t pid;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ |
			   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT |
			   PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_IDENTIFIER;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	attr.exclude_kernel = 1;
	attr.exclude_callchain_kernel = 1;
	attr.exclude_hv = 1;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.comm = 1;
	attr.task = 1;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 || ring_map(&r, fd, 16, PROT_READ | PROT_WRITE)) {
		fprintf(stderr, "# %s: %s\n", fd < 0 ? "open" : "mmap",
			strerror(errno));
		return -1;
	}
	enable(fd);
	fault_n(32);
	mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid = fork();
	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	usleep(1000);
	disable(fd);
	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		for (i = 1; i < h->size / 8; i++) {
			if (kernel_address(buf[i])) {
				fprintf(stderr,
					"# record type %u word %d: %#llx\n",
					h->type, i, (unsigned long long)buf[i]);
				return -2;
			}
		}
		n++;
	}
	return r.bad ? -1 : n;
}

/*
 * At perf_event_paranoid 2 an unprivileged user's own samples and records
 * (every sample field it may ask for, mmap, comm, task, switch records)
 * carry no kernel address.
 */
TEST(no_kernel_address_at_paranoid_2)
{
	const char *paranoid = "/proc/sys/kernel/perf_event_paranoid";
	int old, status, n;
	pid_t pid;

	if (geteuid()) {
		n = unprivileged_records();
		ASSERT_GT(n, 0) TH_LOG("%s", n == -2 ? "kernel address" :
				       strerror(errno));
		return;
	}
	ASSERT_EQ(0, read_int(paranoid, &old));
	ASSERT_EQ(0, write_int(paranoid, 2));
	pid = fork();
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		n = unprivileged_records();
		fprintf(stderr, "# %d records\n", n);
		_exit(n > 0 ? 0 : n == -2 ? 2 : 1);
	}
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int(paranoid, old);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_NE(2, WEXITSTATUS(status)) TH_LOG("a kernel address");
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A buffer of 1 + @data pages on a new dummy event of this task. */
static void *map_dummy(int *fd, int data)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	void *p;

	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.exclude_kernel = 1;
	*fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (*fd < 0)
		return NULL;
	p = mmap(NULL, (1 + data) * page, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int pow2_floor(int n)
{
	int p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

/*
 * The unprivileged side of mlock_allowance_enforced: @allow pages in all.
 * Returns 0, or the number of the step that went wrong.
 */
static int mlock_steps(int allow)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rlimit none = { 0, 0 };
	int a, b, c, d = allow / 2, small = pow2_floor(allow - allow / 2 - 2);
	void *pa, *pb, *pc;

	if (setrlimit(RLIMIT_MEMLOCK, &none))
		return 10;
	pa = map_dummy(&a, d);			/* d + 1 pages: within */
	if (!pa)
		return 1;
	pb = map_dummy(&b, d);			/* 2d + 2 > allow */
	if (pb || errno != EPERM)
		return 2;
	close(b);
	pb = map_dummy(&c, small);		/* what is left still fits */
	if (!pb)
		return 3;
	pc = map_dummy(&b, d);			/* nothing left */
	if (pc || errno != EPERM)
		return 4;
	close(b);
	munmap(pa, (1 + d) * page);		/* gives its d + 1 back */
	pc = map_dummy(&b, d);
	if (!pc)
		return 5;
	munmap(pb, (1 + small) * page);
	munmap(pc, (1 + d) * page);
	close(a);
	close(b);
	close(c);
	return 0;
}

/*
 * perf_event_mlock_kb is what each user may have in ring buffers (counting
 * their control pages), per online CPU; past it the pages count against
 * RLIMIT_MEMLOCK, and a user without CAP_IPC_LOCK and with none of that
 * left gets EPERM.  Unmapping a buffer gives its pages back.
 */
TEST(mlock_allowance_enforced)
{
	const char *paranoid = "/proc/sys/kernel/perf_event_paranoid";
	const char *mlock_kb = "/proc/sys/kernel/perf_event_mlock_kb";
	long page = sysconf(_SC_PAGESIZE);
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	int old_paranoid, old_kb, status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root to set perf_event_mlock_kb");
	ASSERT_EQ(0, read_int(paranoid, &old_paranoid));
	ASSERT_EQ(0, read_int(mlock_kb, &old_kb));
	ASSERT_EQ(0, write_int(paranoid, 2));
	ASSERT_EQ(0, write_int(mlock_kb, 4 * page / 1024));	/* 4 pages a CPU */
	pid = fork();
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(20);
		_exit(mlock_steps(4 * ncpus));
	}
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int(mlock_kb, old_kb);
	write_int(paranoid, old_paranoid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("step %d of %d pages", WEXITSTATUS(status),
						 4 * ncpus);
}

#ifdef __aarch64__
static sigjmp_buf sigill_jmp;

static void on_sigill(int sig)
{
	siglongjmp(sigill_jmp, 1);
}

/* The counter the control page names (index - 1), read at EL0. */
static __u64 read_pmu_counter(unsigned int idx)
{
	__u64 v;

	if (idx == 31) {
		asm volatile("mrs %0, pmccntr_el0" : "=r" (v));
		return v;
	}
	asm volatile("msr pmselr_el0, %0" : : "r" ((__u64)idx));
	asm volatile("isb" : : : "memory");
	asm volatile("mrs %0, pmxevcntr_el0" : "=r" (v));
	return v;
}
#endif

/*
 * arm64: with /proc/sys/kernel/perf_user_access set, a task whose event
 * asks for it (format "rdpmc") may read the counter the control page
 * names without a system call.  The driver opens EL0 access only while
 * the running task's context has such an event (ctx->nr_user).
 */
TEST(user_counter_access)
{
#ifdef __aarch64__
	const char *sysctl = "/proc/sys/kernel/perf_user_access";
	const char *fmt = "/sys/bus/event_source/devices/*/format/rdpmc";
	glob_t g;
	struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	int fd, saved, bit, got_sigill;
	__u64 v = 0;
	FILE *f;

	if (read_int(sysctl, &saved))
		SKIP(return, "no %s", sysctl);
	if (glob(fmt, 0, NULL, &g) || !g.gl_pathc)
		SKIP(return, "no PMU with an rdpmc format");
	f = fopen(g.gl_pathv[0], "r");
	globfree(&g);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "config1:%d", &bit));
	fclose(f);
	if (geteuid())
		SKIP(return, "sets %s: needs root", sysctl);
	ASSERT_EQ(0, write_int(sysctl, 1));

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.config1 = 1ULL << bit;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		write_int(sysctl, saved);
		ASSERT_GE(fd, 0) TH_LOG("cycles with rdpmc: %s",
					strerror(errno));
	}
	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, pc) TH_LOG("mmap: %s", strerror(errno));
	sched_yield();
	burn_cpu(1000 * 1000);

	sigaction(SIGILL, &sa, &old);
	got_sigill = sigsetjmp(sigill_jmp, 1);
	if (!got_sigill && pc->cap_user_rdpmc && pc->index)
		v = read_pmu_counter(pc->index - 1);
	sigaction(SIGILL, &old, NULL);
	TH_LOG("cap_user_rdpmc %u, index %u, counter %llu%s",
	       (unsigned int)pc->cap_user_rdpmc, pc->index,
	       (unsigned long long)v, got_sigill ? ", SIGILL" : "");
	EXPECT_EQ(1, (int)pc->cap_user_rdpmc);
	EXPECT_NE(0, pc->index);
	EXPECT_FALSE(got_sigill);
	EXPECT_NE(0, v);

	munmap(pc, getpagesize());
	close(fd);
	write_int(sysctl, saved);
#else
	SKIP(return, "arm64 only");
#endif
}

#if defined(__x86_64__)
/* An instruction x86's uprobes refuse to step over: int3 (see below). */
static void __attribute__((naked)) robustness_int3(void)
{
	__asm__("int3\n\tret");
}

/* The offset in this program's file of the text at @addr, or -1. */
static long file_offset_of(unsigned long addr)
{
	unsigned long start, end, pgoff;
	char line[512], perms[8];
	long off = -1;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (off < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms,
			   &pgoff) == 4 && addr >= start && addr < end &&
		    perms[2] == 'x')
			off = addr - start + pgoff;
	}
	fclose(f);
	return off;
}
#endif

/*
 * A uprobe on an instruction the arch cannot probe: x86's instruction
 * check refuses int3 with ENOTSUPP (524), a code that is the kernel's own
 * and that no C library can name.  Our perf_event_open() says EOPNOTSUPP
 * instead, as for any other operation a PMU does not support (mainline
 * lets 524 out: a deliberate difference, README).
 */
TEST(uprobe_on_refused_instruction_eopnotsupp)
{
#if defined(__x86_64__)
	static const char path[] = "/proc/self/exe";
	struct perf_event_attr attr;
	long off;
	int type, fd;

	if (read_int("/sys/bus/event_source/devices/uprobe/type", &type))
		SKIP(return, "no uprobe PMU (CONFIG_UPROBE_EVENTS)");
	if (geteuid() != 0)
		SKIP(return, "a uprobe needs CAP_SYS_ADMIN");
	off = file_offset_of((unsigned long)robustness_int3);
	ASSERT_GE(off, 0) TH_LOG("robustness_int3 is in no mapping of a file");
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config1 = (__u64)(unsigned long)path;	/* uprobe_path */
	attr.config2 = off;				/* probe_offset */
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	ASSERT_LT(fd, 0) TH_LOG("a uprobe on int3 was accepted");
	EXPECT_EQ(EOPNOTSUPP, errno) TH_LOG("errno %d (%s)", errno,
					    strerror(errno));
#else
	SKIP(return, "x86_64 only (its uprobes refuse int3)");
#endif
}

TEST_HARNESS_MAIN
