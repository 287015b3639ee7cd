// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): what samples and side-band records contain.  The
 * sample layout for the sample_type bits, READ with and without groups,
 * user callchains, registers and stack; sample_id_all trailers; COMM, MMAP,
 * MMAP2, FORK, EXIT and SWITCH records; frequency mode, the REFRESH and
 * PERIOD ioctls, sigtrap, and BPF programs on overflow (SET_BPF).
 *
 * Samples come from software events only (page faults, one sample per
 * fault, and the task and CPU clocks) so that every architecture runs the
 * same tests; side-band records from the dummy event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

#define REC_MAX		8192
#define NR_PAGES	8
#define BURN_NS		(100 * 1000 * 1000LL)
#define SIG_DATA	0x5eedf00dcafe1234ULL

/* A disabled, user-only sampler taking one sample per @config event. */
static void sampler_attr(struct perf_event_attr *attr, __u64 config,
			 __u64 sample_type)
{
	sw_attr(attr, config);
	attr->sample_period = 1;
	attr->sample_type = sample_type;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* A disabled dummy event on this task, for side-band records. */
static void dummy_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	sw_attr(attr, PERF_COUNT_SW_DUMMY);
	attr->sample_type = sample_type;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* @n fresh anonymous pages (small ones), not yet touched. */
static char *fresh_pages(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, n * page, MADV_NOHUGEPAGE);
	return p;
}

/* The u64 that holds { u32 pid, tid; } as samples and records have it. */
static __u64 pid_tid(pid_t pid, pid_t tid)
{
	__u32 pair[2] = { pid, tid };
	__u64 v;

	memcpy(&v, pair, sizeof(v));
	return v;
}

TEST(sample_layout)
{
	const __u64 type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	long page = sysconf(_SC_PAGESIZE);
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	__u64 buf[REC_MAX / 8], id, last = 0, *s;
	int fd, i, samples = 0, seen[NR_PAGES] = { 0 };
	struct perf_event_attr attr;
	struct perf_event_header *h;
	long long t0, t1;
	struct ring r;
	char *p;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, type);
	/* Time stamps from a clock this test can read too. */
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	p = fresh_pages(NR_PAGES);
	ASSERT_NE(NULL, p);

	t0 = monotonic_ns();
	ASSERT_EQ(0, enable(fd));
	for (i = 0; i < NR_PAGES; i++)
		p[i * page] = 1;
	ASSERT_EQ(0, disable(fd));
	t1 = monotonic_ns();

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		ASSERT_EQ(sizeof(*h) + 8 * 8, h->size);
		s = buf + 1;
		EXPECT_NE(0, s[0]);				/* ip */
		EXPECT_EQ(pid_tid(getpid(), gettid()), s[1]);
		EXPECT_GE(s[2], t0);				/* time */
		EXPECT_LE(s[2], t1);
		EXPECT_GE(s[2], last);
		last = s[2];
		for (i = 0; i < NR_PAGES; i++)			/* addr */
			if (s[3] == (uintptr_t)(p + i * page))
				seen[i]++;
		EXPECT_EQ(id, s[4]);				/* id */
		EXPECT_EQ(id, s[5]);				/* stream_id */
		EXPECT_LT(half(s[6], 0), ncpus);		/* cpu */
		EXPECT_EQ(0, half(s[6], 1));			/* res */
		EXPECT_EQ(1, s[7]);				/* period */
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, NR_PAGES);
	for (i = 0; i < NR_PAGES; i++)
		EXPECT_EQ(1, seen[i]) TH_LOG("page %d", i);

	munmap(p, NR_PAGES * page);
	ring_unmap(&r);
	close(fd);
}

TEST(sample_identifier_first)
{
	const __u64 type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
			   PERF_SAMPLE_ID;
	__u64 buf[REC_MAX / 8], id;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, type);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		ASSERT_EQ(sizeof(*h) + 3 * 8, h->size);
		EXPECT_EQ(id, buf[1]);		/* identifier: first */
		EXPECT_EQ(pid_tid(getpid(), gettid()), buf[2]);
		EXPECT_EQ(id, buf[3]);		/* id: after tid */
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
}

