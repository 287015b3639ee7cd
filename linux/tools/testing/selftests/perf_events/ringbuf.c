// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the mmap()ed ring buffer.  Which mapping sizes are
 * accepted, the control page, data_head and data_tail, what a full buffer
 * does in the normal, overwrite and backward modes, PAUSE_OUTPUT,
 * SET_OUTPUT and PERF_FLAG_FD_OUTPUT, poll() and SIGIO wakeups, and
 * unmapping and closing in either order.
 *
 * The samples come from the page-faults software event with a period of
 * one: every fault of this task is one sample, taken synchronously, so the
 * number of records is known exactly (see fault_n()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

/* Header, IP, PID/TID: the size of one PERF_SAMPLE_IP | TID sample. */
#define SMALL_SAMPLE	(8 + 8 + 8)
#define SMALL_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID)
#define NO_OUTPUT	(-1L)
#define BURN_NS		(5 * 1000 * 1000LL)
#define REC_MAX		4096

/* One sample per @config event of this task, user mode only. */
static int open_sampler(__u64 config, __u64 sample_type, int disabled)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	attr.disabled = disabled;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* One sample per page fault of this task, user mode only. */
static int open_faults(__u64 sample_type, int disabled)
{
	return open_sampler(PERF_COUNT_SW_PAGE_FAULTS, sample_type, disabled);
}

static int open_faults_attr(struct perf_event_attr *attr, int cpu)
{
	sw_attr(attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = SMALL_TYPE;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	return sys_perf_event_open(attr, 0, cpu, -1, 0);
}

static int known_type(__u32 type)
{
	return type == PERF_RECORD_SAMPLE || type == PERF_RECORD_LOST ||
	       type == PERF_RECORD_THROTTLE || type == PERF_RECORD_UNTHROTTLE;
}

/* Count, from the reader position on, the records of type @type. */
static int count_records(struct ring *r, __u32 type)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	while ((h = ring_next(r, buf, sizeof(buf))))
		if (h->type == type)
			n++;
	return n;
}

/* value and lost of an event with read_format PERF_FORMAT_LOST. */
static int read_lost(int fd, __u64 *value, __u64 *lost)
{
	__u64 v[2];

	if (read(fd, v, sizeof(v)) != sizeof(v))
		return -1;
	*value = v[0];
	*lost = v[1];
	return 0;
}

static void *map_pages(int fd, int pages, int prot)
{
	return mmap(NULL, pages * sysconf(_SC_PAGESIZE), prot, MAP_SHARED,
		    fd, 0);
}

TEST(mmap_sizes)
{
	static const int good[] = { 1, 2, 3, 5, 9, 17 };
	static const int bad[] = { 4, 6, 7, 8, 10 };
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;
	void *p;
	int fd;

	fd = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));

	/* The control page alone, or it and 2^n data pages. */
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		p = map_pages(fd, good[i], PROT_READ | PROT_WRITE);
		EXPECT_NE(MAP_FAILED, p) TH_LOG("%d pages: %s", good[i],
						strerror(errno));
		if (p != MAP_FAILED)
			munmap(p, good[i] * page);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = map_pages(fd, bad[i], PROT_READ | PROT_WRITE);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("%d pages mapped", bad[i]);
		EXPECT_EQ(EINVAL, errno);
		if (p != MAP_FAILED)
			munmap(p, bad[i] * page);
	}

	/* The buffer is shared with the kernel: a private mapping is not. */
	p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	if (p != MAP_FAILED)
		munmap(p, 3 * page);
	close(fd);
}

TEST(second_mmap_same_size_only)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *a, *b;
	void *c;
	int fd;

	fd = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	a = map_pages(fd, 3, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, a) TH_LOG("mmap: %s", strerror(errno));

	c = map_pages(fd, 5, PROT_READ | PROT_WRITE);
	EXPECT_EQ(MAP_FAILED, c);
	EXPECT_EQ(EINVAL, errno);
	if (c != MAP_FAILED)
		munmap(c, 5 * page);

	/* The same size maps the same buffer again. */
	b = map_pages(fd, 3, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, b) TH_LOG("second mmap: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(a->data_head, 4 * SMALL_SAMPLE);
	EXPECT_EQ(a->data_head, b->data_head);
	EXPECT_EQ(0, memcmp((char *)a + page, (char *)b + page,
			    a->data_head));

	/* The first mapping going away leaves the second one working. */
	munmap(a, 3 * page);
	EXPECT_EQ(2 * page, b->data_size);
	munmap(b, 3 * page);
	close(fd);
}

