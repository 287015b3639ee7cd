// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the limits on PERF_SAMPLE_CALLCHAIN.
 * attr.sample_max_stack bounds the entries of one chain and may not
 * exceed kernel.perf_event_max_stack (EOVERFLOW);
 * kernel.perf_event_max_contexts_per_stack bounds the PERF_CONTEXT_*
 * markers; neither sysctl can change while a callchain event exists
 * (EBUSY).  Samples come from page faults, one per fault.
 *
 * The sysctls are put back in each test's teardown.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define REC_MAX		8192
#define MAX_STACK	"/proc/sys/kernel/perf_event_max_stack"
#define MAX_CONTEXTS	"/proc/sys/kernel/perf_event_max_contexts_per_stack"

/* write_int() that keeps errno for the caller to look at */
static int write_str(const char *path, const char *s)
{
	int fd, ret, err;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* A disabled page-fault sampler with callchains, one sample per fault. */
static void chain_attr(struct perf_event_attr *attr, int with_kernel)
{
	sw_attr(attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_CALLCHAIN;
	attr->disabled = 1;
	attr->exclude_kernel = !with_kernel;
	attr->exclude_callchain_kernel = !with_kernel;
	attr->exclude_hv = 1;
}

static int is_marker(__u64 ip)
{
	return ip >= (__u64)PERF_CONTEXT_MAX;
}

/* Map @fd's buffer and take @n page-fault samples into it. */
static int sample_faults(int fd, struct ring *r, int n)
{
	if (ring_map(r, fd, 8, PROT_READ | PROT_WRITE))
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	if (fault_n(n))
		return -1;
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

FIXTURE(limits)
{
	int max_stack;
	int max_contexts;
};

FIXTURE_SETUP(limits)
{
	if (read_int(MAX_STACK, &self->max_stack) ||
	    read_int(MAX_CONTEXTS, &self->max_contexts))
		SKIP(return, "no callchain sysctls");
}

FIXTURE_TEARDOWN(limits)
{
	if (self->max_stack > 0)
		write_int(MAX_STACK, self->max_stack);
	if (self->max_contexts > 0)
		write_int(MAX_CONTEXTS, self->max_contexts);
}

TEST_F(limits, max_stack_above_sysctl_is_eoverflow)
{
	struct perf_event_attr attr;
	int fd;

	chain_attr(&attr, 0);
	attr.sample_max_stack = self->max_stack + 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EOVERFLOW, errno);
	if (fd >= 0)
		close(fd);

	/* the sysctl's own value is allowed */
	attr.sample_max_stack = self->max_stack;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

/* One frame asked for: the user marker, then the faulting ip alone. */
TEST_F(limits, sample_max_stack_one)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	chain_attr(&attr, 0);
	attr.sample_max_stack = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, sample_faults(fd, &r, 4));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		/* nr, then the entries */
		ASSERT_EQ(2, buf[1]);
		ASSERT_EQ(sizeof(*h) + 3 * 8, h->size);
		EXPECT_EQ(PERF_CONTEXT_USER, buf[2]);
		EXPECT_FALSE(is_marker(buf[3]));
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);
	ring_unmap(&r);
	close(fd);
}

/* Both sysctls refuse a change while a callchain event holds buffers. */
TEST_F(limits, sysctls_busy_while_in_use)
{
	struct perf_event_attr attr;
	int fd, now = 0;
	char s[16];

	chain_attr(&attr, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));

	snprintf(s, sizeof(s), "%d\n", self->max_stack - 1);
	EXPECT_EQ(-1, write_str(MAX_STACK, s));
	EXPECT_EQ(EBUSY, errno);
	snprintf(s, sizeof(s), "%d\n", self->max_contexts - 1);
	EXPECT_EQ(-1, write_str(MAX_CONTEXTS, s));
	EXPECT_EQ(EBUSY, errno);
	close(fd);

	/* out of range is EINVAL whether busy or not */
	EXPECT_EQ(-1, write_str(MAX_STACK, "-1\n"));
	EXPECT_EQ(EINVAL, errno);

	/* with the event gone (its buffers go after a grace period) */
	snprintf(s, sizeof(s), "%d\n", self->max_stack - 1);
	EXPECT_EQ(0, write_str(MAX_STACK, s)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, read_int(MAX_STACK, &now));
	EXPECT_EQ(self->max_stack - 1, now);
}

/* A lower perf_event_max_stack caps chains opened after the change. */
TEST_F(limits, max_stack_sysctl_caps_chains)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	ASSERT_EQ(0, write_int(MAX_STACK, 2));
	chain_attr(&attr, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, sample_faults(fd, &r, 4));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		/* the marker and at most two frames */
		ASSERT_GE(buf[1], 2);
		ASSERT_LE(buf[1], 3);
		ASSERT_EQ(sizeof(*h) + (1 + buf[1]) * 8, h->size);
		EXPECT_EQ(PERF_CONTEXT_USER, buf[2]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);
	ring_unmap(&r);
	close(fd);
}

/* Markers in a chain of @nr entries, and where the first user one is. */
static int count_markers(__u64 *ips, __u64 nr, int *user_at)
{
	int markers = 0;
	__u64 i;

	*user_at = -1;
	for (i = 0; i < nr; i++) {
		if (!is_marker(ips[i]))
			continue;
		if (ips[i] == PERF_CONTEXT_USER && *user_at < 0)
			*user_at = i;
		markers++;
	}
	return markers;
}

/*
 * Context switches are counted in the kernel: a sample there has the
 * kernel's part of the chain, then the user part of the sleeping task.
 * With one context per stack allowed, the user part is left out.
 */
static void switch_chains(struct __test_metadata *_metadata, int contexts)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, i, samples = 0, user_at, markers;
	struct ring r;

	chain_attr(&attr, 1);
	attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "kernel callchains need privilege");
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/*
	 * A sleep that has run out before the task got to schedule() does
	 * not switch: on a slow (debug, emulated) kernel 100 us can go by in
	 * the set-up, so sleep for a whole millisecond each time.
	 */
	for (i = 0; i < 12; i++)
		usleep(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
		ASSERT_GE(buf[1], 2);
		ASSERT_EQ(sizeof(*h) + (1 + buf[1]) * 8, h->size);
		EXPECT_EQ(PERF_CONTEXT_KERNEL, buf[2]);
		markers = count_markers(&buf[2], buf[1], &user_at);
		if (contexts == 1) {
			EXPECT_EQ(1, markers);
		} else {
			/* the user part: its marker and at least one frame */
			EXPECT_EQ(2, markers);
			EXPECT_GT(user_at, 0);
			EXPECT_LT(user_at + 1, (int)buf[1]);
		}
		samples++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_GE(samples, 4);
	ring_unmap(&r);
	close(fd);
}

TEST_F(limits, kernel_and_user_contexts)
{
	switch_chains(_metadata, self->max_contexts);
}

TEST_F(limits, one_context_per_stack)
{
	ASSERT_EQ(0, write_int(MAX_CONTEXTS, 1));
	switch_chains(_metadata, 1);
}

TEST_HARNESS_MAIN
