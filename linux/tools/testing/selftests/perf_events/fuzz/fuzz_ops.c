// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ops.c - the fz_*() calls of fuzz_ops.h that are not inline, and
 * the state they share: linked into perf_fuzz and into every reproducer
 * mkrepro.sh makes.
 */
#include "fuzz_ops.h"

alignas(64) __u64 fz_target[FZ_TARGETS];
pid_t fz_buddy;
__thread sigjmp_buf *fz_jmp;
__thread char *fz_scratch_buf;
atomic_ulong fz_signals[65];
void fz_on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (sig > 0 && sig < 65)
		fz_signals[sig]++;
}

void fz_on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (fz_jmp)
		siglongjmp(*fz_jmp, 1);
	/* A fault the fuzzer did not expect: die of it, visibly. */
	signal(sig, SIG_DFL);
	raise(sig);
}

long long fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void fz_burn_us(long us)
{
	long long end = fz_now_ns() + us * 1000LL;
	unsigned long x = 0;

	while (fz_now_ns() < end) {
		int i;

		/* x in memory, loaded and stored each time round */
		for (i = 0; i < 1000; i++) {
			x += i;
			__asm__ __volatile__("" : "+m" (x));
		}
	}
}

/* Uprobes go on the entry of this function, which the workload calls. */
int fz_probe_target(int x)
{
	__asm__ __volatile__("" : : : "memory");
	return x * 3 + 1;
}

/*
 * Never called: uprobes at odd offsets inside it cannot break the
 * instructions the fuzzer runs.
 */
int fz_probe_never(int x)
{
	int i, r = x;

	for (i = 0; i < x; i++)
		r = r * 7 + i;
	__asm__ __volatile__("" : : : "memory");
	return r;
}

/* Execute breakpoints watch this one. */
int fz_bp_func(int x)
{
	__asm__ __volatile__("" : : : "memory");
	return x + 1;
}

/*
 * Call @fn through a pointer the compiler cannot see through: never
 * inlined, the call goes to @fn's entry, where the probes are.
 */
static int fz_call_entry(int (*fn)(int), int x)
{
	__asm__ __volatile__("" : "+r" (fn));
	return fn(x);
}

/*
 * The file offset of fz_probe_target (k 0), of fz_probe_never (1), odd
 * places inside fz_probe_never (2, 3), past the end of the file (4) and
 * of the ELF header (5), for uprobes on /proc/self/exe.
 */
__u64 fz_uprobe_off(int k)
{
	unsigned long addr, start, end, off;
	char line[512];
	__u64 ret = 0;
	FILE *f;

	addr = (unsigned long)(k == 0 ? (void *)fz_probe_target :
			       (void *)fz_probe_never);
	if (k == 5)
		return 0;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) != 3)
			continue;
		if (addr >= start && addr < end) {
			ret = addr - start + off;
			break;
		}
	}
	fclose(f);
	if (k == 2)
		ret += 1;
	else if (k == 3)
		ret += 6;
	else if (k == 4)
		ret = 64ULL << 20;
	return ret;
}

void fz_touch_pages(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int i;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (i = 0; i < n; i++)
		p[i * page] = (char)i;
	munmap(p, n * page);
}

/*
 * Some work of kind @mode, @n times or microseconds: CPU time, page
 * faults, system calls, context switches, accesses to the breakpoint
 * targets, calls of the uprobe target, mmap()s, comm changes, moves
 * between CPUs.
 */
