// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) permissions, per the man page and
 * Documentation/admin-guide/perf-security.rst: what an unprivileged user
 * may open at each /proc/sys/kernel/perf_event_paranoid level (2: user
 * space of its own tasks; 1: kernel too; 0: CPU-wide, but no raw
 * tracepoint samples; -1: those too), what CAP_PERFMON and root may open
 * regardless, the ptrace-style check on the target task, and the sysctl
 * files themselves.
 *
 * Runs as root. Each check runs in a child that drops to uid/gid 65534
 * with no capabilities (or with CAP_PERFMON only); the test sets the
 * sysctl in the parent and puts the old value back afterwards, also when
 * the test fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON		38
#endif

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define MLOCK_KB	"/proc/sys/kernel/perf_event_mlock_kb"
#define NOBODY		65534
#define BURN_NS		(10 * 1000 * 1000LL)

/* A child's exit status: 0, an errno, or one of these. */
#define R_NOPRIV	250	/* could not drop privileges */
#define R_NOCOUNT	251	/* opened, but did not count */
#define R_SETUP		252	/* something else went wrong */

/* Safety net: whatever happens to a test, the level at startup returns. */
static pid_t main_pid;
static int startup_paranoid;
static int have_startup_paranoid;

static void __attribute__((constructor)) save_paranoid(void)
{
	main_pid = getpid();
	have_startup_paranoid = read_int(PARANOID, &startup_paranoid) == 0;
}

static void __attribute__((destructor)) restore_paranoid(void)
{
	if (getpid() == main_pid && have_startup_paranoid && geteuid() == 0)
		write_int(PARANOID, startup_paranoid);
}

/*
 * Become uid/gid 65534 with no supplementary groups and only the
 * capabilities in @keep (a mask of 1ULL << CAP_*), dumpable again so that
 * this user's own children pass the ptrace-style check.
 */
