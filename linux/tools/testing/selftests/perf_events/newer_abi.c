// SPDX-License-Identifier: GPL-2.0
/*
 * What perf_event_open(2) gained in mainline after 6.12 and this core
 * provides on a 6.12 kernel: attr.config4 and PERF_ATTR_SIZE_VER9 (6.19),
 * deferred user callchains (6.19), ring-buffer pages mapped by mmap()
 * itself (6.14), EPOLLERR for a pinned event in the error state and the
 * wake-up that tells of it (6.15), throttling that stops a whole group,
 * the leader alone writing THROTTLE and UNTHROTTLE (6.16),
 * attr.sample_max_stack bounding the branch stack (6.15; shown with the
 * brstack_test PMU of our kernels, so 6.12 skips it), and samples of
 * user-only events that never show where in the kernel their interrupt
 * landed (7.3), and PERF_RECORD_READ of inherit_stat copies at child exit
 * (6.19), and /proc/PID/fdinfo of a perf fd naming the event's type
 * and config (7.2).  A 6.12 kernel fails the tests of those changes; that is the
 * difference of version the README lists.  The EPOLLRDNORM, data-page
 * write and cpu-clock REFRESH tests hold on every version (6.12 included;
 * 6.17 broke and 6.19 mended the last one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define BIG_ATTR	4096
#define DATA_PAGES	8
#define MAX_PINNED	64
#define REC_MAX		8192
#define MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"
#define BRSTACK_ENABLE	"/sys/module/brstack_test/parameters/enable"
#define BRSTACK_TYPE	"/sys/bus/event_source/devices/brstack_test/type"

/* A task-clock attr of @size bytes at the start of @buf (zeroed). */
static struct perf_event_attr *clock_attr(__u64 *buf, __u32 size)
{
	struct perf_event_attr *attr = (struct perf_event_attr *)buf;

	memset(buf, 0, BIG_ATTR);
	sw_attr(attr, PERF_COUNT_SW_TASK_CLOCK);
	attr->size = size;
	return attr;
}

/* The attr size the kernel knows, as E2BIG writes it back. */
TEST(attr_size_is_ver9)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr = clock_attr(buf, BIG_ATTR);

	((char *)buf)[BIG_ATTR - 1] = 1;
	ASSERT_EQ(E2BIG, perf_open_errno(attr));
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, attr->size);
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, sizeof(struct perf_event_attr));
}

/*
 * config4 is part of the attr a PMU gets, not an unknown tail: an event
 * with it set opens (the software PMU has no use for it), and a byte past
 * it is still refused.
 */
TEST(config4_is_accepted)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr;

	attr = clock_attr(buf, PERF_ATTR_SIZE_VER9);
	attr->config4 = 0x1234;
	EXPECT_EQ(0, perf_open_errno(attr));

	attr = clock_attr(buf, PERF_ATTR_SIZE_VER9 + 8);
	attr->config4 = 0x1234;
	((char *)buf)[PERF_ATTR_SIZE_VER9] = 1;
	EXPECT_EQ(E2BIG, perf_open_errno(attr));
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, attr->size);

	/* a VER8 caller's attr ends before config4: nothing is read there */
	attr = clock_attr(buf, PERF_ATTR_SIZE_VER8);
	attr->config4 = 0x1234;
	EXPECT_EQ(0, perf_open_errno(attr));
}

/* The bits after defer_output are still reserved. */
TEST(defer_callchain_bits_accepted)
{
	__u64 buf[BIG_ATTR / 8];
	struct perf_event_attr *attr;
	int fd;

	attr = clock_attr(buf, sizeof(*attr));
	attr->sample_period = 100000;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr->defer_callchain = 1;
	attr->defer_output = 1;
	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("defer_callchain, defer_output: %s",
				strerror(errno));
	if (fd >= 0)
		close(fd);

	attr->defer_output = 0;
	attr->__reserved_1 = 1;
	EXPECT_EQ(EINVAL, perf_open_errno(attr));
}

/*
 * What deferred_run() saw: the cookies of the samples (in order) and of
 * the CALLCHAIN_DEFERRED records, and where each record came.
 */
#define DEFER_MAX	256

struct defer_seen {
	int samples, records, no_marker;
	__u64 sample_cookie[DEFER_MAX];
	__u64 record_cookie[DEFER_MAX];
	int record_after[DEFER_MAX];	/* samples before the record */
};

/*
 * Sample this task's @config software event every @period with a
 * deferred user callchain and defer_output on the same event, run @work,
 * and sort the records into @seen.  Every record is checked: misc USER,
 * its frames start with PERF_CONTEXT_USER, its sample_id names this
 * thread.
 */
