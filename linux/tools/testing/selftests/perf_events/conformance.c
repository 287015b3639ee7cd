// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): behaviour that programs see and rely on beyond the
 * return codes: the enabled and running times of a counter that never
 * waited for its PMU, a group's members after its task is gone, and PMUs
 * that refuse what they cannot do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define BURN_NS	(10 * 1000 * 1000LL)

/* Software counters never wait for a counter: enabled == running. */
static const __u64 sw_configs[] = {
	PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_CPU_CLOCK,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

#define NR_SW	ARRAY_SIZE(sw_configs)

struct times_read {
	__u64 value, enabled, running;
};

/* Open every counter of sw_configs on @pid/@cpu; 0 or -1 with errno. */
static int open_sw_set(int *fd, pid_t pid, int cpu, int disabled,
		       int enable_on_exec, int inherit)
{
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < NR_SW; i++) {
		sw_attr(&attr, sw_configs[i]);
		attr.read_format = TIMES;
		attr.disabled = disabled;
		attr.enable_on_exec = enable_on_exec;
		attr.inherit = inherit;
		fd[i] = sys_perf_event_open(&attr, pid, cpu, -1, 0);
		if (fd[i] < 0) {
			while (i--)
				close(fd[i]);
			return -1;
		}
	}
	return 0;
}

/* Read each counter of the set: how many report enabled != running. */
static int unequal_times(struct __test_metadata *_metadata, int *fd,
			 int want_enabled)
{
	struct times_read t;
	unsigned int i;
	int bad = 0;

	for (i = 0; i < NR_SW; i++) {
		if (read(fd[i], &t, sizeof(t)) != sizeof(t)) {
			TH_LOG("config %llu: read: %s",
			       (unsigned long long)sw_configs[i],
			       strerror(errno));
			bad++;
			continue;
		}
		if (t.enabled != t.running || (want_enabled && !t.enabled)) {
			TH_LOG("config %llu: count %llu enabled %llu running %llu",
			       (unsigned long long)sw_configs[i],
			       (unsigned long long)t.value,
			       (unsigned long long)t.enabled,
			       (unsigned long long)t.running);
			bad++;
		}
		close(fd[i]);
	}
	return bad;
}

/* Some CPU time, page faults and context switches of the caller. */
static void workload(void)
{
	burn_cpu(BURN_NS);
	fault_n(16);
	usleep(1000);
	sched_yield();
	burn_cpu(BURN_NS);
}

TEST(sw_times_equal_enabled_at_open)
{
	int fd[NR_SW];

	ASSERT_EQ(0, open_sw_set(fd, 0, -1, 0, 0, 0)) TH_LOG("%s", strerror(errno));
	workload();
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

TEST(sw_times_equal_enabled_by_ioctl)
{
	unsigned int i;
	int fd[NR_SW];

	ASSERT_EQ(0, open_sw_set(fd, 0, -1, 1, 0, 0)) TH_LOG("%s", strerror(errno));
	burn_cpu(BURN_NS);
	for (i = 0; i < NR_SW; i++)
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	workload();
	for (i = 0; i < NR_SW; i++)
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0));
	burn_cpu(BURN_NS);
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

enum child_does {
	CHILD_WORKS,		/* workload() */
	CHILD_EXECS,		/* /bin/true */
	CHILD_FORKS,		/* workload() in a child of its own, and itself */
};

