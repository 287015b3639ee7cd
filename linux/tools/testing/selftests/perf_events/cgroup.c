// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) with PERF_FLAG_PID_CGROUP: a CPU-wide event that
 * counts only while a task of the given cgroup v2 directory (or of one
 * below it) runs on that CPU; and the arguments it refuses (cpu == -1,
 * an fd that is not a cgroup directory, group members in different
 * cgroups).
 *
 * Runs as root: it makes cgroups under the cgroup2 mount (mounting
 * cgroup2 on /sys/fs/cgroup, or on a temporary directory, if there is
 * none) and moves a child task into them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BURN_NS		(20 * 1000 * 1000LL)
#define CHILD_BURN_NS	(50 * 1000 * 1000LL)
#define CG_DEFAULT	"/sys/fs/cgroup"

/* A CPU-wide software event on @cpu, counting only in cgroup @cgfd. */
static int open_cg(__u64 config, int cgfd, int cpu, int group_fd)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, cgfd, cpu, group_fd,
				   PERF_FLAG_PID_CGROUP);
}

/* value, time_enabled, time_running */
static int read_event(int fd, __u64 *v)
{
	if (read(fd, v, 3 * sizeof(__u64)) != 3 * sizeof(__u64))
		return -1;
	return v[2] <= v[1] ? 0 : -1;
}

/* The last CPU this task may run on. */
static int pick_cpu(void)
{
	cpu_set_t set;
	int cpu, last = -1;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			last = cpu;
	return last;
}

/* Where cgroup2 is mounted, into @path; -1 if it is not. */
static int find_cgroup2(char *path, size_t len)
{
	char dev[256], dir[PATH_MAX], type[64];
	int found = -1;
	FILE *f;

	f = fopen("/proc/self/mounts", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (strcmp(type, "cgroup2") || strlen(dir) >= len)
			continue;
		memcpy(path, dir, strlen(dir) + 1);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

static int is_mount_point(const char *path)
{
	char dev[256], dir[PATH_MAX], type[64];
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/mounts", "r");
	if (!f)
		return 1;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(dir, path))
			found = 1;
	fclose(f);
	return found;
}

/*
 * The perf_event controller: 1 if it is usable on cgroup2, 0 if it is
 * missing or bound to a v1 hierarchy.
 */
static int perf_controller_on_v2(void)
{
	char name[64];
	int hier, n, on, found = 0;
	FILE *f;

	f = fopen("/proc/cgroups", "r");
	if (!f)
		return 0;
	fscanf(f, "%*[^\n]\n");
	while (fscanf(f, "%63s %d %d %d\n", name, &hier, &n, &on) == 4)
		if (!strcmp(name, "perf_event") && hier == 0 && on)
			found = 1;
	fclose(f);
	return found;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return write_int(path, pid);
}

/* rmdir, waiting a little for a killed task to leave the cgroup. */
static void remove_cgroup(const char *dir)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			return;
		usleep(10000);
	}
}

static int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd, ret;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return ret;
}

/* Is @word one of the space-separated words of @list? */
static int has_word(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == '\n' || p[len] == '\0'))
			return 1;
		p += len;
	}
	return 0;
}

/*
 * Seen on 6.12 in the test guests: until some cgroup.subtree_control of
 * the cgroup2 hierarchy has been changed once since boot, new cgroups
 * get no state for the implicitly enabled controllers (perf_event is
 * one), and PERF_FLAG_PID_CGROUP fails on them with ENOENT. A cgroup
 * manager has always done such a change; in a bare guest, enable and
 * disable again one controller at the root, which brings every cgroup's
 * controllers up to date.
 */
static int refresh_controllers(const char *root)
{
	char path[256], ctl[256], avail[256], on[256], cmd[80];
	char *tok, *save;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
	snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", root);
	if (read_text(path, avail, sizeof(avail)) ||
	    read_text(ctl, on, sizeof(on)))
		return -1;
	for (tok = strtok_r(avail, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save)) {
		if (has_word(on, tok))
			continue;
		snprintf(cmd, sizeof(cmd), "+%s", tok);
		if (write_text(ctl, cmd))
			continue;
		cmd[0] = '-';
		return write_text(ctl, cmd);
	}
	return -1;
}

