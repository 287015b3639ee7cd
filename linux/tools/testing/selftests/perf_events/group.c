// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): event groups built from software events, the
 * PERF_FORMAT_GROUP read layout and PERF_IOC_FLAG_GROUP ioctls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BURN_NS		(20 * 1000 * 1000LL)
#define NR_MEMBERS	3
#define NR_PAGES	32

#define GROUP_FORMAT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* PERF_FORMAT_GROUP with both times and ids, as documented. */
struct group_read {
	__u64 nr;
	__u64 time_enabled;
	__u64 time_running;
	struct {
		__u64 value;
		__u64 id;
	} values[NR_MEMBERS];
};

/* A software event that reads as a member of the group below. */
static void group_attr(struct perf_event_attr *attr, __u64 config)
{
	sw_attr(attr, config);
	attr->read_format = GROUP_FORMAT;
}

/*
 * fd[0]: task-clock leader, fd[1]: task-clock, fd[2]: page-faults.
 * The leader starts disabled, the siblings do not.
 */
FIXTURE(grp) {
	int fd[NR_MEMBERS];
	__u64 id[NR_MEMBERS];
};

FIXTURE_SETUP(grp)
{
	static const __u64 config[NR_MEMBERS] = {
		PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS,
	};
	struct perf_event_attr attr;
	int i;

	for (i = 0; i < NR_MEMBERS; i++) {
		group_attr(&attr, config[i]);
		attr.disabled = (i == 0);
		self->fd[i] = sys_perf_event_open(&attr, 0, -1,
						  i ? self->fd[0] : -1, 0);
		ASSERT_GE(self->fd[i], 0) TH_LOG("member %d: %s", i,
						 strerror(errno));
		ASSERT_EQ(0, ioctl(self->fd[i], PERF_EVENT_IOC_ID,
				   &self->id[i]));
	}
}

FIXTURE_TEARDOWN(grp)
{
	int i;

	for (i = 0; i < NR_MEMBERS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

/* Read the group through the leader, returning values in fd order. */
static int read_group(int leader, const __u64 *id, __u64 *values)
{
	struct group_read gr;
	int i, j, found;

	memset(&gr, 0xff, sizeof(gr));
	if (read(leader, &gr, sizeof(gr)) != sizeof(gr))
		return -1;
	if (gr.nr != NR_MEMBERS || gr.time_running > gr.time_enabled)
		return -1;
	for (i = 0; i < NR_MEMBERS; i++) {
		found = 0;
		for (j = 0; j < NR_MEMBERS; j++) {
			if (gr.values[j].id == id[i]) {
				values[i] = gr.values[j].value;
				found++;
			}
		}
		if (found != 1)
			return -1;
	}
	return 0;
}

TEST_F(grp, read_layout)
{
	struct group_read gr;
	__u64 big[32];
	int i;

	/* nr, two times, then {value, id} for each member. */
	ASSERT_EQ(sizeof(gr), read(self->fd[0], big, sizeof(big)));
	memcpy(&gr, big, sizeof(gr));
	EXPECT_EQ(NR_MEMBERS, gr.nr);
	/* The leader comes first. */
	EXPECT_EQ(self->id[0], gr.values[0].id);
	for (i = 1; i < NR_MEMBERS; i++)
		EXPECT_NE(self->id[0], gr.values[i].id);
}

TEST_F(grp, siblings_wait_for_leader)
{
	__u64 v[NR_MEMBERS];
	int i;

	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, v));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_EQ(0, v[i]) TH_LOG("member %d counted while leader off", i);

	/* Enabling the leader starts the whole group. */
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, v));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_GE(v[2], NR_PAGES);
}

TEST_F(grp, group_times)
{
	struct group_read gr;

	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(sizeof(gr), read(self->fd[0], &gr, sizeof(gr)));
	EXPECT_GT(gr.time_enabled, 0);
	EXPECT_GT(gr.time_running, 0);
	EXPECT_LE(gr.time_running, gr.time_enabled);
}