/* A child that waits for a byte on a pipe, then does @what and exits. */
static pid_t fork_waiting(int *go, enum child_does what)
{
	int p[2];
	pid_t pid, grandchild;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		if (what == CHILD_EXECS) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (what == CHILD_FORKS) {
			grandchild = fork();
			if (grandchild == 0) {
				workload();
				_exit(0);
			}
			workload();
			_exit(reap_child(grandchild) ? 1 : 0);
		}
		workload();
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* What perf stat does: counters on a child, enabled when it execs. */
TEST(sw_times_equal_enabled_at_exec)
{
	int fd[NR_SW], go;
	pid_t pid;

	if (access("/bin/true", X_OK))
		SKIP(return, "no /bin/true");
	pid = fork_waiting(&go, CHILD_EXECS);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, open_sw_set(fd, pid, -1, 1, 1, 1)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, release_child(pid, go));
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

/* Counters of a task that ran and exited, read afterwards. */
TEST(sw_times_equal_after_exit)
{
	int fd[NR_SW], go;
	pid_t pid;

	pid = fork_waiting(&go, CHILD_WORKS);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, open_sw_set(fd, pid, -1, 0, 0, 0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, release_child(pid, go));
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

/* The same with inherit, as perf stat opens them: children fold in. */
TEST(sw_times_equal_inherited)
{
	int fd[NR_SW], go;
	pid_t pid;

	pid = fork_waiting(&go, CHILD_FORKS);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, open_sw_set(fd, pid, -1, 0, 0, 1)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, release_child(pid, go));
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

/* CPU-wide counters (privileged): on the whole time too. */
TEST(sw_times_equal_cpu_wide)
{
	unsigned int i;
	int fd[NR_SW];

	if (open_sw_set(fd, -1, 0, 1, 0, 0)) {
		if (errno == EACCES || errno == EPERM)
			SKIP(return, "CPU-wide events not allowed: %s",
			     strerror(errno));
		ASSERT_TRUE(0) TH_LOG("cpu 0: %s", strerror(errno));
	}
	for (i = 0; i < NR_SW; i++)
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	pin_to_cpu(0, 0);
	workload();
	EXPECT_EQ(0, unequal_times(_metadata, fd, 1));
}

struct group2_read {
	__u64 nr;
	struct {
		__u64 value, id;
	} v[2];
};

/*
 * A group on another task, read after that task has exited: both
 * members are still there, with their counts (mainline since 2.6.34).
 * @type/@lead/@member: the two events; returns 0, or 1 for "no such PMU".
 */
static int group_after_exit(struct __test_metadata *_metadata, __u32 type,
			    __u64 lead, __u64 member)
{
	struct perf_event_attr attr;
	struct group2_read gr;
	__u64 id[2];
	int fd[2], go, i;
	ssize_t n;
	pid_t pid;

	pid = fork_waiting(&go, CHILD_WORKS);
	if (pid <= 0)
		return -1;
	for (i = 0; i < 2; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = type;
		attr.config = i ? member : lead;
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		attr.pinned = !i;
		attr.disabled = !i;
		fd[i] = sys_perf_event_open(&attr, pid, -1, i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			int err = errno;

			if (i)
				close(fd[0]);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) {
				TH_LOG("member %d: %s", i, strerror(err));
				return 1;
			}
			TH_LOG("member %d: %s", i, strerror(err));
			return -1;
		}
		ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]);
	}
	EXPECT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(0, release_child(pid, go));
	EXPECT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	memset(&gr, 0, sizeof(gr));
	n = read(fd[0], &gr, sizeof(gr));
	TH_LOG("read %zd bytes: nr %llu, %llu (id %llu), %llu (id %llu)", n,
	       (unsigned long long)gr.nr,
	       (unsigned long long)gr.v[0].value,
	       (unsigned long long)gr.v[0].id,
	       (unsigned long long)gr.v[1].value,
	       (unsigned long long)gr.v[1].id);
	EXPECT_EQ(sizeof(gr), n);
	EXPECT_EQ(2, gr.nr);
	EXPECT_EQ(id[0], gr.v[0].id);
	EXPECT_EQ(id[1], gr.v[1].id);
	EXPECT_GT(gr.v[0].value, 0);
	EXPECT_GT(gr.v[1].value, 0);
	close(fd[1]);
	close(fd[0]);
	return 0;
}

TEST(group_read_after_exit_software)
{
	ASSERT_EQ(0, group_after_exit(_metadata, PERF_TYPE_SOFTWARE,
				      PERF_COUNT_SW_TASK_CLOCK,
				      PERF_COUNT_SW_PAGE_FAULTS));
}

TEST(group_read_after_exit_hardware)
{
	int ret = group_after_exit(_metadata, PERF_TYPE_HARDWARE,
				   PERF_COUNT_HW_INSTRUCTIONS,
				   PERF_COUNT_HW_CPU_CYCLES);

	if (ret == 1)
		SKIP(return, "no hardware instructions event (QEMU: only under icount)");
	ASSERT_EQ(0, ret);
}

/* A sampling attr asking for branch stacks on @type/@config. */
static int open_branch_stack(__u32 type, __u64 config, __u64 bp_addr)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_PLM_ALL;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	if (type == PERF_TYPE_BREAKPOINT) {
		attr.bp_type = HW_BREAKPOINT_W;
		attr.bp_addr = bp_addr;
		attr.bp_len = HW_BREAKPOINT_LEN_4;
	}
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static int bp_target;

/* PMUs without branch-stack support refuse it: EOPNOTSUPP, as mainline. */
TEST(branch_stack_refused_where_unsupported)
{
	static const struct {
		__u32 type;
		__u64 config;
		const char *name;
	} pmus[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
		{ PERF_TYPE_BREAKPOINT, 0, "breakpoint" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	};
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		fd = open_branch_stack(pmus[i].type, pmus[i].config,
				       (unsigned long)&bp_target);
		if (fd >= 0)
			close(fd);
		/*
		 * No such PMU at all (no breakpoints, no hardware PMU) is
		 * ENOENT; a PMU that has branch stacks (x86 LBR, arm64 BRBE)
		 * may take it.
		 */
		if (fd < 0 && pmus[i].type != PERF_TYPE_SOFTWARE &&
		    errno == ENOENT)
			continue;
		if (fd >= 0 && pmus[i].type == PERF_TYPE_HARDWARE &&
		    !access("/sys/bus/event_source/devices/cpu/caps/branches", F_OK))
			continue;
		EXPECT_EQ(-1, fd) TH_LOG("%s accepted branch stacks", pmus[i].name);
		if (fd < 0)
			EXPECT_EQ(EOPNOTSUPP, errno) TH_LOG("%s: %s", pmus[i].name,
							    strerror(errno));
	}
}

TEST_HARNESS_MAIN