TEST(metadata_page)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *m;
	struct ring r;
	int fd;

	fd = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	m = r.meta;

	EXPECT_EQ(0, m->version);
	EXPECT_EQ(0, m->compat_version);
	EXPECT_EQ(1, (int)m->cap_bit0_is_deprecated);
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved), m->size);
	EXPECT_EQ(page, m->data_offset);
	EXPECT_EQ(4 * page, m->data_size);
	EXPECT_EQ(0, m->data_head);
	EXPECT_EQ(0, m->data_tail);
	/* A software event cannot be read with rdpmc. */
	EXPECT_EQ(0, m->index);
	EXPECT_EQ(0, (int)m->cap_user_rdpmc);

	ring_unmap(&r);
	close(fd);
}

/* time_enabled and time_running of the control page, read consistently. */
static void page_times(struct perf_event_mmap_page *m, __u64 *enabled,
		       __u64 *running)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&m->lock, __ATOMIC_ACQUIRE);
		*enabled = m->time_enabled;
		*running = m->time_running;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&m->lock, __ATOMIC_RELAXED) != seq);
}

TEST(metadata_times)
{
	struct perf_event_attr attr;
	__u64 en1, run1, en2, run2;
	struct ring r;
	int fd, i;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("task-clock: %s", strerror(errno));
	/* Just the control page: a counting event has no data pages. */
	ASSERT_EQ(0, ring_map(&r, fd, 0, PROT_READ));
	EXPECT_EQ(0, r.meta->data_size);

	page_times(r.meta, &en1, &run1);
	burn_cpu(BURN_NS);
	/*
	 * Sleeping switches the task out and in, and the page follows.  A
	 * loaded host can hold the vCPU back until the sleep's timer has
	 * expired, and then nanosleep() returns without a switch: sleep
	 * again, a bounded number of times.
	 */
	for (i = 0; i < 100; i++) {
		usleep(1000);
		page_times(r.meta, &en2, &run2);
		if (run2 >= run1 + BURN_NS / 2)
			break;
	}

	TH_LOG("enabled %llu -> %llu, running %llu -> %llu",
	       (unsigned long long)en1, (unsigned long long)en2,
	       (unsigned long long)run1, (unsigned long long)run2);
	EXPECT_GE(en2, en1 + BURN_NS / 2);
	EXPECT_GE(run2, run1 + BURN_NS / 2);
	EXPECT_LE(run2, en2);

	ring_unmap(&r);
	close(fd);
}

TEST(records_well_formed)
{
	__u64 buf[REC_MAX / 8], head, count;
	struct perf_event_header *h;
	int fd, samples = 0;
	struct ring r;

	fd = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(32));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = read_value(fd);
	head = ring_head(&r);
	EXPECT_GE(count, 32);
	EXPECT_GE(head, 32 * SMALL_SAMPLE);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		EXPECT_TRUE(known_type(h->type)) TH_LOG("type %u", h->type);
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		EXPECT_EQ(SMALL_SAMPLE, h->size);
		EXPECT_NE(0, buf[1]);				/* ip */
		EXPECT_EQ(getpid(), (pid_t)buf[2]);		/* pid */
		EXPECT_EQ(gettid(), (pid_t)(buf[2] >> 32));	/* tid */
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(head, r.tail);
	EXPECT_EQ(count, samples);

	ring_unmap(&r);
	close(fd);
}

TEST(full_buffer_loses)
{
	__u64 buf[REC_MAX / 8], head, value, lost, value2, lost2;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, fit, samples;
	struct ring r;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.read_format = PERF_FORMAT_LOST;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 1, PROT_READ | PROT_WRITE));
	fit = r.data_size / SMALL_SAMPLE;

	/* Nothing is read, so data_tail stays 0 and the buffer fills. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(fit + 50));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_lost(fd, &value, &lost));
	head = ring_head(&r);
	TH_LOG("%llu faults, head %llu, %llu lost", (unsigned long long)value,
	       (unsigned long long)head, (unsigned long long)lost);
	EXPECT_LE(head, r.data_size);
	EXPECT_EQ(fit * SMALL_SAMPLE, head);
	EXPECT_GE(lost, 50);
	EXPECT_EQ(value, fit + lost);
	/* The data written was not overwritten. */
	EXPECT_EQ(fit, count_records(&r, PERF_RECORD_SAMPLE));
	EXPECT_FALSE(r.bad);

	/* Free the space: the next output first reports what was lost. */
	ring_publish(&r);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_lost(fd, &value2, &lost2));
	EXPECT_EQ(lost, lost2);

	h = ring_next(&r, buf, sizeof(buf));
	ASSERT_NE(NULL, h);
	EXPECT_EQ(PERF_RECORD_LOST, h->type);
	EXPECT_EQ(sizeof(*h) + 16, h->size);
	EXPECT_EQ(event_id(fd), buf[1]);
	EXPECT_EQ(lost, buf[2]);
	samples = count_records(&r, PERF_RECORD_SAMPLE);
	EXPECT_EQ(value2 - value, samples);
	EXPECT_FALSE(r.bad);

	ring_unmap(&r);
	close(fd);
}

