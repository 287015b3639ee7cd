// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the AUX area.  How it is mapped (after the ring
 * buffer, at aux_offset, aux_size bytes of 2^n pages) and the errors when
 * it is not; then, with a PMU that writes AUX data, what reaches user
 * space: PERF_RECORD_ITRACE_START, a PERF_RECORD_AUX per piece, aux_head,
 * the data itself, a full area (TRUNCATED, then the event stops until the
 * reader catches up), overwrite mode, unmapping the area under a
 * running event, samples that carry a snapshot of the area
 * (aux_sample_size, PERF_SAMPLE_AUX), group members that write into their
 * leader's area (aux_output) or pause and resume it on overflow
 * (aux_pause, aux_resume, aux_start_paused), and address filters
 * (PERF_EVENT_IOC_SET_FILTER): kernel ranges, file ranges resolved in
 * the task's address space and moved when it maps the file; and the PMU
 * unregistered under open events, which are revoked.
 *
 * The AUX writer is the "aux_test" PMU of debug kernels, registered
 * through /sys/module/aux_test/parameters/enable; where there is no such
 * PMU (mainline, production kernels) those tests skip.  Hardware tracers
 * (Intel PT, Arm SPE) are not emulated by the machines the suite runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/const.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define REC_MAX		4096
#define AUX_TEST_ENABLE	"/sys/module/aux_test/parameters/enable"
#define AUX_TEST_TYPE	"/sys/bus/event_source/devices/aux_test/type"

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/*
 * The errno of a perf_event_open() of @attr on this task that must fail;
 * 0 if it opened (the event is closed again).
 */
static int open_errno(struct perf_event_attr *attr, int group)
{
	int fd = sys_perf_event_open(attr, 0, -1, group, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Map the AUX area of @r's event: @pages at @data_pages + 1 pages in. */
static void *aux_map(int fd, struct ring *r, int data_pages, int pages,
		     int prot)
{
	void *p;

	r->meta->aux_offset = (__u64)(data_pages + 1) * page_size();
	r->meta->aux_size = (__u64)pages * page_size();
	p = mmap(NULL, pages * page_size(), prot, MAP_SHARED, fd,
		 r->meta->aux_offset);
	return p == MAP_FAILED ? NULL : p;
}

/* ---------------------------------------------------------------------
 * Mapping rules, on any event
 */

TEST(aux_needs_the_ring_buffer_first)
{
	struct perf_event_attr attr;
	void *p;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	p = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 page_size());
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(aux_offset_and_size_checked)
{
	long page = page_size();
	struct perf_event_attr attr;
	struct ring r;
	void *p;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));

	/* inside the data area */
	r.meta->aux_offset = 2 * page;
	r.meta->aux_size = 2 * page;
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 2 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* at an offset other than aux_offset */
	r.meta->aux_offset = 8 * page;
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 16 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* a size other than aux_size */
	p = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 8 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* not a power of two */
	r.meta->aux_size = 3 * page;
	p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 8 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* all right, but a software event writes no AUX data */
	r.meta->aux_size = 2 * page;
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 8 * page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EOPNOTSUPP, errno);

	ring_unmap(&r);
	close(fd);
}

/* Samples with AUX data need a group leader that takes AUX snapshots. */
TEST(aux_sample_size_needs_an_aux_leader)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = 64;
	EXPECT_EQ(EINVAL, open_errno(&attr, -1));

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = 64;
	EXPECT_EQ(EINVAL, open_errno(&attr, leader));
	close(leader);
}

/* aux_output needs a PMU that can write into another event's AUX area. */
TEST(aux_output_needs_a_capable_pmu)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.aux_output = 1;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, -1));

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.aux_output = 1;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, leader));
	close(leader);
}

/*
 * aux_action: starting paused needs a PMU that can pause; pausing and
 * resuming on overflow need a group leader that can, and are exclusive;
 * the other bits are reserved.
 */
TEST(aux_action_checks)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.aux_start_paused = 1;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, -1));

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.aux_pause = 1;
	attr.aux_resume = 1;
	EXPECT_EQ(EINVAL, open_errno(&attr, -1));

	attr.aux_resume = 0;
	EXPECT_EQ(EINVAL, open_errno(&attr, -1));

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.aux_resume = 1;
	EXPECT_EQ(EINVAL, open_errno(&attr, leader));
	close(leader);

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.aux_action = 1u << 3;
	EXPECT_EQ(EINVAL, open_errno(&attr, -1));
}

/* ---------------------------------------------------------------------
 * With an AUX writer
 */

FIXTURE(writer)
{
	int type;
	int enabled_here;
};

FIXTURE_SETUP(writer)
{
	int on = 0;

	self->type = -1;
	self->enabled_here = 0;
	if (read_int(AUX_TEST_ENABLE, &on))
		SKIP(return, "no aux_test PMU (a debug kernel's test PMU)");
	if (!on) {
		if (write_int(AUX_TEST_ENABLE, 1))
			SKIP(return, "cannot enable aux_test: %s",
			     strerror(errno));
		self->enabled_here = 1;
	}
	ASSERT_EQ(0, read_int(AUX_TEST_TYPE, &self->type));
}

FIXTURE_TEARDOWN(writer)
{
	int i;

	/* event memory goes a little after close(): try for a while */
	for (i = 0; self->enabled_here && i < 100; i++) {
		if (!write_int(AUX_TEST_ENABLE, 0))
			break;
		usleep(10000);
	}
}

