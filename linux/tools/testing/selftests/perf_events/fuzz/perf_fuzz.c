// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz - random but structured perf_event_open(2) traffic.
 *
 * Workers (forked processes and threads of one more process) each draw
 * operations from their own PRNG, seeded from --seed and the worker's
 * index: perf_event_open() with attrs that are mostly plausible and
 * sometimes not, ioctl()s, mmap()s of ring buffers and AUX areas,
 * read()/poll()/fcntl()/close()/dup(), BPF programs, children that fork,
 * exec and die with events on them, thread storms, perf sysctls, cgroup
 * moves and CPU hotplug.  What an operation does never depends on how
 * an earlier one went: a worker's sequence of calls is a function of
 * (seed, index, op count) alone, whatever the kernel answers.
 *
 * Lines for the host start with "@@FUZZ".  See README for the options,
 * for replaying a seed and for turning a log into a reproducer.
 */
#include "fuzz.h"

const char * const kind_name[NR_KINDS] = {
	"perf_event_open", "close", "dup",
	"ioctl_enable", "ioctl_disable", "ioctl_refresh", "ioctl_reset",
	"ioctl_period", "ioctl_set_output", "ioctl_set_filter", "ioctl_id",
	"ioctl_set_bpf", "ioctl_pause_output", "ioctl_query_bpf",
	"ioctl_modify_attributes", "ioctl_other",
	"mmap", "munmap", "mremap", "mmap_aux", "ring", "read", "write",
	"poll", "fcntl", "prctl", "bpf_prog_load", "fork", "kill", "wait",
	"threads", "work", "sysctl", "hotplug", "cgroup",
};

struct shared *sh;

struct fz_opt opt = {
	.seed = 1, .ops = 10000, .seconds = 300, .threads = 2, .procs = 2,
	.hotplug = 1, .sysctl = 1, .only = -1, .progress = 10,
};

struct fz_sys sys_info = { .kprobe = -1, .uprobe = -1, .logfd = -1 };

/* ---- the log: every call as one line of C ---------------------------- */

void lg(struct worker *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->len >= sizeof(w->line) - 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->line + w->len, sizeof(w->line) - 2 - w->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->len += n;
	if (w->len > sizeof(w->line) - 2)
		w->len = sizeof(w->line) - 2;
}

void lg_begin(struct worker *w)
{
	w->len = 0;
	lg(w, "/*w%d*/ ", w->idx);
}

/* Write the line out, before the call it describes is made. */
void lg_end(struct worker *w)
{
	ssize_t n;
	size_t off = 0;

	w->line[w->len++] = '\n';
	while (off < w->len) {
		n = write(sys_info.logfd, w->line + off, w->len - off);
		if (n <= 0)
			break;
		off += n;
	}
	w->len = 0;
}

/* A C string literal for @s. */
void lg_str(struct worker *w, const char *s)
{
	lg(w, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			lg(w, "\\%c", *s);
		else if (*s >= 32 && *s < 127)
			lg(w, "%c", *s);
		else
			lg(w, "\\%03o", (unsigned char)*s);
	}
	lg(w, "\"");
}

/* ---- accounting -------------------------------------------------------- */

void account(struct worker *w, enum kind k, long ret, int err)
{
	struct kind_stats *st = &sh->w[w->idx].k[k];

	st->calls++;
	if (ret == FZ_SKIP)
		st->skipped++;
	else if (ret >= 0)
		st->ok++;
	else if (err > 0 && err < NR_ERRNO)
		__atomic_fetch_add(&sh->errnos[k][err], 1, __ATOMIC_RELAXED);
	sh->w[w->idx].sigtrap = fz_signals[SIGTRAP];
	sh->w[w->idx].sigio = fz_signals[SIGIO];
	if (w->log && opt.results && !w->dry) {
		lg_begin(w);
		if (ret == FZ_SKIP)
			lg(w, "/* = skipped */");
		else if (ret < 0)
			lg(w, "/* = %ld %s */", ret, errno_name(err));
		else
			lg(w, "/* = %ld */", ret);
		lg_end(w);
	}
}

/* ---- arguments: a value and, when logging, its C text ----------------- */

