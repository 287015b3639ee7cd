// SPDX-License-Identifier: GPL-2.0
/*
 * all_cpus.c - benchmark 4b: one counter on every CPU.
 * PERF_FLAG_ALL_CPUS gives one fd (this core); where the flag is refused
 * (mainline) the same rows open one event per online CPU, as perf stat -a
 * does.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"

#ifndef PERF_FLAG_ALL_CPUS
#define PERF_FLAG_ALL_CPUS	(1UL << 4)
#endif

struct all_cpus {
	int fds[64];
	int n;			/* fds in use: 1 with the flag */
	int flag;		/* PERF_FLAG_ALL_CPUS works */
};

static void all_cpus_open(struct all_cpus *ac)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (ac->flag) {
		ac->fds[0] = perf_open(&a, -1, -1, -1, PERF_FLAG_ALL_CPUS);
		ac->n = 1;
		if (ac->fds[0] < 0)
			die("PERF_FLAG_ALL_CPUS");
		return;
	}
	ac->n = online < 64 ? (int)online : 64;
	for (int c = 0; c < ac->n; c++) {
		ac->fds[c] = perf_open(&a, -1, c, -1, 0);
		if (ac->fds[c] < 0)
			die("cpu-wide event on CPU %d", c);
	}
}

static double b_all_cpus_open_close(void *arg)
{
	struct all_cpus *ac = arg;
	long n = 300;
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++) {
		all_cpus_open(ac);
		close_many(ac->fds, ac->n);
	}
	return (double)(now_ns() - t0) / n;
}

static double b_all_cpus_enable_disable(void *arg)
{
	struct all_cpus *ac = arg;
	long n = 500;
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++) {
		for (int c = 0; c < ac->n; c++)
			ioctl(ac->fds[c], PERF_EVENT_IOC_ENABLE, 0);
		for (int c = 0; c < ac->n; c++)
			ioctl(ac->fds[c], PERF_EVENT_IOC_DISABLE, 0);
	}
	return (double)(now_ns() - t0) / n;
}

/* the sum over all CPUs */
static double b_all_cpus_read(void *arg)
{
	struct all_cpus *ac = arg;
	long n = 1000;
	uint64_t v, sum = 0, t0 = now_ns();

	for (long i = 0; i < n; i++) {
		for (int c = 0; c < ac->n; c++) {
			if (read(ac->fds[c], &v, sizeof(v)) != sizeof(v))
				die("read");
			sum += v;
		}
	}
	(void)sum;
	return (double)(now_ns() - t0) / n;
}

void bench_all_cpus(void)
{
	struct all_cpus ac = { .flag = 1 };
	struct perf_event_attr a;
	int fd;

	sw_attr(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	fd = perf_open(&a, -1, -1, -1, PERF_FLAG_ALL_CPUS);
	if (fd < 0)
		ac.flag = 0;
	else
		close(fd);
	printf("@@BENCH-INFO allcpu: %s\n", ac.flag ? "PERF_FLAG_ALL_CPUS" :
	       "one event per online CPU");
	measure("allcpu.open_close", b_all_cpus_open_close, &ac);
	all_cpus_open(&ac);
	measure("allcpu.enable_disable", b_all_cpus_enable_disable, &ac);
	measure("allcpu.read", b_all_cpus_read, &ac);
	close_many(ac.fds, ac.n);
}