TEST(sample_read)
{
	__u64 buf[REC_MAX / 8], id, last = 0, *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(8));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		ASSERT_EQ(sizeof(*h) + 4 * 8, h->size);
		s = buf + 1;
		/* value, time_enabled, time_running, id */
		EXPECT_GT(s[0], last) TH_LOG("sample %d", samples);
		last = s[0];
		EXPECT_GT(s[1], 0);
		EXPECT_LE(s[2], s[1]);
		EXPECT_EQ(id, s[3]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 8);
	EXPECT_EQ(samples, last);

	ring_unmap(&r);
	close(fd);
}

TEST(sample_read_group)
{
	__u64 buf[REC_MAX / 8], lid, sid, last = 0, last_clock = 0, *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int leader, sibling, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_TOTAL_TIME_ENABLED;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("leader: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	sibling = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(sibling, 0) TH_LOG("sibling: %s", strerror(errno));
	lid = event_id(leader);
	sid = event_id(sibling);
	ASSERT_EQ(0, ring_map(&r, leader, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(leader));
	burn_cpu(1000 * 1000);
	ASSERT_EQ(0, fault_n(8));
	ASSERT_EQ(0, disable(leader));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		/* nr, time_enabled, then value and id of each member */
		ASSERT_EQ(sizeof(*h) + 6 * 8, h->size);
		s = buf + 1;
		EXPECT_EQ(2, s[0]);
		EXPECT_GT(s[1], 0);
		EXPECT_GT(s[2], last);
		last = s[2];
		EXPECT_EQ(lid, s[3]);
		EXPECT_GE(s[4], last_clock);
		last_clock = s[4];
		EXPECT_EQ(sid, s[5]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 8);
	/* The task clock ran for the millisecond burnt before. */
	EXPECT_GE(last_clock, 500 * 1000);

	ring_unmap(&r);
	close(sibling);
	close(leader);
}

/*
 * Spin in user mode for @ns of wall time, looking at the clock only now
 * and then: a clock sampler that excludes the kernel finds the task in
 * user mode at nearly every tick.
 */
static void spin_user_ns(long long ns)
{
	long long end = monotonic_ns() + ns;
	unsigned long i;

	do {
		for (i = 0; i < 100000; i++)
			__asm__ __volatile__("" : : "r" (i) : "memory");
	} while (monotonic_ns() < end);
}

/* A user-only cpu-clock sampler, 1 ms period, reading its group. */
static void clock_group_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	sw_attr(attr, PERF_COUNT_SW_CPU_CLOCK);
	attr->sample_period = 1000 * 1000;
	attr->sample_type = sample_type;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* What the PERF_SAMPLE_READ group samples of a ring looked like. */
struct group_samples {
	int samples;	/* of the task asked for (any, if pid 0) */
	int bad;	/* of those, with another nr, size or ids */
	__u64 bad_nr;	/* the nr of the first bad one */
	int others;	/* samples of other tasks */
};

/*
 * Go through the samples of @r, of sample_type [TID |] READ with
 * read_format GROUP | ID: nr, then {value, id} of each member.  A good
 * one has @nr members whose ids are @ids, in order, and a size that fits
 * them.  With @pid not 0, only the samples of that process are looked at.
 */
static void scan_group_samples(struct ring *r, int with_tid, pid_t pid,
			       __u64 nr, const __u64 *ids,
			       struct group_samples *gs)
{
	__u64 buf[REC_MAX / 8], *s;
	struct perf_event_header *h;
	__u64 i;
	int ok;

	memset(gs, 0, sizeof(*gs));
	while ((h = ring_next(r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		s = buf + 1;
		if (with_tid) {
			if (pid && half(s[0], 0) != (__u32)pid) {
				gs->others++;
				continue;
			}
			s++;
		}
		gs->samples++;
		ok = s[0] == nr &&
		     h->size == sizeof(*h) + (with_tid + 1 + 2 * nr) * 8;
		for (i = 0; ok && i < nr; i++)
			ok = s[2 + 2 * i] == ids[i];
		if (!ok && !gs->bad++)
			gs->bad_nr = s[0];
	}
}

/*
 * An inherited group that samples with PERF_SAMPLE_READ: the copies in a
 * child form the same group, so the child's samples carry every member,
 * as the parent's do (with the parent's ids, the primary ones).  The
 * event is bound to a CPU, where an inherited event may be mapped.
 */
TEST(sample_read_group_inherited_carries_every_member)
{
	const __u64 type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	struct perf_event_attr attr;
	struct group_samples gs;
	int leader, sibling, cpu;
	struct ring r;
	__u64 ids[2];
	pid_t child;

	cpu = sched_getcpu();
	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, pin_to_cpu(0, cpu));
	clock_group_attr(&attr, type);
	attr.inherit = 1;
	leader = sys_perf_event_open(&attr, 0, cpu, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("cpu-clock leader: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	sibling = sys_perf_event_open(&attr, 0, cpu, leader, 0);
	ASSERT_GE(sibling, 0) TH_LOG("sibling: %s", strerror(errno));
	ids[0] = event_id(leader);
	ids[1] = event_id(sibling);
	ASSERT_EQ(0, ring_map(&r, leader, 32, PROT_READ | PROT_WRITE))
		TH_LOG("mmap on CPU %d: %s", cpu, strerror(errno));

	ASSERT_EQ(0, enable(leader));
	spin_user_ns(50 * 1000 * 1000LL);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		spin_user_ns(200 * 1000 * 1000LL);
		_exit(0);
	}
	ASSERT_EQ(0, reap_child(child));
	ASSERT_EQ(0, disable(leader));

	/* the parent's samples, then the child's */
	scan_group_samples(&r, 1, getpid(), 2, ids, &gs);
	EXPECT_FALSE(r.bad);
	TH_LOG("parent: %d samples, %d bad", gs.samples, gs.bad);
	EXPECT_LT(0, gs.samples);
	EXPECT_EQ(0, gs.bad) TH_LOG("a parent sample has nr %llu",
				    (unsigned long long)gs.bad_nr);
	/* nothing was handed back to the kernel: go through it all again */
	r.tail = 0;
	scan_group_samples(&r, 1, child, 2, ids, &gs);
	TH_LOG("child: %d samples, %d bad", gs.samples, gs.bad);
	ASSERT_LT(0, gs.samples) TH_LOG("no sample of the child");
	EXPECT_EQ(0, gs.bad) TH_LOG("a child sample has nr %llu",
				    (unsigned long long)gs.bad_nr);

	ring_unmap(&r);
	close(sibling);
	close(leader);
}

/*
 * A member that closes leaves the group: the samples taken afterwards,
 * and read(), carry the members that are left, and nothing in its place.
 */
TEST(sample_read_group_after_member_closed)
{
	struct perf_event_attr attr;
	struct group_samples gs;
	int leader, sib[2], i;
	__u64 ids[3], buf[1 + 2 * 3];
	struct ring r;

	clock_group_attr(&attr, PERF_SAMPLE_READ);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("cpu-clock leader: %s", strerror(errno));
	ids[0] = event_id(leader);
	for (i = 0; i < 2; i++) {
		sw_attr(&attr, i ? PERF_COUNT_SW_CONTEXT_SWITCHES :
				   PERF_COUNT_SW_PAGE_FAULTS);
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		sib[i] = sys_perf_event_open(&attr, 0, -1, leader, 0);
		ASSERT_GE(sib[i], 0) TH_LOG("sibling %d: %s", i,
					    strerror(errno));
		ids[1 + i] = event_id(sib[i]);
	}
	ASSERT_EQ(0, ring_map(&r, leader, 16, PROT_READ | PROT_WRITE));

	/* three members to begin with */
	ASSERT_EQ(0, enable(leader));
	spin_user_ns(20 * 1000 * 1000LL);
	ASSERT_EQ(0, disable(leader));
	scan_group_samples(&r, 0, 0, 3, ids, &gs);
	TH_LOG("before the close: %d samples, %d bad", gs.samples, gs.bad);
	EXPECT_EQ(0, gs.bad) TH_LOG("a sample has nr %llu",
				    (unsigned long long)gs.bad_nr);

	/* then two: what was written before the close is skipped */
	close(sib[1]);
	r.tail = ring_head(&r);
	ring_publish(&r);
	ASSERT_EQ(0, enable(leader));
	spin_user_ns(100 * 1000 * 1000LL);
	ASSERT_EQ(0, disable(leader));
	scan_group_samples(&r, 0, 0, 2, ids, &gs);
	EXPECT_FALSE(r.bad);
	TH_LOG("after the close: %d samples, %d bad", gs.samples, gs.bad);
	ASSERT_LT(0, gs.samples);
	EXPECT_EQ(0, gs.bad) TH_LOG("a sample has nr %llu",
				    (unsigned long long)gs.bad_nr);

	memset(buf, 0xff, sizeof(buf));
	EXPECT_EQ(8 + 2 * 16, read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);
	EXPECT_EQ(ids[0], buf[2]);
	EXPECT_EQ(ids[1], buf[4]);

	ring_unmap(&r);
	close(sib[0]);
	close(leader);
}

TEST(callchain_user)
{
	__u64 buf[REC_MAX / 8], *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	attr.exclude_callchain_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		s = buf + 1;
		/* ip, nr, ips[nr]: the context marker, then where it was */
		ASSERT_GE(s[1], 2);
		ASSERT_LE(s[1], PERF_MAX_STACK_DEPTH + PERF_MAX_CONTEXTS_PER_STACK);
		ASSERT_EQ(sizeof(*h) + (2 + s[1]) * 8, h->size);
		EXPECT_EQ(PERF_CONTEXT_USER, s[2]);
		EXPECT_EQ(s[0], s[3]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
}

TEST(callchain_with_kernel)
{
	__u64 buf[REC_MAX / 8], *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_CALLCHAIN);
	attr.exclude_kernel = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "kernel callchains need privilege: %s",
		     strerror(errno));
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		s = buf + 1;
		ASSERT_GE(s[0], 2);
		ASSERT_EQ(sizeof(*h) + (1 + s[0]) * 8, h->size);
		/* A chain opens with the marker of where it starts. */
		EXPECT_TRUE(s[1] == PERF_CONTEXT_KERNEL ||
			    s[1] == PERF_CONTEXT_USER)
			TH_LOG("first entry %llx", (unsigned long long)s[1]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
}

/* Register numbers of the arch's enum perf_event_x86_regs / arm64_regs. */
#if defined(__x86_64__)
#define REG_SP	7	/* PERF_REG_X86_SP */
#define REG_PC	8	/* PERF_REG_X86_IP */
#elif defined(__aarch64__)
#define REG_SP	31	/* PERF_REG_ARM64_SP */
#define REG_PC	32	/* PERF_REG_ARM64_PC */
#endif

TEST(regs_user)
{
#ifdef REG_SP
	__u64 buf[REC_MAX / 8], *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	uintptr_t here = (uintptr_t)&samples;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = 1ULL << REG_SP | 1ULL << REG_PC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		/* ip, abi, then the registers in the order of their bits */
		ASSERT_EQ(sizeof(*h) + 4 * 8, h->size);
		s = buf + 1;
		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, s[1]);
		EXPECT_LT(s[2] > here ? s[2] - here : here - s[2], 1 << 16)
			TH_LOG("sp %llx, a local at %llx",
			       (unsigned long long)s[2],
			       (unsigned long long)here);
		EXPECT_EQ(s[0], s[3]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
#else
	SKIP(return, "no register numbers for this architecture");
#endif
}

TEST(stack_user)
{
	const __u32 size = 512;
	__u64 buf[REC_MAX / 8], *s;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	/* The size must be a multiple of 8. */
	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_TID | PERF_SAMPLE_STACK_USER);
	attr.sample_stack_user = size + 4;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);

	attr.sample_stack_user = size;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		/* tid, size, data[size], dyn_size */
		ASSERT_EQ(sizeof(*h) + 8 + 8 + size + 8, h->size);
		s = buf + 1;
		EXPECT_EQ(pid_tid(getpid(), gettid()), s[0]);
		EXPECT_EQ(size, s[1]);
		EXPECT_GT(s[2 + size / 8], 0);
		EXPECT_LE(s[2 + size / 8], size);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
}

/* sample_id_all trailer of TID | TIME | ID | STREAM_ID | CPU | IDENTIFIER */
#define ID_ALL_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)
#define ID_ALL_WORDS	6

static void check_id_trailer(struct __test_metadata *_metadata,
			     struct perf_event_header *h, __u64 id,
			     long long t0, long long t1)
{
	__u64 *t = (__u64 *)((char *)h + h->size) - ID_ALL_WORDS;

	EXPECT_EQ(pid_tid(getpid(), gettid()), t[0]);
	EXPECT_GE(t[1], t0);
	EXPECT_LE(t[1], t1);
	EXPECT_EQ(id, t[2]);
	EXPECT_EQ(id, t[3]);
	EXPECT_LT(half(t[4], 0), sysconf(_SC_NPROCESSORS_CONF));
	EXPECT_EQ(id, t[5]);	/* the identifier is always last */
}

TEST(sample_id_all_comm)
{
	static const char name[8] = "pe-comm";
	__u64 buf[REC_MAX / 8], id;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	char old[16] = "";
	int fd, comms = 0;
	long long t0, t1;
	struct ring r;

	dummy_attr(&attr, ID_ALL_TYPE);
	attr.comm = 1;
	attr.sample_id_all = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, prctl(PR_GET_NAME, old));

	t0 = monotonic_ns();
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, prctl(PR_SET_NAME, name));
	ASSERT_EQ(0, disable(fd));
	t1 = monotonic_ns();
	prctl(PR_SET_NAME, old);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_COMM)
			continue;
		/* pid, tid, the name padded to 8 bytes, then the trailer */
		ASSERT_EQ(sizeof(*h) + 8 + 8 + ID_ALL_WORDS * 8, h->size);
		EXPECT_EQ(pid_tid(getpid(), gettid()), buf[1]);
		EXPECT_EQ(0, memcmp(&buf[2], name, sizeof(name)));
		EXPECT_EQ(0, h->misc & PERF_RECORD_MISC_COMM_EXEC);
		check_id_trailer(_metadata, h, id, t0, t1);
		comms++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, comms);

	ring_unmap(&r);
	close(fd);
}