static void deferred_run(struct __test_metadata *_metadata,
			 struct defer_seen *seen, __u64 config, __u64 period,
			 int exclude_kernel, void (*work)(void))
{
	struct perf_event_attr attr;
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct ring r;
	int fd;

	memset(seen, 0, sizeof(*seen));
	sw_attr(&attr, config);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	attr.defer_callchain = 1;
	attr.defer_output = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-fault sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES * 4, PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, enable(fd));
	work();
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		__u64 nr, *ip;

		if (h->type == PERF_RECORD_SAMPLE) {
			/* pid/tid, nr, ips: the last two are marker, cookie */
			nr = buf[2];
			ip = &buf[3];
			if (nr < 2 || ip[nr - 2] != PERF_CONTEXT_USER_DEFERRED) {
				seen->no_marker++;
				continue;
			}
			if (seen->samples < DEFER_MAX)
				seen->sample_cookie[seen->samples] = ip[nr - 1];
			seen->samples++;
		} else if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED) {
			/* cookie, nr, ips, then pid/tid of sample_id */
			nr = buf[2];
			EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc);
			EXPECT_GE(nr, 2);
			EXPECT_EQ(PERF_CONTEXT_USER, buf[3]);
			EXPECT_EQ(sizeof(*h) + 16 + nr * 8 + 8, h->size);
			if (h->size == sizeof(*h) + 16 + nr * 8 + 8) {
				EXPECT_EQ(getpid(), half(buf[3 + nr], 0));
				EXPECT_EQ(gettid(), half(buf[3 + nr], 1));
			}
			if (seen->records < DEFER_MAX) {
				seen->record_cookie[seen->records] = buf[1];
				seen->record_after[seen->records] =
					seen->samples;
			}
			seen->records++;
		}
	}
	EXPECT_FALSE(r.bad);
	ring_unmap(&r);
	close(fd);
}

/* The index of the record with @cookie, or -1. */
static int defer_record_of(struct defer_seen *seen, __u64 cookie)
{
	int i;

	for (i = 0; i < seen->records && i < DEFER_MAX; i++)
		if (seen->record_cookie[i] == cookie)
			return i;
	return -1;
}

static void fault_16(void)
{
	touch_pages(16);
}

/* One kernel entry, 16 faults: read() from /dev/zero into fresh pages. */
static void read_into_16(void)
{
	long page = sysconf(_SC_PAGESIZE);
	ssize_t got;
	char *p;
	int fd;

	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return;
	p = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		madvise(p, 16 * page, MADV_NOHUGEPAGE);
		got = read(fd, p, 16 * page);
		(void)got;
		munmap(p, 16 * page);
	}
	close(fd);
}

/*
 * Faults taken in user mode: each is a kernel entry of its own, so each
 * sample has a cookie of its own, and its CALLCHAIN_DEFERRED record comes
 * before the next sample (the task writes it on its way back to user
 * space).  6.12 refuses the attr.
 */
TEST(deferred_callchain_per_kernel_entry)
{
	struct defer_seen seen;
	int i, rec;

	deferred_run(_metadata, &seen, PERF_COUNT_SW_PAGE_FAULTS, 1, 1,
		     fault_16);
	TH_LOG("%d samples with a deferred user part, %d without, %d records",
	       seen.samples, seen.no_marker, seen.records);
	ASSERT_GE(seen.samples, 16);
	EXPECT_EQ(0, seen.no_marker);
	for (i = 0; i < seen.samples && i < DEFER_MAX; i++) {
		rec = defer_record_of(&seen, seen.sample_cookie[i]);
		EXPECT_GE(rec, 0) TH_LOG("sample %d: no record", i);
		if (rec < 0)
			continue;
		EXPECT_EQ(i + 1, seen.record_after[rec]);
		if (i)
			EXPECT_NE(seen.sample_cookie[i - 1],
				  seen.sample_cookie[i]);
	}
}

static void burn_20ms(void)
{
	burn_cpu(20 * 1000 * 1000LL);
}

/*
 * Samples from a timer interrupt (task-clock, every 200 us, user mode
 * only).  Where the emulated CPU is slow, the timer may expire again
 * before its interrupt ends and take a second sample in the same entry:
 * consecutive samples may share a cookie.  Each cookie's record comes
 * after the last sample that has it and before the next sample.
 */
TEST(deferred_callchain_from_irq)
{
	struct defer_seen seen;
	int i, last, rec;

	deferred_run(_metadata, &seen, PERF_COUNT_SW_TASK_CLOCK, 200 * 1000,
		     1, burn_20ms);
	TH_LOG("%d samples with a deferred user part, %d without, %d records",
	       seen.samples, seen.no_marker, seen.records);
	ASSERT_GE(seen.samples, 1);
	EXPECT_EQ(0, seen.no_marker);
	for (i = 0; i < seen.samples && i < DEFER_MAX; i = last + 1) {
		for (last = i; last + 1 < seen.samples && last + 1 < DEFER_MAX;
		     last++)
			if (seen.sample_cookie[last + 1] != seen.sample_cookie[i])
				break;
		rec = defer_record_of(&seen, seen.sample_cookie[i]);
		EXPECT_GE(rec, 0) TH_LOG("sample %d: no record", i);
		if (rec >= 0)
			EXPECT_EQ(last + 1, seen.record_after[rec]);
	}
}

/*
 * Faults taken in the kernel, in one read(): the samples of that entry
 * share one cookie and one CALLCHAIN_DEFERRED record, written after them.
 * Counting kernel faults needs perf_event_paranoid <= 1 or CAP_PERFMON.
 */