/* Attributes of an aux_test event: @type, the rest zero. */
static void aux_test_attr(struct perf_event_attr *attr, int type)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
}

/* An aux_test event on this task writing @burst bytes per switch-out. */
static int open_writer(int type, int burst)
{
	struct perf_event_attr attr;

	aux_test_attr(&attr, type);
	attr.config = burst;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

struct aux_rec {
	struct perf_event_header header;
	__u64 offset;
	__u64 size;
	__u64 flags;
};

/* The AUX records of @r, copied into @recs (at most @max); their count. */
static int aux_records(struct ring *r, struct aux_rec *recs, int max,
		       int *itrace)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	*itrace = 0;
	while ((h = ring_next(r, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_ITRACE_START) {
			__u32 *ids = (__u32 *)&buf[1];

			if (h->size == sizeof(*h) + 8 && ids[0] == getpid() &&
			    ids[1] == gettid())
				(*itrace)++;
			continue;
		}
		if (h->type != PERF_RECORD_AUX)
			continue;
		if (h->size != sizeof(struct aux_rec) || n == max)
			return -1;
		memcpy(&recs[n++], buf, sizeof(struct aux_rec));
	}
	return r->bad ? -1 : n;
}

/* Let the task be switched out @n times. */
static void switch_out(int n)
{
	while (n--)
		usleep(200);
}

TEST_F(writer, records_and_data)
{
	long page = page_size();
	struct aux_rec recs[64];
	int fd, n, i, itrace;
	__u64 expect = 0, *words;
	struct ring r;
	__u64 count;

	fd = open_writer(self->type, 64);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	words = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, words) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(6);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = read_value(fd);

	/* a sleep that ends before it begins does not switch: not all 7 */
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 3) TH_LOG("%d AUX records", n);
	EXPECT_EQ(1, itrace);
	for (i = 0; i < n; i++) {
		/* one after the other, 64 bytes each */
		EXPECT_EQ(expect, recs[i].offset);
		EXPECT_EQ(64, recs[i].size);
		EXPECT_EQ(0, recs[i].flags);
		expect += recs[i].size;
	}
	EXPECT_EQ(expect, count);
	EXPECT_EQ(expect, r.meta->aux_head);
	/* the words, numbered from 1 */
	for (i = 0; i < (int)(expect / 8) && i < (int)(4 * page / 8); i++)
		ASSERT_EQ(i + 1, words[i]);

	munmap(words, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * 1000 bytes a time into 4096: four fit, the fifth is cut to 96 bytes
 * and flagged, then the event stops.  Once the reader has moved aux_tail
 * and enabled it again, it goes on where it left off.
 */
TEST_F(writer, full_area_truncates_then_stops)
{
	long page = page_size();
	struct aux_rec recs[64];
	int fd, n, i, itrace;
	struct ring r;
	void *aux;

	if (page != 4096)
		SKIP(return, "sized for 4 KiB pages");
	fd = open_writer(self->type, 1000);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(16);
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_EQ(5, n);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(i * 1000, recs[i].offset);
		EXPECT_EQ(1000, recs[i].size);
		EXPECT_EQ(0, recs[i].flags);
	}
	EXPECT_EQ(4000, recs[4].offset);
	EXPECT_EQ(96, recs[4].size);
	EXPECT_EQ(PERF_AUX_FLAG_TRUNCATED, recs[4].flags);
	EXPECT_EQ(4096, r.meta->aux_head);
	EXPECT_EQ(4096, read_value(fd));

	/* the reader frees it all and lets the event go on */
	__atomic_store_n(&r.meta->aux_tail, r.meta->aux_head,
			 __ATOMIC_RELEASE);
	ring_publish(&r);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(1);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 1);
	EXPECT_EQ(4096, recs[0].offset);
	EXPECT_EQ(1000, recs[0].size);

	munmap(aux, page);
	ring_unmap(&r);
	close(fd);
}

/* Mapped read-only: the writer goes round the area and says so. */
TEST_F(writer, overwrite_mode)
{
	long page = page_size();
	struct aux_rec recs[64];
	int fd, n, i, itrace;
	__u64 expect = 0;
	struct ring r;
	void *aux;

	fd = open_writer(self->type, 1024);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 1, PROT_READ);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(12);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 6);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(expect, recs[i].offset);
		EXPECT_EQ(1024, recs[i].size);
		EXPECT_EQ(PERF_AUX_FLAG_OVERWRITE, recs[i].flags);
		expect += 1024;
	}
	/* past the area's size: nothing waited for the reader */
	EXPECT_EQ(expect, r.meta->aux_head);
	EXPECT_GT(expect, page);

	munmap(aux, page);
	ring_unmap(&r);
	close(fd);
}

/*
 * A transaction that wrote nothing and carries only the PMU's format in
 * its flags tells the reader nothing: no PERF_RECORD_AUX of size 0 for it
 * (7.3).  The writer in raw-format mode (attr.config1 bit 1) flags every
 * transaction PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW and leaves every second
 * one empty.
 */