TEST(overwrite_keeps_running)
{
	__u64 head, value, lost;
	struct perf_event_attr attr;
	struct perf_event_header h;
	struct ring r;
	int fd, fit;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.read_format = PERF_FORMAT_LOST;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	/* A read-only mapping: the kernel overwrites the oldest data. */
	ASSERT_EQ(0, ring_map(&r, fd, 1, PROT_READ));
	fit = r.data_size / SMALL_SAMPLE;

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(3 * fit));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_lost(fd, &value, &lost));
	head = ring_head(&r);

	EXPECT_GE(value, 3 * fit);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(value * SMALL_SAMPLE, head);
	EXPECT_GT(head, 2 * r.data_size);
	EXPECT_EQ(0, r.meta->data_tail);
	/* The newest record ends at data_head. */
	ring_copy(&r, head - SMALL_SAMPLE, &h, sizeof(h));
	EXPECT_EQ(PERF_RECORD_SAMPLE, h.type);
	EXPECT_EQ(SMALL_SAMPLE, h.size);

	ring_unmap(&r);
	close(fd);
}

TEST(write_backward)
{
	struct perf_event_attr attr;
	struct perf_event_header h;
	__u64 head, pos, value;
	int fd, samples = 0;
	struct ring r;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.write_backward = 1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("backward sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(32));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	value = read_value(fd);
	head = ring_head(&r);

	/* data_head moved down from 0: negative, by the bytes written. */
	TH_LOG("%llu samples, head %lld", (unsigned long long)value,
	       (long long)head);
	ASSERT_GE(value, 32);
	ASSERT_LT(value * SMALL_SAMPLE, r.data_size);
	EXPECT_GT(0, (long long)head);
	EXPECT_EQ(value * SMALL_SAMPLE, -head);

	/* The newest record is at data_head; read forward up to 0. */
	for (pos = head; pos != 0 && samples <= value; pos += h.size) {
		ring_copy(&r, pos, &h, sizeof(h));
		EXPECT_EQ(PERF_RECORD_SAMPLE, h.type);
		ASSERT_EQ(SMALL_SAMPLE, h.size);
		samples++;
	}
	EXPECT_EQ(value, samples);

	ring_unmap(&r);
	close(fd);
}

TEST(pause_output)
{
	__u64 buf[REC_MAX / 8], h1, h2, h3, value, lost, lost_paused;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct ring r;
	int fd, lost_records = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.read_format = PERF_FORMAT_LOST;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));

	/* Nothing to pause without a buffer. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, fault_n(8));
	h1 = ring_head(&r);
	EXPECT_GE(h1, 8 * SMALL_SAMPLE);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_EQ(0, fault_n(8));
	h2 = ring_head(&r);
	EXPECT_EQ(h1, h2);
	ASSERT_EQ(0, read_lost(fd, &value, &lost_paused));
	EXPECT_GE(lost_paused, 8);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_EQ(0, fault_n(8));
	h3 = ring_head(&r);
	EXPECT_GE(h3, h2 + 8 * SMALL_SAMPLE);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_lost(fd, &value, &lost));
	EXPECT_EQ(lost_paused, lost);

	/* The samples dropped while paused show up as one LOST record. */
	r.tail = h2;
	h = ring_next(&r, buf, sizeof(buf));
	ASSERT_NE(NULL, h);
	EXPECT_EQ(PERF_RECORD_LOST, h->type);
	EXPECT_EQ(lost, buf[2]);
	r.tail = 0;
	while ((h = ring_next(&r, buf, sizeof(buf))))
		if (h->type == PERF_RECORD_LOST)
			lost_records++;
	EXPECT_EQ(1, lost_records);
	EXPECT_FALSE(r.bad);

	ring_unmap(&r);
	close(fd);
}

