// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): attr.inherit / attr.inherit_thread, and
 * prctl(PR_TASK_PERF_EVENTS_DISABLE / PR_TASK_PERF_EVENTS_ENABLE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BURN_NS		(20 * 1000 * 1000LL)
#define CHILD_BURN_NS	(100 * 1000 * 1000LL)
#define NR_PAGES	256

static int open_sw(__u64 config, int inherit)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.inherit = inherit;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

enum work { BURN, FAULT };

static void do_work(enum work w)
{
	if (w == BURN)
		burn_cpu(CHILD_BURN_NS);
	else
		touch_pages(NR_PAGES);
}

/* Fork a child that does @w and exits; returns 0 once it is reaped. */
static int run_child(enum work w)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		do_work(w);
		_exit(0);
	}
	return reap_child(pid);
}

static void *thread_fn(void *arg)
{
	do_work(*(enum work *)arg);
	return NULL;
}

static int run_thread(enum work w)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_fn, &w))
		return -1;
	return pthread_join(t, NULL) ? -1 : 0;
}

TEST(inherit_task_clock_includes_child)
{
	__u64 inh, own;
	int fi, fo;

	fi = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1);
	fo = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0);
	ASSERT_GE(fi, 0) TH_LOG("inherited task-clock: %s", strerror(errno));
	ASSERT_GE(fo, 0);
	ASSERT_EQ(0, run_child(BURN));
	inh = read_value(fi);
	own = read_value(fo);
	ASSERT_NE(~0ULL, inh);
	ASSERT_NE(~0ULL, own);
	TH_LOG("inherited %llu ns, own %llu ns", (unsigned long long)inh,
	       (unsigned long long)own);
	EXPECT_GE(inh, own + CHILD_BURN_NS / 2);
	close(fi);
	close(fo);
}

TEST(inherit_page_faults_includes_child)
{
	__u64 inh, own;
	int fi, fo;

	fi = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1);
	fo = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0);
	ASSERT_GE(fi, 0);
	ASSERT_GE(fo, 0);
	ASSERT_EQ(0, run_child(FAULT));
	inh = read_value(fi);
	own = read_value(fo);
	ASSERT_NE(~0ULL, inh);
	ASSERT_NE(~0ULL, own);
	EXPECT_LT(own, NR_PAGES);
	EXPECT_GE(inh, own + NR_PAGES);
	close(fi);
	close(fo);
}

/* Only children created after the event are covered. */
TEST(inherit_skips_existing_children)
{
	int go[2], fd, status;
	pid_t child;
	char c = 0;

	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(touch_pages(NR_PAGES) ? 1 : 0);
	}
	close(go[0]);
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_LT(read_value(fd), NR_PAGES);
	close(go[1]);
	close(fd);
}

TEST(inherit_includes_threads)
{
	__u64 inh, own;
	int fi, fo;

	fi = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1);
	fo = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0);
	ASSERT_GE(fi, 0);
	ASSERT_GE(fo, 0);
	ASSERT_EQ(0, run_thread(FAULT));
	inh = read_value(fi);
	own = read_value(fo);
	/* Without inherit only the opening thread is counted. */
	EXPECT_LT(own, NR_PAGES);
	EXPECT_GE(inh, own + NR_PAGES);
	close(fi);
	close(fo);
}

TEST(inherit_thread_only_follows_threads)
{
	struct perf_event_attr attr;
	__u64 v0, v1, v2;
	int fd;

	/* inherit_thread refines inherit and is meaningless without it. */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit_thread = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.inherit_thread = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("inherit_thread: %s", strerror(errno));

	v0 = read_value(fd);
	ASSERT_EQ(0, run_child(FAULT));
	v1 = read_value(fd);
	ASSERT_EQ(0, run_thread(FAULT));
	v2 = read_value(fd);
	ASSERT_NE(~0ULL, v2);
	EXPECT_LT(v1 - v0, NR_PAGES) TH_LOG("forked child was counted");
	EXPECT_GE(v2 - v1, NR_PAGES) TH_LOG("thread was not counted");
	close(fd);
}

/*
 * Older man pages say inherit does not work with PERF_FORMAT_GROUP;
 * 6.12 accepts the combination and sums the children into the group read.
 */
TEST(inherit_group_read)
{
	struct perf_event_attr attr;
	__u64 buf[1 + 2 * 2];
	int leader, sib;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.disabled = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("inherit + GROUP: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	sib = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(sib, 0) TH_LOG("inherit sibling: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run_child(FAULT));
	ASSERT_EQ(sizeof(buf), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);
	EXPECT_GE(buf[1], NR_PAGES);
	EXPECT_GT(buf[3], 0);
	close(sib);
	close(leader);
}

/* Sampling with PERF_SAMPLE_READ may be inherited only with SAMPLE_TID. */
TEST(inherit_sample_read_needs_tid)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_READ;
	attr.disabled = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("SAMPLE_READ|SAMPLE_TID: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

TEST(prctl_disable_enable)
{
	__u64 v1, v2, v3;
	int fd;

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0);
	ASSERT_GE(fd, 0);
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	v1 = read_value(fd);
	burn_cpu(BURN_NS);
	v2 = read_value(fd);
	EXPECT_GT(v1, 0);
	EXPECT_EQ(v1, v2);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(BURN_NS);
	v3 = read_value(fd);
	EXPECT_NE(~0ULL, v3);
	EXPECT_GT(v3, v2);
	close(fd);
}

TEST(prctl_enable_starts_disabled_event)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	burn_cpu(BURN_NS);
	EXPECT_EQ(0, read_value(fd));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(BURN_NS);
	EXPECT_GT(read_value(fd), 0);
	close(fd);
}

/* prctl acts on events the caller created, not on events watching it. */
TEST(prctl_ignores_events_of_other_owners)
{
	struct perf_event_attr attr;
	int go[2], fd, status;
	pid_t child;
	char c = 0;

	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0))
			_exit(2);
		burn_cpu(2 * BURN_NS);
		_exit(0);
	}
	close(go[0]);
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, child, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_GE(read_value(fd), BURN_NS);
	close(go[1]);
	close(fd);
}

TEST_HARNESS_MAIN
