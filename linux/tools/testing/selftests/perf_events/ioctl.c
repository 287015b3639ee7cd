// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the ioctls on an event fd. ENABLE, DISABLE and
 * RESET with and without PERF_IOC_FLAG_GROUP, on a group leader and on a
 * sibling and on inherited children; ID; REFRESH and PERIOD on counting
 * and sampling events; SET_OUTPUT, SET_FILTER, MODIFY_ATTRIBUTES and
 * PAUSE_OUTPUT where they apply and where they do not; unknown commands,
 * and fds that are not (or no longer) perf events.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BURN_NS		(20 * 1000 * 1000LL)
#define CHILD_BURN_NS	(100 * 1000 * 1000LL)
#define NR_MEMBERS	3
/* A sampling period (ns of task-clock) no test runs long enough to reach. */
#define LONG_PERIOD	(1000 * 1000 * 1000ULL)

/*
 * SET_OUTPUT's "no target" is -1 as an unsigned long: a plain int -1 in
 * the variadic ioctl() call reaches the kernel as 0xffffffff on 64-bit.
 */
#define NO_OUTPUT	(-1L)

/* A pointer the kernel cannot copy to or from. */
#define BAD_PTR		((void *)8)

/* A task-clock event on this task, counting or (@period) sampling. */
static int open_clock(int disabled, __u64 period, int inherit, int group_fd)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = disabled;
	attr.sample_period = period;
	attr.inherit = inherit;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* Map a one-page ring buffer (plus the control page) for @fd. */
static void *map_buffer(int fd, size_t *len)
{
	void *p;

	*len = 2 * sysconf(_SC_PAGESIZE);
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* fd[0] is the leader; every member is a task-clock event. */
FIXTURE(grp) {
	int fd[NR_MEMBERS];
};

FIXTURE_SETUP(grp)
{
	int i;

	for (i = 0; i < NR_MEMBERS; i++)
		self->fd[i] = -1;
}

FIXTURE_TEARDOWN(grp)
{
	int i;

	for (i = 0; i < NR_MEMBERS; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
}

/* Open the group; member i starts disabled if bit i of @off is set. */
static int open_group(int *fd, unsigned int off)
{
	int i;

	for (i = 0; i < NR_MEMBERS; i++) {
		fd[i] = open_clock(!!(off & (1U << i)), 0, 0,
				   i ? fd[0] : -1);
		if (fd[i] < 0)
			return -1;
	}
	return 0;
}

/* Burn some CPU, then read every member. */
static int burn_and_read(const int *fd, __u64 *v)
{
	int i;

	burn_cpu(BURN_NS);
	for (i = 0; i < NR_MEMBERS; i++) {
		v[i] = read_value(fd[i]);
		if (v[i] == ~0ULL)
			return -1;
	}
	return 0;
}

/* Enabling the leader alone leaves a disabled sibling off. */
TEST_F(grp, enable_leader_only)
{
	__u64 v[NR_MEMBERS];

	ASSERT_EQ(0, open_group(self->fd, 1 | 4));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, v));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_EQ(0, v[2]);
}

/* Enabling a sibling alone does not start it while the leader is off. */
TEST_F(grp, enable_sibling_without_flag)
{
	__u64 v[NR_MEMBERS];

	ASSERT_EQ(0, open_group(self->fd, 1 | 2 | 4));
	ASSERT_EQ(0, ioctl(self->fd[1], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, v));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(0, v[1]);
	EXPECT_EQ(0, v[2]);

	/* Once the leader is on, that sibling counts and the other not. */
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, v));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_EQ(0, v[2]);
}

/* PERF_IOC_FLAG_GROUP through a sibling enables every member. */
TEST_F(grp, enable_sibling_with_group_flag)
{
	__u64 v[NR_MEMBERS];
	int i;

	ASSERT_EQ(0, open_group(self->fd, 1 | 2 | 4));
	ASSERT_EQ(0, ioctl(self->fd[2], PERF_EVENT_IOC_ENABLE,
			   PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, burn_and_read(self->fd, v));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_GT(v[i], 0) TH_LOG("member %d not enabled", i);
}

/*
 * PERF_IOC_FLAG_GROUP disables each member, not just the leader: enabling
 * the leader alone afterwards leaves the siblings off.
 */
TEST_F(grp, disable_with_group_flag_disables_members)
{
	__u64 a[NR_MEMBERS], b[NR_MEMBERS];

	ASSERT_EQ(0, open_group(self->fd, 0));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE,
			   PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, burn_and_read(self->fd, a));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, b));
	EXPECT_GT(b[0], a[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_EQ(a[2], b[2]);
}

/* Disabling the leader alone stops the group; enabling it restarts it. */
TEST_F(grp, disable_leader_without_flag)
{
	__u64 a[NR_MEMBERS], b[NR_MEMBERS];
	int i;

	ASSERT_EQ(0, open_group(self->fd, 0));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, a));
	ASSERT_EQ(0, burn_and_read(self->fd, b));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_EQ(a[i], b[i]) TH_LOG("member %d counted", i);

	/* The siblings were never disabled themselves. */
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, burn_and_read(self->fd, b));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_GT(b[i], a[i]) TH_LOG("member %d stayed off", i);
}