TEST(deferred_callchain_shared_in_one_entry)
{
	struct defer_seen seen;
	int i, rec, shared = 0;

	deferred_run(_metadata, &seen, PERF_COUNT_SW_PAGE_FAULTS, 1, 0,
		     read_into_16);
	TH_LOG("%d samples with a deferred user part, %d without, %d records",
	       seen.samples, seen.no_marker, seen.records);
	ASSERT_GE(seen.samples, 16);
	EXPECT_EQ(0, seen.no_marker);
	for (i = 1; i < seen.samples && i < DEFER_MAX; i++)
		shared += seen.sample_cookie[i] == seen.sample_cookie[i - 1];
	/* the read()'s 16 faults, whatever faults the mmap() set-up took */
	EXPECT_GE(shared, 15);
	EXPECT_LE(seen.records, seen.samples - shared);
	for (i = 0; i < seen.samples && i < DEFER_MAX; i++) {
		rec = defer_record_of(&seen, seen.sample_cookie[i]);
		EXPECT_GE(rec, 0) TH_LOG("sample %d: no record", i);
		if (rec >= 0)
			EXPECT_GT(seen.record_after[rec], i);
	}
}

/* poll() with no wait: the events reported now. */
static short poll_now(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

/* A pinned cycles event whose read() gives the times too. */
static void pinned_cycles_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = PERF_COUNT_HW_CPU_CYCLES;
	attr->pinned = 1;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/*
 * Opens events of @attr (pinned, read with both times) on this task into
 * @fd until one is in the error state at once (its read() gives end of
 * file) or MAX_PINNED are open.  Returns how many were opened, the one in
 * error last, with *@misfit set; -1 if the first open failed (errno).
 */
static int open_pinned_until_error(struct perf_event_attr *attr, int *fd,
				   int *misfit)
{
	__u64 v[3];
	int n;

	*misfit = 0;
	for (n = 0; n < MAX_PINNED; n++) {
		fd[n] = sys_perf_event_open(attr, 0, -1, -1, 0);
		if (fd[n] < 0)
			return n ? n : -1;
		if (read(fd[n], v, sizeof(v)) == 0) {
			*misfit = 1;
			return n + 1;
		}
	}
	return n;
}

/*
 * A pinned event that cannot get a counter goes into the error state for
 * good (until enabled again): poll() says EPOLLERR (6.15 as released; its
 * first version said EPOLLHUP, which means the task is gone), and read()
 * returns end of file.  Pinned cycles events are opened on this task until
 * one does not fit; needs a hardware PMU.  The event has a ring buffer,
 * so that 6.12's answer (nothing to report) is told apart.
 */
TEST(pinned_error_state_polls_err)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	int fd[MAX_PINNED], n, i, misfit, err;
	__u64 v[3];
	void *m, *m0;

	pinned_cycles_attr(&attr);
	n = open_pinned_until_error(&attr, fd, &misfit);
	if (n < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
		      errno == ENODEV))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_TRUE(misfit) TH_LOG("%d pinned cycles events all fit", n);
	err = fd[n - 1];
	TH_LOG("pinned cycles event %d is in the error state", n);

	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, err, 0);
	ASSERT_NE(MAP_FAILED, m);
	m0 = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd[0], 0);
	ASSERT_NE(MAP_FAILED, m0);
	/* a running one with a buffer and nothing to read: no events */
	EXPECT_EQ(0, poll_now(fd[0], POLLIN));
	EXPECT_EQ(POLLERR, poll_now(err, POLLIN) & (POLLHUP | POLLERR));
	EXPECT_EQ(0, read(err, v, sizeof(v)));
	munmap(m0, page);
	munmap(m, page);
	for (i = 0; i < n; i++)
		close(fd[i]);
}

static atomic_int err_sigio_count, err_sigio_code;

static void on_err_sigio(int sig, siginfo_t *info, void *uc)
{
	err_sigio_count++;
	err_sigio_code = info->si_code;
}

struct poll_waiter {
	int fd;
	short revents;
};

static void *poll_waiter_run(void *arg)
{
	struct poll_waiter *w = arg;
	struct pollfd p = { .fd = w->fd, .events = POLLIN };

	if (poll(&p, 1, 3000) > 0)
		w->revents = p.revents;
	return NULL;
}

/*
 * Going into the error state is news to the event's readers (6.15): a
 * poll() already waiting on the event wakes up with EPOLLERR, and an
 * O_ASYNC owner gets SIGIO with si_code POLL_ERR.  The pinned cycles
 * events that fit are opened enabled; one more is opened disabled, with
 * a buffer, and enabled while another thread waits in poll().  6.12
 * wakes no one.  Needs a hardware PMU.
 */