/* The MMAP/MMAP2 file name, in records padded to 8 bytes with NULs. */
static int name_matches(const char *rec_name, size_t room, const char *name)
{
	size_t len = strlen(name);

	return len < room && !memcmp(rec_name, name, len + 1);
}

/* Map a page of this program's file for execution, at file offset @off. */
static void *map_self(int *fd, long off, int prot, struct stat *st,
		      char *path)
{
	ssize_t n;
	void *p;

	n = readlink("/proc/self/exe", path, PATH_MAX - 1);
	if (n < 0)
		return NULL;
	path[n] = 0;
	*fd = open("/proc/self/exe", O_RDONLY);
	if (*fd < 0)
		return NULL;
	if (fstat(*fd, st) || st->st_size < off + sysconf(_SC_PAGESIZE))
		return NULL;
	p = mmap(NULL, sysconf(_SC_PAGESIZE), prot, MAP_PRIVATE, *fd, off);
	return p == MAP_FAILED ? NULL : p;
}

TEST(sample_id_all_mmap2)
{
	long page = sysconf(_SC_PAGESIZE);
	__u64 buf[REC_MAX / 8], id;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, file = -1, found = 0;
	char path[PATH_MAX];
	long long t0, t1;
	struct stat st;
	struct ring r;
	void *p;

	dummy_attr(&attr, ID_ALL_TYPE);
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.sample_id_all = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));

	t0 = monotonic_ns();
	ASSERT_EQ(0, enable(fd));
	p = map_self(&file, page, PROT_READ | PROT_EXEC, &st, path);
	ASSERT_EQ(0, disable(fd));
	t1 = monotonic_ns();
	ASSERT_NE(NULL, p) TH_LOG("mapping %s: %s", path, strerror(errno));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_MMAP2 || buf[2] != (uintptr_t)p)
			continue;
		/* pid/tid, addr, len, pgoff, maj, min, ino, ino_generation */
		EXPECT_EQ(pid_tid(getpid(), gettid()), buf[1]);
		EXPECT_EQ(page, buf[3]);
		EXPECT_EQ(page, buf[4]);		/* pgoff: in bytes */
		EXPECT_EQ(major(st.st_dev), half(buf[5], 0));
		EXPECT_EQ(minor(st.st_dev), half(buf[5], 1));
		EXPECT_EQ(st.st_ino, buf[6]);
		/* prot, flags, then the file name */
		EXPECT_EQ(PROT_READ | PROT_EXEC, half(buf[8], 0));
		EXPECT_EQ(MAP_PRIVATE, half(buf[8], 1) & MAP_TYPE);
		EXPECT_TRUE(name_matches((char *)&buf[9],
					 h->size - 9 * 8 - ID_ALL_WORDS * 8,
					 path))
			TH_LOG("name %s, wanted %s", (char *)&buf[9], path);
		check_id_trailer(_metadata, h, id, t0, t1);
		found++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);

	munmap(p, page);
	close(file);
	ring_unmap(&r);
	close(fd);
}

