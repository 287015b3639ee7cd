// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a software event's count from its control page, with no system
 * call (cap_user_count, an extension of this core; mainline leaves the bit
 * zero, so it fails the tests that need it).
 *
 * The kernel writes a counting software event's count into the page's
 * offset whenever it changes; a running cpu-clock or task-clock event
 * also grows by one per ns since the page was written, which the reader
 * adds from the page's clock conversion (cap_user_count_time).  For the
 * reading thread's own events, the value read equals what read() returns
 * at the same point: a read() between two page reads lies between them,
 * and equals them when they are equal, across preemption and migration.
 *
 * A group: each member mapped, and every page read in one window (every
 * lock, then every count, then every lock again, retried until none
 * moved) gives the members' counts as of one instant, which is what a
 * PERF_FORMAT_GROUP read() gives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define ROUNDS		2000
#define NR_PAGES	32

/* The architecture's cycle counter that cap_user_time converts. */
static inline __u64 user_cycles(void)
{
#if defined(__x86_64__)
	__u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return ((__u64)hi << 32) | lo;
#elif defined(__aarch64__)
	__u64 c;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r" (c) : : "memory");
	return c;
#else
	return 0;
#endif
}

/* ns since the page was written, by its cap_user_time conversion */
static __u64 page_elapsed(struct perf_event_mmap_page *pc)
{
	__u64 cyc = user_cycles(), quot, rem;
	__u16 shift = pc->time_shift;
	__u32 mult = pc->time_mult;

	if (pc->cap_user_time_short)
		cyc = pc->time_cycles + ((cyc - pc->time_cycles) & pc->time_mask);
	quot = cyc >> shift;
	rem = cyc & (((__u64)1 << shift) - 1);
	return pc->time_offset + quot * mult + ((rem * mult) >> shift);
}

/*
 * The count as the page gives it.  Returns 0, or -1 if the page does not
 * offer it (no cap_user_count).  @ticking: cap_user_count_time was set.
 */
static int page_count(struct perf_event_mmap_page *pc, __u64 *val,
		      int *ticking)
{
	__u32 seq;
	__u64 count;
	int counts, time;

	/* the fences also keep the compiler from reusing earlier loads */
	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		counts = pc->cap_user_count;
		time = pc->cap_user_count_time;
		count = pc->offset;
		if (time)
			count += page_elapsed(pc);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) != seq);
	if (!counts)
		return -1;
	*val = count;
	if (ticking)
		*ticking = time;
	return 0;
}

#define GROUP_MAX	8

/*
 * The counts of @n pages as of one instant: no page was written between
 * the first and the last look at their locks.  Returns 0, or -1 if a page
 * does not offer its count.
 */
static int pages_count(struct perf_event_mmap_page **pc, int n, __u64 *val)
{
	__u32 seq[GROUP_MAX];
	int i, moved;

	do {
		for (i = 0; i < n; i++)
			seq[i] = __atomic_load_n(&pc[i]->lock, __ATOMIC_ACQUIRE);
		for (i = 0; i < n; i++) {
			if (!pc[i]->cap_user_count)
				return -1;
			val[i] = pc[i]->offset;
			if (pc[i]->cap_user_count_time)
				val[i] += page_elapsed(pc[i]);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		for (i = 0, moved = 0; i < n; i++)
			moved |= __atomic_load_n(&pc[i]->lock,
						 __ATOMIC_RELAXED) != seq[i];
	} while (moved);
	return 0;
}

static struct perf_event_mmap_page *map_page(int fd)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		       fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void unmap_page(struct perf_event_mmap_page *pc)
{
	munmap(pc, sysconf(_SC_PAGESIZE));
}

static int open_counting(__u64 config)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/*
 * page, read(), page, @rounds times, with @between() after each: the
 * read() must lie between the two page values, and equal them when they
 * are equal.  Returns how many rounds had equal page values, or -1.
 */
static int bracket_rounds(struct __test_metadata *_metadata, int fd,
			  struct perf_event_mmap_page *pc, int rounds,
			  void (*between)(int round))
{
	__u64 before, after, v;
	int i, equal = 0;

	for (i = 0; i < rounds; i++) {
		if (page_count(pc, &before, NULL))
			return -1;
		v = read_value(fd);
		if (page_count(pc, &after, NULL))
			return -1;
		EXPECT_LE(before, v) TH_LOG("round %d: page %llu, read() %llu",
					    i, before, v);
		EXPECT_LE(v, after) TH_LOG("round %d: read() %llu, page %llu",
					   i, v, after);
		if (before == after) {
			EXPECT_EQ(before, v);
			equal++;
		}
		if (between)
			between(i);
	}
	return equal;
}

static int nr_cpus_allowed(int *cpus, int max)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

static int hop_cpus[8], nr_hop_cpus;

/* Move to the next allowed CPU (a migration) and give up the CPU once. */
static void hop(int round)
{
	if (nr_hop_cpus > 1)
		pin_to_cpu(0, hop_cpus[round % nr_hop_cpus]);
	sched_yield();
}

static void fault_one(int round)
{
	(void)round;
	fault_n(1);
}

TEST(page_faults_without_read)
{
	struct perf_event_mmap_page *pc;
	__u64 before, after;
	int fd;

	fd = open_counting(PERF_COUNT_SW_PAGE_FAULTS);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	pc = map_page(fd);
	ASSERT_NE(NULL, pc) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(1, (int)pc->cap_user_count)
		TH_LOG("no cap_user_count (an extension mainline lacks)");
	EXPECT_EQ(0, (int)pc->cap_user_count_time);
	EXPECT_EQ(0, (int)pc->index);

	ASSERT_EQ(0, page_count(pc, &before, NULL));
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, page_count(pc, &after, NULL));
	EXPECT_GE(after - before, NR_PAGES);
	EXPECT_EQ(after, read_value(fd));

	/* every fault is in the page at once: one at a time, exactly */
	EXPECT_GE(bracket_rounds(_metadata, fd, pc, 200, fault_one), 150);

	/* reset: the page says 0 with the count */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, page_count(pc, &after, NULL));
	EXPECT_EQ(0, after);
	unmap_page(pc);
	close(fd);
}