TEST_F(writer, no_empty_record_for_format_flags)
{
	long page = page_size();
	struct perf_event_attr attr;
	struct aux_rec recs[64];
	int fd, n, i, itrace;
	__u64 expect = 0;
	struct ring r;
	void *aux;

	aux_test_attr(&attr, self->type);
	attr.config = 64;
	attr.config1 = 2;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 2) TH_LOG("%d AUX records", n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(expect, recs[i].offset);
		EXPECT_EQ(64, recs[i].size)
			TH_LOG("record %d of %d: size %llu, flags %#llx", i, n,
			       (unsigned long long)recs[i].size,
			       (unsigned long long)recs[i].flags);
		EXPECT_EQ(PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW, recs[i].flags);
		expect += recs[i].size;
	}
	EXPECT_EQ(expect, r.meta->aux_head);
	EXPECT_EQ(expect, read_value(fd));

	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/* The area goes while the event runs; a new one starts afresh. */
TEST_F(writer, unmap_under_a_running_event)
{
	long page = page_size();
	struct aux_rec recs[64];
	int fd, n, itrace;
	struct ring r;
	void *aux;

	fd = open_writer(self->type, 64);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(2);
	ASSERT_EQ(0, munmap(aux, 2 * page));
	switch_out(2);
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 1);

	/* no area: no more records, however often it switches */
	switch_out(3);
	EXPECT_EQ(0, aux_records(&r, recs, 64, &itrace));

	aux = aux_map(fd, &r, 8, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("second aux mmap: %s", strerror(errno));
	/* a running event starts on the new area when it is next scheduled */
	switch_out(3);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 1);
	EXPECT_EQ(0, recs[0].offset);
	EXPECT_EQ(64, recs[0].size);

	munmap(aux, 2 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * mmap() of the AUX area maps every page of it (6.14): reading each once
 * takes no page fault.  6.12 mapped each page at its first touch.
 */
TEST_F(writer, aux_pages_mapped_at_mmap)
{
	const int pages = 8;
	long page = page_size(), before, faults;
	struct rusage ru;
	struct ring r;
	char *aux;
	int fd;

	fd = open_writer(self->type, 64);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 1, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 1, pages, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &ru));
	before = ru.ru_minflt;
	read_pages(aux, pages, page);
	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &ru));
	faults = ru.ru_minflt - before;
	EXPECT_EQ(0, faults) TH_LOG("%ld faults reading %d pages", faults,
				    pages);

	munmap(aux, pages * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * A process that maps @fd's AUX area (@len bytes at @off) once a byte on
 * @go arrives, writes its errno (0: mapped) to @result and keeps the
 * mapping until @done's write end (the caller's) is closed.  The
 * mappings come from two processes so that the two mmap() calls run side
 * by side: one mm's mmap() calls are serialised by its mmap_lock.
 */
static pid_t aux_mapper(int fd, size_t off, size_t len, int go, int result,
			int done[2])
{
	pid_t pid = fork();
	char c;
	int err;

	if (pid)
		return pid;
	close(done[1]);
	if (read(go, &c, 1) != 1)
		_exit(1);
	err = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off) ==
	      MAP_FAILED ? errno : 0;
	if (write(result, &err, sizeof(err)) != sizeof(err))
		_exit(1);
	while (read(done[0], &c, 1) > 0)
		;
	_exit(0);
}

/*
 * Up to @rounds rounds of: both events of a shared buffer map its AUX
 * area at the same moment from two processes, the writer runs, both
 * unmap.  A slow guest (a debug kernel under TCG takes up to a second a
 * round) stops after AUX_SHARE_BUDGET_NS once AUX_SHARE_MIN_ROUNDS are
 * done: under the small mlock allowance the test gives, one round that
 * leaked its area makes the next round's mapping fail.
 * Return: 0, or the round that failed (errno set).
 */
#define AUX_SHARE_MIN_ROUNDS	4
#define AUX_SHARE_BUDGET_NS	(8 * 1000000000LL)

static int aux_share_rounds(int type, int rounds)
{
	long long start = monotonic_ns();
	long page = page_size();
	int fd[2], go[2], result[2], done[2], i, round, e, err = 0;
	pid_t pid[2];
	struct ring r;

	for (i = 0; i < 2; i++) {
		fd[i] = open_writer(type, 64);
		if (fd[i] < 0)
			return -1;
	}
	if (ring_map(&r, fd[0], 4, PROT_READ | PROT_WRITE))
		return -1;
	r.meta->aux_offset = 5 * page;
	r.meta->aux_size = 4 * page;
	for (round = 1; round <= rounds && !err; round++) {
		if (round > AUX_SHARE_MIN_ROUNDS &&
		    monotonic_ns() - start > AUX_SHARE_BUDGET_NS)
			break;
		/* its last mapping gone, an event leaves the buffer: again */
		if (ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]))
			return round;
		if (pipe(go) || pipe(result) || pipe(done))
			return round;
		for (i = 0; i < 2; i++)
			pid[i] = aux_mapper(fd[i], 5 * page, 4 * page, go[0],
					    result[1], done);
		close(done[0]);
		if (write(go[1], "gg", 2) != 2)
			err = round;
		for (i = 0; i < 2; i++) {
			if (read(result[0], &e, sizeof(e)) != sizeof(e))
				e = EIO;
			if (e) {
				errno = e;
				err = round;
			}
		}
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
		switch_out(1);
		ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
		close(done[1]);
		for (i = 0; i < 2; i++)
			waitpid(pid[i], NULL, 0);
		close(go[0]);
		close(go[1]);
		close(result[0]);
		close(result[1]);
	}
	ring_unmap(&r);
	close(fd[1]);
	close(fd[0]);
	return err;
}