/* RESET without the flag clears only the event it is issued on. */
TEST_F(grp, reset_without_flag_is_local)
{
	__u64 v[NR_MEMBERS];
	int who, i;

	ASSERT_EQ(0, open_group(self->fd, 0));
	for (who = 0; who < NR_MEMBERS; who++) {
		burn_cpu(BURN_NS);
		ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, ioctl(self->fd[who], PERF_EVENT_IOC_RESET, 0));
		for (i = 0; i < NR_MEMBERS; i++) {
			v[i] = read_value(self->fd[i]);
			if (i == who) {
				EXPECT_EQ(0, v[i]);
			} else {
				EXPECT_GT(v[i], 0) TH_LOG("reset of %d cleared %d",
							  who, i);
			}
		}
		ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	}
}

/* RESET with the flag through a sibling clears the whole group. */
TEST_F(grp, reset_with_group_flag_from_sibling)
{
	int i;

	ASSERT_EQ(0, open_group(self->fd, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < NR_MEMBERS; i++)
		ASSERT_GT(read_value(self->fd[i]), 0);
	ASSERT_EQ(0, ioctl(self->fd[1], PERF_EVENT_IOC_RESET,
			   PERF_IOC_FLAG_GROUP));
	for (i = 0; i < NR_MEMBERS; i++)
		EXPECT_EQ(0, read_value(self->fd[i])) TH_LOG("member %d", i);
}

/* Enabling or disabling twice is harmless. */
TEST(enable_disable_idempotent)
{
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("task-clock: %s", strerror(errno));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GT(read_value(fd), 0);
	close(fd);
}

/* ENABLE on the parent's fd also enables the inherited copies. */
TEST(enable_reaches_inherited_children)
{
	int on, off, go;
	pid_t pid;

	on = open_clock(1, 0, 1, -1);
	off = open_clock(1, 0, 1, -1);
	ASSERT_GE(on, 0) TH_LOG("inherited task-clock: %s", strerror(errno));
	ASSERT_GE(off, 0);
	pid = fork_waiting_burner(CHILD_BURN_NS, &go);
	ASSERT_GT(pid, 0);
	/* The child now has its own, disabled, copies of both. */
	ASSERT_EQ(0, ioctl(on, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, release_child(pid, go));
	EXPECT_GE(read_value(on), CHILD_BURN_NS / 2);
	EXPECT_EQ(0, read_value(off));
	close(on);
	close(off);
}

/* DISABLE on the parent's fd also disables the inherited copies. */
TEST(disable_reaches_inherited_children)
{
	__u64 before, after;
	int fd, go;
	pid_t pid;

	fd = open_clock(0, 0, 1, -1);
	ASSERT_GE(fd, 0) TH_LOG("inherited task-clock: %s", strerror(errno));
	pid = fork_waiting_burner(CHILD_BURN_NS, &go);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	before = read_value(fd);
	ASSERT_EQ(0, release_child(pid, go));
	after = read_value(fd);
	/* At most what the child did before it blocked is added. */
	EXPECT_LT(after, before + CHILD_BURN_NS / 2)
		TH_LOG("before %llu, after %llu", (unsigned long long)before,
		       (unsigned long long)after);
	close(fd);
}

/* IOC_ID gives the id that read() reports with PERF_FORMAT_ID. */
TEST(id_matches_read_format_id)
{
	struct perf_event_attr attr;
	__u64 id[2], id3, buf[8];
	int fd[2], i;

	for (i = 0; i < 2; i++) {
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.read_format = PERF_FORMAT_ID;
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		ASSERT_GE(fd[i], 0) TH_LOG("member %d: %s", i,
					   strerror(errno));
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
		/* { value, id } */
		ASSERT_EQ(2 * sizeof(__u64), read(fd[i], buf, sizeof(buf)));
		EXPECT_EQ(id[i], buf[1]);
	}
	EXPECT_NE(id[0], id[1]);

	/* The same ids through a group read: { nr, { value, id } x 2 }. */
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	i = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
	ASSERT_GE(i, 0);
	ASSERT_EQ(7 * sizeof(__u64), read(i, buf, sizeof(buf)));
	EXPECT_EQ(3, buf[0]);
	ASSERT_EQ(0, ioctl(i, PERF_EVENT_IOC_ID, &id3));
	/* Each member's id appears once, in whatever order. */
	EXPECT_EQ(1, (buf[2] == id[0]) + (buf[4] == id[0]) + (buf[6] == id[0]));
	EXPECT_EQ(1, (buf[2] == id[1]) + (buf[4] == id[1]) + (buf[6] == id[1]));
	EXPECT_EQ(1, (buf[2] == id3) + (buf[4] == id3) + (buf[6] == id3));
	close(i);
	close(fd[1]);
	close(fd[0]);
}

TEST(id_bad_pointer_efault)
{
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, BAD_PTR));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

/* REFRESH is for non-inherited sampling events only. */
TEST(refresh_counting_event_einval)
{
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	/* And it did not enable the event. */
	burn_cpu(BURN_NS);
	EXPECT_EQ(0, read_value(fd));
	close(fd);
}

TEST(refresh_inherited_event_einval)
{
	int fd;

	fd = open_clock(1, LONG_PERIOD, 1, -1);
	ASSERT_GE(fd, 0) TH_LOG("sampling task-clock: %s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* REFRESH on a disabled sampling event enables it. */
TEST(refresh_enables_sampling_event)
{
	int fd;

	fd = open_clock(1, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("sampling task-clock: %s", strerror(errno));
	burn_cpu(BURN_NS);
	EXPECT_EQ(0, read_value(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	burn_cpu(BURN_NS);
	EXPECT_GT(read_value(fd), 0);
	close(fd);
}

/* PERIOD needs a sampling event. */
TEST(period_counting_event_einval)
{
	__u64 period = 1000000;
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(period_on_sampling_event)
{
	__u64 period;
	int fd;

	fd = open_clock(0, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("sampling task-clock: %s", strerror(errno));
	period = 2 * LONG_PERIOD;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period))
		TH_LOG("new period: %s", strerror(errno));
	period = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	/* Periods with the top bit set are refused, as at open. */
	period = 1ULL << 63;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	/* The argument is a pointer to the period. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, BAD_PTR));
	EXPECT_EQ(EFAULT, errno);
	/* The event still counts. */
	burn_cpu(BURN_NS);
	EXPECT_GT(read_value(fd), 0);
	close(fd);
}

/*
 * For a frequency event the argument is a frequency, at most
 * perf_event_max_sample_rate (an int sysctl, so INT_MAX + 1 is always too
 * high). page-faults: the timer-based clock events turn a frequency into
 * a fixed period when they are opened.
 */
TEST(period_on_freq_event)
{
	struct perf_event_attr attr;
	unsigned long long max_rate;
	__u64 freq;
	FILE *f;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("freq page-faults: %s", strerror(errno));
	freq = 2;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &freq))
		TH_LOG("freq 2: %s", strerror(errno));
	freq = (__u64)INT_MAX + 1;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &freq));
	EXPECT_EQ(EINVAL, errno);
	freq = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &freq));
	EXPECT_EQ(EINVAL, errno);

	/* The exact limit, where the sysctl can be read (CONFIG_SYSCTL). */
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (f && fscanf(f, "%llu", &max_rate) == 1 && max_rate > 1) {
		freq = max_rate;
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &freq))
			TH_LOG("freq %llu: %s", max_rate, strerror(errno));
		freq = max_rate + 1;
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &freq));
		EXPECT_EQ(EINVAL, errno);
	}
	if (f)
		fclose(f);
	close(fd);
}

