// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) under races between the owner of an event and the
 * task, thread, buffer or CPU it is attached to: closing an event while
 * its task exits, reading it after that, closing a group leader while its
 * siblings count, inheriting a counter into thousands of short threads,
 * remapping a ring buffer under a stream of samples, tearing down a chain
 * of SET_OUTPUT redirections, CPU hotplug under CPU-wide events, and the
 * bytes of every record the kernel writes to a ring buffer (none may be
 * left uninitialised).
 *
 * Each test checks the documented behaviour that must survive the race,
 * not only that the kernel did not crash; the debug guests' KASAN,
 * lockdep and kmemleak watch the rest.  Run as root, most tests run twice:
 * as root, then in a child that became uid/gid 65534 with
 * /proc/sys/kernel/perf_event_paranoid set for it (and set back after).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/compiler.h>	/* tools/include's: noinline */
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define GUEST_MARK	"harness.plan="
#define NOBODY		65534
#define TIMES		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)
/* SET_OUTPUT's "no target": -1 as an unsigned long. */
#define NO_OUTPUT	(-1L)
/* Wall-clock budget of one pass (root or nobody) of a looping test. */
#define PASS_NS		(3LL * 1000 * 1000 * 1000)
#define MS		(1000 * 1000LL)
#define POISON		0xa5
#define POISON64	0xa5a5a5a5a5a5a5a5ULL
#define REC_MAX		65536

typedef void (*body_fn)(struct __test_metadata *_metadata);

/* value, time_enabled, time_running */
struct reading {
	__u64 value;
	__u64 enabled;
	__u64 running;
};

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

/* Safety net: whatever happens to a test, these settings come back. */
static pid_t main_pid;
static int saved_paranoid;
static int have_paranoid;

static int in_guest(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !!strstr(buf, GUEST_MARK);
}

static void __attribute__((constructor)) save_settings(void)
{
	main_pid = getpid();
	have_paranoid = read_int(PARANOID, &saved_paranoid) == 0;
}

static void __attribute__((destructor)) restore_settings(void)
{
	int on;

	if (getpid() != main_pid || geteuid())
		return;
	if (have_paranoid)
		write_int(PARANOID, saved_paranoid);
	if (in_guest() && read_int(CPU1_ONLINE, &on) == 0 && !on)
		write_int(CPU1_ONLINE, 1);
}

static int read_times(int fd, struct reading *r)
{
	return read(fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
}

/*
 * Run @body once more, in a child that is uid/gid 65534 with no
 * capabilities, at perf_event_paranoid @paranoid.  The child's own
 * ASSERT/EXPECT results come back through its exit status.  Without root
 * the body has just run unprivileged already; nothing to do.
 */
static void as_nobody(struct __test_metadata *_metadata, body_fn body,
		      int paranoid)
{
	int old, status;
	pid_t pid;

	if (geteuid())
		return;
	ASSERT_EQ(0, read_int(PARANOID, &old));
	ASSERT_EQ(0, write_int(PARANOID, paranoid));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY) ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)) {
			fprintf(stderr, "# cannot become nobody: %s\n",
				strerror(errno));
			_exit(1);
		}
		fprintf(stderr, "# as uid %d at perf_event_paranoid %d\n",
			NOBODY, paranoid);
		_metadata->exit_code = KSFT_PASS;
		if (setjmp(_metadata->env) == 0)
			body(_metadata);
		if (_metadata->aborted || _metadata->exit_code == KSFT_FAIL)
			_exit(1);
		_exit(_metadata->exit_code == KSFT_SKIP ? KSFT_SKIP : 0);
	}
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int(PARANOID, old);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_NE(1, WEXITSTATUS(status)) TH_LOG("failed as uid %d", NOBODY);
	ASSERT_EQ(0, WEXITSTATUS(status) & ~KSFT_SKIP);
}

/*
 * close_against_exit: the owner closes the event fd in one thread while
 * another thread lets the monitored child exit and reaps it.
 */
struct exit_race {
	pthread_barrier_t start, done;
	int fd;
	int go;
	pid_t pid;
	int stop;
	int close_errs;
	int reap_errs;
};

static void *closer(void *arg)
{
	struct exit_race *x = arg;

	for (;;) {
		pthread_barrier_wait(&x->start);
		if (x->stop)
			return NULL;
		if (close(x->fd))
			x->close_errs++;
		pthread_barrier_wait(&x->done);
	}
}

static void *reaper(void *arg)
{
	struct exit_race *x = arg;

	for (;;) {
		pthread_barrier_wait(&x->start);
		if (x->stop)
			return NULL;
		if (release_child(x->pid, x->go))
			x->reap_errs++;
		pthread_barrier_wait(&x->done);
	}
}