TEST(mmap_records_exec_only)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd, file = -1, file2 = -1, found = 0, data = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	char path[PATH_MAX];
	struct stat st;
	struct ring r;
	void *x, *d;

	dummy_attr(&attr, 0);
	attr.mmap = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, enable(fd));
	x = map_self(&file, 0, PROT_READ | PROT_EXEC, &st, path);
	d = map_self(&file2, 0, PROT_READ, &st, path);
	ASSERT_EQ(0, disable(fd));
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, d);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		EXPECT_NE(PERF_RECORD_MMAP2, h->type);
		if (h->type != PERF_RECORD_MMAP)
			continue;
		if (buf[2] == (uintptr_t)d)
			data++;
		if (buf[2] != (uintptr_t)x)
			continue;
		/* pid/tid, addr, len, pgoff, file name */
		EXPECT_EQ(pid_tid(getpid(), gettid()), buf[1]);
		EXPECT_EQ(page, buf[3]);
		EXPECT_EQ(0, buf[4]);
		EXPECT_EQ(0, h->misc & PERF_RECORD_MISC_MMAP_DATA);
		EXPECT_TRUE(name_matches((char *)&buf[5], h->size - 5 * 8,
					 path));
		found++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);
	/* Without attr.mmap_data, a mapping that is not executable: none. */
	EXPECT_EQ(0, data);

	munmap(x, page);
	munmap(d, page);
	close(file);
	close(file2);
	ring_unmap(&r);
	close(fd);
}

