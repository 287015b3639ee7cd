// SPDX-License-Identifier: GPL-2.0
/*
 * What this core offers beyond mainline: the extensions of the ABI that
 * Documentation/userspace-api/perf_event/ describes.  Mainline refuses each
 * of them (an attr it rejects with EINVAL), so a mainline kernel fails the
 * tests that use one: that is the difference, shown.  The tests of the
 * refusals hold on every kernel.
 *
 * Randomised sample periods (attr.period_random_bits = k): after each
 * overflow the event counts sample_period - 2^(k-1) + r events to the next,
 * r uniform below 2^k; PERF_SAMPLE_PERIOD reports each period.
 *
 * The output state in the control page (cap_output_state): output_state
 * says whether PERF_EVENT_IOC_PAUSE_OUTPUT holds the buffer, and, while it
 * does, data_bound in an overwrite buffer is the other end of the records
 * that are still whole, so that a reader parses no torn record.
 *
 * One buffer for a whole process: an inherited per-task event (cpu == -1)
 * may be mmap()ed, and every thread's copy writes into that one buffer,
 * from whichever CPU the thread runs on.
 *
 * One fd for every CPU (PERF_FLAG_ALL_CPUS, pid == -1, cpu == -1): an
 * event on each possible CPU behind one fd; read() gives the sum, or each
 * CPU's values with PERF_FORMAT_PER_CPU; ENABLE, DISABLE, RESET, ID and
 * SET_FILTER apply to all CPUs in one call; mmap() at offset cpu * length
 * maps that CPU's buffer, which its samples go to.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define DATA_PAGES	64
#define MAX_SAMPLES	4096

/*
 * Spin in user mode for @n loop turns, with no system call: a clock event
 * that excludes the kernel then finds this thread in user mode at nearly
 * every tick (burn_cpu() reads its CPU clock, a system call, often).
 */
static void spin_user(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r" (i) : "memory");
}

/* A sampling attr of software event @config, period @period, k = @bits. */
static void random_attr(struct perf_event_attr *attr, __u64 config,
			__u64 period, unsigned int bits)
{
	sw_attr(attr, config);
	attr->sample_period = period;
	attr->period_random_bits = bits;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * The PERIOD (and, with PERF_SAMPLE_READ, the count) of each sample, and
 * whether a THROTTLE or UNTHROTTLE record came before it (periods run out
 * unsampled while an event is throttled).
 */
struct periods {
	__u64 period[MAX_SAMPLES];
	__u64 count[MAX_SAMPLES];
	char after_gap[MAX_SAMPLES];
	int gap;
	int n;
	int bad;
};

/* Read every PERF_RECORD_SAMPLE of sample_type PERIOD [| READ] from @r. */
static void collect(struct ring *r, int with_read, struct periods *p)
{
	__u64 buf[64];
	struct perf_event_header *h;

	while ((h = ring_next(r, buf, sizeof(buf)))) {
		__u64 *v = (__u64 *)(h + 1);

		if (h->type == PERF_RECORD_THROTTLE ||
		    h->type == PERF_RECORD_UNTHROTTLE)
			p->gap = 1;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (h->size != sizeof(*h) + (with_read ? 16 : 8)) {
			p->bad++;
			continue;
		}
		if (p->n < MAX_SAMPLES) {
			p->period[p->n] = v[0];
			p->count[p->n] = with_read ? v[1] : 0;
			p->after_gap[p->n] = p->gap;
			p->gap = 0;
			p->n++;
		}
	}
	if (r->bad)
		p->bad++;
	ring_publish(r);
}

TEST(random_period_refusals)
{
	struct perf_event_attr attr;
	int fd;

	/* a counting event has no period to draw */
	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 0, 4);
	EXPECT_EQ(EINVAL, perf_open_errno(&attr));

	/* frequency mode moves its period itself */
	random_attr(&attr, PERF_COUNT_SW_TASK_CLOCK, 1000, 4);
	attr.freq = 1;
	EXPECT_EQ(EINVAL, perf_open_errno(&attr));

	/* the period must be above 2^(k-1) */
	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 8, 4);
	EXPECT_EQ(EINVAL, perf_open_errno(&attr));

	/* k at most 63 */
	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 62, 64);
	EXPECT_EQ(EINVAL, perf_open_errno(&attr));

	/* PERF_EVENT_IOC_PERIOD keeps to the same rule */
	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1000, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	close(fd);
	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1000, 4);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		SKIP(return, "no period_random_bits: %s (mainline refuses it)",
		     strerror(errno));
	{
		__u64 small = 8, fine = 9;

		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &small));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &fine));
	}
	close(fd);
}

/*
 * A task-clock sampler with k = 16: every period within 2^15 of the base,
 * nearly all of them different, spread over the whole range, and their
 * mean within five standard errors of the base.
 */