TEST(set_output_minus_one)
{
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, NO_OUTPUT));
	close(fd);
}

/* The target must be a perf event fd. */
TEST(set_output_bad_fd_ebadf)
{
	int fd, p[2];

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EBADF, errno);
	close(p[0]);
	close(p[1]);
	/* p[0] is closed now. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EBADF, errno);
	close(fd);
}

TEST(set_output_to_self_einval)
{
	int fd;

	fd = open_clock(1, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* Output goes to the target's ring buffer: it must have one. */
TEST(set_output_needs_target_buffer)
{
	int fd, target;
	size_t len;
	void *buf;

	fd = open_clock(1, LONG_PERIOD, 0, -1);
	target = open_clock(1, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_GE(target, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target));
	EXPECT_EQ(EINVAL, errno);

	buf = map_buffer(target, &len);
	ASSERT_NE(NULL, buf) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target))
		TH_LOG("redirect: %s", strerror(errno));
	/* And back to no redirection. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, NO_OUTPUT));
	munmap(buf, len);
	close(target);
	close(fd);
}

/* An event with its own mapped buffer cannot be redirected. */
TEST(set_output_with_own_mmap_einval)
{
	void *own, *other;
	size_t len1, len2;
	int fd, target;

	fd = open_clock(1, LONG_PERIOD, 0, -1);
	target = open_clock(1, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_GE(target, 0);
	own = map_buffer(fd, &len1);
	other = map_buffer(target, &len2);
	ASSERT_NE(NULL, own);
	ASSERT_NE(NULL, other);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target));
	EXPECT_EQ(EINVAL, errno);
	munmap(own, len1);
	munmap(other, len2);
	close(target);
	close(fd);
}

