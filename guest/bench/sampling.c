// SPDX-License-Identifier: GPL-2.0
/*
 * sampling.c - benchmark 5: sampling: page faults at period 1 into a
 * 512 KiB buffer, and the sampler and rows that 5b (process_buffer.c)
 * shares.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

struct sampling {
	struct ring ring;
	volatile int done;
	uint64_t samples, lost;
};

static void *sample_reader(void *arg)
{
	struct sampling *s = arg;
	struct pollfd pfd = { .fd = s->ring.fd, .events = POLLIN };

	while (!s->done) {
		poll(&pfd, 1, 10);
		ring_drain(&s->ring, &s->samples, &s->lost, NULL);
	}
	ring_drain(&s->ring, &s->samples, &s->lost, NULL);
	return NULL;
}

static double touch_pages(void)
{
	size_t pgsz = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, FAULT_PAGES * pgsz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t t0, t;

	if (m == MAP_FAILED)
		die("mmap anon");
	t0 = now_ns();
	for (size_t i = 0; i < FAULT_PAGES; i++)
		m[i * pgsz] = 1;
	t = now_ns() - t0;
	munmap(m, FAULT_PAGES * pgsz);
	return (double)t;
}

/* A sampler of this task's page faults at period 1, woken per 128 KiB. */
void fault_sampler_attr(struct perf_event_attr *a)
{
	sw_attr(a, PERF_COUNT_SW_PAGE_FAULTS);
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR;
	a->disabled = 1;
	a->watermark = 1;
	a->wakeup_watermark = 128 * 1024;
}

/* Run @i took @t ns for FAULT_PAGES faults; run 0 warms up, not kept. */
void sample_rows_add(struct sample_rows *r, int i, double t,
		     uint64_t samples, uint64_t lost)
{
	if (i == 0)
		return;
	if (!samples)
		die("no samples");
	r->per_fault[i - 1] = t / FAULT_PAGES;
	r->rate[i - 1] = samples * 1e9 / t;
	r->lost[i - 1] = lost;
}

void sample_rows_report(struct sample_rows *r, const char *name)
{
	char row[64];

	snprintf(row, sizeof(row), "sample.%s.per_fault", name);
	report(row, "ns", r->per_fault, REPS);
	snprintf(row, sizeof(row), "sample.%s.records_per_s", name);
	report(row, "rec/s", r->rate, REPS);
	snprintf(row, sizeof(row), "sample.%s.lost", name);
	report(row, "records", r->lost, REPS);
}

void bench_sampling(void)
{
	struct sample_rows rows;
	double base[REPS];

	touch_pages();
	for (int i = 0; i < REPS; i++)
		base[i] = touch_pages() / FAULT_PAGES;
	for (int i = 0; i < REPS + 1; i++) {
		struct sampling s = { 0 };
		struct perf_event_attr a;
		pthread_t th;
		double t;
		int fd;

		fault_sampler_attr(&a);
		fd = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			die("sampling event");
		ring_map(&s.ring, fd, 512 * 1024);
		if (pthread_create(&th, NULL, sample_reader, &s))
			die("pthread_create");
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		t = touch_pages();
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		s.done = 1;
		pthread_join(th, NULL);
		ring_unmap(&s.ring);
		close(fd);
		sample_rows_add(&rows, i, t, s.samples, s.lost);
	}
	report("sample.pagefault.limit.no_event", "ns", base, REPS);
	sample_rows_report(&rows, "pagefault");
}
