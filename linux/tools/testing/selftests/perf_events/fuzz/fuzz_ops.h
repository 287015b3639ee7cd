/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_ops.h - the calls a perf_fuzz log is made of.
 *
 * perf_fuzz runs every operation through one of the fz_*() functions
 * below and, with --log, first writes the call as one line of C, e.g.
 *
 *	fz_open(&fd[3], &(struct perf_event_attr){ .type = 0x1, ... },
 *		136, 0, 0, -1, -1, 0);
 *
 * so that the lines of one worker, put into a main() by mkrepro.sh, do
 * again what that worker did.  In a log, fd[], mp[], kid[], prog[] and
 * cgfd[] are the worker's tables of perf fds, mappings, child processes,
 * BPF programs and cgroup directories; FZ_REPRO_STATE declares them for a
 * reproducer and fz_repro_init() sets them up.
 *
 * Each function returns what its system call returned (-1 and errno on
 * failure), or FZ_SKIP where there was nothing to make the call on (an
 * empty mapping slot, say).  None of them ever exits on an error.
 */
#ifndef FUZZ_OPS_H
#define FUZZ_OPS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

#define FZ_FDS		64	/* perf fds per worker */
#define FZ_MAPS		16	/* mappings per worker */
#define FZ_KIDS		4	/* child processes per worker */
#define FZ_PROGS	4	/* BPF programs per worker */
#define FZ_CGROUPS	3	/* cgroup directories (root, fuzz-0, fuzz-1) */
#define FZ_TARGETS	64	/* words breakpoints watch */
#define FZ_SCRATCH	65536	/* what read() and ioctl()s write into */

#define FZ_SKIP		(-1000)

#define FZ_CGROUP_ROOT	"/sys/fs/cgroup"

/* Where things are: an event's mapping as the fuzzer last knew it. */
struct fz_map {
	char *addr;	/* start of what is mapped, NULL: nothing */
	size_t len;
	char *page0;	/* the control page, if still mapped at addr */
	int writable;
};

/*
 * Data breakpoints watch these; the workload reads and writes them, with
 * __atomic builtins so that the compiler makes every access.
 */
extern __u64 fz_target[FZ_TARGETS];

/* The buddy thread of this process: a target for pid = a thread. */
extern pid_t fz_buddy;

/* Set while a fault on a mapping is expected (see FZ_GUARDED). */
extern __thread sigjmp_buf *fz_jmp;
extern __thread char *fz_scratch_buf;

/* ---- the calls that are not inline (fuzz_ops.c) ------------------- */

void fz_on_signal(int sig, siginfo_t *si, void *uc);
void fz_on_fault(int sig, siginfo_t *si, void *uc);
long long fz_now_ns(void);
void fz_burn_us(long us);
int fz_probe_target(int x);
int fz_probe_never(int x);
int fz_bp_func(int x);
__u64 fz_uprobe_off(int k);
void fz_touch_pages(int n);
int fz_work(int mode, int n);
int fz_open(int *slot, struct perf_event_attr *attr, unsigned int alloc,
	    unsigned int tail, long pid, int cpu, int group_fd,
	    unsigned long flags);
int fz_munmap_all(struct fz_map *m);
int fz_mmap(struct fz_map *m, int fd, unsigned long pages, int prot,
	    int flags, unsigned long pgoff);
int fz_munmap(struct fz_map *m, unsigned long first, unsigned long n);
int fz_mremap(struct fz_map *m, unsigned long pages, int flags);
int fz_aux(struct fz_map *aux, struct fz_map *rb, int fd,
	   unsigned long pages, int where, int size_mode, int prot);
int fz_ring(struct fz_map *m, int what, __u64 val);
int fz_bpf_load(int *slot, unsigned int type, int variant);
void *fz_thread_fn(void *arg);
int fz_threads(int n, int mode);
void *fz_buddy_fn(void *arg);
void fz_buddy_start(void);
void fz_child_work(int mode);
int fz_spawn(pid_t *slot, int mode);
int fz_reap(pid_t *slot, int hard);
int fz_write_file(const char *path, const char *val);
int fz_cgroup_enter(int k);
void fz_cgroups_open(int *cgfd);
void fz_repro_init(int argc, char **argv, int *fd, int *prog, int *cgfd,
		   pid_t *kid, struct fz_map *mp);

static inline pid_t fz_gettid(void)
{
	return syscall(SYS_gettid);
}

static inline pid_t fz_buddy_tid(void)
{
	return fz_buddy;
}

static inline long sys_perf_event_open(struct perf_event_attr *attr,
				       long pid, int cpu, int group_fd,
				       unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static inline char *fz_scratch(void)
{
	if (!fz_scratch_buf) {
		fz_scratch_buf = mmap(NULL, FZ_SCRATCH + 4096,
				      PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fz_scratch_buf == MAP_FAILED) {
			static char fallback[FZ_SCRATCH + 4096];

			fz_scratch_buf = fallback;
		}
	}
	return fz_scratch_buf;
}

/*
 * Run @code, which may touch a mapping that is no longer (or never was)
 * readable or writable: SIGSEGV, SIGBUS and SIGILL jump back out of it.
 * A local variable that @code changes and that is read afterwards is
 * only ever accessed with __atomic builtins: it then stays in memory and
 * holds the last value stored, also after a jump out.
 */
#define FZ_GUARDED(...)						\
	do {								\
		sigjmp_buf __jb;					\
		sigjmp_buf *__old = fz_jmp;				\
		if (!sigsetjmp(__jb, 1)) {				\
			fz_jmp = &__jb;					\
			__VA_ARGS__;					\
		}							\
		fz_jmp = __old;						\
	} while (0)

extern atomic_ulong fz_signals[65];

/* SIGTRAP (sigtrap events), SIGIO (O_ASYNC) and friends are counted. */
static inline void fz_signals_init(void)
{
	static const int counted[] = {
		SIGTRAP, SIGIO, SIGUSR1, SIGUSR2, SIGURG, SIGPROF, SIGWINCH,
	};
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fz_on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(counted); i++)
		sigaction(counted[i], &sa, NULL);
	for (i = SIGRTMIN; i <= (unsigned int)SIGRTMIN + 4; i++)
		sigaction(i, &sa, NULL);
	sa.sa_sigaction = fz_on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGXCPU, SIG_IGN);
}