static int drop_privileges(__u64 keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	uid_t r, e, s;

	if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	memset(data, 0, sizeof(data));
	data[0].effective = (__u32)keep;
	data[0].permitted = (__u32)keep;
	data[1].effective = (__u32)(keep >> 32);
	data[1].permitted = (__u32)(keep >> 32);
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	/* Ambient capabilities (since 4.3) would survive; clear them. */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);

	/* Check that it worked. */
	memset(data, 0xff, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	if (data[0].effective != (__u32)keep ||
	    data[0].permitted != (__u32)keep ||
	    data[1].effective != (__u32)(keep >> 32) ||
	    data[1].permitted != (__u32)(keep >> 32) ||
	    data[0].inheritable || data[1].inheritable)
		return -1;
	if (getresuid(&r, &e, &s) || r != NOBODY || e != NOBODY ||
	    s != NOBODY)
		return -1;
	/* A change of credentials made this task non-dumpable. */
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* What the unprivileged child opens. */
struct job {
	struct perf_event_attr attr;
	pid_t pid;		/* as for perf_event_open() */
	int cpu;
	int own_child;		/* target a child the user forks itself */
	int check_count;	/* the event must count, too */
	__u64 keep_caps;
};

/* In the child: open the job's event; returns the exit status. */
static int do_job(struct job *job)
{
	int fd, p[2] = { -1, -1 }, status;
	pid_t target = job->pid, kid = -1;
	__u64 v = 0;
	char c;

	if (job->own_child) {
		if (pipe(p))
			return R_SETUP;
		kid = fork();
		if (kid < 0)
			return R_SETUP;
		if (kid == 0) {
			close(p[1]);
			_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
		}
		close(p[0]);
		target = kid;
	}
	fd = sys_perf_event_open(&job->attr, target, job->cpu, -1, 0);
	if (fd < 0) {
		status = errno;
	} else {
		status = 0;
		if (job->check_count) {
			burn_cpu(BURN_NS);
			usleep(1000);
			if (read(fd, &v, sizeof(v)) != sizeof(v) || !v)
				status = R_NOCOUNT;
		}
		close(fd);
	}
	if (kid > 0) {
		close(p[1]);
		waitpid(kid, NULL, 0);
	}
	return status;
}

/* Run @job as user 65534; returns the child's status, or -1. */
static int run_unprivileged(struct job *job)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (drop_privileges(job->keep_caps))
			_exit(R_NOPRIV);
		_exit(do_job(job));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void sw_job(struct job *job, int kernel, pid_t pid, int cpu)
{
	memset(job, 0, sizeof(*job));
	/* cpu-clock counts on a CPU even while it idles. */
	sw_attr(&job->attr, pid == -1 ? PERF_COUNT_SW_CPU_CLOCK :
					PERF_COUNT_SW_TASK_CLOCK);
	job->attr.exclude_kernel = !kernel;
	job->attr.exclude_hv = !kernel;
	job->pid = pid;
	job->cpu = cpu;
}

#define USER_ONLY	0
#define WITH_KERNEL	1

/* As user 65534: a task-clock event on itself, which must count. */
static int try_self(int kernel)
{
	struct job job;

	sw_job(&job, kernel, 0, -1);
	job.check_count = 1;
	return run_unprivileged(&job);
}

/* As user 65534: a cpu-clock event on all of CPU 0, which must count. */
static int try_cpu_wide(int kernel)
{
	struct job job;

	sw_job(&job, kernel, -1, 0);
	job.check_count = 1;
	return run_unprivileged(&job);
}

/* As user 65534: a task-clock event on task @pid. */
static int try_task(int kernel, pid_t pid)
{
	struct job job;

	sw_job(&job, kernel, pid, -1);
	return run_unprivileged(&job);
}

static const char *result_name(int r)
{
	switch (r) {
	case -1:
		return "harness error";
	case R_NOPRIV:
		return "could not drop privileges";
	case R_NOCOUNT:
		return "opened but did not count";
	case R_SETUP:
		return "setup error";
	}
	return r ? strerror(r) : "success";
}

/*
 * Without CONFIG_PROC_SYSCTL there is no /proc/sys: the level is then the
 * default, 2 (Documentation/admin-guide/sysctl/kernel.rst), and cannot be
 * changed; tests of the other levels skip.
 */
static bool have_sysctl(void)
{
	return access("/proc/sys/kernel", F_OK) == 0;
}

FIXTURE(perms) {
	int saved;
	int have_saved;
};

FIXTURE_SETUP(perms)
{
	self->have_saved = 0;
	if (geteuid() != 0)
		SKIP(return, "needs root");
	if (!have_sysctl())
		return;
	ASSERT_EQ(0, read_int(PARANOID, &self->saved))
		TH_LOG("no %s: perf_event_open() unsupported?", PARANOID);
	self->have_saved = 1;
}

/* In the parent: runs even when the test's own process failed. */
FIXTURE_TEARDOWN_PARENT(perms)
{
	if (self->have_saved && write_int(PARANOID, self->saved))
		TH_LOG("could not restore %s to %d", PARANOID, self->saved);
}

/* Set the level; false, with the test skipped, if it cannot be set. */
static bool set_paranoid(struct __test_metadata *_metadata, int level)
{
	if (!have_sysctl()) {
		if (level == 2)
			return true;
		SKIP(return false, "no /proc/sys: cannot set level %d", level);
	}
	ASSERT_EQ(0, write_int(PARANOID, level))
		TH_LOG("writing %d to %s: %s", level, PARANOID,
		       strerror(errno));
	return true;
}

/* Compare a child's status with the expected one, saying what it was. */
static void expect(struct __test_metadata *_metadata, const char *what,
		   int want, int got)
{
	EXPECT_EQ(want, got) TH_LOG("%s: want %s, got %s", what,
				    result_name(want), result_name(got));
}

/* 2: user-space measurement of one's own tasks only. */
TEST_F(perms, paranoid_2)
{
	if (!set_paranoid(_metadata, 2))
		return;
	expect(_metadata, "self, user only", 0, try_self(USER_ONLY));
	/* Not excluding the kernel needs CAP_PERFMON. */
	expect(_metadata, "self, kernel", EACCES, try_self(WITH_KERNEL));
	/* CPU-wide, even user-only, needs CAP_PERFMON. */
	expect(_metadata, "CPU-wide, user only", EACCES,
	       try_cpu_wide(USER_ONLY));
	expect(_metadata, "CPU-wide, kernel", EACCES,
	       try_cpu_wide(WITH_KERNEL));
}

/* 1: kernel measurement of one's own tasks too; still nothing CPU-wide. */
TEST_F(perms, paranoid_1)
{
	if (!set_paranoid(_metadata, 1))
		return;
	expect(_metadata, "self, user only", 0, try_self(USER_ONLY));
	expect(_metadata, "self, kernel", 0, try_self(WITH_KERNEL));
	expect(_metadata, "CPU-wide, user only", EACCES,
	       try_cpu_wide(USER_ONLY));
	expect(_metadata, "CPU-wide, kernel", EACCES,
	       try_cpu_wide(WITH_KERNEL));
}

/* 0: CPU-wide events too. */
TEST_F(perms, paranoid_0)
{
	if (!set_paranoid(_metadata, 0))
		return;
	expect(_metadata, "self, kernel", 0, try_self(WITH_KERNEL));
	expect(_metadata, "CPU-wide, user only", 0, try_cpu_wide(USER_ONLY));
	expect(_metadata, "CPU-wide, kernel", 0, try_cpu_wide(WITH_KERNEL));
}

/* -1: no restriction by level. */
TEST_F(perms, paranoid_minus_1)
{
	if (!set_paranoid(_metadata, -1))
		return;
	expect(_metadata, "self, kernel", 0, try_self(WITH_KERNEL));
	expect(_metadata, "CPU-wide, kernel", 0, try_cpu_wide(WITH_KERNEL));
}

/*
 * Raw tracepoint samples of a CPU-wide tracepoint event: refused (EPERM)
 * below -1, allowed at -1. Counting the same tracepoint is fine at 0.
 */
TEST_F(perms, raw_tracepoint_samples)
{
	long long id = tracepoint_id("sched", "sched_switch");
	struct job job;

	if (id < 0)
		SKIP(return, "no tracefs or no sched:sched_switch");
	memset(&job, 0, sizeof(job));
	job.attr.size = sizeof(job.attr);
	job.attr.type = PERF_TYPE_TRACEPOINT;
	job.attr.config = id;
	job.attr.exclude_kernel = 0;
	job.pid = -1;
	job.cpu = 0;

	if (!set_paranoid(_metadata, 0))
		return;
	expect(_metadata, "counting, 0", 0, run_unprivileged(&job));
	job.attr.sample_period = 1;
	job.attr.sample_type = PERF_SAMPLE_RAW;
	expect(_metadata, "raw samples, 0", EPERM, run_unprivileged(&job));

	if (!set_paranoid(_metadata, -1))
		return;
	expect(_metadata, "raw samples, -1", 0, run_unprivileged(&job));
}

/* CAP_PERFMON is enough for everything above, at the default level. */
TEST_F(perms, cap_perfmon)
{
	struct job job;

	if (!set_paranoid(_metadata, 2))
		return;
	sw_job(&job, WITH_KERNEL, -1, 0);
	job.check_count = 1;
	job.keep_caps = 1ULL << CAP_PERFMON;
	expect(_metadata, "CPU-wide, kernel", 0, run_unprivileged(&job));

	/* Including another user's (root's) task. */
	sw_job(&job, WITH_KERNEL, getpid(), -1);
	job.keep_caps = 1ULL << CAP_PERFMON;
	expect(_metadata, "root's task", 0, run_unprivileged(&job));

	/* The same child without it is refused: the test is sound. */
	job.keep_caps = 0;
	expect(_metadata, "root's task, no CAP_PERFMON", EACCES,
	       run_unprivileged(&job));
}

/* Root may do everything, at 2 and at the stricter 3 alike. */
TEST_F(perms, root_unrestricted)
{
	struct perf_event_attr attr;
	int level, fd;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	for (level = 2; level <= 3; level++) {
		if (level != 2 && !have_sysctl())
			break;
		if (!set_paranoid(_metadata, level))
			return;
		fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
		EXPECT_LE(0, fd) TH_LOG("level %d, CPU-wide: %s", level,
					strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_LE(0, fd) TH_LOG("level %d, self: %s", level,
					strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/* Another user's task is refused: the ptrace access mode check. */
TEST_F(perms, other_users_task_eacces)
{
	pid_t root_task = getpid();

	if (!set_paranoid(_metadata, 2))
		return;
	expect(_metadata, "2, user only", EACCES,
	       try_task(USER_ONLY, root_task));
	if (!have_sysctl())
		return;
	if (!set_paranoid(_metadata, 1))
		return;
	expect(_metadata, "1, kernel", EACCES,
	       try_task(WITH_KERNEL, root_task));
}

/* A task of one's own, here a child, is allowed. */
TEST_F(perms, own_child_allowed)
{
	struct job job;

	if (!set_paranoid(_metadata, 2))
		return;
	sw_job(&job, USER_ONLY, 0, -1);
	job.own_child = 1;
	expect(_metadata, "own child", 0, run_unprivileged(&job));
}

/*
 * What would show kernel addresses needs kernel-profiling permission even
 * where the event itself excludes the kernel: a text_poke listener, kernel
 * callchains and samples' physical addresses (mainline 7.3 for the first
 * two; the 6.12 stable kernels have them too).  CAP_PERFMON is that
 * permission.
 */
TEST_F(perms, kernel_addresses_need_kernel_access)
{
	struct job job;

	if (!set_paranoid(_metadata, 2))
		return;
	sw_job(&job, USER_ONLY, 0, -1);
	job.attr.text_poke = 1;
	expect(_metadata, "text_poke", EACCES, run_unprivileged(&job));
	job.keep_caps = 1ULL << CAP_PERFMON;
	expect(_metadata, "text_poke, CAP_PERFMON", 0, run_unprivileged(&job));

	sw_job(&job, USER_ONLY, 0, -1);
	job.attr.sample_period = 1000000;
	job.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	expect(_metadata, "kernel callchains", EACCES, run_unprivileged(&job));
	job.attr.exclude_callchain_kernel = 1;
	expect(_metadata, "user callchains", 0, run_unprivileged(&job));

	sw_job(&job, USER_ONLY, 0, -1);
	job.attr.sample_period = 1000000;
	job.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PHYS_ADDR;
	expect(_metadata, "physical addresses", EACCES,
	       run_unprivileged(&job));
}

/*
 * A uprobe made through perf needs CAP_SYS_ADMIN, CAP_PERFMON is not
 * enough (mainline 6.16, as before 5.8, and the 6.12 stable kernels): the
 * probe patches the text of every process that maps the file.
 */
TEST_F(perms, uprobe_needs_cap_sys_admin)
{
	static const char path[] = "/proc/self/exe";
	struct job job;
	int type;

	if (read_int("/sys/bus/event_source/devices/uprobe/type", &type))
		SKIP(return, "no uprobe PMU (CONFIG_UPROBE_EVENTS)");
	if (!set_paranoid(_metadata, 2))
		return;
	memset(&job, 0, sizeof(job));
	job.attr.size = sizeof(job.attr);
	job.attr.type = type;
	job.attr.config1 = (__u64)(unsigned long)path;	/* uprobe_path */
	job.attr.config2 = 0;				/* probe_offset */
	job.attr.exclude_kernel = 1;
	job.pid = 0;
	job.cpu = -1;
	job.keep_caps = 1ULL << CAP_PERFMON;
	expect(_metadata, "CAP_PERFMON", EACCES, run_unprivileged(&job));
	/* the capability is what is checked: with it, another answer */
	job.keep_caps |= 1ULL << CAP_SYS_ADMIN;
	EXPECT_NE(EACCES, run_unprivileged(&job));
}

/* The sysctls exist, anyone may read them, only root may write them. */
static int read_as_user(void)
{
	int val, fd;

	if (read_int(PARANOID, &val) || read_int(MLOCK_KB, &val))
		return R_SETUP;
	fd = open(PARANOID, O_WRONLY);
	if (fd >= 0) {
		close(fd);
		return R_SETUP;
	}
	return errno;
}

TEST(sysctl_files)
{
	int status, val;
	pid_t pid;

	if (!have_sysctl())
		SKIP(return, "no /proc/sys (CONFIG_PROC_SYSCTL)");
	ASSERT_EQ(0, read_int(PARANOID, &val));
	ASSERT_EQ(0, read_int(MLOCK_KB, &val));
	EXPECT_GT(val, 0);
	ASSERT_EQ(0, access("/proc/sys/kernel/perf_event_max_sample_rate",
			    R_OK));
	ASSERT_EQ(0, access("/proc/sys/kernel/perf_event_max_stack", R_OK));
	if (geteuid() != 0)
		return;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (drop_privileges(0))
			_exit(R_NOPRIV);
		_exit(read_as_user());
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	expect(_metadata, "writing as user", EACCES, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