/* The file descriptors must all be on the same CPU. */
TEST(set_output_other_cpu_einval)
{
	struct perf_event_attr attr;
	int fd, target;
	size_t len;
	void *buf;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = LONG_PERIOD;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, 0, -1, 0);
	target = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("task-clock on CPU 0: %s", strerror(errno));
	ASSERT_GE(target, 0);
	buf = map_buffer(target, &len);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target));
	EXPECT_EQ(EINVAL, errno);
	munmap(buf, len);
	close(target);
	close(fd);
}

/* Filters apply to tracepoints (and address filters); not to sw events. */
TEST(set_filter_software_event_einval)
{
	char filter[] = "common_pid != 0";
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * MODIFY_ATTRIBUTES is supported only for breakpoints. On a software
 * event 6.12 fails with EOPNOTSUPP (later kernels with EINVAL), and with
 * EINVAL when the new attr names another type.
 */
TEST(modify_attributes_software_event)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_TRUE(errno == EOPNOTSUPP || errno == EINVAL)
		TH_LOG("errno %d (%s)", errno, strerror(errno));
	attr.type = PERF_TYPE_BREAKPOINT;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

static long watch[2];

static void bp_attr(struct perf_event_attr *attr, long *addr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = HW_BREAKPOINT_W;
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = HW_BREAKPOINT_LEN_8;
	attr->sample_period = 1;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

TEST(modify_attributes_breakpoint)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr(&attr, &watch[0]);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == ENODEV ||
		       errno == EOPNOTSUPP || errno == ENOSPC))
		SKIP(return, "no hardware breakpoints: %s", strerror(errno));
	ASSERT_GE(fd, 0) TH_LOG("breakpoint: %s", strerror(errno));

	/* Move it to another address. */
	bp_attr(&attr, &watch[1]);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr))
		TH_LOG("modify: %s", strerror(errno));
	/* A change of type is refused. */
	attr.type = PERF_TYPE_SOFTWARE;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	/* The argument is copied from user memory. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, BAD_PTR));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

/* PAUSE_OUTPUT needs a ring buffer. */
TEST(pause_output)
{
	size_t len;
	void *buf;
	int fd;

	fd = open_clock(1, LONG_PERIOD, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(EINVAL, errno);

	buf = map_buffer(fd, &len);
	ASSERT_NE(NULL, buf) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	munmap(buf, len);
	close(fd);
}

TEST(unknown_ioctl_enotty)
{
	__u64 arg = 0;
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0x7f), 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOW('$', 0x7e, __u64), &arg));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('x', 1), 0));
	EXPECT_EQ(ENOTTY, errno);
	/* The fd still works. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	EXPECT_GT(read_value(fd), 0);
	close(fd);
}

TEST(ioctl_on_closed_fd_ebadf)
{
	int fd;

	fd = open_clock(1, 0, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, close(fd));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(EBADF, errno);
}

/* The perf ioctls mean nothing to other files. */
TEST(perf_ioctl_on_other_fd_enotty)
{
	__u64 id;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ID, &id));
	EXPECT_EQ(ENOTTY, errno);
	close(p[0]);
	close(p[1]);
}

TEST_HARNESS_MAIN