void arg_set(struct worker *w, struct arg *a, long v, const char *fmt, ...)
{
	va_list ap;

	a->v = v;
	if (!w->log)
		return;
	va_start(ap, fmt);
	vsnprintf(a->t, sizeof(a->t), fmt, ap);
	va_end(ap);
}

void arg_num(struct worker *w, struct arg *a, long v)
{
	arg_set(w, a, v, "%ld", v);
}

/* A slot of the fd table: half the time the latest open. */
int pick_slot(struct worker *w)
{
	if (chance(w, 50))
		return w->last;
	if (chance(w, 40))
		return rnd(w, 8);
	return rnd(w, FZ_FDS);
}

/* An fd argument: mostly a table slot, sometimes -1 or junk. */
void pick_fd(struct worker *w, struct arg *a)
{
	static const int junk[] = { -1, -1, 9998, 9999, INT_MAX };
	int s;

	if (chance(w, 92)) {
		s = pick_slot(w);
		arg_set(w, a, w->fd[s], "fd[%d]", s);
	} else {
		arg_num(w, a, PICK(w, junk));
	}
}

/* The pid argument for @t, as it is now. */
void target_pid(struct worker *w, const struct target *t, struct arg *a)
{
	switch (t->kind) {
	case P_GETPID:
		arg_set(w, a, w->dry ? 1 : getpid(), "getpid()");
		break;
	case P_GETTID:
		arg_set(w, a, w->dry ? 1 : fz_gettid(), "fz_gettid()");
		break;
	case P_BUDDY:
		arg_set(w, a, w->dry ? 1 : fz_buddy_tid(), "fz_buddy_tid()");
		break;
	case P_KID:
		arg_set(w, a, w->kid[t->n], "kid[%ld]", t->n);
		break;
	case P_CGROUP:
		arg_set(w, a, w->cgfd[t->n], "cgfd[%ld]", t->n);
		break;
	default:
		arg_num(w, a, t->n);
		break;
	}
}

/* A task to watch: always one of our own, or no task (-1), or junk. */
void pick_target(struct worker *w, struct target *t)
{
	static const long bad[] = { -2, 0x7ffffff0, INT_MAX, -1000 };
	unsigned int r = rnd(w, 100);

	t->n = 0;
	if (r < 36) {
		t->kind = P_NUM;
	} else if (r < 48) {
		t->kind = P_NUM;
		t->n = -1;
	} else if (r < 56) {
		t->kind = P_GETPID;
	} else if (r < 64) {
		t->kind = P_GETTID;
	} else if (r < 74) {
		t->kind = P_BUDDY;
	} else if (r < 96) {
		t->kind = P_KID;
		t->n = rnd(w, FZ_KIDS);
	} else {
		t->kind = P_NUM;
		t->n = PICK(w, bad);
	}
}

/* A CPU: mostly -1 for a task, mostly a real one without (@no_task). */
int pick_cpu(struct worker *w, int no_task)
{
	unsigned int r = rnd(w, 100);

	if (r < 95 && no_task)
		return rnd(w, sys_info.ncpus);
	if (r < 55)
		return -1;
	if (r < 95)
		return rnd(w, sys_info.ncpus);
	if (r < 98)
		return sys_info.ncpus + rnd(w, 2);
	return chance(w, 50) ? -2 : 4096;
}

/* ---- workers ---------------------------------------------------------- */

static void worker_init(struct worker *w, int idx, int is_thread, int dry)
{
	memset(w, 0, offsetof(struct worker, line));
	w->idx = idx;
	w->is_thread = is_thread;
	w->dry = dry;
	w->log = sys_info.logfd >= 0;
	rng_seed(w, opt.seed, idx);
	w->ops = (opt.ops + (opt.procs + opt.threads) - 1) /
		 (opt.procs + opt.threads);
	memset(w->fd, -1, sizeof(w->fd));
	memset(w->prog, -1, sizeof(w->prog));
	memset(w->cgfd, -1, sizeof(w->cgfd));
	memset(w->kid, -1, sizeof(w->kid));
}