TEST(random_period_clock_distribution)
{
	const __u64 base = 1000000, half_range = 1 << 15;
	static struct periods p;
	struct perf_event_attr attr;
	__u64 lo = ~0ULL, hi = 0;
	double sum = 0, mean, off;
	int fd, i, distinct = 0, rounds;
	struct ring r;

	random_attr(&attr, PERF_COUNT_SW_TASK_CLOCK, base, 16);
	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("period_random_bits refused: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE));
	memset(&p, 0, sizeof(p));
	ASSERT_EQ(0, enable(fd));
	for (rounds = 0; p.n < 400 && rounds < 400; rounds++) {
		spin_user(10 * 1000 * 1000);
		collect(&r, 0, &p);
	}
	disable(fd);
	collect(&r, 0, &p);
	ASSERT_EQ(0, p.bad);
	ASSERT_LE(400, p.n) TH_LOG("only %d samples", p.n);

	/* the first period is the base itself; the draws come after it */
	EXPECT_EQ(base, p.period[0]);
	for (i = 1; i < p.n; i++) {
		int j;

		EXPECT_LE(base - half_range, p.period[i]);
		EXPECT_GT(base + half_range, p.period[i]);
		lo = p.period[i] < lo ? p.period[i] : lo;
		hi = p.period[i] > hi ? p.period[i] : hi;
		sum += p.period[i];
		for (j = 1; j < i && p.period[j] != p.period[i]; j++)
			;
		distinct += j == i;
	}
	mean = sum / (p.n - 1);
	off = mean > base ? mean - base : base - mean;
	TH_LOG("%d samples, periods %llu..%llu, mean %.0f, %d distinct", p.n,
	       (unsigned long long)lo, (unsigned long long)hi, mean, distinct);
	EXPECT_GT(base - half_range / 2, lo);
	EXPECT_LT(base + half_range / 2, hi);
	/*
	 * Uniform over 2^16 values: variance 2^32 / 12.  The mean of n draws
	 * within five standard errors: off^2 * n < 25 * 2^32 / 12.
	 */
	EXPECT_GT(25.0 * 4294967296.0 / 12, off * off * (p.n - 1));
	EXPECT_LE(p.n * 9 / 10, distinct);
	ring_unmap(&r);
	close(fd);
}

/*
 * A page-fault sampler with k = 4 (periods 24 to 39): between two samples
 * the count grows by exactly the period the second reports, so the periods
 * reported are the periods counted (unless the event was throttled in
 * between, when periods run out unsampled: those pairs are not compared).
 */
TEST(random_period_counts_match_periods)
{
	static struct periods p;
	struct perf_event_attr attr;
	int fd, i, rounds, compared = 0;
	struct ring r;

	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 32, 4);
	attr.sample_type = PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("period_random_bits refused: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE));
	memset(&p, 0, sizeof(p));
	ASSERT_EQ(0, enable(fd));
	for (rounds = 0; p.n < 200 && rounds < 100; rounds++) {
		ASSERT_EQ(0, touch_pages(256));
		collect(&r, 1, &p);
	}
	disable(fd);
	collect(&r, 1, &p);
	ASSERT_EQ(0, p.bad);
	ASSERT_LE(200, p.n);
	for (i = 0; i < p.n; i++) {
		__u64 before = i ? p.count[i - 1] : 0;

		EXPECT_LE(24, p.period[i]);
		EXPECT_GT(40, p.period[i]);
		if (p.after_gap[i])
			continue;
		EXPECT_EQ(p.period[i], p.count[i] - before)
			TH_LOG("sample %d: count %llu after %llu", i,
			       (unsigned long long)p.count[i],
			       (unsigned long long)before);
		compared++;
	}
	TH_LOG("%d samples, %d compared with the one before", p.n, compared);
	EXPECT_LE(p.n / 2, compared);
	ring_unmap(&r);
	close(fd);
}

/* A sampler of user-space cycles every @period cycles. */
static void cycles_attr(struct perf_event_attr *attr, __u64 period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = PERF_COUNT_HW_CPU_CYCLES;
	attr->sample_period = period;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* Whether an open's @err says there is no hardware cycles counter. */
static int no_cycles_counter(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

/*
 * The same on a hardware counter (cycles), where there is one: the driver
 * arms each period from hw.sample_period at its reload.
 */
TEST(random_period_hardware)
{
	const __u64 base = 100000, half_range = 1 << 11;
	static struct periods p;
	struct perf_event_attr attr;
	int fd, i, rounds, distinct = 0;
	struct ring r;

	cycles_attr(&attr, base);
	attr.period_random_bits = 12;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && no_cycles_counter(errno))
		SKIP(return, "no hardware cycles counter: %s",
		     strerror(errno));
	ASSERT_LE(0, fd) TH_LOG("period_random_bits refused: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE));
	memset(&p, 0, sizeof(p));
	ASSERT_EQ(0, enable(fd));
	for (rounds = 0; p.n < 100 && rounds < 100; rounds++) {
		spin_user(10 * 1000 * 1000);
		collect(&r, 0, &p);
	}
	disable(fd);
	collect(&r, 0, &p);
	ASSERT_EQ(0, p.bad);
	ASSERT_LE(100, p.n) TH_LOG("only %d samples", p.n);
	for (i = 0; i < p.n; i++) {
		int j;

		EXPECT_LE(base - half_range, p.period[i]);
		EXPECT_GT(base + half_range, p.period[i]);
		for (j = 0; j < i && p.period[j] != p.period[i]; j++)
			;
		distinct += j == i;
	}
	TH_LOG("%d samples, %d distinct periods", p.n, distinct);
	EXPECT_LE(p.n / 2, distinct);
	ring_unmap(&r);
	close(fd);
}

/* ---------------------------------------------------------------------
 * The output state
 */

#define OV_PAGES	2
#define OV_SAMPLE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* A task-clock sampler of @pid (every 20 us) with OV_SAMPLE records. */
static int ov_open(pid_t pid, int backward)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 20000;
	attr.sample_type = OV_SAMPLE;
	attr.write_backward = backward;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.exclude_callchain_kernel = 1;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

static __u64 ov_word(struct ring *r, __u64 pos)
{
	__u64 v;

	ring_copy(r, pos, &v, sizeof(v));
	return v;
}

/*
 * Parse the records in [@from, @to): each a whole sample of @pid (its size
 * agreeing with its callchain) or another kind of record, sample times
 * rising (forward) or falling (backward: the newest comes first), ending
 * exactly at @to; LOST, THROTTLE and UNTHROTTLE records may come between.
 * Returns the number of samples, or -1 (with a log line).
 */
static int ov_parse(struct __test_metadata *_metadata, struct ring *r,
		    __u64 from, __u64 to, pid_t pid, int backward)
{
	__u64 pos = from, last = backward ? ~0ULL : 0;
	int n = 0;

	while (pos != to) {
		struct perf_event_header h;
		__u64 tidw, time, nr;

		if (to - pos < sizeof(h)) {
			TH_LOG("%llu bytes before the end: no room for a header",
			       (unsigned long long)(to - pos));
			return -1;
		}
		ring_copy(r, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > to - pos) {
			TH_LOG("bad size %u at %llu", h.size,
			       (unsigned long long)pos);
			return -1;
		}
		/* LOST: the samples dropped while the buffer was paused */
		if (h.type == PERF_RECORD_THROTTLE ||
		    h.type == PERF_RECORD_UNTHROTTLE ||
		    h.type == PERF_RECORD_LOST) {
			pos += h.size;
			continue;
		}
		if (h.type != PERF_RECORD_SAMPLE) {
			TH_LOG("record type %u at %llu", h.type,
			       (unsigned long long)pos);
			return -1;
		}
		tidw = ov_word(r, pos + 16);
		time = ov_word(r, pos + 24);
		nr = ov_word(r, pos + 40);
		if (h.size != 48 + 8 * nr || (pid_t)tidw != pid ||
		    (pid_t)(tidw >> 32) != pid ||
		    (backward ? time > last : time < last)) {
			TH_LOG("torn sample at %llu: size %u, nr %llu, tid %llx",
			       (unsigned long long)pos, h.size,
			       (unsigned long long)nr, (unsigned long long)tidw);
			return -1;
		}
		last = time;
		pos += h.size;
		n++;
	}
	return n;
}

/*
 * PAUSE_OUTPUT returns at once; the control page says paused once the
 * records that were being written are whole, a grace period later.
 */
static int wait_output_paused(struct ring *r)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (__atomic_load_n(&r->meta->output_state, __ATOMIC_ACQUIRE) ==
		    PERF_OUTPUT_STATE_PAUSED)
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * A buffer that is full and one that is paused look alike to a reader of
 * data_head and data_tail; output_state tells them apart.
 */
TEST(output_state_paused_flag)
{
	struct ring r;
	__u64 head;
	int fd, i;

	fd = ov_open(0, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, OV_PAGES, PROT_READ | PROT_WRITE));
	ASSERT_EQ(1, (int)r.meta->cap_output_state)
		TH_LOG("no cap_output_state (an extension mainline lacks)");
	EXPECT_EQ(0, r.meta->output_state);

	/* nothing read: the buffer fills up, and is not paused */
	head = 0;
	for (i = 0; i < 100; i++) {
		spin_user(10 * 1000 * 1000);
		if (head > r.data_size / 2 && head == ring_head(&r))
			break;
		head = ring_head(&r);
	}
	EXPECT_GT(100, i) TH_LOG("data_head still moves: %llu",
				 (unsigned long long)head);
	EXPECT_EQ(0, r.meta->output_state);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(0, wait_output_paused(&r));
	/* pausing twice is still paused */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(PERF_OUTPUT_STATE_PAUSED, r.meta->output_state);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(0, r.meta->output_state);
	/* resumed before it settled: it says paused only for the last pause */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	usleep(100 * 1000);
	EXPECT_EQ(0, r.meta->output_state);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(0, wait_output_paused(&r));
	ring_unmap(&r);
	close(fd);
}

/*
 * perf record --overwrite pauses every CPU's buffer for each snapshot:
 * a pause must not cost a grace period (milliseconds).  400 pauses and
 * resumes take well under a second unless each waits for one.
 */
TEST(output_pause_does_not_wait_a_grace_period)
{
	struct timespec t0, t1;
	struct ring r;
	long long ns;
	int fd, i;

	fd = ov_open(0, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, OV_PAGES, PROT_READ | PROT_WRITE));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 400; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec;
	TH_LOG("400 pauses and resumes in %lld us", ns / 1000);
	EXPECT_GT(1000000000LL, ns);
	ring_unmap(&r);
	close(fd);
}

/*
 * An overwrite buffer of 8 KiB, written by a child burning CPU while this
 * thread pauses it, parses what data_bound says is whole, and lets it go
 * on, ten times; the samples (40 + 8 * depth bytes) do not divide the
 * buffer, so the oldest whole one is rarely at data_head - data_size.
 */
static void overwrite_rounds(struct __test_metadata *_metadata, int backward)
{
	int fd, go, round, n, total = 0;
	__u64 head, bound;
	struct ring r;
	pid_t pid;
	char c = 0;

	pid = fork_waiting_burner(30LL * 1000 * 1000 * 1000, &go);
	ASSERT_LT(0, pid);
	fd = ov_open(pid, backward);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, OV_PAGES, PROT_READ));
	ASSERT_EQ(1, (int)r.meta->cap_output_state)
		TH_LOG("no cap_output_state (an extension mainline lacks)");
	ASSERT_EQ(1, write(go, &c, 1));

	for (round = 0; round < 10; round++) {
		/* let it wrap the buffer a few times */
		for (n = 0; n < 200; n++) {
			usleep(10000);
			head = ring_head(&r);
			if ((backward ? -head : head) > (round + 3) * r.data_size)
				break;
		}
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
		ASSERT_EQ(0, wait_output_paused(&r));
		head = ring_head(&r);
		bound = __atomic_load_n(&r.meta->data_bound, __ATOMIC_ACQUIRE);
		if (backward) {
			ASSERT_LE(bound - head, r.data_size);
			n = ov_parse(_metadata, &r, head, bound, pid, 1);
		} else {
			ASSERT_LE(head - bound, r.data_size);
			n = ov_parse(_metadata, &r, bound, head, pid, 0);
		}
		ASSERT_LT(0, n) TH_LOG("round %d: head %llu, bound %llu",
				       round, (unsigned long long)head,
				       (unsigned long long)bound);
		total += n;
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
		EXPECT_EQ(0, r.meta->output_state);
	}
	TH_LOG("%d whole samples parsed in 10 rounds", total);
	kill(pid, SIGKILL);
	reap_child(pid);
	close(go);
	ring_unmap(&r);
	close(fd);
}

