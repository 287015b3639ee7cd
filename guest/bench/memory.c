// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - benchmark 9: kernel memory per event and per task context,
 * from /proc/meminfo.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static long meminfo_kb(const char *field)
{
	char line[256];
	long v = -1;
	size_t len = strlen(field);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			v = atol(line + len + 1);
	fclose(f);
	return v;
}

static long kmem_kb(void)
{
	long pcpu = meminfo_kb("Percpu");

	return meminfo_kb("Slab") + (pcpu > 0 ? pcpu : 0);
}

/*
 * Each repetition opens new events (and events on tasks that have none)
 * while those of the earlier ones stay open, so that it measures fresh
 * objects: freed ones would come back from the slabs' free lists without
 * growing them, and a repetition after a close would measure less than
 * the first.  The tasks are forked first, before the bench has thousands
 * of fds for each child to copy; there are enough of them that the slab
 * pages a context's objects fill stay a small part of the total.
 */
void bench_memory(void)
{
	int n = 4000, tasks = 1000, p[2];
	int *ev_fds = fd_pool, *ctx_fds = fd_pool + REPS * n;
	double ev[REPS], ctx[REPS];
	pid_t *kids = malloc(REPS * tasks * sizeof(*kids));
	char b = 0;

	if (REPS * (n + tasks) > MAXFD || !kids)
		die("memory: %d fds", REPS * (n + tasks));
	if (pipe(p))
		die("pipe");
	for (int i = 0; i < REPS * tasks; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("memory: fork");
		if (kids[i] == 0) {
			close(p[1]);
			if (read(p[0], &b, 1) < 0)
				_exit(1);
			_exit(0);
		}
	}
	for (int rep = 0; rep < REPS; rep++) {
		pid_t *k = kids + rep * tasks;
		long before, after, per_event;

		sync();
		before = kmem_kb();
		open_many(ev_fds + rep * n, n, 0, -1, 0);
		after = kmem_kb();
		per_event = (after - before) * 1024 / n;
		ev[rep] = per_event;

		before = kmem_kb();
		for (int i = 0; i < tasks; i++)
			ctx_fds[rep * tasks + i] =
				open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, k[i],
					-1, -1, 0);
		after = kmem_kb();
		ctx[rep] = (double)(after - before) * 1024 / tasks - per_event;
	}
	close_many(ev_fds, REPS * n);
	close_many(ctx_fds, REPS * tasks);
	close(p[0]);
	close(p[1]);	/* every child's read() returns 0 */
	for (int i = 0; i < REPS * tasks; i++)
		waitpid(kids[i], NULL, 0);
	report("memory.per_event", "bytes", ev, REPS);
	report("memory.per_task_context", "bytes", ctx, REPS);
	free(kids);
}