int fz_work(int mode, int n)
{
	int i, fds[2], ret = 0;
	cpu_set_t set;
	char name[16];
	void *p;

	switch (mode) {
	case 0:
		fz_burn_us(n);
		break;
	case 1:
		fz_touch_pages(n);
		break;
	case 2:
		for (i = 0; i < n; i++)
			ret += getppid() > 0;
		break;
	case 3:
		for (i = 0; i < n; i++)
			sched_yield();
		break;
	case 4:
		/* __atomic: each load and store is made, 8 bytes wide */
		for (i = 0; i < n; i++) {
			__u64 *t = &fz_target[i % FZ_TARGETS];

			__atomic_store_n(t, __atomic_load_n(t, __ATOMIC_RELAXED) + i,
					 __ATOMIC_RELAXED);
			t = &fz_target[(i * 7) % FZ_TARGETS];
			ret += __atomic_load_n(t, __ATOMIC_RELAXED) & 1;
		}
		break;
	case 5:
		for (i = 0; i < n; i++)
			ret += fz_call_entry(fz_probe_target, i);
		break;
	case 6:
		if (pipe(fds))
			return -1;
		for (i = 0; i < n; i++) {
			char c = 0;

			if (write(fds[1], &c, 1) != 1 || read(fds[0], &c, 1) != 1)
				break;
			usleep(50);
		}
		close(fds[0]);
		close(fds[1]);
		break;
	case 7:
		for (i = 0; i < n; i++)
			ret += fz_call_entry(fz_bp_func, i);
		break;
	case 8:
		i = open("/proc/self/exe", O_RDONLY);
		if (i < 0)
			return -1;
		p = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, i, 0);
		close(i);
		if (p != MAP_FAILED)
			munmap(p, 8192);
		p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, 3 * 4096);
		break;
	case 9:
		snprintf(name, sizeof(name), "fz-%d", n);
		ret = prctl(PR_SET_NAME, name);
		break;
	case 10:
		CPU_ZERO(&set);
		CPU_SET(n, &set);
		ret = sched_setaffinity(0, sizeof(set), &set);
		break;
	case 11:
		CPU_ZERO(&set);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
		ret = sched_setaffinity(0, sizeof(set), &set);
		break;
	default:
		usleep(n);
		break;
	}
	return ret;
}

/*
 * perf_event_open(@attr, ...) into *@slot; the slot's old fd is closed if
 * the open succeeds, and stays otherwise.  The attr is copied into a
 * buffer of max(@alloc, sizeof(*attr)) bytes; with @tail non-zero, the
 * byte at sizeof(*attr) + (@tail >> 8) % (the extra bytes) is set to
 * (@tail & 0xff) | 1, else everything past the struct is zero.  A NULL
 * @attr is passed as NULL.
 */
int fz_open(int *slot, struct perf_event_attr *attr, unsigned int alloc,
	    unsigned int tail, long pid, int cpu, int group_fd,
	    unsigned long flags)
{
	static __thread alignas(8) char buf[8192];
	struct perf_event_attr *p = NULL;
	long ret;

	if (attr) {
		size_t n = alloc > sizeof(*attr) ? alloc : sizeof(*attr);

		if (n > sizeof(buf))
			n = sizeof(buf);
		memset(buf, 0, n);
		memcpy(buf, attr, sizeof(*attr));
		if (tail && n > sizeof(*attr))
			buf[sizeof(*attr) + (tail >> 8) % (n - sizeof(*attr))] =
				(char)((tail & 0xff) | 1);
		p = (struct perf_event_attr *)buf;
	}
	ret = sys_perf_event_open(p, pid, cpu, group_fd, flags);
	if (ret >= 0) {
		fz_close(slot);
		*slot = (int)ret;
	}
	return (int)ret;
}

int fz_munmap_all(struct fz_map *m)
{
	int ret;

	if (!m->addr)
		return FZ_SKIP;
	ret = munmap(m->addr, m->len);
	memset(m, 0, sizeof(*m));
	return ret;
}

/* mmap() @pages pages of @fd at page @pgoff into @m (its old mapping goes if this works). */
int fz_mmap(struct fz_map *m, int fd, unsigned long pages, int prot,
	    int flags, unsigned long pgoff)
{
	long page = fz_page();
	void *p;

	p = mmap(NULL, pages * page, prot, flags, fd, (off_t)pgoff * page);
	if (p == MAP_FAILED)
		return -1;
	fz_munmap_all(m);
	m->addr = p;
	m->len = pages * page;
	m->page0 = pgoff == 0 ? p : NULL;
	m->writable = !!(prot & PROT_WRITE);
	return 0;
}

/*
 * munmap() @n pages from page @first of @m, both cut to the mapping.
 * A hole in the middle leaves the fuzzer only the head: the tail is
 * unmapped as well, right after.
 */
