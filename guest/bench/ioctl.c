// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - benchmark 7: ioctl(ENABLE) + ioctl(DISABLE) of one event and
 * prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE) with 16 events open.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "bench.h"

static double b_ioctl(void *arg)
{
	int fd = *(int *)arg;
	long n = 2000;
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	return (double)(now_ns() - t0) / n;
}

static double b_prctl(void *arg)
{
	long n = 500;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	}
	return (double)(now_ns() - t0) / n;
}

void bench_ioctl(void)
{
	int fd, fds[16];

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0);
	measure("ioctl.enable_disable", b_ioctl, &fd);
	close(fd);
	open_many(fds, 16, 0, -1, 0);
	measure("prctl.enable_disable.16", b_prctl, NULL);
	close_many(fds, 16);
}