static void close_against_exit_body(struct __test_metadata *_metadata)
{
	__u64 configs[] = { PERF_COUNT_SW_TASK_CLOCK,
			    PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct perf_event_attr attr;
	struct exit_race x;
	pthread_t t[2];
	long long end;
	int i;

	memset(&x, 0, sizeof(x));
	pthread_barrier_init(&x.start, NULL, 3);
	pthread_barrier_init(&x.done, NULL, 3);
	ASSERT_EQ(0, pthread_create(&t[0], NULL, closer, &x));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, reaper, &x));

	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 10 || (i < 1000 && monotonic_ns() < end); i++) {
		x.pid = fork_waiting_burner(100 * 1000, &x.go);
		ASSERT_GT(x.pid, 0);
		sw_attr(&attr, configs[i % 2]);
		attr.read_format = TIMES;
		x.fd = sys_perf_event_open(&attr, x.pid, -1, -1, 0);
		if (x.fd < 0) {
			release_child(x.pid, x.go);
			ASSERT_GE(x.fd, 0) TH_LOG("open on child: %s",
						  strerror(errno));
		}
		pthread_barrier_wait(&x.start);
		pthread_barrier_wait(&x.done);
	}
	x.stop = 1;
	pthread_barrier_wait(&x.start);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	TH_LOG("%d rounds", i);
	EXPECT_EQ(0, x.close_errs);
	/* the child exits normally, whatever its event went through */
	EXPECT_EQ(0, x.reap_errs);
}

/*
 * Closing an event fd while the monitored task exits (the two racing in
 * two threads) succeeds and disturbs neither the close nor the exit.
 */
TEST(close_against_exit)
{
	close_against_exit_body(_metadata);
	as_nobody(_metadata, close_against_exit_body, 1);
}

/*
 * The same race with the child's copy of an inherited event: the parent
 * event's last close walks its inherited copies while the child's exit
 * takes its copy out and frees it.
 */
static void close_inherited_body(struct __test_metadata *_metadata)
{
	struct perf_event_attr attr;
	struct exit_race x;
	pthread_t t[2];
	long long end;
	int i;

	memset(&x, 0, sizeof(x));
	pthread_barrier_init(&x.start, NULL, 3);
	pthread_barrier_init(&x.done, NULL, 3);
	ASSERT_EQ(0, pthread_create(&t[0], NULL, closer, &x));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, reaper, &x));

	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 10 || (i < 1000 && monotonic_ns() < end); i++) {
		sw_attr(&attr, i % 2 ? PERF_COUNT_SW_TASK_CLOCK :
				       PERF_COUNT_SW_CONTEXT_SWITCHES);
		attr.inherit = 1;
		attr.read_format = TIMES;
		x.fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(x.fd, 0) TH_LOG("open: %s", strerror(errno));
		/* the child gets its copy at fork */
		x.pid = fork_waiting_burner(100 * 1000, &x.go);
		ASSERT_GT(x.pid, 0);
		pthread_barrier_wait(&x.start);
		pthread_barrier_wait(&x.done);
	}
	x.stop = 1;
	pthread_barrier_wait(&x.start);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	TH_LOG("%d rounds", i);
	EXPECT_EQ(0, x.close_errs);
	EXPECT_EQ(0, x.reap_errs);
}

/*
 * Closing an inherited event while a child that holds a copy of it exits:
 * both go through, and (on the debug kernels) nothing touches the copy
 * once the exit has freed it.
 */
TEST(close_inherited_against_child_exit)
{
	close_inherited_body(_metadata);
	as_nobody(_metadata, close_inherited_body, 1);
}

struct exit_reader {
	int fd;
	int stop;
	int reads;
	int fails;
	int backwards;
	int bad_times;
};

static void *exit_reader(void *arg)
{
	struct exit_reader *x = arg;
	struct reading r, prev = { 0 };

	while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
		if (read_times(x->fd, &r)) {
			x->fails++;
			continue;
		}
		x->reads++;
		if (r.value < prev.value)
			x->backwards++;
		if (r.running > r.enabled)
			x->bad_times++;
		prev = r;
		/* a read of a running task's event interrupts its CPU */
		usleep(100);
	}
	return NULL;
}

static void read_after_exit_body(struct __test_metadata *_metadata)
{
	struct perf_event_attr attr;
	struct reading a, b;
	struct exit_reader x;
	struct pollfd pfd;
	long long end;
	pthread_t t;
	int i, go;
	pid_t pid;

	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 5 || (i < 200 && monotonic_ns() < end); i++) {
		pid = fork_waiting_burner(2 * MS, &go);
		ASSERT_GT(pid, 0);
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.read_format = TIMES;
		memset(&x, 0, sizeof(x));
		x.fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
		if (x.fd < 0) {
			release_child(pid, go);
			ASSERT_GE(x.fd, 0) TH_LOG("open: %s", strerror(errno));
		}
		ASSERT_EQ(0, pthread_create(&t, NULL, exit_reader, &x));
		ASSERT_EQ(0, release_child(pid, go));
		__atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
		pthread_join(t, NULL);
		ASSERT_EQ(0, x.fails) TH_LOG("round %d: read failed", i);
		ASSERT_EQ(0, x.backwards) TH_LOG("round %d", i);
		ASSERT_EQ(0, x.bad_times) TH_LOG("round %d", i);

		/* the task is gone: the count is final, and readable */
		ASSERT_EQ(0, read_times(x.fd, &a)) TH_LOG("%s", strerror(errno));
		ASSERT_EQ(0, read_times(x.fd, &b));
		ASSERT_GE(a.value, MS)
			TH_LOG("round %d: child burned 2 ms, task-clock %llu ns",
			       i, (unsigned long long)a.value);
		ASSERT_EQ(a.value, b.value);
		ASSERT_EQ(a.enabled, b.enabled);
		ASSERT_EQ(a.running, b.running);
		ASSERT_GE(a.enabled, a.running);
		/* and poll() reports the hang-up */
		pfd.fd = x.fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		ASSERT_EQ(1, poll(&pfd, 1, 0));
		ASSERT_TRUE(pfd.revents & POLLHUP) TH_LOG("revents %#x",
							  pfd.revents);
		close(x.fd);
	}
	TH_LOG("%d rounds; last count %llu ns", i, (unsigned long long)a.value);
}