TEST(pinned_error_wakes_poll_and_sigio)
{
	long page = sysconf(_SC_PAGESIZE);
	struct poll_waiter w = { .revents = 0 };
	struct sigaction sa = { 0 };
	struct perf_event_attr attr;
	int fd[MAX_PINNED], n, i, e, misfit;
	pthread_t th;
	void *m;

	pinned_cycles_attr(&attr);
	n = open_pinned_until_error(&attr, fd, &misfit);
	if (n < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
		      errno == ENODEV))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_TRUE(misfit) TH_LOG("%d pinned cycles events all fit", n);
	close(fd[--n]);			/* the first that did not fit */

	attr.disabled = 1;
	e = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(e, 0) TH_LOG("one more, disabled: %s", strerror(errno));
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, e, 0);
	ASSERT_NE(MAP_FAILED, m);
	sa.sa_sigaction = on_err_sigio;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_EQ(0, sigaction(SIGIO, &sa, NULL));
	ASSERT_EQ(0, fcntl(e, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(e, F_SETSIG, SIGIO));
	ASSERT_EQ(0, fcntl(e, F_SETFL, O_ASYNC));
	EXPECT_EQ(0, poll_now(e, POLLIN));	/* off: nothing to report */

	w.fd = e;
	ASSERT_EQ(0, pthread_create(&th, NULL, poll_waiter_run, &w));
	usleep(200000);			/* the waiter sits in poll() */
	ASSERT_EQ(0, ioctl(e, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(POLLERR, w.revents & (POLLIN | POLLHUP | POLLERR))
		TH_LOG("the waiter saw %#x", w.revents);
	for (i = 0; i < 1000 && !atomic_load(&err_sigio_count); i++)
		usleep(1000);
	EXPECT_EQ(1, atomic_load(&err_sigio_count));
	EXPECT_EQ(POLL_ERR, atomic_load(&err_sigio_code));

	fcntl(e, F_SETFL, 0);
	signal(SIGIO, SIG_DFL);
	munmap(m, page);
	close(e);
	for (i = 0; i < n; i++)
		close(fd[i]);
}

/*
 * A ring buffer's wake-up reports POLLRDNORM with POLLIN, so a reader
 * that polls for either sees it.
 */
TEST(wakeup_polls_in_and_rdnorm)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	short rev;
	void *m;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	m = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m);

	EXPECT_EQ(0, poll_now(fd, POLLIN | POLLRDNORM));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, touch_pages(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rev = poll_now(fd, POLLIN | POLLRDNORM);
	EXPECT_EQ(POLLIN | POLLRDNORM, rev & (POLLIN | POLLRDNORM))
		TH_LOG("revents %#x", rev);

	munmap(m, (1 + DATA_PAGES) * page);
	close(fd);
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

/*
 * In a writable mapping user space writes the control page (data_tail)
 * and nothing else: a write to a data page gets SIGBUS, whether the page
 * was already mapped or not.
 */
TEST(data_page_write_sigbus)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (1 + DATA_PAGES) * page;
	struct perf_event_mmap_page *up;
	struct perf_event_attr attr;
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	char *data;
	int fd, bus;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up);

	up->data_tail = 0;
	data = (char *)up + page;
	EXPECT_EQ(0, __atomic_load_n(data, __ATOMIC_RELAXED));

	ASSERT_EQ(0, sigaction(SIGBUS, &sa, &old));
	bus = sigsetjmp(bus_jmp, 1);
	if (!bus)
		__atomic_store_n(data, 1, __ATOMIC_RELAXED);
	sigaction(SIGBUS, &old, NULL);
	EXPECT_EQ(1, bus);
	EXPECT_EQ(0, __atomic_load_n(data, __ATOMIC_RELAXED));

	munmap(up, len);
	close(fd);
}

/* ---------------------------------------------------------------------
 * Ring-buffer pages mapped at mmap() (6.14)
 */

/* The minor page faults this process has taken so far. */
static long minor_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return -1;
	return ru.ru_minflt;
}

/*
 * mmap() maps the whole buffer, the control page and every data page, in
 * a writable mapping and in a read-only (overwrite) one: a reader's first
 * pass over it takes no page fault.  6.12 mapped each page at its first
 * touch, one minor fault each.
 */
TEST(ring_pages_mapped_at_mmap)
{
	long page = sysconf(_SC_PAGESIZE), n = 1 + DATA_PAGES, before, faults;
	int prots[] = { PROT_READ | PROT_WRITE, PROT_READ };
	struct perf_event_attr attr;
	char *warm, *ring;
	unsigned int i;
	int fd;

	/* this code and its stack take their own faults first */
	warm = malloc(n * page);
	ASSERT_NE(NULL, warm);
	memset(warm, 0, n * page);
	read_pages(warm, n, page);
	minor_faults();

	for (i = 0; i < ARRAY_SIZE(prots); i++) {
		sw_attr(&attr, PERF_COUNT_SW_DUMMY);
		attr.sample_period = 1;
		attr.mmap = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
		ring = mmap(NULL, n * page, prots[i], MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, ring) TH_LOG("mmap: %s", strerror(errno));

		before = minor_faults();
		read_pages(ring, n, page);
		faults = minor_faults() - before;
		EXPECT_EQ(0, faults)
			TH_LOG("%s mapping: %ld faults reading %ld pages",
			       prots[i] & PROT_WRITE ? "writable" : "read-only",
			       faults, n);

		munmap(ring, n * page);
		close(fd);
	}
	free(warm);
}

/*
 * A ring buffer mapped write-only (PROT_WRITE alone) can have its control
 * page written and then read, as any mapping.  Whether its data pages can
 * be read is the architecture's rule (x86 lets a write-only page be read;
 * arm64 sends SIGSEGV).  What must not happen is a read that faults for
 * ever, as on a kernel that filled such a mapping with inaccessible
 * entries at mmap(): a child reads under an alarm.
 */