TEST(comm_exec)
{
	static const char comm[8] = "true";
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, go[2], comms = 0;
	__u64 buf[REC_MAX / 8];
	struct ring r;
	pid_t child;
	char c = 0;

	if (access("/bin/true", X_OK))
		SKIP(return, "no /bin/true");
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	close(go[0]);

	dummy_attr(&attr, 0);
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, child, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy on the child: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(1, write(go[1], &c, 1));
	close(go[1]);
	ASSERT_EQ(0, reap_child(child));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_COMM)
			continue;
		ASSERT_EQ(sizeof(*h) + 8 + 8, h->size);
		EXPECT_EQ(pid_tid(child, child), buf[1]);
		EXPECT_EQ(0, memcmp(&buf[2], comm, sizeof(comm)));
		EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC,
			  h->misc & PERF_RECORD_MISC_COMM_EXEC);
		comms++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, comms);

	ring_unmap(&r);
	close(fd);
}

TEST(fork_and_exit_records)
{
	int fd, cpu, forks = 0, exits = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	struct ring r;
	pid_t child;

	dummy_attr(&attr, 0);
	attr.task = 1;
	/* The child's EXIT comes from its inherited copy of the event. */
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	/*
	 * Mainline maps no inherited per-task event (EINVAL); this core
	 * maps it, one buffer for every copy (the extensions tests).
	 */
	if (ring_map(&r, fd, 4, PROT_READ | PROT_WRITE) == 0)
		ring_unmap(&r);
	else
		EXPECT_EQ(EINVAL, errno);
	close(fd);

	/* One on this task and one CPU maps everywhere: both stay there. */
	cpu = sched_getcpu();
	ASSERT_EQ(0, pin_to_cpu(0, cpu));
	fd = sys_perf_event_open(&attr, 0, cpu, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy on CPU %d: %s", cpu, strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(0, reap_child(child));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_EXIT)
			continue;
		/* pid, ppid, tid, ptid, time */
		ASSERT_EQ(sizeof(*h) + 3 * 8, h->size);
		if (half(buf[1], 0) != child)
			continue;
		EXPECT_EQ(getpid(), half(buf[1], 1));	/* ppid */
		EXPECT_EQ(child, half(buf[2], 0));	/* tid */
		/* This test is single-threaded: parent pid == tid. */
		EXPECT_EQ(getpid(), half(buf[2], 1));	/* ptid */
		EXPECT_NE(0, buf[3]);				/* time */
		if (h->type == PERF_RECORD_FORK)
			forks++;
		else
			exits++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, forks);
	EXPECT_EQ(1, exits);

	ring_unmap(&r);
	close(fd);
}

