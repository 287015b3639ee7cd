/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the files of the benchmark guest share: the harness
 * (the clock and the event helpers here; die(), open_sw(), measure() and
 * report() in harness.c), the ring buffer helpers (ring.c), the
 * context-switch loop (ctxsw.c, also run by scale.c), the page-fault
 * sampler of the two sampling groups (sampling.c), and the groups that
 * main.c runs.
 */
#ifndef BENCH_H
#define BENCH_H

#include <linux/perf_event.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define REPS 3
#define MAXFD 20100

/* main.c: the file b_mmap() maps and the program b_exec() runs */
extern const char *self_path;
extern const char *tiny_path;

/* guest ns: one per guest instruction under -icount shift=0 */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * harness.c, and the helpers that the groups' timed loops inline (as
 * they did when the bench was one file): static inline here.
 */

extern jmp_buf group_failed;
extern pid_t group_runner;

void die(const char *fmt, ...) __attribute__((noreturn));

static inline int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static inline void sw_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
}

/* Software counters to mix when a benchmark asks for many events. */
static const uint64_t sw_mix[] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
};

extern int fd_pool[MAXFD];

int open_sw(uint64_t config, pid_t pid, int cpu, int group, int inherit);

static inline void open_many(int *fds, int n, pid_t pid, int cpu, int inherit)
{
	for (int i = 0; i < n; i++)
		fds[i] = open_sw(sw_mix[i % 4], pid, cpu, -1, inherit);
}

static inline void close_many(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

void report(const char *key, const char *unit, double *v, int n);
void measure(const char *key, double (*fn)(void *), void *arg);

/* ring.c: a sampling event's ring buffer */

struct ring {
	int fd;
	void *base;
	size_t data_size;
	struct perf_event_mmap_page *pg;
};

void ring_map(struct ring *r, int fd, size_t data_size);
void ring_unmap(struct ring *r);
void ring_drain(struct ring *r, uint64_t *samples, uint64_t *lost,
		uint64_t *other);

/* ctxsw.c */

struct ctxsw {
	int task_events;	/* events each task opens on itself */
	long rounds;
};

double b_ctxsw(void *arg);

/* sampling.c: page faults sampled at period 1 */

#define FAULT_PAGES 8192

/* The rows of a sampling benchmark: per fault, records a second, lost. */
struct sample_rows {
	double per_fault[REPS], rate[REPS], lost[REPS];
};

void fault_sampler_attr(struct perf_event_attr *a);
void sample_rows_add(struct sample_rows *r, int i, double t,
		     uint64_t samples, uint64_t lost);
void sample_rows_report(struct sample_rows *r, const char *name);

/* The groups, in the order main() runs them. */
void bench_open(void);			/* open.c */
void bench_read(void);			/* read.c */
void bench_ctxsw(void);			/* ctxsw.c */
void bench_fork(void);			/* fork.c */
void bench_all_cpus(void);		/* all_cpus.c */
void bench_sampling(void);		/* sampling.c */
void bench_process_buffer(void);	/* process_buffer.c */
void bench_sideband(void);		/* sideband.c */
void bench_ioctl(void);			/* ioctl.c */
void bench_scale(void);			/* scale.c */
void bench_memory(void);		/* memory.c */
void bench_pmu(void);			/* pmu.c */

#endif /* BENCH_H */