TEST(ring_mapped_write_only)
{
	long page = sysconf(_SC_PAGESIZE), n = 1 + DATA_PAGES;
	struct perf_event_mmap_page *meta;
	struct perf_event_attr attr;
	int fd, status;
	char *ring;
	pid_t pid;

	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.sample_period = 1;
	attr.mmap = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ring = mmap(NULL, n * page, PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ring) TH_LOG("mmap: %s", strerror(errno));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		alarm(10);
		meta = (struct perf_event_mmap_page *)ring;
		meta->data_tail = 0;
		if (meta->data_tail != 0 || meta->data_head > n * page)
			_exit(1);
		/* the data pages: read, or SIGSEGV where the CPU says so */
		read_pages(ring + page, n - 1, page);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
		    (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV))
		TH_LOG("reader: status 0x%x (SIGALRM: it kept faulting)",
		       status);

	munmap(ring, n * page);
	close(fd);
}

/* ---------------------------------------------------------------------
 * Throttling a group (6.16)
 */

/* A leader and one member, sampling or counting, on this thread. */
/* a sampling group, and the sample rate to put back */
struct throttle_group {
	int saved_rate;
	int leader, member;
	struct ring leader_ring, member_ring;
};

FIXTURE(group_throttle)
{
	struct throttle_group g;
};

FIXTURE_SETUP(group_throttle)
{
	memset(&self->g.leader_ring, 0, sizeof(self->g.leader_ring));
	memset(&self->g.member_ring, 0, sizeof(self->g.member_ring));
	self->g.leader = -1;
	self->g.member = -1;
	if (read_int(MAX_RATE_PATH, &self->g.saved_rate))
		self->g.saved_rate = 0;
}

FIXTURE_TEARDOWN(group_throttle)
{
	ring_unmap(&self->g.member_ring);
	ring_unmap(&self->g.leader_ring);
	if (self->g.member >= 0)
		close(self->g.member);
	if (self->g.leader >= 0)
		close(self->g.leader);
	if (self->g.saved_rate > 0)
		write_int(MAX_RATE_PATH, self->g.saved_rate);
}

/*
 * A clock event for the group: a cpu-clock sampler every 10 us, or a
 * task-clock counter; both with TID, TIME and ID on their records, and a
 * group read with the times.
 */
