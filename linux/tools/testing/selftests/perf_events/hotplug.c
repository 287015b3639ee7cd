// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) and CPU hotplug: a CPU-wide event on a CPU that goes
 * offline stops counting (its count and both times freeze) while events
 * on other CPUs go on; opening a CPU-wide event on an offline CPU gives
 * ENODEV; once the CPU is back, new events on it count; a task event
 * follows its task off a CPU that goes offline; one fd for all CPUs
 * counts on a CPU that comes online after it was opened.
 *
 * These tests take CPU 1 offline through
 * /sys/devices/system/cpu/cpu1/online, so they run only in the test
 * guests, whose kernel command line carries "harness.plan=", and skip
 * anywhere else: offlining a CPU of a developer's machine is not a thing
 * a selftest should do unasked. CPU 1 is always brought back online.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define CPU		1
#define CPU_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define GUEST_MARK	"harness.plan="
#define BURN_NS		(20 * 1000 * 1000LL)
#define SLEEP_US	50000

static int open_sw(__u64 config, pid_t pid, int cpu, __u64 read_format,
		   int group_fd)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, pid, cpu, group_fd, 0);
}

/* Are we in the test guest? See the comment at the top. */
static int in_guest(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !!strstr(buf, GUEST_MARK);
}

/* 1 if CPU 1 is online, 0 if offline, -1 if that cannot be told. */
static int cpu_online(void)
{
	char c;
	int fd, n;

	fd = open(CPU_ONLINE, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, &c, 1);
	close(fd);
	if (n != 1 || (c != '0' && c != '1'))
		return -1;
	return c == '1';
}

static int set_online(int on)
{
	int fd, ret;

	fd = open(CPU_ONLINE, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

/* Safety net for a test killed by its timeout: CPU 1 comes back. */
static pid_t main_pid;

static void __attribute__((constructor)) note_main(void)
{
	main_pid = getpid();
}

static void __attribute__((destructor)) online_again(void)
{
	if (getpid() == main_pid && in_guest() && cpu_online() == 0)
		set_online(1);
}

/* value, time_enabled, time_running */
struct reading {
	__u64 value;
	__u64 enabled;
	__u64 running;
};

#define TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
		 PERF_FORMAT_TOTAL_TIME_RUNNING)

static int read_times(int fd, struct reading *r)
{
	if (read(fd, r, sizeof(*r)) != sizeof(*r))
		return -1;
	return r->running <= r->enabled ? 0 : -1;
}

FIXTURE(hp) {
	int unused;
};

FIXTURE_SETUP(hp)
{
	if (!in_guest())
		SKIP(return, "offlines CPU %d: runs only in the test guest",
		     CPU);
	if (sysconf(_SC_NPROCESSORS_CONF) <= CPU ||
	    access(CPU_ONLINE, W_OK) || cpu_online() < 0)
		SKIP(return, "CPU %d cannot be taken offline", CPU);
	if (cpu_online() == 0)
		ASSERT_EQ(0, set_online(1));
}

/* In the parent, so that it runs even if the test process died. */
FIXTURE_TEARDOWN_PARENT(hp)
{
	if (cpu_online() == 0 && set_online(1))
		TH_LOG("could not bring CPU %d back online", CPU);
}

TEST_F(hp, cpu_wide_event_stops_while_offline)
{
	struct reading before, a, b, after;
	__u64 other[2];
	int fd, fd0;

	fd = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, TIMES, -1);
	ASSERT_LE(0, fd) TH_LOG("cpu-clock on CPU %d: %s", CPU,
				strerror(errno));
	fd0 = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, 0, 0, -1);
	ASSERT_LE(0, fd0);
	usleep(SLEEP_US);
	ASSERT_EQ(0, read_times(fd, &before));
	EXPECT_LT(0, before.value);
	EXPECT_LT(0, before.running);

	ASSERT_EQ(0, set_online(0)) TH_LOG("offline: %s", strerror(errno));
	ASSERT_EQ(0, read_times(fd, &a));
	other[0] = read_value(fd0);
	usleep(SLEEP_US);
	ASSERT_EQ(0, read_times(fd, &b));
	other[1] = read_value(fd0);
	/* Nothing moves while the CPU is away, not even time_enabled. */
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);
	EXPECT_EQ(a.running, b.running);
	EXPECT_LE(before.value, a.value);
	/* CPU 0's event is not affected. */
	EXPECT_LT(other[0], other[1]);

	/*
	 * Once the CPU is back the fd still reads sanely.  Whether the old
	 * event counts again is the next test's business.
	 */
	ASSERT_EQ(0, set_online(1)) TH_LOG("online: %s", strerror(errno));
	usleep(SLEEP_US);
	ASSERT_EQ(0, read_times(fd, &after));
	EXPECT_LE(b.value, after.value);
	EXPECT_LE(b.enabled, after.enabled);
	close(fd);
	close(fd0);
}

/*
 * An enabled CPU-wide event whose CPU went offline and came back counts
 * again by itself, time_enabled and time_running with it, without being
 * enabled again (mainline leaves it stopped for good: an extension of
 * this core, Documentation/perf/core/uapi.rst).
 */