/*
 * An event on a task that has exited stays readable (perf stat reads its
 * workload's counts after waitpid()): read() racing with the exit always
 * succeeds and never goes back, and afterwards gives the final count,
 * the same each time; poll() gives POLLHUP.
 */
TEST(read_after_exit)
{
	read_after_exit_body(_metadata);
	as_nobody(_metadata, read_after_exit_body, 1);
}

/* A thread that burns CPU until told to stop. */
struct spinner {
	pid_t tid;
	int stop;
	int faults;	/* take page faults too */
	int loops;	/* progress */
};

static void *spin(void *arg)
{
	struct spinner *s = arg;

	__atomic_store_n(&s->tid, gettid_(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		if (s->faults)
			fault_n(8);
		else
			burn_cpu(100 * 1000);
		__atomic_add_fetch(&s->loops, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static int start_spinner(pthread_t *t, struct spinner *s, int faults)
{
	memset(s, 0, sizeof(*s));
	s->faults = faults;
	if (pthread_create(t, NULL, spin, s))
		return -1;
	while (!__atomic_load_n(&s->tid, __ATOMIC_ACQUIRE))
		sched_yield();
	return 0;
}

static void stop_spinner(pthread_t t, struct spinner *s)
{
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

static void leader_closed_body(struct __test_metadata *_metadata)
{
	struct perf_event_attr attr;
	struct reading before[2], after[2], later[2];
	struct spinner s;
	long long end, until;
	int lead, sib[2], i, j, loops;
	pthread_t t;

	ASSERT_EQ(0, start_spinner(&t, &s, 0));
	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 5 || (i < 200 && monotonic_ns() < end); i++) {
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.read_format = TIMES;
		lead = sys_perf_event_open(&attr, s.tid, -1, -1, 0);
		ASSERT_GE(lead, 0) TH_LOG("leader: %s", strerror(errno));
		/* siblings of the leader's own PMU: one group, one PMU */
		for (j = 0; j < 2; j++) {
			sib[j] = sys_perf_event_open(&attr, s.tid, -1, lead, 0);
			ASSERT_GE(sib[j], 0) TH_LOG("sibling: %s",
						    strerror(errno));
			ASSERT_EQ(0, read_times(sib[j], &before[j]));
		}

		/* the spinner runs on; its group loses the leader */
		ASSERT_EQ(0, close(lead));

		for (j = 0; j < 2; j++) {
			ASSERT_EQ(0, read_times(sib[j], &after[j]))
				TH_LOG("round %d: sibling %d: %s", i, j,
				       strerror(errno));
			ASSERT_GE(after[j].value, before[j].value);
			ASSERT_GE(after[j].enabled, after[j].running);
		}
		/* singletons now, they go on counting */
		loops = __atomic_load_n(&s.loops, __ATOMIC_RELAXED);
		until = monotonic_ns() + 2000 * MS;
		do {
			usleep(1000);
			for (j = 0; j < 2; j++) {
				ASSERT_EQ(0, read_times(sib[j], &later[j]));
				ASSERT_GE(later[j].value, after[j].value);
				ASSERT_GE(later[j].enabled, later[j].running);
			}
		} while ((later[0].value == after[0].value ||
			  later[1].value == after[1].value) &&
			 monotonic_ns() < until);
		ASSERT_TRUE(later[0].value > after[0].value &&
			    later[1].value > after[1].value)
			TH_LOG("round %d: siblings %llu->%llu and %llu->%llu, loops %d->%d",
			       i, (unsigned long long)after[0].value,
			       (unsigned long long)later[0].value,
			       (unsigned long long)after[1].value,
			       (unsigned long long)later[1].value, loops,
			       __atomic_load_n(&s.loops, __ATOMIC_RELAXED));
		close(sib[0]);
		close(sib[1]);
	}
	stop_spinner(t, &s);
	TH_LOG("%d rounds", i);
}

/*
 * Closing a group leader while the group counts on a busy thread: the
 * siblings become singleton events (perf_event_open(2)) and stay
 * readable; their counts never go back and keep growing.
 */
TEST(leader_closed_while_siblings_run)
{
	leader_closed_body(_metadata);
	as_nobody(_metadata, leader_closed_body, 1);
}

static long long threads_cpu_ns;

static void *short_thread(void *arg)
{
	unsigned long i;

	for (i = 0; i < 2000; i++)
		__asm__ __volatile__("" : : "r" (i) : "memory");
	__atomic_add_fetch(&threads_cpu_ns, thread_cpu_ns(), __ATOMIC_RELAXED);
	return NULL;
}

static void inherit_threads_body(struct __test_metadata *_metadata)
{
	struct perf_event_attr attr;
	struct reading own, all;
	pthread_t t[25];
	int inh, self, n, i;
	long long end;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.read_format = TIMES;
	inh = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(inh, 0) TH_LOG("inherited task-clock: %s", strerror(errno));
	attr.inherit = 0;
	attr.inherit_stat = 0;
	self = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self, 0) TH_LOG("task-clock: %s", strerror(errno));

	threads_cpu_ns = 0;
	end = monotonic_ns() + PASS_NS;
	for (n = 0; n < 50 || (n < 2000 && monotonic_ns() < end); n += 25) {
		for (i = 0; i < 25; i++)
			ASSERT_EQ(0, pthread_create(&t[i], NULL, short_thread,
						    NULL));
		for (i = 0; i < 25; i++)
			ASSERT_EQ(0, pthread_join(t[i], NULL));
	}

	ASSERT_EQ(0, read_times(self, &own));
	ASSERT_EQ(0, read_times(inh, &all)) TH_LOG("%s", strerror(errno));
	TH_LOG("%d threads (%lld us of their CPU); own %llu ns, with threads %llu ns",
	       n, threads_cpu_ns / 1000, (unsigned long long)own.value,
	       (unsigned long long)all.value);
	TH_LOG("enabled %llu running %llu", (unsigned long long)all.enabled,
	       (unsigned long long)all.running);
	EXPECT_GE(all.value, own.value);
	/* the threads' own time is in the inherited count: half, at least */
	EXPECT_GE(all.value - own.value, threads_cpu_ns / 2);
	EXPECT_GE(all.enabled, all.running);
	EXPECT_GE(own.enabled, own.running);
	close(self);
	close(inh);
}

/*
 * An inherited counter through ~2000 short-lived threads: every thread
 * gets a child event that is folded back into the parent at exit, so the
 * count covers the parent's own share and the threads' time, and
 * time_enabled >= time_running.  kmemleak watches the child events.
 */
TEST(inherit_many_short_threads)
{
	inherit_threads_body(_metadata);
	as_nobody(_metadata, inherit_threads_body, 1);
}

/* Sanity of a mapped buffer's control page; 0 if it looks right. */
static int ring_sane(struct ring *r)
{
	__u64 head = ring_head(r), tail = r->meta->data_tail;

	if (head % 8 || tail % 8 || head < tail || head - tail > r->data_size)
		return -1;
	if (r->meta->data_size && r->meta->data_size != r->data_size)
		return -1;
	return 0;
}

static void resize_body(struct __test_metadata *_metadata)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct spinner s;
	__u64 *buf;
	int fd, i, samples = 0, others = 0;
	long long end;
	struct ring r;
	pthread_t t;

	buf = malloc(REC_MAX);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, start_spinner(&t, &s, 1));
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME;
	fd = sys_perf_event_open(&attr, s.tid, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("page-faults sampler: %s", strerror(errno));

	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 10 || (i < 500 && monotonic_ns() < end); i++) {
		ASSERT_EQ(0, ring_map(&r, fd, 1 << (i % 5),
				      PROT_READ | PROT_WRITE))
			TH_LOG("round %d: mmap 1+%d pages: %s", i, 1 << (i % 5),
			       strerror(errno));
		ASSERT_EQ(0, ring_sane(&r)) TH_LOG("round %d", i);
		while ((h = ring_next(&r, buf, REC_MAX)))
			;
		ASSERT_FALSE(r.bad) TH_LOG("round %d", i);
		ring_publish(&r);
		ring_unmap(&r);
	}

	/* one more buffer, for the end of the stream */
	ASSERT_EQ(0, ring_map(&r, fd, 8, PROT_READ | PROT_WRITE));
	usleep(20 * 1000);
	stop_spinner(t, &s);
	ASSERT_EQ(0, ring_sane(&r));
	while ((h = ring_next(&r, buf, REC_MAX))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			others++;
			continue;
		}
		samples++;
		/* header, ip, pid/tid, time */
		ASSERT_EQ(32, h->size);
		ASSERT_EQ(s.tid, (pid_t)half(buf[2], 1));
	}
	TH_LOG("%d remaps; then %d samples, %d other records", i, samples,
	       others);
	EXPECT_FALSE(r.bad);
	EXPECT_GT(samples, 0);
	ring_unmap(&r);
	close(fd);
	free(buf);
}