TEST(overwrite_forward_bound_parses)
{
	overwrite_rounds(_metadata, 0);
}

TEST(overwrite_backward_bound_parses)
{
	overwrite_rounds(_metadata, 1);
}

/* ---------------------------------------------------------------------
 * One buffer for a whole process
 */

#define PB_THREADS	64
#define PB_PAGES	16	/* pages each thread touches */
#define PB_SAMPLE	(PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU)

struct pb_thread {
	pthread_t thread;
	pthread_barrier_t *start;
	char *area;		/* PB_PAGES pages, kept until the test ends */
	pid_t tid;
	int samples;		/* samples found with an address in area */
};

/* Wait for the others, then take one page fault on each page of area. */
static void *pb_worker(void *arg)
{
	struct pb_thread *t = arg;
	long page = sysconf(_SC_PAGESIZE);
	int i;

	t->tid = syscall(SYS_gettid);
	pthread_barrier_wait(t->start);
	for (i = 0; i < PB_PAGES; i++)
		t->area[i * page] = 1;
	return NULL;
}

struct pb_tally {
	int bad;	/* samples of another process, or of the wrong thread */
	__u64 lost;	/* from PERF_RECORD_LOST */
	__u64 cpus;	/* bit n: a sample taken on CPU n (n < 64) */
};