TEST(task_clock_grows_in_page)
{
	struct perf_event_mmap_page *pc;
	__u64 a, b, v;
	int fd, ticking, equal;

	fd = open_counting(PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_GE(fd, 0) TH_LOG("task-clock: %s", strerror(errno));
	pc = map_page(fd);
	ASSERT_NE(NULL, pc) TH_LOG("mmap: %s", strerror(errno));
	if (!pc->cap_user_time && !pc->cap_user_count)
		SKIP(return, "no cap_user_time: the page cannot give a clock");
	ASSERT_EQ(1, (int)pc->cap_user_count)
		TH_LOG("no cap_user_count (an extension mainline lacks)");

	ASSERT_EQ(0, page_count(pc, &a, &ticking));
	EXPECT_EQ(1, ticking);
	burn_cpu(2 * 1000 * 1000);
	ASSERT_EQ(0, page_count(pc, &b, NULL));
	EXPECT_GE(b - a, 1000 * 1000) TH_LOG("%llu ns in the page for 2 ms",
					     b - a);

	/* never behind read() nor ahead of it */
	equal = bracket_rounds(_metadata, fd, pc, 200, NULL);
	EXPECT_GE(equal, 0);

	/* disabled: still, and exactly read()'s */
	ASSERT_EQ(0, disable(fd));
	ASSERT_EQ(0, page_count(pc, &a, &ticking));
	EXPECT_EQ(0, ticking);
	burn_cpu(1000 * 1000);
	ASSERT_EQ(0, page_count(pc, &b, NULL));
	EXPECT_EQ(a, b);
	v = read_value(fd);
	EXPECT_EQ(a, v);
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, page_count(pc, &b, &ticking));
	EXPECT_EQ(1, ticking);
	EXPECT_GE(b, a);
	unmap_page(pc);
	close(fd);
}

/* A thread that keeps the CPUs busy, so that the reader is preempted. */
static int stop_spinner;

static void *spinner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_spinner, __ATOMIC_RELAXED))
		;
	return NULL;
}