TEST_F(grp, group_flag_disable_from_sibling)
{
	__u64 a[NR_MEMBERS], b[NR_MEMBERS];
	int i;

	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, ioctl(self->fd[2], PERF_EVENT_IOC_DISABLE,
			   PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, a));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, b));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_EQ(a[i], b[i]) TH_LOG("member %d still counting", i);
	EXPECT_GT(a[0], 0);
}

TEST_F(grp, group_flag_enable_from_sibling)
{
	__u64 v[NR_MEMBERS];

	ASSERT_EQ(0, ioctl(self->fd[1], PERF_EVENT_IOC_ENABLE,
			   PERF_IOC_FLAG_GROUP));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, v));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_GE(v[2], NR_PAGES);
}

TEST_F(grp, group_flag_reset)
{
	__u64 v[NR_MEMBERS];
	int i, who;

	/* Reset through the leader, then through a sibling. */
	for (who = 0; who < NR_MEMBERS; who += NR_MEMBERS - 1) {
		ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
		burn_cpu(BURN_NS);
		ASSERT_EQ(0, touch_pages(NR_PAGES));
		ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, read_group(self->fd[0], self->id, v));
		for (i = 0; i < NR_MEMBERS; i++)
			ASSERT_GT(v[i], 0);

		ASSERT_EQ(0, ioctl(self->fd[who], PERF_EVENT_IOC_RESET,
				   PERF_IOC_FLAG_GROUP));
		ASSERT_EQ(0, read_group(self->fd[0], self->id, v));
		for (i = 0; i < NR_MEMBERS; i++)
			EXPECT_EQ(0, v[i]) TH_LOG("reset via %d: member %d",
						  who, i);
	}
}

TEST_F(grp, leader_disable_stops_group)
{
	__u64 a[NR_MEMBERS], b[NR_MEMBERS];
	int i;

	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, a));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, b));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_EQ(a[i], b[i]) TH_LOG("member %d still counting", i);
}

TEST_F(grp, sibling_disable_is_local)
{
	__u64 a[NR_MEMBERS], b[NR_MEMBERS];

	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, ioctl(self->fd[1], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, a));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, touch_pages(NR_PAGES));
	ASSERT_EQ(0, read_group(self->fd[0], self->id, b));
	EXPECT_GT(b[0], a[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_GE(b[2], a[2] + NR_PAGES);
}

TEST_F(grp, group_read_enospc)
{
	struct group_read gr;

	EXPECT_EQ(-1, read(self->fd[0], &gr, sizeof(gr) - sizeof(__u64)));
	EXPECT_EQ(ENOSPC, errno);
}

TEST_F(grp, pinned_or_exclusive_sibling_einval)
{
	struct perf_event_attr attr;

	group_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.pinned = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, self->fd[0], 0));
	EXPECT_EQ(EINVAL, errno);

	group_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclusive = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, self->fd[0], 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(grp, no_group_flag_ignores_group_fd)
{
	struct perf_event_attr attr;
	struct group_read gr;
	__u64 v;
	int fd;

	group_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = 0;
	fd = sys_perf_event_open(&attr, 0, -1, self->fd[0],
				 PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(fd, 0) TH_LOG("NO_GROUP: %s", strerror(errno));

	/* Not held back by the disabled leader ... */
	burn_cpu(BURN_NS);
	ASSERT_EQ(sizeof(v), read(fd, &v, sizeof(v)));
	EXPECT_GT(v, 0);
	/* ... and not added to its group. */
	ASSERT_EQ(sizeof(gr), read(self->fd[0], &gr, sizeof(gr)));
	EXPECT_EQ(NR_MEMBERS, gr.nr);
	close(fd);
}

TEST_F(grp, sibling_of_other_task_or_cpu_einval)
{
	struct perf_event_attr attr;
	int go[2], status;
	pid_t child;
	char c = 0;

	group_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	/* The leader monitors this task on any CPU, the sibling CPU 0 only. */
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, 0, self->fd[0], 0));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 0 ? 0 : 1);
	}
	close(go[0]);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, child, -1, self->fd[0], 0));
	EXPECT_EQ(EINVAL, errno);
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
}

TEST_HARNESS_MAIN