TEST(set_output_shares_buffer)
{
	__u64 buf[REC_MAX / 8], ida, idb, na = 0, nb = 0, na2 = 0, nb2 = 0;
	struct perf_event_header *h;
	const __u64 type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID;
	int a, b, other = 0;
	struct ring r;

	a = open_faults(type, 0);
	ASSERT_GE(a, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	/*
	 * Another software event, not a second page-faults one: samples
	 * taken for one occurrence share their sample data in mainline, so
	 * the IDs would not tell them apart.
	 */
	b = open_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, type, 0);
	ASSERT_GE(b, 0) TH_LOG("minor-faults sampler: %s", strerror(errno));
	ida = event_id(a);
	idb = event_id(b);
	EXPECT_NE(ida, idb);
	ASSERT_EQ(0, ring_map(&r, a, 8, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));

	ASSERT_EQ(0, fault_n(16));
	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (buf[1] == ida)
			na++;
		else if (buf[1] == idb)
			nb++;
		else
			other++;
	}
	EXPECT_GE(na, 16);
	EXPECT_GE(nb, 16);
	EXPECT_EQ(0, other);

	/* SET_OUTPUT -1 stops redirecting: b's samples go nowhere. */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, NO_OUTPUT));
	ASSERT_EQ(0, fault_n(16));
	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (buf[1] == ida)
			na2++;
		else if (buf[1] == idb)
			nb2++;
	}
	EXPECT_GE(na2, 16);
	EXPECT_EQ(0, nb2);
	EXPECT_FALSE(r.bad);

	ring_unmap(&r);
	close(b);
	close(a);
}

TEST(set_output_einval)
{
	struct perf_event_attr attr;
	int a, b, fd, go;
	struct ring r, rb;
	pid_t child;

	a = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(a, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, a, 2, PROT_READ | PROT_WRITE));

	/* Not into its own buffer. */
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	/* Not from an event that has a buffer mapped itself. */
	b = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, ring_map(&rb, b, 2, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	/* Once unmapped, it may. */
	ring_unmap(&rb);
	EXPECT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	close(b);

	/* Not across CPUs: a counts on any CPU, this one on CPU 0 only. */
	fd = open_faults_attr(&attr, 0);
	ASSERT_GE(fd, 0) TH_LOG("sampler on CPU 0: %s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	/* Not between per-task events of different tasks. */
	child = fork_waiting_burner(0, &go);
	ASSERT_GE(child, 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, child, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("sampler on the child: %s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_EQ(0, release_child(child, go));

	/* Not with another clock. */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("CLOCK_MONOTONIC sampler: %s",
				strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	/* Not mixing forward and backward writers. */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.write_backward = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("backward sampler: %s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	ring_unmap(&r);
	close(a);
}

TEST(flag_fd_output)
{
	__u64 buf[REC_MAX / 8], ida, idb, na = 0, nb = 0;
	const __u64 type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct ring r;
	int a, b;

	a = open_faults(type, 0);
	ASSERT_GE(a, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, a, 8, PROT_READ | PROT_WRITE));

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.sample_period = 1;
	attr.sample_type = type;
	attr.exclude_kernel = 1;
	b = sys_perf_event_open(&attr, 0, -1, a,
				PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(b, 0) TH_LOG("FD_OUTPUT: %s", strerror(errno));
	ida = event_id(a);
	idb = event_id(b);

	ASSERT_EQ(0, fault_n(16));
	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (buf[1] == ida)
			na++;
		else if (buf[1] == idb)
			nb++;
	}
	EXPECT_GE(na, 16);
	EXPECT_GE(nb, 16);
	EXPECT_FALSE(r.bad);

	/* It is redirected: a buffer of its own cannot be mapped. */
	EXPECT_EQ(MAP_FAILED, map_pages(b, 2, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EINVAL, errno);

	ring_unmap(&r);
	close(b);
	close(a);
}

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

TEST(poll_wakeup_events)
{
	struct perf_event_attr attr;
	int fd, i, wakeups = 0;
	__u64 n, prev = 0;
	struct ring r;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.wakeup_events = 4;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, poll_now(fd));

	/* POLLIN exactly when another wakeup_events samples are in. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, fault_n(1));
		n = ring_head(&r) / SMALL_SAMPLE;
		if (n / 4 > prev / 4) {
			EXPECT_EQ(POLLIN, poll_now(fd) & POLLIN)
				TH_LOG("%llu samples", (unsigned long long)n);
			wakeups++;
		} else {
			EXPECT_EQ(0, poll_now(fd) & POLLIN)
				TH_LOG("%llu samples", (unsigned long long)n);
		}
		prev = n;
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(wakeups, 3);

	ring_unmap(&r);
	close(fd);
}

/* A fork_waiting_work() child's work: touch @pages fresh pages. */
static int touch_pages_work(long long pages)
{
	return touch_pages(pages);
}

TEST(pollhup_on_task_exit)
{
	struct perf_event_attr attr;
	struct ring r;
	pid_t child;
	int fd, go;

	/*
	 * The child's page faults sample: each is taken in user mode.
	 * (Ticks of a task-clock event found a burner in user mode none of
	 * the time in some runs of a debug kernel under emulation, whose
	 * burner spends most of its time reading its CPU clock.)
	 */
	child = fork_waiting_work(touch_pages_work, 16, &go);
	ASSERT_GE(child, 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, child, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page faults of the child: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, poll_now(fd) & POLLHUP);

	ASSERT_EQ(0, release_child(child, go));
	EXPECT_EQ(POLLHUP, poll_now(fd) & POLLHUP);
	/* Its samples stay readable. */
	EXPECT_GE(ring_head(&r), 16 * SMALL_SAMPLE);

	ring_unmap(&r);
	close(fd);
}

/* Lock-free atomics: safe to set in a signal handler. */
static atomic_int sigio_count, sigio_code, sigio_fd;

static void on_sigio(int sig, siginfo_t *info, void *uc)
{
	sigio_count++;
	sigio_code = info->si_code;
	sigio_fd = info->si_fd;
}

TEST(sigio_on_overflow)
{
	struct sigaction sa = { 0 };
	struct perf_event_attr attr;
	struct ring r;
	int fd, i;

	sa.sa_sigaction = on_sigio;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_EQ(0, sigaction(SIGIO, &sa, NULL));

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SMALL_TYPE;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	/* With F_SETSIG the signal says why and for which fd. */
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, SIGIO));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_ASYNC));

	ASSERT_EQ(0, fault_n(1));
	EXPECT_EQ(0, atomic_load(&sigio_count));	/* not enabled yet */

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < 1000 && !sigio_count; i++)
		usleep(1000);
	EXPECT_GE(atomic_load(&sigio_count), 1);
	EXPECT_EQ(POLL_IN, atomic_load(&sigio_code));
	EXPECT_EQ(fd, atomic_load(&sigio_fd));

	ring_unmap(&r);
	close(fd);
}

