// SPDX-License-Identifier: GPL-2.0
/*
 * What perf_event_open(2) gained in mainline after 6.12 and this core
 * provides on a 6.12 kernel: attr.config4 and PERF_ATTR_SIZE_VER9 (6.19),
 * a clear refusal of the deferred callchain bits it names but does not
 * provide, and EPOLLHUP for a pinned event in the error state (6.15).  A
 * 6.12 kernel fails the tests of those changes; that is the difference of
 * version the README lists.  The EPOLLRDNORM and data-page write tests
 * hold on every version.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BIG_ATTR	4096
#define DATA_PAGES	8
#define MAX_PINNED	64

/* A task-clock attr of @size bytes at the start of @buf (zeroed). */
static struct perf_event_attr *clock_attr(__u64 *buf, __u32 size)
{
	struct perf_event_attr *attr = (struct perf_event_attr *)buf;

	memset(buf, 0, BIG_ATTR);
	sw_attr(attr, PERF_COUNT_SW_TASK_CLOCK);
	attr->size = size;
	return attr;
}

/* The attr size the kernel knows, as E2BIG writes it back. */
TEST(attr_size_is_ver9)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr = clock_attr(buf, BIG_ATTR);

	((char *)buf)[BIG_ATTR - 1] = 1;
	ASSERT_EQ(E2BIG, perf_open_errno(attr));
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, attr->size);
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, sizeof(struct perf_event_attr));
}

/*
 * config4 is part of the attr a PMU gets, not an unknown tail: an event
 * with it set opens (the software PMU has no use for it), and a byte past
 * it is still refused.
 */
TEST(config4_is_accepted)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr;

	attr = clock_attr(buf, PERF_ATTR_SIZE_VER9);
	attr->config4 = 0x1234;
	EXPECT_EQ(0, perf_open_errno(attr));

	attr = clock_attr(buf, PERF_ATTR_SIZE_VER9 + 8);
	attr->config4 = 0x1234;
	((char *)buf)[PERF_ATTR_SIZE_VER9] = 1;
	EXPECT_EQ(E2BIG, perf_open_errno(attr));
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, attr->size);

	/* a VER8 caller's attr ends before config4: nothing is read there */
	attr = clock_attr(buf, PERF_ATTR_SIZE_VER8);
	attr->config4 = 0x1234;
	EXPECT_EQ(0, perf_open_errno(attr));
}

/*
 * The deferred callchain bits are named in the header but the feature is
 * not provided: EOPNOTSUPP tells a caller so, where a reserved bit (the
 * next one, 40) stays EINVAL.
 */
TEST(defer_callchain_is_eopnotsupp)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr;

	attr = clock_attr(buf, sizeof(*attr));
	attr->sample_period = 100000;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr->defer_callchain = 1;
	EXPECT_EQ(EOPNOTSUPP, perf_open_errno(attr));

	attr->defer_callchain = 0;
	attr->defer_output = 1;
	EXPECT_EQ(EOPNOTSUPP, perf_open_errno(attr));

	attr->defer_output = 0;
	attr->__reserved_1 = 1;
	EXPECT_EQ(EINVAL, perf_open_errno(attr));
}

/* poll() with no wait: the events reported now. */
static short poll_now(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

/*
 * A pinned event that cannot get a counter goes into the error state for
 * good (until enabled again): poll() says EPOLLHUP, nothing more will come,
 * and read() returns end of file.  Pinned cycles events are opened on this
 * task until one does not fit; needs a hardware PMU.  The event has a ring
 * buffer: without one, poll() gives EPOLLHUP in any state.
 */
TEST(pinned_error_state_polls_hup)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	int fd[MAX_PINNED], n, i, err = -1;
	__u64 v[3];
	void *m, *m0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.pinned = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;

	for (n = 0; n < MAX_PINNED; n++) {
		fd[n] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd[n] < 0)
			break;
		if (read(fd[n], v, sizeof(v)) == 0) {
			err = fd[n++];
			break;
		}
	}
	if (n == 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
		       errno == ENODEV))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_GE(err, 0) TH_LOG("%d pinned cycles events all fit", n);
	TH_LOG("pinned cycles event %d is in the error state", n);

	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, err, 0);
	ASSERT_NE(MAP_FAILED, m);
	m0 = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd[0], 0);
	ASSERT_NE(MAP_FAILED, m0);
	/* a running one with a buffer and nothing to read: no events */
	EXPECT_EQ(0, poll_now(fd[0], POLLIN));
	EXPECT_EQ(POLLHUP, poll_now(err, POLLIN) & (POLLHUP | POLLERR));
	EXPECT_EQ(0, read(err, v, sizeof(v)));
	munmap(m0, page);
	munmap(m, page);
	for (i = 0; i < n; i++)
		close(fd[i]);
}

/*
 * A ring buffer's wake-up reports POLLRDNORM with POLLIN, so a reader
 * that polls for either sees it.
 */
TEST(wakeup_polls_in_and_rdnorm)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	short rev;
	void *m;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	m = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m);

	EXPECT_EQ(0, poll_now(fd, POLLIN | POLLRDNORM));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, touch_pages(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rev = poll_now(fd, POLLIN | POLLRDNORM);
	EXPECT_EQ(POLLIN | POLLRDNORM, rev & (POLLIN | POLLRDNORM))
		TH_LOG("revents %#x", rev);

	munmap(m, (1 + DATA_PAGES) * page);
	close(fd);
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

/*
 * In a writable mapping user space writes the control page (data_tail)
 * and nothing else: a write to a data page gets SIGBUS, whether the page
 * was already mapped or not.
 */
TEST(data_page_write_sigbus)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (1 + DATA_PAGES) * page;
	struct perf_event_mmap_page *up;
	struct perf_event_attr attr;
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	char *data;
	int fd, bus;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up);

	up->data_tail = 0;
	data = (char *)up + page;
	EXPECT_EQ(0, __atomic_load_n(data, __ATOMIC_RELAXED));

	ASSERT_EQ(0, sigaction(SIGBUS, &sa, &old));
	bus = sigsetjmp(bus_jmp, 1);
	if (!bus)
		__atomic_store_n(data, 1, __ATOMIC_RELAXED);
	sigaction(SIGBUS, &old, NULL);
	EXPECT_EQ(1, bus);
	EXPECT_EQ(0, __atomic_load_n(data, __ATOMIC_RELAXED));

	munmap(up, len);
	close(fd);
}

TEST_HARNESS_MAIN