TEST(counts_across_preemption_and_migration)
{
	static const __u64 configs[] = {
		PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	struct perf_event_mmap_page *pc[3];
	pthread_t spin[2];
	__u64 first, last;
	int fd[3], i, equal;

	nr_hop_cpus = nr_cpus_allowed(hop_cpus, 8);
	for (i = 0; i < 3; i++) {
		fd[i] = open_counting(configs[i]);
		ASSERT_GE(fd[i], 0) TH_LOG("%s", strerror(errno));
		pc[i] = map_page(fd[i]);
		ASSERT_NE(NULL, pc[i]) TH_LOG("mmap: %s", strerror(errno));
		if (configs[i] == PERF_COUNT_SW_TASK_CLOCK &&
		    !pc[i]->cap_user_time && !pc[i]->cap_user_count)
			SKIP(return, "no cap_user_time for the clock");
		ASSERT_EQ(1, (int)pc[i]->cap_user_count)
			TH_LOG("no cap_user_count (an extension mainline lacks)");
	}
	__atomic_store_n(&stop_spinner, 0, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&spin[i], NULL, spinner, NULL));

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, page_count(pc[i], &first, NULL));
		/* a round costs a time slice (the yield among the spinners) */
		equal = bracket_rounds(_metadata, fd[i], pc[i], ROUNDS / 8,
				       hop);
		ASSERT_EQ(0, page_count(pc[i], &last, NULL));
		if (configs[i] != PERF_COUNT_SW_TASK_CLOCK)
			EXPECT_GE(equal, 1);
		EXPECT_GE(equal, 0);
		if (configs[i] == PERF_COUNT_SW_CONTEXT_SWITCHES)
			EXPECT_GE(last - first, ROUNDS / 16)
				TH_LOG("%llu switches in the page", last - first);
		if (configs[i] == PERF_COUNT_SW_CPU_MIGRATIONS &&
		    nr_hop_cpus > 1)
			EXPECT_GE(last - first, ROUNDS / 16)
				TH_LOG("%llu migrations in the page",
				       last - first);
	}
	__atomic_store_n(&stop_spinner, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(spin[i], NULL);
	for (i = 0; i < 3; i++) {
		unmap_page(pc[i]);
		close(fd[i]);
	}
}