TEST_F(hp, cpu_wide_event_resumes_after_cpu_returns)
{
	struct reading off, back, later;
	int fd;

	fd = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, TIMES, -1);
	ASSERT_LE(0, fd) TH_LOG("cpu-clock on CPU %d: %s", CPU,
				strerror(errno));
	usleep(SLEEP_US);
	ASSERT_EQ(0, set_online(0)) TH_LOG("offline: %s", strerror(errno));
	ASSERT_EQ(0, read_times(fd, &off));
	ASSERT_EQ(0, set_online(1)) TH_LOG("online: %s", strerror(errno));
	usleep(SLEEP_US);
	ASSERT_EQ(0, read_times(fd, &back));
	usleep(SLEEP_US);
	ASSERT_EQ(0, read_times(fd, &later));

	/* a cpu-clock counts wall time on its CPU, idle or not */
	EXPECT_LT(back.value, later.value);
	EXPECT_LT(back.enabled, later.enabled);
	EXPECT_LT(back.running, later.running);
	EXPECT_LT(off.value, later.value);
	close(fd);
}

/*
 * A group on the CPU: every member stops. (What a PERF_FORMAT_GROUP read
 * returns after the CPU went away is not checked: mainline breaks the
 * group up then.)
 */
TEST_F(hp, group_stops_while_offline)
{
	struct reading a[2], b[2];
	int fd[2], i;

	fd[0] = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, TIMES, -1);
	ASSERT_LE(0, fd[0]) TH_LOG("cpu-clock: %s", strerror(errno));
	fd[1] = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, TIMES, fd[0]);
	ASSERT_LE(0, fd[1]) TH_LOG("sibling: %s", strerror(errno));
	usleep(SLEEP_US);

	ASSERT_EQ(0, set_online(0));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, read_times(fd[i], &a[i]));
	usleep(SLEEP_US);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, read_times(fd[i], &b[i]));
		EXPECT_LT(0, a[i].value);
		EXPECT_EQ(a[i].value, b[i].value) TH_LOG("member %d", i);
		EXPECT_EQ(a[i].enabled, b[i].enabled);
		EXPECT_EQ(a[i].running, b[i].running);
	}
	ASSERT_EQ(0, set_online(1));
	close(fd[1]);
	close(fd[0]);
}

/*
 * No CPU-wide event can be opened on an offline CPU; closing one that
 * was on it works; once the CPU is back, new events on it count.
 */
TEST_F(hp, open_on_offline_cpu_enodev)
{
	int fd, old;

	old = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, 0, -1);
	ASSERT_LE(0, old);
	ASSERT_EQ(0, set_online(0));
	EXPECT_EQ(-1, open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, 0, -1));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, -1, CPU, 0,
			      -1));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(old));

	ASSERT_EQ(0, set_online(1));
	fd = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, CPU, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("after online: %s", strerror(errno));
	usleep(SLEEP_US);
	EXPECT_LT(0, read_value(fd));
	close(fd);
}

/* A task event goes on counting when its task is moved off the CPU. */
TEST_F(hp, task_event_survives_offline)
{
	__u64 a, b;
	cpu_set_t set;
	int fd;

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0, -1);
	ASSERT_LE(0, fd);
	CPU_ZERO(&set);
	CPU_SET(CPU, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, set_online(0));
	/* The kernel moved this task: CPU 1 is gone. */
	EXPECT_NE(CPU, sched_getcpu());
	a = read_value(fd);
	burn_cpu(BURN_NS);
	b = read_value(fd);
	EXPECT_LE(BURN_NS / 2, a);
	EXPECT_LE(a + BURN_NS / 2, b);
	ASSERT_EQ(0, set_online(1));
	close(fd);
}

/*
 * One fd for every CPU (PERF_FLAG_ALL_CPUS, an extension of this core)
 * opened while CPU 1 is offline counts on CPU 1 once it comes online,
 * and a CPU that leaves and comes back counts again.  Mainline refuses
 * the flag with EINVAL.
 */
TEST_F(hp, all_cpus_event_counts_on_cpu_that_comes_online)
{
	struct { __u64 nr; struct { __u64 cpu, value; } c[256]; } r1, r2;
	struct perf_event_attr attr;
	__u64 on_cpu[2] = { 0, 0 };
	int fd, i, round;

	ASSERT_EQ(0, set_online(0)) TH_LOG("offline: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = PERF_FORMAT_PER_CPU;
	fd = sys_perf_event_open(&attr, -1, -1, -1, PERF_FLAG_ALL_CPUS);
	ASSERT_LE(0, fd) TH_LOG("PERF_FLAG_ALL_CPUS: %s (mainline refuses it)",
				strerror(errno));
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, set_online(1)) TH_LOG("online: %s",
						   strerror(errno));
		usleep(SLEEP_US);
		ASSERT_LT(0, read(fd, &r1, sizeof(r1)));
		usleep(SLEEP_US);
		ASSERT_LT(0, read(fd, &r2, sizeof(r2)));
		ASSERT_EQ(r1.nr, r2.nr);
		ASSERT_LT(CPU, r1.nr);
		for (i = 0; i < (int)r1.nr && i < 256; i++) {
			if (r1.c[i].cpu != CPU)
				continue;
			on_cpu[round] = r2.c[i].value;
			/* a cpu-clock counts wall time, idle or not */
			EXPECT_LT(r1.c[i].value, r2.c[i].value);
		}
		EXPECT_LT(0, on_cpu[round]);
		if (!round)
			ASSERT_EQ(0, set_online(0));
	}
	EXPECT_LE(on_cpu[0], on_cpu[1]);
	close(fd);
}

TEST_HARNESS_MAIN
