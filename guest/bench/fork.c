// SPDX-License-Identifier: GPL-2.0
/*
 * fork.c - benchmark 4: fork + exit + wait and thread spawn + join, with
 * inherited events (enabled or disabled) and with plain fds.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static double b_fork(void *arg)
{
	long n = 200;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0)
			die("fork");
		waitpid(pid, NULL, 0);
	}
	return (double)(now_ns() - t0) / n;
}

/* @n disabled inherited task-clock events on this task */
static void open_disabled_inherited(int *fds, int n)
{
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.inherit = 1;
	a.disabled = 1;
	for (int i = 0; i < n; i++) {
		fds[i] = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0)
			die("disabled inherited event %d", i);
	}
}

static void *thread_exit_at_once(void *arg)
{
	return arg;
}

/* pthread_create + join: a clone that shares the fd table */
static double b_thread(void *arg)
{
	long n = 200;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, thread_exit_at_once, NULL))
			die("pthread_create");
		pthread_join(t, NULL);
	}
	return (double)(now_ns() - t0) / n;
}

void bench_fork(void)
{
	int fds[8], dis[64];

	measure("fork.inherited.0", b_fork, NULL);
	open_many(fds, 8, 0, -1, 1);
	measure("fork.inherited.8", b_fork, NULL);
	close_many(fds, 8);

	/* inherited but disabled: what a paused profiler costs a fork */
	open_disabled_inherited(dis, 8);
	measure("fork.inherited.8.disabled", b_fork, NULL);
	close_many(dis, 8);
	open_disabled_inherited(dis, 64);
	measure("fork.inherited.64.disabled", b_fork, NULL);
	close_many(dis, 64);
	/*
	 * A fork copies the fd table and the child's exit closes it: the
	 * bound of the row above is a fork with 64 fds that are not events.
	 */
	for (int i = 0; i < 64; i++) {
		dis[i] = eventfd(0, EFD_CLOEXEC);
		if (dis[i] < 0)
			die("eventfd");
	}
	measure("fork.inherited.0.fds64", b_fork, NULL);
	close_many(dis, 64);

	/*
	 * The same for thread spawn, which copies no fds.  Spawns get a few
	 * per cent slower down this section with nothing open at all, so
	 * the row with no events comes last: the rows it is the bound of
	 * are then not measured on a quieter machine than it.
	 */
	open_disabled_inherited(dis, 8);
	measure("fork.thread.inherited.8.disabled", b_thread, NULL);
	close_many(dis, 8);
	open_disabled_inherited(dis, 64);
	measure("fork.thread.inherited.64.disabled", b_thread, NULL);
	close_many(dis, 64);
	measure("fork.thread.inherited.0", b_thread, NULL);
}
