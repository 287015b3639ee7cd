// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - benchmark 10: arm64 PMUv3: overflow handler cost and
 * multiplexing accuracy (the arm64 guest runs this group alone).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"

#ifdef __aarch64__
static void insn_loop(uint64_t n)
{
	/* exactly 2 instructions per iteration */
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}
#else
static void insn_loop(uint64_t n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}
#endif

static int open_hw_insns(int group, uint64_t period, int pinned)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.pinned = pinned;
	a.sample_period = period;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (period)
		a.sample_type = PERF_SAMPLE_IP;
	return perf_open(&a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* Kernel-only instructions of this task, pinned so it always counts. */
static int open_kernel_insns(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_user = 1;
	a.exclude_hv = 1;
	a.pinned = 1;
	return perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t read_count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		die("read count");
	return v;
}

/* pairs of windows per round; loop iterations (2 instructions) a window */
#define PMU_PAIRS 16
#define PMU_COUNTERS 6		/* event counters of the arm64 guest */
#define PMU_WINDOW (50 * 1000 * 1000)

struct pmu_window {
	uint64_t cost;		/* guest ns, or kernel instructions counted */
	uint64_t samples;	/* samples it wrote */
};

/*
 * One window of the loop: its guest time into @ns, the kernel instructions
 * the pinned counter @kfd saw into @k; samples are filled in later.
 */
static void pmu_window(int kfd, struct pmu_window *ns, struct pmu_window *k)
{
	uint64_t t0;

	ioctl(kfd, PERF_EVENT_IOC_RESET, 0);
	t0 = now_ns();
	insn_loop(PMU_WINDOW);
	ns->cost = now_ns() - t0;
	k->cost = read_count(kfd);
	ns->samples = k->samples = 0;
}

static int cmp_window(const void *a, const void *b)
{
	const struct pmu_window *x = a, *y = b;

	return x->cost < y->cost ? -1 : x->cost > y->cost;
}

/*
 * Cost per sample: the mean of the cleaner half of the sampled windows
 * minus that of the plain ones, over the samples of those sampled
 * windows.  Sorts both arrays.
 */
static double pmu_cleanest(struct pmu_window *sampled,
			   struct pmu_window *plain)
{
	double ks = 0, kp = 0, n = 0;

	qsort(sampled, PMU_PAIRS, sizeof(*sampled), cmp_window);
	qsort(plain, PMU_PAIRS, sizeof(*plain), cmp_window);
	for (int i = 0; i < PMU_PAIRS / 2; i++) {
		ks += sampled[i].cost;
		kp += plain[i].cost;
		n += sampled[i].samples;
	}
	return n ? (ks - kp) / n : 0;
}

/*
 * The cost of one overflow sample with @extra counting events active
 * beside the sampler and the pinned kernel-instruction counter: 0 for the
 * plain rows, PMU_COUNTERS - 2 for the .6counters row, where every event
 * counter of the arm64 guest is busy and the handler has the most to look
 * at.
 */
static void bench_pmu_overflow(int extra)
{
	double cost_ns[REPS], cost_counted[REPS], nsamp[REPS];
	int extra_fd[PMU_COUNTERS];
	int fd;

	for (int rep = 0; rep <= REPS; rep++) {
		struct pmu_window plain[PMU_PAIRS], sampled[PMU_PAIRS];
		struct pmu_window plain_k[PMU_PAIRS], sampled_k[PMU_PAIRS];
		double total = 0;
		struct ring r;
		int kfd;

		kfd = open_kernel_insns();
		if (kfd < 0)
			die("kernel instructions");
		for (int i = 0; i < extra; i++) {
			extra_fd[i] = open_hw_insns(-1, 0, 1);
			if (extra_fd[i] < 0)
				die("counting event %d", i);
		}
		fd = open_hw_insns(-1, 10000, 0);
		if (fd < 0)
			die("sampling instructions");
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ring_map(&r, fd, 512 * 1024);
		insn_loop(PMU_WINDOW);
		for (int i = 0; i < PMU_PAIRS; i++) {
			uint64_t s = 0, l = 0;

			pmu_window(kfd, &plain[i], &plain_k[i]);
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			pmu_window(kfd, &sampled[i], &sampled_k[i]);
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			ring_drain(&r, &s, &l, NULL);
			sampled[i].samples = sampled_k[i].samples = s;
			total += s;
		}
		ring_unmap(&r);
		close(fd);
		close(kfd);
		for (int i = 0; i < extra; i++)
			close(extra_fd[i]);
		if (rep == 0)
			continue;
		cost_ns[rep - 1] = pmu_cleanest(sampled, plain);
		cost_counted[rep - 1] = pmu_cleanest(sampled_k, plain_k);
		nsamp[rep - 1] = total;
	}
	if (extra) {
		report("pmu.overflow.per_sample.6counters", "ns", cost_ns, REPS);
		return;
	}
	report("pmu.overflow.per_sample", "ns", cost_ns, REPS);
	report("pmu.overflow.per_sample.counted", "kernel-insns",
	       cost_counted, REPS);
	report("pmu.overflow.samples", "samples", nsamp, REPS);
}

void bench_pmu(void)
{
	const uint64_t iters = 25 * 1000 * 1000;
	double err_max[REPS], err_mean[REPS];
	uint64_t v[3], truth;
	int fd, fds[12];

	fd = open_hw_insns(-1, 0, 1);
	if (fd < 0) {
		printf("@@BENCH-SKIP pmu no instructions event (errno %d)\n",
		       errno);
		return;
	}
	insn_loop(iters);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	insn_loop(iters);
	if (read(fd, v, sizeof(v)) != sizeof(v))
		die("read instructions");
	truth = v[0];
	close(fd);
	printf("@@BENCH-INFO pmu.truth %llu instructions for %llu iterations\n",
	       (unsigned long long)truth, (unsigned long long)iters);

	/*
	 * The cost of a sample: a window of the loop with a user-only
	 * sampling event enabled minus a window without, divided by the
	 * samples the window wrote.  Under -icount shift=0 guest time is one
	 * nanosecond per instruction, so the windows' CLOCK_MONOTONIC length
	 * counts every instruction the samples add, the driver's and the
	 * core's; a pinned counter of kernel instructions (the .counted row)
	 * sees only what runs while the PMU counts, i.e. IRQ entry and exit,
	 * not the handler, which the PMUv3 driver runs with the PMU stopped.
	 *
	 * QEMU raises the overflow interrupt late and seldom under -icount
	 * (about once a tick), so a window's samples are few and much of its
	 * cost is the ticks' and whatever else runs (kworkers, RCU and timer
	 * softirqs).  That background only ever adds, and lines up
	 * differently with each kernel's timings: two long windows gave 1.208
	 * or 0.981 for the same two kernels depending on two extra syscalls
	 * between them.  So each round runs PMU_PAIRS short pairs of windows,
	 * the sampler switched between them outside the measured part, after
	 * one window that takes the frees of the round before, and compares
	 * the cleaner half of each kind (the cleanest window alone still
	 * moved by +-4%: a tick's own work varies by some hundred
	 * instructions).
	 */
	bench_pmu_overflow(0);
	bench_pmu_overflow(PMU_COUNTERS - 2);

	for (int rep = 0; rep <= REPS; rep++) {
		double emax = 0, esum = 0;

		for (int i = 0; i < 12; i++) {
			fds[i] = open_hw_insns(-1, 0, 0);
			if (fds[i] < 0)
				die("mux event %d", i);
		}
		for (int i = 0; i < 12; i++)
			ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
		insn_loop(iters);
		for (int i = 0; i < 12; i++) {
			double scaled, e;

			ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
			if (read(fds[i], v, sizeof(v)) != sizeof(v))
				die("read mux");
			scaled = v[2] ? (double)v[0] * v[1] / v[2] : 0;
			e = scaled > truth ? scaled - truth : truth - scaled;
			e = e * 1e6 / truth;
			emax = e > emax ? e : emax;
			esum += e;
			close(fds[i]);
		}
		if (rep == 0)
			continue;
		err_max[rep - 1] = emax;
		err_mean[rep - 1] = esum / 12;
	}
	report("pmu.mux12.max_error", "ppm", err_max, REPS);
	report("pmu.mux12.mean_error", "ppm", err_mean, REPS);
}