static void worker_begin(struct worker *w)
{
	if (!w->dry)
		fz_cgroups_open(w->cgfd);
	if (w->log) {
		lg_begin(w);
		lg(w, "/* worker %d seed %llu ops %ld %s */", w->idx, opt.seed,
		   w->ops, w->is_thread ? "thread" : "process");
		lg_end(w);
	}
}

/* Put away what the worker's calls left: children, maps, fds. */
static void worker_end(struct worker *w)
{
	int k;

	if (w->dry)
		return;
	for (k = 0; k < FZ_KIDS; k++)
		fz_reap(&w->kid[k], 1);
	for (k = 0; k < FZ_MAPS; k++)
		fz_munmap_all(&w->mp[k]);
	for (k = 0; k < FZ_FDS; k++)
		fz_close(&w->fd[k]);
	sh->w[w->idx].finished = 1;
}

static void worker_run(struct worker *w)
{
	long i;

	worker_begin(w);
	for (i = 0; i < w->ops && !sh->stop; i++) {
		do_op(w);
		sh->w[w->idx].done++;
	}
	worker_end(w);
}

static void *thread_worker(void *arg)
{
	worker_run(arg);
	return NULL;
}

static void drop_privileges(void)
{
	if (!opt.unpriv || geteuid() != 0)
		return;
	if (setgroups(0, NULL) || setgid(UNPRIV_UID) || setuid(UNPRIV_UID)) {
		fprintf(stderr, "perf_fuzz: cannot become uid %d: %m\n", UNPRIV_UID);
		_exit(3);
	}
}

/* A process for workers [@first, @first + @n): threads when @threads. */
static pid_t start_process(int first, int n, int threads)
{
	pid_t pid = fork();
	pthread_t t[MAX_WORKERS];
	struct worker *w;
	int i;

	if (pid)
		return pid;
	signal(SIGALRM, SIG_DFL);	/* on_alarm() is the supervisor's */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fz_signals_init();
	drop_privileges();
	fz_buddy_start();
	w = calloc(n, sizeof(*w));
	if (!w)
		_exit(3);
	for (i = 0; i < n; i++)
		worker_init(&w[i], first + i, threads, 0);
	if (!threads) {
		worker_run(&w[0]);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_worker, &w[i]))
			t[i] = 0;
	for (i = 0; i < n; i++)
		if (t[i])
			pthread_join(t[i], NULL);
	_exit(0);
}

/*
 * A process for worker 0 that makes the calls of @e: at each segment the
 * worker's PRNG is seeded from the segment's seed and draws that many
 * operations; the fds, maps and children of a segment stay for the next.
 * With @cov, the edges of the perf core the calls reach are merged into
 * it (fuzz_corpus.c); the process exits 4 if KCOV cannot be set up.
 */
pid_t start_sequence(const struct fz_entry *e, struct fz_cover *cov)
{
	pid_t pid = fork();
	struct worker *w;
	unsigned int k;
	int i;

	if (pid)
		return pid;
	signal(SIGALRM, SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fz_signals_init();
	/* debugfs is root's: KCOV is opened before the workers drop root */
	if (cov && cover_open())
		_exit(4);
	drop_privileges();
	fz_buddy_start();
	w = calloc(1, sizeof(*w));
	if (!w)
		_exit(3);
	worker_init(w, 0, 0, 0);
	worker_begin(w);
	for (i = 0; i < e->n && !sh->stop; i++) {
		rng_seed(w, e->s[i].seed, 0);
		if (w->log) {
			lg_begin(w);
			lg(w, "/* segment %d seed %#llx ops %u */", i,
			   (unsigned long long)e->s[i].seed, e->s[i].ops);
			lg_end(w);
		}
		for (k = 0; k < e->s[i].ops && !sh->stop; k++) {
			if (cov)
				cover_op_begin();
			do_op(w);
			if (cov)
				cover_op_end();
			sh->w[0].done++;
		}
	}
	worker_end(w);
	if (cov)
		cover_merge(cov);
	_exit(0);
}

/* ---- the supervisor --------------------------------------------------- */

/* Tracepoints the fuzzer and its workload hit all the time. */
static const char * const hot_tracepoints[] = {
	"raw_syscalls/sys_enter", "raw_syscalls/sys_exit", "sched/sched_switch",
	"sched/sched_wakeup", "sched/sched_process_fork",
	"sched/sched_process_exec", "sched/sched_process_exit",
	"sched/sched_migrate_task", "timer/hrtimer_expire_entry",
	"timer/hrtimer_start", "syscalls/sys_enter_getppid",
	"syscalls/sys_exit_getppid", "syscalls/sys_enter_read",
	"syscalls/sys_enter_sched_yield", "syscalls/sys_enter_perf_event_open",
	"syscalls/sys_enter_ioctl", "irq/softirq_entry", "irq/irq_handler_entry",
	"signal/signal_generate", "signal/signal_deliver",
	"exceptions/page_fault_user", "exceptions/page_fault_kernel",
	"kmem/kmalloc", "kmem/kfree", "kmem/mm_page_alloc", "task/task_newtask",
	"task/task_rename", "workqueue/workqueue_execute_start",
	"mmap/vm_unmapped_area", "cgroup/cgroup_attach_task",
	"cpuhp/cpuhp_enter", "bpf_trace/bpf_trace_printk",
};

static void discover_hot(const char *tracing)
{
	char path[256];
	unsigned long long id;
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(hot_tracepoints); i++) {
		snprintf(path, sizeof(path), "%s/%s/id", tracing, hot_tracepoints[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &id) == 1 && sys_info.nhot < 32)
			sys_info.hot[sys_info.nhot++] = id;
		fclose(f);
	}
}