/* Consume every record so far; a sample's address names its thread. */
static void pb_drain(struct ring *r, struct pb_thread *t, int n,
		     struct pb_tally *tally)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_header *h;
	__u64 buf[32];
	int i;

	while ((h = ring_next(r, buf, sizeof(buf)))) {
		__u64 *v = (__u64 *)(h + 1);
		char *addr;

		if (h->type == PERF_RECORD_LOST) {
			tally->lost += v[1];
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (h->size != sizeof(*h) + 24 ||
		    (pid_t)v[0] != getpid()) {
			tally->bad++;
			continue;
		}
		if ((__u32)v[2] < 64)
			tally->cpus |= 1ULL << (__u32)v[2];
		addr = (char *)(unsigned long)v[1];
		for (i = 0; i < n; i++) {
			if (addr < t[i].area || addr >= t[i].area + PB_PAGES * page)
				continue;
			if ((pid_t)(v[0] >> 32) != t[i].tid)
				tally->bad++;
			else
				t[i].samples++;
		}
	}
	ring_publish(r);
}

/*
 * PB_THREADS threads each take PB_PAGES page faults at once, sampled by
 * one inherited event of this process into one buffer of @data_pages
 * pages, which this thread reads as they run (@read_along) or only at the
 * end.  Every record must parse, every sample must carry the thread whose
 * page it names, and the samples plus the lost records must account for
 * every fault: exactly, thread by thread, when none was lost.
 */
static void process_buffer(struct __test_metadata *_metadata, int data_pages,
			   int read_along)
{
	static struct pb_thread t[PB_THREADS];
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	pthread_barrier_t start;
	struct pb_tally tally = { 0 };
	struct ring r;
	int fd, i, found = 0, short_threads = 0;
	__u64 values[2];

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PB_SAMPLE;
	attr.read_format = PERF_FORMAT_LOST;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, data_pages, PROT_READ | PROT_WRITE))
		TH_LOG("mmap of an inherited per-task event: %s (mainline refuses it)",
		       strerror(errno));

	ASSERT_EQ(0, pthread_barrier_init(&start, NULL, PB_THREADS + 1));
	for (i = 0; i < PB_THREADS; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].start = &start;
		t[i].area = mmap(NULL, PB_PAGES * page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, t[i].area);
		madvise(t[i].area, PB_PAGES * page, MADV_NOHUGEPAGE);
		ASSERT_EQ(0, pthread_create(&t[i].thread, NULL, pb_worker, &t[i]));
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < PB_THREADS; i++) {
		while (read_along && pthread_tryjoin_np(t[i].thread, NULL))
			pb_drain(&r, t, PB_THREADS, &tally);
		if (!read_along)
			pthread_join(t[i].thread, NULL);
	}
	pb_drain(&r, t, PB_THREADS, &tally);
	ASSERT_EQ(sizeof(values), read(fd, values, sizeof(values)));

	for (i = 0; i < PB_THREADS; i++) {
		EXPECT_GE(PB_PAGES, t[i].samples) TH_LOG("thread %d", i);
		found += t[i].samples;
		short_threads += t[i].samples < PB_PAGES;
		munmap(t[i].area, PB_PAGES * page);
	}
	TH_LOG("%d of %d faults sampled, %llu lost (read: %llu), %d threads short, CPUs %llx",
	       found, PB_THREADS * PB_PAGES, (unsigned long long)tally.lost,
	       (unsigned long long)values[1], short_threads,
	       (unsigned long long)tally.cpus);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(0, tally.bad);
	/* every record dropped is counted, whether reported yet or not */
	EXPECT_LE(tally.lost, values[1]);
	EXPECT_LE(PB_THREADS * PB_PAGES, found + values[1]);
	if (!values[1])
		EXPECT_EQ(0, short_threads);
	pthread_barrier_destroy(&start);
	ring_unmap(&r);
	close(fd);
}