int fz_munmap(struct fz_map *m, unsigned long first, unsigned long n)
{
	long page = fz_page();
	unsigned long pages;
	int ret;

	if (!m->addr)
		return FZ_SKIP;
	pages = m->len / page;
	first %= pages;
	if (n == 0 || n > pages - first)
		n = pages - first;
	ret = munmap(m->addr + first * page, n * page);
	if (ret)
		return ret;
	if (first == 0 && n == pages) {
		memset(m, 0, sizeof(*m));
	} else if (first == 0) {
		m->addr += n * page;
		m->len -= n * page;
		m->page0 = NULL;
	} else {
		if (first + n < pages)
			munmap(m->addr + (first + n) * page,
			       (pages - first - n) * page);
		m->len = first * page;
	}
	return ret;
}

int fz_mremap(struct fz_map *m, unsigned long pages, int flags)
{
	long page = fz_page();
	void *p;

	if (!m->addr || !pages)
		return FZ_SKIP;
	p = mremap(m->addr, m->len, pages * page, flags);
	if (p == MAP_FAILED)
		return -1;
	if (m->page0)
		m->page0 = p;
	m->addr = p;
	m->len = pages * page;
	return 0;
}

/*
 * Set up and map an AUX area of @pages pages for @fd into @aux, the way
 * its ring buffer @rb asks for: aux_offset/aux_size go in rb's control
 * page (if it has one, writable), then the area is mapped there.  @where
 * picks aux_offset: 0 right after the data pages (the right place), 1 on
 * top of them, 2 @pages further, 3 one byte off; @size_mode 1 makes
 * aux_size one page short of the mapping.
 */
int fz_aux(struct fz_map *aux, struct fz_map *rb, int fd,
	   unsigned long pages, int where, int size_mode, int prot)
{
	long page = fz_page();
	__u64 off = (__u64)page * (1 + 8);	/* __atomic: see FZ_GUARDED */

	if (rb->page0 && rb->writable) {
		struct perf_event_mmap_page *u = (void *)rb->page0;

		FZ_GUARDED({
			__u64 start = u->data_offset ? u->data_offset : (__u64)page;
			__u64 size = u->data_size;
			__u64 o = start + size;

			if (where == 1)
				o = start;
			else if (where == 2)
				o += pages * page;
			else if (where == 3)
				o += 1;
			__atomic_store_n(&off, o, __ATOMIC_RELAXED);
			u->aux_offset = o;
			u->aux_size = (pages - (size_mode && pages)) * page;
		});
	}
	return fz_mmap(aux, fd, pages, prot, MAP_SHARED,
		       __atomic_load_n(&off, __ATOMIC_RELAXED) / page);
}

/*
 * Look at or write to the control page of @m: 0 walk the records
 * between data_tail and data_head, 1 data_tail = @val, 2 aux_tail =
 * @val, 3 data_tail = data_head, 4 read the self-monitoring fields
 * (rdpmc where the page allows it), 5 scribble @val over every field.
 */