static void discover(void)
{
	char path[512], buf[64];
	struct dirent *s, *e;
	DIR *d, *sd;
	FILE *f;
	int i, j;
	const char *tracing = "/sys/kernel/tracing/events";

	sys_info.ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (sys_info.ncpus < 1)
		sys_info.ncpus = 1;

	d = opendir(tracing);
	if (!d) {
		tracing = "/sys/kernel/debug/tracing/events";
		d = opendir(tracing);
	}
	while (d && (s = readdir(d)) && sys_info.ntp < MAX_TP_IDS) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", tracing, s->d_name);
		sd = opendir(path);
		while (sd && (e = readdir(sd)) && sys_info.ntp < MAX_TP_IDS) {
			unsigned long long id;

			if (e->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s/%s/id", tracing,
				     s->d_name, e->d_name) >= (int)sizeof(path))
				continue;
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fscanf(f, "%llu", &id) == 1)
				sys_info.tp[sys_info.ntp++] = id;
			fclose(f);
		}
		if (sd)
			closedir(sd);
	}
	if (d)
		closedir(d);
	discover_hot(tracing);
	/* The directory order is the kernel's; sort for a stable choice. */
	for (i = 1; i < sys_info.ntp; i++) {
		__u64 v = sys_info.tp[i];

		for (j = i; j > 0 && sys_info.tp[j - 1] > v; j--)
			sys_info.tp[j] = sys_info.tp[j - 1];
		sys_info.tp[j] = v;
	}

	d = opendir("/sys/bus/event_source/devices");
	while (d && (s = readdir(d)) && sys_info.npmu < MAX_PMUS) {
		struct pmu *p = &sys_info.pmu[sys_info.npmu];

		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", s->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) &&
		    snprintf(p->name, sizeof(p->name), "%s", s->d_name) <
		    (int)sizeof(p->name)) {
			p->type = strtoul(buf, NULL, 0);
			sys_info.npmu++;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	for (i = 1; i < sys_info.npmu; i++) {
		struct pmu v = sys_info.pmu[i];

		for (j = i; j > 0 && strcmp(sys_info.pmu[j - 1].name, v.name) > 0; j--)
			sys_info.pmu[j] = sys_info.pmu[j - 1];
		sys_info.pmu[j] = v;
	}
	for (i = 0; i < sys_info.npmu; i++) {
		if (!strcmp(sys_info.pmu[i].name, "kprobe"))
			sys_info.kprobe = i;
		if (!strcmp(sys_info.pmu[i].name, "uprobe"))
			sys_info.uprobe = i;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/perf_event_mux_interval_ms",
			 sys_info.pmu[i].name);
		if (!access(path, F_OK) &&
		    snprintf(sys_info.mux[sys_info.nmux], sizeof(sys_info.mux[0]),
			     "%s", path) < (int)sizeof(sys_info.mux[0]))
			sys_info.nmux++;
	}
	for (i = 0; i < 6; i++)
		sys_info.uprobe_off[i] = fz_uprobe_off(i);
}