/* A buffer large enough for every sample: each thread's are all there. */
TEST(process_buffer_all_threads)
{
	process_buffer(_metadata, 64, 1);
}

/* A small buffer, read as the threads run: it wraps, and may lose some. */
TEST(process_buffer_wraps_while_read)
{
	process_buffer(_metadata, 4, 1);
}

/* A buffer that fills up unread: what did not fit is counted as lost. */
TEST(process_buffer_full_counts_lost)
{
	process_buffer(_metadata, 1, 0);
}

/* Spin in user mode until *stop, which the test sets; @arg: a pb_thread. */
static void *pb_spinner(void *arg)
{
	struct pb_thread *t = arg;

	t->tid = syscall(SYS_gettid);
	pthread_barrier_wait(t->start);
	while (!__atomic_load_n((int *)t->area, __ATOMIC_RELAXED))
		spin_user(10000);
	return NULL;
}

/*
 * Cycles, where there is a hardware counter: the copies' samples come
 * from the PMU's interrupt on each CPU, into the one buffer at once.
 */
TEST(process_buffer_hardware)
{
	static struct pb_thread t[8];
	struct perf_event_attr attr;
	struct perf_event_header *h;
	pthread_barrier_t start;
	int fd, i, stop = 0, samples = 0, strangers = 0;
	__u64 buf[8];
	struct ring r;

	cycles_attr(&attr, 100000);
	attr.sample_type = PERF_SAMPLE_TID;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && no_cycles_counter(errno))
		SKIP(return, "no hardware cycles counter: %s", strerror(errno));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64, PROT_READ | PROT_WRITE))
		TH_LOG("mmap of an inherited per-task event: %s (mainline refuses it)",
		       strerror(errno));

	ASSERT_EQ(0, pthread_barrier_init(&start, NULL, 9));
	for (i = 0; i < 8; i++) {
		t[i].start = &start;
		t[i].area = (char *)&stop;
		ASSERT_EQ(0, pthread_create(&t[i].thread, NULL, pb_spinner, &t[i]));
	}
	pthread_barrier_wait(&start);
	usleep(500 * 1000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 8; i++)
		pthread_join(t[i].thread, NULL);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		if (h->size != sizeof(*h) + 8 || (pid_t)buf[1] != getpid()) {
			strangers++;
			continue;
		}
		for (i = 0; i < 8 && t[i].tid != (pid_t)(buf[1] >> 32); i++)
			;
		/* this thread's own samples (it sleeps) are not expected */
		strangers += i == 8 && (pid_t)(buf[1] >> 32) != getpid();
	}
	TH_LOG("%d samples", samples);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(0, strangers);
	EXPECT_LT(0, samples);
	pthread_barrier_destroy(&start);
	ring_unmap(&r);
	close(fd);
}

#define PB_SWITCH_THREADS	16
#define PB_STACK_BYTES		4096

struct pb_churn {
	pthread_t thread;
	char *area;		/* PB_PAGES pages, faulted in again and again */
	int *stop;
};

/* Fault PB_PAGES pages in, drop them, nap 20 us; until *stop. */
static void *pb_churner(void *arg)
{
	struct pb_churn *c = arg;
	long page = sysconf(_SC_PAGESIZE);
	struct timespec nap = { 0, 20 * 1000 };
	int i;

	while (!__atomic_load_n(c->stop, __ATOMIC_RELAXED)) {
		madvise(c->area, PB_PAGES * page, MADV_DONTNEED);
		for (i = 0; i < PB_PAGES; i++)
			c->area[i * page] = 1;
		nanosleep(&nap, NULL);
	}
	return NULL;
}

/*
 * The two kinds of writer a process-wide buffer has at once: samples of
 * page faults, written with interrupts on in the faulting thread, and the
 * SWITCH records of the same event's copies, written by the scheduler
 * with its runqueue lock held and interrupts off, on every CPU.  Neither
 * may wait on the other in a way an interrupt can turn into a deadlock;
 * a kernel with lockdep says so as soon as both kinds have written.  The
 * records must parse and both kinds must be there.
 */
TEST(process_buffer_switches_beside_faults)
{
	static struct pb_churn c[PB_SWITCH_THREADS];
	static __u64 buf[(PB_STACK_BYTES + 1024) / 8];
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct timespec t0, now;
	long samples = 0, switches = 0;
	int fd, i, stop = 0;
	struct ring r;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = 1;	/* one register is enough */
	attr.sample_stack_user = PB_STACK_BYTES;
	attr.inherit = 1;
	attr.context_switch = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64, PROT_READ | PROT_WRITE))
		TH_LOG("mmap of an inherited per-task event: %s (mainline refuses it)",
		       strerror(errno));

	for (i = 0; i < PB_SWITCH_THREADS; i++) {
		c[i].stop = &stop;
		c[i].area = mmap(NULL, PB_PAGES * page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, c[i].area);
		ASSERT_EQ(0, pthread_create(&c[i].thread, NULL, pb_churner, &c[i]));
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		while ((h = ring_next(&r, buf, sizeof(buf)))) {
			samples += h->type == PERF_RECORD_SAMPLE;
			switches += h->type == PERF_RECORD_SWITCH;
		}
		ring_publish(&r);
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < 3 && !r.bad);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < PB_SWITCH_THREADS; i++) {
		pthread_join(c[i].thread, NULL);
		munmap(c[i].area, PB_PAGES * page);
	}
	TH_LOG("%ld samples, %ld switch records", samples, switches);
	EXPECT_EQ(0, r.bad);
	EXPECT_LT(0, samples);
	EXPECT_LT(0, switches);
	ring_unmap(&r);
	close(fd);
}