TEST(switch_records)
{
	int fd, i, outs = 0, ins = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	struct ring r;

	dummy_attr(&attr, PERF_SAMPLE_TID);
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	/*
	 * Each sleep switches this task out and back in, but for one that
	 * has run out before the task got to schedule() (a slow debug
	 * kernel): a millisecond each, twice as many as needed.
	 */
	for (i = 0; i < 6; i++)
		usleep(1000);
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		/* A per-task event gets the short form. */
		EXPECT_NE(PERF_RECORD_SWITCH_CPU_WIDE, h->type);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		/* no body, only the sample_id_all tid */
		ASSERT_EQ(sizeof(*h) + 8, h->size);
		EXPECT_EQ(pid_tid(getpid(), gettid()), buf[1]);
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			outs++;
		else
			ins++;
	}
	EXPECT_FALSE(r.bad);
	TH_LOG("%d out, %d in", outs, ins);
	EXPECT_GE(outs, 3);
	EXPECT_GE(ins, 3);

	ring_unmap(&r);
	close(fd);
}

TEST(frequency_mode)
{
	__u64 buf[REC_MAX / 8], sum = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("task-clock at 1000 Hz: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 16, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(sizeof(*h) + 8, h->size);
		EXPECT_GT(buf[1], 0);
		sum += buf[1];
		samples++;
	}
	EXPECT_FALSE(r.bad);
	/*
	 * 100 ms of CPU at 1000 Hz: about 100 samples, about 1 ms each.  On
	 * a loaded host, an emulated CPU's timer expiries bunch up and the
	 * hrtimer skips the ones it missed: mainline too gave only 11-15
	 * then, so the floor is low.
	 */
	TH_LOG("%d samples, average period %llu ns", samples,
	       samples ? (unsigned long long)sum / samples : 0ULL);
	EXPECT_GE(samples, 5);
	EXPECT_LE(samples, 400);
	ASSERT_GT(samples, 0);
	EXPECT_GE(sum / samples, 100 * 1000);
	EXPECT_LE(sum / samples, 10 * 1000 * 1000);

	ring_unmap(&r);
	close(fd);
}