/*
 * Two events sharing one buffer (SET_OUTPUT) map its AUX area at the same
 * moment, each through its own fd: both get the one area, and unmapping
 * both frees it once.  Run as an unprivileged user under a small
 * perf_event_mlock_kb and no RLIMIT_MEMLOCK, an area created twice (one
 * leaked with its charge) soon makes the next mapping fail with EPERM;
 * on the debug guests KASAN and kmemleak watch the pages and the area.
 */
TEST_F(writer, shared_buffer_aux_mapped_from_both_sides)
{
	const char *paranoid = "/proc/sys/kernel/perf_event_paranoid";
	const char *mlock = "/proc/sys/kernel/perf_event_mlock_kb";
	struct rlimit none = { 0, 0 };
	int old_paranoid, old_mlock, status, err;
	pid_t pid;

	if (geteuid()) {
		err = aux_share_rounds(self->type, 16);
		ASSERT_EQ(0, err) TH_LOG("round %d: %s", err, strerror(errno));
		return;
	}
	ASSERT_EQ(0, read_int(paranoid, &old_paranoid));
	ASSERT_EQ(0, read_int(mlock, &old_mlock));
	ASSERT_EQ(0, write_int(paranoid, -1));
	ASSERT_EQ(0, write_int(mlock, 48));
	pid = fork();
	if (pid == 0) {
		if (setrlimit(RLIMIT_MEMLOCK, &none) || setgid(65534) ||
		    setuid(65534))
			_exit(255);
		err = aux_share_rounds(self->type, 16);
		if (err)
			fprintf(stderr, "# round %d: %s\n", err, strerror(errno));
		_exit(err ? 1 : 0);
	}
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int(mlock, old_mlock);
	write_int(paranoid, old_paranoid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * An AUX area far beyond the locked-memory limits: 2^39 and 2^40 bytes
 * (2^27 and 2^28 pages), which an unprivileged user under a
 * perf_event_mlock_kb allowance and RLIMIT_MEMLOCK of 0 must be refused.
 * The refusal must come before anything is allocated for the area: the
 * table of its pages alone is 1 or 2 GiB.  A thread watches VmallocUsed
 * and MemFree in /proc/meminfo while mmap() runs (memory taken and given
 * back inside the call shows only there), and the kernel must not warn
 * (the table of 2^28 pages is over what kvmalloc() accepts): the WARN
 * taint, bit 9 of /proc/sys/kernel/tainted, stays clear if it was.
 */
#define HUGE_VMALLOC_KB	(64 * 1024)
#define HUGE_FREE_KB	(256 * 1024)
#define TAINT_WARN	(1 << 9)

/* A field of /proc/meminfo, in kB; -1 if it cannot be read. */
static long long meminfo_kb(const char *field)
{
	size_t len = strlen(field);
	long long kb = -1;
	char line[256];
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

struct mem_watch {
	pthread_t thread;
	int stop;
	long long vmalloc_max, free_min;
};

static void *mem_watcher(void *arg)
{
	struct mem_watch *w = arg;
	long long v, f;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		v = meminfo_kb("VmallocUsed");
		f = meminfo_kb("MemFree");
		if (v > w->vmalloc_max)
			w->vmalloc_max = v;
		if (f >= 0 && f < w->free_min)
			w->free_min = f;
	}
	return NULL;
}

/* What mapping the huge area of one size came to. */
struct huge_result {
	int err;		/* mmap()'s errno, 0 if it mapped */
	long long vmalloc_grew;	/* kB, at most, during the call */
	long long free_fell;	/* kB, at most, during the call */
};

/* Map an AUX area of @size bytes on a fresh aux_test event of @type. */
static int huge_aux_map(int type, __u64 size, struct huge_result *res)
{
	long page = page_size();
	struct perf_event_attr attr;
	long long vmalloc0, free0;
	struct mem_watch w;
	struct ring r;
	void *p;
	int fd;

	aux_test_attr(&attr, type);
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	if (ring_map(&r, fd, 1, PROT_READ | PROT_WRITE))
		return -1;
	r.meta->aux_offset = 2 * page;
	r.meta->aux_size = size;

	vmalloc0 = meminfo_kb("VmallocUsed");
	free0 = meminfo_kb("MemFree");
	if (vmalloc0 < 0 || free0 < 0)
		return -1;
	memset(&w, 0, sizeof(w));
	w.vmalloc_max = vmalloc0;
	w.free_min = free0;
	if (pthread_create(&w.thread, NULL, mem_watcher, &w))
		return -1;
	/* let the watcher take its first look */
	usleep(10000);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd,
		 2 * page);
	res->err = p == MAP_FAILED ? errno : 0;
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
	pthread_join(w.thread, NULL);
	res->vmalloc_grew = w.vmalloc_max - vmalloc0;
	res->free_fell = free0 - w.free_min;
	if (p != MAP_FAILED)
		munmap(p, size);
	ring_unmap(&r);
	close(fd);
	return 0;
}

TEST_F(writer, aux_huge_size_refused_without_allocating)
{
	const char *paranoid = "/proc/sys/kernel/perf_event_paranoid";
	static const int shift[] = { 40, 39 };
	struct huge_result res[2];
	struct rlimit none = { 0, 0 };
	int old_paranoid = 0, tainted0 = 0, tainted1 = 0, status, i, p[2];
	int root = !geteuid();
	pid_t pid;

	if (!root && (read_int(paranoid, &old_paranoid) || old_paranoid < 0))
		SKIP(return, "perf_event_paranoid -1: no limit to check");
	read_int("/proc/sys/kernel/tainted", &tainted0);
	if (root) {
		ASSERT_EQ(0, read_int(paranoid, &old_paranoid));
		/* paranoid -1 lifts the limits; 2 lets nobody trace itself */
		ASSERT_EQ(0, write_int(paranoid, 2));
	}
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		memset(res, 0, sizeof(res));
		if (setrlimit(RLIMIT_MEMLOCK, &none) ||
		    (root && (setresgid(65534, 65534, 65534) ||
			      setresuid(65534, 65534, 65534))))
			_exit(2);
		for (i = 0; i < 2; i++)
			if (huge_aux_map(self->type, 1ULL << shift[i], &res[i]))
				_exit(3);
		_exit(write(p[1], res, sizeof(res)) == sizeof(res) ? 0 : 4);
	}
	close(p[1]);
	ASSERT_GT(pid, 0);
	i = read(p[0], res, sizeof(res));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(p[0]);
	if (root)
		write_int(paranoid, old_paranoid);
	read_int("/proc/sys/kernel/tainted", &tainted1);
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status 0x%x (2: dropping privileges, 3: the "
		       "event or its buffer)", status);
	ASSERT_EQ(sizeof(res), i);

	for (i = 0; i < 2; i++) {
		TH_LOG("2^%d bytes: %s; VmallocUsed up to +%lld kB, MemFree "
		       "down to -%lld kB", shift[i],
		       res[i].err ? strerror(res[i].err) : "mapped",
		       res[i].vmalloc_grew, res[i].free_fell);
		EXPECT_TRUE(res[i].err == EPERM || res[i].err == ENOMEM)
			TH_LOG("2^%d bytes: %s", shift[i],
			       strerror(res[i].err));
		EXPECT_GT(HUGE_VMALLOC_KB, res[i].vmalloc_grew);
		EXPECT_GT(HUGE_FREE_KB, res[i].free_fell);
	}
	if (tainted0 & TAINT_WARN)
		TH_LOG("the kernel had warned before: taint not checked");
	else
		EXPECT_EQ(0, tainted1 & TAINT_WARN)
			TH_LOG("the kernel warned (tainted %d)", tainted1);
}

