// SPDX-License-Identifier: GPL-2.0
/*
 * read.c - benchmark 2: reading a count: read() of one event and of a
 * group of eight, the same through the control page (cap_user_count,
 * else read()), and the bounds: a null syscall, an eventfd read().
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

static double b_read(void *arg)
{
	int fd = *(int *)arg;
	long n = 5000;
	uint64_t buf[32];
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) <= 0)
			die("read");
	return (double)(now_ns() - t0) / n;
}

/* read() of one 8-byte value (an eventfd in semaphore mode gives 1) */
static double b_read8(void *arg)
{
	int fd = *(int *)arg;
	long n = 5000;
	uint64_t v;
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read 8 bytes");
	return (double)(now_ns() - t0) / n;
}

/* The architecture's cycle counter that the control page's clock converts. */
static inline uint64_t user_cycles(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t c;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r" (c) : : "memory");
	return c;
#else
	return 0;
#endif
}

/*
 * A portable self-reader: the count from the control page where the
 * kernel offers it (cap_user_count, adding the ns since the page was
 * written for a running clock: cap_user_count_time), else read().
 */
#define CAP_USER_COUNT		(1ULL << 61)	/* this core's extension */
#define CAP_USER_COUNT_TIME	(1ULL << 62)

struct page_reader {
	int fd;
	struct perf_event_mmap_page *pc;
};

/* The page's count, inside the caller's retry loop on pc->lock. */
static uint64_t page_count_locked(struct page_reader *r)
{
	struct perf_event_mmap_page *pc = r->pc;
	uint64_t count = pc->offset, cyc, quot, rem;

	if (pc->capabilities & CAP_USER_COUNT_TIME) {
		cyc = user_cycles();
		if (pc->cap_user_time_short)
			cyc = pc->time_cycles +
			      ((cyc - pc->time_cycles) & pc->time_mask);
		quot = cyc >> pc->time_shift;
		rem = cyc & (((uint64_t)1 << pc->time_shift) - 1);
		count += pc->time_offset + quot * pc->time_mult +
			 ((rem * pc->time_mult) >> pc->time_shift);
	}
	return count;
}

static uint64_t page_or_read(struct page_reader *r)
{
	uint64_t count, caps;
	uint32_t seq;

	do {
		seq = __atomic_load_n(&r->pc->lock, __ATOMIC_ACQUIRE);
		caps = r->pc->capabilities;
		count = page_count_locked(r);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&r->pc->lock, __ATOMIC_RELAXED) != seq);
	if (!(caps & CAP_USER_COUNT) &&
	    read(r->fd, &count, sizeof(count)) != sizeof(count))
		die("read");
	return count;
}

static double b_read_mmap(void *arg)
{
	struct page_reader *r = arg;
	long n = 5000;
	uint64_t sum = 0, t0 = now_ns();

	for (long i = 0; i < n; i++)
		sum += page_or_read(r);
	__asm__ __volatile__("" : : "r" (sum));
	return (double)(now_ns() - t0) / n;
}

/*
 * A group read the portable way: every member's page in one window (each
 * lock, then each count, then each lock again: no page written between),
 * else one PERF_FORMAT_GROUP read() of the leader.
 */
struct group_reader {
	int n, leader;
	struct perf_event_mmap_page *pc[8];
};

static void pages_or_group_read(struct group_reader *g, uint64_t *val)
{
	uint64_t buf[32], caps;
	uint32_t seq[8];
	int i, moved, ok;

	do {
		ok = 1;
		for (i = 0; i < g->n; i++)
			seq[i] = __atomic_load_n(&g->pc[i]->lock,
						 __ATOMIC_ACQUIRE);
		for (i = 0; i < g->n; i++) {
			struct page_reader r = { -1, g->pc[i] };

			caps = g->pc[i]->capabilities;
			if (!(caps & CAP_USER_COUNT)) {
				ok = 0;
				break;
			}
			val[i] = page_count_locked(&r);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		for (i = 0, moved = 0; ok && i < g->n; i++)
			moved |= __atomic_load_n(&g->pc[i]->lock,
						 __ATOMIC_RELAXED) != seq[i];
	} while (ok && moved);
	if (ok)
		return;
	if (read(g->leader, buf, sizeof(buf)) <= 0)
		die("group read");
	for (i = 0; i < g->n; i++)
		val[i] = buf[3 + i];	/* nr, enabled, running, values */
}

static double b_read_mmap_group(void *arg)
{
	struct group_reader *g = arg;
	long n = 5000;
	uint64_t val[8], sum = 0, t0 = now_ns();

	for (long i = 0; i < n; i++) {
		pages_or_group_read(g, val);
		sum += val[0];
	}
	__asm__ __volatile__("" : : "r" (sum));
	return (double)(now_ns() - t0) / n;
}

static double b_null_syscall(void *arg)
{
	long n = 5000;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (double)(now_ns() - t0) / n;
}

void bench_read(void)
{
	struct perf_event_attr a;
	int fd, g[8];

	struct group_reader gr;
	struct page_reader r;
	void *pc;

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0);
	measure("read.single", b_read, &fd);
	/* the same event read the portable way: control page, else read() */
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED)
		die("mmap of the control page");
	r.fd = fd;
	r.pc = pc;
	measure("read.mmap", b_read_mmap, &r);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	g[0] = perf_open(&a, 0, -1, -1, 0);
	if (g[0] < 0)
		die("group leader");
	for (int j = 1; j < 8; j++)
		g[j] = open_sw(sw_mix[j % 4], 0, -1, g[0], 0);
	measure("read.group8", b_read, &g[0]);
	/* the same group read the portable way: the pages, else read() */
	gr.n = 8;
	gr.leader = g[0];
	for (int j = 0; j < 8; j++) {
		gr.pc[j] = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ,
				MAP_SHARED, g[j], 0);
		if (gr.pc[j] == MAP_FAILED)
			die("mmap of a member's control page");
	}
	measure("read.mmap.group8", b_read_mmap_group, &gr);
	for (int j = 0; j < 8; j++)
		munmap(gr.pc[j], sysconf(_SC_PAGESIZE));
	close_many(g, 8);
	measure("read.limit.null_syscall", b_null_syscall, NULL);

	/* a read() of 8 bytes that does the least: a counting eventfd */
	fd = eventfd(UINT32_MAX, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0)
		die("eventfd");
	measure("read.limit.eventfd", b_read8, &fd);
	close(fd);
}
