/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the perf_events selftests: the system call
 * wrappers, attr set-up, reading counts, CPU and page-fault workloads,
 * child and sysctl plumbing, a reader for the mmap()ed ring buffer, and a
 * loader of trivial BPF programs.
 * Every test program is one translation unit, so everything here is
 * static inline.
 *
 * Include it after the test's own system headers, with _GNU_SOURCE
 * defined (for cpu_set_t and sched_setaffinity()).
 */
#ifndef PERF_HELPERS_H
#define PERF_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "../kselftest.h"

/* glibc has no wrapper for perf_event_open(2). */
static inline int sys_perf_event_open(struct perf_event_attr *attr,
				      pid_t pid, int cpu, int group_fd,
				      unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* 0 if @attr opens on this thread (closed again), else errno. */
static inline int perf_open_errno(struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A zeroed attr for software event @config; callers add the rest. */
static inline void sw_attr(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = config;
}

/* The count of an event with read_format 0; ~0ULL if read() fails. */
static inline __u64 read_value(int fd)
{
	__u64 v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return ~0ULL;
	return v;
}

/* CPU time this thread has used so far, in nanoseconds. */
static inline long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spin until this thread has used another @ns of CPU time. */
static inline void burn_cpu(long long ns)
{
	long long end = thread_cpu_ns() + ns;
	unsigned long i;

	while (thread_cpu_ns() < end)
		for (i = 0; i < 10000; i++)
			__asm__ __volatile__("" : : "r" (i) : "memory");
}

/* Map @n fresh anonymous pages, write a byte to each, unmap them. */
static inline int touch_pages(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int i;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* Small pages only, so that each page takes its own fault. */
	madvise(p, n * page, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	munmap(p, n * page);
	return 0;
}

/*
 * Read a byte of each of the @n pages at @p (a relaxed atomic load, which
 * the compiler keeps even though the value is only summed).
 */
static inline unsigned int read_pages(const char *p, long n, long page)
{
	unsigned int sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += __atomic_load_n(p + i * page, __ATOMIC_RELAXED);
	return sum;
}

/*
 * Take @n page faults on one anonymous page: write it, drop it again with
 * MADV_DONTNEED, and so on; the next write faults in a fresh page.
 */
static inline int fault_n(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int i;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* madvise() gets the address: the compiler must keep each store. */
	for (i = 0; i < n; i++) {
		p[0] = 1;
		madvise(p, page, MADV_DONTNEED);
	}
	munmap(p, page);
	return 0;
}

/* The id PERF_EVENT_IOC_ID gives for @fd; ~0ULL if the ioctl fails. */
static inline __u64 event_id(int fd)
{
	__u64 id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return ~0ULL;
	return id;
}

static inline int enable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

static inline int disable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* CLOCK_MONOTONIC now, in nanoseconds (what attr.clockid times use). */
static inline long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The two u32 halves of a record word, in memory order. */
static inline __u32 half(__u64 word, int i)
{
	__u32 pair[2];

	memcpy(pair, &word, sizeof(pair));
	return pair[i];
}

/* Restrict task @pid (0: the caller) to @cpu. */
static inline int pin_to_cpu(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/* Wait for child @pid; 0 if it exited normally with status 0. */
static inline int reap_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * A ping-pong partner: a child that echoes every non-zero byte it is sent
 * and exits at a zero byte.  Each round trip blocks both tasks once, so
 * each is switched out at least once per round.
 */
struct echo_partner {
	int to[2];	/* parent writes, child reads */
	int from[2];	/* child writes, parent reads */
	pid_t pid;
};

static inline void echo_partner_close(struct echo_partner *e)
{
	close(e->to[0]);
	close(e->to[1]);
	close(e->from[0]);
	close(e->from[1]);
}

/* Returns 0 with the child running, or -1. */
static inline int echo_partner_start(struct echo_partner *e)
{
	char c;

	if (pipe(e->to))
		return -1;
	if (pipe(e->from)) {
		close(e->to[0]);
		close(e->to[1]);
		return -1;
	}
	e->pid = fork();
	if (e->pid < 0) {
		echo_partner_close(e);
		return -1;
	}
	if (!e->pid) {
		while (read(e->to[0], &c, 1) == 1 && c)
			if (write(e->from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	return 0;
}

/* @rounds round trips; 0, or -1 if the partner stopped answering. */
static inline int echo_partner_rounds(struct echo_partner *e, int rounds)
{
	char c;

	while (rounds--) {
		c = 1;
		if (write(e->to[1], &c, 1) != 1 || read(e->from[0], &c, 1) != 1)
			return -1;
	}
	return 0;
}

/* Tells the partner to exit and reaps it: 0 if it exited cleanly. */
static inline int echo_partner_stop(struct echo_partner *e)
{
	char c = 0;
	int ret = write(e->to[1], &c, 1) == 1 ? 0 : -1;

	if (reap_child(e->pid))
		ret = -1;
	echo_partner_close(e);
	return ret;
}

/*
 * Fork a child that blocks until a byte arrives on a pipe, then runs
 * @work(@arg) and exits with its result (0 for success).  Returns its pid,
 * or -1; *go is the pipe's write end, for release_child().
 */
static inline pid_t fork_waiting_work(int (*work)(long long), long long arg,
				      int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		_exit(work(arg) ? 1 : 0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static inline int burn_cpu_work(long long ns)
{
	burn_cpu(ns);
	return 0;
}

/* A fork_waiting_work() child that burns @ns of CPU time. */
static inline pid_t fork_waiting_burner(long long ns, int *go)
{
	return fork_waiting_work(burn_cpu_work, ns, go);
}

/* Let a fork_waiting_work() child run, and reap it; 0 if it succeeded. */
static inline int release_child(pid_t pid, int go)
{
	char c = 0;

	if (write(go, &c, 1) != 1)
		return -1;
	close(go);
	return reap_child(pid);
}

/* Write @val as a decimal line to the (sysctl or cgroup) file @path. */
static inline int write_int(const char *path, int val)
{
	char s[16];
	int fd, len, ret;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(s, sizeof(s), "%d\n", val);
	ret = write(fd, s, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

/* Read a decimal (sysctl or sysfs) file into *@val; 0, or -1. */
static inline int read_int(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/*
 * A reader of an event's mmap()ed ring buffer: the control page, then
 * 2^n data pages.  ring_next() copies out one record at a time (records
 * may wrap around the end of the data area) and moves the reader's own
 * position; ring_publish() hands the space read so far back to the
 * kernel through data_tail.
 */
struct ring {
	struct perf_event_mmap_page *meta;
	char *data;
	size_t map_len;
	__u64 data_size;
	__u64 tail;	/* reader position, published by ring_publish() */
	int bad;	/* saw a record whose size cannot be right */
};

/* Map @fd's buffer with @data_pages (0 or a power of two) data pages. */
static inline int ring_map(struct ring *r, int fd, int data_pages, int prot)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	memset(r, 0, sizeof(*r));
	r->map_len = (1 + data_pages) * page;
	p = mmap(NULL, r->map_len, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->meta = p;
	r->data = (char *)p + page;
	r->data_size = (__u64)data_pages * page;
	return 0;
}

static inline void ring_unmap(struct ring *r)
{
	if (r->meta)
		munmap(r->meta, r->map_len);
	r->meta = NULL;
}

/* data_head, read before (acquire) any of the data it covers. */
static inline __u64 ring_head(struct ring *r)
{
	return __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
}

/* Tell the kernel everything before the reader position may be reused. */
static inline void ring_publish(struct ring *r)
{
	__atomic_store_n(&r->meta->data_tail, r->tail, __ATOMIC_RELEASE);
}

/* Copy @len bytes at ring offset @pos, which may wrap, into @dst. */
static inline void ring_copy(struct ring *r, __u64 pos, void *dst, size_t len)
{
	char *out = dst;
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = r->data[(pos + i) & (r->data_size - 1)];
}

/*
 * The next record at or after the reader position, copied into @buf
 * (@len bytes), or NULL when the reader has caught up with data_head or
 * the record is malformed (then r->bad is set).
 */
static inline struct perf_event_header *ring_next(struct ring *r, void *buf,
						  size_t len)
{
	struct perf_event_header *h = buf;
	__u64 head = ring_head(r);

	if (r->tail == head)
		return NULL;
	if (head - r->tail < sizeof(*h) || len < sizeof(*h)) {
		r->bad = 1;
		return NULL;
	}
	ring_copy(r, r->tail, h, sizeof(*h));
	if (h->size < sizeof(*h) || h->size % 8 || h->size > head - r->tail ||
	    h->size > len) {
		r->bad = 1;
		return NULL;
	}
	ring_copy(r, r->tail, buf, h->size);
	r->tail += h->size;
	return h;
}

/* The id of a tracepoint, from tracefs; -1 if it cannot be found. */
static inline long long tracepoint_id(const char *sys, const char *name)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing",
		"/sys/kernel/debug/tracing",
	};
	char path[256];
	long long id;
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i],
			 sys, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lld", &id) != 1)
			id = -1;
		fclose(f);
		return id;
	}
	return -1;
}

/* bpf(2), which glibc does not wrap either. */
static inline int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * Load "r0 = @ret; exit" as a BPF program of @type, named @name (NULL:
 * no name).  Return: its fd, or -1 with errno if the kernel refuses it.
 */
static inline int load_ret_prog(__u32 type, int ret, const char *name)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uintptr_t)"GPL";
	if (name)
		snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/*
 * A read-only overlayfs of two lower directories under /tmp, with one file
 * of @pages pages in the upper of them: its path through the overlay in
 * @o->file.  Needs root and CONFIG_OVERLAY_FS; 0, or -1 (then nothing is
 * left mounted).  overlay_remove() takes it down again.
 */
struct overlay {
	char dir[64];		/* /tmp/pe-ovl-PID: lower1, lower2, merged */
	char merged[96];
	char file[128];
};

static inline void overlay_remove(struct overlay *o)
{
	char path[128];

	umount(o->merged);
	snprintf(path, sizeof(path), "%s/lower1/file", o->dir);
	unlink(path);
	rmdir(o->merged);
	snprintf(path, sizeof(path), "%s/lower1", o->dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/lower2", o->dir);
	rmdir(path);
	rmdir(o->dir);
}

static inline int overlay_make(struct overlay *o, int pages)
{
	char lower1[96], lower2[96], opts[256], path[128];
	int fd, ok;

	snprintf(o->dir, sizeof(o->dir), "/tmp/pe-ovl-%d", getpid());
	snprintf(lower1, sizeof(lower1), "%s/lower1", o->dir);
	snprintf(lower2, sizeof(lower2), "%s/lower2", o->dir);
	snprintf(o->merged, sizeof(o->merged), "%s/merged", o->dir);
	snprintf(o->file, sizeof(o->file), "%s/file", o->merged);
	if (mkdir(o->dir, 0755) || mkdir(lower1, 0755) || mkdir(lower2, 0755) ||
	    mkdir(o->merged, 0755))
		goto fail;
	snprintf(path, sizeof(path), "%s/file", lower1);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	if (fd < 0)
		goto fail;
	ok = !ftruncate(fd, (off_t)pages * sysconf(_SC_PAGESIZE));
	close(fd);
	if (!ok)
		goto fail;
	snprintf(opts, sizeof(opts), "lowerdir=%s:%s", lower1, lower2);
	if (mount("overlay", o->merged, "overlay", MS_RDONLY, opts))
		goto fail;
	return 0;
fail:
	overlay_remove(o);
	return -1;
}

#endif /* PERF_HELPERS_H */
