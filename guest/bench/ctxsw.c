// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsw.c - benchmark 3: context switch: two tasks on CPU 0 ping-pong a
 * byte over pipes, with 0-64 events on each task or 64 on the CPU.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* Per switch; scale.c runs it too, with events open beside it. */
double b_ctxsw(void *arg)
{
	struct ctxsw *c = arg;
	int p1[2], p2[2], *fds = fd_pool, cfds[64];
	char b = 0;
	uint64_t t0, t;
	pid_t pid;

	if (pipe(p1) || pipe(p2))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		open_many(cfds, c->task_events, 0, -1, 0);
		if (write(p2[1], &b, 1) != 1)
			_exit(1);
		for (long i = 0; i < c->rounds; i++) {
			if (read(p1[0], &b, 1) != 1 || write(p2[1], &b, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	open_many(fds, c->task_events, 0, -1, 0);
	if (read(p2[0], &b, 1) != 1)
		die("ctxsw sync");
	t0 = now_ns();
	for (long i = 0; i < c->rounds; i++) {
		if (write(p1[1], &b, 1) != 1 || read(p2[0], &b, 1) != 1)
			die("ctxsw");
	}
	t = now_ns() - t0;
	waitpid(pid, NULL, 0);
	close_many(fds, c->task_events);
	close(p1[0]); close(p1[1]); close(p2[0]); close(p2[1]);
	return (double)t / (2 * c->rounds);
}

void bench_ctxsw(void)
{
	static const int counts[] = { 0, 1, 8, 64 };
	struct ctxsw c = { .rounds = 2000 };
	char key[64];
	int cpu_fds[64];

	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		c.task_events = counts[i];
		snprintf(key, sizeof(key), "ctxsw.task_events.%d", counts[i]);
		measure(key, b_ctxsw, &c);
	}
	c.task_events = 0;
	open_many(cpu_fds, 64, -1, 0, 0);
	measure("ctxsw.cpu_events.64", b_ctxsw, &c);
	close_many(cpu_fds, 64);
}
