// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): attr.inherit / attr.inherit_thread, and
 * prctl(PR_TASK_PERF_EVENTS_DISABLE / PR_TASK_PERF_EVENTS_ENABLE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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

/* An inherited user-only counter of @config in the group of @group_fd. */
static int open_inherited_member(__u64 config, int group_fd)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.exclude_kernel = 1;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

static int stay_put(long long unused)
{
	return 0;
}

/*
 * A group read after a member has closed, while a child holds copies of
 * the group: the copies were made from the group as it is then (leader
 * and one sibling), so they agree with it and the read sums them in.
 * It gives the two members left, not an error.  The child blocks on a
 * pipe, so that its copies exist during the read.
 */
TEST(inherited_group_read_after_member_closed)
{
	__u64 buf[1 + 2 * 3], lid, sid;
	int leader, s1, s2, go;
	pid_t child;

	leader = open_inherited_member(PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(leader, 0) TH_LOG("inherit + GROUP: %s", strerror(errno));
	s1 = open_inherited_member(PERF_COUNT_SW_PAGE_FAULTS, leader);
	ASSERT_GE(s1, 0) TH_LOG("page-faults sibling: %s", strerror(errno));
	s2 = open_inherited_member(PERF_COUNT_SW_CONTEXT_SWITCHES, leader);
	ASSERT_GE(s2, 0) TH_LOG("context-switches sibling: %s",
				strerror(errno));
	lid = event_id(leader);
	sid = event_id(s1);
	close(s2);

	/* the child waits with its copies until released */
	child = fork_waiting_work(stay_put, 0, &go);
	ASSERT_GE(child, 0);

	/* nr, then {value, id} of the leader and of the sibling left */
	memset(buf, 0xff, sizeof(buf));
	EXPECT_EQ(8 + 2 * 16, read(leader, buf, sizeof(buf)))
		TH_LOG("group read with a child alive: %s", strerror(errno));
	EXPECT_EQ(2, buf[0]);
	EXPECT_EQ(lid, buf[2]);
	EXPECT_EQ(sid, buf[4]);

	EXPECT_EQ(0, release_child(child, go));
	close(s1);
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

/* ---------------------------------------------------------------------
 * Descendants made while an inherited event is disabled: each still has
 * a copy of the event, which counts from the moment the event is enabled
 * (by ioctl, prctl or the descendant's exec with enable_on_exec), and
 * nothing before that.
 */

static int open_disabled_faults(int enable_on_exec)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.disabled = 1;
	attr.enable_on_exec = enable_on_exec;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static int fault_work(long long pages)
{
	return touch_pages(pages);
}

TEST(enable_after_fork_counts_child)
{
	pid_t child;
	int fd, go;

	fd = open_disabled_faults(0);
	ASSERT_GE(fd, 0);
	child = fork_waiting_work(fault_work, NR_PAGES, &go);
	ASSERT_GE(child, 0);
	ASSERT_EQ(0, enable(fd));
	ASSERT_EQ(0, release_child(child, go));
	EXPECT_GE(read_value(fd), NR_PAGES);
	close(fd);
}

/*
 * Fork a child that runs @child_fn(@ready, @go) and must _exit(0): it
 * writes a byte to @ready when it has done its part before the enable,
 * then waits for a byte on @go.  The parent enables @fd in between, and
 * returns @fd's count once the child has exited 0, else ~0ULL.
 */
static __u64 count_after_handshake(int fd, void (*child_fn)(int ready, int go))
{
	int ready[2], go[2], ok = 0;
	__u64 count = ~0ULL;
	pid_t child;
	char c = 0;

	if (pipe(ready))
		return count;
	if (pipe(go))
		goto out_ready;
	child = fork();
	if (child == 0) {
		close(ready[0]);
		close(go[1]);
		child_fn(ready[1], go[0]);
		_exit(1);
	}
	if (child > 0 && read(ready[0], &c, 1) == 1 && !enable(fd) &&
	    write(go[1], &c, 1) == 1)
		ok = 1;
	/* a child still waiting on @go reads end of file and gives up */
	close(go[1]);
	close(go[0]);
	if (child > 0 && !reap_child(child) && ok)
		count = read_value(fd);
out_ready:
	close(ready[0]);
	close(ready[1]);
	return count;
}

static void faults_then_wait(int ready, int go)
{
	char c = 0;

	if (touch_pages(NR_PAGES) || write(ready, &c, 1) != 1 ||
	    read(go, &c, 1) != 1)
		_exit(1);
	_exit(0);
}

/* What the child does before the enable is not counted. */
TEST(disabled_copy_counts_nothing_before_enable)
{
	__u64 count;
	int fd;

	fd = open_disabled_faults(0);
	ASSERT_GE(fd, 0);
	count = count_after_handshake(fd, faults_then_wait);
	ASSERT_NE(~0ULL, count);
	EXPECT_LT(count, NR_PAGES);
	close(fd);
}

static void fork_then_grandchild_faults(int ready, int go)
{
	pid_t grandchild = fork();
	char c = 0;

	if (grandchild == 0) {
		if (read(go, &c, 1) != 1)
			_exit(1);
		_exit(touch_pages(NR_PAGES) ? 1 : 0);
	}
	if (grandchild < 0 || write(ready, &c, 1) != 1)
		_exit(1);
	_exit(reap_child(grandchild) ? 1 : 0);
}

/* A grandchild forked by a child while the event was off counts too. */
TEST(enable_after_fork_counts_grandchild)
{
	__u64 count;
	int fd;

	fd = open_disabled_faults(0);
	ASSERT_GE(fd, 0);
	count = count_after_handshake(fd, fork_then_grandchild_faults);
	ASSERT_NE(~0ULL, count);
	EXPECT_GE(count, NR_PAGES);
	close(fd);
}

struct window_thread {
	pthread_barrier_t *step;
	pthread_t thread;
};

/* Fault NR_PAGES between the first two steps and again between the last two. */
static void *window_fn(void *arg)
{
	struct window_thread *t = arg;
	int i;

	for (i = 0; i < 2; i++) {
		pthread_barrier_wait(t->step);
		touch_pages(NR_PAGES);
		pthread_barrier_wait(t->step);
	}
	return NULL;
}

/*
 * Threads made while the event was off count while it is on and stop
 * again when it is disabled.
 */
TEST(threads_made_while_disabled_follow_enable)
{
	struct window_thread t[4];
	pthread_barrier_t step;
	__u64 v;
	int fd, i;

	fd = open_disabled_faults(0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pthread_barrier_init(&step, NULL, 5));
	for (i = 0; i < 4; i++) {
		t[i].step = &step;
		ASSERT_EQ(0, pthread_create(&t[i].thread, NULL, window_fn,
					    &t[i]));
	}
	ASSERT_EQ(0, enable(fd));
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ASSERT_EQ(0, disable(fd));
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_join(t[i].thread, NULL));
	v = read_value(fd);
	TH_LOG("%llu faults counted", (unsigned long long)v);
	EXPECT_GE(v, 4 * NR_PAGES);
	EXPECT_LT(v, 6 * NR_PAGES);
	pthread_barrier_destroy(&step);
	close(fd);
}

/* prctl(PR_TASK_PERF_EVENTS_ENABLE) reaches the copies as ioctl does. */
TEST(prctl_enable_counts_thread_made_while_disabled)
{
	struct window_thread t;
	pthread_barrier_t step;
	int fd;

	fd = open_disabled_faults(0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pthread_barrier_init(&step, NULL, 2));
	t.step = &step;
	ASSERT_EQ(0, pthread_create(&t.thread, NULL, window_fn, &t));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ASSERT_EQ(0, pthread_join(t.thread, NULL));
	EXPECT_GE(read_value(fd), NR_PAGES);
	EXPECT_LT(read_value(fd), 2 * NR_PAGES);
	pthread_barrier_destroy(&step);
	close(fd);
}

#define EXEC_FAULTS_ENV	"PERF_INHERIT_EXEC_FAULTS"

/* The program exec()ed by enable_on_exec_enables_child_copy: fault, exit. */
static void __attribute__((constructor)) exec_faults_child(void)
{
	if (getenv(EXEC_FAULTS_ENV))
		_exit(touch_pages(NR_PAGES) ? 1 : 0);
}

/*
 * enable_on_exec on an inherited event: a child's exec enables the
 * child's copy, and the parent's event stays off.
 */
TEST(enable_on_exec_enables_child_copy)
{
	static char *const argv[] = { "inherit", NULL };
	static char *const envp[] = { EXEC_FAULTS_ENV "=1", NULL };
	pid_t child;
	int fd;

	fd = open_disabled_faults(1);
	ASSERT_GE(fd, 0);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		execve("/proc/self/exe", argv, envp);
		_exit(2);
	}
	ASSERT_EQ(0, reap_child(child));
	touch_pages(NR_PAGES);
	EXPECT_GE(read_value(fd), NR_PAGES);
	EXPECT_LT(read_value(fd), 2 * NR_PAGES);
	close(fd);
}

TEST_HARNESS_MAIN