/* ---- the workload: what gives events something to count ------------ */

/* ---- perf_event_open() and the fd table ----------------------------- */

static inline int fz_close(int *slot)
{
	int ret;

	if (*slot < 0)
		return FZ_SKIP;
	ret = close(*slot);
	*slot = -1;
	return ret;
}

/* dup(@fd) into *@slot, the old fd closed if it worked. */
static inline int fz_dup(int *slot, int fd)
{
	int ret = dup(fd);

	if (ret >= 0) {
		fz_close(slot);
		*slot = ret;
	}
	return ret;
}

/* ---- ioctl() -------------------------------------------------------- */

static inline int fz_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

/* An ioctl whose argument points at a __u64 holding @val (PERIOD, ID). */
static inline int fz_ioctl_u64(int fd, unsigned long req, __u64 val)
{
	__u64 *v = (__u64 *)fz_scratch();

	*v = val;
	return ioctl(fd, req, v);
}

/*
 * An ioctl with a pointer argument: 0 scratch, 1 NULL, 2 a kernel address.
 * The scratch buffer is cleared first: what an earlier read() or ID left
 * there (counts, event ids) differs from run to run and kernel to kernel,
 * and a request that reads its argument (SET_FILTER's string) would then
 * answer differently for reasons that are not the kernel's.
 */
static inline int fz_ioctl_ptr(int fd, unsigned long req, int which)
{
	void *p = fz_scratch();

	if (which == 0)
		memset(p, 0, 4096);
	else if (which == 1)
		p = NULL;
	else if (which == 2)
		p = (void *)(uintptr_t)(sizeof(long) == 8 ?
					0xffff888000000000ULL : 0xc0000000UL);
	return ioctl(fd, req, p);
}

static inline int fz_ioctl_str(int fd, unsigned long req, const char *s)
{
	return ioctl(fd, req, s);
}

/* SET_FILTER with a string of @len copies of @c (a long filter). */
static inline int fz_ioctl_longstr(int fd, unsigned long req, int len, int c)
{
	char *s = fz_scratch();

	if (len > FZ_SCRATCH - 1)
		len = FZ_SCRATCH - 1;
	memset(s, c, len);
	s[len] = 0;
	return ioctl(fd, req, s);
}

static inline int fz_ioctl_attr(int fd, struct perf_event_attr *attr)
{
	return ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr);
}

/* QUERY_BPF, ids_len = @ids_len (the buffer has room for all there can be). */
static inline int fz_ioctl_query(int fd, unsigned int ids_len)
{
	struct perf_event_query_bpf *q = (void *)fz_scratch();

	memset(q, 0, sizeof(*q) + 256 * sizeof(__u32));
	q->ids_len = ids_len;
	return ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, q);
}

/* ---- mmap() of the ring buffer and the AUX area --------------------- */

static inline long fz_page(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* ---- read(), poll(), fcntl() ---------------------------------------- */

/* read() @len bytes into the scratch buffer (@bad: into NULL). */
static inline int fz_read(int fd, unsigned int len, int bad)
{
	if (len > FZ_SCRATCH)
		len = FZ_SCRATCH;
	return read(fd, bad ? NULL : fz_scratch(), len);
}

static inline int fz_write(int fd, unsigned int len)
{
	if (len > FZ_SCRATCH)
		len = FZ_SCRATCH;
	return write(fd, fz_scratch(), len);
}

static inline int fz_poll(int a, int b, int c, short events, int timeout)
{
	struct pollfd p[3] = {
		{ .fd = a, .events = events },
		{ .fd = b, .events = events },
		{ .fd = c, .events = events },
	};

	return poll(p, 3, timeout);
}

static inline int fz_fcntl(int fd, int cmd, long arg)
{
	return fcntl(fd, cmd, arg);
}

/* F_SETOWN_EX: @type F_OWNER_TID/PID/PGRP. */
static inline int fz_setown_ex(int fd, int type, pid_t pid)
{
	struct f_owner_ex o = { .type = type, .pid = pid };

	return fcntl(fd, F_SETOWN_EX, &o);
}

/* ---- BPF programs for PERF_EVENT_IOC_SET_BPF ------------------------- */

/* ---- processes and threads ------------------------------------------ */

/* A child doing @mode's work (fz_child_work()) into *@slot. */

static inline int fz_kill(pid_t *slot, int sig)
{
	if (*slot <= 0)
		return FZ_SKIP;
	return kill(*slot, sig);
}

/* ---- files, sysctls, cgroups ---------------------------------------- */

/* ---- reproducers ------------------------------------------------------ */

/* The tables a log's lines use, for a reproducer's main(). */
#define FZ_REPRO_STATE							\
	static int fd[FZ_FDS], prog[FZ_PROGS], cgfd[FZ_CGROUPS];	\
	static pid_t kid[FZ_KIDS];					\
	static struct fz_map mp[FZ_MAPS]

#endif /* FUZZ_OPS_H */
