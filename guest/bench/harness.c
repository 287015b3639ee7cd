// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - what every benchmark group uses: die() for a group that
 * fails, opening software events, and measure()/report(), which print the
 * @@BENCH lines (the median and spread of REPS runs).  It measures nothing
 * itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/*
 * A benchmark group that fails (a kernel without the feature it measures)
 * is reported and skipped; the next group still runs.  Only the process
 * that runs the groups jumps back; a forked helper just exits.
 */
jmp_buf group_failed;
pid_t group_runner;

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("@@BENCH-ERROR ");
	vprintf(fmt, ap);
	printf(" (errno %d: %s)\n", errno, strerror(errno));
	va_end(ap);
	fflush(stdout);
	if (group_runner && getpid() == group_runner)
		longjmp(group_failed, 1);
	exit(1);
}

/* fds for the events of the groups that open many (ctxsw, scale, memory) */
int fd_pool[MAXFD];

int open_sw(uint64_t config, pid_t pid, int cpu, int group, int inherit)
{
	struct perf_event_attr a;
	int fd;

	sw_attr(&a, config);
	a.inherit = inherit;
	fd = perf_open(&a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open(sw %llu, pid %d, cpu %d)",
		    (unsigned long long)config, pid, cpu);
	return fd;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void report(const char *key, const char *unit, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("@@BENCH %s %.1f %.1f %.1f %s\n", key, v[n / 2], v[0], v[n - 1],
	       unit);
	fflush(stdout);
}

/* Run fn REPS+1 times (the first is a warm-up) and report ns per op. */
void measure(const char *key, double (*fn)(void *), void *arg)
{
	double v[REPS];

	fn(arg);
	for (int i = 0; i < REPS; i++)
		v[i] = fn(arg);
	report(key, "ns", v, REPS);
}