TEST(munmap_and_close_in_either_order)
{
	long page = sysconf(_SC_PAGESIZE);
	__u64 before, after;
	struct ring r;
	int fd;

	fd = open_faults(SMALL_TYPE, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 2, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, fault_n(4));
	EXPECT_GE(ring_head(&r), 4 * SMALL_SAMPLE);

	/* Unmapped, the event goes on counting, writing nowhere. */
	ring_unmap(&r);
	before = read_value(fd);
	ASSERT_EQ(0, fault_n(4));
	after = read_value(fd);
	EXPECT_GE(after, before + 4);

	/*
	 * A new mapping, of another size, is a new empty buffer.  The
	 * event is off while we look: on kernels that fill the mapping in
	 * on demand, the first touch of the control page is itself a page
	 * fault of this task, and would be a sample.
	 */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, ring_head(&r));
	EXPECT_EQ(4 * page, r.meta->data_size);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(4));

	/* Closed while mapped: the mapping keeps the buffer. */
	close(fd);
	EXPECT_GE(ring_head(&r), 4 * SMALL_SAMPLE);
	EXPECT_EQ(4 * page, r.meta->data_size);
	EXPECT_GE(count_records(&r, PERF_RECORD_SAMPLE), 4);
	ring_unmap(&r);
}

TEST(period_one_loses_nothing)
{
	__u64 buf[REC_MAX / 8], count, head;
	struct perf_event_header *h;
	int fd, samples = 0, others = 0;
	struct ring r;

	fd = open_faults(SMALL_TYPE, 1);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 16, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* Well under what 16 pages hold. */
	ASSERT_EQ(0, fault_n(r.data_size / SMALL_SAMPLE / 4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = read_value(fd);
	head = ring_head(&r);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else
			others++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(head, r.tail);
	EXPECT_GE(count, r.data_size / SMALL_SAMPLE / 4);
	EXPECT_EQ(count, samples);
	EXPECT_EQ(0, others);

	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