static void group_clock_attr(struct perf_event_attr *attr, int sampler)
{
	sw_attr(attr, sampler ? PERF_COUNT_SW_CPU_CLOCK :
				PERF_COUNT_SW_TASK_CLOCK);
	attr->sample_period = sampler ? 10000 : 0;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_ID;
	attr->sample_id_all = 1;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			    PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * Open the group (the leader disabled), map a ring on each, lower the
 * sample rate to 100 a second (one interrupt a tick: the sampler's first
 * overflow of each tick throttles it), and run it for 200 ms of CPU.
 * Returns 0, or -1 with a skip reason in @why.
 */
static int group_throttle_run(struct throttle_group *g, int leader_samples,
			      const char **why)
{
	struct perf_event_attr attr;

	*why = NULL;
	if (g->saved_rate <= 0) {
		*why = "no " MAX_RATE_PATH;
		return -1;
	}
	if (write_int(MAX_RATE_PATH, 100)) {
		*why = "cannot lower the sample rate";
		return -1;
	}
	group_clock_attr(&attr, leader_samples);
	attr.disabled = 1;
	g->leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (g->leader < 0)
		return -1;
	group_clock_attr(&attr, !leader_samples);
	g->member = sys_perf_event_open(&attr, 0, -1, g->leader, 0);
	if (g->member < 0)
		return -1;
	if (ring_map(&g->leader_ring, g->leader, 16,
		     PROT_READ | PROT_WRITE) ||
	    ring_map(&g->member_ring, g->member, 16,
		     PROT_READ | PROT_WRITE))
		return -1;
	if (ioctl(g->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return -1;
	burn_cpu(200 * 1000 * 1000LL);
	return ioctl(g->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

/* THROTTLE and UNTHROTTLE records in @r, each checked to name @id. */
static int count_throttle_records(struct __test_metadata *_metadata,
				  struct ring *r, __u64 id, int *samples)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	*samples = 0;
	while ((h = ring_next(r, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_SAMPLE)
			(*samples)++;
		if (h->type != PERF_RECORD_THROTTLE &&
		    h->type != PERF_RECORD_UNTHROTTLE)
			continue;
		/* time, id, stream_id, then the sample_id trailer */
		EXPECT_EQ(id, buf[2]);
		EXPECT_EQ(id, buf[3]);
		n++;
	}
	EXPECT_FALSE(r->bad);
	return n;
}

/*
 * The sampler leads and throttles at the first interrupt of each tick:
 * its counting member stops with it, so over the run both clocks count
 * the same part of the time the group was on the PMU (6.12 stopped the
 * sampler alone, and the member counted all of it).
 */
TEST_F(group_throttle, throttle_stops_the_whole_group)
{
	struct { __u64 nr, enabled, running, v[2][2]; } rd;
	const char *why;
	int samples, n;

	if (group_throttle_run(&self->g, 1, &why)) {
		if (why)
			SKIP(return, "%s", why);
		ASSERT_TRUE(0) TH_LOG("group: %s", strerror(errno));
	}
	ASSERT_EQ(sizeof(rd), read(self->g.leader, &rd, sizeof(rd)));
	ASSERT_EQ(2, rd.nr);
	n = count_throttle_records(_metadata, &self->g.leader_ring,
				   rd.v[0][1], &samples);
	TH_LOG("%d samples, %d throttle records; sampler counted %llu, member %llu of %llu ns running",
	       samples, n, rd.v[0][0], rd.v[1][0], rd.running);
	EXPECT_GE(n, 2);
	EXPECT_GT(rd.running, 100 * 1000 * 1000ULL);
	/*
	 * How long the group stays throttled depends on how soon the CPU
	 * fires the sampler's timer after each tick, and on a loaded host an
	 * emulated CPU may fire it late: the part of the running time either
	 * clock counts says little.  What the throttle decides is that the
	 * member counts what the sampler counts.  6.12 lets the member run
	 * on, counting the whole running time, ahead of the sampler by all
	 * the time it spent throttled.
	 */
	EXPECT_LT(rd.v[1][0], rd.v[0][0] + rd.running / 20);
}

/*
 * The member samples and throttles; the records go to the leader's
 * buffer, naming the leader, and none to the member's own (6.12 wrote
 * them to the member's).
 */
TEST_F(group_throttle, throttle_records_come_from_the_leader)
{
	__u64 leader_id, member_id;
	int samples, n;
	const char *why;

	if (group_throttle_run(&self->g, 0, &why)) {
		if (why)
			SKIP(return, "%s", why);
		ASSERT_TRUE(0) TH_LOG("group: %s", strerror(errno));
	}
	leader_id = event_id(self->g.leader);
	member_id = event_id(self->g.member);
	n = count_throttle_records(_metadata, &self->g.member_ring, member_id,
				   &samples);
	EXPECT_GE(samples, 1);
	EXPECT_EQ(0, n);
	n = count_throttle_records(_metadata, &self->g.leader_ring, leader_id,
				   &samples);
	TH_LOG("%d throttle records in the leader's buffer", n);
	EXPECT_EQ(0, samples);
	EXPECT_GE(n, 2);
}

/*
 * attr.sample_max_stack bounds the branch stack of a sample as well as
 * its callchain (6.15).  No PMU here records branches, so the samples
 * come from brstack_test, a clock of our debug PMUs whose stacks have
 * attr.config entries numbered from 1, newest first.
 */
FIXTURE(brstack)
{
	int type;
	int enabled_here;
};

FIXTURE_SETUP(brstack)
{
	int on = 0;

	self->type = -1;
	self->enabled_here = 0;
	if (read_int(BRSTACK_ENABLE, &on))
		SKIP(return, "no brstack_test PMU (a test PMU of our kernels)");
	if (!on) {
		if (write_int(BRSTACK_ENABLE, 1))
			SKIP(return, "cannot enable brstack_test: %s",
			     strerror(errno));
		self->enabled_here = 1;
	}
	ASSERT_EQ(0, read_int(BRSTACK_TYPE, &self->type));
}

FIXTURE_TEARDOWN(brstack)
{
	int i;

	/* event memory goes a little after close(): try for a while */
	for (i = 0; self->enabled_here && i < 100; i++) {
		if (!write_int(BRSTACK_ENABLE, 0))
			break;
		usleep(10000);
	}
}

/*
 * Sample @entries-entry stacks every 100 us of this task for 10 ms of
 * CPU with @max_stack, and check that every sample has @expect entries,
 * the newest ones.  Returns the number of samples.
 */
static int brstack_samples(struct __test_metadata *_metadata, int type,
			   int entries, int max_stack, int expect)
{
	struct perf_branch_entry *e;
	struct perf_event_attr attr;
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	int fd, i, samples = 0;
	struct ring r;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = entries;
	attr.sample_period = 100 * 1000;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	attr.sample_max_stack = max_stack;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		TH_LOG("brstack_test: %s", strerror(errno));
		return -1;
	}
	if (ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE)) {
		close(fd);
		return -1;
	}
	EXPECT_EQ(0, enable(fd));
	burn_cpu(10 * 1000 * 1000LL);
	EXPECT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		/* pid/tid, nr, then nr entries of three words */
		EXPECT_EQ(sizeof(*h) + 16 + expect * sizeof(*e), h->size);
		EXPECT_EQ(expect, buf[2]);
		if (buf[2] != (__u64)expect)
			break;
		e = (struct perf_branch_entry *)&buf[3];
		for (i = 0; i < expect; i++) {
			EXPECT_EQ(i + 1, e[i].from);
			EXPECT_EQ(i + 2, e[i].to);
		}
	}
	EXPECT_FALSE(r.bad);
	ring_unmap(&r);
	close(fd);
	return samples;
}

TEST_F(brstack, sample_max_stack_bounds_branch_stack)
{
	EXPECT_GE(brstack_samples(_metadata, self->type, 8, 3, 3), 1);
	EXPECT_GE(brstack_samples(_metadata, self->type, 8, 1, 1), 1);
}

/* At or above the stack's depth, and by default, the stack is whole. */
TEST_F(brstack, branch_stack_whole_within_sample_max_stack)
{
	EXPECT_GE(brstack_samples(_metadata, self->type, 8, 8, 8), 1);
	EXPECT_GE(brstack_samples(_metadata, self->type, 8, 100, 8), 1);
	EXPECT_GE(brstack_samples(_metadata, self->type, 8, 0, 8), 1);
}

/*
 * Skid (7.3): the interrupt of a user-only hardware event can land after
 * its task entered the kernel.  The sample still shows a user address,
 * user mode in its header and no kernel frames in its callchain.  A loop
 * of system calls between short stretches of user work makes such
 * landings common (on QEMU's PMUv3 the overflow is seen at the exception
 * that leaves user space).  Needs a hardware PMU.
 */
TEST(exclude_kernel_samples_carry_no_kernel_ip)
{
	int fd, i, samples = 0, kernel_ip = 0, kernel_mode = 0, kernel_chain = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8], nr;
	long long end;
	struct ring r;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	attr.sample_period = 50000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
		       errno == ENODEV))
		SKIP(return, "no hardware PMU: %s", strerror(errno));
	ASSERT_GE(fd, 0) TH_LOG("cycles:u sampler: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 64, PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, enable(fd));
	end = monotonic_ns() + 300 * 1000 * 1000LL;
	while (monotonic_ns() < end) {
		for (i = 0; i < 20; i++)
			getppid();
		burn_cpu(20000);
		/* keep reading, so that no sample is lost for room */
		while ((h = ring_next(&r, buf, sizeof(buf)))) {
			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			samples++;
			if (buf[1] >> 63)
				kernel_ip++;
			if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
			    PERF_RECORD_MISC_USER)
				kernel_mode++;
			nr = buf[2];
			for (i = 0; i < (int)nr && 3 + i < REC_MAX / 8; i++)
				if (buf[3 + i] == (__u64)PERF_CONTEXT_KERNEL)
					kernel_chain++;
		}
		ring_publish(&r);
	}
	ASSERT_EQ(0, disable(fd));
	EXPECT_FALSE(r.bad);
	TH_LOG("%d samples: %d with a kernel IP, %d not in user mode, %d with kernel frames",
	       samples, kernel_ip, kernel_mode, kernel_chain);
	if (!samples)
		SKIP(goto out, "no cycles:u sample in 300 ms");
	EXPECT_EQ(0, kernel_ip);
	EXPECT_EQ(0, kernel_mode);
	EXPECT_EQ(0, kernel_chain);