/*
 * A page-fault sampler in the writer's group: each sample carries the last
 * 64 bytes the writer wrote, eight consecutive words ending at a multiple
 * of eight (the writer writes eight words at a time); zeroes before the
 * writer has written anything.
 */
TEST_F(writer, samples_carry_aux_snapshots)
{
	long page = page_size();
	__u64 buf[REC_MAX / 8], words;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int leader, fd, samples = 0, i;
	struct ring lr, r;
	void *aux;

	leader = open_writer(self->type, 64);
	ASSERT_GE(leader, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&lr, leader, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(leader, &lr, 8, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = 64;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(fd, 0) TH_LOG("AUX sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(2);
	ASSERT_EQ(0, fault_n(4));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	words = read_value(leader) / 8;

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		/* size, then the data */
		ASSERT_EQ(sizeof(*h) + 8 + 64, h->size);
		ASSERT_EQ(64, buf[1]);
		if (!buf[9]) {
			/* a fault before the writer's first burst: zeroes */
			for (i = 2; i < 9; i++)
				EXPECT_EQ(0, buf[i]);
			continue;
		}
		EXPECT_EQ(0, buf[9] % 8)
			TH_LOG("last word %llu", (unsigned long long)buf[9]);
		EXPECT_LE(buf[9], words);
		for (i = 2; i < 9; i++)
			EXPECT_EQ(buf[i] + 1, buf[i + 1]);
		samples++;
	}
	EXPECT_FALSE(r.bad);
	/* the faults after two bursts at least */
	EXPECT_GE(samples, 4);

	ring_unmap(&r);
	close(fd);
	munmap(aux, 2 * page);
	ring_unmap(&lr);
	close(leader);
}

#define AUX_TEST_MARK	_BITULL(63)

/*
 * An aux_test member with aux_output writes one marked word into its
 * leader's transaction each time the group goes on the CPU, so every
 * piece the leader hands over starts with it.  The member needs the
 * leader (not another group, not alone, not with aux_sample_size); once
 * the leader is closed it is in error for good.
 */
TEST_F(writer, aux_output_writes_into_the_leader)
{
	long page = page_size();
	struct perf_event_attr attr;
	struct aux_rec recs[64];
	int leader, other, fd, n, i, j, itrace;
	__u64 *words, w = 0, value[2];
	struct ring r;

	leader = open_writer(self->type, 64);
	ASSERT_GE(leader, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, leader, 8, PROT_READ | PROT_WRITE));
	words = aux_map(leader, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, words) TH_LOG("aux mmap: %s", strerror(errno));

	aux_test_attr(&attr, self->type);
	attr.aux_output = 1;
	EXPECT_EQ(EINVAL, open_errno(&attr, -1));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	other = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(other, 0);
	aux_test_attr(&attr, self->type);
	attr.aux_output = 1;
	EXPECT_EQ(EINVAL, open_errno(&attr, other));
	close(other);
	attr.aux_sample_size = 64;
	EXPECT_EQ(EINVAL, open_errno(&attr, leader));
	attr.aux_sample_size = 0;
	attr.aux_pause = 1;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, leader));
	attr.aux_pause = 0;
	fd = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(fd, 0) TH_LOG("aux_output member: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(6);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));

	n = aux_records(&r, recs, 64, &itrace);
	ASSERT_GE(n, 3) TH_LOG("%d AUX records", n);
	for (i = 0; i < n; i++) {
		__u64 *p = words + recs[i].offset / 8;

		/* the member's word, then the leader's burst */
		ASSERT_EQ(72, recs[i].size);
		ASSERT_LE(recs[i].offset + 72, 4 * page);
		EXPECT_EQ(AUX_TEST_MARK | (i + 1), p[0]);
		for (j = 1; j < 9; j++)
			EXPECT_EQ(++w, p[j]);
	}
	EXPECT_EQ(8 * (__u64)n, read_value(fd));

	/* without its leader the member does not run, even when enabled */
	munmap(words, 4 * page);
	ring_unmap(&r);
	close(leader);
	EXPECT_EQ(0, read(fd, value, sizeof(value)));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(2);
	EXPECT_EQ(0, read(fd, value, sizeof(value)));
	close(fd);
}

