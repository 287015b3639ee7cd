// SPDX-License-Identifier: GPL-2.0
/*
 * sideband.c - benchmark 6: side-band: the MMAP2 and COMM records of a
 * dummy event, over mmap + munmap and fork + exec.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* cpu < 0: on this task; otherwise every task on that CPU. */
static int open_dummy(int cpu)
{
	struct perf_event_attr a;
	int fd;

	sw_attr(&a, PERF_COUNT_SW_DUMMY);
	a.mmap = 1;
	a.mmap2 = 1;
	a.comm = 1;
	a.task = 1;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	fd = perf_open(&a, cpu < 0 ? 0 : -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("dummy event");
	return fd;
}

static double b_mmap(void *arg)
{
	struct ring *r = arg;
	long n = 2000;
	int fd = open(self_path, O_RDONLY);
	uint64_t s = 0, l = 0, o = 0, t0;

	if (fd < 0)
		die("open self");
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		void *m = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			       fd, 0);

		if (m == MAP_FAILED)
			die("mmap exec");
		munmap(m, 8192);
	}
	t0 = now_ns() - t0;
	close(fd);
	if (r) {
		ring_drain(r, &s, &l, &o);
		if (o < (uint64_t)n)
			die("only %llu side-band records", (unsigned long long)o);
	}
	return (double)t0 / n;
}

static double b_exec(void *arg)
{
	struct ring *r = arg;
	long n = 100;
	uint64_t s = 0, l = 0, o = 0, t0 = now_ns();

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char *argv[] = { "tiny", NULL };

			execve(tiny_path, argv, environ);
			_exit(127);
		}
		if (pid < 0)
			die("fork");
		waitpid(pid, NULL, 0);
	}
	t0 = now_ns() - t0;
	if (r) {
		ring_drain(r, &s, &l, &o);
		if (o < (uint64_t)n)
			die("only %llu exec records", (unsigned long long)o);
	}
	return (double)t0 / n;
}

void bench_sideband(void)
{
	double base[REPS], with[REPS];
	struct ring r;
	int fd;

	measure("sideband.mmap_munmap.limit.no_event", b_mmap, NULL);
	fd = open_dummy(-1);
	ring_map(&r, fd, 512 * 1024);
	measure("sideband.mmap_munmap", b_mmap, &r);
	ring_unmap(&r);
	close(fd);

	/*
	 * An exec costs ~0.5 ms and its records ~2% of that, less than
	 * an exec's cost drifts within a boot: the repetitions without and
	 * with the event alternate, so that a drift moves both alike.  The
	 * event is CPU-wide, as `perf record -a` has: an inherited per-task
	 * event cannot be mapped on mainline.
	 */
	b_exec(NULL);
	for (int i = 0; i < REPS; i++) {
		base[i] = b_exec(NULL);
		fd = open_dummy(0);
		ring_map(&r, fd, 512 * 1024);
		if (!i)
			b_exec(&r);
		with[i] = b_exec(&r);
		ring_unmap(&r);
		close(fd);
	}
	report("sideband.exec.limit.no_event", "ns", base, REPS);
	report("sideband.exec", "ns", with, REPS);
}