out:
	ring_unmap(&r);
	close(fd);
}

/*
 * An inherit_stat event's copy writes PERF_RECORD_READ into the parent's
 * buffer when its task exits: the child's pid and tid and its count.
 * Parent and child are kept on CPU 0, where the event counts.  6.19 put
 * the record back; 6.12 writes none (its exit path marks the context's
 * task gone before it folds the counts).
 */
TEST(inherit_stat_read_record_at_child_exit)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	int fd, go, found = 0;
	struct ring r;
	pid_t child;

	/* per CPU, as perf record opens it: a per-task one has no buffer */
	ASSERT_EQ(0, pin_to_cpu(0, 0));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.inherit_stat = 1;
	fd = sys_perf_event_open(&attr, 0, 0, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("inherit_stat task-clock: %s",
				strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, DATA_PAGES, PROT_READ | PROT_WRITE));

	child = fork_waiting_burner(20 * 1000 * 1000LL, &go);
	ASSERT_GT(child, 0);
	ASSERT_EQ(0, release_child(child, go));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_READ)
			continue;
		/* pid, tid; then the value (read_format 0) */
		ASSERT_GE(h->size, sizeof(*h) + 16);
		if (half(buf[1], 0) != (__u32)child ||
		    half(buf[1], 1) != (__u32)child)
			continue;
		found++;
		TH_LOG("the child's count: %llu ns",
		       (unsigned long long)buf[2]);
		EXPECT_GE(buf[2], 10 * 1000 * 1000ULL);
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);

	ring_unmap(&r);
	close(fd);
}

static int refresh_fd;
static atomic_int refresh_signals, refresh_hups, refresh_errors;

/* Each time the limit runs out, let one more overflow through. */
static void on_refresh_sigio(int sig, siginfo_t *info, void *uc)
{
	refresh_signals++;
	if (info->si_code == POLL_HUP)
		refresh_hups++;
	if (ioctl(refresh_fd, PERF_EVENT_IOC_REFRESH, 1))
		refresh_errors++;
}

/*
 * A cpu-clock sampler that PERF_EVENT_IOC_REFRESH lets overflow once at a
 * time, re-armed from its SIGIO handler: each overflow stops it inside
 * the clock's own timer callback (6.17 made that stop hang the system;
 * 6.19 fixed it), POLL_HUP comes, the handler refreshes it.  The count
 * is not lost on the way (a cpu-clock read 0 before 6.19).
 */
TEST(cpu_clock_refreshed_from_its_signal_handler)
{
	struct sigaction sa = { 0 }, old;
	struct perf_event_attr attr;
	__u64 count;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 1;
	attr.sample_period = 200 * 1000;	/* 200 us */
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	refresh_fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(refresh_fd, 0) TH_LOG("cpu-clock sampler: %s",
					strerror(errno));
	sa.sa_sigaction = on_refresh_sigio;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGIO, &sa, &old));
	ASSERT_EQ(0, fcntl(refresh_fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(refresh_fd, F_SETSIG, SIGIO));
	ASSERT_EQ(0, fcntl(refresh_fd, F_SETFL, O_ASYNC));

	ASSERT_EQ(0, ioctl(refresh_fd, PERF_EVENT_IOC_REFRESH, 1));
	burn_cpu(200 * 1000 * 1000LL);
	ASSERT_EQ(0, disable(refresh_fd));
	fcntl(refresh_fd, F_SETFL, 0);
	sigaction(SIGIO, &old, NULL);
	count = read_value(refresh_fd);

	TH_LOG("%d signals, %d POLL_HUP, count %llu ns",
	       atomic_load(&refresh_signals), atomic_load(&refresh_hups),
	       (unsigned long long)count);
	EXPECT_GE(atomic_load(&refresh_signals), 3);
	EXPECT_GE(atomic_load(&refresh_hups), 3);
	EXPECT_EQ(0, atomic_load(&refresh_errors));
	EXPECT_GT(count, 0);
	EXPECT_NE(~0ULL, count);
	close(refresh_fd);
}

