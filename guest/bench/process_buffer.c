// SPDX-License-Identifier: GPL-2.0
/*
 * process_buffer.c - benchmark 5b: one buffer for a whole process:
 * PROC_THREADS threads take FAULT_PAGES page faults between them, sampled
 * at period 1 by one inherited event of the process.  Where the kernel
 * maps no inherited per-task event (mainline), by what a profiler does
 * instead there: one inherited event and buffer per CPU.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

#define PROC_THREADS 4
#define PROC_RINGS 64

struct proc_sampling {
	struct ring ring[PROC_RINGS];
	int n;
	volatile int done;
	uint64_t samples, lost;
};

static void *proc_reader(void *arg)
{
	struct proc_sampling *s = arg;

	while (!s->done) {
		usleep(1000);
		for (int i = 0; i < s->n; i++)
			ring_drain(&s->ring[i], &s->samples, &s->lost, NULL);
	}
	for (int i = 0; i < s->n; i++)
		ring_drain(&s->ring[i], &s->samples, &s->lost, NULL);
	return NULL;
}

static void *proc_toucher(void *arg)
{
	size_t pgsz = sysconf(_SC_PAGESIZE), n = FAULT_PAGES / PROC_THREADS;
	char *m = mmap(NULL, n * pgsz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("mmap anon");
	pthread_barrier_wait(arg);
	for (size_t i = 0; i < n; i++)
		m[i * pgsz] = 1;
	munmap(m, n * pgsz);
	return NULL;
}

/* The process's sampling buffers: one if the kernel maps it, else per CPU. */
static void proc_open(struct proc_sampling *s)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr a;
	int fd;

	fault_sampler_attr(&a);
	a.inherit = 1;
	fd = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("inherited sampling event");
	s->ring[0].base = mmap(NULL, sysconf(_SC_PAGESIZE) + 512 * 1024,
			       PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->ring[0].base != MAP_FAILED) {
		munmap(s->ring[0].base, sysconf(_SC_PAGESIZE) + 512 * 1024);
		ring_map(&s->ring[0], fd, 512 * 1024);
		s->n = 1;
		return;
	}
	close(fd);
	for (int c = 0; c < ncpus && c < PROC_RINGS; c++) {
		fd = perf_open(&a, 0, c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			die("per-CPU inherited sampling event");
		ring_map(&s->ring[c], fd, 512 * 1024);
		s->n = c + 1;
	}
}

void bench_process_buffer(void)
{
	struct sample_rows rows;

	for (int i = 0; i < REPS + 1; i++) {
		struct proc_sampling s = { 0 };
		pthread_t reader, th[PROC_THREADS];
		pthread_barrier_t go;
		uint64_t t0;
		double t;

		proc_open(&s);
		if (pthread_barrier_init(&go, NULL, PROC_THREADS + 1))
			die("pthread_barrier_init");
		for (int k = 0; k < PROC_THREADS; k++)
			if (pthread_create(&th[k], NULL, proc_toucher, &go))
				die("pthread_create");
		if (pthread_create(&reader, NULL, proc_reader, &s))
			die("pthread_create");
		for (int k = 0; k < s.n; k++)
			ioctl(s.ring[k].fd, PERF_EVENT_IOC_ENABLE, 0);
		pthread_barrier_wait(&go);
		t0 = now_ns();
		for (int k = 0; k < PROC_THREADS; k++)
			pthread_join(th[k], NULL);
		t = now_ns() - t0;
		for (int k = 0; k < s.n; k++)
			ioctl(s.ring[k].fd, PERF_EVENT_IOC_DISABLE, 0);
		s.done = 1;
		pthread_join(reader, NULL);
		pthread_barrier_destroy(&go);
		for (int k = 0; k < s.n; k++) {
			ring_unmap(&s.ring[k]);
			close(s.ring[k].fd);
		}
		sample_rows_add(&rows, i, t, s.samples, s.lost);
	}
	sample_rows_report(&rows, "process");
}