/* Sysctl and sysfs values to put back at the end. */
static struct saved {
	char path[160];
	char val[64];
} saved[MAX_PMUS + 8];
static int nsaved;

static void save_file(const char *path)
{
	struct saved *s = &saved[nsaved];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || nsaved >= (int)ARRAY_SIZE(saved))
		goto out;
	n = read(fd, s->val, sizeof(s->val) - 1);
	if (n > 0) {
		s->val[n] = 0;
		snprintf(s->path, sizeof(s->path), "%s", path);
		nsaved++;
	}
out:
	if (fd >= 0)
		close(fd);
}

static void save_state(void)
{
	int i;

	save_file("/proc/sys/kernel/perf_event_paranoid");
	for (i = 0; i < NR_SYSCTLS; i++)
		save_file(sysctls[i]);
	for (i = 0; i < sys_info.nmux; i++)
		save_file(sys_info.mux[i]);
}

void restore_state(void)
{
	char path[96];
	int i;

	if (geteuid() != 0)
		return;
	for (i = 1; i < sys_info.ncpus && opt.hotplug; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", i);
		fz_write_file(path, "1");
	}
	/* mlock_kb and max_stack may refuse while events are still going. */
	for (i = 0; i < nsaved; i++)
		fz_write_file(saved[i].path, saved[i].val);
	rmdir(FZ_CGROUP_ROOT "/fuzz-0");
	rmdir(FZ_CGROUP_ROOT "/fuzz-1");
}

/* Worker processes (negated once reaped) and their first worker. */
static pid_t children[MAX_WORKERS + 1];
static int child_worker[MAX_WORKERS + 1];
static int nchildren;

static void add_child(pid_t pid, int worker)
{
	if (pid <= 1) {
		printf("@@FUZZ cannot fork worker %d: %s\n", worker, strerror(errno));
		return;
	}
	child_worker[nchildren] = worker;
	children[nchildren++] = pid;
}

/* The one process of a sequence (fuzz_corpus.c), for on_alarm(). */
void track_sequence(pid_t pid)
{
	nchildren = 0;
	if (pid > 1)
		add_child(pid, 0);
}

long long t_start;

static unsigned long total(enum kind k, int what)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < MAX_WORKERS; i++) {
		struct kind_stats *s = &sh->w[i].k[k];

		n += what == 0 ? s->calls : what == 1 ? s->ok : s->skipped;
	}
	return n;
}

unsigned long all_done(void)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < MAX_WORKERS; i++)
		n += sh->w[i].done;
	return n;
}

/* "@@FUZZ ops=N": the calls so far, every --progress seconds */
void progress(void)
{
	printf("@@FUZZ ops=%lu opens_ok=%lu elapsed=%llds\n", all_done(),
	       total(K_OPEN, 1), (fz_now_ns() - t_start) / 1000000000LL);
	fflush(stdout);
}