int fz_ring(struct fz_map *m, int what, __u64 val)
{
	struct perf_event_mmap_page *u = (void *)m->page0;
	int ret = 0;	/* __atomic: see FZ_GUARDED */

	if (!u)
		return FZ_SKIP;
	FZ_GUARDED({
		__u64 head, tail, size, off;
		unsigned int i;
		char *data;

		switch (what) {
		case 0:
			head = __atomic_load_n(&u->data_head, __ATOMIC_ACQUIRE);
			tail = u->data_tail;
			size = u->data_size;
			off = u->data_offset;
			if (!size || (size & (size - 1)) || off + size > m->len)
				break;
			data = m->addr + off;
			for (i = 0; i < 64 && tail < head; i++) {
				struct perf_event_header h;
				__u64 p = tail & (size - 1);

				if (p + sizeof(h) > size)
					break;
				memcpy(&h, data + p, sizeof(h));
				if (h.size < sizeof(h))
					break;
				tail += h.size;
				__atomic_add_fetch(&ret, 1, __ATOMIC_RELAXED);
			}
			break;
		case 1:
			__atomic_store_n(&u->data_tail, val, __ATOMIC_RELEASE);
			break;
		case 2:
			__atomic_store_n(&u->aux_tail, val, __ATOMIC_RELEASE);
			break;
		case 3:
			head = __atomic_load_n(&u->data_head, __ATOMIC_ACQUIRE);
			__atomic_store_n(&u->data_tail, head, __ATOMIC_RELEASE);
			break;
		case 4: {
			__u32 seq;
			__u64 sum = 0;

			do {
				seq = u->lock;
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
				sum += u->index + u->offset + u->time_enabled +
				       u->time_running + u->time_mult;
#ifdef __x86_64__
				if (u->cap_user_rdpmc && u->index) {
					unsigned int lo, hi;

					__asm__ __volatile__("rdpmc"
						: "=a" (lo), "=d" (hi)
						: "c" (u->index - 1));
					sum += lo + ((__u64)hi << 32);
				}
#endif
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
			} while (u->lock != seq &&
				 __atomic_add_fetch(&ret, 1, __ATOMIC_RELAXED) < 100);
			__atomic_store_n(&ret, (int)(sum & 1), __ATOMIC_RELAXED);
			break;
		}
		default:
			u->data_head = val;
			u->data_tail = val >> 3;
			u->data_offset = val;
			u->data_size = val << 1;
			u->aux_head = val;
			u->aux_tail = ~val;
			u->aux_offset = val;
			u->aux_size = val;
			u->lock = (__u32)val;
			u->index = (__u32)val;
			break;
		}
	});
	return __atomic_load_n(&ret, __ATOMIC_RELAXED);
}

/*
 * Load a BPF program of @type into *@slot (its old one closed if this
 * works): @variant 0 "return 0", 1 "return 1", 2 one that the verifier
 * refuses (it never exits).
 */
int fz_bpf_load(int *slot, unsigned int type, int variant)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = variant == 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int ret;

	if (variant == 2)
		insns[1] = insns[0];
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uintptr_t)"GPL";
	ret = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (ret >= 0) {
		if (*slot >= 0)
			close(*slot);
		*slot = ret;
	}
	return ret;
}

void *fz_thread_fn(void *arg)
{
	int mode = (int)(uintptr_t)arg;
	pthread_t t;

	switch (mode) {
	case 0:
		fz_burn_us(200);
		break;
	case 1:
		if (!pthread_create(&t, NULL, fz_thread_fn, (void *)0))
			pthread_join(t, NULL);
		break;
	case 2:
		fz_touch_pages(8);
		sched_yield();
		break;
	case 3:
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		fz_burn_us(100);
		prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
		break;
	default:
		fz_work(4, 64);
		fz_work(5, 4);
		break;
	}
	return NULL;
}

/* @n short-lived threads doing @mode's work, joined before returning. */
int fz_threads(int n, int mode)
{
	pthread_t t[16];
	pthread_attr_t pa;
	int i, made = 0;

	if (n > 16)
		n = 16;
	pthread_attr_init(&pa);
	pthread_attr_setstacksize(&pa, 128 * 1024);
	for (i = 0; i < n; i++)
		if (!pthread_create(&t[made], &pa, fz_thread_fn,
				    (void *)(uintptr_t)mode))
			made++;
	for (i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	pthread_attr_destroy(&pa);
	return made;
}

/* The long-lived buddy: sleeps, wakes, does a little, forever. */
void *fz_buddy_fn(void *arg)
{
	(void)arg;
	fz_buddy = fz_gettid();
	for (;;) {
		usleep(2000);
		fz_work(2, 4);
		fz_work(4, 8);
	}
	return NULL;
}

void fz_buddy_start(void)
{
	pthread_attr_t pa;
	pthread_t t;
	int i;

	pthread_attr_init(&pa);
	pthread_attr_setstacksize(&pa, 128 * 1024);
	pthread_attr_setdetachstate(&pa, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &pa, fz_buddy_fn, NULL))
		fz_buddy = -1;
	pthread_attr_destroy(&pa);
	for (i = 0; i < 1000 && !fz_buddy; i++)
		usleep(1000);
}