/* What the tests set up, and what has to be undone. */
struct cgroups {
	char root[200];		/* the cgroup2 mount */
	char dir[256];		/* our cgroup */
	char sub[300];		/* a cgroup below it */
	int mounted;		/* 1: on /sys/fs/cgroup, 2: on a temp dir */
	int made;		/* 1: dir, 2: sub too */
	int fd;			/* dir, opened */
	int subfd;		/* sub, opened */
	int cpu;		/* where the events and the child are */
	pid_t kid;		/* a child in one of them */
};

static void undo(struct cgroups *c)
{
	if (c->kid > 0)
		kill(c->kid, SIGKILL);
	if (c->made >= 2)
		remove_cgroup(c->sub);
	if (c->made >= 1)
		remove_cgroup(c->dir);
	if (c->mounted) {
		umount(c->root);
		if (c->mounted == 2)
			rmdir(c->root);
	}
	c->kid = -1;
	c->made = 0;
	c->mounted = 0;
}

/* 0, or -1 with errno set and everything undone. */
static int make_cgroups(struct cgroups *c)
{
	int err;

	snprintf(c->dir, sizeof(c->dir), "%s/perf_selftest.%d", c->root,
		 getpid());
	snprintf(c->sub, sizeof(c->sub), "%s/sub", c->dir);
	if (mkdir(c->dir, 0755))
		goto fail;
	c->made = 1;
	if (mkdir(c->sub, 0755))
		goto fail;
	c->made = 2;
	c->fd = open(c->dir, O_RDONLY | O_DIRECTORY);
	c->subfd = open(c->sub, O_RDONLY | O_DIRECTORY);
	if (c->fd < 0 || c->subfd < 0)
		goto fail;
	return 0;
fail:
	err = errno;
	undo(c);
	errno = err;
	return -1;
}

FIXTURE(cg) {
	struct cgroups c;
};

FIXTURE_SETUP(cg)
{
	struct cgroups *c = &self->c;
	int fd, err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->subfd = -1;
	c->kid = -1;
	if (geteuid() != 0)
		SKIP(return, "needs root");
	if (!perf_controller_on_v2())
		SKIP(return, "no perf_event cgroup controller on cgroup2");
	if (find_cgroup2(c->root, sizeof(c->root))) {
		/* None mounted: mount one. */
		if (!is_mount_point(CG_DEFAULT) &&
		    !mount("none", CG_DEFAULT, "cgroup2", 0, NULL)) {
			snprintf(c->root, sizeof(c->root), CG_DEFAULT);
			c->mounted = 1;
		} else {
			snprintf(c->root, sizeof(c->root),
				 "/tmp/perf_cgroup.XXXXXX");
			if (!mkdtemp(c->root))
				SKIP(return, "mkdtemp: %s", strerror(errno));
			if (mount("none", c->root, "cgroup2", 0, NULL)) {
				rmdir(c->root);
				SKIP(return, "cannot mount cgroup2: %s",
				     strerror(errno));
			}
			c->mounted = 2;
		}
	}
	ASSERT_EQ(0, make_cgroups(c))
		TH_LOG("making %s: %s", c->dir, strerror(errno));
	c->cpu = pick_cpu();
	fd = open_cg(PERF_COUNT_SW_TASK_CLOCK, c->fd, c->cpu, -1);
	if (fd < 0 && errno == ENOENT && !refresh_controllers(c->root))
		fd = open_cg(PERF_COUNT_SW_TASK_CLOCK, c->fd, c->cpu, -1);
	if (fd < 0) {
		err = errno;
		undo(c);
		ASSERT_LE(0, fd) TH_LOG("cgroup event on %s: %s", c->dir,
					strerror(err));
	}
	close(fd);
}

/* In the parent: runs even if the test process died. */
FIXTURE_TEARDOWN_PARENT(cg)
{
	undo(&self->c);
}

/*
 * Fork a child pinned to @cpu in cgroup @dir that, once released,
 * burns CHILD_BURN_NS of CPU and exits. *go is the release pipe.
 */