const char *errno_name(int e)
{
	static __thread char buf[16];
	const char *name;

	/* the two kernel-internal codes that reach user space */
	if (e == 512)
		return "ERESTARTSYS";
	if (e == 524)
		return "ENOTSUPP";
	name = strerrorname_np(e);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

void final_report(int stuck)
{
	unsigned long calls = 0, ok = 0, skipped = 0, trap = 0, sigio = 0;
	int k, i;

	for (k = 0; k < NR_KINDS; k++) {
		calls += total(k, 0);
		ok += total(k, 1);
		skipped += total(k, 2);
	}
	for (i = 0; i < MAX_WORKERS; i++) {
		trap += sh->w[i].sigtrap;
		sigio += sh->w[i].sigio;
	}
	if (!opt.quiet) {
		for (k = 0; k < NR_KINDS; k++) {
			unsigned long c = total(k, 0);
			int top[3] = { 0, 0, 0 }, e, j;

			if (!c)
				continue;
			for (e = 1; e < NR_ERRNO; e++) {
				for (j = 0; j < 3; j++) {
					if (!top[j] || sh->errnos[k][e] >
					    sh->errnos[k][top[j]]) {
						memmove(&top[j + 1], &top[j],
							(2 - j) * sizeof(int));
						top[j] = e;
						break;
					}
				}
			}
			printf("@@FUZZ call %-24s calls=%-7lu ok=%-7lu skipped=%-6lu",
			       kind_name[k], c, total(k, 1), total(k, 2));
			for (j = 0; j < 3; j++)
				if (top[j] && sh->errnos[k][top[j]])
					printf(" %s=%lu", errno_name(top[j]),
					       sh->errnos[k][top[j]]);
			printf("\n");
		}
	}
	/* Errnos of the kernel's own (ENOTSUPP, ERESTARTSYS...) that got out. */
	for (k = 0; k < NR_KINDS; k++)
		for (i = 512; i < NR_ERRNO; i++)
			if (sh->errnos[k][i])
				printf("@@FUZZ odd-errno call=%s errno=%d (%s) count=%lu\n",
				       kind_name[k], i, errno_name(i),
				       sh->errnos[k][i]);
	printf("@@FUZZ done ops=%lu opens_ok=%lu errors=%lu skipped=%lu",
	       all_done(), total(K_OPEN, 1), calls - ok - skipped, skipped);
	printf(" sigtrap=%lu sigio=%lu seconds=%lld stuck=%d\n", trap, sigio,
	       (fz_now_ns() - t_start) / 1000000000LL, stuck);
	fflush(stdout);
}

static void kill_all(void)
{
	int i;

	for (i = 0; i < nchildren; i++) {
		if (children[i] > 1) {
			kill(-children[i], SIGKILL);
			kill(children[i], SIGKILL);
		}
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	kill_all();
	sh->stop = 1;
	final_report(1);
	restore_state();
	_exit(0);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: perf_fuzz [options]\n"
		"  --seed N       PRNG seed (default 1); worker i draws from (N, i)\n"
		"  --ops N        calls in all, split over the workers (default 10000)\n"
		"  --seconds N    stop after N seconds whatever is left (default 300)\n"
		"  --procs N      worker processes (default 2)\n"
		"  --threads N    worker threads, all in one more process (default 2)\n"
		"  --only K       run worker K alone (same sequence as in a full run)\n"
		"  --unpriv       as root: perf_event_paranoid=-1, workers as uid 1000\n"
		"  --no-hotplug   no CPU offline/online\n"
		"  --no-sysctl    no writes to perf sysctls\n"
		"  --steady       as root: perf_event_max_sample_rate fixed at 2000 (the\n"
		"                 kernel does not lower it by itself), for comparing the\n"
		"                 results of two kernels call by call\n"
		"  --log FILE     every call as a line of C, before it is made ('-': stdout)\n"
		"  --log-results  and after it, what it returned, as a comment\n"
		"  --dry-run      make no system call at all: print the log only\n"
		"  --progress N   a progress line every N seconds (default 10)\n"
		"  --quiet        no per-call breakdown at the end\n"
		"  --corpus FILE  first make each call sequence of FILE (a line of\n"
		"                 SEED:OPS segments each), one process a sequence,\n"
		"                 for a quarter of --seconds at most\n"
		"  --corpus-ops N replay at most N calls of the corpus, the sequences\n"
		"                 that added the most edges a call first\n"
		"  --guided       coverage-guided (needs KCOV): one worker runs\n"
		"                 sequences mutated from the corpus and keeps those\n"
		"                 that reach new edges of the perf core, printing\n"
		"                 each as '@@FUZZ corpus' (see README)\n");
	exit(2);
}

static void parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", 1, NULL, 's' }, { "ops", 1, NULL, 'o' },
		{ "seconds", 1, NULL, 't' }, { "threads", 1, NULL, 'T' },
		{ "procs", 1, NULL, 'P' }, { "only", 1, NULL, 'O' },
		{ "unpriv", 0, NULL, 'u' }, { "no-hotplug", 0, NULL, 'H' },
		{ "no-sysctl", 0, NULL, 'S' }, { "log", 1, NULL, 'l' },
		{ "log-results", 0, NULL, 'r' }, { "steady", 0, NULL, 'y' },
		{ "dry-run", 0, NULL, 'n' }, { "progress", 1, NULL, 'p' },
		{ "quiet", 0, NULL, 'q' }, { "help", 0, NULL, 'h' },
		{ "corpus", 1, NULL, 'c' }, { "guided", 0, NULL, 'g' },
		{ "corpus-ops", 1, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			opt.ops = strtol(optarg, NULL, 0);
			break;
		case 't':
			opt.seconds = atoi(optarg);
			break;
		case 'T':
			opt.threads = atoi(optarg);
			break;
		case 'P':
			opt.procs = atoi(optarg);
			break;
		case 'O':
			opt.only = atoi(optarg);
			break;
		case 'u':
			opt.unpriv = 1;
			break;
		case 'H':
			opt.hotplug = 0;
			break;
		case 'S':
			opt.sysctl = 0;
			break;
		case 'l':
			opt.log = optarg;
			break;
		case 'n':
			opt.dry_run = 1;
			break;
		case 'r':
			opt.results = 1;
			break;
		case 'y':
			opt.steady = 1;
			break;
		case 'p':
			opt.progress = atoi(optarg);
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'c':
			opt.corpus = optarg;
			break;
		case 'g':
			opt.guided = 1;
			break;
		case 'C':
			opt.corpus_ops = strtol(optarg, NULL, 0);
			break;
		default:
			print_usage();
		}
	}
	if (opt.procs < 0 || opt.threads < 0 ||
	    opt.procs + opt.threads < 1 || opt.procs + opt.threads > MAX_WORKERS ||
	    opt.seconds < 1 || opt.ops < 1 || opt.progress < 1 ||
	    opt.only >= opt.procs + opt.threads)
		print_usage();
}

