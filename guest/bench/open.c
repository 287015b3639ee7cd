// SPDX-License-Identifier: GPL-2.0
/*
 * open.c - benchmark 1: perf_event_open() + close() of one software
 * event, and of a group of eight.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "bench.h"

static double b_open_close(void *arg)
{
	long n = 2000;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		close(open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1, -1, 0));
	return (double)(now_ns() - t0) / n;
}

static double b_open_close_group8(void *arg)
{
	long n = 300;
	int fds[8];
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		fds[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0);
		for (int j = 1; j < 8; j++)
			fds[j] = open_sw(sw_mix[j % 4], 0, -1, fds[0], 0);
		for (int j = 7; j >= 0; j--)
			close(fds[j]);
	}
	return (double)(now_ns() - t0) / n;
}

void bench_open(void)
{
	measure("open_close.single", b_open_close, NULL);
	measure("open_close.group8", b_open_close_group8, NULL);
}