/*
 * The ring buffer of a sampling event is unmapped and mapped again (in
 * sizes of 1+2^n pages) while a busy thread's page faults overflow it
 * all the time: each new buffer starts sane, and the last one mapped
 * carries well-formed samples.
 */
TEST(buffer_resize_against_overflow)
{
	resize_body(_metadata);
	as_nobody(_metadata, resize_body, 1);
}

static int open_redirectable(__u64 config)
{
	struct perf_event_attr attr;

	sw_attr(&attr, config);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* Samples of the event with id @id in the unread part of @r; -1 if bad. */
static int samples_of(struct ring *r, __u64 id)
{
	__u64 buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	while ((h = ring_next(r, buf, sizeof(buf))))
		if (h->type == PERF_RECORD_SAMPLE && buf[1] == id)
			n++;
	ring_publish(r);
	return r->bad ? -1 : n;
}

static void set_output_body(struct __test_metadata *_metadata)
{
	__u64 configs[] = { PERF_COUNT_SW_PAGE_FAULTS,
			    PERF_COUNT_SW_PAGE_FAULTS_MIN,
			    PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct ring ra, rb, rc;
	int fd[3], i, j, n, order;
	__u64 id[3];
	long long end;
	void *p;

	end = monotonic_ns() + PASS_NS;
	for (i = 0; i < 3 || (i < 60 && monotonic_ns() < end); i++) {
		for (j = 0; j < 3; j++) {
			fd[j] = open_redirectable(configs[j]);
			ASSERT_GE(fd[j], 0) TH_LOG("%s", strerror(errno));
			id[j] = event_id(fd[j]);
		}
		ASSERT_EQ(0, ring_map(&ra, fd[0], 4, PROT_READ | PROT_WRITE));
		ASSERT_EQ(0, ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));
		ASSERT_EQ(0, ioctl(fd[2], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));

		/* redirected: a buffer of another size cannot be mapped */
		p = mmap(NULL, 3 * getpagesize(), PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd[1], 0);
		ASSERT_EQ(MAP_FAILED, p);
		ASSERT_EQ(EINVAL, errno);
		/* and an event with a mapped buffer cannot be redirected */
		ASSERT_EQ(-1, ioctl(fd[0], PERF_EVENT_IOC_SET_OUTPUT, fd[1]));
		ASSERT_EQ(EINVAL, errno);

		ASSERT_EQ(0, fault_n(4));
		ASSERT_GE(samples_of(&ra, id[1]), 4);

		order = i % 3;
		switch (order) {
		case 0:
			/* A first: the fd, then its last mapping */
			ASSERT_EQ(0, close(fd[0]));
			ASSERT_EQ(0, fault_n(4));
			ASSERT_GE(samples_of(&ra, id[1]), 4)
				TH_LOG("B's samples after A's close");
			ring_unmap(&ra);
			ASSERT_EQ(0, ring_map(&rb, fd[1], 2,
					      PROT_READ | PROT_WRITE))
				TH_LOG("B's own buffer: %s", strerror(errno));
			ASSERT_EQ(0, fault_n(4));
			ASSERT_GE(samples_of(&rb, id[1]), 4);
			ASSERT_EQ(0, close(fd[2]));
			ring_unmap(&rb);
			ASSERT_EQ(0, close(fd[1]));
			break;
		case 1:
			/* C first, then B leaves with SET_OUTPUT -1 */
			ASSERT_EQ(0, close(fd[2]));
			ASSERT_EQ(0, ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT,
					   NO_OUTPUT));
			ASSERT_EQ(0, ring_map(&rb, fd[1], 2,
					      PROT_READ | PROT_WRITE))
				TH_LOG("B's own buffer: %s", strerror(errno));
			ASSERT_EQ(0, fault_n(4));
			ASSERT_GE(samples_of(&rb, id[1]), 4);
			ASSERT_GE(samples_of(&ra, id[0]), 4);
			ASSERT_EQ(0, samples_of(&ra, id[1]));
			ring_unmap(&rb);
			ASSERT_EQ(0, close(fd[1]));
			ring_unmap(&ra);
			ASSERT_EQ(0, close(fd[0]));
			break;
		default:
			/* the middle one first, then C leaves, then A */
			ASSERT_EQ(0, close(fd[1]));
			ASSERT_EQ(0, ioctl(fd[2], PERF_EVENT_IOC_SET_OUTPUT,
					   NO_OUTPUT));
			ASSERT_EQ(0, ring_map(&rc, fd[2], 2,
					      PROT_READ | PROT_WRITE))
				TH_LOG("C's own buffer: %s", strerror(errno));
			ASSERT_EQ(0, fault_n(4));
			ASSERT_GE(samples_of(&ra, id[0]), 4);
			ring_unmap(&ra);
			ASSERT_EQ(0, close(fd[0]));
			/*
			 * A sleep that has run out before the task got to
			 * schedule() switches nothing: on a slow (debug,
			 * emulated) kernel 100 us can go by in the set-up.
			 */
			for (j = 0, n = 0; j < 50 && n == 0; j++) {
				usleep(1000);
				n = samples_of(&rc, id[2]);
			}
			ASSERT_GE(n, 1) TH_LOG("C's context switches");
			ring_unmap(&rc);
			ASSERT_EQ(0, close(fd[2]));
			break;
		}
	}
	TH_LOG("%d rounds", i);
}