TEST(refresh_limits_overflows)
{
	__u64 c1, c2, buf[REC_MAX / 8];
	struct perf_event_attr attr;
	int fd, samples;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_IP);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));

	/* Enabled for two overflows, then disabled again. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_EQ(0, fault_n(16));
	c1 = read_value(fd);
	ASSERT_EQ(0, fault_n(16));
	c2 = read_value(fd);
	TH_LOG("count %llu, then %llu", (unsigned long long)c1,
	       (unsigned long long)c2);
	EXPECT_GE(c1, 2);
	EXPECT_LT(c1, 16);
	EXPECT_EQ(c1, c2);

	samples = 0;
	while (ring_next(&r, buf, sizeof(buf)))
		samples++;
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(2, samples);

	/* Another REFRESH allows another overflow. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(0, fault_n(16));
	while (ring_next(&r, buf, sizeof(buf)))
		samples++;
	EXPECT_EQ(3, samples);

	ring_unmap(&r);
	close(fd);
}

TEST(period_ioctl)
{
	__u64 buf[REC_MAX / 8], period = 4, count, last = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	/*
	 * Not PERF_SAMPLE_PERIOD: with it, mainline samples a software
	 * event on every occurrence, whatever the period.  The count read
	 * with each sample shows the period instead.
	 */
	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_READ);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(64));
	ASSERT_EQ(0, disable(fd));
	count = read_value(fd);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		if (samples)
			EXPECT_EQ(period, buf[1] - last);
		last = buf[1];
		samples++;
	}
	EXPECT_FALSE(r.bad);
	TH_LOG("%llu faults, %d samples", (unsigned long long)count,
	       samples);
	EXPECT_GE(count, 64);
	EXPECT_GE(samples, count / period - 1);
	EXPECT_LE(samples, count / period + 1);

	ring_unmap(&r);
	close(fd);
}