/* What a child does, by @mode; it never outlives an alarm of 20 s. */
void fz_child_work(int mode)
{
	static char *const envp[] = { NULL };
	char arg[16];
	pid_t pid;

	signal(SIGALRM, SIG_DFL);
	alarm(20);
	switch (mode) {
	case 0:
		fz_burn_us(3000);
		fz_touch_pages(16);
		break;
	case 1:
		execve("/bin/true", (char *[]){ "true", NULL }, envp);
		break;
	case 2:
		snprintf(arg, sizeof(arg), "%d", 0);
		execve("/proc/self/exe",
		       (char *[]){ "/proc/self/exe", "--fz-child", arg, NULL },
		       envp);
		break;
	case 3:
		for (;;)
			pause();
	case 4:
		fz_threads(4, 0);
		break;
	case 5:
		pid = fork();
		if (pid == 0) {
			fz_burn_us(500);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		break;
	case 6:
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		fz_burn_us(1000);
		prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
		fz_burn_us(1000);
		break;
	default:
		fz_work(4, 256);
		fz_work(5, 16);
		fz_work(7, 16);
		break;
	}
	_exit(0);
}

int fz_spawn(pid_t *slot, int mode)
{
	pid_t pid;

	fz_reap(slot, 1);
	pid = fork();
	if (pid == 0)
		fz_child_work(mode);
	*slot = pid > 0 ? pid : -1;
	return pid;
}

/* Reap child *@slot: @hard kills it first, else only if it has exited. */
int fz_reap(pid_t *slot, int hard)
{
	int ret;

	if (*slot <= 0)
		return FZ_SKIP;
	if (hard) {
		kill(*slot, SIGKILL);
		ret = waitpid(*slot, NULL, 0);
	} else {
		ret = waitpid(*slot, NULL, WNOHANG);
		if (ret == 0)
			return 0;
	}
	*slot = -1;
	return ret;
}

int fz_write_file(const char *path, const char *val)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val));
	close(fd);
	return ret < 0 ? -1 : 0;
}

/* Move this process into cgroup @k (0 the root, 1 fuzz-0, 2 fuzz-1). */
int fz_cgroup_enter(int k)
{
	char path[128];

	if (k == 0)
		snprintf(path, sizeof(path), FZ_CGROUP_ROOT "/cgroup.procs");
	else
		snprintf(path, sizeof(path), FZ_CGROUP_ROOT "/fuzz-%d/cgroup.procs",
			 k - 1);
	return fz_write_file(path, "0");
}

void fz_cgroups_open(int *cgfd)
{
	char path[128];
	int k;

	for (k = 0; k < FZ_CGROUPS; k++) {
		if (k == 0)
			snprintf(path, sizeof(path), FZ_CGROUP_ROOT);
		else
			snprintf(path, sizeof(path), FZ_CGROUP_ROOT "/fuzz-%d",
				 k - 1);
		cgfd[k] = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
}

/*
 * What a worker does before its first operation: signal handlers, the
 * buddy thread, the cgroup directories, every table slot empty.  Also
 * the "--fz-child" entry of perf_fuzz and of reproducers (an exec()ed
 * child), which does not return.
 */
void fz_repro_init(int argc, char **argv, int *fd, int *prog, int *cgfd,
		   pid_t *kid, struct fz_map *mp)
{
	int i;

	if (argc > 1 && !strcmp(argv[1], "--fz-child")) {
		fz_signals_init();
		fz_work(4, 64);
		fz_work(5, 8);
		fz_burn_us(500);
		_exit(0);
	}
	fz_signals_init();
	fz_buddy_start();
	for (i = 0; i < FZ_FDS; i++)
		fd[i] = -1;
	for (i = 0; i < FZ_PROGS; i++)
		prog[i] = -1;
	for (i = 0; i < FZ_KIDS; i++)
		kid[i] = -1;
	memset(mp, 0, FZ_MAPS * sizeof(*mp));
	if (geteuid() == 0) {
		mkdir(FZ_CGROUP_ROOT "/fuzz-0", 0755);
		mkdir(FZ_CGROUP_ROOT "/fuzz-1", 0755);
	}
	fz_cgroups_open(cgfd);
}
