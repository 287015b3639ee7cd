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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define DATA_PAGES	64
#define MAX_SAMPLES	4096

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

/* The PERIOD (and, with PERF_SAMPLE_READ, the count) of each sample. */
struct periods {
	__u64 period[MAX_SAMPLES];
	__u64 count[MAX_SAMPLES];
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

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (h->size != sizeof(*h) + (with_read ? 16 : 8)) {
			p->bad++;
			continue;
		}
		if (p->n < MAX_SAMPLES) {
			p->period[p->n] = v[0];
			p->count[p->n] = with_read ? v[1] : 0;
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
	for (rounds = 0; p.n < 400 && rounds < 200; rounds++) {
		burn_cpu(20 * 1000 * 1000);
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
	EXPECT_LT(base - half_range / 2, lo);
	EXPECT_GT(base + half_range / 2, hi);
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
 * A page-fault sampler with k = 5 (periods 48 to 79): the count each sample
 * reads is exactly the sum of the periods reported so far, so the periods
 * reported are the periods counted.
 */
TEST(random_period_counts_match_periods)
{
	static struct periods p;
	struct perf_event_attr attr;
	__u64 sum = 0;
	int fd, i, rounds;
	struct ring r;

	random_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS, 64, 5);
	attr.sample_type = PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("period_random_bits refused: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE));
	memset(&p, 0, sizeof(p));
	ASSERT_EQ(0, enable(fd));
	for (rounds = 0; p.n < 300 && rounds < 100; rounds++) {
		ASSERT_EQ(0, fault_n(1000));
		collect(&r, 1, &p);
	}
	disable(fd);
	collect(&r, 1, &p);
	ASSERT_EQ(0, p.bad);
	ASSERT_LE(300, p.n);
	for (i = 0; i < p.n && p.count[i] == sum + p.period[i]; i++) {
		EXPECT_LE(48, p.period[i]);
		EXPECT_GT(80, p.period[i]);
		sum += p.period[i];
	}
	EXPECT_EQ(p.n, i) TH_LOG("sample %d: count %llu, periods so far %llu",
				 i, (unsigned long long)p.count[i],
				 (unsigned long long)sum);
	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