/* Lock-free atomics: safe to set in a signal handler. */
static atomic_int traps, trap_code, trap_type;
static atomic_ulong trap_data;

static void on_sigtrap(int sig, siginfo_t *info, void *uc)
{
	/*
	 * si_perf_data, si_perf_type follow si_addr in the fault part of
	 * siginfo; not every libc names them, so read them by offset.
	 */
	char *perf = (char *)info + offsetof(siginfo_t, si_addr) +
		     sizeof(void *);
	unsigned long data;
	__u32 type;

	memcpy(&data, perf, sizeof(data));
	memcpy(&type, perf + sizeof(data), sizeof(type));
	traps++;
	trap_code = info->si_code;
	trap_data = data;
	trap_type = type;
}

TEST(sigtrap)
{
	struct sigaction sa = { 0 };
	struct perf_event_attr attr;
	int fd;

	sa.sa_sigaction = on_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 0);
	attr.sigtrap = 1;
	attr.sig_data = SIG_DATA;
	/* sigtrap needs remove_on_exec. */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);

	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("sigtrap sampler: %s", strerror(errno));
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, fault_n(1));
	ASSERT_EQ(0, disable(fd));

	/* Synchronous: delivered before the faulting task went on. */
	EXPECT_GE(atomic_load(&traps), 1);
	EXPECT_EQ(TRAP_PERF, atomic_load(&trap_code));
	EXPECT_EQ((unsigned long)SIG_DATA, atomic_load(&trap_data));
	EXPECT_EQ(PERF_TYPE_SOFTWARE, atomic_load(&trap_type));
	close(fd);
}

/*
 * BPF on overflow: a BPF_PROG_TYPE_PERF_EVENT program attached with
 * PERF_EVENT_IOC_SET_BPF runs before each sample is written and drops it
 * by returning 0.
 */

/* Samples a page-faults sampler with program @prog writes for 16 faults. */
static int samples_with_prog(struct __test_metadata *_metadata, int prog)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_attr attr;
	int fd, samples = 0;
	struct ring r;

	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_IP);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 || ring_map(&r, fd, 4, PROT_READ | PROT_WRITE))
		return -1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	EXPECT_EQ(0, enable(fd));
	EXPECT_EQ(0, fault_n(16));
	EXPECT_EQ(0, disable(fd));
	/* the program decides about the sample, not about the count */
	EXPECT_GE(read_value(fd), 16);
	while (ring_next(&r, buf, sizeof(buf)))
		samples++;
	EXPECT_FALSE(r.bad);
	ring_unmap(&r);
	close(fd);
	return samples;
}

TEST(bpf_program_keeps_or_drops_samples)
{
	int keep, drop, kept, dropped;

	keep = load_ret_prog(BPF_PROG_TYPE_PERF_EVENT, 1, NULL);
	drop = load_ret_prog(BPF_PROG_TYPE_PERF_EVENT, 0, NULL);
	if (keep < 0 || drop < 0)
		SKIP(return, "BPF_PROG_LOAD: %s", strerror(errno));
	kept = samples_with_prog(_metadata, keep);
	dropped = samples_with_prog(_metadata, drop);
	TH_LOG("samples: %d kept, %d with the dropping program", kept,
	       dropped);
	EXPECT_GE(kept, 16);
	EXPECT_EQ(0, dropped);
	close(keep);
	close(drop);
}

TEST(bpf_set_errors)
{
	struct perf_event_attr attr;
	int fd, prog, other;

	prog = load_ret_prog(BPF_PROG_TYPE_PERF_EVENT, 1, NULL);
	other = load_ret_prog(BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL);
	if (prog < 0 || other < 0)
		SKIP(return, "BPF_PROG_LOAD: %s", strerror(errno));
	sampler_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_IP);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);

	/* not a file, not a BPF program, not a program for perf events */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, -1));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, fd));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, other));
	EXPECT_EQ(EINVAL, errno);

	/* one program an event: a second one, of any type, is EEXIST */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, other));
	EXPECT_EQ(EEXIST, errno);

	close(fd);
	close(prog);
	close(other);
}

TEST_HARNESS_MAIN