/* A member that overflows on every page fault of this task. */
static int open_fault_member(int leader, int pause, int resume)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.aux_pause = pause;
	attr.aux_resume = resume;
	return sys_perf_event_open(&attr, 0, -1, leader, 0);
}

/*
 * A leader that starts paused writes nothing, however often it is
 * switched, until a member's overflow resumes it.
 */
TEST_F(writer, start_paused_until_resumed)
{
	long page = page_size();
	struct aux_rec recs[64];
	int leader, fd, n, itrace;
	struct perf_event_attr attr;
	struct ring r;
	void *aux;

	aux_test_attr(&attr, self->type);
	attr.config = 64;
	attr.disabled = 1;
	attr.aux_start_paused = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, leader, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(leader, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(6);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, aux_records(&r, recs, 64, &itrace));
	EXPECT_EQ(0, r.meta->aux_head);
	EXPECT_EQ(0, read_value(leader));

	fd = open_fault_member(leader, 0, 1);
	ASSERT_GE(fd, 0) TH_LOG("aux_resume member: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(2));
	switch_out(6);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&r, recs, 64, &itrace);
	EXPECT_GE(n, 2) TH_LOG("%d AUX records", n);
	EXPECT_EQ(64 * (__u64)n, r.meta->aux_head);
	EXPECT_GE(read_value(fd), 2);

	close(fd);
	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(leader);
}

/*
 * A member's overflow pauses the leader: the pause hands over what the
 * leader had, and from then on nothing more comes, across switches.
 */
TEST_F(writer, pause_on_overflow)
{
	long page = page_size();
	int leader, fd;
	__u64 head;
	struct ring r;
	void *aux;

	leader = open_writer(self->type, 64);
	ASSERT_GE(leader, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, leader, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(leader, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));
	fd = open_fault_member(leader, 1, 0);
	ASSERT_GE(fd, 0) TH_LOG("aux_pause member: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_n(2));
	head = r.meta->aux_head;
	EXPECT_GE(head, 64);
	switch_out(6);
	EXPECT_EQ(head, r.meta->aux_head);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(head, r.meta->aux_head);
	EXPECT_EQ(head, read_value(leader));

	close(fd);
	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(leader);
}

/* ---------------------------------------------------------------------
 * Address filters (aux_test takes two, "filter" and "stop" with a size)
 */

#define SHOW_FILTERS	1	/* attr.config1: bursts show the filters */
#define ACT_STOP	0	/* the kernel's PERF_ADDR_FILTER_ACTION_* */
#define ACT_FILTER	2

static int open_filter_writer(int type, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	aux_test_attr(&attr, type);
	attr.config1 = SHOW_FILTERS;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* 0, or the errno of PERF_EVENT_IOC_SET_FILTER with @text. */
static int set_filter(int fd, const char *text)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, text) ? errno : 0;
}

/* The 8 filter words of the last AUX record; -1 if there is none. */
static int last_filters(struct ring *r, void *aux, __u64 *words)
{
	struct aux_rec recs[256];
	int n, itrace;

	n = aux_records(r, recs, 256, &itrace);
	if (n <= 0 || recs[n - 1].size != 64)
		return -1;
	memcpy(words, (char *)aux + recs[n - 1].offset, 64);
	return 0;
}