static void open_log(void)
{
	if (!opt.log) {
		if (opt.dry_run)
			sys_info.logfd = 1;
		return;
	}
	if (!strcmp(opt.log, "-"))
		sys_info.logfd = 1;
	else
		sys_info.logfd = open(opt.log, O_WRONLY | O_CREAT | O_TRUNC |
				      O_APPEND | O_CLOEXEC, 0644);
	if (sys_info.logfd < 0) {
		fprintf(stderr, "perf_fuzz: %s: %m\n", opt.log);
		exit(2);
	}
}

static void dry_run(void)
{
	struct worker *w = calloc(1, sizeof(*w));
	int i, n = opt.procs + opt.threads;

	if (!w)
		exit(3);
	for (i = 0; i < n; i++) {
		if (opt.only >= 0 && i != opt.only)
			continue;
		worker_init(w, i, i >= opt.procs, 1);
		worker_run(w);
	}
	free(w);
}

/* How the process of @worker ended, if that was not the plan. */
static void report_end(int worker, int status)
{
	if (WIFSIGNALED(status) && !sh->stop)
		printf("@@FUZZ worker-process %d died: signal %d (during %s)\n",
		       worker, WTERMSIG(status), kind_name[sh->w[worker].cur]);
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		printf("@@FUZZ worker-process %d exited %d\n",
		       worker, WEXITSTATUS(status));
}

/* Where the workers that have not finished are. */
static void report_stuck(int nworkers)
{
	int i;

	for (i = 0; i < nworkers; i++)
		if (!sh->w[i].finished && (opt.only < 0 || opt.only == i))
			printf("@@FUZZ stuck worker=%d in %s after %lu ops\n",
			       i, kind_name[sh->w[i].cur], sh->w[i].done);
}