/*
 * /proc/self/fdinfo/FD of a perf fd names the event's type and config in
 * decimal, one "name:\tvalue" line each: the perf tool reads the type
 * there to name the processes that keep a PMU busy.
 */
TEST(fdinfo_names_type_and_config)
{
	struct perf_event_attr attr;
	char path[64], buf[4096];
	unsigned int type = ~0U;
	unsigned long long config = ~0ULL;
	char *line;
	ssize_t len;
	int fd, info;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	info = open(path, O_RDONLY);
	ASSERT_GE(info, 0) TH_LOG("%s: %s", path, strerror(errno));
	len = read(info, buf, sizeof(buf) - 1);
	close(info);
	close(fd);
	ASSERT_GT(len, 0);
	buf[len] = 0;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		sscanf(line, "perf_event_attr.type:\t%u", &type);
		sscanf(line, "perf_event_attr.config:\t%llu", &config);
	}
	EXPECT_EQ(PERF_TYPE_SOFTWARE, type);
	EXPECT_EQ(PERF_COUNT_SW_PAGE_FAULTS, config);
}

/*
 * 6.13: a sample holds only what sample_type asks for.  A BPF program
 * writing with bpf_perf_event_output() into a bpf-output event whose
 * sample_type has PERF_SAMPLE_TIME alone gets records of a header and
 * the time: no raw data, whose size the reader could not know.
 */
#define BPF_HELPER_PERF_EVENT_OUTPUT	25	/* BPF_FUNC_perf_event_output */

/*
 * "u64 v = 0x55667788; bpf_perf_event_output(ctx, map, BPF_F_CURRENT_CPU,
 * &v, 8); return 0", as BPF instructions, with @map_fd in its load.
 */
static int load_output_prog(int map_fd)
{
	struct bpf_insn insns[] = {
		/* *(u64 *)(r10 - 8) = 0x55667788 */
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8,
		  .imm = 0x55667788 },
		/* r2 = map (two instructions, the map's fd in the first) */
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 2,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		/* w3 = BPF_F_CURRENT_CPU (0xffffffff, zero-extended) */
		{ .code = BPF_ALU | BPF_MOV | BPF_K, .dst_reg = 3, .imm = -1 },
		/* r4 = r10 - 8 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 4, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 4, .imm = -8 },
		/* r5 = 8; call; r0 = 0; exit */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 5, .imm = 8 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_HELPER_PERF_EVENT_OUTPUT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_PERF_EVENT;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uintptr_t)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

TEST(bpf_output_sample_holds_only_sample_type)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	union bpf_attr ma;
	__u64 buf[REC_MAX / 8];
	int out, clk, map, prog, key = 0, n = 0, sized = 0;
	cpu_set_t cpu0;
	struct ring r;

	/* the program runs on CPU 0, where the map's one event is */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));

	sw_attr(&attr, PERF_COUNT_SW_BPF_OUTPUT);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TIME;
	attr.wakeup_events = 1;
	out = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (out < 0)
		SKIP(return, "no CPU-wide bpf-output event: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, out, DATA_PAGES, PROT_READ | PROT_WRITE));

	memset(&ma, 0, sizeof(ma));
	ma.map_type = BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	ma.key_size = 4;
	ma.value_size = 4;
	ma.max_entries = 1;
	map = sys_bpf(BPF_MAP_CREATE, &ma);
	if (map < 0)
		SKIP(return, "no perf event array map: %s", strerror(errno));
	memset(&ma, 0, sizeof(ma));
	ma.map_fd = map;
	ma.key = (uintptr_t)&key;
	ma.value = (uintptr_t)&out;
	ASSERT_EQ(0, sys_bpf(BPF_MAP_UPDATE_ELEM, &ma)) TH_LOG("%s", strerror(errno));
	prog = load_output_prog(map);
	if (prog < 0)
		SKIP(return, "BPF program not loaded: %s", strerror(errno));

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 200000;
	attr.disabled = 1;
	clk = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, clk) TH_LOG("cpu-clock: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(clk, PERF_EVENT_IOC_SET_BPF, prog))
		TH_LOG("SET_BPF: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(clk, PERF_EVENT_IOC_ENABLE, 0));
	burn_20ms();
	burn_20ms();
	ASSERT_EQ(0, ioctl(clk, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		sized += h->size == sizeof(*h) + 8;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_LT(0, n) TH_LOG("no sample from the program");
	EXPECT_EQ(n, sized) TH_LOG("%d of %d samples carry more than the time",
				   n - sized, n);
	close(clk);
	close(prog);
	close(map);
	ring_unmap(&r);
	close(out);
}

TEST_HARNESS_MAIN