/* ---- One fd for every CPU ---------------------------------------------- */

#define AC_MAX_CPUS	512
#define AC_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* A PERF_FORMAT_PER_CPU read with times and id: five words a CPU. */
struct ac_cpu {
	__u64 cpu, value, enabled, running, id;
};

struct ac_read {
	__u64 nr;
	struct ac_cpu c[AC_MAX_CPUS];
};

static int ac_open(__u64 config, __u64 read_format, int disabled)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.read_format = read_format;
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, -1, -1, -1,
				   PERF_FLAG_ALL_CPUS | PERF_FLAG_FD_CLOEXEC);
}

static int ac_read_per_cpu(int fd, struct ac_read *r)
{
	ssize_t n = read(fd, r, sizeof(*r));

	if (n < 8 || n != (ssize_t)(8 + r->nr * sizeof(r->c[0])))
		return -1;
	return 0;
}

/* Refusals first (mainline gives the same errors), then our own. */
TEST(all_cpus_refusals)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	__u64 word;
	void *p;
	int fd, other;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	/* one task, or one CPU, is not every CPU */
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1,
					  PERF_FLAG_ALL_CPUS));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, -1, 0, -1,
					  PERF_FLAG_ALL_CPUS));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, -1, -1, -1,
					  PERF_FLAG_ALL_CPUS |
					  PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, errno);
	/* the per-CPU read layout belongs to such an fd only */
	attr.read_format = PERF_FORMAT_PER_CPU;
	EXPECT_EQ(EINVAL, perf_open_errno(&attr));
	attr.read_format = PERF_FORMAT_PER_CPU | PERF_FORMAT_GROUP;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, -1, -1, -1,
					  PERF_FLAG_ALL_CPUS));
	EXPECT_EQ(EINVAL, errno);

	/* no groups: such an fd neither leads nor joins one */
	other = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, other);
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	other = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, other);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, -1, -1, other,
					  PERF_FLAG_ALL_CPUS));
	EXPECT_EQ(EINVAL, errno);

	/* the refusals of this core; mainline refuses the flag itself */
	fd = ac_open(PERF_COUNT_SW_CPU_CLOCK, PERF_FORMAT_PER_CPU, 0);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, fd, 0));
	EXPECT_EQ(EBADF, errno);
	/* a buffer too small for every CPU */
	EXPECT_EQ(-1, read(fd, &word, sizeof(word)));
	EXPECT_EQ(ENOSPC, errno);
	/* a mapping's offset is a whole number of its lengths: a CPU */
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd,
		 (off_t)100000 * 2 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* no AUX area: it would be one more offset */
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("CPU 0's buffer: %s", strerror(errno));
	EXPECT_EQ(0, ((struct perf_event_mmap_page *)p)->aux_offset);
	munmap(p, 2 * page);
	/* the ioctls of one event that do not apply to all CPUs at once */
	word = 1000;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &word));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* cpu-clock takes no filter, as one such event does not */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "cpu == 0"));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	close(other);
}

/*
 * cpu-clock counts wall time on every online CPU, idle or not: each online
 * CPU's value grows by about the time slept, and the sum read by a second
 * fd grows by that times the CPUs online.
 */
TEST(all_cpus_cpu_clock_every_cpu)
{
	const long long nap = 200 * 1000 * 1000LL;
	static struct ac_read a, b;
	__u64 sum_a[3], sum_b[3], id, grew = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long long t0, t;
	int fd, fd_sum, i;

	fd = ac_open(PERF_COUNT_SW_CPU_CLOCK,
		     AC_TIMES | PERF_FORMAT_ID | PERF_FORMAT_PER_CPU, 0);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	fd_sum = ac_open(PERF_COUNT_SW_CPU_CLOCK, AC_TIMES, 0);
	ASSERT_LE(0, fd_sum);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_NE(0, id);

	ASSERT_EQ(0, ac_read_per_cpu(fd, &a));
	ASSERT_EQ(sizeof(sum_a), read(fd_sum, sum_a, sizeof(sum_a)));
	t0 = monotonic_ns();
	usleep(nap / 1000);
	ASSERT_EQ(0, ac_read_per_cpu(fd, &b));
	ASSERT_EQ(sizeof(sum_b), read(fd_sum, sum_b, sizeof(sum_b)));
	t = monotonic_ns() - t0;

	ASSERT_EQ(a.nr, b.nr);
	ASSERT_LE(online, (long)a.nr);
	ASSERT_GE(AC_MAX_CPUS, a.nr);
	for (i = 0; i < (int)a.nr; i++) {
		__u64 d = b.c[i].value - a.c[i].value;

		EXPECT_EQ(a.c[i].cpu, b.c[i].cpu);
		if (i)
			EXPECT_LT(a.c[i - 1].cpu, a.c[i].cpu);
		EXPECT_EQ(id, a.c[i].id);
		EXPECT_LE(b.c[i].running, b.c[i].enabled);
		EXPECT_LE(a.c[i].value, b.c[i].value);
		if (!d)
			continue;	/* an offline CPU */
		grew++;
		EXPECT_LT(t / 2, (long long)d) TH_LOG("cpu %llu: %llu ns of %lld",
						      b.c[i].cpu, d, t);
		EXPECT_GT(t * 3 / 2, (long long)d);
	}
	EXPECT_EQ(online, (long)grew);
	EXPECT_LT(online * t / 2, (long long)(sum_b[0] - sum_a[0]));
	EXPECT_GT(online * t * 3 / 2, (long long)(sum_b[0] - sum_a[0]));
	EXPECT_LE(sum_b[2], sum_b[1]);
	close(fd_sum);
	close(fd);
}