int main(int argc, char **argv)
{
	int nworkers, i, status, left, stuck = 0, quiet_rounds = 0;
	unsigned long last_done = 0;
	long long next_progress, deadline;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "--fz-child")) {
		int fd[FZ_FDS], prog[FZ_PROGS], cgfd[FZ_CGROUPS];
		pid_t kid[FZ_KIDS];
		struct fz_map mp[FZ_MAPS];

		fz_repro_init(argc, argv, fd, prog, cgfd, kid, mp);
	}
	parse(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	nworkers = opt.procs + opt.threads;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("perf_fuzz: mmap");
		return 3;
	}
	memset(sh, 0, sizeof(*sh));
	discover();
	open_log();
	t_start = fz_now_ns();
	/* one line, in three printf()s */
	printf("@@FUZZ start seed=%llu workers=%d procs=%d threads=%d ops=%ld",
	       opt.seed, nworkers, opt.procs, opt.threads, opt.ops);
	printf(" seconds=%d unpriv=%d hotplug=%d sysctl=%d only=%d dry_run=%d",
	       opt.seconds, opt.unpriv, opt.hotplug, opt.sysctl, opt.only,
	       opt.dry_run);
	printf(" cpus=%d tracepoints=%d/%d pmus=%d kprobe=%d uprobe=%d\n",
	       sys_info.ncpus, sys_info.nhot, sys_info.ntp, sys_info.npmu,
	       sys_info.kprobe >= 0, sys_info.uprobe >= 0);
	if (opt.dry_run) {
		dry_run();
		final_report(0);
		return 0;
	}

	if (geteuid() == 0) {
		struct rlimit rl = { 4096, 4096 };

		setrlimit(RLIMIT_NOFILE, &rl);
		save_state();
		mkdir(FZ_CGROUP_ROOT "/fuzz-0", 0755);
		mkdir(FZ_CGROUP_ROOT "/fuzz-1", 0755);
		if (opt.unpriv)
			fz_write_file("/proc/sys/kernel/perf_event_paranoid", "-1");
		if (opt.steady) {
			/* low enough for an emulated CPU to keep up with */
			fz_write_file(sysctls[0], "2000");
			fz_write_file(sysctls[1], "0");
		}
	}
	{
		struct rlimit rl = { 0, 0 };

		setrlimit(RLIMIT_CORE, &rl);
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	deadline = t_start + opt.seconds * 1000000000LL;
	sh->deadline_ns = deadline;
	signal(SIGALRM, on_alarm);
	alarm(opt.seconds + 60);

	if (opt.corpus && corpus_load(opt.corpus) < 0)
		printf("@@FUZZ corpus %s: %s\n", opt.corpus, strerror(errno));
	if (opt.guided) {
		stuck = guided_run(deadline);
		alarm(0);
		restore_state();
		final_report(stuck);
		return 0;
	}
	if (corpus_replay(deadline)) {
		alarm(0);
		restore_state();
		final_report(1);
		return 0;
	}
	nchildren = 0;
	for (i = 0; i < opt.procs; i++)
		if (opt.only < 0 || opt.only == i)
			add_child(start_process(i, 1, 0), i);
	if (opt.threads && opt.only >= opt.procs)
		add_child(start_process(opt.only, 1, 0), opt.only);
	else if (opt.threads && opt.only < 0)
		add_child(start_process(opt.procs, opt.threads, 1), opt.procs);

	next_progress = t_start + opt.progress * 1000000000LL;
	left = nchildren;
	while (left > 0) {
		long long now;

		usleep(100000);
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (i = 0; i < nchildren; i++) {
				if (children[i] != pid)
					continue;
				report_end(child_worker[i], status);
				children[i] = -pid;	/* its group may live on */
				left--;
			}
		}
		if (pid < 0 && errno == ECHILD)
			break;
		now = fz_now_ns();
		if (now >= next_progress) {
			unsigned long d = all_done();

			progress();
			next_progress += opt.progress * 1000000000LL;
			quiet_rounds = d == last_done ? quiet_rounds + 1 : 0;
			last_done = d;
			if (quiet_rounds == 3) {
				report_stuck(nworkers);
				stuck = 1;
			}
		}
		if (now >= deadline && !sh->stop) {
			sh->stop = 1;
			/* Give the workers a moment to finish their call. */
			deadline = now + 10 * 1000000000LL;
		} else if (now >= deadline) {
			printf("@@FUZZ killing the workers\n");
			kill_all();
			deadline = now + 60 * 1000000000LL;
		}
	}
	/* Whatever the workers left behind (their children), in their groups. */
	for (i = 0; i < nchildren; i++)
		if (children[i] < -1)
			kill(children[i], SIGKILL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	alarm(0);
	restore_state();
	final_report(stuck);
	return 0;
}