TEST(group_read_from_pages)
{
	static const __u64 configs[] = {
		PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	struct perf_event_mmap_page *pc[GROUP_MAX];
	__u64 before[GROUP_MAX], after[GROUP_MAX], buf[1 + GROUP_MAX];
	struct perf_event_attr attr;
	int fd[GROUP_MAX], n = 0, i, r, equal = 0, clock = -1;

	nr_hop_cpus = nr_cpus_allowed(hop_cpus, 8);
	for (i = 0; i < 4; i++) {
		sw_attr(&attr, configs[i]);
		attr.read_format = PERF_FORMAT_GROUP;
		fd[n] = sys_perf_event_open(&attr, 0, -1, n ? fd[0] : -1, 0);
		ASSERT_GE(fd[n], 0) TH_LOG("%s", strerror(errno));
		pc[n] = map_page(fd[n]);
		ASSERT_NE(NULL, pc[n]) TH_LOG("mmap: %s", strerror(errno));
		if (configs[i] == PERF_COUNT_SW_TASK_CLOCK && !pc[n]->cap_user_time) {
			/* no clock the page can give: a group without it */
			ASSERT_EQ(0, (int)pc[n]->cap_user_count);
			unmap_page(pc[n]);
			close(fd[n]);
			continue;
		}
		ASSERT_EQ(1, (int)pc[n]->cap_user_count)
			TH_LOG("no cap_user_count (an extension mainline lacks)");
		if (configs[i] == PERF_COUNT_SW_TASK_CLOCK)
			clock = n;
		n++;
	}

	for (r = 0; r < ROUNDS / 4; r++) {
		ASSERT_EQ(0, pages_count(pc, n, before));
		ASSERT_EQ((ssize_t)((1 + n) * sizeof(__u64)),
			  read(fd[0], buf, sizeof(buf)));
		ASSERT_EQ(0, pages_count(pc, n, after));
		ASSERT_EQ(n, buf[0]);
		for (i = 0; i < n; i++) {
			EXPECT_LE(before[i], buf[1 + i])
				TH_LOG("round %d member %d: page %llu, read() %llu",
				       r, i, before[i], buf[1 + i]);
			EXPECT_LE(buf[1 + i], after[i])
				TH_LOG("round %d member %d: read() %llu, page %llu",
				       r, i, buf[1 + i], after[i]);
		}
		for (i = 0; i < n; i++)
			if (i != clock && before[i] != after[i])
				break;
		if (i == n) {
			for (i = 0; i < n; i++)
				if (i != clock)
					EXPECT_EQ(before[i], buf[1 + i]);
			equal++;
		}
		if (r % 2)
			hop(r);
		else
			fault_n(1);
	}
	EXPECT_GE(equal, 1);
	for (i = 0; i < n; i++) {
		unmap_page(pc[i]);
		close(fd[i]);
	}
}

/*
 * Another thread's task-clock, read from the page while that thread
 * sleeps: its clock stands still, and so must the page's value, which
 * must agree with read().  The page may not go on adding the time since
 * it was written while the thread ran (cap_user_count_time left set for
 * a task that is off the CPU).  Where the page offers no count for the
 * clock (no cap_user_time, or mainline) there is nothing to compare.
 */
#define SLEEP_NS	(300 * 1000 * 1000LL)
#define SLEEP_SLACK_NS	(10 * 1000 * 1000LL)

struct sleeper {
	pthread_t thread;
	int ready[2], go[2];
	int fd, err;
	struct perf_event_mmap_page *pc;
};

/* Open and map a task-clock on itself, run a little, then block. */
static void *sleeper_fn(void *arg)
{
	struct sleeper *s = arg;
	char c = 0;

	s->fd = open_counting(PERF_COUNT_SW_TASK_CLOCK);
	if (s->fd >= 0)
		s->pc = map_page(s->fd);
	s->err = s->pc ? 0 : errno;
	burn_cpu(5 * 1000 * 1000);
	if (write(s->ready[1], &c, 1) != 1)
		return NULL;
	/* blocks until the main thread has looked */
	if (read(s->go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

TEST(other_thread_task_clock_stands_still_in_page_while_it_sleeps)
{
	__u64 p0, p1, r0, r1, diff;
	struct sleeper s = { .fd = -1 };
	int t0, t1;
	char c = 0;

	ASSERT_EQ(0, pipe(s.ready));
	ASSERT_EQ(0, pipe(s.go));
	ASSERT_EQ(0, pthread_create(&s.thread, NULL, sleeper_fn, &s));
	ASSERT_EQ(1, read(s.ready[0], &c, 1));
	ASSERT_NE(NULL, s.pc) TH_LOG("task-clock of the thread: %s",
				     strerror(s.err));
	if (!s.pc->cap_user_count) {
		TH_LOG("no cap_user_count for task-clock: nothing to compare");
	} else {
		/* the thread is in its read() by now */
		usleep(50 * 1000);
		ASSERT_EQ(0, page_count(s.pc, &p0, &t0));
		r0 = read_value(s.fd);
		usleep(SLEEP_NS / 1000);
		ASSERT_EQ(0, page_count(s.pc, &p1, &t1));
		r1 = read_value(s.fd);
		TH_LOG("page %llu -> %llu ns (cap_user_count_time %d, %d), "
		       "read() %llu -> %llu ns, over %lld ms asleep",
		       p0, p1, t0, t1, r0, r1, SLEEP_NS / 1000000);
		EXPECT_NE(~0ULL, r1);
		EXPECT_GE(r1, r0);
		EXPECT_GE(SLEEP_SLACK_NS, r1 - r0);
		EXPECT_GE(p1, p0);
		EXPECT_GE(SLEEP_SLACK_NS, p1 - p0)
			TH_LOG("the page's clock ran while its task slept");
		diff = p1 > r1 ? p1 - r1 : r1 - p1;
		EXPECT_GE(SLEEP_SLACK_NS, diff)
			TH_LOG("page %llu ns, read() %llu ns", p1, r1);
	}
	ASSERT_EQ(1, write(s.go[1], &c, 1));
	ASSERT_EQ(0, pthread_join(s.thread, NULL));
	unmap_page(s.pc);
	close(s.fd);
}

TEST(not_offered_where_the_page_cannot_tell)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc, *pc2;
	int fd, fd2;

	/* a sampling event: its count is not written at every change */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1000;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	pc = map_page(fd);
	ASSERT_NE(NULL, pc);
	EXPECT_EQ(0, (int)pc->cap_user_count);
	unmap_page(pc);
	close(fd);

	/* inherited: the children's counts come in at their exit */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	pc = map_page(fd);
	ASSERT_NE(NULL, pc);
	EXPECT_EQ(0, (int)pc->cap_user_count);
	unmap_page(pc);
	close(fd);

	/* a buffer two events write to: the page is no one's count */
	fd = open_counting(PERF_COUNT_SW_PAGE_FAULTS);
	ASSERT_GE(fd, 0);
	pc = map_page(fd);
	ASSERT_NE(NULL, pc);
	ASSERT_EQ(1, (int)pc->cap_user_count)
		TH_LOG("no cap_user_count (an extension mainline lacks)");
	fd2 = open_counting(PERF_COUNT_SW_PAGE_FAULTS);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd));
	pc2 = map_page(fd2);
	ASSERT_NE(NULL, pc2);
	ASSERT_EQ(0, touch_pages(4));
	EXPECT_EQ(0, (int)pc->cap_user_count);
	unmap_page(pc2);
	unmap_page(pc);
	close(fd2);
	close(fd);
}

TEST_HARNESS_MAIN