/*
 * Three events, B and C redirected (SET_OUTPUT) to A's buffer, torn down
 * in turn in each order: A first (its fd, then its last mapping), C
 * first, the middle one first; and detached with SET_OUTPUT -1.  A
 * redirected event cannot map a buffer of another size, and A, which has
 * a mapped buffer of its own, cannot be redirected (both EINVAL); once
 * its target is gone, or after SET_OUTPUT -1, an event maps a buffer of
 * its own and its samples go there.
 */
TEST(set_output_chain_torn_down)
{
	set_output_body(_metadata);
	as_nobody(_metadata, set_output_body, 1);
}

struct hp_reader {
	int fd[2];
	int stop;
	int reads;
	int fails;
	int err;
	int backwards;
	int bad_times;
};

static void *hp_read(void *arg)
{
	struct hp_reader *x = arg;
	struct reading r, prev[2] = { 0 };
	int j;

	while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
		for (j = 0; j < 2; j++) {
			if (read_times(x->fd[j], &r)) {
				x->fails++;
				x->err = errno;
				continue;
			}
			x->reads++;
			if (r.value < prev[j].value)
				x->backwards++;
			if (r.running > r.enabled)
				x->bad_times++;
			prev[j] = r;
		}
		usleep(100);
	}
	return NULL;
}