TEST_F(writer, address_filter_errors)
{
	char text[512];
	int fd, cpu_fd;

	fd = open_filter_writer(self->type, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));

	EXPECT_EQ(EINVAL, set_filter(fd, "bogus 0x1000/0x100"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter 0x1000"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter 0x1000/0x100 stop"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter 0x10q0/0x100"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter 0x1000/0x100@"));
	EXPECT_EQ(EINVAL, set_filter(fd, "filter 0/0x100@/"));
	EXPECT_EQ(ENOENT, set_filter(fd, "filter 0/0x100@/no/such/file"));
	/* what the PMU cannot do: single addresses, "start", a third */
	EXPECT_EQ(EOPNOTSUPP, set_filter(fd, "stop 0x1000"));
	EXPECT_EQ(EOPNOTSUPP, set_filter(fd, "start 0x1000/0x100"));
	EXPECT_EQ(EOPNOTSUPP,
		  set_filter(fd, "filter 0x1000/0x100,filter 0x3000/0x100,stop 0x5000/0x10"));
	EXPECT_EQ(0, set_filter(fd, "filter 0x1000/0x100 stop 0x1080/8"));
	EXPECT_EQ(0, set_filter(fd, ""));

	/* a CPU-wide event sees every address space: no files */
	cpu_fd = open_filter_writer(self->type, -1, 0);
	ASSERT_GE(cpu_fd, 0) TH_LOG("CPU-wide aux_test: %s", strerror(errno));
	snprintf(text, sizeof(text), "filter 0/0x100@/proc/self/exe");
	EXPECT_EQ(EOPNOTSUPP, set_filter(cpu_fd, text));
	EXPECT_EQ(0, set_filter(cpu_fd, "filter 0x1000/0x100"));
	close(cpu_fd);
	close(fd);
}

/* Where this program's code is mapped: start address and file offset. */
static int exe_text(unsigned long *start, unsigned long *offset)
{
	char exe[512], line[1024], path[512], perms[8];
	unsigned long end;
	ssize_t len;
	FILE *maps;
	int found = -1;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return -1;
	while (found && fgets(line, sizeof(line), maps)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %511s", start, &end,
			   perms, offset, path) < 4)
			continue;
		if (perms[2] == 'x' && !strcmp(path, exe))
			found = 0;
	}
	fclose(maps);
	return found;
}

/*
 * A kernel range reaches the driver as written; a range in this program's
 * file as the address where its code is mapped.
 */
TEST_F(writer, kernel_and_file_filters_reach_the_driver)
{
	unsigned long text_start, text_off;
	long page = page_size();
	char text[512];
	__u64 w[8];
	struct ring r;
	void *aux;
	int fd;

	ASSERT_EQ(0, exe_text(&text_start, &text_off));
	fd = open_filter_writer(self->type, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));

	snprintf(text, sizeof(text),
		 "filter 0x7f0000001000/0x2000,stop 0x%lx/0x40@/proc/self/exe",
		 text_off + 0x80);
	ASSERT_EQ(0, set_filter(fd, text));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(3);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(0, last_filters(&r, aux, w));
	EXPECT_EQ(2, w[0]);
	EXPECT_EQ(0x7f0000001000ULL, w[1]);
	EXPECT_EQ(0x2000, w[2]);
	EXPECT_EQ(ACT_FILTER, w[3]);
	EXPECT_EQ(text_start + 0x80, w[4]);
	EXPECT_EQ(0x40, w[5]);
	EXPECT_EQ(ACT_STOP, w[6]);
	EXPECT_GE(w[7], 1);

	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * A filter in a file that is not mapped yet has no address; mapping the
 * file's code gives it one, on the running event.
 */
TEST_F(writer, file_filter_follows_mmap)
{
	long page = page_size();
	char path[64], text[128];
	int fd, file;
	__u64 w[8];
	struct ring r;
	char *code;
	void *aux;

	snprintf(path, sizeof(path), "/tmp/pe-aux-filter-%d", getpid());
	file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(file, 0) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, ftruncate(file, 4 * page));

	fd = open_filter_writer(self->type, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));
	snprintf(text, sizeof(text), "filter 0x%lx/0x800@%s", page, path);
	ASSERT_EQ(0, set_filter(fd, text));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(3);
	ASSERT_EQ(0, last_filters(&r, aux, w));
	EXPECT_EQ(1, w[0]);
	EXPECT_EQ(0, w[1]);
	EXPECT_EQ(0, w[2]);

	code = mmap(NULL, 4 * page, PROT_READ | PROT_EXEC, MAP_PRIVATE, file,
		    0);
	if (code == MAP_FAILED) {
		unlink(path);
		SKIP(return, "no executable mapping of %s: %s", path,
		     strerror(errno));
	}
	switch_out(3);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, last_filters(&r, aux, w));
	EXPECT_EQ(1, w[0]);
	EXPECT_EQ((unsigned long)code + page, w[1]);
	EXPECT_EQ(0x800, w[2]);
	EXPECT_EQ(ACT_FILTER, w[3]);

	munmap(code, 4 * page);
	close(file);
	unlink(path);
	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * A filter in a file reached through overlayfs matches a mapping of that
 * file, although the mapping holds the overlay's lower file.
 */
TEST_F(writer, file_filter_through_an_overlay)
{
	long page = page_size();
	struct overlay o;
	char text[192];
	int fd, file;
	__u64 w[8];
	struct ring r;
	char *code;
	void *aux;

	if (overlay_make(&o, 4))
		SKIP(return, "no overlayfs here: %s", strerror(errno));
	fd = open_filter_writer(self->type, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));
	snprintf(text, sizeof(text), "filter 0x%lx/0x800@%s", page, o.file);
	ASSERT_EQ(0, set_filter(fd, text));

	file = open(o.file, O_RDONLY);
	ASSERT_GE(file, 0) TH_LOG("%s: %s", o.file, strerror(errno));
	code = mmap(NULL, 4 * page, PROT_READ | PROT_EXEC, MAP_PRIVATE, file,
		    0);
	if (code == MAP_FAILED) {
		close(file);
		overlay_remove(&o);
		SKIP(return, "no executable mapping of %s", o.file);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(3);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, last_filters(&r, aux, w));
	EXPECT_EQ(1, w[0]);
	EXPECT_EQ((unsigned long)code + page, w[1]);
	EXPECT_EQ(0x800, w[2]);
	EXPECT_EQ(ACT_FILTER, w[3]);

	munmap(code, 4 * page);
	close(file);
	overlay_remove(&o);
	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * A child maps the file's code (the range gets an address), then execs:
 * the new program has other mappings, so the range has none again.
 */