/* ENABLE, DISABLE and RESET act on every CPU in one call. */
TEST(all_cpus_enable_disable_reset)
{
	static struct ac_read r;
	__u64 v[3], w[3];
	int fd, i;

	fd = ac_open(PERF_COUNT_SW_CPU_CLOCK, AC_TIMES, 1);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	usleep(20000);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(0, v[1]);

	ASSERT_EQ(0, enable(fd));
	usleep(50000);
	ASSERT_EQ(0, disable(fd));
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_LT(0, v[0]);
	EXPECT_LT(0, v[1]);
	EXPECT_LE(v[2], v[1]);
	usleep(30000);
	ASSERT_EQ(sizeof(w), read(fd, w, sizeof(w)));
	EXPECT_EQ(v[0], w[0]);
	EXPECT_EQ(v[1], w[1]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(sizeof(w), read(fd, w, sizeof(w)));
	EXPECT_EQ(0, w[0]);
	/* PERF_IOC_FLAG_GROUP changes nothing: the fd is its own group */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	usleep(20000);
	ASSERT_EQ(sizeof(w), read(fd, w, sizeof(w)));
	EXPECT_LT(0, w[0]);
	close(fd);

	/* disabled at open, each CPU's value stays 0 until enabled */
	fd = ac_open(PERF_COUNT_SW_CPU_CLOCK, AC_TIMES | PERF_FORMAT_ID |
		     PERF_FORMAT_PER_CPU, 1);
	ASSERT_LE(0, fd);
	usleep(20000);
	ASSERT_EQ(0, ac_read_per_cpu(fd, &r));
	for (i = 0; i < (int)r.nr; i++)
		EXPECT_EQ(0, r.c[i].value);
	close(fd);
}

/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE) stops every event the calling
 * process created, those behind an fd for every CPU among them, and
 * PR_TASK_PERF_EVENTS_ENABLE starts them again.  cpu-clock counts wall
 * time on every CPU, idle or not: any CPU left running shows.
 */
TEST(all_cpus_prctl_disable_enable)
{
	__u64 v[3], w[3];
	int fd;

	fd = ac_open(PERF_COUNT_SW_CPU_CLOCK, AC_TIMES, 0);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	burn_cpu(20 * 1000 * 1000LL);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	burn_cpu(20 * 1000 * 1000LL);
	usleep(20000);
	ASSERT_EQ(sizeof(w), read(fd, w, sizeof(w)));
	EXPECT_LT(0, v[0]);
	EXPECT_EQ(v[0], w[0]) TH_LOG("%llu ns more after the prctl",
				     (unsigned long long)(w[0] - v[0]));
	EXPECT_EQ(v[1], w[1]);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(20 * 1000 * 1000LL);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_LT(w[0], v[0]);
	EXPECT_LT(w[1], v[1]);
	close(fd);
}

/*
 * Context switches counted by one fd on every CPU match those counted by
 * one event per online CPU, opened inside the fd's window: mainline's way
 * of doing the same.
 */