/*
 * CPU-wide events on CPU 1 (cpu-clock and context-switches, counting)
 * while CPU 1 goes offline and online again, four times: read() from
 * another thread keeps working all along, counts never go back and
 * time_enabled >= time_running; afterwards a new event on CPU 1 counts.
 * Root only, and in the test guests only (see hotplug.c).
 */
TEST(hotplug_cpu_wide_events)
{
	__u64 configs[] = { PERF_COUNT_SW_CPU_CLOCK,
			    PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct perf_event_attr attr;
	struct hp_reader x;
	struct reading r;
	int i, j, on, fd;
	pthread_t t;

	if (geteuid())
		SKIP(return, "takes CPU 1 offline: needs root");
	if (!in_guest())
		SKIP(return, "takes CPU 1 offline: test guests only");
	if (read_int(CPU1_ONLINE, &on) || access(CPU1_ONLINE, W_OK))
		SKIP(return, "no writable %s", CPU1_ONLINE);
	if (!on)
		ASSERT_EQ(0, write_int(CPU1_ONLINE, 1));

	memset(&x, 0, sizeof(x));
	for (j = 0; j < 2; j++) {
		sw_attr(&attr, configs[j]);
		attr.read_format = TIMES;
		x.fd[j] = sys_perf_event_open(&attr, -1, 1, -1, 0);
		ASSERT_GE(x.fd[j], 0) TH_LOG("CPU 1 event: %s", strerror(errno));
	}
	ASSERT_EQ(0, pthread_create(&t, NULL, hp_read, &x));
	for (i = 0; i < 4; i++) {
		if (write_int(CPU1_ONLINE, 0)) {
			TH_LOG("round %d: offline: %s", i, strerror(errno));
			break;
		}
		usleep(50 * 1000);
		if (write_int(CPU1_ONLINE, 1)) {
			TH_LOG("round %d: online: %s", i, strerror(errno));
			break;
		}
		usleep(50 * 1000);
	}
	__atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	TH_LOG("%d rounds, %d reads", i, x.reads);
	ASSERT_EQ(0, read_int(CPU1_ONLINE, &on));
	ASSERT_EQ(1, on);
	EXPECT_EQ(4, i);
	EXPECT_EQ(0, x.fails) TH_LOG("read failed: %s", strerror(x.err));
	EXPECT_EQ(0, x.backwards);
	EXPECT_EQ(0, x.bad_times);
	EXPECT_GT(x.reads, 0);
	for (j = 0; j < 2; j++) {
		EXPECT_EQ(0, read_times(x.fd[j], &r));
		EXPECT_GE(r.enabled, r.running);
		close(x.fd[j]);
	}

	/* CPU 1 is back: a new CPU-wide event counts there */
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = TIMES;
	fd = sys_perf_event_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("CPU 1 again: %s", strerror(errno));
	usleep(20 * 1000);
	ASSERT_EQ(0, read_times(fd, &r));
	EXPECT_GT(r.value, 0);
	EXPECT_GE(r.enabled, r.running);
	close(fd);
}

/* User registers sampled: the instruction and stack pointers only. */
#if defined(__x86_64__)
#define USER_REGS	((1ULL << 7) | (1ULL << 8))	/* SP, IP */
#elif defined(__aarch64__)
#define USER_REGS	((1ULL << 31) | (1ULL << 32))	/* SP, PC */
#else
#define USER_REGS	0
#endif
#define STACK_BYTES	64
#define POISON_DUMP	4096
#define NR_TYPES	32

struct poison_check {
	__u64 sample_type;
	__u64 read_format;
	int nr_regs;
	int counts[NR_TYPES];
	int bad_type;	/* the first record with a poison word, or -1 */
	int bad_word;
	int malformed;
};

/*
 * The words [*from, *to) of a sample record (buf[0] is the header) that
 * are its user stack dump, which copies user memory and leaves what it
 * does not fill as it was; none if it has no dump.  Counts the record in
 * c->malformed if its layout does not add up.
 */
static void stack_dump_words(struct poison_check *c, __u64 *buf, int words,
			     int *from, int *to)
{
	__u64 t = c->sample_type;
	int i = 1, nr;

	*from = 0;
	*to = 0;
	i += !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
	     !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
	     !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
	     !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
	     !!(t & PERF_SAMPLE_PERIOD);
	if (t & PERF_SAMPLE_READ) {
		/* group: nr, enabled, running, then nr {value, id, lost} */
		if (i >= words)
			goto bad;
		nr = buf[i];
		i += 3 + nr * (2 + !!(c->read_format & PERF_FORMAT_LOST));
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (i >= words)
			goto bad;
		i += 1 + buf[i];
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		if (i >= words)
			goto bad;
		i += 1 + (buf[i] ? c->nr_regs : 0);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		if (i >= words)
			goto bad;
		if (buf[i] != STACK_BYTES && buf[i] != 0)
			goto bad;
		if (buf[i]) {
			*from = i + 1;
			*to = i + 1 + STACK_BYTES / 8;
			/* dyn_size follows the dump */
			if (*to >= words || buf[*to] > STACK_BYTES)
				goto bad;
			i = *to + 1;
		} else {
			i++;
		}
	}
	i += !!(t & PERF_SAMPLE_WEIGHT) + !!(t & PERF_SAMPLE_DATA_SRC) +
	     !!(t & PERF_SAMPLE_TRANSACTION) + !!(t & PERF_SAMPLE_PHYS_ADDR) +
	     !!(t & PERF_SAMPLE_DATA_PAGE_SIZE) +
	     !!(t & PERF_SAMPLE_CODE_PAGE_SIZE);
	/* sample_id_all does not apply to samples: nothing after these */
	if (i == words)
		return;
bad:
	c->malformed++;
}

/* Check every word of every record in @r for the poison pattern. */
static void check_records(struct poison_check *c, struct ring *r)
{
	struct perf_event_header *h;
	__u64 *buf = malloc(REC_MAX);
	int words, i, from, to;

	c->bad_type = -1;
	if (!buf) {
		c->malformed++;
		return;
	}
	while ((h = ring_next(r, buf, REC_MAX))) {
		words = h->size / 8;
		from = 0;
		to = 0;
		if (h->type == PERF_RECORD_SAMPLE)
			stack_dump_words(c, buf, words, &from, &to);
		for (i = 0; i < words; i++) {
			if (i >= from && i < to)
				continue;
			if (buf[i] == POISON64 && c->bad_type < 0) {
				c->bad_type = h->type;
				c->bad_word = i;
			}
		}
		c->counts[h->type < NR_TYPES ? h->type : 0]++;
	}
	if (r->bad)
		c->malformed++;
	free(buf);
}

/*
 * Take one page fault with POISON_DUMP bytes of the poison pattern just
 * above the stack pointer, for a stack dump to copy.
 */
static noinline int fault_on_poison(void)
{
	unsigned char pad[POISON_DUMP + 512];

	memset(pad, POISON, sizeof(pad));
	__asm__ __volatile__("" : : "r" (pad) : "memory");
	return fault_n(1);
}

/*
 * User space cannot write the data pages of a ring buffer (they fault),
 * so the poison gets there as records: page-fault samples of @fd that
 * are little but a dump of a poisoned stack, until they have covered the
 * whole data area; then they are consumed.  Returns the share of
 * poisoned words in the data area, in percent, or -1.
 */
static int poison_ring(struct ring *r, int fd)
{
	__u64 *w = (__u64 *)r->data, n = 0, i;

	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	for (i = 0; i < 1000 && ring_head(r) < r->data_size + 2 * POISON_DUMP;
	     i++) {
		if (fault_on_poison())
			return -1;
		r->tail = ring_head(r);
		ring_publish(r);
	}
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return -1;
	r->tail = ring_head(r);
	ring_publish(r);
	for (i = 0; i < r->data_size / 8; i++)
		n += w[i] == POISON64;
	return n * 100 / (r->data_size / 8);
}

static void no_poison_body(struct __test_metadata *_metadata)
{
	static const char * const names[NR_TYPES] = {
		[PERF_RECORD_MMAP] = "mmap", [PERF_RECORD_LOST] = "lost",
		[PERF_RECORD_COMM] = "comm", [PERF_RECORD_EXIT] = "exit",
		[PERF_RECORD_THROTTLE] = "throttle",
		[PERF_RECORD_UNTHROTTLE] = "unthrottle",
		[PERF_RECORD_FORK] = "fork", [PERF_RECORD_READ] = "read",
		[PERF_RECORD_SAMPLE] = "sample", [PERF_RECORD_MMAP2] = "mmap2",
		[PERF_RECORD_SWITCH] = "switch",
		[PERF_RECORD_NAMESPACES] = "namespaces",
		[PERF_RECORD_KSYMBOL] = "ksymbol",
	};
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct poison_check c;
	char comm[16], *file;
	int poisoner, lead, sib, fd, i, pct, total = 0;
	struct ring r;
	pid_t pid;

	/* the poisoner owns the buffer */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = POISON_DUMP;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	poisoner = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(poisoner, 0) TH_LOG("poisoner: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, poisoner, 16, PROT_READ | PROT_WRITE))
		TH_LOG("mmap: %s", strerror(errno));
	pct = poison_ring(&r, poisoner);
	TH_LOG("%d%% of the data area poisoned", pct);
	ASSERT_GE(pct, 50);

	memset(&c, 0, sizeof(c));
	c.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
			PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE;
	if (USER_REGS) {
		c.sample_type |= PERF_SAMPLE_REGS_USER;
		c.nr_regs = __builtin_popcountll(USER_REGS);
	}
	if (!geteuid())
		c.sample_type |= PERF_SAMPLE_PHYS_ADDR;
	c.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | TIMES |
			PERF_FORMAT_LOST;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = c.sample_type;
	attr.read_format = c.read_format;
	attr.sample_regs_user = USER_REGS;
	attr.sample_stack_user = STACK_BYTES;
	attr.exclude_kernel = 1;
	attr.exclude_callchain_kernel = 1;
	attr.exclude_hv = 1;
	attr.mmap = 1;
	attr.mmap_data = 1;
	attr.mmap2 = 1;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	if (!geteuid()) {
		attr.namespaces = 1;
		attr.ksymbol = 1;
	}
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("sampler: %s", strerror(errno));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	attr.read_format = c.read_format;
	sib = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(sib, 0) TH_LOG("sibling: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_SET_OUTPUT, poisoner))
		TH_LOG("SET_OUTPUT: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));

	/* samples */
	ASSERT_EQ(0, fault_n(16));
	/* mmap records: a file mapped for data, then for code */
	fd = open("/proc/self/exe", O_RDONLY);
	ASSERT_GE(fd, 0);
	file = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, file);
	ASSERT_EQ(0x7f, file[0]);
	munmap(file, page);
	file = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, file);
	munmap(file, page);
	close(fd);
	/* fork records, and the child's own */
	pid = fork();
	if (pid == 0)
		_exit(0);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, reap_child(pid));
	/* a comm record */
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	ASSERT_EQ(0, prctl(PR_SET_NAME, "races-poison", 0, 0, 0));
	/* context switches */
	for (i = 0; i < 4; i++) {
		sched_yield();
		usleep(100);
	}
	ASSERT_EQ(0, fault_n(16));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	prctl(PR_SET_NAME, comm, 0, 0, 0);

	check_records(&c, &r);
	for (i = 0; i < NR_TYPES; i++) {
		if (!c.counts[i])
			continue;
		total += c.counts[i];
		TH_LOG("%d %s records (type %d)", c.counts[i],
		       names[i] ? names[i] : "other", i);
	}
	ksft_print_msg("%d records checked for poison\n", total);
	EXPECT_EQ(0, c.malformed);
	EXPECT_EQ(-1, c.bad_type) TH_LOG("poison in a record of type %d, word %d",
					 c.bad_type, c.bad_word);
	EXPECT_GE(c.counts[PERF_RECORD_SAMPLE], 32);
	EXPECT_GT(c.counts[PERF_RECORD_MMAP2], 0);
	EXPECT_GT(c.counts[PERF_RECORD_COMM], 0);
	EXPECT_GT(c.counts[PERF_RECORD_FORK], 0);
	EXPECT_GT(c.counts[PERF_RECORD_SWITCH], 0);
	EXPECT_EQ(0, c.counts[PERF_RECORD_LOST]);
	ring_unmap(&r);
	close(sib);
	close(lead);
	close(poisoner);
}

/*
 * No byte of a record the kernel writes to a ring buffer is left
 * uninitialised: with the data area first covered with a poison pattern
 * (see poison_ring()), no record written over it (samples with every
 * field an unprivileged user may ask for, mmap, comm, fork/exit, switch
 * records, all with sample_id_all) may show an aligned poison word,
 * except in its user stack dump, which copies the task's own memory and
 * leaves the part it does not fill as it was.
 */
TEST(records_have_no_poison)
{
	no_poison_body(_metadata);
	as_nobody(_metadata, no_poison_body, 2);
}

TEST_HARNESS_MAIN