static pid_t start_kid(const char *dir, int cpu, int *go)
{
	pid_t pid;

	pid = fork_waiting_burner(CHILD_BURN_NS, go);
	if (pid < 0)
		return -1;
	if (write_pid(dir, pid) || pin_to_cpu(pid, cpu)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/*
 * Nothing counts while only tasks outside the cgroup run on the CPU;
 * the member's run is counted.
 */
static void count_member(struct __test_metadata *_metadata,
			 struct cgroups *c, __u64 config)
{
	__u64 v[3], w[3];
	int fd, go;

	fd = open_cg(config, c->fd, c->cpu, -1);
	ASSERT_LE(0, fd) TH_LOG("cgroup event: %s", strerror(errno));
	c->kid = start_kid(c->dir, c->cpu, &go);
	ASSERT_LT(0, c->kid);
	/* Let the child reach its read() and block there. */
	usleep(20000);

	/* This task is not in the cgroup. */
	ASSERT_EQ(0, pin_to_cpu(0, c->cpu));
	ASSERT_EQ(0, read_event(fd, v));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, read_event(fd, w));
	EXPECT_EQ(v[0], w[0]) TH_LOG("counted a task outside the cgroup");

	ASSERT_EQ(0, release_child(c->kid, go));
	c->kid = -1;
	ASSERT_EQ(0, read_event(fd, w));
	EXPECT_LE(v[0] + CHILD_BURN_NS / 2, w[0])
		TH_LOG("count %llu", (unsigned long long)w[0]);
	EXPECT_LE(v[2] + CHILD_BURN_NS / 2, w[2]);
	close(fd);
}

TEST_F(cg, task_clock_counts_member)
{
	count_member(_metadata, &self->c, PERF_COUNT_SW_TASK_CLOCK);
}

TEST_F(cg, cpu_clock_counts_member)
{
	count_member(_metadata, &self->c, PERF_COUNT_SW_CPU_CLOCK);
}

/* A task in a cgroup below the monitored one counts. */
TEST_F(cg, descendant_counted)
{
	__u64 v[3];
	int fd, go;

	fd = open_cg(PERF_COUNT_SW_TASK_CLOCK, self->c.fd, self->c.cpu, -1);
	ASSERT_LE(0, fd);
	self->c.kid = start_kid(self->c.sub, self->c.cpu, &go);
	ASSERT_LT(0, self->c.kid);
	ASSERT_EQ(0, release_child(self->c.kid, go));
	self->c.kid = -1;
	ASSERT_EQ(0, read_event(fd, v));
	EXPECT_LE(CHILD_BURN_NS / 2, v[0]);
	close(fd);
}

/* A task in the parent of the monitored cgroup does not. */
TEST_F(cg, ancestor_not_counted)
{
	__u64 v[3];
	int fd, go;

	fd = open_cg(PERF_COUNT_SW_TASK_CLOCK, self->c.subfd, self->c.cpu, -1);
	ASSERT_LE(0, fd);
	self->c.kid = start_kid(self->c.dir, self->c.cpu, &go);
	ASSERT_LT(0, self->c.kid);
	ASSERT_EQ(0, release_child(self->c.kid, go));
	self->c.kid = -1;
	ASSERT_EQ(0, read_event(fd, v));
	EXPECT_EQ(0, v[0]);
	close(fd);
}

/* cgroup mode is CPU-wide only: a CPU is needed, and so is the fd. */
TEST_F(cg, needs_cpu_and_fd_einval)
{
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, self->c.fd, -1, -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, -1, self->c.cpu, -1));
	EXPECT_EQ(EINVAL, errno);
}

/* The pid argument must be an fd of a cgroup directory. */
TEST_F(cg, not_a_cgroup_fd_ebadf)
{
	char path[320];
	int fd;

	fd = open("/", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, fd, self->c.cpu, -1));
	EXPECT_EQ(EBADF, errno);
	close(fd);

	fd = open("/proc/self/status", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, fd, self->c.cpu, -1));
	EXPECT_EQ(EBADF, errno);
	close(fd);

	/* A file in the cgroup, not its directory. */
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->c.dir);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, fd, self->c.cpu, -1));
	EXPECT_EQ(EBADF, errno);
	close(fd);

	/* fd is closed now. */
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, fd, self->c.cpu, -1));
	EXPECT_EQ(EBADF, errno);
}

/* The members of a group monitor one cgroup. */
TEST_F(cg, group_members_share_cgroup)
{
	int lead, fd;

	lead = open_cg(PERF_COUNT_SW_CPU_CLOCK, self->c.fd, self->c.cpu, -1);
	ASSERT_LE(0, lead);
	fd = open_cg(PERF_COUNT_SW_TASK_CLOCK, self->c.fd, self->c.cpu, lead);
	EXPECT_LE(0, fd) TH_LOG("same cgroup: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-1, open_cg(PERF_COUNT_SW_TASK_CLOCK, self->c.subfd,
			      self->c.cpu, lead));
	EXPECT_EQ(EINVAL, errno);
	close(lead);
}

TEST_HARNESS_MAIN