TEST(all_cpus_matches_one_event_per_cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	static struct { __u64 nr; struct { __u64 cpu, value; } c[AC_MAX_CPUS]; } r;
	__u64 each[AC_MAX_CPUS], sum = 0, per_cpu_sum = 0;
	int fd, fds[AC_MAX_CPUS], i;
	struct echo_partner partner;

	ASSERT_GE(AC_MAX_CPUS, online);
	fd = ac_open(PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_FORMAT_PER_CPU, 0);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	for (i = 0; i < online; i++) {
		struct perf_event_attr attr;

		sw_attr(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
		fds[i] = sys_perf_event_open(&attr, -1, i, -1, 0);
		ASSERT_LE(0, fds[i]) TH_LOG("cpu %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, echo_partner_start(&partner));
	ASSERT_EQ(0, echo_partner_rounds(&partner, 500));
	ASSERT_EQ(0, echo_partner_stop(&partner));
	for (i = 0; i < online; i++) {
		each[i] = read_value(fds[i]);
		per_cpu_sum += each[i];
	}
	ASSERT_LT(0, read(fd, &r, sizeof(r)));
	ASSERT_GE(AC_MAX_CPUS, r.nr);
	for (i = 0; i < (int)r.nr; i++) {
		sum += r.c[i].value;
		if (r.c[i].cpu < (__u64)online)
			EXPECT_LE(each[r.c[i].cpu], r.c[i].value);
	}
	TH_LOG("all CPUs %llu, one event per CPU %llu", sum, per_cpu_sum);
	EXPECT_LE(1000, per_cpu_sum);
	EXPECT_LE(per_cpu_sum, sum);
	EXPECT_GE(per_cpu_sum + per_cpu_sum / 10 + 100, sum);
	for (i = 0; i < online; i++)
		close(fds[i]);
	close(fd);
}

/*
 * Sampling through one fd for every CPU: each CPU's samples go to that
 * CPU's buffer, mapped at offset cpu * length, and carry the fd's id.
 * cpu-clock samples every online CPU, idle or not; an offline CPU's
 * buffer stays empty.  poll() on the fd sees any CPU's wake-up.
 */
#define AC_PAGES	8
#define AC_SAMPLE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_CPU)

struct ac_sample {
	struct perf_event_header header;
	__u64 id;
	__u32 pid, tid;
	__u32 cpu, res;
};

TEST(all_cpus_sampling_per_cpu_buffers)
{
	long page = sysconf(_SC_PAGESIZE), len = (1 + AC_PAGES) * page;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	static struct ring rings[AC_MAX_CPUS];
	static struct ac_read cpus;
	long samples[AC_MAX_CPUS] = { 0 };
	struct perf_event_attr attr;
	union { struct ac_sample s; char b[256]; } rec;
	struct perf_event_header *h;
	int fd, i, with_samples = 0;
	struct pollfd pfd;
	__u64 id;
	void *p;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 1000000;	/* 1 ms of each CPU's clock */
	attr.sample_type = AC_SAMPLE;
	attr.read_format = AC_TIMES | PERF_FORMAT_ID | PERF_FORMAT_PER_CPU;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, -1, -1, -1,
				 PERF_FLAG_ALL_CPUS | PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	/* the per-CPU read names the possible CPUs */
	ASSERT_EQ(0, ac_read_per_cpu(fd, &cpus));
	ASSERT_LE(online, (long)cpus.nr);
	for (i = 0; i < (int)cpus.nr; i++) {
		ASSERT_GT(AC_MAX_CPUS, cpus.c[i].cpu);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)cpus.c[i].cpu * len);
		ASSERT_NE(MAP_FAILED, p) TH_LOG("cpu %llu: %s",
						cpus.c[i].cpu, strerror(errno));
		rings[i].meta = p;
		rings[i].data = (char *)p + page;
		rings[i].map_len = len;
		rings[i].data_size = (__u64)AC_PAGES * page;
	}
	/* one CPU's buffer has one size */
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd,
		 (off_t)cpus.c[0].cpu * 2 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, enable(fd));
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_TRUE(pfd.revents & POLLIN);
	usleep(200000);
	ASSERT_EQ(0, disable(fd));

	for (i = 0; i < (int)cpus.nr; i++) {
		while ((h = ring_next(&rings[i], &rec, sizeof(rec)))) {
			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			samples[i]++;
			EXPECT_EQ(sizeof(rec.s), h->size);
			EXPECT_EQ(id, rec.s.id);
			EXPECT_EQ(cpus.c[i].cpu, rec.s.cpu);
		}
		EXPECT_FALSE(rings[i].bad);
		ring_publish(&rings[i]);
		if (samples[i])
			with_samples++;
		TH_LOG("cpu %llu: %ld samples", cpus.c[i].cpu, samples[i]);
	}
	EXPECT_EQ(online, with_samples);
	for (i = 0; i < (int)cpus.nr; i++)
		ring_unmap(&rings[i]);
	close(fd);
}

static int ac_open_switches(long long tp, const char *filter)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = tp;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, -1, -1, -1,
				 PERF_FLAG_ALL_CPUS | PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 && filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * PERF_EVENT_IOC_SET_FILTER gives every CPU's event one tracing filter:
 * switches away from a task that does not exist count nothing, those
 * away from this test's pipe partner count on whichever CPU it runs.
 * The test and its partner share CPU 0, so that the partner is switched
 * away from in every round; on two CPUs it may find the next byte
 * already there and not block at all.
 */
TEST(all_cpus_tracepoint_filter)
{
	long long tp = tracepoint_id("sched", "sched_switch");
	struct echo_partner partner;
	int fd_none, fd_kid;
	char filter[64];
	__u64 none, kid;

	if (tp < 0)
		SKIP(return, "no tracefs or no sched:sched_switch");
	fd_none = ac_open_switches(tp, "prev_pid == 2147483647");
	ASSERT_LE(0, fd_none) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				     strerror(errno));
	/* a filter is set once; a bad one is refused */
	EXPECT_EQ(-1, ioctl(fd_none, PERF_EVENT_IOC_SET_FILTER, "prev_pid == 1"));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, ac_open_switches(tp, "no_such_field == 1"));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, pin_to_cpu(0, 0));
	ASSERT_EQ(0, echo_partner_start(&partner));
	snprintf(filter, sizeof(filter), "prev_pid == %d", partner.pid);
	fd_kid = ac_open_switches(tp, filter);
	ASSERT_LE(0, fd_kid) TH_LOG("%s: %s", filter, strerror(errno));
	ASSERT_EQ(0, enable(fd_none));
	ASSERT_EQ(0, enable(fd_kid));
	ASSERT_EQ(0, echo_partner_rounds(&partner, 200));
	ASSERT_EQ(0, disable(fd_kid));
	ASSERT_EQ(0, disable(fd_none));
	ASSERT_EQ(0, echo_partner_stop(&partner));
	none = read_value(fd_none);
	kid = read_value(fd_kid);
	TH_LOG("switches away from the partner %llu, from no task %llu",
	       (unsigned long long)kid, (unsigned long long)none);
	EXPECT_EQ(0, none);
	EXPECT_LE(190, kid);
	close(fd_kid);
	close(fd_none);
}

TEST_HARNESS_MAIN