TEST_F(writer, exec_clears_file_ranges)
{
	struct aux_rec recs[256];
	int fd, file, go[2], n, i, itrace, status, mapped = 0;
	long page = page_size();
	char path[64], text[128];
	__u64 *w = NULL;
	struct ring r;
	pid_t pid;
	void *aux;

	snprintf(path, sizeof(path), "/tmp/pe-aux-exec-%d", getpid());
	file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(file, 0) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, ftruncate(file, 4 * page));
	ASSERT_EQ(0, pipe(go));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		char c;

		if (read(go[0], &c, 1) != 1)
			_exit(1);
		if (mmap(NULL, 4 * page, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 file, 0) == MAP_FAILED)
			_exit(2);
		switch_out(3);
		dup2(null, 1);
		dup2(null, 2);
		/* the harness prints its usage and exits */
		execl("/proc/self/exe", "aux", "-h", (char *)NULL);
		_exit(3);
	}

	fd = open_filter_writer(self->type, pid, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 8, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux) TH_LOG("aux mmap: %s", strerror(errno));
	snprintf(text, sizeof(text), "filter 0x%lx/0x800@%s", page, path);
	ASSERT_EQ(0, set_filter(fd, text));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	unlink(path);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		SKIP(return, "no executable mapping of %s", path);

	n = aux_records(&r, recs, 256, &itrace);
	ASSERT_GE(n, 2) TH_LOG("%d AUX records", n);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(64, recs[i].size);
		w = (__u64 *)((char *)aux + recs[i].offset);
		if (w[1])
			mapped++;
	}
	EXPECT_GE(mapped, 1);
	/* after the exec: no address */
	EXPECT_EQ(0, w[1]);
	EXPECT_EQ(0, w[2]);

	close(file);
	munmap(aux, 4 * page);
	ring_unmap(&r);
	close(fd);
}

/* The count of @fd, or -1 if read() fails. */
static long long read_count(int fd)
{
	__u64 v;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? (long long)v : -1;
}

/*
 * The PMU goes away under open events (6.16): perf_pmu_unregister() revokes
 * them.  Each keeps its last count for read(), a new mmap() is ENODEV,
 * poll() reports EPOLLHUP, a mapping made before stays readable, and
 * nothing reaches the driver again: its own, an inherited copy in a child
 * and a CPU-wide one.  The PMU can then be registered again.
 */
TEST_F(writer, unregister_under_live_events)
{
	long page = page_size();
	struct perf_event_attr attr;
	struct pollfd pfd;
	long long c1, c2;
	int fd, inh_fd, cpu_fd, go[2], status;
	struct ring r;
	void *aux;
	pid_t pid;
	char b;

	if (!self->enabled_here)
		SKIP(return, "aux_test was registered by someone else");

	fd = open_writer(self->type, 64);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	aux = aux_map(fd, &r, 4, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, aux);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(3);

	/* an inherited copy in a child that waits, and a CPU-wide event */
	aux_test_attr(&attr, self->type);
	attr.config = 64;
	attr.inherit = 1;
	inh_fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(inh_fd, 0) TH_LOG("inherited aux_test: %s", strerror(errno));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &b, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	attr.inherit = 0;
	cpu_fd = sys_perf_event_open(&attr, -1, 0, -1, 0);

	ASSERT_EQ(0, write_int(AUX_TEST_ENABLE, 0))
		TH_LOG("unregister with events open: %s", strerror(errno));
	self->enabled_here = 0;

	c1 = read_count(fd);
	ASSERT_GT(c1, 0);
	switch_out(3);
	c2 = read_count(fd);
	EXPECT_EQ(c1, c2);
	/* enabling it again changes nothing */
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	switch_out(3);
	EXPECT_EQ(c1, read_count(fd));

	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(ENODEV, errno);
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLHUP);
	/* what was mapped before stays mapped */
	EXPECT_LE(__atomic_load_n(&r.meta->aux_tail, __ATOMIC_ACQUIRE),
		  __atomic_load_n(&r.meta->aux_head, __ATOMIC_ACQUIRE));

	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(go[1]);
	EXPECT_GE(read_count(inh_fd), 0);
	close(inh_fd);
	if (cpu_fd >= 0) {
		EXPECT_GE(read_count(cpu_fd), 0);
		close(cpu_fd);
	}
	munmap(aux, 2 * page);
	ring_unmap(&r);
	close(fd);

	/* and back: a new registration takes new events */
	ASSERT_EQ(0, write_int(AUX_TEST_ENABLE, 1));
	self->enabled_here = 1;
	ASSERT_EQ(0, read_int(AUX_TEST_TYPE, &self->type));
	fd = open_writer(self->type, 64);
	ASSERT_GE(fd, 0) TH_LOG("after registering again: %s", strerror(errno));
	close(fd);
}

TEST_HARNESS_MAIN
